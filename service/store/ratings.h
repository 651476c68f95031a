/* ratings.h: the players' Glicko-2 ratings per game and what each rated
 * match changed (ratings, rating_changes: migrations/018_lobby.sql): read
 * and locked when a rated match finishes, written in its transaction,
 * and read back as a game's leaderboard and a player's page.
 * play/ratings.h computes them. */
#ifndef SERVICE_STORE_RATINGS_H
#define SERVICE_STORE_RATINGS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "core/glicko2.h"

/* A player's standing in one game. */
typedef struct store_rating {
    long long player_id;
    glicko2_rating rating; /* GLICKO2_NEWCOMER when never rated */
    int matches;
    int wins;
} store_rating;

/* Reads and locks (until the transaction ends, in player order, so two
 * finishing matches sharing players take turns) the ratings in game of
 * out[0..count), whose player_id the caller set; a player never rated
 * gets the newcomer's. False with err filled. */
bool store_ratings_lock(PGconn *conn, const char *game, store_rating *out,
                        int count, apierr *err);

/* Writes a player's new standing in game (inside the transaction). */
bool store_ratings_save(PGconn *conn, const char *game,
                        const store_rating *rating, apierr *err);

/* Records what match_id did to a player's rating; 409 "already_rated"
 * when that match was rated already. */
bool store_ratings_change(PGconn *conn, long long match_id, const char *game,
                          long long player_id, int place,
                          const glicko2_rating *before,
                          const glicko2_rating *after, apierr *err);

/* The leaderboard of game: the best rated first, at most max, as
 * [{"rank", "player", "name", "rating", "deviation", "matches", "wins"}]
 * (a new reference); NULL with err filled. */
json_t *store_ratings_leaderboard(PGconn *conn, const char *game, int max,
                                  apierr *err);

/* A player's standings, game by game, each with its latest changes (at
 * most history per game, the latest first): [{"game", "rating",
 * "deviation", "volatility", "matches", "wins", "history": [{"match",
 * "place", "before", "after", "at"}]}] (a new reference); NULL with err
 * filled. */
json_t *store_ratings_of_player(PGconn *conn, long long player_id, int history,
                                apierr *err);

#endif
