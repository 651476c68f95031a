/* canonical.h: the bytes a match's events are hashed as (chain.h): the
 * JSON Canonicalization Scheme, RFC 8785 (JCS). Object members sorted by
 * their names' UTF-16 code units, no whitespace, strings escaped only
 * where JSON must (quote, backslash, \b \f \n \r \t, other controls as
 * \u00xx in lower-case hex; everything else as its UTF-8), numbers as
 * ECMAScript prints them (integers as their digits), literals as is. Any
 * RFC 8785 implementation gives the same bytes for the same event, so the
 * chain can be checked without this code. */
#ifndef SERVICE_LEDGER_CANONICAL_H
#define SERVICE_LEDGER_CANONICAL_H

#include <jansson.h>

/* value (borrowed) as RFC 8785 text: malloc'd, NUL-terminated, the
 * caller's to free; aborts when out of memory. */
char *canonical_json(const json_t *value);

#endif
