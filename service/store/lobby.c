/* lobby.c: see lobby.h. */
#include "store/lobby.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_lobby_insert(PGconn *conn, long long match_id, const char *game,
                        const store_lobby *lobby, apierr *err)
{
    char min[32];
    snprintf(min, sizeof min, "%.4f", lobby->min_reliability);
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, game);
    db_params_text(&p, lobby->open ? "true" : "false");
    db_params_text(&p, lobby->rated ? "true" : "false");
    db_params_text(&p, lobby->min_reliability >= 0 ? min : NULL);
    return db_queue(conn,
                    "INSERT INTO match_lobby (match_id, game, open, rated,"
                    " min_reliability) VALUES ($1, $2, $3::boolean,"
                    " $4::boolean, $5::real)",
                    p.count, p.values, NULL, NULL, err);
}

bool store_lobby_load(PGconn *conn, long long match_id, store_lobby *lobby,
                      bool *found, apierr *err)
{
    *lobby = (store_lobby){.min_reliability = -1};
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *r = db_query(conn,
                           "SELECT open, rated, coalesce(min_reliability, -1)"
                           " FROM match_lobby WHERE match_id = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) == 1;
    if (*found) {
        lobby->open = PQgetvalue(r, 0, 0)[0] == 't';
        lobby->rated = PQgetvalue(r, 0, 1)[0] == 't';
        lobby->min_reliability = atof(PQgetvalue(r, 0, 2));
    }
    PQclear(r);
    return true;
}

bool store_lobby_formed(PGconn *conn, long long match_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    return db_queue(conn,
                    "UPDATE match_lobby SET forming = false"
                    " WHERE match_id = $1 AND forming",
                    p.count, p.values, NULL, NULL, err);
}

bool store_lobby_list(PGconn *conn, const char *game, int max,
                      store_lobby_row **rows, int *count, apierr *err)
{
    *rows = NULL;
    *count = 0;
    db_params p = {0};
    db_params_text(&p, game);
    db_params_int(&p, max);
    PGresult *r = db_query(
        conn,
        "SELECT m.match_id, m.game, m.options::text, m.seat_count,"
        " (SELECT count(*) FROM seats s WHERE s.match_id = m.match_id),"
        " l.rated, coalesce(l.min_reliability, -1), m.created_by, p.name,"
        " coalesce(r.rating, -1), coalesce(r.deviation, -1),"
        " to_char(l.created_at AT TIME ZONE 'UTC',"
        "         'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
        " FROM match_lobby l"
        " JOIN matches m ON m.match_id = l.match_id"
        " JOIN players p ON p.player_id = m.created_by"
        " LEFT JOIN ratings r ON r.game = l.game"
        "  AND r.player_id = m.created_by"
        " WHERE l.open AND l.forming AND m.status = 'open'"
        " AND ($1::text IS NULL OR l.game = $1)"
        " ORDER BY l.created_at DESC, l.match_id DESC LIMIT $2",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    int n = PQntuples(r);
    if (n > 0) {
        *rows = calloc((size_t)n, sizeof **rows);
        if (*rows == NULL)
            abort();
    }
    for (int i = 0; i < n; i++) {
        store_lobby_row *row = &(*rows)[i];
        row->match_id = atoll(PQgetvalue(r, i, 0));
        snprintf(row->game, sizeof row->game, "%s", PQgetvalue(r, i, 1));
        row->options = json_loads(PQgetvalue(r, i, 2), 0, NULL);
        row->seat_count = atoi(PQgetvalue(r, i, 3));
        row->seats_taken = atoi(PQgetvalue(r, i, 4));
        row->rated = PQgetvalue(r, i, 5)[0] == 't';
        row->min_reliability = atof(PQgetvalue(r, i, 6));
        row->creator = atoll(PQgetvalue(r, i, 7));
        snprintf(row->creator_name, sizeof row->creator_name, "%s",
                 PQgetvalue(r, i, 8));
        row->creator_rating = atof(PQgetvalue(r, i, 9));
        row->creator_deviation = atof(PQgetvalue(r, i, 10));
        snprintf(row->created_at, sizeof row->created_at, "%s",
                 PQgetvalue(r, i, 11));
    }
    *count = n;
    PQclear(r);
    return true;
}

void store_lobby_rows_free(store_lobby_row *rows, int count)
{
    for (int i = 0; i < count; i++)
        json_decref(rows[i].options);
    free(rows);
}
