/* Rules beyond the worked examples: the claim window, patterns, adding to
 * melds, the Progressive game, scoring and options. */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

static const char *const four_hands[] = {
    "B1 B2 B3 R5 R6 R7 G9 G10", "Y1 Y2 Y3 Y4 B8 B9 R10 R11",
    "G1 G2 G3 G4 Y8 Y9 B10 B11", "R1 R2 R3 R4 G6 G7 Y10 Y11"};

/* Seat 0 draws G5 and discards G10: the window opens, seat 1 is next. */
static amt_state *window_open(void)
{
    amt_state *s = amt_test_new(4, NULL);
    amt_test_deal(s, four_hands, "B4", "G5", 0);
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "discard G10");
    return s;
}

Test(amt_claims, every_seat_may_claim_until_the_next_player_draws)
{
    amt_state *s = window_open();
    rules_pending p;
    amt_engine.pending((rules_state *)s, &p);
    cr_assert_eq(p.wait, RULES_WAIT_ANY_ORDER);
    cr_assert_eq(p.seats, 0xFu, "the next player and every other seat");
    amt_test_reject(s, 1, "claim", "next player");
    amt_test_do(s, 2, "pass");
    amt_test_reject(s, 2, "claim", "not your turn");
    amt_test_do(s, 3, "pass");
    amt_test_do(s, 0, "pass");
    amt_engine.pending((rules_state *)s, &p);
    cr_assert_eq(p.wait, RULES_WAIT_ONE);
    cr_assert_eq(p.seats, 1u << 1);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claims, next_player_says_i_want_it_without_a_penalty_card)
{
    amt_state *s = window_open();
    amt_test_do(s, 2, "claim");
    amt_test_do(s, 1, "take");
    cr_assert(amt_test_holds(s, 1, "G10"));
    cr_assert_eq(s->players[1].hand_count, 9);
    cr_assert_eq(s->players[2].hand_count, 8, "the claim is void");
    cr_assert_eq(s->phase, AMT_PHASE_PLAY);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claims, first_claimer_clockwise_takes_it_and_a_penalty_card)
{
    amt_state *s = window_open();
    amt_test_do(s, 3, "claim");
    amt_test_do(s, 2, "claim");
    int draw_before = s->draw_count;
    amt_test_do(s, 1, "draw");
    cr_assert(amt_test_holds(s, 2, "G10"), "seat 2 comes before seat 3");
    cr_assert_eq(s->players[2].hand_count, 10, "the card and a penalty card");
    cr_assert_eq(s->players[3].hand_count, 8);
    cr_assert_eq(s->players[1].hand_count, 9);
    cr_assert_eq(s->draw_count, draw_before - 2);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claims, a_player_may_claim_their_own_discard)
{
    amt_state *s = window_open();
    amt_test_do(s, 0, "claim");
    amt_test_do(s, 1, "draw");
    cr_assert(amt_test_holds(s, 0, "G10"));
    cr_assert_eq(s->players[0].hand_count, 10);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claims, the_discard_that_empties_the_draw_pile_ends_the_round)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {"B1 B2 B3 R5 R6 R7 G9 G10",
                           "Y1 Y2 Y3 Y4 B8 B9 R10 R11"};
    amt_test_deal(s, hands, "B4", "G5", 0);
    /* move all but the top card of the draw pile under the discard */
    int keep = s->draw[s->draw_count - 1];
    int16_t top = s->discard[0];
    for (int i = 0; i < s->draw_count - 1; i++)
        s->discard[i] = s->draw[i];
    s->discard_count = s->draw_count;
    s->discard[s->discard_count - 1] = top;
    s->draw[0] = (int16_t)keep;
    s->draw_count = 1;
    rules_error err = {{0}};
    cr_assert(amt_engine.check((rules_state *)s, &err), "%s", err.message);
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "discard G5");
    cr_assert_eq(s->phase, AMT_PHASE_ENDPLAY, "RULING: the round ends");
    cr_assert(!s->window, "no claim window");
    amt_engine.destroy((rules_state *)s);
}

/* Seat 0 may lay 2 sets of 4 after taking G9. */
static amt_state *ready_for_sets(void)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {"B4 R4 Y4 G4 B9 R9 Y9 G2 R2",
                           "Y1 Y2 Y3 Y4 B8 B9 R10 R11"};
    amt_test_deal(s, hands, "G9", NULL, 0);
    amt_test_do(s, 0, "take");
    return s;
}

