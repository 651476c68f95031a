/* sealed_choices.c */
#include "store/sealed_choices.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

/* The seats of the rows of decision that pass condition (SQL). */
static uint32_t seats_where(PGconn *conn, long long match_id,
                            const char *decision, const char *sql)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, decision);
    apierr err;
    PGresult *result = db_query(conn, sql, p.count, p.values,
                                PGRES_TUPLES_OK, &err);
    if (result == NULL)
        return 0;
    uint32_t seats = 0;
    for (int row = 0; row < PQntuples(result); row++) {
        int seat = atoi(PQgetvalue(result, row, 0));
        if (seat >= 0 && seat < 32)
            seats |= 1u << seat;
    }
    PQclear(result);
    return seats;
}

uint32_t sealed_choices_committed(PGconn *conn, long long match_id,
                                  const char *decision)
{
    return seats_where(conn, match_id, decision,
                       "SELECT seat FROM sealed_choices"
                       " WHERE match_id = $1 AND decision = $2");
}

uint32_t sealed_choices_unrevealed(PGconn *conn, long long match_id,
                                   const char *decision)
{
    return seats_where(conn, match_id, decision,
                       "SELECT seat FROM sealed_choices"
                       " WHERE match_id = $1 AND decision = $2"
                       " AND mode = 'client' AND NOT revealed");
}
