/* canonical.c: RFC 8785 (JCS) serialization (canonical.h). */
#include "ledger/canonical.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text_buffer.h"

typedef text_buffer text;

static void put(text *t, const char *s, size_t n)
{
    text_buffer_put(t, s, n);
}

static void put_str(text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* RFC 8785 3.2.2.2: only what JSON requires is escaped. */
static void put_string(text *t, const char *s, size_t n)
{
    put(t, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *short_form = c == '"'    ? "\\\""
                                 : c == '\\' ? "\\\\"
                                 : c == '\b' ? "\\b"
                                 : c == '\f' ? "\\f"
                                 : c == '\n' ? "\\n"
                                 : c == '\r' ? "\\r"
                                 : c == '\t' ? "\\t"
                                             : NULL;
        if (short_form != NULL) {
            put_str(t, short_form);
        } else if (c < 0x20) {
            char escaped[8];
            snprintf(escaped, sizeof escaped, "\\u%04x", c);
            put_str(t, escaped);
        } else {
            put(t, (const char *)&c, 1);
        }
    }
    put(t, "\"", 1);
}

/* RFC 8785 3.2.2.3: a number as ECMAScript's Number.prototype.toString
 * prints it: the shortest digits that read back as the same double, in
 * fixed notation from 1e-6 up to 1e21, else as d.ddde+N. */
static void put_double(text *t, double x)
{
    if (x == 0) {
        put_str(t, "0"); /* -0 included */
        return;
    }
    char digits[40];
    int precision;
    for (precision = 1; precision <= 17; precision++) {
        snprintf(digits, sizeof digits, "%.*e", precision - 1, x);
        if (strtod(digits, NULL) == x)
            break;
    }
    /* digits is [-]d[.ddd]e±XX: the significant digits and the exponent. */
    char sig[24];
    size_t k = 0;
    const char *p = digits;
    if (*p == '-') {
        put(t, "-", 1);
        p++;
    }
    for (; *p != 'e'; p++) {
        if (*p != '.')
            sig[k++] = *p;
    }
    sig[k] = '\0';
    int n = atoi(p + 1) + 1; /* the decimal point after n digits */
    char out[64];
    if ((int)k <= n && n <= 21) {
        snprintf(out, sizeof out, "%s%0*d", sig, n - (int)k, 0);
        if (n == (int)k)
            snprintf(out, sizeof out, "%s", sig);
    } else if (0 < n && n <= 21) {
        snprintf(out, sizeof out, "%.*s.%s", n, sig, sig + n);
    } else if (-6 < n && n <= 0) {
        snprintf(out, sizeof out, "0.%0*d%s", -n, 0, sig);
        if (n == 0)
            snprintf(out, sizeof out, "0.%s", sig);
    } else {
        int e = n - 1;
        if (k == 1)
            snprintf(out, sizeof out, "%se%c%d", sig, e < 0 ? '-' : '+',
                     abs(e));
        else
            snprintf(out, sizeof out, "%c.%se%c%d", sig[0], sig + 1,
                     e < 0 ? '-' : '+', abs(e));
    }
    put_str(t, out);
}

/* Integers are doubles to ECMAScript: exact up to 2^53, beyond that
 * printed as the double they round to. */
static void put_integer(text *t, json_int_t n)
{
    if (n > -(1LL << 53) && n < (1LL << 53)) {
        char out[24];
        snprintf(out, sizeof out, "%" JSON_INTEGER_FORMAT, n);
        put_str(t, out);
    } else {
        put_double(t, (double)n);
    }
}

/* The next UTF-16 code unit of UTF-8 *s (advancing it past a whole
 * character after its last unit); malformed bytes count as themselves. */
static unsigned utf16_unit(const unsigned char **s, int *pending_low)
{
    if (*pending_low >= 0) {
        unsigned low = (unsigned)*pending_low;
        *pending_low = -1;
        return low;
    }
    const unsigned char *p = *s;
    unsigned cp;
    int len;
    if (p[0] < 0x80) {
        cp = p[0];
        len = 1;
    } else if ((p[0] & 0xe0) == 0xc0 && p[1]) {
        cp = (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu);
        len = 2;
    } else if ((p[0] & 0xf0) == 0xe0 && p[1] && p[2]) {
        cp = (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu);
        len = 3;
    } else if ((p[0] & 0xf8) == 0xf0 && p[1] && p[2] && p[3]) {
        cp = (p[0] & 0x07u) << 18 | (p[1] & 0x3fu) << 12 |
             (p[2] & 0x3fu) << 6 | (p[3] & 0x3fu);
        len = 4;
    } else {
        cp = p[0];
        len = 1;
    }
    *s += len;
    if (cp >= 0x10000) {
        cp -= 0x10000;
        *pending_low = (int)(0xdc00 + (cp & 0x3ff));
        return 0xd800 + (cp >> 10);
    }
    return cp;
}

/* RFC 8785 3.2.3: member names compare as arrays of UTF-16 code units. */
static int utf16_compare(const void *a, const void *b)
{
    const unsigned char *x = *(const unsigned char *const *)a;
    const unsigned char *y = *(const unsigned char *const *)b;
    int x_low = -1, y_low = -1;
    while ((*x || x_low >= 0) && (*y || y_low >= 0)) {
        unsigned ux = utf16_unit(&x, &x_low);
        unsigned uy = utf16_unit(&y, &y_low);
        if (ux != uy)
            return ux < uy ? -1 : 1;
    }
    bool x_more = *x || x_low >= 0, y_more = *y || y_low >= 0;
    return x_more == y_more ? 0 : x_more ? 1 : -1;
}

static void put_value(text *t, const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT: {
        size_t count = json_object_size(value), i = 0;
        const char **keys = calloc(count ? count : 1, sizeof *keys);
        if (keys == NULL)
            abort();
        const char *key;
        json_t *member;
        json_object_foreach((json_t *)value, key, member)
            keys[i++] = key;
        qsort(keys, count, sizeof *keys, utf16_compare);
        put(t, "{", 1);
        for (i = 0; i < count; i++) {
            if (i > 0)
                put(t, ",", 1);
            put_string(t, keys[i], strlen(keys[i]));
            put(t, ":", 1);
            put_value(t, json_object_get(value, keys[i]));
        }
        put(t, "}", 1);
        free(keys);
        break;
    }
    case JSON_ARRAY:
        put(t, "[", 1);
        for (size_t i = 0; i < json_array_size(value); i++) {
            if (i > 0)
                put(t, ",", 1);
            put_value(t, json_array_get(value, i));
        }
        put(t, "]", 1);
        break;
    case JSON_STRING:
        put_string(t, json_string_value(value), json_string_length(value));
        break;
    case JSON_INTEGER:
        put_integer(t, json_integer_value(value));
        break;
    case JSON_REAL:
        put_double(t, json_real_value(value));
        break;
    case JSON_TRUE:
        put_str(t, "true");
        break;
    case JSON_FALSE:
        put_str(t, "false");
        break;
    case JSON_NULL:
        put_str(t, "null");
        break;
    }
}

char *canonical_json(const json_t *value)
{
    text t = {0};
    put_value(&t, value);
    return text_buffer_finish(&t);
}
