/* Issue #24: "Can I have it?" is settled before the next player draws.
 * Three players; the draw pile's top card is R1 and R2 lies under it.
 * Seat 0 discards B8, seat 2 claims it and seat 1, the next player,
 * declines by drawing: seat 2 takes B8 and the penalty card R1, then
 * seat 1 draws R2 (the rulebook: the claim comes "after one player
 * discards, and before the next player draws a card"). */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

static const char *const three_hands[] = {
    "B8 B1 B2 B3 R5 R6 R7 G9", "Y1 Y2 Y3 Y4 B9 B10 R10 R11",
    "G1 G2 G3 G4 Y8 Y9 B11 Y11"};

/* Seat 0 takes the turned-up G10 and discards B8; the draw pile holds
 * R1 on top of R2 (and, with keep > 0, only keep cards). */
static amt_state *b8_discarded(int keep)
{
    amt_state *s = amt_test_new(3, NULL);
    amt_test_deal(s, three_hands, "G10", NULL, 0);
    amt_test_stack_draw(s, "R1 R2");
    if (keep > 0)
        amt_test_trim_draw(s, keep);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "discard B8");
    amt_test_do(s, 2, "claim");
    return s;
}

static int card_count(const amt_state *s, int seat, const char *name)
{
    int n = 0;
    for (int i = 0; i < s->players[seat].hand_count; i++) {
        char have[AMT_NAME_LEN];
        amt_card_name(s->players[seat].hand[i], have);
        n += strcmp(have, name) == 0;
    }
    return n;
}

Test(amt_claim_order, the_claimer_takes_the_discard_and_r1_then_seat_1_draws_r2)
{
    amt_state *s = b8_discarded(0);
    int pile = s->draw_count;
    amt_test_do(s, 1, "draw");
    cr_assert(amt_test_holds(s, 2, "B8"), "seat 2 gets the discard");
    cr_assert_eq(card_count(s, 2, "R1"), 1, "and R1 as its penalty card");
    cr_assert_eq(card_count(s, 2, "R2"), 0);
    cr_assert_eq(s->players[2].hand_count, 10);
    cr_assert_eq(card_count(s, 1, "R2"), 1, "seat 1 draws the card under");
    cr_assert_eq(card_count(s, 1, "R1"), 0);
    cr_assert_eq(s->players[1].hand_count, 9);
    cr_assert_eq(s->draw_count, pile - 2);
    cr_assert_eq(s->phase, AMT_PHASE_PLAY);
    cr_assert_eq(s->turn, 1, "then seat 1 plays its turn");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claim_order, without_a_claim_seat_1_draws_r1)
{
    amt_state *s = amt_test_new(3, NULL);
    amt_test_deal(s, three_hands, "G10", NULL, 0);
    amt_test_stack_draw(s, "R1 R2");
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "discard B8");
    amt_test_do(s, 2, "pass");
    amt_test_do(s, 1, "draw");
    cr_assert_eq(card_count(s, 1, "R1"), 1);
    cr_assert_eq(s->players[2].hand_count, 8);
    amt_engine.destroy((rules_state *)s);
}

/* Two cards left: the claimer's penalty card is R1 and seat 1 draws the
 * last card, R2; seat 1's discard then leaves the draw pile empty and
 * ends the round (README, Rulings: draw pile). */
Test(amt_claim_order, two_cards_left_the_next_player_draws_the_last_one)
{
    amt_state *s = b8_discarded(2);
    amt_test_do(s, 1, "draw");
    cr_assert(amt_test_holds(s, 2, "B8"));
    cr_assert_eq(card_count(s, 2, "R1"), 1);
    cr_assert_eq(card_count(s, 1, "R2"), 1, "seat 1 gets the last card");
    cr_assert_eq(s->draw_count, 0);
    cr_assert_eq(s->phase, AMT_PHASE_PLAY);
    amt_test_do(s, 1, "discard R2");
    cr_assert_eq(s->phase, AMT_PHASE_ENDPLAY, "the pile is empty: round over");
    cr_assert(!s->window, "no claim window on that discard");
    amt_engine.destroy((rules_state *)s);
}

/* One card left: the claimer takes B8 and the last card, R1, as its
 * penalty; seat 1 finds the draw pile empty, and the round ends before
 * seat 1's turn (README, Rulings: draw pile). */
Test(amt_claim_order, one_card_left_the_claimer_gets_it_and_the_round_ends)
{
    amt_state *s = b8_discarded(1);
    cr_assert_eq(s->draw_count, 1);
    amt_test_do(s, 1, "draw");
    cr_assert(amt_test_holds(s, 2, "B8"));
    cr_assert_eq(card_count(s, 2, "R1"), 1, "the last card is the penalty");
    cr_assert_eq(s->players[2].hand_count, 10);
    cr_assert_eq(s->players[1].hand_count, 8, "seat 1 draws nothing");
    cr_assert_eq(s->draw_count, 0);
    cr_assert_eq(s->phase, AMT_PHASE_ENDPLAY, "the round ends at once");
    rules_pending p;
    amt_engine.pending((rules_state *)s, &p);
    cr_assert_eq(p.wait, RULES_WAIT_SIMULTANEOUS);
    cr_assert_eq(p.seats, 7u, "nobody laid a pattern: all three may play");
    amt_engine.destroy((rules_state *)s);
}

/* The next player's "I want it" still voids the claims at one card. */
Test(amt_claim_order, one_card_left_the_next_player_may_still_take_it)
{
    amt_state *s = b8_discarded(1);
    amt_test_do(s, 1, "take");
    cr_assert(amt_test_holds(s, 1, "B8"));
    cr_assert_eq(s->players[2].hand_count, 8);
    cr_assert_eq(s->draw_count, 1, "R1 stays in the pile");
    cr_assert_eq(s->phase, AMT_PHASE_PLAY);
    amt_engine.destroy((rules_state *)s);
}
