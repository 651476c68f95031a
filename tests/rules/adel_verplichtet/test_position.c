/* The position (save/load) as a referee edits it by hand: the README's
 * worked example, lists in any order, derived fields left out, and an
 * error naming the field and the value for each bad edit. */
#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "av_fixture.h"

#define EXAMPLES "rules/adel_verplichtet/examples/"

/* An example position without its "note" (the suite runs from the
 * repository root). */
static json_t *example(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, EXAMPLES "%s.json", name);
    json_error_t jerr;
    json_t *position = json_load_file(path, 0, &jerr);
    cr_assert_not_null(position, "%s: %s", path, jerr.text);
    json_object_del(position, "note");
    return position;
}

/* What `pbem rules adel_verplichtet new --seats 3 --seed 2a` saves. */
static json_t *saved_start(void)
{
    uint8_t seed[RULES_SEED_BYTES] = {0x2a};
    rules_error err = {{0}};
    rules_state *s = av_engine.setup(NULL, 3, seed, &err);
    cr_assert_not_null(s, "%s", err.message);
    json_t *saved = av_engine.save(s);
    av_engine.destroy(s);
    return saved;
}

static json_t *lord(json_t *position, int seat)
{
    return json_array_get(json_object_get(position, "lords"), (size_t)seat);
}

static void set(json_t *object, const char *key, json_t *value)
{
    cr_assert_eq(json_object_set_new(object, key, value), 0);
}

static rules_state *load(const json_t *position)
{
    rules_error err = {{0}};
    rules_state *s = av_engine.load(position, &err);
    cr_assert_not_null(s, "refused: %s", err.message);
    return s;
}

static void expect_same_position(const json_t *a, const json_t *b)
{
    char *x = rules_sorted_json(a), *y = rules_sorted_json(b);
    cr_expect_str_eq(x, y);
    free(x);
    free(y);
}

/* load refuses position with exactly message. Takes position. */
static void expect_refused(json_t *position, const char *message)
{
    rules_error err = {{0}};
    rules_state *s = av_engine.load(position, &err);
    cr_expect_null(s, "accepted; expected \"%s\"", message);
    if (s != NULL)
        av_engine.destroy(s);
    cr_expect_str_eq(err.message, message);
    json_decref(position);
}

/* README.md, "Worked example: who leaves a full prison?" */
Test(av_position, worked_example_full_prison_releases_a_thief)
{
    json_t *edited = saved_start();
    set(edited, "phase", json_string("action"));
    for (int seat = 0; seat < 3; seat++)
        set(lord(edited, seat), "location", json_string("castle"));
    set(lord(edited, 0), "sealed", json_string("play detective"));
    set(lord(edited, 2), "sealed", json_string("play detective"));
    set(edited, "prison", json_pack("[i,i,i]", 3, 1, 6));
    json_t *file = example("full_prison_releases_a_thief");
    expect_same_position(edited, file);

    rules_state *s = load(file);
    harness_apply_text(&av_engine, s, 1, "play thief");
    json_t *after = av_engine.save(s);
    json_t *prison = json_pack("[i,i,i]", 2, 3, 1);
    cr_expect(json_equal(json_object_get(after, "prison"), prison),
              "thief 2 enters cell #1 and thief 6 leaves cell #3");
    json_decref(prison);
    const int pawns[] = {1, 0, 1};
    for (int seat = 0; seat < 3; seat++)
        cr_expect_eq(json_integer_value(json_object_get(lord(after, seat),
                                                        "pawn")),
                     pawns[seat], "seat %d", seat);
    cr_expect_str_eq(json_string_value(json_object_get(after, "phase")),
                     "location");
    /* next turn seat 0's "play thief" is thief 6 again */
    harness_apply_text(&av_engine, s, 0, "go castle");
    harness_apply_text(&av_engine, s, 1, "go castle");
    harness_apply_text(&av_engine, s, 2, "go castle");
    rules_error err = {{0}};
    json_t *thief = av_engine.parse_move(s, 0, "play thief", &err);
    cr_expect_eq(json_integer_value(json_object_get(thief, "sack")), 6);
    json_decref(thief);
    json_decref(after);
    json_decref(file);
    json_decref(edited);
    av_engine.destroy(s);
}

