/* prose.c: see prose.h. */
#include "prose.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Makes room for more bytes and a NUL in *buf. */
static void grow(char **buf, size_t *cap, size_t len, size_t more)
{
    if (len + more + 1 <= *cap)
        return;
    *cap = (len + more + 1) * 2;
    *buf = realloc(*buf, *cap);
    if (*buf == NULL) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
}

static void append(aq_prose *p, const char *bytes, size_t n)
{
    grow(&p->text, &p->cap, p->len, n);
    memcpy(p->text + p->len, bytes, n);
    p->len += n;
    p->text[p->len] = '\0';
}

void aq_prose_say(aq_prose *p, const char *fmt, ...)
{
    va_list ap;
    if (strchr(fmt, '%') == NULL) {
        /* Words without a conversion, the most frequent: copied. */
        size_t n = strlen(fmt);
        grow(&p->para, &p->para_cap, p->para_len, n);
        memcpy(p->para + p->para_len, fmt, n + 1);
        p->para_len += n;
        return;
    }
    /* Formatted straight into the room left, and again only when it
     * did not fit. */
    size_t room = p->para_cap > p->para_len ? p->para_cap - p->para_len : 0;
    va_start(ap, fmt);
    int n = vsnprintf(room > 0 ? p->para + p->para_len : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    if ((size_t)n >= room) {
        grow(&p->para, &p->para_cap, p->para_len, (size_t)n);
        va_start(ap, fmt);
        vsnprintf(p->para + p->para_len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    p->para_len += (size_t)n;
}

static void new_line(aq_prose *p, size_t indent)
{
    append(p, "\n", 1);
    p->lines++;
    for (size_t i = 0; i < indent; i++)
        append(p, " ", 1);
}

void aq_prose_end(aq_prose *p)
{
    const char *at = p->para != NULL ? p->para : "";
    size_t indent = strspn(at, " ");
    size_t column = indent;
    append(p, at, indent);
    at += indent;
    bool line_has_word = false;
    while (*at != '\0') {
        size_t n = strcspn(at, " ");
        if (n == 0) {
            at++;
            continue;
        }
        if (line_has_word && column + 1 + n > AQ_PROSE_WIDTH) {
            column = indent + 2;
            new_line(p, column);
            line_has_word = false;
        }
        if (line_has_word) {
            append(p, " ", 1);
            column++;
        }
        /* A word longer than a line (none is) is cut rather than let run. */
        size_t fits = AQ_PROSE_WIDTH - column;
        size_t kept = n < fits ? n : fits;
        size_t from = p->len;
        append(p, at, kept);
        for (size_t i = from; i < p->len; i++) {
            if (p->text[i] == AQ_PROSE_GLUE[0])
                p->text[i] = ' ';
        }
        column += kept;
        line_has_word = true;
        at += n;
    }
    append(p, "\n", 1);
    p->lines++;
    p->para_len = 0;
    if (p->para != NULL)
        p->para[0] = '\0';
}

void aq_prose_cut(aq_prose *p, int max_lines, const char *last)
{
    if (p->lines <= max_lines)
        return;
    size_t end = 0;
    for (int n = 0; n < max_lines - 1; n++)
        end += strcspn(p->text + end, "\n") + 1;
    p->len = end;
    p->text[end] = '\0';
    p->lines = max_lines - 1;
    aq_prose_say(p, "%s", last);
    aq_prose_end(p);
}

void aq_prose_clear(aq_prose *p)
{
    p->len = 0;
    p->lines = 0;
    p->para_len = 0;
    if (p->text != NULL)
        p->text[0] = '\0';
    if (p->para != NULL)
        p->para[0] = '\0';
}

char *aq_prose_take(aq_prose *p)
{
    if (p->text == NULL)
        append(p, "", 0);
    char *text = p->text;
    free(p->para);
    *p = (aq_prose){0};
    return text;
}
