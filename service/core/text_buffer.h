/* text_buffer.h: a growing text, for what is written a piece at a time:
 * the JSON writers (core/json_text.c, ledger/canonical.c) and the
 * signature fields and base (ledger/httpsig.c). Small and called per
 * byte, so it is all inline. Out of memory aborts (STYLE.md). */
#ifndef SERVICE_CORE_TEXT_BUFFER_H
#define SERVICE_CORE_TEXT_BUFFER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text_buffer {
    char *bytes; /* NULL until something is written */
    size_t len;
    size_t cap;
} text_buffer;

/* Makes room for more bytes and the NUL text_buffer_finish adds. */
static inline void text_buffer_reserve(text_buffer *t, size_t more)
{
    if (t->len + more + 1 <= t->cap)
        return;
    size_t cap = t->cap > 0 ? t->cap : 1024;
    while (cap < t->len + more + 1)
        cap *= 2;
    char *grown = realloc(t->bytes, cap);
    if (grown == NULL) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
    t->bytes = grown;
    t->cap = cap;
}

static inline void text_buffer_put(text_buffer *t, const void *bytes, size_t n)
{
    text_buffer_reserve(t, n);
    memcpy(t->bytes + t->len, bytes, n);
    t->len += n;
}

static inline void text_buffer_put_char(text_buffer *t, char c)
{
    text_buffer_reserve(t, 1);
    t->bytes[t->len++] = c;
}

/* The text written, NUL-terminated, which the caller frees; t is left
 * empty. */
static inline char *text_buffer_finish(text_buffer *t)
{
    text_buffer_reserve(t, 0);
    t->bytes[t->len] = '\0';
    char *text = t->bytes;
    *t = (text_buffer){0};
    return text;
}

#endif
