/* prose.h: text for people reading a mail, written a paragraph at a time
 * and wrapped between words into lines of at most AQ_PROSE_WIDTH
 * characters; a paragraph's continuation lines are indented two spaces
 * more than its first. Used by view_text.c. Out of memory aborts. */
#ifndef RULES_ANTIQUITY_QUEST_PROSE_H
#define RULES_ANTIQUITY_QUEST_PROSE_H

#include <stddef.h>

#define AQ_PROSE_WIDTH 72
/* Joins two words a line must not break between ("seat" AQ_PROSE_GLUE
 * "3"); it is written as a blank. */
#define AQ_PROSE_GLUE "\x1f"

typedef struct aq_prose {
    char *text; /* the lines written so far, NUL-terminated */
    size_t len;
    size_t cap;
    int lines;
    char *para; /* the paragraph in the making */
    size_t para_len;
    size_t para_cap;
} aq_prose;

/* Adds printf-style words to the paragraph in the making. */
void aq_prose_say(aq_prose *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds text as it is (no conversions) to the paragraph in the making:
 * for the many short words of a card list. */
void aq_prose_put(aq_prose *p, const char *text);
/* Writes the paragraph as wrapped lines and starts the next one. */
void aq_prose_end(aq_prose *p);
/* When more than max_lines lines are written: keeps the first
 * max_lines - 1 and ends with the paragraph last. */
void aq_prose_cut(aq_prose *p, int max_lines, const char *last);
/* Adds the lines written in from (which must have no paragraph in the
 * making) after those of p. */
void aq_prose_add(aq_prose *p, const aq_prose *from);
/* Releases everything p holds. */
void aq_prose_free(aq_prose *p);
/* Forgets everything written, keeping the memory. */
void aq_prose_clear(aq_prose *p);
/* The text written (malloc'd, never NULL: the caller frees it); p is
 * emptied and released. */
char *aq_prose_take(aq_prose *p);

#endif
