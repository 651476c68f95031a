/* ratings.h: Glicko-2 ratings per game (core/glicko2.h), moved by rated
 * matches when they finish (docs/lobby.md, "Ratings").
 *
 * A finished rated match is one rating period for each of its players;
 * a match of more than two is the set of its pairwise results by the
 * final ranking: each player beat everyone placed below them, lost to
 * everyone above, and drew with those sharing their place, against the
 * ratings everyone had before the match. A forfeit ranks as the forfeit's
 * result does (forfeited seats last); an aborted match has no result and
 * rates nobody. The update is made in the transaction of the "finished"
 * event (append.h), so a rating never misses or counts a match twice. */
#ifndef SERVICE_PLAY_RATINGS_H
#define SERVICE_PLAY_RATINGS_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "store/matches.h"

/* When match (its seats as finished) is rated, moves its players'
 * ratings by result (borrowed, the "finished" event's, with "ranking")
 * inside the caller's transaction; nothing for an unrated match. False
 * with err filled. */
bool ratings_record(PGconn *conn, const store_match *match,
                    const json_t *result, apierr *err);

/* GET /v1/games/{game}/ratings: {"game", "ratings": [{"rank", "player",
 * "name", "rating", "deviation", "matches", "wins"}]}, best first, at
 * most limit; 404 unknown_game. */
json_t *ratings_leaderboard(const char *game, int limit, apierr *err);

/* GET /v1/players/{id}/ratings: what anyone may read of a player:
 * {"player", "name", "reliability", "games": [{"game", "rating",
 * "deviation", "volatility", "matches", "wins", "history"}]} (never an
 * address); 404 no_such_player. */
json_t *ratings_player(const char *player_ref, apierr *err);

#endif
