/* ratings.c: see ratings.h. */
#include "play/ratings.h"

#include <string.h>

#include "core/glicko2.h"
#include "play/lobby.h"
#include "rules.h"
#include "store/db.h"
#include "store/lobby.h"
#include "store/players.h"
#include "store/ratings.h"
#include "store/store.h"

/* The history a player's page shows per game. */
#define RATINGS_HISTORY 20

/* Each seat's place (1 best) from result's ranking; false when the
 * ranking does not place every seat once. */
static bool places_of(const json_t *result, int seats, int *place)
{
    for (int s = 0; s < seats; s++)
        place[s] = 0;
    size_t i, j;
    const json_t *tier, *seat;
    int next = 1;
    json_array_foreach(json_object_get(result, "ranking"), i, tier)
    {
        int here = 0;
        json_array_foreach(tier, j, seat)
        {
            json_int_t s = json_integer_value(seat);
            if (!json_is_integer(seat) || s < 0 || s >= seats || place[s] != 0)
                return false;
            place[s] = next;
            here++;
        }
        next += here;
    }
    for (int s = 0; s < seats; s++)
        if (place[s] == 0)
            return false;
    return true;
}

bool ratings_record(PGconn *conn, const store_match *match,
                    const json_t *result, apierr *err)
{
    store_lobby lobby;
    bool found;
    int seats = match->seat_count;
    if (seats < 2)
        return true;
    if (!store_lobby_load(conn, match->match_id, &lobby, &found, err))
        return false;
    if (!found || !lobby.rated)
        return true;
    int place[STORE_MAX_SEATS];
    if (!places_of(result, seats, place))
        return apierr_set(err, 500, "bad_ranking",
                          "the result of match m_%lld does not rank every "
                          "seat once, so it cannot be rated",
                          match->match_id);
    store_rating before[STORE_MAX_SEATS];
    for (int s = 0; s < seats; s++)
        before[s].player_id = match->seat_player[s];
    if (!store_ratings_lock(conn, match->game, before, seats, err))
        return false;
    for (int s = 0; s < seats; s++) {
        glicko2_game games[STORE_MAX_SEATS];
        int count = 0;
        for (int o = 0; o < seats; o++) {
            if (o == s)
                continue;
            games[count].opponent = before[o].rating;
            games[count].score = place[s] < place[o]    ? 1.0
                                 : place[s] == place[o] ? 0.5
                                                        : 0.0;
            count++;
        }
        store_rating after = before[s];
        after.rating =
            glicko2_update(before[s].rating, games, count, GLICKO2_TAU);
        after.matches++;
        if (place[s] == 1)
            after.wins++;
        if (!store_ratings_save(conn, match->game, &after, err) ||
            !store_ratings_change(conn, match->match_id, match->game,
                                  after.player_id, place[s], &before[s].rating,
                                  &after.rating, err))
            return false;
    }
    return true;
}

json_t *ratings_leaderboard(const char *game, int limit, apierr *err)
{
    const rules_engine *engine = lobby_game(game, 404, err);
    if (engine == NULL)
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *rows = store_ratings_leaderboard(conn, engine->name, limit, err);
    if (rows == NULL)
        return NULL;
    /* Each row's reliability too: a standings table that people choose
     * opponents from shows how they keep their deadlines. */
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        double reliability =
            lobby_reliability(conn,
                              store_parse_player_ref(json_string_value(
                                  json_object_get(row, "player"))),
                              err);
        if (reliability < -1.5) {
            json_decref(rows);
            return NULL;
        }
        json_object_set_new(row, "reliability",
                            reliability >= 0 ? json_real(reliability)
                                             : json_null());
    }
    return json_pack("{s:s,s:s,s:o}", "game", engine->name, "title",
                     engine->title, "ratings", rows);
}

json_t *ratings_player(const char *player_ref, apierr *err)
{
    long long player_id = store_parse_player_ref(player_ref);
    if (player_id <= 0) {
        apierr_set(err, 404, "no_such_player", "player ids look like p_1234");
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_player player;
    if (!store_player_load(conn, player_id, false, &player, err))
        return NULL;
    double reliability = lobby_reliability(conn, player_id, err);
    if (reliability < -1.5)
        return NULL;
    json_t *games =
        store_ratings_of_player(conn, player_id, RATINGS_HISTORY, err);
    if (games == NULL)
        return NULL;
    char ref[32];
    store_player_ref(player_id, ref);
    return json_pack("{s:s,s:s,s:o,s:o}", "player", ref, "name", player.name,
                     "reliability",
                     reliability >= 0 ? json_real(reliability) : json_null(),
                     "games", games);
}
