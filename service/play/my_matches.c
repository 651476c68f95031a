/* my_matches.c: a player's matches (my_matches.h). */
#include "play/my_matches.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "play/describe.h"
#include "play/matchstate.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/matches.h"
#include "store/store.h"

enum { COL_MATCH, COL_GAME, COL_STATUS, COL_SEAT, COL_HEAD, COL_UPDATED };

static bool status_ok(const char *status)
{
    static const char *const known[] = {"open", "active", "finished",
                                        "aborted"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(status, known[i]) == 0)
            return true;
    return false;
}

/* Whether seat must act now in the active match match_id; false when the
 * state cannot be had (the match is listed all the same). */
static bool must_act(PGconn *conn, long long match_id, int seat)
{
    apierr err;
    store_match match;
    if (!store_load_match(conn, match_id, &match, &err))
        return false;
    bool yes = false;
    const rules_engine *engine = matchstate_engine(&match, &err);
    if (engine != NULL && matchstate_has_state(&match)) {
        rules_state *state = matchstate_load(conn, &match, engine, &err);
        if (state != NULL) {
            yes = describe_seat_must_act(&match, engine, state, seat);
            engine->destroy(state);
        }
    }
    store_match_free(&match);
    return yes;
}

/* {"seat", "name"} of every taken seat of the listed matches, by match
 * ref: a new object, or NULL with err filled. */
static json_t *seat_names(PGconn *conn, const PGresult *rows, apierr *err)
{
    int n = PQntuples(rows);
    long long *ids = calloc((size_t)n + 1, sizeof *ids);
    if (ids == NULL)
        abort();
    for (int i = 0; i < n; i++)
        ids[i] = atoll(PQgetvalue(rows, i, COL_MATCH));
    char *list = db_params_int_array(ids, n);
    free(ids);
    db_params p = {0};
    db_params_text(&p, list);
    PGresult *r = db_query(conn,
                           "SELECT s.match_id, s.seat, p.name FROM seats s"
                           " JOIN players p ON p.player_id = s.player_id"
                           " WHERE s.match_id = ANY($1::bigint[])"
                           " ORDER BY s.match_id, s.seat",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    free(list);
    if (r == NULL)
        return NULL;
    json_t *by_match = json_object();
    for (int i = 0; i < PQntuples(r); i++) {
        const char *id = PQgetvalue(r, i, 0);
        json_t *seats = json_object_get(by_match, id);
        if (seats == NULL) {
            seats = json_array();
            json_object_set_new(by_match, id, seats);
        }
        json_array_append_new(seats,
                              json_pack("{s:i,s:s}", "seat",
                                        atoi(PQgetvalue(r, i, 1)), "name",
                                        PQgetvalue(r, i, 2)));
    }
    PQclear(r);
    return by_match;
}

json_t *my_matches_list(const caller *who, const char *status, apierr *err)
{
    if (status != NULL && !status_ok(status)) {
        apierr_set(err, 400, "bad_status",
                   "status must be open, active, finished or aborted (or "
                   "left out for every match)");
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    db_params p = {0};
    db_params_int(&p, who->player_id);
    db_params_text(&p, status);
    db_params_int(&p, MY_MATCHES_MAX);
    PGresult *rows = db_query(
        conn,
        /* The active matches make the cut first (one of them may be the
         * player's turn), then the list is in order of the latest
         * change. */
        "SELECT match_id, game, status, seat, head_seq,"
        " to_char(updated_at AT TIME ZONE 'UTC',"
        "         'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        " FROM (SELECT m.match_id, m.game, m.status, s.seat, m.head_seq,"
        "              m.updated_at"
        "       FROM seats s JOIN matches m ON m.match_id = s.match_id"
        "       WHERE s.player_id = $1"
        "       AND ($2::text IS NULL OR m.status = $2)"
        "       ORDER BY m.status = 'active' DESC, m.updated_at DESC,"
        "       m.match_id DESC LIMIT $3) mine"
        " ORDER BY updated_at DESC, match_id DESC",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (rows == NULL)
        return NULL;
    json_t *names = seat_names(conn, rows, err);
    if (names == NULL) {
        PQclear(rows);
        return NULL;
    }
    /* Your turn first; otherwise the order of the query. */
    json_t *mine = json_array();
    json_t *others = json_array();
    for (int i = 0; i < PQntuples(rows); i++) {
        long long match_id = atoll(PQgetvalue(rows, i, COL_MATCH));
        int seat = atoi(PQgetvalue(rows, i, COL_SEAT));
        const char *match_status = PQgetvalue(rows, i, COL_STATUS);
        bool your_turn = strcmp(match_status, "active") == 0 &&
                         must_act(conn, match_id, seat);
        char ref[32];
        store_match_ref(match_id, ref);
        json_t *seats = json_object_get(names, PQgetvalue(rows, i, COL_MATCH));
        seats = seats != NULL ? json_incref(seats) : json_array();
        json_t *row = json_pack(
            "{s:s,s:s,s:s,s:i,s:b,s:I,s:s,s:o}", "match_id", ref, "game",
            PQgetvalue(rows, i, COL_GAME), "status", match_status, "seat",
            seat, "your_turn", your_turn, "head_seq",
            (json_int_t)atoll(PQgetvalue(rows, i, COL_HEAD)), "updated_at",
            PQgetvalue(rows, i, COL_UPDATED), "seats", seats);
        json_array_append_new(your_turn ? mine : others, row);
    }
    PQclear(rows);
    json_decref(names);
    json_array_extend(mine, others);
    json_decref(others);
    return json_pack("{s:o}", "matches", mine);
}
