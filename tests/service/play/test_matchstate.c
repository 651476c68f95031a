/* The process's cache of match states (matchstate.h): a move served from
 * it reads nothing, so which matches it keeps decides what moves cost. */
#include <criterion/criterion.h>
#include <string.h>

#include "core/ways.h"
#include "play/matchstate.h"
#include "rules.h"

static const rules_engine *engine(void)
{
    const rules_engine *e = rules_find("antiquity_quest");
    cr_assert_not_null(e);
    return e;
}

/* Keeps a new match with id at head seq. */
static void keep(long long id, long long seq)
{
    uint8_t seed[RULES_SEED_BYTES] = {(uint8_t)id};
    rules_error err = {{0}};
    rules_state *state = engine()->setup(NULL, 2, seed, &err);
    cr_assert_not_null(state, "%s", err.message);
    store_match match;
    memset(&match, 0, sizeof match);
    match.match_id = id;
    match.head_seq = seq;
    match.options = json_object();
    snprintf(match.game, sizeof match.game, "antiquity_quest");
    snprintf(match.status, sizeof match.status, "active");
    matchstate_keep(engine(), &match, NULL, state);
    json_decref(match.options);
}

static bool recalled(long long id, long long seq)
{
    store_match match;
    const rules_engine *e;
    rules_state *state;
    if (!matchstate_recall(id, seq, &match, NULL, &e, &state))
        return false;
    e->destroy(state);
    store_match_free(&match);
    return true;
}

/* The i-th id from base on (base itself the 0th) that picks base's set
 * of slots: the cache has 256 sets (matchstate.c), picked by ways_set. */
static long long same_set(long long base, int i)
{
    long long id = base;
    for (int found = 0; found < i;)
        if (ways_set((unsigned long long)++id, 256) ==
            ways_set((unsigned long long)base, 256))
            found++;
    return id;
}

Test(matchstate, matches_that_share_a_set_do_not_evict_each_other)
{
    for (int i = 0; i < 4; i++)
        keep(same_set(7, i), 10 + i);
    for (int i = 0; i < 4; i++)
        cr_expect(recalled(same_set(7, i), 10 + i), "match %d was evicted", i);
    matchstate_forget_all();
}

Test(matchstate, a_full_set_evicts_the_match_used_longest_ago)
{
    for (int i = 0; i < 4; i++)
        keep(same_set(9, i), 1);
    /* The first kept is used again: the second is now the oldest. */
    cr_assert(recalled(9, 1));
    keep(same_set(9, 4), 1);
    cr_expect(recalled(9, 1), "the match just used was evicted");
    cr_expect(!recalled(same_set(9, 1), 1),
              "the match used longest ago was kept");
    cr_expect(recalled(same_set(9, 2), 1));
    cr_expect(recalled(same_set(9, 3), 1));
    cr_expect(recalled(same_set(9, 4), 1));
    matchstate_forget_all();
}

Test(matchstate, a_match_is_kept_once_at_its_latest_head)
{
    keep(11, 5);
    keep(11, 6);
    cr_expect(!recalled(11, 5), "an older head was recalled");
    cr_expect(recalled(11, 6));
    /* Its one slot: three more matches of the set still fit beside it. */
    for (int i = 1; i < 4; i++)
        keep(same_set(11, i), 1);
    cr_expect(recalled(11, 6), "the match was kept twice and evicted");
    matchstate_forget_all();
}
