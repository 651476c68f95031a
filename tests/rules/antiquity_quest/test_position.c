/* The position (README "Position") as a referee edits it: lists in any
 * order, bare card names, bookkeeping worked out by load, refusals that
 * name the field and the value, and the README's worked example run from
 * rules/antiquity_quest/examples/. Run the suite from the repository root
 * (as make does) so those files are found. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"
#include "fixture.h"

#define E (&aq_engine)
#define RS(s) ((rules_state *)(s))
#define EXAMPLES "rules/antiquity_quest/examples/"

/* An example position without its note (the workbench drops it too). */
static json_t *example(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, EXAMPLES "%s.json", name);
    json_error_t jerr;
    json_t *position = json_load_file(path, 0, &jerr);
    cr_assert_not_null(position, "%s: %s (run from the repository root)", path,
                       jerr.text);
    json_object_del(position, "note");
    return position;
}

static aq_state *load_ok(const json_t *position)
{
    rules_error err = {{0}};
    rules_state *s = E->load(position, &err);
    cr_assert_not_null(s, "load: %s", err.message);
    return (aq_state *)s;
}

/* Asserts load refuses position with exactly the sentence expected. */
static void refused(const json_t *position, const char *expected)
{
    rules_error err = {{0}};
    rules_state *s = E->load(position, &err);
    cr_expect_null(s, "load accepted a position that should say: %s", expected);
    if (s != NULL)
        E->destroy(s);
    cr_expect_str_eq(err.message, expected);
}

/* The same, for a sentence that starts with expected. */
static void refused_starting(const json_t *position, const char *expected)
{
    rules_error err = {{0}};
    rules_state *s = E->load(position, &err);
    cr_expect_null(s);
    if (s != NULL)
        E->destroy(s);
    cr_expect(strncmp(err.message, expected, strlen(expected)) == 0,
              "\"%s\" does not start with \"%s\"", err.message, expected);
}

static bool same_bytes(const json_t *a, const json_t *b)
{
    char *x = rules_sorted_json(a);
    char *y = rules_sorted_json(b);
    bool same = strcmp(x, y) == 0;
    if (!same)
        cr_log_error("%s\n  differs from\n%s", x, y);
    free(x);
    free(y);
    return same;
}

/* Word index of a blank-separated card list. */
static char *word_at(const char *list, int index)
{
    char *copy = strdup(list);
    char *save = NULL;
    char *w = strtok_r(copy, " ", &save);
    for (int i = 0; i < index && w != NULL; i++)
        w = strtok_r(NULL, " ", &save);
    cr_assert_not_null(w);
    char *word = strdup(w);
    free(copy);
    return word;
}

/* list with its word at index replaced by with (NULL: removed). */
static json_t *replace_word(const char *list, int index, const char *with)
{
    char *copy = strdup(list);
    char out[AQ_CARDS * 16 + 64] = "";
    char *save = NULL;
    int i = 0;
    for (char *w = strtok_r(copy, " ", &save); w != NULL;
         w = strtok_r(NULL, " ", &save), i++) {
        const char *put = i == index ? with : w;
        if (put == NULL)
            continue;
        if (out[0] != '\0')
            strcat(out, " ");
        strcat(out, put);
    }
    free(copy);
    return json_string(out);
}

static const char *str_at(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* Seat 0 to play; a collection each; seat 1's cache holds three cards. */
static aq_state *table(void)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "red1 red3 red5");
    fx_collection(s, 1, "orange1 orange2 orange5 orangeW");
    fx_hand(s, 0, "crown redW red2 yellow4");
    fx_hand(s, 1, "amulet tess green3");
    fx_cache(s, 1, "mask mask scepter");
    fx_cache_taken(s, 0);
    fx_discard(s, "purple2 green4");
    return s;
}

/* ---- the form ------------------------------------------------------------ */

