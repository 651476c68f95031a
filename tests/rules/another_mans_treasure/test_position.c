/* The position form a referee edits by hand (README, "Position"): cards by
 * name, lists in any order, derived fields filled in, each error naming
 * the field and the value; and the README's worked example, run from
 * rules/another_mans_treasure/examples/. */
#include <criterion/criterion.h>
#include <string.h>

#include "support.h"

#define WORKED_EXAMPLE                                                        \
    "rules/another_mans_treasure/examples/"                                   \
    "claim_settled_before_the_next_draw.json"

static const char *const hands[] = {"B1 B2 B3 B4 Y5s R9 G11 W1-6",
                                    "Y1 Y2 Y3 Y4 B8 B9 R10 R11",
                                    "G1 G2 G3 G4 Y8 Y9 B10 G11"};

/* A saved round-1 position: seat 0 to draw, hands as above. */
static json_t *saved_deal(void)
{
    amt_state *s = amt_test_new(3, NULL);
    amt_test_deal(s, hands, "G9", "R1", 0);
    json_t *snap = amt_engine.save((rules_state *)s);
    amt_engine.destroy((rules_state *)s);
    return snap;
}

static json_t *player(json_t *snap, int seat)
{
    return json_array_get(json_object_get(snap, "players"), (size_t)seat);
}

/* Removes the first name in a list of card names. */
static void remove_card(json_t *list, const char *name)
{
    for (size_t i = 0; i < json_array_size(list); i++) {
        if (strcmp(json_string_value(json_array_get(list, i)), name) == 0) {
            json_array_remove(list, i);
            return;
        }
    }
    cr_assert_fail("no %s in the list", name);
}

/* Moves four cards of seat 0's hand into one meld of kind, in the
 * order given, as a referee would edit the position. */
static void lay_by_hand(json_t *snap, const char *kind,
                        const char *const cards[4])
{
    json_t *hand = json_object_get(player(snap, 0), "hand");
    for (int i = 0; i < 4; i++)
        remove_card(hand, cards[i]);
    json_object_set_new(player(snap, 0), "melds",
                        json_pack("[{s:s,s:[s,s,s,s]}]", "kind", kind,
                                  "cards", cards[0], cards[1], cards[2],
                                  cards[3]));
}

static char *canonical(const json_t *v)
{
    return rules_sorted_json(v);
}

/* load(snap) refuses with exactly message. */
static void expect_refused(const json_t *snap, const char *message)
{
    rules_error err = {{0}};
    rules_state *s = amt_engine.load(snap, &err);
    cr_assert_null(s, "loaded, expected \"%s\"", message);
    cr_assert_str_eq(err.message, message);
}

/* load(snap) succeeds and saves back as expected (canonical bytes). */
static void expect_loads_as(const json_t *snap, const json_t *expected)
{
    rules_error err = {{0}};
    rules_state *s = amt_engine.load(snap, &err);
    cr_assert_not_null(s, "refused: %s", err.message);
    json_t *again = amt_engine.save(s);
    char *a = canonical(again), *b = canonical(expected);
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
    json_decref(again);
    amt_engine.destroy(s);
}

Test(amt_position, cards_have_their_notation_names_and_piles_list_the_top_first)
{
    json_t *snap = saved_deal();
    json_t *hand = json_object_get(player(snap, 0), "hand");
    char *text = canonical(hand);
    cr_assert_str_eq(text, "[\"B1\",\"B2\",\"B3\",\"B4\",\"R9\",\"Y5s\","
                           "\"G11\",\"W1-6\"]",
                     "sorted as the notation sorts: colours B R Y G, wilds "
                     "last");
    free(text);
    cr_assert_str_eq(json_string_value(json_array_get(
                         json_object_get(snap, "draw_pile"), 0)),
                     "R1", "the card the next draw takes");
    cr_assert_str_eq(json_string_value(json_array_get(
                         json_object_get(snap, "discard_pile"), 0)),
                     "G9");
    /* derived fields are left out */
    cr_assert_null(json_object_get(snap, "seats"));
    cr_assert_null(json_object_get(player(snap, 0), "total"));
    cr_assert_null(json_object_get(snap, "claim_window"), "no window yet");
    json_decref(snap);
}

