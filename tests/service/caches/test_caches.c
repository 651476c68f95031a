/* The process's small caches of things that never change once made
 * (core/ways.h): ids that pick the same set are kept side by side, and
 * the one used longest ago is the one that goes. A cache that kept one id
 * per set let two such ids evict each other at every request, each time
 * costing a database read. */
#include <criterion/criterion.h>
#include <sodium.h>

#include "../../support/pgtest.h"
#include "core/ways.h"
#include "deadlines/deadline_settings.h"
#include "store/migrate.h"

Test(caches, ids_sharing_a_set_are_kept_side_by_side)
{
    ways_tag set[WAYS_PER_SET] = {{0}};
    unsigned long long clock = 0;
    int ways[WAYS_PER_SET];
    for (int i = 0; i < WAYS_PER_SET; i++)
        ways[i] = ways_place(set, 1000 + 256ull * (unsigned)i, &clock);
    for (int i = 0; i < WAYS_PER_SET; i++) {
        cr_expect_eq(ways_find(set, 1000 + 256ull * (unsigned)i, &clock),
                     ways[i], "id %d", i);
        for (int j = 0; j < i; j++)
            cr_expect_neq(ways[i], ways[j]);
    }
    cr_expect_eq(ways_find(set, 7, &clock), -1);
    /* Placing a kept id again finds its own way. */
    cr_expect_eq(ways_place(set, 1000 + 512, &clock), ways[2]);
}

Test(caches, the_id_used_longest_ago_goes_first)
{
    ways_tag set[WAYS_PER_SET] = {{0}};
    unsigned long long clock = 0;
    int ways[WAYS_PER_SET];
    for (int i = 0; i < WAYS_PER_SET; i++)
        ways[i] = ways_place(set, (unsigned long long)i, &clock);
    /* 0 is used again, so 1 is now the one used longest ago. */
    ways_find(set, 0, &clock);
    cr_expect_eq(ways_place(set, 99, &clock), ways[1]);
    cr_expect_eq(ways_find(set, 1, &clock), -1);
    cr_expect_eq(ways_find(set, 0, &clock), ways[0]);
    cr_expect_eq(ways_find(set, 99, &clock), ways[1]);
}

/* Four matches whose ids pick the same set of the deadline settings'
 * cache (and the same slot of the cache of 1,024 slots it replaced): each
 * is read once, then answered without a connection. */
Test(caches, deadline_settings_of_matches_sharing_a_set_are_all_kept)
{
    cr_assert(sodium_init() >= 0);
    char schema[64];
    PGconn *conn = pgtest_fresh_schema(schema);
    apierr err;
    cr_assert(migrate_apply(conn, "migrations", NULL, &err), "%s",
              err.message);
    static const long long ids[] = {3000, 3000 + 1024, 3000 + 2048,
                                    3000 + 3072};
    pgtest_exec(conn, "INSERT INTO players (player_id, name) VALUES (1, 'Ann')");
    for (int i = 0; i < 4; i++) {
        char sql[512];
        snprintf(sql, sizeof sql,
                 "INSERT INTO matches (match_id, game, engine_version, options,"
                 " seat_count, status, head_seq, head_hash, sealed_seed,"
                 " created_by) VALUES (%lld, 'toy', 1, '{}', 2, 'active', 0,"
                 " decode(repeat('00', 32), 'hex'), decode('00', 'hex'), 1)",
                 ids[i]);
        pgtest_exec(conn, sql);
    }
    /* One with deadlines, three without: both answers are kept. */
    char sql[256];
    snprintf(sql, sizeof sql,
             "INSERT INTO match_deadlines (match_id, turn_hours, reminder_hours,"
             " action, grace_hours, time_bank_hours, vacation_days_max)"
             " VALUES (%lld, 48, 12, 'skip', 0, 0, 0)",
             ids[2]);
    pgtest_exec(conn, sql);
    for (int i = 0; i < 4; i++) {
        deadline_settings settings;
        cr_assert(deadline_settings_load(conn, ids[i], &settings, &err), "%s",
                  err.message);
    }
    PQfinish(conn);
    for (int i = 0; i < 4; i++) {
        deadline_settings settings;
        cr_expect(deadline_settings_cached(ids[i], &settings),
                  "match %lld is no longer kept", ids[i]);
        cr_expect_eq(settings.enabled, i == 2);
        if (i == 2)
            cr_expect_eq(settings.turn_hours, 48);
    }
}
