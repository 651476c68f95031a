/* The rulebook's worked examples, as named tests. */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

/* Seat 0 takes the discard G9, lays 2 sets of 4 and discards its last card,
 * ending the round (the "Lizzy plays her last card" opening). */
static const char *const goes_out = "B4 R4 Y4 G4 B9 R9 Y9 G2";

static void go_out(amt_state *s)
{
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    amt_test_do(s, 0, "discard G2");
}

Test(amt_examples, lizzy_ends_the_round_and_sheila_lays_one_set_of_4)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {goes_out, "B5 R5 Y5 G5 R5 B2 Y8 G10"};
    amt_test_deal(s, hands, "G9", NULL, 0);
    go_out(s);
    rules_pending p;
    amt_engine.pending((rules_state *)s, &p);
    cr_assert_eq(p.wait, RULES_WAIT_SIMULTANEOUS);
    cr_assert_eq(p.seats, 1u << 1);
    cr_assert_str_eq(p.decision, "r1-endplay");
    /* Her fifth 5 cannot be played with the set. */
    amt_test_reject(s, 1, "pattern 2sets4 set:B5,R5,Y5,G5,R5",
                    "more cards than the pattern states");
    amt_test_do(s, 1, "pattern 2sets4 set:B5,R5,Y5,G5");
    cr_assert_eq(s->round, 1, "the next round is dealt");
    cr_assert_eq(s->players[1].round_score[0], 20, "R5 B2 Y8 G10 = 20");
    cr_assert_eq(s->players[0].round_score[0], 0);
    cr_assert(s->players[1].used & (1u << AMT_P_2SETS4),
              "she marks off 2 sets of 4");
    cr_assert_eq(s->players[1].completed, 0, "a partial pattern");
    cr_assert_eq(s->players[0].completed, 1);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_examples, chris_ends_the_round_and_yahosh_lays_his_run_of_8)
{
    amt_state *s = amt_test_new(3, NULL);
    /* Yahosh took a discard that completed his run and waits for a turn. */
    const char *hands[] = {goes_out, "B1 B2 R3 G4 Y6 G7 B10 R11",
                           "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 R3"};
    amt_test_deal(s, hands, "G9", NULL, 0);
    go_out(s);
    amt_test_do(s, 1, "pass");
    amt_test_do(s, 2, "pattern run8 run:Y1,Y2,Y3,Y4,Y5,Y6,Y7,Y8");
    cr_assert_eq(s->round, 1);
    cr_assert_eq(s->players[2].round_score[0], 5, "only R3 is left");
    cr_assert_eq(s->players[1].round_score[0], 40);
    cr_assert(s->players[2].used & (1u << AMT_P_RUN8));
    cr_assert_eq(s->players[2].completed, 1, "a complete pattern");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_examples, conlon_lays_a_run_of_4_and_scores_25)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {goes_out, "B1 B2 B3 B4 B5 B6 R8 Y10 G11"};
    amt_test_deal(s, hands, "G9", NULL, 0);
    go_out(s);
    amt_test_do(s, 1, "pattern 2runs4 run:B1,B2,B3,B4");
    cr_assert_eq(s->players[1].round_score[0], 25, "five numbered cards");
    cr_assert_eq(s->players[1].total, 25);
    cr_assert(s->players[1].used & (1u << AMT_P_2RUNS4),
              "he marks off 2 suited runs of 4");
    json_t *result = amt_engine.result((rules_state *)s);
    cr_assert_eq(json_integer_value(
                     json_array_get(json_object_get(result, "scores"), 1)),
                 25);
    json_decref(result);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_examples, player_2_swaps_yellow_8_for_player_1s_wild)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {"Y5 Y6 Y7 W1-11 Y1 Y2 Y3 Y4 B7",
                           "Y8 B3 R3 G3 Y3 B10 R10 Y10 G10"};
    amt_test_deal(s, hands, "R2", "B11", 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2runs4 run:Y1,Y2,Y3,Y4 run:Y5,Y6,Y7,W1-11");
    amt_test_do(s, 0, "discard R2");
    char *view = amt_test_view_json(s, 1);
    cr_assert_not_null(strstr(view, "\"as\":\"Y8\""),
                       "the wild stands in for a yellow 8");
    free(view);
    amt_test_do(s, 1, "draw");
    amt_test_reject(s, 1,
                    "pattern 2sets4 set:B3,R3,G3,Y3 set:B10,R10,Y10,G10 "
                    "swap:P1.2:Y8",
                    "swapped wild must be played");
    amt_test_reject(s, 1,
                    "pattern 2sets4 set:B3,R3,G3,W1-11 set:B10,R10,Y10,G10 "
                    "swap:P1.1:Y8",
                    "exact card");
    amt_test_do(s, 1,
                "pattern 2sets4 set:B3,R3,G3,W1-11 set:B10,R10,Y10,G10 "
                "swap:P1.2:Y8");
    const amt_meld *run = &s->melds[amt_meld_index(s, 0, 1)];
    char name[AMT_NAME_LEN];
    amt_card_name(run->cards[3], name);
    cr_assert_str_eq(name, "Y8", "Player 1's run now ends in the yellow 8");
    cr_assert_eq(run->by[3], 1);
    cr_assert_eq(s->players[1].hand_count, 2, "Y3 and the drawn B11 remain");
    cr_assert(amt_test_holds(s, 1, "B11"));
    amt_engine.destroy((rules_state *)s);
}