Test(amt_position, lists_without_an_order_load_in_any_order)
{
    amt_state *s = amt_test_new(3, NULL);
    amt_test_deal(s, hands, "G9", "R1", 0);
    s->players[1].used = (1u << AMT_P_RUN8) | (1u << AMT_P_2SETS4);
    amt_test_do(s, 0, "draw");
    amt_test_do(s, 0, "discard R9");
    amt_test_do(s, 2, "pass");
    amt_test_do(s, 0, "claim");
    json_t *snap = amt_engine.save((rules_state *)s);
    json_t *edited = json_deep_copy(snap);
    json_object_set_new(player(edited, 0), "hand",
                        json_pack("[s,s,s,s,s,s,s,s]", "W1-6", "G11", "y5s",
                                  "B4", "b3", "B2", "R1", "B1"));
    json_object_set_new(player(edited, 1), "marked",
                        json_pack("[s,s]", "run8", "2sets4"));
    json_object_set_new(edited, "claim_window",
                        json_pack("{s:[i],s:[i]}", "passed", 2, "claimed",
                                  0));
    expect_loads_as(edited, snap);
    json_decref(edited);
    json_decref(snap);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_position, derived_fields_are_filled_in)
{
    json_t *snap = saved_deal();
    json_t *bare = json_deep_copy(snap);
    json_object_del(bare, "format");
    json_object_del(bare, "game"); /* the defaults: classic, 12 hours */
    json_object_del(bare, "claim_window_hours");
    json_object_del(bare, "classic_end_of_round");
    for (int p = 0; p < 3; p++) {
        json_object_del(player(bare, p), "melds");
        json_object_del(player(bare, p), "marked");
        json_object_del(player(bare, p), "completed");
        json_object_del(player(bare, p), "round_scores"); /* none played */
    }
    expect_loads_as(bare, snap);
    json_decref(bare);

    /* the totals are the sums of the round scores */
    json_t *later = json_deep_copy(snap);
    json_object_set_new(later, "round", json_integer(3));
    json_object_set_new(player(later, 1), "round_scores",
                        json_pack("[i,i]", 40, 5));
    for (int p = 0; p < 3; p += 2)
        json_object_set_new(player(later, p), "round_scores",
                            json_pack("[i,i]", 0, 0));
    rules_error err = {{0}};
    rules_state *s = amt_engine.load(later, &err);
    cr_assert_not_null(s, "%s", err.message);
    json_t *result = amt_engine.result(s);
    cr_assert_eq(json_integer_value(
                     json_array_get(json_object_get(result, "scores"), 1)),
                 45);
    json_decref(result);
    amt_engine.destroy(s);
    json_decref(later);
    json_decref(snap);
}

/* A meld makes its owner one who laid a pattern this round, so the owner
 * may add to melds; the others may not. */
Test(amt_position, a_seat_with_melds_has_laid_its_pattern)
{
    json_t *snap = saved_deal();
    lay_by_hand(snap, "run", (const char *const[]){"B1", "B2", "B3", "B4"});
    json_object_set_new(player(snap, 0), "marked", json_pack("[s]", "2runs4"));
    json_object_set_new(snap, "phase", json_string("play"));
    rules_error err = {{0}};
    rules_state *s = amt_engine.load(snap, &err);
    cr_assert_not_null(s, "%s", err.message);
    amt_state *state = (amt_state *)s;
    cr_assert(state->players[0].laid);
    cr_assert_not(state->players[1].laid);
    amt_test_do(state, 0, "add P1.1 W1-6 high");
    amt_engine.destroy(s);
    json_decref(snap);
}

Test(amt_position, an_unknown_card_is_named_with_its_place)
{
    json_t *snap = saved_deal();
    json_array_set_new(json_object_get(snap, "draw_pile"), 3,
                       json_string("B12"));
    expect_refused(snap, "draw_pile[3]: there is no card \"B12\"");
    json_array_set_new(json_object_get(snap, "draw_pile"), 3,
                       json_string("B4s"));
    expect_refused(snap, "draw_pile[3]: there is no card \"B4s\" (only a 5, "
                         "6 or 7 has a smiley copy)");
    json_array_set_new(json_object_get(snap, "draw_pile"), 3,
                       json_integer(17));
    expect_refused(snap, "draw_pile[3]: a card is written by its name, like "
                         "\"R3\", \"Y5s\" (a smiley 5) or \"W1-6\"");
    json_decref(snap);
}

