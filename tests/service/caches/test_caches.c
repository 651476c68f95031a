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
    /* The settings' cache has 256 sets (deadline_settings.c). */
    long long ids[4] = {3001};
    for (long long id = 3003, n = 1; n < 4; id += 2)
        if (ways_set((unsigned long long)id, 256) == ways_set(3001, 256))
            ids[n++] = id;
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

/* Match ids are always odd: picked by id % sets, the even sets of every
 * cache of matches stood empty, and 512 matches thrashed 1,024 slots. */
Test(caches, odd_ids_are_spread_over_every_set)
{
    enum { SETS = 256, IDS = 4096 };
    int used[SETS] = {0};
    unsigned long long id = 0x2545F4914F6CDD1DULL;
    for (int i = 0; i < IDS; i++) {
        id = id * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned set = ways_set((id >> 1) | 1, SETS);
        cr_assert_lt(set, SETS);
        used[set]++;
    }
    int empty = 0, fullest = 0;
    for (int s = 0; s < SETS; s++) {
        empty += used[s] == 0;
        if (used[s] > fullest)
            fullest = used[s];
    }
    /* 16 a set on average: none empty, none near twice as full. */
    cr_expect_eq(empty, 0, "%d of %d sets got none of %d odd ids", empty, SETS,
                 IDS);
    cr_expect_lt(fullest, 32, "a set got %d of %d ids", fullest, IDS);
    /* Consecutive ids too (a cache of players, of keys). */
    int spread[SETS] = {0}, hit = 0;
    for (unsigned long long k = 1; k <= 2 * SETS; k += 2)
        hit += spread[ways_set(k, SETS)]++ == 0;
    cr_expect_gt(hit, SETS / 2, "%d sets for %d consecutive odd ids", hit,
                 SETS);
}
