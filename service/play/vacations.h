/* vacations.h: a player's declared absences. During a vacation the
 * player's clocks stand still in every match (deadlines move by the
 * overlap); each match with deadlines caps the days a player may take
 * (deadline.vacation_days_max), checked when a vacation is declared, for
 * every match the player is seated in then.
 *   POST   /v1/players/me/vacation {"from": RFC 3339, "until": RFC 3339}
 *   GET    /v1/players/me/vacation
 *   DELETE /v1/players/me/vacation/{id}   (one that has begun ends now) */
#ifndef SERVICE_PLAY_VACATIONS_H
#define SERVICE_PLAY_VACATIONS_H

#include <jansson.h>
#include <libpq-fe.h>

#include "core/apierr.h"
#include "auth/caller.h"

/* Declares a vacation; the answer is stored with the request's nonce.
 * 400 unreadable times, 422 a vacation in the past, backwards, or longer
 * than a match allows (the sentence names the match). */
json_t *vacations_declare(const caller *who, const json_t *body, apierr *err);

/* The player's vacations that are not cancelled, newest first. */
json_t *vacations_list(long long player_id, apierr *err);

/* Cancels one ("v_<n>"): one that has not begun is dropped, one under way
 * ends now; 404 when the player has no such vacation, 409 when it is
 * over. */
json_t *vacations_cancel(long long player_id, const char *ref, apierr *err);

#endif
