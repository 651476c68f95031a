/* reliability.c: see reliability.h. */
#include "store/reliability.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_reliability_read(PGconn *conn, const long long *ids, int count,
                            int matches, int *turns, int *missed, apierr *err)
{
    for (int i = 0; i < count; i++)
        turns[i] = missed[i] = 0;
    if (count == 0)
        return true;
    char *list = db_params_int_array(ids, count);
    db_params p = {0};
    db_params_text(&p, list);
    db_params_int(&p, matches);
    PGresult *r = db_query(
        conn,
        "SELECT s.player_id, count(*),"
        " count(*) FILTER (WHERE d.fired_at IS NOT NULL)"
        " FROM (SELECT player_id, match_id, seat, row_number() OVER"
        "       (PARTITION BY player_id ORDER BY joined_at DESC) AS latest"
        "       FROM seats WHERE player_id = ANY($1::bigint[])) s"
        " JOIN deadlines d ON d.match_id = s.match_id AND d.seat = s.seat"
        " WHERE s.latest <= $2 AND d.kind <> 'window'"
        " AND (d.fired_at IS NOT NULL OR d.outcome = 'acted')"
        " GROUP BY s.player_id",
        p.count, p.values, PGRES_TUPLES_OK, err);
    free(list);
    if (r == NULL)
        return false;
    for (int row = 0; row < PQntuples(r); row++) {
        long long id = atoll(PQgetvalue(r, row, 0));
        for (int i = 0; i < count; i++) {
            if (ids[i] != id)
                continue;
            turns[i] = atoi(PQgetvalue(r, row, 1));
            missed[i] = atoi(PQgetvalue(r, row, 2));
        }
    }
    PQclear(r);
    return true;
}
