/* json_text.c: fuzzes the answers' JSON writer (core/json_text.h) against
 * the jansson dump it stands in for. Every answer pbemd sends goes through
 * it, so a string it escapes differently, or a byte jansson refuses and it
 * lets through, would reach clients as broken or different JSON.
 *
 * Input: a JSON value (any, NULs in strings allowed). Both writers must
 * give the same text, or both none; and the text must read back as the
 * value. */
#include <jansson.h>

#include "core/json_text.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *value = json_loadb((const char *)data, size,
                               JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (value == NULL)
        return 0;
    char *theirs = json_dumps(value, JSON_COMPACT);
    char *ours = json_text_compact(value);
    if ((theirs == NULL) != (ours == NULL))
        abort(); /* one writer refused what the other wrote */
    if (ours != NULL && strcmp(ours, theirs) != 0)
        abort(); /* the texts differ */
    if (ours != NULL) {
        json_t *again = json_loads(ours, JSON_ALLOW_NUL, NULL);
        if (again == NULL || !json_equal(again, value))
            abort(); /* the text does not mean the value */
        json_decref(again);
    }
    free(theirs);
    free(ours);
    json_decref(value);
    return 0;
}
