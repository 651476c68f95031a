/* vacations.c: see vacations.h. */
#include "store/vacations.h"

#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"

/* What read_vacations reads, of a player's vacations not cancelled. */
#define VACATIONS_OF_PLAYER                                                    \
    "SELECT vacation_id, extract(epoch FROM starts_at)::bigint,"               \
    " extract(epoch FROM ends_at)::bigint FROM vacations"                      \
    " WHERE player_id = $1 AND cancelled_at IS NULL"

/* Reads rows of (vacation_id, starts, ends) into out, at most max. */
static int read_vacations(PGresult *r, store_vacation *out, int max)
{
    int n = PQntuples(r);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++) {
        out[i].vacation_id = atoll(PQgetvalue(r, i, 0));
        out[i].starts = atoll(PQgetvalue(r, i, 1));
        out[i].ends = atoll(PQgetvalue(r, i, 2));
    }
    PQclear(r);
    return n;
}

int store_vacations_after(PGconn *conn, long long player_id, long long since,
                          store_vacation *out, int max, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, since);
    db_params_int(&p, max);
    PGresult *r =
        db_query(conn,
                 VACATIONS_OF_PLAYER " AND ends_at > to_timestamp($2::bigint)"
                                     " ORDER BY starts_at LIMIT $3::int",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    return read_vacations(r, out, max);
}

int store_vacations_latest(PGconn *conn, long long player_id,
                           store_vacation *out, int max, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           VACATIONS_OF_PLAYER
                           " ORDER BY starts_at DESC, vacation_id DESC"
                           " LIMIT $2::int",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    return read_vacations(r, out, max);
}

bool store_vacations_allowances(PGconn *conn, long long player_id,
                                store_vacation_allowance **out, int *count,
                                apierr *err)
{
    *out = NULL;
    *count = 0;
    db_params p = {0};
    db_params_int(&p, player_id);
    /* A vacation that began before the match was created counts from the
     * creation on. */
    PGresult *r = db_query(
        conn,
        "SELECT m.match_id, d.vacation_days_max::bigint * 86400,"
        " coalesce((SELECT sum(extract(epoch FROM v.ends_at)::bigint"
        "   - greatest(extract(epoch FROM v.starts_at)::bigint,"
        "              extract(epoch FROM m.created_at)::bigint))"
        "   FROM vacations v WHERE v.player_id = $1"
        "   AND v.cancelled_at IS NULL AND v.ends_at > m.created_at), 0)"
        " FROM seats s JOIN matches m USING (match_id)"
        " JOIN match_deadlines d USING (match_id)"
        " WHERE s.player_id = $1 AND m.status IN ('open', 'active')"
        " ORDER BY m.match_id",
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
        (*out)[i].match_id = atoll(PQgetvalue(r, i, 0));
        (*out)[i].allowed_seconds = atoll(PQgetvalue(r, i, 1));
        (*out)[i].taken_seconds = atoll(PQgetvalue(r, i, 2));
    }
    *count = n;
    PQclear(r);
    return true;
}

bool store_vacations_add(PGconn *conn, long long player_id, long long starts,
                         long long ends, long long *vacation_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, starts);
    db_params_int(&p, ends);
    PGresult *r = db_query(conn,
                           "INSERT INTO vacations (player_id, starts_at,"
                           " ends_at) VALUES ($1, to_timestamp($2::bigint),"
                           " to_timestamp($3::bigint)) RETURNING vacation_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *vacation_id = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

int store_vacations_end(PGconn *conn, long long player_id,
                        long long vacation_id, long long now,
                        store_vacation *out, bool *cancelled, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, vacation_id);
    db_params_int(&p, now);
    /* Not begun: cancelled. Under way: it ends now. */
    PGresult *r = db_query(
        conn,
        "UPDATE vacations SET cancelled_at = CASE WHEN starts_at >="
        "   to_timestamp($3::bigint) THEN to_timestamp($3::bigint) END,"
        " ends_at = CASE WHEN starts_at >= to_timestamp($3::bigint)"
        "   THEN ends_at ELSE to_timestamp($3::bigint) END"
        " WHERE player_id = $1 AND vacation_id = $2"
        " AND cancelled_at IS NULL AND ends_at > to_timestamp($3::bigint)"
        " RETURNING extract(epoch FROM starts_at)::bigint,"
        " extract(epoch FROM ends_at)::bigint, cancelled_at IS NOT NULL",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int found = PQntuples(r) > 0;
    if (found) {
        out->vacation_id = vacation_id;
        out->starts = atoll(PQgetvalue(r, 0, 0));
        out->ends = atoll(PQgetvalue(r, 0, 1));
        *cancelled = strcmp(PQgetvalue(r, 0, 2), "t") == 0;
    }
    PQclear(r);
    return found;
}

int store_vacations_exists(PGconn *conn, long long player_id,
                           long long vacation_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, vacation_id);
    PGresult *r = db_query(conn,
                           "SELECT 1 FROM vacations WHERE player_id = $1"
                           " AND vacation_id = $2 AND cancelled_at IS NULL",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int found = PQntuples(r) == 1;
    PQclear(r);
    return found;
}
