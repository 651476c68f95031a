/* tell_text.h: the text an engine's tell builds (rules.h, tell), one piece
 * or sentence at a time, and the words that turn a seat into "you" for the
 * seat it is told to.
 *
 * Two ways to add, for the two ways engines tell:
 * - tell_text_sentence adds a whole sentence, after a space, only when it
 *   still fits in RULES_TELL_MOST characters: the least important news,
 *   said last, is left out whole rather than cut;
 * - tell_text_add adds a piece of a sentence ("You drew", " mask", "."),
 *   and tell_text_done then shortens a text past RULES_TELL_MOST at a word,
 *   ending it in " …".
 * Both are printf-like. tell_text_done gives the malloc'd answer tell()
 * returns. */
#ifndef RULES_TELL_TEXT_H
#define RULES_TELL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* rules.h, tell: at most 300 characters. */
#define RULES_TELL_MOST 300

typedef struct tell_text {
    char text[2048]; /* room for pieces past the limit, cut by done */
    size_t len;
} tell_text;

void tell_text_add(tell_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void tell_text_sentence(tell_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Takes back the last character added (a full stop the next piece
 * replaces), if there is one. */
void tell_text_unadd(tell_text *t);

/* The text as tell() answers it: a malloc'd copy, at most
 * RULES_TELL_MOST characters (cut at a word, with " …") and NULL when
 * nothing was told. Aborts when out of memory, as the engines do. */
char *tell_text_done(const tell_text *t);

/* "You" (capital) or "you" when seat is the viewer, else names[seat]. */
const char *tell_text_who(int seat, int viewer, const char *const *names,
                          bool capital);

/* "your" when seat is the viewer, else "Bob's" written into buf (size
 * bytes). */
const char *tell_text_whose(int seat, int viewer, const char *const *names,
                            char *buf, size_t size);

#endif
