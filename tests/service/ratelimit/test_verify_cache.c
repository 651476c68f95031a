/* test_verify_cache.c: the kept reports of play/verify_cache.h: one per
 * match and head, dropped when the head differs, when they are old, and
 * the least recently used first when the table is full. No database. */
#include <criterion/criterion.h>
#include <string.h>

#include "play/verify_cache.h"

static verify_report report_of(long long events)
{
    verify_report r = {.ok = true, .events = events, .replayed = true};
    return r;
}

static void hash_of(int n, unsigned char hash[STORE_HASH_BYTES])
{
    memset(hash, n, STORE_HASH_BYTES);
}

Test(verify_cache, a_report_is_kept_for_its_match_and_head_only)
{
    verify_cache_clear();
    unsigned char h1[STORE_HASH_BYTES], h2[STORE_HASH_BYTES];
    hash_of(1, h1);
    hash_of(2, h2);
    verify_report kept = report_of(40), got;
    verify_cache_put(7, 40, h1, &kept, 100);
    cr_assert(verify_cache_get(7, 40, h1, 101, &got));
    cr_expect_eq(got.events, 40);
    cr_expect(got.ok);
    cr_expect_not(verify_cache_get(7, 41, h1, 101, &got),
                  "another head seq is another log");
    cr_expect_not(verify_cache_get(7, 40, h2, 101, &got),
                  "another head hash is another log");
    cr_expect_not(verify_cache_get(8, 40, h1, 101, &got));
}

Test(verify_cache, a_new_head_replaces_the_report_of_the_old_one)
{
    verify_cache_clear();
    unsigned char h1[STORE_HASH_BYTES], h2[STORE_HASH_BYTES];
    hash_of(1, h1);
    hash_of(2, h2);
    verify_report first = report_of(40), second = report_of(41), got;
    verify_cache_put(7, 40, h1, &first, 100);
    verify_cache_put(7, 41, h2, &second, 100);
    cr_expect_not(verify_cache_get(7, 40, h1, 100, &got));
    cr_assert(verify_cache_get(7, 41, h2, 100, &got));
    cr_expect_eq(got.events, 41);
}

Test(verify_cache, an_old_report_is_computed_again)
{
    verify_cache_clear();
    unsigned char h[STORE_HASH_BYTES];
    hash_of(3, h);
    verify_report kept = report_of(5), got;
    verify_cache_put(9, 5, h, &kept, 100);
    cr_expect(verify_cache_get(9, 5, h, 100 + VERIFY_CACHE_SECONDS - 1, &got));
    cr_expect_not(verify_cache_get(9, 5, h, 100 + VERIFY_CACHE_SECONDS, &got));
}

Test(verify_cache, a_full_cache_drops_the_least_recently_used)
{
    verify_cache_clear();
    unsigned char h[STORE_HASH_BYTES];
    hash_of(4, h);
    verify_report kept = report_of(1), got;
    for (long long m = 1; m <= VERIFY_CACHE_ENTRIES; m++)
        verify_cache_put(m, 1, h, &kept, 100);
    /* Match 1 is read again; match 2 is now the least recently used. */
    cr_assert(verify_cache_get(1, 1, h, 100, &got));
    verify_cache_put(VERIFY_CACHE_ENTRIES + 1, 1, h, &kept, 100);
    cr_expect(verify_cache_get(1, 1, h, 100, &got));
    cr_expect_not(verify_cache_get(2, 1, h, 100, &got));
    cr_expect(verify_cache_get(3, 1, h, 100, &got));
    cr_expect(verify_cache_get(VERIFY_CACHE_ENTRIES + 1, 1, h, 100, &got));
}
