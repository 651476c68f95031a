/* match_lists.c: see match_lists.h. */
#include "store/match_lists.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_match_lists_of_player(PGconn *conn, long long player_id,
                                 const char *status, int max,
                                 store_listed_match **out, int *count,
                                 apierr *err)
{
    *out = NULL;
    *count = 0;
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, status);
    db_params_int(&p, max);
    PGresult *r = db_query(
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
    if (r == NULL)
        return false;
    int n = PQntuples(r);
    if (n > 0) {
        *out = calloc((size_t)n, sizeof **out);
        if (*out == NULL)
            abort();
    }
    for (int i = 0; i < n; i++) {
        store_listed_match *m = &(*out)[i];
        m->match_id = atoll(PQgetvalue(r, i, 0));
        snprintf(m->game, sizeof m->game, "%s", PQgetvalue(r, i, 1));
        snprintf(m->status, sizeof m->status, "%s", PQgetvalue(r, i, 2));
        m->seat = atoi(PQgetvalue(r, i, 3));
        m->head_seq = atoll(PQgetvalue(r, i, 4));
        snprintf(m->updated_at, sizeof m->updated_at, "%s",
                 PQgetvalue(r, i, 5));
    }
    *count = n;
    PQclear(r);
    return true;
}

json_t *store_match_lists_seat_names(PGconn *conn, const long long *ids,
                                     int count, apierr *err)
{
    char *list = db_params_int_array(ids, count);
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
        json_array_append_new(seats, json_pack("{s:i,s:s}", "seat",
                                               atoi(PQgetvalue(r, i, 1)),
                                               "name", PQgetvalue(r, i, 2)));
    }
    PQclear(r);
    return by_match;
}
