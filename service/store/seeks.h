/* seeks.h: quick-match seeks (seeks, migrations/018_lobby.sql): a player
 * waiting for a match of a game, seat count and turn deadline, at their
 * rating. Times are match time (core/clock.h) passed in, so tests can
 * move them. play/seeks.h pairs them. */
#ifndef SERVICE_STORE_SEEKS_H
#define SERVICE_STORE_SEEKS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

typedef struct store_seek {
    long long seek_id;
    long long player_id;
    char game[64];
    int seats;
    int turn_hours;
    double rating;
    long long created_at; /* unix seconds */
    long long expires_at;
} store_seek;

/* Holds the lock that makes the pairing of one kind of seek (game, seats,
 * turn_hours) take turns, across processes, until store_seeks_unlock on
 * the same connection (a session lock: it outlives transactions, and a
 * lost connection drops it). False with err filled. */
bool store_seeks_lock(PGconn *conn, const store_seek *kind, apierr *err);
bool store_seeks_unlock(PGconn *conn, const store_seek *kind, apierr *err);

/* Adds seek (its id filled in), or finds the player's seek of the same
 * kind still waiting at now and renews its expiry: asking twice is asking
 * once. False with err filled. */
bool store_seeks_insert(PGconn *conn, store_seek *seek, long long now,
                        apierr *err);

/* Up to max seeks of seek's kind waiting at now, other players', oldest
 * first, whose rating is within the window of seek's rating that each
 * one's wait has opened: base + per_hour for each hour waited, at most
 * widest. How many into out, or -1 with err filled. */
int store_seeks_partners(PGconn *conn, const store_seek *seek, long long now,
                         double base, double per_hour, double widest,
                         store_seek *out, int max, apierr *err);

/* The kinds of seek (game, seats and turn_hours filled in out) with as
 * many players waiting at now as they have seats, at most max: those a
 * widened window may pair now. How many, or -1 with err filled. */
int store_seeks_ready_kinds(PGconn *conn, long long now, store_seek *out,
                            int max, apierr *err);

/* Up to max seeks of kind waiting at now, the newest first. How many into
 * out, or -1 with err filled. */
int store_seeks_of_kind(PGconn *conn, const store_seek *kind, long long now,
                        store_seek *out, int max, apierr *err);

/* Marks the seeks ids[0..count) matched into match_id. */
bool store_seeks_matched(PGconn *conn, const long long *ids, int count,
                         long long match_id, apierr *err);

/* Withdraws player_id's seek seek_id if it still waits; 404 "no_such_seek"
 * when the player has no such seek, 409 "seek_over" when it was matched
 * or withdrawn already. */
bool store_seeks_withdraw(PGconn *conn, long long player_id, long long seek_id,
                          apierr *err);

/* player_id's seeks, newest first (at most max), as [{"id", "game",
 * "seats", "turn_hours", "status" (waiting, matched, withdrawn, expired
 * at now), "match" or null, "created_at", "expires_at"}]; NULL with err
 * filled. */
json_t *store_seeks_of_player(PGconn *conn, long long player_id, long long now,
                              int max, apierr *err);

/* The seeks waiting at now of game (NULL: every game), oldest first, at
 * most max: [{"game", "seats", "turn_hours", "waiting_since"}] with no
 * player named. NULL with err filled. */
json_t *store_seeks_waiting(PGconn *conn, const char *game, long long now,
                            int max, apierr *err);

#endif
