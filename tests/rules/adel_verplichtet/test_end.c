/* The end: the turn after a pawn reaches the dinner table, the final
 * exhibition (+8 / +4), the winner and the tie-break. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "av_fixture.h"

static void quiet_turn(av_state *s)
{
    for (int i = 0; i < s->seats; i++)
        harness_apply_text(&av_engine, (rules_state *)s, i, "go castle");
    for (int i = 0; i < s->seats; i++)
        harness_apply_text(&av_engine, (rules_state *)s, i, "play detective");
}

Test(av_end, the_turn_finishes_then_the_final_exhibition)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 A3", true);
    fixture_give(s, 1, "B1 B2 B3 B4", true);
    fixture_give(s, 2, "F1 F2", true);
    s->lord[0].pawn = 36; /* leader in C16: 1/1 */
    s->lord[1].pawn = 30;
    s->lord[2].pawn = 20;
    const char *const where[] = {"go castle", "go castle", "go castle"};
    fixture_all(s, where);
    const char *const plays[] = {"play exhibit", "play thief",
                                 "play detective"};
    fixture_all(s, plays);
    harness_apply_text(&av_engine, (rules_state *)s, 0, "exhibit A1 A2 A3");
    cr_expect_eq(s->lord[0].pawn, 37, "Lord 0 reaches the dinner table");
    /* the turn goes on: the thief steals and is caught, the detective
     * (third in standing) advances 3 */
    cr_expect_eq(s->phase, AV_PHASE_STEAL);
    harness_apply_text(&av_engine, (rules_state *)s, 1, "steal A1");
    cr_expect_eq(s->lord[2].pawn, 23);
    cr_expect_eq(s->phase, AV_PHASE_FINAL);
    cr_expect_str_eq(fixture_decision(s), "final-exhibit");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit A2 A3",
                        "at least three");
    harness_apply_text(&av_engine, (rules_state *)s, 0, "exhibit nothing");
    harness_apply_text(&av_engine, (rules_state *)s, 1,
                       "exhibit A1 B1 B2 B3 B4");
    harness_reject_text(&av_engine, (rules_state *)s, 2, "exhibit A1",
                        "own hand");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "exhibit nothing");
    cr_expect_eq(s->phase, AV_PHASE_OVER);
    cr_expect_eq(s->lord[1].pawn, 38, "best final collection: +8");
    cr_expect_eq(s->lord[0].pawn, 37, "no set, no advance");
    json_t *result = av_engine.result((rules_state *)s);
    cr_expect(json_is_true(json_object_get(result, "over")));
    json_t *ranking = json_object_get(result, "ranking");
    cr_expect_eq(json_integer_value(json_array_get(json_array_get(ranking, 0),
                                                   0)), 1);
    json_decref(result);
    rules_pending p;
    av_engine.pending((rules_state *)s, &p);
    cr_expect_eq(p.wait, RULES_WAIT_NOBODY);
    av_engine.destroy((rules_state *)s);
}

Test(av_end, a_lord_with_a_set_must_show_one_in_the_final)
{
    av_state *s = fixture_new(2, NULL);
    fixture_give(s, 0, "C1 C2 C3", true);
    s->lord[0].pawn = 37;
    quiet_turn(s);
    cr_expect_eq(s->phase, AV_PHASE_FINAL);
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit nothing",
                        "at least three");
    av_engine.destroy((rules_state *)s);
}

Test(av_end, second_best_final_collection_advances_4_and_ties_break_on_it)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 A3", true);
    fixture_give(s, 1, "E1 E2 E3 E4", true);
    fixture_give(s, 2, "F1", true);
    s->lord[0].pawn = 37;
    s->lord[1].pawn = 33;
    s->lord[2].pawn = 41;
    quiet_turn(s);
    const char *const finals[] = {"exhibit A1 A2 A3", "exhibit E1 E2 E3 E4",
                                  "exhibit nothing"};
    fixture_all(s, finals);
    cr_expect_eq(s->lord[1].pawn, 41, "four cards beat three: +8");
    cr_expect_eq(s->lord[0].pawn, 41, "second best: +4");
    json_t *result = av_engine.result((rules_state *)s);
    char *text = rules_sorted_json(json_object_get(result, "ranking"));
    /* all three on 41: the four-card collection first, then the three-card
     * one, then the Lord with no set */
    cr_expect_str_eq(text, "[[1],[0],[2]]");
    cr_expect_str_eq(json_string_value(json_object_get(result, "reason")),
                     "A pawn reached the dinner table, and the final "
                     "exhibition was held: the furthest pawn wins.");
    cr_expect_str_eq(json_string_value(json_object_get(result, "tie_break")),
                     "Tied at 41: the most valuable final collection wins "
                     "(more cards, then the oldest card): seat 0 showed 3 "
                     "cards (oldest 1620), seat 1 showed 4 cards (oldest "
                     "1668), seat 2 showed none.");
    free(text);
    json_decref(result);
    av_engine.destroy((rules_state *)s);
}

Test(av_end, equal_pawns_and_no_sets_share_the_place)
{
    av_state *s = fixture_new(2, NULL);
    fixture_give(s, 0, "A1", true);
    fixture_give(s, 1, "C1", true);
    s->lord[0].pawn = 40;
    s->lord[1].pawn = 40;
    quiet_turn(s);
    const char *const finals[] = {"exhibit nothing", "exhibit nothing"};
    fixture_all(s, finals);
    json_t *result = av_engine.result((rules_state *)s);
    char *text = rules_sorted_json(json_object_get(result, "ranking"));
    cr_expect_str_eq(text, "[[0,1]]");
    cr_expect_null(json_object_get(result, "tie_break"),
                   "nothing told them apart");
    free(text);
    json_decref(result);
    av_engine.destroy((rules_state *)s);
}

/* "All Lords display their largest and most valuable exhibition": a Lord
 * may not hold back his best set in the final exhibition. */
Test(av_end, the_final_exhibition_shows_the_largest_most_valuable_set)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A2 A3 A4 D1 D2 D3 D4", true);
    fixture_give(s, 1, "B1 B2 B3 B4", true);
    fixture_give(s, 2, "A1 A5 A6 C1 C2 C3", true);
    s->lord[0].pawn = 37;
    quiet_turn(s);
    cr_assert_eq(s->phase, AV_PHASE_FINAL);
    /* four cards beat three */
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit A2 A3 A4",
                        "largest");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit D1 D2 D3",
                        "largest");
    /* of two sets of three, the one with the oldest object (A1, 1620) */
    harness_reject_text(&av_engine, (rules_state *)s, 2, "exhibit C1 C2 C3",
                        "largest");
    json_t *legal = av_engine.legal((rules_state *)s, 0);
    char *text = rules_sorted_json(json_object_get(legal, "moves"));
    cr_expect_str_eq(text, "[{\"cards\":[\"D1\",\"D2\",\"D3\",\"D4\"],"
                           "\"type\":\"exhibit\"}]");
    free(text);
    json_decref(legal);
    harness_apply_text(&av_engine, (rules_state *)s, 0,
                       "exhibit D1 D2 D3 D4");
    harness_apply_text(&av_engine, (rules_state *)s, 1,
                       "exhibit B1 B2 B3 B4");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "exhibit A1 A5 A6");
    cr_expect_eq(s->phase, AV_PHASE_OVER);
    av_engine.destroy((rules_state *)s);
}
