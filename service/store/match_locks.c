/* match_locks.c: see match_locks.h. */
#include "store/match_locks.h"

#include "store/db.h"
#include "store/db_params.h"

int store_match_locks_try(PGconn *conn, long long match_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *r = db_query(conn,
                           "SELECT 1 FROM matches WHERE match_id = $1"
                           " FOR UPDATE SKIP LOCKED",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int held = PQntuples(r) == 1;
    PQclear(r);
    return held;
}
