/* Characters, the advanced rules, pairs, rounds and the RULINGs. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"
#include "fixture.h"

#define E (&aq_engine)
#define RS(s) ((rules_state *)(s))

static void apply_fmt(aq_state *s, int seat, const char *fmt, int a, int b)
{
    char text[64];
    snprintf(text, sizeof text, fmt, a, b);
    harness_apply_text(E, RS(s), seat, text);
}

static void reject_fmt(aq_state *s, int seat, const char *fmt, int a, int b,
                       const char *words)
{
    char text[64];
    snprintf(text, sizeof text, fmt, a, b);
    harness_reject_text(E, RS(s), seat, text, words);
}

static const char *const complete_sets[] = {
    "red1 red2 red3 red4 red5",          "yellow1 yellow2 yellow3 yellow4 yellow5",
    "green1 green2 green3 green4 green5", "orange1 orange2 orange3 orange4 orange5",
    "purple1 purple2 purple3 purple4 purple5", "crown chalice scepter mask amulet",
};

/* n completed collections (n <= 6) for side, none of them blue. */
static void completed(aq_state *s, int side, int n)
{
    for (int i = 0; i < n; i++)
        fx_collection(s, side, complete_sets[i]);
}

Test(aq_characters, tess_steals_the_whole_discard_pile)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_discard(s, "red1 crown blue2");
    fx_hand(s, 0, "tess red2");
    harness_apply_text(E, RS(s), 0, "discard tess");
    cr_expect_eq(s->discard.count, 0);
    cr_expect_eq(s->character.count, 4);
    cr_expect_eq(aq_card_info(s->character.card[3]).kind, AQ_TESS,
                 "Tess lies on top");
    cr_expect_eq(s->turn, 1);
    E->destroy(RS(s));
}

Test(aq_characters, remington_draws_two_and_goes_to_the_character_pile)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_hand(s, 0, "remington red2");
    int before = s->draw.count;
    harness_apply_text(E, RS(s), 0, "remington");
    cr_expect_eq(s->hand[0].count, 3);
    cr_expect_eq(s->draw.count, before - 2);
    cr_expect_eq(s->character.count, 1);
    E->destroy(RS(s));
}

/* RULING: a draw the draw pile cannot supply ends the round at once. */
Test(aq_rulings, exhausted_draw_pile_ends_the_round)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1 remington");
    fx_hand(s, 1, "blue1");
    while (s->draw.count > 1)
        aq_pile_push(&s->character, aq_pile_pop(&s->draw));
    harness_apply_text(E, RS(s), 0, "draw");
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    cr_expect_eq(s->score[0][0].unplayed, -125);
    cr_expect_eq(s->round_going_out[0], AQ_NONE);
    E->destroy(RS(s));
}

Test(aq_rulings, remington_on_an_exhausted_pile_ends_the_round)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_hand(s, 0, "red1 remington");
    while (s->draw.count > 0)
        aq_pile_push(&s->character, aq_pile_pop(&s->draw));
    harness_apply_text(E, RS(s), 0, "remington");
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    E->destroy(RS(s));
}

/* The bonus goes to the others with one of each kind when the player who
 * went out has not. */
Test(aq_scoring, bonus_passes_to_others_when_the_first_out_lacks_a_kind)
{
    aq_state *s = fx_new(3, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 1, "red1 red2 red3 red4 red5");
    fx_collection(s, 1, "blue1 blue1 blue3 blue4 blue5");
    fx_collection(s, 1, "green1 green2 crown mask amulet");
    fx_collection(s, 2, "yellow1 yellow2 yellow3 yellow4 yellow5");
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, "purple1 purple2 purple3 purple4 purple5");
    int last = fx_collection(s, 0, "orange1 orange2 orange3 orange4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "orange5");
    fx_hand(s, 1, "red1 red2");
    fx_hand(s, 2, "red3 red4");
    apply_fmt(s, 0, "add %d orange5", last, 0);
    harness_apply_text(E, RS(s), 1, "draw");
    harness_apply_text(E, RS(s), 1, "discard red1");
    harness_apply_text(E, RS(s), 2, "draw");
    harness_apply_text(E, RS(s), 2, "discard red3");
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    cr_expect_eq(s->score[0][0].bonus, 0);
    cr_expect_eq(s->score[0][1].bonus, 500);
    cr_expect_eq(s->score[0][2].bonus, 0);
    E->destroy(RS(s));
}

