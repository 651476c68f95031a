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
#include "store/db.h"

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

/* A move queued for its commit, its request set aside meanwhile. */
typedef struct matches_later matches_later;

/* matches_move for a request that may wait for its commit without
 * holding its thread (store/db.h db_commit_queue): the answer (or NULL
 * with err filled), or NULL with *later set and waiter->suspend called.
 * who and body must then live until matches_move_end. waiter NULL: it
 * blocks, as matches_move. */
json_t *matches_move_begin(const caller *who, long long match_id,
                           const json_t *body, bool with_seat_view,
                           const db_waiter *waiter, matches_later **later,
                           apierr *err);

/* After waiter->ready, on the request's thread: the move's answer, as
 * matches_move would have given it. Frees later. */
json_t *matches_move_end(matches_later *later, apierr *err);
json_t *matches_public(long long match_id, apierr *err);
json_t *matches_seat_view(const caller *who, long long match_id, apierr *err);
json_t *matches_events(long long match_id, long long after, int limit,
                       apierr *err);

/* Drops every cached state (tests use it to force a replay). */
void matches_cache_clear(void);

#endif