/* "You can use wild cards that have been played if you have the exact card
 * the wild was used to represent": both wilds in Player 1's set of 4s stand
 * for a 4, so Player 2's green 4 may take either; here the 1-11 wild, the
 * only one that can be the blue 8 of his run. */
Test(amt_examples, player_2_chooses_which_wild_of_a_set_his_4_replaces)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {"B4 W1-6 W1-11 R4 Y1 Y2 Y3 Y4 B7",
                           "G4 B9 B10 B11 R3 G3 Y3 B3 Y11"};
    amt_test_deal(s, hands, "R2", "B1", 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0,
                "pattern set4run4 set:B4,W1-6,W1-11,R4 run:Y1,Y2,Y3,Y4");
    amt_test_do(s, 0, "discard B7");
    amt_test_do(s, 1, "draw");
    amt_test_reject(s, 1,
                    "pattern set4run4 set:R3,G3,Y3,B3 run:W1-6,B9,B10,B11 "
                    "swap:P1.1:G4:W1-6",
                    "range");
    amt_test_do(s, 1,
                "pattern set4run4 set:R3,G3,Y3,B3 run:W1-11,B9,B10,B11 "
                "swap:P1.1:G4:W1-11");
    const amt_meld *set = &s->melds[amt_meld_index(s, 0, 0)];
    char name[AMT_NAME_LEN];
    amt_card_name(set->cards[1], name);
    cr_assert_str_eq(name, "W1-6", "the 1-6 wild stays in the set");
    amt_card_name(set->cards[2], name);
    cr_assert_str_eq(name, "G4", "the green 4 replaced the 1-11 wild");
    cr_assert_eq(set->by[2], 1);
    cr_assert_eq(s->players[1].hand_count, 2, "Y11 and the drawn B1 remain");
    amt_engine.destroy((rules_state *)s);
}

/* The Classic score sheet's Game 1 column: round scores 0, +40, 0, +5 and
 * +65 add up to a game score of 110. Seat 0 keeps that sheet over five
 * rounds (the deal passes clockwise, so seat 1 starts rounds 2 and 4). */
