/* The rulebook's worked examples, each as a named test. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"
#include "fixture.h"

#define E (&aq_engine)
#define RS(s) ((rules_state *)(s))

static void expect_collection(const aq_state *s, int id, const char *grade,
                              bool complete, int value)
{
    json_t *c = fx_collection_view(s, id);
    cr_expect_str_eq(json_string_value(json_object_get(c, "grade")), grade,
                     "collection %d grade", id);
    cr_expect_eq(json_is_true(json_object_get(c, "complete")), complete,
                 "collection %d complete", id);
    cr_expect_eq(json_integer_value(json_object_get(c, "value")), value,
                 "collection %d value", id);
    json_decref(c);
}

/* Rulebook "Scoring": Robert went out first with six collections and one
 * of each kind: bonus 500 + collections 3500 + played cards 1425 = 5425. */
Test(aq_examples, roberts_score)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "red1 red2 red3 red4 red5");              /* 1000 */
    fx_collection(s, 0, "blue1 blue2 blue3 blue4 blueW");         /* 1000 */
    fx_collection(s, 0, "yellow1 yellow1 yellow2 yellow3 yellow4"); /* 500 */
    fx_collection(s, 0, "green5 green5 green2 green3 green4");    /* 500 */
    fx_collection(s, 0, "orange1 orange2 orange3 orange4 orange5 orange1 "
                        "orange2 orange3 orange4 orange5 crown chalice "
                        "scepter mask amulet");                    /* 250 */
    int purple = fx_collection(s, 0, "purple1 purple2 purple3 purple4 "
                                     "purple1 purple2 crown chalice scepter "
                                     "mask amulet");               /* 250 */
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "purple5");
    fx_hand(s, 1, "yellow5 green1 tess");
    char add[32];
    snprintf(add, sizeof add, "add %d purple5", purple);
    char *told[RULES_MAX_SEATS + 1];
    harness_apply_text_told(E, RS(s), 0, add, told); /* the last card: out */
    cr_expect_str_eq(told[1 + 1], "Alice added purple5 to collection 6 "
                                  "(mixed purple, complete, 250 points). "
                                  "Alice went out.");
    harness_told_free(told);
    cr_assert_eq(s->going_out, 0);
    cr_assert_eq(s->turn, 1, "seat 1 takes the final turn");
    harness_apply_text(E, RS(s), 1, "draw");
    harness_apply_text_told(E, RS(s), 1, "discard yellow5", told);
    cr_expect_str_eq(told[1 + 0], "Bob discarded yellow5. Round 1 scored: "
                                  "You 5425, Bob -175. The match is over.");
    harness_told_free(told);
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    const aq_round_score *r = &s->score[0][0];
    cr_expect_eq(r->bonus, 500);
    cr_expect_eq(r->collections, 3500);
    cr_expect_eq(r->played, 1425);
    cr_expect_eq(r->unplayed, 0);
    cr_expect_eq(r->total, 5425);
    json_t *result = E->result(RS(s));
    cr_expect_eq(json_integer_value(json_array_get(
                     json_object_get(result, "scores"), 0)), 5425);
    cr_expect(json_is_true(json_object_get(result, "over")));
    cr_expect_str_eq(json_string_value(json_object_get(result, "reason")),
                     "The only round ended when seat 0 went out; the "
                     "highest total wins.");
    cr_expect_null(json_object_get(result, "tie_break"));
    json_decref(result);
    E->destroy(RS(s));
}

/* Rulebook "Adding to other players' collections": Eliza's incomplete
 * 1, 2, 5, W would be Perfect with a 3 or 4; an orange 1 completes it as a
 * 500-point Standard collection instead. */
