/* names.h: the names players show each other. A name is what others read
 * in their turn mails, on the page and in the log, so it must show what it
 * is: no character that is not there on the screen (the default-ignorable
 * code points: zero-width spaces and joiners, the byte-order mark, bidi
 * controls), no control character, not white space alone, no mail
 * address (names are public, addresses are not), and one form
 * for one look (Unicode NFC, white space at either end dropped). And in
 * one match no two names may be taken for one another: Unicode's UTS #39
 * confusable skeletons, as ICU computes them ("Ann" and "Аnn" with a
 * Cyrillic A, "rn" and "m"), decide. */
#ifndef SERVICE_CORE_NAMES_H
#define SERVICE_CORE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* The longest name, in characters (code points). */
#define NAMES_MAX_CHARS 40
/* Bytes a name's normal form may take, NUL included: the 80 bytes of
 * UTF-8 every table and buffer keeps a name in, so a name of letters that
 * take three bytes each (most of CJK) has at most 26. */
#define NAMES_MAX_BYTES 81

/* The normal form of name (bytes long, UTF-8, not necessarily
 * NUL-terminated) into out (NAMES_MAX_BYTES). False, with a sentence a
 * person can act on in why (why_size bytes), when the name is refused. */
bool names_normal(const char *name, size_t bytes, char out[NAMES_MAX_BYTES],
                  char *why, size_t why_size);

/* Whether two names (NUL-terminated UTF-8) may be taken for one another
 * (UTS #39: their confusable skeletons are equal). Equal names are. */
bool names_confusable(const char *a, const char *b);

#endif