/* The auction winner takes the first face-up card, if he may choose. */
static void take_if_offered(av_state *s)
{
    if (s->phase != AV_PHASE_TAKE)
        return;
    json_t *legal = av_engine.legal((rules_state *)s, s->auction_winner);
    rules_error err = {{0}};
    cr_assert(av_engine.apply((rules_state *)s, s->auction_winner,
                              json_array_get(json_object_get(legal, "moves"),
                                             0), &err), "%s", err.message);
    json_decref(legal);
}

/* Two turns into a five-Lord match: seat 1's thief has stolen seat 0's
 * check of 17000, seat 2's check of 8200 has left the game. */
static json_t *played_position(void)
{
    av_state *s = fixture_new(5, NULL);
    fixture_all(s, (const char *const[]){"go auction", "go auction",
                                         "go castle", "go castle",
                                         "go castle"});
    fixture_all(s, (const char *const[]){"play check 17000", "play thief 2",
                                         "play detective", "play detective",
                                         "play detective"});
    take_if_offered(s);
    fixture_all(s, (const char *const[]){"go castle", "go castle",
                                         "go auction", "go castle",
                                         "go castle"});
    fixture_all(s, (const char *const[]){"play detective", "play detective",
                                         "play check 8200", "play detective",
                                         "play detective"});
    take_if_offered(s);
    json_t *saved = av_engine.save((rules_state *)s);
    av_engine.destroy((rules_state *)s);
    return saved;
}

static void reverse(json_t *array)
{
    size_t n = json_array_size(array);
    for (size_t i = 0; i < n / 2; i++) {
        json_t *a = json_incref(json_array_get(array, i));
        json_t *b = json_incref(json_array_get(array, n - 1 - i));
        json_array_set_new(array, i, b);
        json_array_set_new(array, n - 1 - i, a);
    }
}

Test(av_position, hands_and_checks_load_in_any_order)
{
    json_t *saved = played_position();
    json_t *checks = json_object_get(lord(saved, 1), "checks");
    cr_assert_eq(json_integer_value(json_array_get(checks, 4)), 17000,
                 "seat 1 holds the check his thief stole");
    cr_assert_eq(json_integer_value(json_array_get(
                     json_object_get(saved, "checks_out_of_play"), 0)),
                 8200);
    json_t *edited = json_deep_copy(saved);
    for (int seat = 0; seat < 5; seat++) {
        reverse(json_object_get(lord(edited, seat), "hand"));
        reverse(json_object_get(lord(edited, seat), "checks"));
    }
    rules_state *s = load(edited);
    json_t *again = av_engine.save(s);
    expect_same_position(again, saved);
    json_decref(again);
    json_decref(edited);
    json_decref(saved);
    av_engine.destroy(s);
}

Test(av_position, derived_and_empty_fields_may_be_left_out)
{
    json_t *saved = played_position();
    json_t *edited = json_deep_copy(saved);
    json_object_del(edited, "seats");
    json_object_del(edited, "variant");
    json_object_del(edited, "checks_out_of_play");
    json_object_del(edited, "log");
    static const char *const optional[] = {"location", "play", "sealed",
                                           "display", "robbed", "final_set"};
    for (int seat = 0; seat < 5; seat++) {
        for (size_t f = 0; f < sizeof optional / sizeof optional[0]; f++) {
            json_t *value = json_object_get(lord(edited, seat), optional[f]);
            if (json_is_null(value) ||
                (json_is_array(value) && json_array_size(value) == 0))
                json_object_del(lord(edited, seat), optional[f]);
        }
    }
    rules_state *s = load(edited);
    json_t *again = av_engine.save(s);
    json_object_set(again, "log", json_object_get(saved, "log"));
    expect_same_position(again, saved);
    json_decref(again);
    json_decref(edited);
    json_decref(saved);
    av_engine.destroy(s);
}

