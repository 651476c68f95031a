/* rate_buckets.c: see rate_buckets.h. */
#include "store/rate_buckets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"

int store_rate_buckets_take(PGconn *conn, const char *bucket, long long cost_us,
                            long long capacity_us, long long *owed_us,
                            apierr *err)
{
    char cost[24], capacity[24];
    snprintf(cost, sizeof cost, "%lld", cost_us);
    snprintf(capacity, sizeof capacity, "%lld", capacity_us);
    const char *params[] = {bucket, cost, capacity};
    PGresult *r = db_query(conn,
                           "SELECT allowed, owed_us FROM rate_bucket_take("
                           "$1, $2::bigint, $3::bigint)",
                           3, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int allowed = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    *owed_us = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
    return allowed;
}

long long store_rate_buckets_prune(PGconn *conn, apierr *err)
{
    PGresult *r =
        db_query(conn,
                 "WITH gone AS (DELETE FROM rate_buckets WHERE full_at_us < "
                 "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint "
                 "RETURNING 1) SELECT count(*) FROM gone",
                 0, NULL, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}
