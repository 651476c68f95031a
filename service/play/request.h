/* request.h: what a request to a match asks for and whether it may: the
 * caller's seat, whether the match is in play, and the action a body
 * names. Shared by the moves and the sealed decisions. */
#ifndef SERVICE_PLAY_REQUEST_H
#define SERVICE_PLAY_REQUEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/matches.h"

/* True when the match is being played; false with err filled (409
 * "aborted" with a sentence saying so, else "not_in_play"). */
bool request_in_play(const store_match *match, apierr *err);

/* The seat player_id holds in match, or -1. */
int request_seat_of(const store_match *match, long long player_id);

/* Whether body has the shape of a request for an action, before anything
 * is read of the match: exactly one of "action" (a JSON object) and
 * "move" (text of at most 1000 characters). False with err filled (400
 * "bad_move" saying what is wrong). */
bool request_action_shape(const json_t *body, apierr *err);

/* Reads a 32-byte value given as 64 hex digits from body's member name
 * into out; false with err filled (400 code, "<name> must be 32 bytes as
 * 64 hex digits") when it is missing or not that. */
bool request_hex32(const json_t *body, const char *name, const char *code,
                   uint8_t out[32], apierr *err);

/* The action a request body asks for: {"action": {...}} or {"move":
 * "text"} (new reference), or NULL with err filled (400/422). */
json_t *request_action(const json_t *body, const rules_engine *engine,
                       const rules_state *state, int seat, apierr *err);

#endif
