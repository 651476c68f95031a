/* json_text.c: compact JSON text of a jansson value (json_text.h). Every
 * rule below is jansson 2.14's dump.c with JSON_COMPACT, and the tests
 * (tests/service/http/test_json_text.c, tests/fuzz/json_text.c) compare
 * the two byte for byte. */
#include "core/json_text.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text_buffer.h"

/* Deeper values go to json_dumps whole, which also finds cycles; no
 * answer of ours nests a tenth as deep. */
#define JSON_TEXT_MAX_DEPTH 64

typedef struct text {
    text_buffer out;
    bool failed; /* a string jansson would refuse, or too deep */
} text;

static void put(text *t, const void *bytes, size_t n)
{
    text_buffer_put(&t->out, bytes, n);
}

static void put_char(text *t, char c)
{
    text_buffer_put_char(&t->out, c);
}

/* Bytes a string copies as they are: printable ASCII but '"' and '\'.
 * Everything else is escaped, or checked as UTF-8. */
static bool copied_as_is(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* The length of the well-formed UTF-8 sequence at s (n bytes left) that
 * starts with a byte of 0x80 or more, or 0 where jansson's utf8_iterate
 * fails: a stray continuation byte, an overlong form, a surrogate, a
 * code point past U+10FFFF, or a sequence cut short. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    size_t need;
    uint32_t point;
    if (s[0] < 0xC2)
        return 0;
    if (s[0] < 0xE0) {
        need = 2;
        point = s[0] & 0x1Fu;
    } else if (s[0] < 0xF0) {
        need = 3;
        point = s[0] & 0x0Fu;
    } else if (s[0] < 0xF5) {
        need = 4;
        point = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (n < need)
        return 0;
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0u) != 0x80u)
            return 0;
        point = (point << 6) | (s[i] & 0x3Fu);
    }
    if ((need == 3 && point < 0x800) || (need == 4 && point < 0x10000) ||
        point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF))
        return 0;
    return need;
}

static void put_string(text *t, const char *chars, size_t n)
{
    const unsigned char *s = (const unsigned char *)chars;
    text_buffer_reserve(&t->out, n + 2);
    put_char(t, '"');
    size_t at = 0;
    while (at < n) {
        size_t run = at;
        while (run < n && copied_as_is(s[run]))
            run++;
        put(t, s + at, run - at);
        at = run;
        if (at == n)
            break;
        if (s[at] >= 0x80) {
            size_t length = utf8_sequence(s + at, n - at);
            if (length == 0) {
                t->failed = true;
                return;
            }
            put(t, s + at, length);
            at += length;
            continue;
        }
        char escape[8];
        switch (s[at]) {
        case '\\':
            put(t, "\\\\", 2);
            break;
        case '"':
            put(t, "\\\"", 2);
            break;
        case '\b':
            put(t, "\\b", 2);
            break;
        case '\f':
            put(t, "\\f", 2);
            break;
        case '\n':
            put(t, "\\n", 2);
            break;
        case '\r':
            put(t, "\\r", 2);
            break;
        case '\t':
            put(t, "\\t", 2);
            break;
        default:
            snprintf(escape, sizeof escape, "\\u%04X", (unsigned)s[at]);
            put(t, escape, 6);
            break;
        }
        at++;
    }
    put_char(t, '"');
}

static void put_integer(text *t, json_int_t value)
{
    char digits[24];
    char *end = digits + sizeof digits;
    char *first = end;
    unsigned long long magnitude = value < 0 ? 0ULL - (unsigned long long)value
                                             : (unsigned long long)value;
    do {
        *--first = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (value < 0)
        *--first = '-';
    put(t, first, (size_t)(end - first));
}

/* Reals are rare in answers and their shortest digits are jansson's
 * business: it writes them. */
static void put_real(text *t, const json_t *value)
{
    char *digits = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (digits == NULL) {
        t->failed = true;
        return;
    }
    put(t, digits, strlen(digits));
    free(digits);
}

static void put_value(text *t, const json_t *value, int depth)
{
    if (t->failed)
        return;
    if (depth > JSON_TEXT_MAX_DEPTH) {
        t->failed = true;
        return;
    }
    switch (json_typeof(value)) {
    case JSON_OBJECT: {
        put_char(t, '{');
        json_t *object = (json_t *)value;
        bool first = true;
        for (void *it = json_object_iter(object); it != NULL;
             it = json_object_iter_next(object, it)) {
            if (!first)
                put_char(t, ',');
            first = false;
            put_string(t, json_object_iter_key(it),
                       json_object_iter_key_len(it));
            put_char(t, ':');
            put_value(t, json_object_iter_value(it), depth + 1);
        }
        put_char(t, '}');
        break;
    }
    case JSON_ARRAY: {
        put_char(t, '[');
        size_t count = json_array_size(value);
        for (size_t i = 0; i < count; i++) {
            if (i > 0)
                put_char(t, ',');
            put_value(t, json_array_get(value, i), depth + 1);
        }
        put_char(t, ']');
        break;
    }
    case JSON_STRING:
        put_string(t, json_string_value(value), json_string_length(value));
        break;
    case JSON_INTEGER:
        put_integer(t, json_integer_value(value));
        break;
    case JSON_REAL:
        put_real(t, value);
        break;
    case JSON_TRUE:
        put(t, "true", 4);
        break;
    case JSON_FALSE:
        put(t, "false", 5);
        break;
    case JSON_NULL:
        put(t, "null", 4);
        break;
    }
}

char *json_text_compact(const json_t *value)
{
    /* Like json_dumps without JSON_ENCODE_ANY: a bare string or number is
     * no JSON text. */
    if (!json_is_object(value) && !json_is_array(value))
        return NULL;
    text t = {0};
    put_value(&t, value, 0);
    char *written = text_buffer_finish(&t.out);
    if (t.failed) {
        /* A string jansson refuses fails there too; a deep value (or a
         * cycle) is jansson's to write or refuse. */
        free(written);
        return json_dumps(value, JSON_COMPACT);
    }
    return written;
}
