/* seeks.c: see seeks.h. */
#include "store/seeks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"

#define RFC3339(column)                                                        \
    "to_char(" column " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* The advisory lock's two keys: this table's, and the kind's hash. */
static void lock_params(const store_seek *kind, db_params *p, char text[96])
{
    snprintf(text, 96, "%s/%d/%d", kind->game, kind->seats, kind->turn_hours);
    db_params_text(p, text);
}

bool store_seeks_lock(PGconn *conn, const store_seek *kind, apierr *err)
{
    char text[96];
    db_params p = {0};
    lock_params(kind, &p, text);
    return db_command(conn, "SELECT pg_advisory_lock(18, hashtext($1))",
                      p.count, p.values, err);
}

bool store_seeks_unlock(PGconn *conn, const store_seek *kind, apierr *err)
{
    char text[96];
    db_params p = {0};
    lock_params(kind, &p, text);
    return db_command(conn, "SELECT pg_advisory_unlock(18, hashtext($1))",
                      p.count, p.values, err);
}

bool store_seeks_insert(PGconn *conn, store_seek *seek, long long now,
                        apierr *err)
{
    char rating[32];
    snprintf(rating, sizeof rating, "%.17g", seek->rating);
    db_params p = {0};
    db_params_int(&p, seek->player_id);
    db_params_text(&p, seek->game);
    db_params_int(&p, seek->seats);
    db_params_int(&p, seek->turn_hours);
    db_params_text(&p, rating);
    db_params_int(&p, now);
    db_params_int(&p, seek->expires_at);
    /* An expired seek still marked waiting gives way to the new one. */
    if (!db_command(conn,
                    "UPDATE seeks SET status = 'withdrawn'"
                    " WHERE player_id = $1 AND game = $2 AND seats = $3::int"
                    " AND turn_hours = $4::int AND status = 'waiting'"
                    " AND expires_at <= to_timestamp($5::bigint)",
                    5,
                    (const char *const[]){p.values[0], p.values[1], p.values[2],
                                          p.values[3], p.values[5]},
                    err))
        return false;
    PGresult *r = db_query(
        conn,
        "INSERT INTO seeks (player_id, game, seats, turn_hours, rating,"
        " created_at, expires_at) VALUES ($1, $2, $3::int, $4::int,"
        " $5::float8, to_timestamp($6::bigint), to_timestamp($7::bigint))"
        " ON CONFLICT (player_id, game, seats, turn_hours)"
        " WHERE status = 'waiting'"
        " DO UPDATE SET expires_at = excluded.expires_at,"
        " rating = excluded.rating"
        " RETURNING seek_id, extract(epoch FROM created_at)::bigint",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    seek->seek_id = atoll(PQgetvalue(r, 0, 0));
    seek->created_at = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
    return true;
}

/* The columns a store_seek is read from, in read_seeks' order. */
#define SEEK_COLUMNS                                                           \
    "seek_id, player_id, rating, extract(epoch FROM created_at)::bigint,"      \
    " extract(epoch FROM expires_at)::bigint"

/* r's rows (SEEK_COLUMNS) into out, each of kind's game, seats and
 * turn_hours; how many. Clears r. */
static int read_seeks(PGresult *r, const store_seek *kind, store_seek *out)
{
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        out[i] = *kind;
        out[i].seek_id = atoll(PQgetvalue(r, i, 0));
        out[i].player_id = atoll(PQgetvalue(r, i, 1));
        out[i].rating = atof(PQgetvalue(r, i, 2));
        out[i].created_at = atoll(PQgetvalue(r, i, 3));
        out[i].expires_at = atoll(PQgetvalue(r, i, 4));
    }
    PQclear(r);
    return n;
}

int store_seeks_partners(PGconn *conn, const store_seek *seek, long long now,
                         double base, double per_hour, double widest,
                         store_seek *out, int max, apierr *err)
{
    char rating[32], b[32], h[32], w[32];
    snprintf(rating, sizeof rating, "%.17g", seek->rating);
    snprintf(b, sizeof b, "%.17g", base);
    snprintf(h, sizeof h, "%.17g", per_hour);
    snprintf(w, sizeof w, "%.17g", widest);
    db_params p = {0};
    db_params_text(&p, seek->game);
    db_params_int(&p, seek->seats);
    db_params_int(&p, seek->turn_hours);
    db_params_int(&p, seek->player_id);
    db_params_int(&p, now);
    db_params_text(&p, rating);
    db_params_text(&p, b);
    db_params_text(&p, h);
    db_params_text(&p, w);
    db_params_int(&p, max);
    PGresult *r = db_query(
        conn,
        "SELECT " SEEK_COLUMNS " FROM seeks"
        " WHERE game = $1 AND seats = $2::int AND turn_hours = $3::int"
        " AND status = 'waiting' AND player_id <> $4"
        " AND expires_at > to_timestamp($5::bigint)"
        " AND abs(rating - $6::float8) <= least($9::float8, $7::float8 +"
        "  $8::float8 * greatest(0, $5::bigint"
        "   - extract(epoch FROM created_at)) / 3600.0)"
        " ORDER BY created_at, seek_id LIMIT $10",
        p.count, p.values, PGRES_TUPLES_OK, err);
    return r == NULL ? -1 : read_seeks(r, seek, out);
}