Test(amt_examples, score_sheet_rounds_0_40_0_5_65_make_110)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *sets = "B4 R4 Y4 G4 B9 R9 Y9 G2";
    const char *nothing = "B1 R2 Y3 G5 B6 R7 Y8 G10";

    /* Round 1: seat 0 goes out with 2 sets of 4: 0. */
    const char *r1[] = {sets, nothing};
    amt_test_deal(s, r1, "G9", NULL, 0);
    go_out(s);
    amt_test_do(s, 1, "pass");

    /* Round 2: seat 1 goes out; seat 0 is left with 8 cards: +40. */
    cr_assert_eq(s->round, 1);
    const char *r2[] = {nothing, sets};
    amt_test_deal(s, r2, "G9", NULL, 1);
    amt_test_do(s, 1, "take");
    amt_test_do(s, 1, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    amt_test_do(s, 1, "discard G2");
    amt_test_do(s, 0, "pass");

    /* Round 3: seat 0 goes out with 2 suited runs of 4: 0. */
    cr_assert_eq(s->round, 2);
    const char *r3[] = {"B1 B2 B3 B4 R5 R6 R7 G2", "Y1 Y3 G5 B6 G7 Y8 G10 B11"};
    amt_test_deal(s, r3, "R8", NULL, 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2runs4 run:B1,B2,B3,B4 run:R5,R6,R7,R8");
    amt_test_do(s, 0, "discard G2");
    amt_test_do(s, 1, "pass");

    /* Round 4: seat 0 claims its own discard (and R11, the penalty card
     * on top of the pile, before seat 1 draws Y5), lays a set of 4 and a
     * run of 4, adds a 5 and keeps one card when seat 1 goes out: +5. */
    cr_assert_eq(s->round, 3);
    const char *r4[] = {"B5 R5 Y5 G5 G1 G2 G3 R9", "Y1 Y2 Y3 Y4 Y6 Y7 Y8 B11"};
    amt_test_deal(s, r4, "B3", NULL, 1);
    amt_test_stack_draw(s, "R10 G4 R11 Y5 B5 B2");
    amt_test_do(s, 1, "draw");
    amt_test_do(s, 1, "discard R10");
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "discard R9");
    amt_test_do(s, 0, "claim");
    amt_test_do(s, 1, "draw");
    amt_test_do(s, 1, "discard B11");
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "pattern set4run4 set:B5,R5,Y5,G5 run:G1,G2,G3,G4");
    amt_test_do(s, 0, "add P1.1 B5");
    amt_test_do(s, 0, "discard R11");
    cr_assert_eq(s->players[0].hand_count, 1);
    amt_test_do(s, 1, "draw");
    amt_test_do(s, 1, "pattern 2runs4 run:Y1,Y2,Y3,Y4 run:Y5,Y6,Y7,Y8");
    amt_test_do(s, 1, "discard B2");

    /* Round 5: seat 1 goes out with 4 suited pairs; seat 0 keeps five
     * numbered cards, a 1-6 wild and two 1-11 wilds: +65. */
    cr_assert_eq(s->round, 4);
    const char *r5[] = {"B1 R3 Y6 G8 B10 W1-6 W1-11 W1-11",
                        "B2 B2 R4 R4 Y7 Y7 G9 G9"};
    amt_test_deal(s, r5, "B3", "R7", 0);
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "discard R7");
    amt_test_do(s, 1, "take");
    amt_test_do(s, 1, "pattern 4pairs pair:B2,B2 pair:R4,R4 pair:Y7,Y7 "
                      "pair:G9,G9");
    amt_test_do(s, 1, "discard R7");
    amt_test_do(s, 0, "pass");

    cr_assert_eq(s->phase, AMT_PHASE_OVER, "the game ends after round 5");
    const int sheet[5] = {0, 40, 0, 5, 65};
    for (int r = 0; r < 5; r++)
        cr_assert_eq(s->players[0].round_score[r], sheet[r], "round %d",
                     r + 1);
    json_t *result = amt_engine.result((rules_state *)s);
    cr_assert_eq(json_integer_value(
                     json_array_get(json_object_get(result, "scores"), 0)),
                 110);
    json_decref(result);
    amt_engine.destroy((rules_state *)s);
}
