/* event_text.h: one event of a match's public log as a line a person
 * reads ("#14  Bob drew 2 cards.": the sentence the server told, or from a
 * server that tells none "#14  Bob (seat 1): take 0.1.2"), for pbem watch
 * and for what pbem move shows after a stale seq. */
#ifndef CLI_EVENT_TEXT_H
#define CLI_EVENT_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* Prints event (one item of GET /v1/matches/{id}/events) as one line to
 * out; seats is the match's "seats" array ({seat, name}), borrowed, for
 * the players' names (may be NULL). */
void event_text_print(FILE *out, const json_t *event, const json_t *seats);

/* Whether event ends the match (finished or aborted). */
int event_text_is_end(const json_t *event);

#endif
