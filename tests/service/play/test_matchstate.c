/* The process's cache of match states (matchstate.h): a move served from
 * it reads nothing, so which matches it keeps decides what moves cost. */
#include <criterion/criterion.h>
#include <string.h>

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

/* Ids 1,024 apart pick the same set of slots (as they picked the one
 * same slot when each id had one). */
#define SAME_SET 1024

Test(matchstate, matches_that_share_a_set_do_not_evict_each_other)
{
    for (int i = 0; i < 4; i++)
        keep(7 + i * SAME_SET, 10 + i);
    for (int i = 0; i < 4; i++)
        cr_expect(recalled(7 + i * SAME_SET, 10 + i), "match %d was evicted",
                  i);
    matchstate_forget_all();
}

Test(matchstate, a_full_set_evicts_the_match_used_longest_ago)
{
    for (int i = 0; i < 4; i++)
        keep(9 + i * SAME_SET, 1);
    /* The first kept is used again: the second is now the oldest. */
    cr_assert(recalled(9, 1));
    keep(9 + 4 * SAME_SET, 1);
    cr_expect(recalled(9, 1), "the match just used was evicted");
    cr_expect(!recalled(9 + 1 * SAME_SET, 1),
              "the match used longest ago was kept");
    cr_expect(recalled(9 + 2 * SAME_SET, 1));
    cr_expect(recalled(9 + 3 * SAME_SET, 1));
    cr_expect(recalled(9 + 4 * SAME_SET, 1));
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
        keep(11 + i * SAME_SET, 1);
    cr_expect(recalled(11, 6), "the match was kept twice and evicted");
    matchstate_forget_all();
}