int store_seeks_ready_kinds(PGconn *conn, long long now, store_seek *out,
                            int max, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, now);
    db_params_int(&p, max);
    PGresult *r = db_query(
        conn,
        "SELECT game, seats, turn_hours FROM seeks"
        " WHERE status = 'waiting' AND expires_at > to_timestamp($1::bigint)"
        " GROUP BY game, seats, turn_hours"
        " HAVING count(DISTINCT player_id) >= seats"
        " ORDER BY min(created_at) LIMIT $2",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        snprintf(out[i].game, sizeof out[i].game, "%s", PQgetvalue(r, i, 0));
        out[i].seats = atoi(PQgetvalue(r, i, 1));
        out[i].turn_hours = atoi(PQgetvalue(r, i, 2));
    }
    PQclear(r);
    return n;
}

int store_seeks_of_kind(PGconn *conn, const store_seek *kind, long long now,
                        store_seek *out, int max, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, kind->game);
    db_params_int(&p, kind->seats);
    db_params_int(&p, kind->turn_hours);
    db_params_int(&p, now);
    db_params_int(&p, max);
    PGresult *r = db_query(
        conn,
        "SELECT " SEEK_COLUMNS " FROM seeks"
        " WHERE game = $1 AND seats = $2::int AND turn_hours = $3::int"
        " AND status = 'waiting' AND expires_at > to_timestamp($4::bigint)"
        " ORDER BY created_at DESC, seek_id DESC LIMIT $5",
        p.count, p.values, PGRES_TUPLES_OK, err);
    return r == NULL ? -1 : read_seeks(r, kind, out);
}

bool store_seeks_matched(PGconn *conn, const long long *ids, int count,
                         long long match_id, apierr *err)
{
    char *list = db_params_int_array(ids, count);
    db_params p = {0};
    db_params_text(&p, list);
    db_params_int(&p, match_id);
    bool ok = db_command(conn,
                         "UPDATE seeks SET status = 'matched', match_id = $2"
                         " WHERE seek_id = ANY($1::bigint[])",
                         p.count, p.values, err);
    free(list);
    return ok;
}

bool store_seeks_withdraw(PGconn *conn, long long player_id, long long seek_id,
                          apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, seek_id);
    PGresult *r = db_query(
        conn,
        "WITH mine AS (SELECT seek_id, status FROM seeks"
        "  WHERE seek_id = $2 AND player_id = $1 FOR UPDATE),"
        " gone AS (UPDATE seeks SET status = 'withdrawn'"
        "  WHERE seek_id IN (SELECT seek_id FROM mine"
        "   WHERE status = 'waiting') RETURNING seek_id)"
        " SELECT (SELECT status FROM mine), (SELECT count(*) FROM gone)",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    bool found = !PQgetisnull(r, 0, 0);
    bool withdrawn = atoi(PQgetvalue(r, 0, 1)) == 1;
    char status[16];
    snprintf(status, sizeof status, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    if (!found)
        return apierr_set(err, 404, "no_such_seek",
                          "you have no seek s_%lld: GET /v1/seeks lists "
                          "yours",
                          seek_id);
    if (!withdrawn)
        return apierr_set(err, 409, "seek_over",
                          "seek s_%lld is %s already: it no longer waits",
                          seek_id, status);
    return true;
}

json_t *store_seeks_of_player(PGconn *conn, long long player_id, long long now,
                              int max, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, now);
    db_params_int(&p, max);
    PGresult *r = db_query(
        conn,
        "SELECT seek_id, game, seats, turn_hours,"
        " CASE WHEN status = 'waiting'"
        "  AND expires_at <= to_timestamp($2::bigint) THEN 'expired'"
        "  ELSE status END, match_id, " RFC3339("created_at") ", " RFC3339(
            "expires_at") " FROM seeks WHERE player_id = $1"
                          " ORDER BY seek_id DESC LIMIT $3",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        char id[32], match[32];
        snprintf(id, sizeof id, "s_%s", PQgetvalue(r, i, 0));
        if (!PQgetisnull(r, i, 5))
            store_match_ref(atoll(PQgetvalue(r, i, 5)), match);
        json_array_append_new(
            rows,
            json_pack("{s:s,s:s,s:i,s:i,s:s,s:o,s:s,s:s}", "id", id, "game",
                      PQgetvalue(r, i, 1), "seats", atoi(PQgetvalue(r, i, 2)),
                      "turn_hours", atoi(PQgetvalue(r, i, 3)), "status",
                      PQgetvalue(r, i, 4), "match",
                      PQgetisnull(r, i, 5) ? json_null() : json_string(match),
                      "created_at", PQgetvalue(r, i, 6), "expires_at",
                      PQgetvalue(r, i, 7)));
    }
    PQclear(r);
    return rows;
}

json_t *store_seeks_waiting(PGconn *conn, const char *game, long long now,
                            int max, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, game);
    db_params_int(&p, now);
    db_params_int(&p, max);
    PGresult *r =
        db_query(conn,
                 "SELECT game, seats, turn_hours, " RFC3339(
                     "created_at") " FROM seeks WHERE status = 'waiting'"
                                   " AND expires_at > to_timestamp($2::bigint)"
                                   " AND ($1::text IS NULL OR game = $1)"
                                   " ORDER BY created_at, seek_id LIMIT $3",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(
            rows, json_pack("{s:s,s:i,s:i,s:s}", "game", PQgetvalue(r, i, 0),
                            "seats", atoi(PQgetvalue(r, i, 1)), "turn_hours",
                            atoi(PQgetvalue(r, i, 2)), "waiting_since",
                            PQgetvalue(r, i, 3)));
    PQclear(r);
    return rows;
}
