/* request.h: what a request to a match asks for and whether it may: the
 * caller's seat, whether the match is in play, and the action a body
 * names. Shared by the moves and the sealed decisions. */
#ifndef SERVICE_PLAY_REQUEST_H
#define SERVICE_PLAY_REQUEST_H

#include <jansson.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/store.h"

/* True when the match is being played; false with err filled (409
 * "aborted" with a sentence saying so, else "not_in_play"). */
bool request_in_play(const store_match *match, apierr *err);

/* The seat player_id holds in match, or -1. */
int request_seat_of(const store_match *match, long long player_id);

/* The action a request body asks for: {"action": {...}} or {"move":
 * "text"} (new reference), or NULL with err filled (400/422). */
json_t *request_action(const json_t *body, const rules_engine *engine,
                       const rules_state *state, int seat, apierr *err);

#endif