Test(aq_position, the_examples_are_positions_in_their_canonical_form)
{
    const char *names[] = {
        "roberts_score", "eliza_perfect_sabotaged_to_standard",
        "discard_pile_pickup", "red_135_then_2_and_wild_is_perfect",
        "civilization_bonus_1500"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        json_t *position = example(names[i]);
        aq_state *s = load_ok(position);
        json_t *saved = E->save(RS(s));
        cr_expect(same_bytes(saved, position), "%s is not as save writes it",
                  names[i]);
        json_decref(saved);
        json_decref(position);
        E->destroy(RS(s));
    }
}

/* Piles whose order matters are written top first; hands and caches in
 * the notation's order; bookkeeping is left out. */
Test(aq_position, save_writes_piles_top_first_and_hands_sorted)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    char *top = word_at(str_at(p, "discard_pile"), 0);
    cr_expect_eq(aq_token_parse(top), s->discard.card[1], "green4 first");
    free(top);
    char *next = word_at(str_at(p, "draw_pile"), 0);
    cr_expect_eq(aq_token_parse(next), s->draw.card[s->draw.count - 1],
                 "the next card drawn comes first");
    free(next);
    const char *hand =
        json_string_value(json_array_get(json_object_get(p, "hands"), 0));
    cr_expect(strncmp(hand, "yellow4.", 8) == 0 && strstr(hand, " red2.") &&
                  strstr(hand, " redW.") && strstr(hand, " crown."),
              "hand in notation order: %s", hand);
    cr_expect(strstr(hand, "redW") > strstr(hand, "red2"), "%s", hand);
    json_t *side = json_array_get(json_object_get(p, "sides"), 0);
    cr_expect_null(json_object_get(side, "played_points"));
    cr_expect_null(json_object_get(side, "total"));
    cr_expect_null(json_object_get(p, "final_left"));
    cr_expect_null(json_object_get(p, "next_collection"), "it is 3, the "
                                                          "obvious one");
    cr_expect_null(json_object_get(p, "final_choices"), "none sealed");
    json_decref(p);
    E->destroy(RS(s));
}

/* A referee may write hands, caches and collections in any order, and a
 * card by its bare name where any copy will do. */
Test(aq_position, any_order_and_bare_names_load_the_same_state)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    json_t *edited = json_deep_copy(p);
    json_t *hands = json_object_get(edited, "hands");
    /* seat 0's hand backwards */
    const char *mine = json_string_value(json_array_get(hands, 0));
    char reversed[256] = "";
    for (int i = 3; i >= 0; i--) {
        char *w = word_at(mine, i);
        strcat(reversed, w);
        strcat(reversed, i > 0 ? " " : "");
        free(w);
    }
    json_array_set_new(hands, 0, json_string(reversed));
    /* seat 1's amulet by its bare name: the one copy no token names */
    const char *theirs = json_string_value(json_array_get(hands, 1));
    cr_assert(strncmp(theirs, "green3.", 7) == 0, "%s", theirs);
    json_array_set_new(hands, 1, replace_word(theirs, 1, "amulet"));
    /* the cache as a list of strings, backwards */
    json_t *side = json_array_get(json_object_get(edited, "sides"), 1);
    json_t *cache = json_array();
    for (int i = 2; i >= 0; i--) {
        char *w = word_at(str_at(side, "cache"), i);
        json_array_append_new(cache, json_string(w));
        free(w);
    }
    json_object_set_new(side, "cache", cache);
    /* the collections newest first */
    json_t *colls = json_object_get(edited, "collections");
    json_t *first = json_incref(json_array_get(colls, 0));
    json_array_remove(colls, 0);
    json_array_append_new(colls, first);

    aq_state *loaded = load_ok(edited);
    json_t *again = E->save(RS(loaded));
    cr_expect(same_bytes(again, p), "the same position, written as save "
                                    "writes it");
    cr_expect_eq(loaded->played_points[0], 75, "worked out: 3 antiquities");
    cr_expect_eq(loaded->played_points[1], 100);
    json_decref(again);
    json_decref(edited);
    json_decref(p);
    E->destroy(RS(loaded));
    E->destroy(RS(s));
}

/* Totals, the seats owed a final turn and the next collection number
 * follow from the rest of the position. */
