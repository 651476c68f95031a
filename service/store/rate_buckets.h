/* rate_buckets.h: the rate-limit buckets every pbemd on the database
 * shares (migrations/021_rate_buckets.sql), for http/rate_policy.h when
 * PBEM_RATE_SHARED is on. A bucket is named by the caller (its budget and
 * client in one text) and kept as the instant it is full again, on the
 * database's clock; the arithmetic is http/rate_limit.c's. */
#ifndef SERVICE_STORE_RATE_BUCKETS_H
#define SERVICE_STORE_RATE_BUCKETS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Charges cost_us microseconds of debt to bucket unless it would then owe
 * more than capacity_us: 1 charged, 0 refused (nothing taken); either way
 * *owed_us is how long until the bucket is full again. -1 with err
 * filled on a database error. One statement, outside any transaction. */
int store_rate_buckets_take(PGconn *conn, const char *bucket, long long cost_us,
                            long long capacity_us, long long *owed_us,
                            apierr *err);

/* Forgets the buckets that are full again (an absent bucket is a full
 * one): how many, or -1 with err filled. */
long long store_rate_buckets_prune(PGconn *conn, apierr *err);

#endif
