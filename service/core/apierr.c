/* apierr.c */
#include "core/apierr.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at p, or 0 when there is none
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_sequence(const unsigned char *p)
{
    size_t n = p[0] < 0x80               ? 1
               : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
               : p[0] >= 0xe0 && p[0] <= 0xef ? 3
               : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4
                                              : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

bool apierr_set(apierr *err, int status, const char *code, const char *fmt, ...)
{
    err->status = status;
    err->head = -1;
    err->retry_after = 0;
    snprintf(err->code, sizeof err->code, "%s", code);
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, args);
    va_end(args);
    /* A message may quote what a client sent, or be cut in the middle of a
     * character; answers are JSON, which holds only valid UTF-8 (jansson
     * refuses anything else, and the answer would be lost). */
    unsigned char *p = (unsigned char *)err->message;
    while (*p != '\0') {
        size_t n = utf8_sequence(p);
        if (n == 0)
            *p++ = '?';
        else
            p += n;
    }
    return false;
}
