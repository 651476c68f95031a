/* pauses.c */
#include "deadlines/pauses.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

int pauses_of_player(PGconn *conn, long long player_id, long long since,
                     deadline_span *out, int max, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, since);
    db_params_int(&p, max);
    PGresult *r = db_query(conn,
                           "SELECT extract(epoch FROM starts_at)::bigint,"
                           " extract(epoch FROM ends_at)::bigint FROM"
                           " vacations WHERE player_id = $1 AND"
                           " cancelled_at IS NULL AND ends_at >"
                           " to_timestamp($2::bigint) ORDER BY starts_at"
                           " LIMIT $3::int",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int n = PQntuples(r);
    for (int i = 0; i < n; i++) {
        out[i].from = atoll(PQgetvalue(r, i, 0));
        out[i].until = atoll(PQgetvalue(r, i, 1));
    }
    PQclear(r);
    return n;
}