Test(amt_patterns, a_pattern_is_played_only_when_complete)
{
    amt_state *s = ready_for_sets();
    amt_test_reject(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4", "complete");
    amt_test_reject(s, 0, "pattern set4run4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9",
                    "exactly");
    amt_test_reject(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,R2",
                    "same number");
    amt_test_do(s, 0, "pattern set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    cr_assert(s->players[0].used & (1u << AMT_P_2SETS4), "mark inferred");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_patterns, each_pattern_once_per_game)
{
    amt_state *s = ready_for_sets();
    s->players[0].used |= 1u << AMT_P_2SETS4;
    amt_test_reject(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9",
                    "once per game");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_patterns, only_one_pattern_per_round_then_adds)
{
    amt_state *s = ready_for_sets();
    amt_test_reject(s, 0, "add P1.1 R2", "only after laying");
    amt_test_do(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    amt_test_reject(s, 0, "pattern 2runs4 run:R2,R3,R4,R5 run:B1,B2,B3,B4",
                    "only one collection pattern");
    amt_test_reject(s, 0, "add P1.1 R2", "set's number");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_patterns, cards_join_runs_at_either_end_and_wilds_name_the_end)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {"Y1 Y2 Y3 Y4 B5 B6 B7 B8 Y5 W1-6 W1-6 B9 R2",
                           "Y6 Y7 Y8 Y9 B10 B11 R10 R11"};
    amt_test_deal(s, hands, "R3", NULL, 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2runs4 run:Y1,Y2,Y3,Y4 run:B5,B6,B7,B8");
    amt_test_do(s, 0, "add P1.1 Y5");
    amt_test_reject(s, 0, "add P1.2 W1-6", "low or high");
    amt_test_reject(s, 0, "add P1.2 W1-6 high", "beginning or end");
    amt_test_do(s, 0, "add P1.2 W1-6 low");
    amt_test_reject(s, 0, "add P1.1 B9", "suited run");
    amt_test_do(s, 0, "add P1.2 B9");
    const amt_meld *run = &s->melds[1];
    cr_assert_eq(run->number, 4, "the wild stands for B4");
    cr_assert_eq(run->count, 6);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_scoring, card_points_are_5_10_and_15)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *hands[] = {"B1 R11 W1-6 W6-11 W1-11", "Y5s"};
    amt_test_deal(s, hands, "R3", NULL, 0);
    cr_assert_eq(amt_round_points(s, 0), 5 + 5 + 10 + 10 + 15);
    cr_assert_eq(amt_round_points(s, 1), 5, "no smiley bonus in Classic");
    amt_engine.destroy((rules_state *)s);
}

static amt_state *finished(int completed0, int completed1)
{
    amt_state *s = amt_test_new(2, NULL);
    s->phase = AMT_PHASE_OVER;
    s->round = 4;
    s->window = false;
    for (int p = 0; p < 2; p++) {
        s->players[p].round_score[0] = 30;
        s->players[p].total = 30;
        s->players[p].used = 3;
    }
    s->players[0].completed = completed0;
    s->players[1].completed = completed1;
    rules_error err = {{0}};
    cr_assert(amt_engine.check((rules_state *)s, &err), "%s", err.message);
    return s;
}

Test(amt_scoring, tie_goes_to_most_completed_patterns_then_is_shared)
{
    amt_state *s = finished(1, 2);
    json_t *r = amt_engine.result((rules_state *)s);
    char *text = rules_sorted_json(json_object_get(r, "ranking"));
    cr_assert_str_eq(text, "[[1],[0]]");
    cr_assert_str_eq(json_string_value(json_object_get(r, "reason")),
                     "All 5 rounds were played; the lowest total wins.");
    cr_assert_str_eq(json_string_value(json_object_get(r, "tie_break")),
                     "Tied at 30: seat 0 completed 1, seat 1 completed 2 "
                     "collection patterns; more completed places higher.");
    free(text);
    json_decref(r);
    amt_engine.destroy((rules_state *)s);
    s = finished(2, 2);
    r = amt_engine.result((rules_state *)s);
    text = rules_sorted_json(json_object_get(r, "ranking"));
    cr_assert_str_eq(text, "[[0,1]]", "shared victory");
    cr_assert_null(json_object_get(r, "tie_break"),
                   "no tie-break separated them");
    free(text);
    json_decref(r);
    amt_engine.destroy((rules_state *)s);
}

/* Progressive round 1: seat 0 lays 3 pairs of smiley-holding pairs. */
static amt_state *progressive_out(const char *options, const char *other)
{
    amt_state *s = amt_test_new(2, options);
    const char *hands[] = {"Y5s Y5 R6s R6 G7s G7", other};
    amt_test_deal(s, hands, "B1", NULL, 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 3pairs pair:Y5s,Y5 pair:R6s,R6 pair:G7s,G7");
    amt_test_do(s, 0, "discard B1");
    return s;
}

Test(amt_progressive, smiley_cards_score_minus_10_played_plus_10_in_hand)
{
    amt_state *s = progressive_out("{\"game\":\"progressive\"}",
                                   "B5s B6 B2 R9 Y10 G11");
    amt_test_do(s, 1, "pass");
    cr_assert_eq(s->players[0].round_score[0], -30);
    cr_assert_eq(s->players[1].round_score[0], 6 * 5 + 10);
    cr_assert_eq(s->round, 1);
    cr_assert_eq(s->players[0].hand_count, 6, "6 cards in rounds 1-3");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_progressive, hands_grow_to_8_and_10_cards_with_new_patterns)
{
    amt_state *s = amt_test_new(3, "{\"game\":\"progressive\"}");
    int ids[AMT_PATTERNS];
    cr_assert_eq(amt_round_patterns(true, 0, ids), 3);
    cr_assert_eq(ids[0], AMT_P_3PAIRS);
    cr_assert_eq(amt_hand_size(true, 3), 8);
    amt_round_patterns(true, 4, ids);
    cr_assert_eq(ids[1], AMT_P_RUN8);
    cr_assert_eq(amt_hand_size(true, 8), 10);
    amt_round_patterns(true, 8, ids);
    cr_assert_eq(ids[1], AMT_P_2RUNS5);
    cr_assert_eq(amt_rounds(true), 9);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_progressive, no_partial_patterns_at_the_round_end)
{
    amt_state *s = progressive_out("{\"game\":\"progressive\"}",
                                   "B2 B2 R9 Y10 G11 B6");
    amt_test_reject(s, 1, "pattern 3pairs pair:B2,B2", "complete");
    amt_test_do(s, 1, "pass");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_progressive, classic_end_of_round_option_allows_partial_patterns)
{
    amt_state *s = progressive_out(
        "{\"game\":\"progressive\",\"classic_end_of_round\":true}",
        "B2 B2 R9 Y10 G11 B6");
    amt_test_do(s, 1, "pattern 3pairs pair:B2,B2");
    cr_assert_eq(s->players[1].round_score[0], 20);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_secrecy, sealed_end_plays_are_hidden_until_resolved)
{
    amt_state *s = amt_test_new(3, NULL);
    const char *hands[] = {"B4 R4 Y4 G4 B9 R9 Y9 G2",
                           "B1 B2 R3 G4 Y6 G7 B10 R11",
                           "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 R3"};
    amt_test_deal(s, hands, "G9", NULL, 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    amt_test_do(s, 0, "discard G2");
    amt_test_do(s, 2, "pattern run8 run:Y1,Y2,Y3,Y4,Y5,Y6,Y7,Y8");
    for (int seat = -1; seat < 2; seat++) {
        char *view = amt_test_view_json(s, seat);
        cr_assert_null(strstr(view, "my_end_play"), "seat %d sees it", seat);
        cr_assert_null(strstr(view, "run8"), "seat %d sees the mark", seat);
        free(view);
    }
    char *mine = amt_test_view_json(s, 2);
    cr_assert_not_null(strstr(mine, "my_end_play"));
    free(mine);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_setup, options_and_seat_counts_are_checked)
{
    uint8_t seed[RULES_SEED_BYTES] = {0};
    const char *bad[] = {"{\"classic_end_of_round\":true}",
                         "{\"game\":\"chess\"}", "{\"colours\":5}",
                         "{\"claim_window_hours\":-1}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *o = json_loads(bad[i], 0, NULL);
        rules_error err = {{0}};
        cr_assert_null(amt_engine.setup(o, 3, seed, &err), "%s", bad[i]);
        cr_assert(err.message[0] != '\0');
        json_decref(o);
    }
    rules_error err = {{0}};
    cr_assert_null(amt_engine.setup(NULL, 1, seed, &err));
    cr_assert_null(amt_engine.setup(NULL, 7, seed, &err));
    rules_state *s = amt_engine.setup(NULL, 6, seed, &err);
    cr_assert_not_null(s);
    cr_assert_eq(((amt_state *)s)->players[5].hand_count, 8);
    amt_engine.destroy(s);
}
