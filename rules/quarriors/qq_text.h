/* qq_text.h: plain text for people, written a paragraph at a time and
 * wrapped at spaces into lines of at most QQ_TEXT_WIDTH characters, the
 * lines after a paragraph's first indented by two spaces (nothing is
 * aligned in columns, so it reads the same in any font). Out of memory
 * aborts. Nothing here is seen outside rules/quarriors/. */
#ifndef RULES_QUARRIORS_QQ_TEXT_H
#define RULES_QUARRIORS_QQ_TEXT_H

#include <stddef.h>

#define QQ_TEXT_WIDTH 72
/* A space the wrapper keeps on one line, inside a string literal
 * ("seat" QQ_TEXT_JOIN "1"); qq_buf_add_joined makes every space so. */
#define QQ_TEXT_JOIN "\x01"

/* A growing string; zero-initialise it ({0}) before use. */
typedef struct qq_buf {
    char *data;
    size_t len, cap;
} qq_buf;

/* Appends printf-style text. */
void qq_buf_add(qq_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends printf-style text whose spaces are not to be broken at (a die,
 * "27 deathdealer"), unless the line is too short for it. */
void qq_buf_add_joined(qq_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void qq_buf_free(qq_buf *b);

/* The text being written and how many lines it has. */
typedef struct qq_text {
    qq_buf out;
    int lines;
} qq_text;

/* Wraps paragraph (one line of any length, no newline) onto t; the
 * paragraph is emptied for reuse. Nothing is written for an empty one. */
void qq_text_para(qq_text *t, qq_buf *paragraph);

/* The text (malloc'd, ending in a newline unless empty); t is emptied. */
char *qq_text_take(qq_text *t);

#endif
