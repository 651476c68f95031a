/* Moves the rules forbid are refused with a sentence naming the rule and
 * leave the state unchanged (harness_reject_text checks both). */
#include <criterion/criterion.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"
#include "fixture.h"

#define E (&aq_engine)
#define RS(s) ((rules_state *)(s))

Test(aq_rejections, pickup_needs_a_collection_started_earlier)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_discard(s, "green4");
    fx_hand(s, 0, "green1 green2 yellow3");
    harness_reject_text(E, RS(s), 0, "pickup green1 green2",
                        "after starting a collection");
    /* Started this very turn does not count either. */
    fx_collection(s, 0, "blue1 blue2 blue3");
    s->started_turn[0] = s->turn_no;
    harness_reject_text(E, RS(s), 0, "pickup green1 green2",
                        "earlier turn");
    s->started_turn[0] = 1;
    harness_apply_text(E, RS(s), 0, "pickup green1 green2");
    E->destroy(RS(s));
}

Test(aq_rejections, pickup_never_with_treasures)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_collection(s, 0, "blue1 blue2 blue3");
    fx_discard(s, "green4");
    fx_hand(s, 0, "green1 crown yellow3");
    harness_reject_text(E, RS(s), 0, "pickup green1 crown", "treasure");
    harness_reject_text(E, RS(s), 0, "pickup green1", "2 to 4");
    E->destroy(RS(s));
}

Test(aq_rejections, remington_is_never_discarded)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_hand(s, 0, "remington red1");
    harness_reject_text(E, RS(s), 0, "discard remington",
                        "Remington cards cannot be discarded");
    E->destroy(RS(s));
}

Test(aq_rejections, no_antiquities_on_a_treasure_collection)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    int id = fx_collection(s, 0, "crown chalice mask");
    fx_hand(s, 0, "red1 amulet yellow2");
    char text[32];
    snprintf(text, sizeof text, "add %d red1", id);
    harness_reject_text(E, RS(s), 0, text,
                        "antiquities may not be added to a Treasure");
    snprintf(text, sizeof text, "add %d amulet", id);
    harness_apply_text(E, RS(s), 0, text);
    E->destroy(RS(s));
}

Test(aq_rejections, rivals_only_after_starting_a_collection)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    int theirs = fx_collection(s, 1, "red2 red3 red4");
    fx_hand(s, 0, "red1 red5 yellow1 yellow2 yellow3 blue1");
    char text[32];
    snprintf(text, sizeof text, "add %d red1", theirs);
    harness_reject_text(E, RS(s), 0, text, "once you have started");
    harness_apply_text(E, RS(s), 0, "play yellow1 yellow2 yellow3");
    harness_apply_text(E, RS(s), 0, text);  /* now allowed, same turn */
    E->destroy(RS(s));
}

Test(aq_rejections, rivals_complete_collections_are_closed)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "blue1 blue2 blue3");
    int theirs = fx_collection(s, 1, "red2 red3 red4 crown mask");
    fx_hand(s, 0, "red1 red5 yellow1");
    char text[32];
    snprintf(text, sizeof text, "add %d red1", theirs);
    harness_reject_text(E, RS(s), 0, text, "incomplete");
    E->destroy(RS(s));
}

Test(aq_rejections, last_cache_card_needs_five_collections)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "blue1 blue2 blue3 blue4 blue5");
    fx_collection(s, 0, "green1 green2 green3 green4 green5");
    int almost = fx_collection(s, 0, "yellow1 yellow2 yellow3 yellow4");
    int short_one = fx_collection(s, 0, "orange1 orange2 orange3");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "orange4 yellow5");
    /* Playing down to a lone card that could not be discarded is
     * refused (RULING)… */
    char text[48];
    snprintf(text, sizeof text, "add %d orange4", short_one);
    harness_reject_text(E, RS(s), 0, text, "single last card");
    snprintf(text, sizeof text, "add %d yellow5", almost);
    harness_reject_text(E, RS(s), 0, text, "single last card");
    /* With a single card left, it may be neither discarded nor played
     * before the fifth collection is complete. */
    harness_apply_text(E, RS(s), 0, "discard orange4");
    s->phase = AQ_PHASE_PLAY;
    s->turn = 0;
    harness_reject_text(E, RS(s), 0, "discard yellow5",
                        "last card from your cache");
    snprintf(text, sizeof text, "add %d yellow5", almost);
    harness_reject_text(E, RS(s), 0, text, "last card from your cache");
    E->destroy(RS(s));
}

