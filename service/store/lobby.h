/* lobby.h: how a match meets strangers (match_lobby,
 * migrations/018_lobby.sql): whether anyone may take a free seat, whether
 * it is rated and the reliability a joiner needs; and the listing of the
 * open matches still forming, with their creators' names and ratings
 * (read across matches, seats, players and ratings for that one use
 * case). play/lobby.h decides what they mean. */
#ifndef SERVICE_STORE_LOBBY_H
#define SERVICE_STORE_LOBBY_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

typedef struct store_lobby {
    bool open;
    bool rated;
    double min_reliability; /* < 0: none */
} store_lobby;

/* Records a new match's settings (inside the create's transaction). */
bool store_lobby_insert(PGconn *conn, long long match_id, const char *game,
                        const store_lobby *lobby, apierr *err);

/* A match's settings into *lobby; *found false (and *lobby invite-only,
 * unrated) for a match without a row. False with err filled. */
bool store_lobby_load(PGconn *conn, long long match_id, store_lobby *lobby,
                      bool *found, apierr *err);

/* Takes the match out of the listing: its last seat was taken (queued in
 * the join's transaction). */
bool store_lobby_formed(PGconn *conn, long long match_id, apierr *err);

/* One open match still forming, as the listing shows it. */
typedef struct store_lobby_row {
    long long match_id;
    char game[64];
    json_t *options; /* owned */
    int seat_count;
    int seats_taken;
    bool rated;
    double min_reliability; /* < 0: none */
    long long creator;
    char creator_name[81];
    double creator_rating; /* < 0: not rated in this game yet */
    double creator_deviation;
    char created_at[32]; /* RFC 3339 UTC */
} store_lobby_row;

/* The open matches still forming, of game (NULL: every game), newest
 * first, at most max: a malloc'd array (NULL when none), its length in
 * *count; free with store_lobby_rows_free. False with err filled. */
bool store_lobby_list(PGconn *conn, const char *game, int max,
                      store_lobby_row **rows, int *count, apierr *err);

void store_lobby_rows_free(store_lobby_row *rows, int count);

#endif
