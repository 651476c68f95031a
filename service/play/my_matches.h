/* my_matches.h: the matches a player sits in, for their own list (GET
 * /v1/players/me/matches): the matches where it is their turn first, then
 * the most recently changed. Whose turn it is comes from each active
 * match's rules state (matchstate: cached, else replayed), so the list
 * costs a state load per active match. */
#ifndef SERVICE_PLAY_MY_MATCHES_H
#define SERVICE_PLAY_MY_MATCHES_H

#include <jansson.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* At most this many matches are listed: the active ones first. */
#define MY_MATCHES_MAX 200

/* {"matches": [{"match_id", "game", "status", "seat", "your_turn",
 * "head_seq", "updated_at", "seats": [{"seat", "name"}]}]} for who's
 * player; status (NULL: any) keeps only "open", "active", "finished" or
 * "aborted" matches, anything else is 400 "bad_status". */
json_t *my_matches_list(const caller *who, const char *status, apierr *err);

#endif