Test(aq_position, bookkeeping_is_worked_out_on_load)
{
    aq_state *s = fx_new(3, "{\"rounds\": 3}", AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1");
    fx_hand(s, 1, "crown crown");
    fx_hand(s, 2, "blue1");
    while (s->draw.count > 1)
        aq_pile_push(&s->character, aq_pile_pop(&s->draw));
    harness_apply_text(E, RS(s), 0, "draw"); /* round 1 ends */
    cr_assert_eq(s->round, 2);
    /* a lost shipment took the newest collection, 4 */
    fx_collection(s, 0, "red1 red2 red3");
    fx_collection(s, 1, "blue1 blue2 blue3");
    fx_collection(s, 2, "green1 green2 green3");
    s->next_id = 5;
    json_t *p = E->save(RS(s));
    json_t *round = json_array_get(json_object_get(p, "rounds_scored"), 0);
    cr_expect_null(json_object_get(
        json_array_get(json_object_get(round, "sides"), 1), "total"));
    cr_expect_eq(json_integer_value(json_object_get(p, "next_collection")), 5,
                 "written: it is not the obvious 4");
    aq_state *loaded = load_ok(p);
    cr_expect_eq(loaded->total[1], -100);
    cr_expect_eq(loaded->score[0][1].total, -100);
    cr_expect_eq(loaded->next_id, 5);
    cr_expect_eq(loaded->played_points[2], 75);
    json_object_del(p, "next_collection");
    aq_state *obvious = load_ok(p);
    cr_expect_eq(obvious->next_id, 4);
    json_decref(p);
    E->destroy(RS(obvious));
    E->destroy(RS(loaded));
    E->destroy(RS(s));
}

Test(aq_position, the_seats_owed_a_final_turn_follow_from_who_went_out)
{
    aq_state *s = fx_new(4, NULL, AQ_PHASE_PLAY);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, "red1 red2 red3 red4 red5");
    int last = fx_collection(s, 0, "blue1 blue2 blue3 blue4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "blue5");
    fx_hand(s, 1, "yellow1 yellow2");
    fx_hand(s, 2, "yellow3 yellow4");
    fx_hand(s, 3, "yellow5 green1");
    char add[32];
    snprintf(add, sizeof add, "add %d blue5", last);
    harness_apply_text(E, RS(s), 0, add);
    harness_apply_text(E, RS(s), 1, "draw");
    harness_apply_text(E, RS(s), 1, "discard yellow1");
    cr_assert_eq(s->final_left, (1u << 2) | (1u << 3));
    json_t *p = E->save(RS(s));
    aq_state *loaded = load_ok(p);
    cr_expect_eq(loaded->final_left, s->final_left);
    json_decref(p);
    E->destroy(RS(loaded));
    E->destroy(RS(s));
}

/* Sealed final plays are written in the notation's words and read back;
 * a bare name is a card of the seat's own hand. */
Test(aq_position, sealed_final_plays_round_trip_by_name)
{
    aq_state *s = fx_new(3, "{\"revoked_visas\": true}", AQ_PHASE_PLAY);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, "red1 red2 red3 red4 red5");
    int last = fx_collection(s, 0, "green1 green2 green3 green4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "green5");
    fx_hand(s, 1, "yellow1 yellow2 yellow3 crown");
    fx_hand(s, 2, "orange1 orange2");
    char add[32];
    snprintf(add, sizeof add, "add %d green5", last);
    harness_apply_text(E, RS(s), 0, add);
    harness_apply_text(E, RS(s), 1, "final play yellow1 yellow2 yellow3");
    json_t *p = E->save(RS(s));
    json_t *choices = json_object_get(p, "final_choices");
    cr_assert(json_is_null(json_array_get(choices, 2)));
    const char *cards =
        str_at(json_array_get(json_array_get(choices, 1), 0), "play");
    cr_assert_not_null(cards);
    cr_expect(strncmp(cards, "yellow1.", 8) == 0, "%s", cards);
    json_t *edited = json_deep_copy(p);
    json_array_set_new(json_object_get(edited, "final_choices"), 1,
                       json_pack("[{s:s}]", "play", "yellow1 yellow2 yellow3"));
    aq_state *loaded = load_ok(edited);
    json_t *again = E->save(RS(loaded));
    cr_expect(same_bytes(again, p));
    cr_expect_eq(loaded->final_left, 1u << 2, "seat 2 still chooses");
    json_array_set_new(json_object_get(edited, "final_choices"), 1,
                       json_pack("[{s:s}]", "play", "yellow1 orange1"));
    refused(edited, "final_choices[1][0].play[1]: hands[1] holds no other "
                    "orange1");
    json_decref(again);
    json_decref(edited);
    json_decref(p);
    E->destroy(RS(loaded));
    E->destroy(RS(s));
}

/* ---- refusals name the field and the value ------------------------------ */

Test(aq_position, an_unknown_card_is_named_with_its_place)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    char *fourth = word_at(str_at(p, "draw_pile"), 3);
    char with[64];
    snprintf(with, sizeof with, "B11 %s", fourth);
    json_object_set_new(p, "draw_pile",
                        replace_word(str_at(p, "draw_pile"), 3, with));
    refused(p, "draw_pile[3]: there is no card \"B11\"");
    free(fourth);
    json_decref(p);
    E->destroy(RS(s));
}