Test(aq_advanced, reassigned_swaps_collections_of_the_same_kind)
{
    aq_state *s = fx_new(2, "{\"remington_reassigned\": true}",
                         AQ_PHASE_PLAY);
    int mine = fx_collection(s, 0, "red1 red1 red2 red3 red4");
    int perfect = fx_collection(s, 0, "blue1 blue2 blue3 blue4 blue5");
    int theirs = fx_collection(s, 1, "green1 green1 green2 green3 green4");
    int treasure = fx_collection(s, 1, "crown crown mask mask amulet");
    fx_hand(s, 0, "remington yellow1 yellow2");
    reject_fmt(s, 0, "reassign %d %d", perfect, theirs, "same kind");
    reject_fmt(s, 0, "reassign %d %d", mine, treasure, "same kind");
    apply_fmt(s, 0, "reassign %d %d", mine, theirs);
    cr_expect_eq(aq_collection_find(s, mine)->side, 1);
    cr_expect_eq(aq_collection_find(s, theirs)->side, 0);
    cr_expect_eq(s->character.count, 1);
    cr_expect_eq(s->hand[0].count, 2, "no cards are drawn");
    E->destroy(RS(s));
}

Test(aq_advanced, reassigned_is_off_in_the_basic_game)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    int mine = fx_collection(s, 0, "red1 red1 red2 red3 red4");
    int theirs = fx_collection(s, 1, "green1 green1 green2 green3 green4");
    fx_hand(s, 0, "remington yellow1");
    reject_fmt(s, 0, "reassign %d %d", mine, theirs, "not used");
    E->destroy(RS(s));
}

Test(aq_advanced, lost_shipment_removes_a_rivals_incomplete_collection)
{
    aq_state *s = fx_new(2, "{\"tess_lost_shipment\": true}", AQ_PHASE_PLAY);
    int treasure = fx_collection(s, 1, "crown mask amulet");
    int complete = fx_collection(s, 1, "blue1 blue2 blue3 blue4 blue5");
    int target = fx_collection(s, 1, "green1 green2 crown");
    fx_hand(s, 0, "tess yellow1");
    reject_fmt(s, 0, "lost %d", treasure, 0, "incomplete Antiquity or Mixed");
    reject_fmt(s, 0, "lost %d", complete, 0, "incomplete Antiquity or Mixed");
    apply_fmt(s, 0, "lost %d", target, 0);
    cr_expect_null(aq_collection_find(s, target));
    cr_expect_eq(s->character.count, 4);
    cr_expect_eq(s->played_points[1], 150 + 125);
    cr_expect_eq(s->phase, AQ_PHASE_PLAY, "it is a play, not the discard");
    E->destroy(RS(s));
}