Test(amt_position, a_card_in_two_places_names_both)
{
    json_t *snap = saved_deal();
    json_t *twice = json_deep_copy(snap);
    /* the one smiley Y5 both under the discard pile and in seat 0's hand */
    json_array_append_new(json_object_get(twice, "discard_pile"),
                          json_string("Y5s"));
    expect_refused(twice, "players[0].hand[5]: there is only one \"Y5s\", "
                          "already in discard_pile[1]");
    json_decref(twice);
    /* a fourth G11 (there are three) */
    twice = json_deep_copy(snap);
    json_array_append_new(json_object_get(player(twice, 1), "hand"),
                          json_string("G11"));
    expect_refused(twice, "players[2].hand[7]: there are only 3 \"G11\", "
                          "already in draw_pile[9], players[0].hand[6] and "
                          "players[1].hand[8]");
    json_decref(twice);
    json_decref(snap);
}

Test(amt_position, a_missing_card_is_named)
{
    json_t *snap = saved_deal();
    json_t *edited = json_deep_copy(snap);
    remove_card(json_object_get(player(edited, 0), "hand"), "Y5s");
    expect_refused(edited, "a card is missing: \"Y5s\" is in no place (each "
                           "card is in draw_pile, discard_pile, a hand or a "
                           "meld)");
    json_decref(edited);
    edited = json_deep_copy(snap);
    remove_card(json_object_get(player(edited, 2), "hand"), "G11");
    expect_refused(edited, "a card is missing: only 2 of the 3 \"G11\" have "
                           "a place (each card is in draw_pile, discard_pile, "
                           "a hand or a meld)");
    json_decref(edited);
    json_decref(snap);
}

Test(amt_position, bad_names_and_fields_are_named)
{
    json_t *snap = saved_deal();
    json_t *edited = json_deep_copy(snap);
    json_object_set_new(edited, "phase", json_string("drawing"));
    expect_refused(edited, "phase: there is no phase \"drawing\" (draw, "
                           "play, endplay or over)");
    json_decref(edited);

    edited = json_deep_copy(snap);
    json_object_set(player(edited, 1), "hnad",
                    json_object_get(player(edited, 1), "hand"));
    expect_refused(edited, "players[1]: there is no field \"hnad\"");
    json_decref(edited);

    edited = json_deep_copy(snap);
    json_object_set_new(player(edited, 1), "marked",
                        json_pack("[s,s]", "run8", "3pairs"));
    expect_refused(edited, "players[1].marked[1]: there is no pattern "
                           "\"3pairs\" in the classic game");
    json_decref(edited);

    edited = json_deep_copy(snap);
    json_object_set_new(edited, "turn", json_integer(3));
    expect_refused(edited, "turn: must be a seat from 0 to 2, not 3");
    json_decref(edited);

    edited = json_deep_copy(snap);
    json_object_set_new(edited, "claim_window",
                        json_pack("{s:[i]}", "claimed", 0));
    expect_refused(edited, "claim_window.claimed[0]: seat 0 is the next "
                           "player, who answers by take or draw");
    json_decref(edited);

    edited = json_deep_copy(snap);
    json_object_set_new(player(edited, 2), "end_play", json_string("pass"));
    expect_refused(edited, "players[2].end_play: a choice made only at the "
                           "round's end (phase \"endplay\")");
    json_decref(edited);

    edited = json_deep_copy(snap);
    json_object_set_new(edited, "format", json_integer(1));
    expect_refused(edited, "format: this engine reads positions of format 2");
    json_decref(edited);
    json_decref(snap);
}

Test(amt_position, a_meld_of_the_wrong_shape_is_named)
{
    json_t *snap = saved_deal();
    lay_by_hand(snap, "run", (const char *const[]){"B1", "B3", "B2", "B4"});
    json_object_set_new(snap, "phase", json_string("play"));
    expect_refused(snap, "players[0].melds[0].cards: a suited run needs "
                         "consecutive numbers in order");
    json_decref(snap);
}

/* Seat 1 has sealed a pattern at the round's end: the choice is kept in
 * text notation, and a hand-edited one is checked like the move. */
