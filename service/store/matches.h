/* matches.h: the match rows and their seats (migrations/001_foundation.sql):
 * a match's game, options, status and head, as every use case reads it in
 * one round trip with its seats (and who can be notified, reachability.h);
 * new matches, joins, an admin's seat replacement and imports. The events
 * that move the head are events.h's. */
#ifndef SERVICE_STORE_MATCHES_H
#define SERVICE_STORE_MATCHES_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "ledger/seal.h"
#include "store/reachability.h"
#include "store/store.h"

typedef struct store_match {
    long long match_id;
    char game[64];
    int engine_version;
    json_t *options;             /* owned */
    int seat_count;
    char status[16];             /* open | active | finished */
    long long head_seq;
    uint8_t head_hash[STORE_HASH_BYTES];
    uint8_t sealed_seed[SEAL_SEED_BYTES + SEAL_OVERHEAD];
    long long created_by;
    long long seat_player[STORE_MAX_SEATS];  /* 0 = empty seat */
    char seat_name[STORE_MAX_SEATS][81];
} store_match;

/* Inserts a new match row with head 0 (its first events come by append). */
bool store_insert_match(PGconn *conn, const store_match *match, apierr *err);

/* Reads a match and its seats. 404 when there is no such match. The caller
 * frees with store_match_free. */
bool store_load_match(PGconn *conn, long long match_id, store_match *match,
                      apierr *err);

/* store_load_match, and who in the match can be notified into *reach, in
 * the same round trip: for a use case that may notify (reachability.h). */
bool store_load_match_reachable(PGconn *conn, long long match_id,
                                store_match *match, store_reachability *reach,
                                apierr *err);

/* Frees what match owns (its options); the struct itself is the
 * caller's. */
void store_match_free(store_match *match);

/* The match's head sequence number and the engine version it is played
 * under (may be NULL), a cheap read; 404 when there is no such match. */
bool store_load_head(PGconn *conn, long long match_id, long long *head,
                     int *engine_version, apierr *err);

/* Puts player_id in an existing seat in place of its player (an admin's
 * replacement); 409 when that player already holds another seat. */
bool store_move_seat(PGconn *conn, long long match_id, int seat,
                     long long player_id, apierr *err);

/* Seats player_id at seat; 409 when the seat was taken or the player is
 * already seated in this match. */
bool store_insert_seat(PGconn *conn, long long match_id, int seat,
                       long long player_id, apierr *err);

/* Inserts a match row as it was (status, head_seq and head_hash taken from
 * *match; created_at and updated_at as RFC 3339 text, NULL for now); 409
 * "match_exists" when the id is taken. */
bool store_import_match(PGconn *conn, const store_match *match,
                        const char *created_at, const char *updated_at,
                        apierr *err);

/* The seat player_id holds in match_id, or -1 when none (and on a
 * database error, with err filled). */
int store_seat_of(PGconn *conn, long long match_id, long long player_id,
                  apierr *err);

/* The matches player_id holds a seat in, unfinished ones first, the most
 * recently changed first: at most limit ids into match_ids. How many, or
 * -1 with err filled. */
int store_seats_recent_matches(PGconn *conn, long long player_id, int limit,
                               long long *match_ids, apierr *err);

/* A seat of a player in a match. */
typedef struct store_seat_ref {
    long long match_id;
    int seat;
} store_seat_ref;

/* The seats player_id holds in active matches, the match changed longest
 * ago first: at most limit into seats. How many, or -1 with err filled. */
int store_seats_in_play(PGconn *conn, long long player_id, int limit,
                        store_seat_ref *seats, apierr *err);

/* A page of the match ids an export takes, in order of creation (then id)
 * after (after_created, after_id) (after_created: timestamptz text), at
 * most limit: status (NULL: any), changed at or after since and before
 * until (timestamptz text, NULL: no bound). The caller PQclears the
 * result: rows of match_id and created_at as text. NULL with err filled. */
PGresult *store_matches_export_page(PGconn *conn, const char *status,
                                    const char *since, const char *until,
                                    const char *after_created,
                                    long long after_id, int limit,
                                    apierr *err);

/* Whether match_id exists (*found) and player_id created it or sits in one
 * of its seats (*member). False with err filled. */
bool store_match_membership(PGconn *conn, long long match_id,
                            long long player_id, bool *found, bool *member,
                            apierr *err);

#endif
