/* seeks.h: quick match (docs/lobby.md, "Quick match").
 *
 * A seek says "I want a match of GAME for SEATS players with TURN_HOURS
 * per turn" (POST /v1/seeks). As soon as enough compatible seeks wait
 * (the same game, seat count and turn deadline, other players, each
 * rating within a window around the newcomer's that widens the longer
 * that seek has waited), the service makes the match, rated and
 * invite-only, seats every seeker, oldest first, and starts it: every
 * seeker is told by their usual channels (a "match_found" notification,
 * notify_outbox.h), sees it in GET /v1/seeks, and the one who must act
 * first gets their "your turn" as ever. A seek waits until it
 * expires (expires_hours, 72 by default) or is withdrawn (DELETE
 * /v1/seeks/{id}). Asking again for the same kind of match renews the
 * waiting seek rather than adding one, so nobody takes two seats.
 * Seeks out of one another's reach when the later came are paired once
 * their windows have widened enough (seeks_pair_waiting). */
#ifndef SERVICE_PLAY_SEEKS_H
#define SERVICE_PLAY_SEEKS_H

#include <jansson.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* The rating window: this many points at once, this many more per hour a
 * seek has waited, never wider than the last. */
#define SEEKS_WINDOW_BASE 150.0
#define SEEKS_WINDOW_PER_HOUR 50.0
#define SEEKS_WINDOW_WIDEST 1000.0

/* How often, in match time, the seeks that wait are paired again. */
#define SEEKS_PAIR_EVERY_SECONDS 60

/* POST /v1/seeks {"game", "seats", "turn_hours", "expires_hours"}: the
 * seek, and the match it formed if it did: {"seek": {…as listed},
 * "match": "m_…" or null}. 400 bad_seek with the member's meaning. */
json_t *seeks_create(const caller *who, const json_t *body, apierr *err);

/* DELETE /v1/seeks/{id}: withdraws the caller's waiting seek ("s_12");
 * {"seek": "s_12", "status": "withdrawn"}. 404 no_such_seek, 409
 * seek_over. */
json_t *seeks_withdraw(const caller *who, const char *seek_ref, apierr *err);

/* GET /v1/seeks: {"seeks": [the caller's, newest first]}. */
json_t *seeks_mine(const caller *who, apierr *err);

/* The seeks waiting now for a game (NULL: every game), naming no player:
 * {"seeks": [{"game", "seats", "turn_hours", "waiting_since"}]}. */
json_t *seeks_waiting(const char *game, apierr *err);

/* Pairs the seeks that wait, as if each had just come: a window widens
 * as its seek waits, so seeks out of one another's reach may be within
 * it an hour on, with no new seek to pair them. The deadline worker
 * calls it every round; it works at most once every
 * SEEKS_PAIR_EVERY_SECONDS of match time, the first a period after the
 * first call, and only on its first caller's thread. A failure is
 * logged, and the next round tries again. */
void seeks_pair_waiting(void);

#endif
