/* matches.h: the match use cases behind the HTTP routes: create, join,
 * move, and the views. Each loads what it needs, asks the rules engine,
 * and appends what changed through the one append pipeline (append.h),
 * which keeps the request's answer with its nonce, so a retried request
 * gets the stored answer. Every function returns a new JSON answer, or
 * NULL with err filled (its status is the HTTP status). */
#ifndef SERVICE_PLAY_MATCHES_H
#define SERVICE_PLAY_MATCHES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* The games this build plays: {"games": [{name, title, version,
 * min_seats, max_seats, options, rules_page}]}. */
json_t *matches_games(void);
/* One game as matches_games lists it, with its rules summary for players
 * ("summary", plain text of lines up to 72 characters); NULL with err
 * 404 unknown_game when this build has no such game. */
json_t *matches_game(const char *name, apierr *err);
json_t *matches_create(const caller *who, const json_t *body, apierr *err);
json_t *matches_join(const caller *who, long long match_id,
                     const json_t *body, apierr *err);
/* Plays one move. with_seat_view (the client sent "Prefer:
 * return=representation") adds "seat_view", what GET /view would answer
 * now, so a client that moves again saves a request. */
json_t *matches_move(const caller *who, long long match_id,
                     const json_t *body, bool with_seat_view, apierr *err);
json_t *matches_public(long long match_id, apierr *err);
json_t *matches_seat_view(const caller *who, long long match_id, apierr *err);
json_t *matches_events(long long match_id, long long after, int limit,
                       apierr *err);

/* Drops every cached state (tests use it to force a replay). */
void matches_cache_clear(void);

#endif