Test(aq_advanced, revoked_visas_in_pairs_take_turns)
{
    aq_state *s = fx_new(4, "{\"pairs\": true, \"revoked_visas\": true}",
                         AQ_PHASE_PLAY);
    completed(s, 0, 6);
    int last = fx_collection(s, 0, "blue1 blue2 blue3 blue4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "blue5");
    fx_hand(s, 1, "yellow1 yellow2 yellow3");
    fx_hand(s, 2, "green1 green2 green3 crown");
    fx_hand(s, 3, "orange1");
    apply_fmt(s, 0, "add %d blue5", last, 0);
    rules_pending p;
    E->pending(RS(s), &p);
    cr_assert_eq(p.wait, RULES_WAIT_ONE);
    cr_assert_eq(p.seats, 1u << 1);
    harness_reject_text(E, RS(s), 1, "draw", "final plays");
    harness_apply_text(E, RS(s), 1, "final play yellow1 yellow2 yellow3");
    cr_expect_eq(s->collections, 8, "played in the open at once");
    harness_apply_text(E, RS(s), 2, "final play green1 green2 green3 crown");
    harness_apply_text(E, RS(s), 3, "final");
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    /* Side 0 = seats 0 and 2; side 1 = seats 1 and 3. */
    cr_expect_eq(s->score[0][1].played, 75);
    cr_expect_eq(s->score[0][1].unplayed, -25);
    cr_expect_eq(s->score[0][0].unplayed, 0);
    E->destroy(RS(s));
}

Test(aq_pairs, partners_share_collections_and_the_cache)
{
    aq_state *s = fx_new(4, "{\"pairs\": true}", AQ_PHASE_PLAY);
    int shared = fx_collection(s, 0, "red1 red2 red3");
    fx_cache(s, 0, "blue1 blue2 blue3 blue4 blue5 green1 green2 green3 "
                   "green4 green5");
    fx_hand(s, 0, "red4");
    fx_hand(s, 1, "yellow1");
    fx_hand(s, 2, "red5 yellow2 yellow3");
    /* Seat 0 empties its hand: the partnership's joint cache. */
    apply_fmt(s, 0, "add %d red4", shared, 0);
    cr_expect_eq(s->hand[0].count, 10);
    cr_expect(s->cache_taken[0]);
    harness_apply_text(E, RS(s), 0, "discard blue1");
    harness_apply_text(E, RS(s), 1, "draw");
    harness_apply_text(E, RS(s), 1, "discard yellow1");
    s->turn = 2;
    s->phase = AQ_PHASE_PLAY;
    /* Seat 2 adds to the partnership's collection as its own. */
    apply_fmt(s, 2, "add %d red5", shared, 0);
    cr_expect_eq(aq_completed_count(s, 0), 1);
    E->destroy(RS(s));
}

Test(aq_pairs, the_last_card_needs_seven_combined_collections)
{
    aq_state *s = fx_new(4, "{\"pairs\": true}", AQ_PHASE_PLAY);
    completed(s, 0, 5);
    int last = fx_collection(s, 0, "blue1 blue2 blue3 blue4");
    fx_cache_taken(s, 0);
    fx_hand(s, 2, "blue5");
    s->turn = 2;
    reject_fmt(s, 2, "add %d blue5", last, 0, "completed 7 collections");
    E->destroy(RS(s));

    s = fx_new(4, "{\"pairs\": true}", AQ_PHASE_PLAY);
    completed(s, 0, 6);
    last = fx_collection(s, 0, "blue1 blue2 blue3 blue4");
    fx_cache_taken(s, 0);
    fx_hand(s, 2, "blue5");
    s->turn = 2;
    apply_fmt(s, 2, "add %d blue5", last, 0);
    cr_expect_eq(s->going_out, 2);
    E->destroy(RS(s));
}

Test(aq_rounds, lowest_score_starts_the_next_round)
{
    aq_state *s = fx_new(3, "{\"rounds\": 3}", AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1");
    fx_hand(s, 1, "crown crown");
    fx_hand(s, 2, "blue1");
    while (s->draw.count > 1)
        aq_pile_push(&s->character, aq_pile_pop(&s->draw));
    harness_apply_text(E, RS(s), 0, "draw");
    cr_assert_eq(s->round, 2);
    cr_expect_eq(s->total[1], -100);
    cr_expect_eq(s->first, 1);
    cr_expect_eq(s->turn, 1);
    cr_expect_eq(s->hand[0].count, 10, "a fresh deal");
    rules_error err = {{0}};
    cr_expect(E->check(RS(s), &err), "%s", err.message);
    E->destroy(RS(s));
}

Test(aq_options, setup_rejects_what_the_rulebook_does_not_offer)
{
    uint8_t seed[RULES_SEED_BYTES] = {0};
    rules_error err = {{0}};
    json_t *two = json_pack("{s:i}", "rounds", 2);
    json_t *pairs = json_pack("{s:b}", "pairs", 1);
    json_t *bogus = json_pack("{s:b}", "jokers", 1);
    cr_expect_null(E->setup(two, 3, seed, &err));
    cr_expect_null(E->setup(NULL, 7, seed, &err));
    cr_expect_null(E->setup(pairs, 5, seed, &err));
    cr_expect_null(E->setup(bogus, 3, seed, &err));
    rules_state *eight = E->setup(pairs, 8, seed, &err);
    cr_expect_not_null(eight, "%s", err.message);
    E->destroy(eight);
    json_decref(two);
    json_decref(pairs);
    json_decref(bogus);
}