/* The auction winner is not written: in "take" it is the Lord at the
 * auction house whose check is the highest. */
Test(av_position, the_auction_winner_is_derived)
{
    av_state *s = fixture_new(3, NULL);
    fixture_all(s, (const char *const[]){"go auction", "go auction",
                                         "go castle"});
    fixture_all(s, (const char *const[]){"play check 8000",
                                         "play check 11100",
                                         "play detective"});
    cr_assert_eq(s->phase, AV_PHASE_TAKE);
    json_t *saved = av_engine.save((rules_state *)s);
    cr_expect_null(json_object_get(saved, "auction_winner"));
    rules_state *loaded = load(saved);
    rules_pending p;
    av_engine.pending(loaded, &p);
    cr_expect_eq(p.seats, 1u << 1, "seat 1's 11100 beat 8000");
    set(lord(saved, 1), "play", json_string("check 8300"));
    expect_refused(json_deep_copy(saved),
                   "lords[1].play: there is no check of 8300 with 3 Lords");
    set(lord(saved, 1), "location", json_string("castle"));
    set(lord(saved, 1), "play", json_string("detective"));
    set(lord(saved, 0), "play", json_string("thief 1"));
    expect_refused(saved, "phase: \"take\" needs a Lord whose check won at "
                          "the auction house (location \"auction\", play "
                          "\"check VALUE\")");
    av_engine.destroy(loaded);
    av_engine.destroy((rules_state *)s);
}

Test(av_position, a_bad_edit_is_named_with_its_field_and_value)
{
    json_t *p = saved_start();
    json_array_set_new(json_object_get(lord(p, 1), "hand"), 2,
                       json_string("B11"));
    expect_refused(p, "lords[1].hand[2]: there is no card \"B11\" (A1-A8, "
                      "B1-B8, C1-C8, D1-D7, E1-E7, F1-F7)");

    p = saved_start(); /* seat 0 holds A6 B6 C8 D2 */
    json_array_insert_new(json_array_get(json_object_get(p, "auction_piles"),
                                         0), 4, json_string("B6"));
    expect_refused(p, "auction_piles[0][4]: B6 is also in lords[0].hand[1]");

    p = saved_start(); /* the bottom card of the second pile is C3 */
    json_t *pile = json_array_get(json_object_get(p, "auction_piles"), 1);
    json_array_remove(pile, json_array_size(pile) - 1);
    expect_refused(p, "card C3 is missing: each of the 45 cards is in one "
                      "hand, display or auction pile");

    p = saved_start();
    set(p, "phase", json_string("bidding"));
    expect_refused(p, "phase: there is no phase \"bidding\" (location, "
                      "action, plan, take, exhibit, steal, final or over)");

    p = saved_start();
    json_array_append_new(json_object_get(lord(p, 1), "checks"),
                          json_integer(8000));
    expect_refused(p, "lords[1].checks[4]: check 8000 is also in "
                      "lords[0].checks[0]");

    p = saved_start();
    json_array_remove(json_object_get(lord(p, 2), "checks"), 0);
    set(p, "checks_out_of_play", json_array());
    expect_refused(p, "checks_out_of_play: check 8200 is in no Lord's checks "
                      "and not here");

    p = saved_start();
    set(p, "prison", json_pack("[i]", 4));
    expect_refused(p, "prison[0]: there is no thief 4 with 3 Lords (sacks "
                      "1-3 and 6-8)");

    p = saved_start();
    set(lord(p, 0), "sealed", json_string("play detective"));
    expect_refused(p, "lords[0].sealed: \"play detective\" is not a choice "
                      "of the location phase (write \"go castle\")");

    p = saved_start();
    set(p, "phase", json_string("action"));
    for (int seat = 0; seat < 3; seat++)
        set(lord(p, seat), "location", json_string("auction"));
    set(lord(p, 2), "sealed", json_string("play check 9000"));
    expect_refused(p, "lords[2].sealed: \"play check 9000\" breaks a rule: "
                      "you do not hold a check of 9000");

    p = saved_start();
    set(lord(p, 1), "pawn", json_string("12"));
    expect_refused(p, "lords[1].pawn: \"12\" is not a space (a whole number "
                      "from 0 to 200)");

    p = saved_start();
    json_object_set(p, "piles", json_object_get(p, "auction_piles"));
    json_object_del(p, "auction_piles");
    expect_refused(p, "unknown field \"piles\"");
}