Test(aq_position, a_card_in_two_places_names_both)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    char *card = word_at(str_at(p, "draw_pile"), 42);
    char expected[160];
    snprintf(expected, sizeof expected,
             "discard_pile[2]: %s is also in draw_pile[42]", card);
    char pile[128];
    snprintf(pile, sizeof pile, "%s %s", str_at(p, "discard_pile"), card);
    json_object_set_new(p, "discard_pile", json_string(pile));
    refused(p, expected);
    free(card);
    json_decref(p);
    E->destroy(RS(s));
}

Test(aq_position, a_missing_card_is_named)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    char *card = word_at(str_at(p, "draw_pile"), 10);
    json_object_set_new(p, "draw_pile",
                        replace_word(str_at(p, "draw_pile"), 10, NULL));
    char expected[200];
    snprintf(expected, sizeof expected,
             "%s is in no place: each of the 217 cards must be somewhere "
             "(the draw pile holds the rest)",
             card);
    refused(p, expected);
    free(card);
    json_decref(p);
    E->destroy(RS(s));
}

Test(aq_position, a_bad_phase_is_named_with_the_phases_there_are)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    json_object_set_new(p, "phase", json_string("discard"));
    refused(p, "phase: there is no phase \"discard\" (draw, play, final or "
               "over)");
    json_decref(p);
    E->destroy(RS(s));
}

Test(aq_position, a_sixth_copy_by_name_is_refused)
{
    aq_state *s = table();
    json_t *p = E->save(RS(s));
    json_t *hands = json_object_get(p, "hands");
    char hand[128];
    snprintf(hand, sizeof hand, "%s red2",
             json_string_value(json_array_get(hands, 1)));
    json_array_set_new(hands, 1, json_string(hand));
    refused_starting(p, "hands[1][3]: \"red2\": all 5 red2 cards are already "
                        "placed (one is in ");
    json_decref(p);
    E->destroy(RS(s));
}