Test(aq_rejections, last_card_completing_the_fifth_goes_out)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "blue1 blue2 blue3 blue4 blue5");
    fx_collection(s, 0, "green1 green2 green3 green4 green5");
    fx_collection(s, 0, "purple1 purple2 purple3 purple4 purple5");
    int almost = fx_collection(s, 0, "yellow1 yellow2 yellow3 yellow4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "yellow5");
    fx_hand(s, 1, "blue1 blue2 blue3");
    char text[48];
    snprintf(text, sizeof text, "add %d yellow5", almost);
    harness_apply_text(E, RS(s), 0, text);
    cr_expect_eq(s->going_out, 0);
    cr_expect_eq(s->turn, 1);
    E->destroy(RS(s));
}

Test(aq_rejections, not_your_turn_and_wrong_phase)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1 red2 red3");
    fx_hand(s, 1, "red4");
    harness_reject_text(E, RS(s), 1, "draw", "not your turn");
    harness_reject_text(E, RS(s), 0, "play red1 red2 red3", "drawing");
    harness_reject_text(E, RS(s), 0, "dance", "write one of");
    harness_reject_text(E, RS(s), 0, "play red1 red2 red9", "no card");
    E->destroy(RS(s));
}

Test(aq_rejections, starting_collections_follows_the_criteria)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_hand(s, 0, "red1 red2 blue3 crown tess red4 red5 red3 yellow1");
    harness_reject_text(E, RS(s), 0, "play red1 red2", "at least 3");
    harness_reject_text(E, RS(s), 0, "play red1 red2 blue3", "same civilization");
    harness_reject_text(E, RS(s), 0, "play red1 red2 tess", "never part");
    harness_apply_text(E, RS(s), 0, "play red1 red2 crown");
    E->destroy(RS(s));
}

/* Rulebook Phase 3 "Note": the last card from the cache may be played "if,
 * by playing your last card, you complete your 5th collection". So a play
 * may leave a single card when that card completes the fifth collection
 * (the RULING against a lone card covers only one that could neither be
 * played nor discarded), whatever the move: an add, a new collection or a
 * discard pile pick-up. */
Test(aq_rejections, a_lone_card_that_completes_the_fifth_may_be_kept)
{
    static const char *const four[] = {
        "red1 red2 red3 red4 red5", "blue1 blue2 blue3 blue4 blue5",
        "green1 green2 green3 green4 green5",
        "purple1 purple2 purple3 purple4 purple5",
    };
    char text[48];
    /* An add to another collection first, the completing card last. */
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, four[i]);
    int almost = fx_collection(s, 0, "yellow1 yellow2 yellow3 yellow4");
    int short_one = fx_collection(s, 0, "orange1 orange2 orange3");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "orange4 yellow5");
    snprintf(text, sizeof text, "add %d orange4", short_one);
    harness_apply_text(E, RS(s), 0, text);
    snprintf(text, sizeof text, "add %d yellow5", almost);
    harness_apply_text(E, RS(s), 0, text);
    cr_expect_eq(s->going_out, 0, "the last card completed the 5th: out");
    E->destroy(RS(s));

    /* A new collection of four, then the card that completes it. */
    s = fx_new(2, NULL, AQ_PHASE_PLAY);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, four[i]);
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "yellow1 yellow2 yellow3 yellow4 yellow5");
    harness_apply_text(E, RS(s), 0, "play yellow1 yellow2 yellow3 yellow4");
    snprintf(text, sizeof text, "add %d yellow5", s->next_id - 1);
    harness_apply_text(E, RS(s), 0, text);
    cr_expect_eq(s->going_out, 0);
    E->destroy(RS(s));

    /* A pick-up of four whose one leftover card completes it. */
    s = fx_new(2, NULL, AQ_PHASE_DRAW);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, four[i]);
    fx_cache_taken(s, 0);
    fx_discard(s, "yellow5 yellow4");
    fx_hand(s, 0, "yellow1 yellow2 yellow3");
    harness_apply_text(E, RS(s), 0, "pickup yellow1 yellow2 yellow3");
    snprintf(text, sizeof text, "add %d yellow5", s->next_id - 1);
    harness_apply_text(E, RS(s), 0, text);
    cr_expect_eq(s->going_out, 0);
    E->destroy(RS(s));

    /* One collection short of that, the lone card stays refused. */
    s = fx_new(2, NULL, AQ_PHASE_PLAY);
    for (int i = 0; i < 3; i++)
        fx_collection(s, 0, four[i]);
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "yellow1 yellow2 yellow3 yellow4 yellow5");
    harness_reject_text(E, RS(s), 0, "play yellow1 yellow2 yellow3 yellow4",
                        "single last card");
    E->destroy(RS(s));
}