/* Loads position after one edit: refused with a sentence, or accepted
 * with every invariant and a position that saves again. */
static void load_edit(json_t *root, const char *what)
{
    rules_error err = {{0}};
    rules_state *s = av_engine.load(root, &err);
    if (s == NULL) {
        cr_assert_neq(err.message[0], '\0', "%s: refused without a word",
                      what);
        return;
    }
    cr_assert(av_engine.check(s, &err), "%s: %s", what, err.message);
    json_t *again = av_engine.save(s);
    rules_state *back = av_engine.load(again, &err);
    cr_assert_not_null(back, "%s: its save does not load: %s", what,
                       err.message);
    av_engine.destroy(back);
    json_decref(again);
    av_engine.destroy(s);
}

/* Every field and list item of the position, in turn, replaced by values
 * of every kind or removed. */
static void edit_everywhere(json_t *root, json_t *node, int depth)
{
    json_t *strange[] = {
        json_null(), json_true(), json_integer(-1), json_integer(0),
        json_integer(7), json_integer(99999999999LL), json_real(1.5),
        json_string(""), json_string("A1"), json_string("castle"),
        json_string("play thief"), json_array(), json_object(),
    };
    size_t kinds = sizeof strange / sizeof strange[0];
    if (json_is_object(node)) {
        /* the keys first: removing one and setting it again moves it */
        const char *keys[32];
        size_t count = 0;
        const char *key;
        json_t *value;
        json_object_foreach(node, key, value) {
            if (count < 32)
                keys[count++] = key;
        }
        for (size_t n = 0; n < count; n++) {
            char name[64];
            snprintf(name, sizeof name, "%s", keys[n]);
            key = name;
            json_t *kept = json_incref(json_object_get(node, key));
            for (size_t k = 0; k < kinds; k++) {
                json_object_set(node, key, strange[k]);
                load_edit(root, key);
            }
            json_object_del(node, key);
            load_edit(root, key);
            json_object_set_new(node, key, kept);
            if (depth < 4)
                edit_everywhere(root, kept, depth + 1);
        }
    } else if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node); i++) {
            json_t *kept = json_incref(json_array_get(node, i));
            for (size_t k = 0; k < kinds; k++) {
                json_array_set(node, i, strange[k]);
                load_edit(root, "an item");
            }
            json_array_remove(node, i);
            load_edit(root, "an item removed");
            json_array_insert_new(node, i, kept);
            if (depth < 4)
                edit_everywhere(root, kept, depth + 1);
        }
    }
    for (size_t k = 0; k < kinds; k++)
        json_decref(strange[k]);
}

Test(av_position, hostile_edits_are_refused_or_load_whole, .timeout = 120)
{
    json_t *start = saved_start();
    edit_everywhere(start, start, 0);
    json_decref(start);
    json_t *played = played_position();
    edit_everywhere(played, played, 0);
    json_decref(played);
    json_t *prison = example("full_prison_releases_a_thief");
    edit_everywhere(prison, prison, 0);
    json_decref(prison);
}