Test(aq_position, more_bad_edits_each_named)
{
    aq_state *s = table();
    json_t *good = E->save(RS(s));
    json_t *p = json_deep_copy(good);
    json_object_set_new(p, "turn", json_integer(7));
    refused(p, "turn: 7 is not a seat from 0 to 1");
    json_decref(p);

    p = json_deep_copy(good);
    json_object_set_new(p, "version", json_integer(1));
    refused(p, "version: 1 is not 2, the position format this engine reads");
    json_decref(p);

    p = json_deep_copy(good);
    json_object_set_new(json_array_get(json_object_get(p, "sides"), 0),
                        "played_points", json_integer(75));
    refused(p, "sides[0].played_points: leave it out: it follows from the "
               "rest of the position");
    json_decref(p);

    p = json_deep_copy(good);
    json_object_set_new(json_array_get(json_object_get(p, "sides"), 1),
                        "civilization", json_string("pink"));
    refused(p, "sides[1].civilization: \"pink\" is not a civilization "
               "(yellow, green, red, orange, blue, purple) or null");
    json_decref(p);

    p = json_deep_copy(good);
    json_object_del(p, "draw_pile");
    refused(p, "draw_pile: missing; it is a list of cards such as \"red2.4 "
               "crown.1\"");
    json_decref(p);

    p = json_deep_copy(good);
    json_object_set_new(p, "draw_pille", json_string(""));
    refused(p, "draw_pille: not part of an Antiquity Quest position");
    json_decref(p);

    /* collection 1 (red) takes collection 2's first card, an orange */
    p = json_deep_copy(good);
    json_t *colls = json_object_get(p, "collections");
    json_t *reds = json_array_get(colls, 0);
    json_t *oranges = json_array_get(colls, 1);
    char *orange = word_at(str_at(oranges, "cards"), 0);
    char cards[128];
    snprintf(cards, sizeof cards, "%s %s", str_at(reds, "cards"), orange);
    json_object_set_new(reds, "cards", json_string(cards));
    json_object_set_new(oranges, "cards",
                        replace_word(str_at(oranges, "cards"), 0, NULL));
    refused(p, "collections[0].cards: the antiquities in a collection must "
               "all be of the same civilization");
    free(orange);
    json_decref(p);

    p = json_deep_copy(good);
    json_object_set_new(json_array_get(json_object_get(p, "collections"), 1),
                        "id", json_integer(1));
    refused(p, "collections[1].id: 1 is also the number of collections[0]");
    json_decref(p);

    json_decref(good);
    E->destroy(RS(s));
}

/* ---- the README's worked example -------------------------------------------
 */

/* README "Position", "Worked example": Eliza (seat 1) asks whether seat 0
 * could have made her collection 2 Perfect by adding an orange3 instead of
 * the orange1. The referee edits two fields of the example position. */
Test(aq_position, worked_example_what_if_orange3)
{
    json_t *base = example("eliza_perfect_sabotaged_to_standard");
    json_t *edited = example("what_if_orange3");

    /* The edits, exactly as the README gives them. */
    json_t *by_hand = json_deep_copy(base);
    json_array_set_new(json_object_get(by_hand, "hands"), 0,
                       json_string("orange3 yellow2 yellow4"));
    /* Forgetting the draw pile: every orange3 is still placed there. */
    refused(by_hand, "hands[0][0]: \"orange3\": all 5 orange3 cards are "
                     "already placed (one is in draw_pile)");
    const char *draw = str_at(by_hand, "draw_pile");
    int at = 0;
    for (const char *w = draw; strncmp(w, "orange3.1 ", 10) != 0; at++)
        w = strchr(w, ' ') + 1;
    json_object_set_new(by_hand, "draw_pile",
                        replace_word(draw, at, "orange1.3"));
    cr_expect(same_bytes(by_hand, edited), "examples/what_if_orange3.json is "
                                           "the README's two edits");

    aq_state *s = load_ok(edited);
    harness_apply_text(E, RS(s), 0, "add 2 orange3");
    char *text = E->view_text(RS(s), 1);
    const char *outcome =
        "You (seat 1): empty cache; 1 collection, 1 complete.\n"
        "  2: orange1 orange2 orange5 orangeW orange3 (perfect orange, "
        "complete,\n"
        "    1000 points)\n";
    cr_expect_not_null(strstr(text, outcome), "%s", text);
    FILE *readme = fopen("rules/antiquity_quest/README.md", "r");
    cr_assert_not_null(readme);
    char doc[65536];
    size_t n = fread(doc, 1, sizeof doc - 1, readme);
    doc[n] = '\0';
    fclose(readme);
    cr_expect_not_null(strstr(doc, outcome), "the README shows the outcome "
                                             "as view_text writes it");
    cr_expect_not_null(strstr(doc, "\"orange3 yellow2 yellow4\""));
    free(text);
    E->destroy(RS(s));
    json_decref(by_hand);
    json_decref(edited);
    json_decref(base);
}