Test(amt_position, a_sealed_end_play_is_a_move_in_text)
{
    amt_state *s = amt_test_new(3, NULL);
    const char *const end_hands[] = {"B4 R4 Y4 G4 B9 R9 Y9 G2",
                                     "B5 R5 Y5 G5 B1 R3 G7 Y11",
                                     "Y1 Y2 Y3 Y4 Y5 Y6 Y7 R8 R3"};
    amt_test_deal(s, end_hands, "G9", NULL, 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    amt_test_do(s, 0, "discard G2");
    amt_test_do(s, 1, "pattern 2sets4 set:B5,R5,Y5,G5");
    json_t *snap = amt_engine.save((rules_state *)s);
    cr_assert_str_eq(json_string_value(
                         json_object_get(player(snap, 1), "end_play")),
                     "pattern 2sets4 set:B5,R5,Y5,G5");
    cr_assert_null(json_object_get(player(snap, 2), "end_play"),
                   "seat 2 is still choosing");
    expect_loads_as(snap, snap);
    json_object_set_new(player(snap, 1), "end_play",
                        json_string("pattern 2sets4 set:B5,R5,Y5,G5,B1"));
    expect_refused(snap, "players[1].end_play: a set needs cards of the "
                         "same number");
    json_object_set_new(player(snap, 1), "end_play",
                        json_string("pattern 2sets4 set:B5,R5,Y5,G5,G5"));
    expect_refused(snap, "players[1].end_play: you do not hold G5 for that "
                         "pattern");
    json_object_set_new(player(snap, 0), "end_play", json_string("pass"));
    expect_refused(snap, "players[0].end_play: seat 0 does not choose at the "
                         "round's end: it laid a pattern this round");
    json_decref(snap);
    amt_engine.destroy((rules_state *)s);
}

/* README, "Position", worked example (issue #24): the referee takes the
 * position saved when seat 2 claimed B8, puts an R1 and an R2 on top of
 * the draw pile, loads it and lets seat 1 draw. */
Test(amt_position, worked_example_seat_2_gets_b8_and_r1_before_seat_1_draws)
{
    uint8_t seed[RULES_SEED_BYTES] = {0x03}; /* new --seats 3 --seed 03 */
    rules_error err = {{0}};
    rules_state *match = amt_engine.setup(NULL, 3, seed, &err);
    cr_assert_not_null(match, "%s", err.message);
    amt_test_do((amt_state *)match, 0, "take");
    amt_test_do((amt_state *)match, 0, "discard B8");
    amt_test_do((amt_state *)match, 2, "claim");
    json_t *saved = amt_engine.save(match);

    json_error_t jerr;
    json_t *example = json_load_file(WORKED_EXAMPLE, 0, &jerr);
    cr_assert_not_null(example, "%s: %s", WORKED_EXAMPLE, jerr.text);
    json_object_del(example, "note");
    /* The only edit: an R1 and an R2 moved to the top of the draw pile. */
    json_t *pile = json_object_get(saved, "draw_pile");
    remove_card(pile, "R1");
    remove_card(pile, "R2");
    json_array_insert_new(pile, 0, json_string("R2"));
    json_array_insert_new(pile, 0, json_string("R1"));
    char *expected = canonical(saved), *edited = canonical(example);
    cr_assert_str_eq(edited, expected, "the example is the saved position "
                                       "with draw_pile edited");
    free(expected);
    free(edited);

    rules_state *s = amt_engine.load(example, &err);
    cr_assert_not_null(s, "%s", err.message);
    amt_state *st = (amt_state *)s;
    amt_test_do(st, 1, "draw");
    json_t *after = amt_engine.save(s);
    char *seat2 = canonical(json_object_get(player(after, 2), "hand"));
    cr_assert_str_eq(seat2, "[\"B1\",\"B8\",\"R1\",\"R6s\",\"R11\",\"Y5s\","
                            "\"Y5\",\"Y11\",\"G6\",\"G10\"]",
                     "seat 2 took B8 and the penalty card R1");
    char *seat1 = canonical(json_object_get(player(after, 1), "hand"));
    cr_assert_str_eq(seat1, "[\"B3\",\"B4\",\"B11\",\"R2\",\"Y2\",\"Y7s\","
                            "\"G4\",\"G9\",\"W1-6\"]",
                     "then seat 1 drew R2");
    cr_assert_str_eq(json_string_value(json_object_get(after, "phase")),
                     "play");
    free(seat1);
    free(seat2);
    json_decref(after);
    amt_engine.destroy(s);
    json_decref(example);
    json_decref(saved);
    amt_engine.destroy(match);
}
