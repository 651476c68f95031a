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
 * waiting seek rather than adding one, so nobody takes two seats. */
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

#endif
