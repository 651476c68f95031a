/* json_text.h: a jansson value as compact JSON text, byte for byte what
 * json_dumps(value, JSON_COMPACT) writes, about four times faster.
 *
 * Why not json_dumps: a seat view is about 4.7 KB of short strings and
 * small numbers, and jansson's dump reads every string a code point at a
 * time through a callback, and prints every integer with snprintf: 28 us
 * for one view, 15 % of pbemd's CPU per move (docs/benchmarks.md). This
 * writer copies runs of plain bytes at once and still checks every other
 * byte the way jansson does. Building and reading JSON stays jansson's. */
#ifndef SERVICE_CORE_JSON_TEXT_H
#define SERVICE_CORE_JSON_TEXT_H

#include <jansson.h>

/* The compact text of value (an object, array or any other value), as a
 * malloc'd string the caller frees; or NULL exactly when json_dumps would
 * give NULL (a string that is not valid UTF-8 is the only such case for
 * an acyclic value). Key order is the object's own, as jansson keeps it.
 * Out of memory aborts. */
char *json_text_compact(const json_t *value);

#endif
