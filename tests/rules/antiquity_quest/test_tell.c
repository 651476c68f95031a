/* tell: what each seat is told of a move at a known position: drawn cards
 * to the drawer only, collections with their worth, discards, going out
 * and the round's scores. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "fixture.h"

extern const rules_engine aq_engine;

static void told_by(aq_state *s, int seat, const char *text,
                    char *told[RULES_MAX_SEATS + 1])
{
    harness_apply_text_told(&aq_engine, (rules_state *)s, seat, text, told);
}

Test(aq_tell, drawn_cards_are_named_to_the_drawer_only)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1 red2");
    fx_hand(s, 1, "blue1 blue2");
    /* the two cards on top of the draw pile, told in the hand's order */
    int a = s->draw.card[s->draw.count - 1];
    int b = s->draw.card[s->draw.count - 2];
    char mine[64];
    snprintf(mine, sizeof mine, "You drew %s %s.",
             aq_name_text(aq_card_info(a < b ? a : b).name),
             aq_name_text(aq_card_info(a < b ? b : a).name));
    char *told[RULES_MAX_SEATS + 1];
    told_by(s, 0, "draw", told);
    cr_expect_str_eq(told[1 + 1], "Alice drew 2 cards.");
    cr_expect_str_eq(told[0], "Alice drew 2 cards.");
    cr_expect_str_eq(told[1 + 0], mine);
    harness_told_free(told);
    aq_engine.destroy((rules_state *)s);
}

Test(aq_tell, a_collection_is_told_with_its_worth_and_a_discard_by_name)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_hand(s, 0, "red1 red2 red3 red4 red5 blue1 green2");
    fx_hand(s, 1, "blue3 blue4");
    char *told[RULES_MAX_SEATS + 1];
    told_by(s, 0, "play red1 red2 red3", told);
    cr_expect_str_eq(told[1 + 1], "Alice started collection 1: red1 red2 "
                                  "red3 (3 cards, not complete yet).");
    harness_told_free(told);
    told_by(s, 0, "add 1 red4 red5", told);
    cr_expect_str_eq(told[1 + 0], "You added red4 red5 to collection 1 "
                                  "(perfect red, complete, 1000 points).");
    harness_told_free(told);
    told_by(s, 0, "discard green2", told);
    cr_expect_str_eq(told[1 + 1], "Alice discarded green2.");
    harness_told_free(told);
    aq_engine.destroy((rules_state *)s);
}
