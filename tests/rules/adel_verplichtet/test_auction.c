/* The auction house: highest check buys, lone thief takes the check,
 * several thieves cancel, piles that run out. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "av_fixture.h"

static int face_up(const av_state *s, int pile)
{
    return s->pile[pile][s->pile_count[pile] - 1];
}

static void go_all(av_state *s, const char *const where[])
{
    fixture_all(s, where);
}

Test(av_auction, highest_check_buys_the_card_of_its_choice)
{
    av_state *s = fixture_new(3, NULL);
    const char *const where[] = {"go auction", "go auction", "go castle"};
    go_all(s, where);
    int offer0 = face_up(s, 0), offer1 = face_up(s, 1);
    int pile1 = s->pile_count[1];
    const char *const plays[] = {"play check 11000", "play check 13900",
                                 "play detective"};
    fixture_all(s, plays);
    rules_pending p;
    av_engine.pending((rules_state *)s, &p);
    cr_expect_eq(p.wait, RULES_WAIT_ONE);
    cr_expect_eq(p.seats, 1u << 1, "the check of 13900 wins");
    char take[16], name[4];
    av_card_name(offer1, name);
    snprintf(take, sizeof take, "take %s", name);
    harness_apply_text(&av_engine, (rules_state *)s, 1, take);
    cr_expect(s->lord[1].hand >> offer1 & 1);
    cr_expect_eq(s->pile_count[1], pile1 - 1, "the next card turns up");
    cr_expect_eq(face_up(s, 0), offer0);
    cr_expect(av_holds_check(s, 0, 11000), "the beaten check goes back");
    cr_expect_not(av_holds_check(s, 1, 13900));
    cr_expect_eq(s->check_holder[av_check_by_value(13900, 3)], AV_CHECK_GONE,
                 "a check left in the register leaves the game");
    av_engine.destroy((rules_state *)s);
}

Test(av_auction, lone_thief_takes_the_winning_check)
{
    av_state *s = fixture_new(3, NULL);
    const char *const where[] = {"go auction", "go auction", "go castle"};
    go_all(s, where);
    const char *const plays[] = {"play check 17000", "play thief",
                                 "play detective"};
    fixture_all(s, plays);
    cr_expect(av_holds_check(s, 1, 17000));
    cr_expect_eq(s->auction_winner, 0);
    av_engine.destroy((rules_state *)s);
}

Test(av_auction, several_thieves_cancel_each_other)
{
    av_state *s = fixture_new(4, NULL);
    const char *const where[] = {"go auction", "go auction", "go auction",
                                 "go castle"};
    go_all(s, where);
    const char *const plays[] = {"play check 8000", "play thief",
                                 "play thief", "play detective"};
    fixture_all(s, plays);
    cr_expect_eq(s->check_holder[av_check_by_value(8000, 4)], AV_CHECK_GONE);
    av_engine.destroy((rules_state *)s);
}

Test(av_auction, thief_without_a_check_gets_nothing)
{
    av_state *s = fixture_new(2, NULL);
    const char *const where[] = {"go auction", "go auction"};
    go_all(s, where);
    int pile0 = s->pile_count[0], pile1 = s->pile_count[1];
    const char *const plays[] = {"play thief", "play thief"};
    fixture_all(s, plays);
    cr_expect_eq(s->pile_count[0], pile0);
    cr_expect_eq(s->pile_count[1], pile1);
    cr_expect_str_eq(fixture_decision(s), "t2-location");
    av_engine.destroy((rules_state *)s);
}

Test(av_auction, empty_pile_leaves_one_offer_taken_at_once)
{
    av_state *s = fixture_new(2, NULL);
    /* move pile 1 under pile 0 */
    for (int j = 0; j < s->pile_count[1]; j++) {
        int top = s->pile[0][s->pile_count[0] - 1];
        s->pile[0][s->pile_count[0] - 1] = s->pile[1][j];
        s->pile[0][s->pile_count[0]++] = top;
    }
    s->pile_count[1] = 0;
    const char *const where[] = {"go auction", "go castle"};
    go_all(s, where);
    int offer = face_up(s, 0);
    const char *const plays[] = {"play check 8000", "play detective"};
    fixture_all(s, plays);
    cr_expect(s->lord[0].hand >> offer & 1);
    cr_expect_str_eq(fixture_decision(s), "t2-location");
    av_engine.destroy((rules_state *)s);
}

Test(av_auction, checks_only_at_the_auction_house_detective_only_at_castle)
{
    av_state *s = fixture_new(2, NULL);
    const char *const where[] = {"go auction", "go castle"};
    go_all(s, where);
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play detective",
                        "only be played at a castle");
    harness_reject_text(&av_engine, (rules_state *)s, 1, "play check 8100",
                        "only be played at the auction house");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play check 8100",
                        "do not hold");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play thief 2",
                        "your own thieves");
    fixture_give(s, 1, "A1 C1 E1", true);
    harness_reject_text(&av_engine, (rules_state *)s, 1, "play exhibit",
                        "set of at least three");
    av_engine.destroy((rules_state *)s);
}

Test(av_auction, no_auction_house_without_check_or_free_thief)
{
    av_state *s = fixture_new(2, NULL);
    for (int k = 0; k < AV_CHECKS_PER_LORD; k++)
        s->check_holder[k] = AV_CHECK_GONE;
    s->prison[0] = 1;
    s->prison[1] = 6;
    harness_reject_text(&av_engine, (rules_state *)s, 0, "go auction",
                        "check or a free thief");
    av_engine.destroy((rules_state *)s);
}
