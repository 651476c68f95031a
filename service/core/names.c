/* names.c: names players show each other (names.h), with ICU. */
#include "core/names.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/uspoof.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

/* UTF-16 units a name may take on its way: room for a long refused one,
 * which is measured before it is refused. */
#define UNITS 1024

static USpoofChecker *checker;
static pthread_once_t checker_once = PTHREAD_ONCE_INIT;

/* The checker is set up once and then only read: ICU's check functions
 * may share it between threads. */
static void checker_open(void)
{
    UErrorCode status = U_ZERO_ERROR;
    checker = uspoof_open(&status);
    if (U_SUCCESS(status))
        uspoof_setChecks(checker, USPOOF_CONFUSABLE, &status);
    if (U_FAILURE(status)) {
        fprintf(stderr, "%s:%d: ICU's spoof checker: %s\n", __FILE__, __LINE__,
                u_errorName(status));
        abort();
    }
}

/* Why code point c may not be in a name, or NULL. */
static const char *refused_character(UChar32 c)
{
    int8_t type = u_charType(c);
    if (type == U_CONTROL_CHAR || type == U_LINE_SEPARATOR ||
        type == U_PARAGRAPH_SEPARATOR)
        return "this name holds a control character or a line break";
    if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
        u_hasBinaryProperty(c, UCHAR_BIDI_CONTROL))
        return "this name holds an invisible character (a zero-width space "
               "or joiner, a byte-order mark, a direction control)";
    if (type == U_UNASSIGNED || type == U_PRIVATE_USE_CHAR ||
        type == U_SURROGATE)
        return "this name holds a character Unicode does not assign";
    return NULL;
}

/* Whether text (UTF-16, n units) holds a mail address: an "@" with a
 * character other than white space before it and, after it, a run
 * without white space that holds a dot followed by more. Names are
 * public; an address is not (docs/playing-by-email.md). */
static bool holds_address(const UChar *text, int32_t n)
{
    for (int32_t at = 1; at < n; at++) {
        if (text[at] != u'@' || u_isUWhiteSpace(text[at - 1]))
            continue;
        bool dot = false;
        for (int32_t i = at + 1; i < n && !u_isUWhiteSpace(text[i]); i++) {
            if (dot && text[i] != u'.')
                return true;
            dot = dot || (text[i] == u'.' && i > at + 1);
        }
    }
    return false;
}

/* Every refusal says what was wrong and what a name may be. */
static bool refuse(char *why, size_t why_size, const char *detail)
{
    snprintf(why, why_size,
             "%s: a name is 1 to %d characters, each one that shows on the "
             "screen, and not white space alone",
             detail, NAMES_MAX_CHARS);
    return false;
}

bool names_normal(const char *name, size_t bytes, char out[NAMES_MAX_BYTES],
                  char *why, size_t why_size)
{
    UChar text[UNITS], normal[UNITS];
    int32_t length = 0;
    UErrorCode status = U_ZERO_ERROR;
    if (name == NULL || bytes == 0)
        return refuse(why, why_size, "this name is empty");
    if (bytes > 4 * UNITS / 2)
        return refuse(why, why_size, "this name is longer");
    u_strFromUTF8(text, UNITS, &length, name, (int32_t)bytes, &status);
    if (U_FAILURE(status))
        return refuse(why, why_size, "this name is not UTF-8 text");
    for (int32_t i = 0; i < length;) {
        UChar32 c;
        U16_NEXT(text, i, length, c);
        const char *what = refused_character(c);
        if (what != NULL)
            return refuse(why, why_size, what);
    }
    const UNormalizer2 *nfc = unorm2_getNFCInstance(&status);
    int32_t n = U_SUCCESS(status) ? unorm2_normalize(nfc, text, length, normal,
                                                     UNITS, &status)
                                  : 0;
    if (U_FAILURE(status))
        return refuse(why, why_size, "this name is longer");
    /* White space at either end is no part of what others read. */
    int32_t start = 0, end = n;
    while (start < end) {
        UChar32 c;
        int32_t at = start;
        U16_NEXT(normal, at, end, c);
        if (!u_isUWhiteSpace(c))
            break;
        start = at;
    }
    while (end > start) {
        UChar32 c;
        int32_t at = end;
        U16_PREV(normal, start, at, c);
        if (!u_isUWhiteSpace(c))
            break;
        end = at;
    }
    if (start == end)
        return refuse(why, why_size, "this name is only white space");
    if (holds_address(normal + start, end - start))
        return refuse(why, why_size,
                      "this name holds a mail address, which everyone could "
                      "read: choose a name without it");
    if (u_countChar32(normal + start, end - start) > NAMES_MAX_CHARS)
        return refuse(why, why_size, "this name is longer");
    int32_t out_len = 0;
    u_strToUTF8(out, NAMES_MAX_BYTES, &out_len, normal + start, end - start,
                &status);
    if (U_FAILURE(status) || out_len >= NAMES_MAX_BYTES)
        return refuse(why, why_size,
                      "this name is longer than the 80 bytes of UTF-8 a name "
                      "is kept in (26 letters of three bytes, as in Chinese "
                      "or Japanese)");
    return true;
}

bool names_confusable(const char *a, const char *b)
{
    pthread_once(&checker_once, checker_open);
    UErrorCode status = U_ZERO_ERROR;
    int32_t result = uspoof_areConfusableUTF8(checker, a, -1, b, -1, &status);
    /* A name ICU cannot read was refused before it was stored; were one
     * to come here, calling it confusable keeps the doubt on the safe
     * side. */
    return U_FAILURE(status) || result != 0;
}
