/* text.c: paragraphs wrapped into short lines (qq_text.h). */
#include "qq_text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stands for a space the wrapper keeps on one line if it can. */
#define JOIN QQ_TEXT_JOIN[0]

static void reserve(qq_buf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap == 0 ? 256 : b->cap;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *data = realloc(b->data, cap);
    if (data == NULL)
        abort();
    b->data = data;
    b->cap = cap;
}

static void add(qq_buf *b, bool joined, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0) {
        reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
        for (int i = 0; joined && i < n; i++) {
            if (b->data[b->len + (size_t)i] == ' ')
                b->data[b->len + (size_t)i] = JOIN;
        }
        b->len += (size_t)n;
    }
    va_end(again);
}

void qq_buf_add(qq_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(b, false, fmt, ap);
    va_end(ap);
}

void qq_buf_add_joined(qq_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(b, true, fmt, ap);
    va_end(ap);
}

void qq_buf_free(qq_buf *b)
{
    free(b->data);
    *b = (qq_buf){0};
}

static void put_bytes(qq_buf *b, const char *p, size_t n)
{
    reserve(b, n);
    memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* Puts a word (joined spaces written as spaces) on the line. */
static void put_word(qq_text *t, const char *p, size_t n)
{
    reserve(&t->out, n);
    for (size_t i = 0; i < n; i++)
        t->out.data[t->out.len++] = p[i] == JOIN ? ' ' : p[i];
    t->out.data[t->out.len] = '\0';
}

/* The longest start of word (n bytes) that fits in room: the whole word,
 * else up to its last joined space that fits, else room bytes. */
static size_t fitting(const char *word, size_t n, size_t room)
{
    if (n <= room)
        return n;
    for (size_t i = room; i > 0; i--) {
        if (word[i] == JOIN)
            return i;
    }
    return room;
}

static void new_line(qq_text *t, size_t *column, bool *empty)
{
    put_bytes(&t->out, "\n  ", 3);
    t->lines++;
    *column = 2;
    *empty = true;
}

void qq_text_para(qq_text *t, qq_buf *paragraph)
{
    const char *p = paragraph->data;
    size_t left = paragraph->len;
    size_t column = 0;   /* characters on the current line */
    bool empty = true;   /* nothing on the line but its indent */
    while (left > 0) {
        while (left > 0 && (*p == ' ' || *p == JOIN)) {
            p++;
            left--;
        }
        size_t word = 0;
        while (word < left && p[word] != ' ')
            word++;
        if (word == 0)
            break;
        if (!empty && column + 1 + word > QQ_TEXT_WIDTH)
            new_line(t, &column, &empty);
        else if (!empty) {
            put_bytes(&t->out, " ", 1);
            column++;
        }
        /* a word longer than a line goes on in pieces, broken at its
         * joined spaces */
        size_t take = fitting(p, word, QQ_TEXT_WIDTH - column);
        put_word(t, p, take);
        column += take;
        empty = false;
        p += take;
        left -= take;
        if (take < word)
            new_line(t, &column, &empty);
    }
    if (column > 0) {
        put_bytes(&t->out, "\n", 1);
        t->lines++;
    }
    paragraph->len = 0;
    if (paragraph->data != NULL)
        paragraph->data[0] = '\0';
}

char *qq_text_take(qq_text *t)
{
    char *text = t->out.data;
    if (text == NULL) {
        text = calloc(1, 1);
        if (text == NULL)
            abort();
    }
    *t = (qq_text){{0}, 0};
    return text;
}
