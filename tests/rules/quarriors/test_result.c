/* The result once the match is over says which rule ended it (the glory
 * goal, or four empty creature cards in the Wilds), and the text view
 * says it too (issue #43: a match ended at 20-11 under a goal of 25 and
 * nobody was told why). Quarriors has no tie-break: equal glory shares a
 * place, and the result names none. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "position.h"
#include "quarriors/quarriors.h"

static void expect_reason(const rules_state *state, const char *reason)
{
    json_t *result = qq_engine.result(state);
    cr_assert(json_is_true(json_object_get(result, "over")));
    cr_expect_str_eq(json_string_value(json_object_get(result, "reason")),
                     reason);
    cr_expect_null(json_object_get(result, "tie_break"));
    json_decref(result);
    char *text = qq_test_text(state, 1);
    cr_expect_not_null(strstr(text, reason), "no \"%s\" in:\n%s", reason, text);
    free(text);
}

Test(qq_result, four_empty_wild_piles_end_the_match_under_the_goal)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *wilds = qq_test_dice(snapshot, -1, NULL);
    json_t *used = qq_test_dice(snapshot, 1, "used");
    /* three creature cards already empty, one deathdealer left */
    static const char *const gone[] = {"29 deathdealer",
                                       "30 deathdealer",
                                       "32 strong-ghostly-spirit",
                                       "33 strong-ghostly-spirit",
                                       "34 strong-ghostly-spirit",
                                       "35 strong-ghostly-spirit",
                                       "36 strong-ghostly-spirit",
                                       "37 witching-hag",
                                       "38 witching-hag",
                                       "39 witching-hag",
                                       "40 witching-hag",
                                       "41 witching-hag",
                                       "42 mighty-warrior-of-the-quay",
                                       "43 mighty-warrior-of-the-quay",
                                       "44 mighty-warrior-of-the-quay",
                                       "45 mighty-warrior-of-the-quay",
                                       "46 mighty-warrior-of-the-quay"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++) {
        qq_test_move(wilds, gone[i], used, gone[i]);
    }
    json_object_set_new(json_object_get(snapshot, "turn"), "quiddity",
                        json_integer(3));
    rules_state *state = qq_test_load(snapshot);
    harness_apply_text(&qq_engine, state, 0, "attack");
    json_t *result = qq_engine.result(state);
    cr_expect_null(json_object_get(result, "reason"), "not over yet");
    json_decref(result);
    harness_apply_text(&qq_engine, state, 0, "capture deathdealer");
    expect_reason(state, "The match ended because four Wild piles were "
                         "empty: no dice are left on 4 creature cards of "
                         "the Wilds, and nobody reached the glory goal of "
                         "25.");
    qq_engine.destroy(state);
    json_decref(snapshot);
}

Test(qq_result, the_glory_goal_ends_the_match)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *glory = json_object_get(
        json_array_get(json_object_get(snapshot, "players"), 0), "glory");
    json_object_set_new(glory, "scoring", json_integer(24));
    rules_state *state = qq_test_load(snapshot);
    /* the challenger scores 1 glory for the creature it destroys */
    harness_apply_text(&qq_engine, state, 0, "challenge exqualibur 28");
    expect_reason(state, "The match ended because seat 0 reached the glory "
                         "goal of 25.");
    qq_engine.destroy(state);
    json_decref(snapshot);
}
