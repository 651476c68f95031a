/* seat_view.h: a seat's view of a match (GET /v1/matches/{id}/view) as
 * pbem view prints it, for pbem view and for pbem move after a stale
 * seq. */
#ifndef CLI_SEAT_VIEW_H
#define CLI_SEAT_VIEW_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "player_client.h"

/* Fetches the seat's view of match into out (200 only): PLAYER_OK, or an
 * exit code after a sentence. */
int seat_view_fetch(player_session *s, const char *match, client_response *out);

/* The view's head seq. */
long long seat_view_seq(const json_t *view);

/* Whether the view's seat must act now (its turn, or a sealed choice it
 * has not made). */
bool seat_view_must_act(const json_t *view);

/* Prints the view for a person: what happened since the seat's last
 * turn (the server's sentences), the text, the moves, whose turn, the
 * result once over, and the seq. */
void seat_view_print(FILE *out, const char *match, const json_t *view);

/* Prints "the match is over: …" from a Result (borrowed). */
void seat_view_print_result(FILE *out, const json_t *result,
                            const json_t *seats);

#endif
