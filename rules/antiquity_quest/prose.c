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
    /* A view's text is a few kilobytes: start near that, not at one
     * phrase's length, and double. */
    *cap = (len + more + 1) * 2;
    if (*cap < 1024)
        *cap = 1024;
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

/* Appends n bytes to the paragraph in the making. */
static void say_bytes(aq_prose *p, const char *bytes, size_t n)
{
    grow(&p->para, &p->para_cap, p->para_len, n);
    memcpy(p->para + p->para_len, bytes, n);
    p->para_len += n;
    p->para[p->para_len] = '\0';
}

/* value in decimal, as printf writes it, at the end of buf (at least 24
 * bytes); returns where it starts. */
static char *decimal(char *end, unsigned long long value, bool negative)
{
    char *at = end;
    do {
        *--at = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    if (negative)
        *--at = '-';
    return at;
}

/* Whether every conversion in fmt is %s, %d or %zu, which say_simple
 * writes as printf would. */
static bool simple_format(const char *fmt)
{
    for (const char *c = strchr(fmt, '%'); c != NULL; c = strchr(c, '%')) {
        if (c[1] == 's' || c[1] == 'd')
            c += 2;
        else if (c[1] == 'z' && c[2] == 'u')
            c += 3;
        else
            return false;
    }
    return true;
}

/* printf's %s, %d and %zu without its machinery: most of a view's text
 * is card names and counts. */
static void say_simple(aq_prose *p, const char *fmt, va_list ap)
{
    for (;;) {
        const char *c = strchr(fmt, '%');
        if (c == NULL) {
            say_bytes(p, fmt, strlen(fmt));
            return;
        }
        say_bytes(p, fmt, (size_t)(c - fmt));
        char number[24];
        if (c[1] == 's') {
            const char *text = va_arg(ap, const char *);
            if (text == NULL)
                text = "(null)";
            say_bytes(p, text, strlen(text));
            fmt = c + 2;
            continue;
        }
        char *end = number + sizeof number;
        char *from;
        if (c[1] == 'd') {
            long long value = va_arg(ap, int);
            from = decimal(end, value < 0 ? 0ull - (unsigned long long)value
                                          : (unsigned long long)value,
                           value < 0);
            fmt = c + 2;
        } else {
            from = decimal(end, va_arg(ap, size_t), false);
            fmt = c + 3;
        }
        say_bytes(p, from, (size_t)(end - from));
    }
}

void aq_prose_say(aq_prose *p, const char *fmt, ...)
{
    va_list ap;
    if (simple_format(fmt)) {
        va_start(ap, fmt);
        say_simple(p, fmt, ap);
        va_end(ap);
        return;
    }
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    grow(&p->para, &p->para_cap, p->para_len, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(p->para + p->para_len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    p->para_len += (size_t)n;
}

void aq_prose_put(aq_prose *p, const char *text)
{
    say_bytes(p, text, strlen(text));
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

void aq_prose_add(aq_prose *p, const aq_prose *from)
{
    if (from->len > 0)
        append(p, from->text, from->len);
    p->lines += from->lines;
}

void aq_prose_free(aq_prose *p)
{
    free(p->text);
    free(p->para);
    *p = (aq_prose){0};
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
