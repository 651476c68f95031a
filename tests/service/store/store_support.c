/* store_support.c: see store_support.h. */
#include "store_support.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#include "../../support/pgtest.h"
#include "store/migrate.h"

PGconn *store_test_schema(char *schema)
{
    cr_assert(sodium_init() >= 0);
    PGconn *conn = pgtest_fresh_schema(schema);
    apierr err;
    cr_assert(migrate_apply(conn, "migrations", NULL, &err), "%s", err.message);
    return conn;
}

void store_test_match(PGconn *conn, store_match *match, long long id)
{
    memset(match, 0, sizeof *match);
    match->match_id = id;
    strcpy(match->game, "toy");
    match->engine_version = 1;
    match->options = json_object();
    match->seat_count = 2;
    strcpy(match->status, "open");
    match->created_by = 1;
    apierr err;
    cr_assert(store_insert_match(conn, match, &err), "%s", err.message);
}

void store_expect_unavailable_in_time(const apierr *err, long long took_ms)
{
    cr_expect_eq(err->status, 503);
    cr_expect_str_eq(err->code, "database_unavailable");
    cr_expect_gt(err->retry_after, 0);
    cr_expect_lt(took_ms, 3000, "the request was held %lld ms", took_ms);
}
