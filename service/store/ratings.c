/* ratings.c: see ratings.h. */
#include "store/ratings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"

bool store_ratings_lock(PGconn *conn, const char *game, store_rating *out,
                        int count, apierr *err)
{
    long long ids[64];
    if (count > (int)(sizeof ids / sizeof *ids))
        return apierr_set(err, 500, "internal", "too many players to rate");
    for (int i = 0; i < count; i++) {
        ids[i] = out[i].player_id;
        out[i].rating = GLICKO2_NEWCOMER;
        out[i].matches = 0;
        out[i].wins = 0;
    }
    char *list = db_params_int_array(ids, count);
    db_params p = {0};
    db_params_text(&p, game);
    db_params_text(&p, list);
    PGresult *r = db_query(conn,
                           "SELECT player_id, rating, deviation, volatility,"
                           " matches, wins FROM ratings"
                           " WHERE game = $1 AND player_id = ANY($2::bigint[])"
                           " ORDER BY player_id FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    free(list);
    if (r == NULL)
        return false;
    for (int row = 0; row < PQntuples(r); row++) {
        long long id = atoll(PQgetvalue(r, row, 0));
        for (int i = 0; i < count; i++) {
            if (out[i].player_id != id)
                continue;
            out[i].rating.rating = atof(PQgetvalue(r, row, 1));
            out[i].rating.deviation = atof(PQgetvalue(r, row, 2));
            out[i].rating.volatility = atof(PQgetvalue(r, row, 3));
            out[i].matches = atoi(PQgetvalue(r, row, 4));
            out[i].wins = atoi(PQgetvalue(r, row, 5));
        }
    }
    PQclear(r);
    return true;
}

/* A double as text that reads back the same. */
static void real_text(double value, char out[32])
{
    snprintf(out, 32, "%.17g", value);
}

bool store_ratings_save(PGconn *conn, const char *game,
                        const store_rating *rating, apierr *err)
{
    char r[32], d[32], v[32];
    real_text(rating->rating.rating, r);
    real_text(rating->rating.deviation, d);
    real_text(rating->rating.volatility, v);
    db_params p = {0};
    db_params_text(&p, game);
    db_params_int(&p, rating->player_id);
    db_params_text(&p, r);
    db_params_text(&p, d);
    db_params_text(&p, v);
    db_params_int(&p, rating->matches);
    db_params_int(&p, rating->wins);
    return db_queue(
        conn,
        "INSERT INTO ratings (game, player_id, rating, deviation, volatility,"
        " matches, wins) VALUES ($1, $2, $3::float8, $4::float8, $5::float8,"
        " $6::int, $7::int)"
        " ON CONFLICT (game, player_id) DO UPDATE SET rating = $3::float8,"
        " deviation = $4::float8, volatility = $5::float8, matches = $6::int,"
        " wins = $7::int, updated_at = now()",
        p.count, p.values, NULL, NULL, err);
}

static void explain_change(PGconn *conn, const char *sqlstate,
                           const long long facts[2], apierr *err)
{
    (void)conn;
    if (strcmp(sqlstate, "23505") == 0)
        apierr_set(err, 409, "already_rated", "match m_%lld is rated already",
                   facts[0]);
}

bool store_ratings_change(PGconn *conn, long long match_id, const char *game,
                          long long player_id, int place,
                          const glicko2_rating *before,
                          const glicko2_rating *after, apierr *err)
{
    char rb[32], ra[32], db[32], da[32], vb[32], va[32];
    real_text(before->rating, rb);
    real_text(after->rating, ra);
    real_text(before->deviation, db);
    real_text(after->deviation, da);
    real_text(before->volatility, vb);
    real_text(after->volatility, va);
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, player_id);
    db_params_text(&p, game);
    db_params_int(&p, place);
    db_params_text(&p, rb);
    db_params_text(&p, ra);
    db_params_text(&p, db);
    db_params_text(&p, da);
    db_params_text(&p, vb);
    db_params_text(&p, va);
    const long long facts[2] = {match_id, player_id};
    return db_queue(
        conn,
        "INSERT INTO rating_changes (match_id, player_id, game, place,"
        " rating_before, rating_after, deviation_before, deviation_after,"
        " volatility_before, volatility_after) VALUES ($1, $2, $3, $4::int,"
        " $5::float8, $6::float8, $7::float8, $8::float8, $9::float8,"
        " $10::float8)",
        p.count, p.values, explain_change, facts, err);
}

