/* result_text.h: a match's result (rules.h result(): "ranking", "scores",
 * "reason", "tie_break", "detail") as people read it in a mail: who won by
 * name, the standings with each seat's score, the tie-break the rulebook
 * used and why the match ended, then each seat's points as the engine
 * itemised them ("detail"), written out as words and numbers. Never JSON:
 * a detail whose shape is unknown is still written as "key value" text.
 * Nor the engines' internal keys: Adel Verplichtet's "final_value" (its
 * tie-break's ordering key) is left out; the tie-break says it in words. */
#ifndef SERVICE_NOTIFY_RESULT_TEXT_H
#define SERVICE_NOTIFY_RESULT_TEXT_H

#include <jansson.h>

/* The text of result (borrowed) for the seat viewer (-1: nobody in
 * particular), names being the seats' names (a JSON array of strings,
 * borrowed). malloc'd, ending in a newline; "" when result has no
 * scores. */
char *result_text(const json_t *result, const json_t *names, int viewer);

#endif
