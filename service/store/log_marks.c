/* log_marks.c: see log_marks.h. */
#include "store/log_marks.h"

#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_log_marks_forfeited(PGconn *conn, long long match_id,
                               uint32_t *seats, apierr *err)
{
    *seats = 0;
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *r = db_query(conn,
                           "SELECT seat FROM events WHERE match_id = $1"
                           " AND kind = 'forfeited'",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    for (int i = 0; i < PQntuples(r); i++) {
        int seat = atoi(PQgetvalue(r, i, 0));
        if (seat >= 0 && seat < 32)
            *seats |= 1u << seat;
    }
    PQclear(r);
    return true;
}

int store_log_marks_rewound_after(PGconn *conn, long long match_id,
                                  long long seq, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    PGresult *r = db_query(conn,
                           "SELECT 1 FROM events WHERE match_id = $1"
                           " AND seq > $2 AND kind = 'rewound' LIMIT 1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int rewound = PQntuples(r) > 0;
    PQclear(r);
    return rewound;
}