json_t *store_ratings_leaderboard(PGconn *conn, const char *game, int max,
                                  apierr *err)
{
    db_params p = {0};
    db_params_text(&p, game);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           "SELECT r.player_id, p.name, r.rating, r.deviation,"
                           " r.matches, r.wins FROM ratings r"
                           " JOIN players p ON p.player_id = r.player_id"
                           " WHERE r.game = $1"
                           " ORDER BY r.rating DESC, r.player_id LIMIT $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        char ref[32];
        store_player_ref(atoll(PQgetvalue(r, i, 0)), ref);
        json_array_append_new(
            rows, json_pack("{s:i,s:s,s:s,s:f,s:f,s:i,s:i}", "rank", i + 1,
                            "player", ref, "name", PQgetvalue(r, i, 1),
                            "rating", atof(PQgetvalue(r, i, 2)), "deviation",
                            atof(PQgetvalue(r, i, 3)), "matches",
                            atoi(PQgetvalue(r, i, 4)), "wins",
                            atoi(PQgetvalue(r, i, 5))));
    }
    PQclear(r);
    return rows;
}

json_t *store_ratings_of_player(PGconn *conn, long long player_id, int history,
                                apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, history);
    PGresult *r = db_query(
        conn,
        "SELECT r.game, r.rating, r.deviation, r.volatility, r.matches,"
        " r.wins, h.match_id, h.place, h.rating_before, h.rating_after,"
        " to_char(h.created_at AT TIME ZONE 'UTC',"
        "         'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        " FROM ratings r LEFT JOIN LATERAL ("
        "  SELECT * FROM rating_changes c"
        "  WHERE c.player_id = r.player_id AND c.game = r.game"
        "  ORDER BY c.created_at DESC, c.match_id DESC LIMIT $2) h ON true"
        " WHERE r.player_id = $1"
        " ORDER BY r.game, h.created_at DESC, h.match_id DESC",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *games = json_array();
    json_t *current = NULL;
    for (int i = 0; i < PQntuples(r); i++) {
        const char *game = PQgetvalue(r, i, 0);
        if (current == NULL ||
            strcmp(json_string_value(json_object_get(current, "game")), game) !=
                0) {
            current = json_pack("{s:s,s:f,s:f,s:f,s:i,s:i,s:[]}", "game", game,
                                "rating", atof(PQgetvalue(r, i, 1)),
                                "deviation", atof(PQgetvalue(r, i, 2)),
                                "volatility", atof(PQgetvalue(r, i, 3)),
                                "matches", atoi(PQgetvalue(r, i, 4)), "wins",
                                atoi(PQgetvalue(r, i, 5)), "history");
            json_array_append_new(games, current);
        }
        if (PQgetisnull(r, i, 6))
            continue;
        char ref[32];
        store_match_ref(atoll(PQgetvalue(r, i, 6)), ref);
        json_array_append_new(json_object_get(current, "history"),
                              json_pack("{s:s,s:i,s:f,s:f,s:s}", "match", ref,
                                        "place", atoi(PQgetvalue(r, i, 7)),
                                        "before", atof(PQgetvalue(r, i, 8)),
                                        "after", atof(PQgetvalue(r, i, 9)),
                                        "at", PQgetvalue(r, i, 10)));
    }
    PQclear(r);
    return games;
}
