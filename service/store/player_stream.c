/* player_stream.c: see player_stream.h. */
#include "store/player_stream.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_player_stream_head(PGconn *conn, long long player_id,
                              long long *last, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(
        conn,
        "WITH made AS (INSERT INTO player_stream_heads (player_id)"
        "   VALUES ($1) ON CONFLICT DO NOTHING RETURNING last_id)"
        " SELECT last_id FROM made UNION ALL"
        " SELECT last_id FROM player_stream_heads WHERE player_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *last = PQntuples(r) > 0 ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return true;
}

bool store_player_stream_oldest(PGconn *conn, long long player_id,
                                long long *oldest, bool *any, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT min(stream_id) FROM player_stream"
                           " WHERE player_id = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *any = !PQgetisnull(r, 0, 0);
    *oldest = *any ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return true;
}

PGresult *store_player_stream_after(PGconn *conn, long long player_id,
                                    long long after, int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, after);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT stream_id, json_build_object('type',"
        "   coalesce(payload->>'type', 'match.notification'), 'timestamp',"
        "   to_char(created_at AT TIME ZONE 'UTC',"
        "           'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"'),"
        "   'data', payload)::text FROM player_stream"
        " WHERE player_id = $1 AND stream_id > $2"
        " ORDER BY stream_id LIMIT $3::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_player_stream_push(PGconn *conn, const long long *player_ids,
                              int count, long long match_id, long long seq,
                              const char *reason, const char *payload,
                              apierr *err)
{
    if (count == 0)
        return true;
    char *ids = db_params_int_array(player_ids, count);
    db_params p = {0};
    db_params_text(&p, ids);
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_text(&p, reason);
    db_params_text(&p, payload);
    bool ok = db_command(
        conn,
        "WITH locked AS ("
        "  SELECT player_id FROM player_stream_heads"
        "   WHERE player_id = ANY($1::bigint[])"
        "   ORDER BY player_id FOR UPDATE),"
        " bumped AS ("
        "  UPDATE player_stream_heads h SET last_id = h.last_id + 1"
        "    FROM locked l WHERE h.player_id = l.player_id"
        "  RETURNING h.player_id, h.last_id)"
        " INSERT INTO player_stream (player_id, stream_id, match_id, seq,"
        "                            reason, payload)"
        " SELECT player_id, last_id, $2, $3, $4, $5::jsonb FROM bumped",
        p.count, p.values, err);
    free(ids);
    return ok;
}

int store_player_stream_prune(PGconn *conn, int keep_hours, int limit,
                              apierr *err)
{
    db_params p = {0};
    db_params_int(&p, keep_hours);
    db_params_int(&p, limit);
    PGresult *r = db_query(
        conn,
        "DELETE FROM player_stream WHERE ctid IN (SELECT ctid"
        " FROM player_stream WHERE created_at < now() -"
        " make_interval(hours => $1::int) LIMIT $2::int) RETURNING 1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int deleted = PQntuples(r);
    PQclear(r);
    return deleted;
}
