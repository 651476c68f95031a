/* nudges.c: see nudges.h. */
#include "store/nudges.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_nudges_lock(PGconn *conn, long long match_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    return db_command(conn,
                      "SELECT 1 FROM matches WHERE match_id = $1 FOR UPDATE",
                      p.count, p.values, err);
}

long long store_nudges_wait(PGconn *conn, long long match_id, int seat,
                            long long window_seconds, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, window_seconds);
    PGresult *r = db_query(
        conn,
        "SELECT coalesce(ceil(extract(epoch FROM max(created_at)"
        "  + make_interval(secs => $3::int) - now()))::bigint, 0)"
        " FROM nudges WHERE match_id = $1 AND seat = $2::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    long long wait = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return wait > 0 ? wait : 0;
}

bool store_nudges_insert(PGconn *conn, long long match_id, long long seq,
                         int seat, long long by_player, long long *nudge_id,
                         apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_int(&p, seat);
    db_params_int(&p, by_player);
    PGresult *r = db_query(conn,
                           "INSERT INTO nudges (match_id, seq, seat, by_player)"
                           " VALUES ($1, $2, $3::int, $4) RETURNING nudge_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *nudge_id = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}
