/* The claim window as the service's clock sees it (claim_window.c,
 * rules.h window): which seats wait in it, for how long, and when it is
 * another window. */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

static const char *const four_hands[] = {
    "B1 B2 B3 R5 R6 R7 G9 G10", "Y1 Y2 Y3 Y4 B8 B9 R10 R11",
    "G1 G2 G3 G4 Y8 Y9 B10 B11", "R1 R2 R3 R4 G6 G7 Y10 Y11"};

/* Seat 0 draws G5 and discards G10: the window opens, seat 1 is next. */
static amt_state *window_open(const char *options)
{
    amt_state *s = amt_test_new(4, options);
    amt_test_deal(s, four_hands, "B4", "G5", 0);
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "discard G10");
    return s;
}

static bool window_of(const amt_state *s, rules_window *w)
{
    return amt_engine.window((const rules_state *)s, w);
}

Test(amt_claim_window, no_window_on_the_card_turned_up_at_the_deal)
{
    amt_state *s = amt_test_new(4, NULL);
    rules_window w;
    cr_assert_not(window_of(s, &w));
    cr_assert_eq(w.seats, 0u);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claim_window, every_seat_but_the_next_player_waits_in_it)
{
    amt_state *s = window_open(NULL);
    rules_window w;
    cr_assert(window_of(s, &w));
    cr_assert_eq(w.seats, 0xFu & ~(1u << 1), "all but seat 1, the next");
    cr_assert_eq(w.seconds, 12 * 3600LL, "claim_window_hours defaults to 12");
    cr_assert_str_eq(w.id, "r1-next1");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claim_window, a_seat_that_answered_no_longer_waits)
{
    amt_state *s = window_open(NULL);
    amt_test_do(s, 2, "pass");
    amt_test_do(s, 3, "claim");
    rules_window w;
    cr_assert(window_of(s, &w));
    cr_assert_eq(w.seats, 1u << 0, "only the discarder has not answered");
    amt_test_do(s, 0, "pass");
    cr_assert_not(window_of(s, &w), "everyone answered: only the turn waits");
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claim_window,
     the_next_players_draw_closes_it_and_the_next_discard_opens_another)
{
    amt_state *s = window_open(NULL);
    amt_test_do(s, 1, "draw");
    rules_window w;
    cr_assert_not(window_of(s, &w));
    amt_test_do(s, 1, "discard R11");
    cr_assert(window_of(s, &w));
    cr_assert_str_eq(w.id, "r1-next2", "another window, another id");
    cr_assert_eq(w.seats, 0xFu & ~(1u << 2));
    amt_engine.destroy((rules_state *)s);
}

Test(amt_claim_window, claim_window_hours_sets_its_length_even_zero)
{
    amt_state *s = window_open("{\"claim_window_hours\":0}");
    rules_window w;
    cr_assert(window_of(s, &w), "a window of 0 hours still opens");
    cr_assert_eq(w.seconds, 0);
    amt_engine.destroy((rules_state *)s);
    s = window_open("{\"claim_window_hours\":168}");
    cr_assert(window_of(s, &w));
    cr_assert_eq(w.seconds, 168 * 3600LL);
    amt_engine.destroy((rules_state *)s);
}
