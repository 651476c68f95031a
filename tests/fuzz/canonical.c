/* canonical.c: fuzzes the RFC 8785 serialiser (ledger/canonical.h) that
 * every event hash of an export, an import and `pbem verify` goes through:
 * a field that serialises differently twice would make a valid log fail
 * its check, or two logs share a hash.
 *
 * Input: a JSON value (the body of an event, say). Its canonical text must
 * read back as JSON, and be its own canonical form: canonical(read(c)) = c.
 * (Node's JSON.stringify, which RFC 8785 follows, gives the same numbers.)
 * Without real numbers (whose shortest form is the point of RFC 8785), the
 * text must also read back as the value it came from. */
#include <stdbool.h>

#include "fuzz.h"
#include "ledger/canonical.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* Whether value holds a real number or an integer beyond 2^53, which
 * RFC 8785 prints as the double it rounds to. */
static bool has_inexact(const json_t *value)
{
    const json_t *member;
    const char *key;
    size_t i;
    switch (json_typeof(value)) {
    case JSON_REAL:
        return true;
    case JSON_INTEGER:
        return json_integer_value(value) > (1LL << 53) ||
               json_integer_value(value) < -(1LL << 53);
    case JSON_OBJECT:
        json_object_foreach((json_t *)value, key, member) {
            if (has_inexact(member))
                return true;
        }
        return false;
    case JSON_ARRAY:
        json_array_foreach(value, i, member) {
            if (has_inexact(member))
                return true;
        }
        return false;
    default:
        return false;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *value = json_loadb((const char *)data, size,
                               JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (value == NULL)
        return 0;
    char *text = canonical_json(value);
    json_error_t error;
    json_t *again = json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);
    /* A real from 1e20 up to 1e21 prints as an integer (ECMAScript's
     * rule), too large for jansson to read back: valid JSON, and only
     * hashed, never read. */
    if (again == NULL &&
        json_error_code(&error) == json_error_numeric_overflow) {
        free(text);
        json_decref(value);
        return 0;
    }
    if (again == NULL)
        abort(); /* the canonical text is not JSON */
    char *twice = canonical_json(again);
    if (strcmp(text, twice) != 0)
        abort(); /* the canonical form is not stable */
    if (!has_inexact(value) && !json_equal(value, again))
        abort(); /* the canonical text means another value */
    free(twice);
    json_decref(again);
    free(text);
    json_decref(value);
    return 0;
}