Test(aq_examples, eliza_perfect_sabotaged_to_standard)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "blue1 blue2 blue3");
    int eliza = fx_collection(s, 1, "orange1 orange2 orange5 orangeW");
    fx_hand(s, 0, "orange1 yellow2 yellow4");
    expect_collection(s, eliza, "perfect", false, 0);
    char add[32];
    snprintf(add, sizeof add, "add %d orange1", eliza);
    harness_apply_text(E, RS(s), 0, add);
    expect_collection(s, eliza, "standard", true, 500);
    cr_expect_eq(aq_score_side(s, 1).collections, 500);
    E->destroy(RS(s));
}

/* Rulebook "The discard pile": a green antiquity on top; reveal two green
 * antiquities, they and the top card start a collection, the rest of the
 * pile joins the hand, and the green wild stays in hand. */
Test(aq_examples, discard_pile_pickup)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_collection(s, 0, "blue1 blue2 blue3");
    fx_discard(s, "red3 crown green4");
    fx_hand(s, 0, "green1 green2 greenW yellow3");
    harness_apply_text(E, RS(s), 0, "pickup green1 green2");
    cr_assert_eq(s->phase, AQ_PHASE_PLAY, "the turn continues");
    cr_assert_eq(s->discard.count, 0);
    const aq_collection *c = &s->coll[s->collections - 1];
    cr_assert_eq(c->count, 3);
    expect_collection(s, c->id, "perfect", false, 0);
    int counts[AQ_NAMES];
    aq_pile_name_counts(&s->hand[0], counts);
    cr_expect_eq(s->hand[0].count, 4);
    cr_expect_eq(counts[aq_name_parse("greenW")], 1);
    cr_expect_eq(counts[aq_name_parse("red3")], 1);
    cr_expect_eq(counts[aq_name_parse("crown")], 1);
    cr_expect_eq(counts[aq_name_parse("yellow3")], 1);
    E->destroy(RS(s));
}

/* Rulebook "Adding to your collections": start red 1, 3, 5; on the next
 * turn add a red 2 and a red wild: a Perfect Antiquity collection. */
Test(aq_examples, red_135_then_2_and_wild_is_perfect)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1 red3 red5 red2 redW yellow1 yellow2");
    fx_hand(s, 1, "blue1 blue2 blue3");
    harness_apply_text(E, RS(s), 0, "draw");
    harness_apply_text(E, RS(s), 0, "play red1 red3 red5");
    int id = s->coll[0].id;
    expect_collection(s, id, "perfect", false, 0);
    harness_apply_text(E, RS(s), 0, "discard yellow1");
    harness_apply_text(E, RS(s), 1, "draw");
    harness_apply_text(E, RS(s), 1, "discard blue1");
    harness_apply_text(E, RS(s), 0, "draw");
    char add[32];
    snprintf(add, sizeof add, "add %d red2 redW", id);
    harness_apply_text(E, RS(s), 0, add);
    expect_collection(s, id, "perfect", true, 1000);
    E->destroy(RS(s));
}

/* Rulebook "On assignment": three completed collections with green
 * antiquities earn 250 + 500 + 750 = 1500. */
Test(aq_examples, civilization_bonus_1500)
{
    cr_expect_eq(aq_civilization_bonus(1), 250);
    cr_expect_eq(aq_civilization_bonus(2), 750);
    cr_expect_eq(aq_civilization_bonus(3), 1500);
    cr_expect_eq(aq_civilization_bonus(4), 2500);
    aq_state *s = fx_new(2, "{\"civilization_bonus\": true}", AQ_PHASE_PLAY);
    s->civ[0] = aq_suit_parse("green");
    fx_collection(s, 0, "green1 green2 green3 green4 green5");
    fx_collection(s, 0, "green1 green1 green2 green3 green4");
    fx_collection(s, 0, "green5 greenW crown chalice mask");
    fx_collection(s, 0, "green2 green3 green4");         /* incomplete */
    fx_collection(s, 0, "red1 red2 red3 red4 red5");     /* not green */
    cr_expect_eq(aq_score_side(s, 0).civilization, 1500);
    E->destroy(RS(s));
}
