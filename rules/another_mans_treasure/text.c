/* text.c: text for people (view_text), in short lines that read the same
 * in a fixed-width and a proportional font: words flow onto the next line
 * with a two-space indent, nothing is aligned in columns. */
#include "amt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INDENT 2
#define NO_BREAK '~'

static void put(amt_text *t, const char *text, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap == 0 ? 1024 : t->cap;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *grown = realloc(t->buf, cap);
        if (grown == NULL)
            abort();
        t->buf = grown;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, text, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

static void newline(amt_text *t, int indent)
{
    put(t, "\n", 1);
    for (int i = 0; i < indent; i++)
        put(t, " ", 1);
    t->column = indent;
}

/* Writes one word (no breaking space in it), on a new line when it does
 * not fit; a word wider than a whole line (none is, in practice) is cut. */
static void put_word(amt_text *t, const char *word, size_t n)
{
    if (t->column > INDENT && t->column + 1 + (int)n > AMT_TEXT_WIDTH) {
        newline(t, INDENT);
    } else if (t->column > 0 && t->buf[t->len - 1] != ' ') {
        put(t, " ", 1);
        t->column++;
    }
    while (t->column + (int)n > AMT_TEXT_WIDTH) {
        size_t room = (size_t)(AMT_TEXT_WIDTH - t->column);
        put(t, word, room);
        word += room;
        n -= room;
        newline(t, INDENT);
    }
    size_t start = t->len;
    put(t, word, n);
    for (size_t i = start; i < t->len; i++) {
        if (t->buf[i] == NO_BREAK)
            t->buf[i] = ' ';
    }
    t->column += (int)n;
}

static void flow(amt_text *t, const char *fmt, va_list ap)
{
    char text[512];
    vsnprintf(text, sizeof text, fmt, ap);
    const char *p = text;
    while (*p != '\0') {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (n > 0)
            put_word(t, p, n);
        p += n;
    }
}

void amt_text_line(amt_text *t, const char *fmt, ...)
{
    if (t->len > 0)
        newline(t, 0);
    va_list ap;
    va_start(ap, fmt);
    flow(t, fmt, ap);
    va_end(ap);
}

void amt_text_say(amt_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    flow(t, fmt, ap);
    va_end(ap);
}

void amt_text_blank(amt_text *t)
{
    if (t->len > 0)
        newline(t, 0);
}

static int count_lines(const char *text)
{
    int lines = 0;
    for (const char *c = text; *c != '\0'; c++)
        lines += *c == '\n';
    return lines;
}

/* Drops empty lines: a text that is too long keeps its content. */
static void drop_blank_lines(amt_text *t)
{
    size_t out = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (t->buf[i] == '\n' && (out == 0 || t->buf[out - 1] == '\n'))
            continue;
        t->buf[out++] = t->buf[i];
    }
    t->len = out;
    t->buf[out] = '\0';
}

/* Ends t within max_lines lines: without its empty lines when too long,
 * then cut, saying so on its last line. */
static void fit(amt_text *t, int max_lines)
{
    if (t->len == 0 || t->buf[t->len - 1] != '\n')
        put(t, "\n", 1);
    if (count_lines(t->buf) > max_lines)
        drop_blank_lines(t);
    if (count_lines(t->buf) > max_lines) {
        static const char tail[] = "(more in the full view)\n";
        int lines = 0;
        size_t i = 0;
        while (lines < max_lines - 1)
            lines += t->buf[i++] == '\n';
        t->len = i;
        put(t, tail, strlen(tail));
    }
}

char *amt_text_finish(amt_text *t)
{
    fit(t, AMT_TEXT_MAX_LINES);
    char *text = t->buf;
    memset(t, 0, sizeof *t);
    return text;
}

char *amt_text_finish_with(amt_text *t, amt_text *legend)
{
    fit(legend, AMT_TEXT_MAX_LINES / 4);
    fit(t, AMT_TEXT_MAX_LINES - 1 - count_lines(legend->buf));
    put(t, "\n", 1);
    put(t, legend->buf, legend->len);
    free(legend->buf);
    memset(legend, 0, sizeof *legend);
    return amt_text_finish(t);
}
