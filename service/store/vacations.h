/* vacations.h: the rows of the vacations table, a player's declared
 * absences (migrations/006_deadlines.sql). play/vacations.h declares,
 * lists and cancels them; deadlines/pauses.h stops a player's clocks
 * while one runs. A cancelled vacation pauses nothing. Times are match
 * time (core/clock.h), unix seconds. */
#ifndef SERVICE_STORE_VACATIONS_H
#define SERVICE_STORE_VACATIONS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* One vacation: [starts, ends). */
typedef struct store_vacation {
    long long vacation_id;
    long long starts;
    long long ends;
} store_vacation;

/* How much vacation a player has had in one match with deadlines: what
 * the match allows a player (seconds) and what this player's vacations
 * not cancelled have taken of it since the match was created. */
typedef struct store_vacation_allowance {
    long long match_id;
    long long allowed_seconds;
    long long taken_seconds;
} store_vacation_allowance;

/* The vacations of player_id, not cancelled, that end after since,
 * earliest first, at most max of them into out: their count, or -1 with
 * err filled. */
int store_vacations_after(PGconn *conn, long long player_id, long long since,
                          store_vacation *out, int max, apierr *err);

/* The vacations of player_id, not cancelled, latest first, at most max of
 * them into out: their count, or -1 with err filled. */
int store_vacations_latest(PGconn *conn, long long player_id,
                           store_vacation *out, int max, apierr *err);

/* The allowance of every open or active match with deadlines that
 * player_id is seated in, in match order: a malloc'd array (the caller
 * frees it; NULL when there are none) and its count in *count. False with
 * err filled on a database error. */
bool store_vacations_allowances(PGconn *conn, long long player_id,
                                store_vacation_allowance **out, int *count,
                                apierr *err);

/* Inserts a vacation of player_id from starts until ends (inside the
 * caller's transaction); its id in *vacation_id. */
bool store_vacations_add(PGconn *conn, long long player_id, long long starts,
                         long long ends, long long *vacation_id, apierr *err);

/* Ends player_id's vacation_id at now, if it has not ended yet: one not
 * begun is cancelled (*cancelled true), one under way ends now. 1 with
 * *out holding the vacation as it is now; 0 when the player has no such
 * vacation still to come or under way; -1 with err filled. */
int store_vacations_end(PGconn *conn, long long player_id,
                        long long vacation_id, long long now,
                        store_vacation *out, bool *cancelled, apierr *err);

/* Whether player_id has vacation_id, not cancelled (whether or not it is
 * over): 1 yes, 0 no, -1 with err filled. */
int store_vacations_exists(PGconn *conn, long long player_id,
                           long long vacation_id, apierr *err);

#endif
