/* The snapshot as the position a referee edits (README "Position
 * (snapshot)"): the worked example played, lists read in any order, names
 * in any spelling, what can be derived filled in, and the sentence of
 * each bad edit naming the field and the value. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "position.h"
#include "quarriors/qq_internal.h"
#include "quarriors/quarriors.h"
#include "wilds.h"

static char *bytes_of(const rules_state *state)
{
    json_t *snapshot = qq_engine.save(state);
    char *bytes = rules_sorted_json(snapshot);
    json_decref(snapshot);
    return bytes;
}

static json_t *saved(const rules_state *state)
{
    return qq_engine.save(state);
}

/* The README's worked example, as the file holds it. */
Test(qq_position, worked_example_both_creatures_fall_in_the_challenge)
{
    /* The file is the rulebook case with the one field the README edits. */
    json_t *edited = qq_test_example("challenge_where_both_creatures_fall");
    json_t *base = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_replace(qq_test_dice(base, 1, "quest"),
                    "27 deathdealer, level 1 3/2, at exqualibur",
                    "27 deathdealer, level 2 4/4, at exqualibur");
    cr_assert(json_equal(base, edited), "the example is the README's edit");

    rules_state *state = qq_test_load(edited);
    harness_apply_text(&qq_engine, state, 0, "challenge exqualibur 28");
    json_t *after = saved(state);
    json_t *used0 = qq_test_dice(after, 0, "used");
    json_t *used1 = qq_test_dice(after, 1, "used");
    cr_expect_eq(json_array_size(used0), 1);
    cr_expect_str_eq(json_string_value(json_array_get(used0, 0)),
                     "28 deathdealer", "the challenger fell too");
    cr_expect_eq(json_array_size(used1), 1);
    cr_expect_str_eq(json_string_value(json_array_get(used1, 0)),
                     "27 deathdealer", "the quester fell");
    json_t *glory = json_object_get(
        json_array_get(json_object_get(after, "players"), 0), "glory");
    cr_expect_eq(json_integer_value(json_object_get(glory, "challenges")), 1,
                 "1 glory for the creature the challenger destroyed");
    cr_expect_eq(json_array_size(qq_test_dice(after, 1, "quest")), 0);
    cr_expect_eq(json_array_size(qq_test_dice(after, 0, "quest")), 0,
                 "no takeover: nobody quests on Exqualibur");
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(after, "turn"), "phase")),
                     "capture");
    json_decref(after);
    qq_engine.destroy(state);
    json_decref(base);
    json_decref(edited);
}

static void reverse(json_t *list)
{
    size_t n = json_array_size(list);
    for (size_t i = 0; i < n / 2; i++) {
        json_t *a = json_incref(json_array_get(list, i));
        json_t *b = json_incref(json_array_get(list, n - 1 - i));
        json_array_set_new(list, i, b);
        json_array_set_new(list, n - 1 - i, a);
    }
}

Test(qq_position, dice_lists_in_any_order_load_to_the_same_position)
{
    json_t *snapshot = qq_test_example("seizing_the_last_quest_die");
    rules_state *state = qq_test_load(snapshot);
    char *canonical = bytes_of(state);
    reverse(qq_test_dice(snapshot, -1, NULL));
    for (int s = 0; s < 3; s++)
        reverse(qq_test_dice(snapshot, s, "bag"));
    rules_state *shuffled = qq_test_load(snapshot);
    char *again = bytes_of(shuffled);
    cr_expect_str_eq(again, canonical, "save writes die order");
    free(again);
    free(canonical);
    qq_engine.destroy(shuffled);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

Test(qq_position, names_are_read_in_any_case_and_with_underscores)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    rules_state *state = qq_test_load(snapshot);
    char *canonical = bytes_of(state);
    qq_test_replace(qq_test_dice(snapshot, 1, "quest"),
                    "27 deathdealer, level 1 3/2, at exqualibur",
                    "27 DeathDealer,  Level 1 3/2 ,at  Exqualibur");
    json_array_set_new(json_object_get(json_object_get(snapshot, "wilds"),
                                       "cards"), 12,
                       json_string("quake_dragon"));
    rules_state *spelled = qq_test_load(snapshot);
    char *again = bytes_of(spelled);
    cr_expect_str_eq(again, canonical);
    free(again);
    free(canonical);
    qq_engine.destroy(spelled);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* Totals, the goal and the seat count follow from the rest; counters
 * left out of the turn are those of a turn's start. */
Test(qq_position, what_can_be_derived_is_filled_in)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *player = json_array_get(json_object_get(snapshot, "players"), 1);
    json_object_set_new(player, "glory",
                        json_pack("{s:i,s:i}", "scoring", 5, "spells", 2));
    json_object_del(player, "spent");
    json_object_del(json_object_get(snapshot, "turn"), "captures_left");
    rules_state *state = qq_test_load(snapshot);
    const qq_state *st = (const qq_state *)state;
    cr_expect_eq(st->seats, 2);
    cr_expect_eq(st->goal, 25, "the goal of 2 seats with quests");
    cr_expect_eq(st->players[1].glory, 7, "the sum of its sources");
    cr_expect_eq(st->captures_left, 1, "a turn starts with one capture");
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* ---- bad edits: the field and the value named ---- */

Test(qq_position, an_unknown_card_is_named_with_its_place)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_replace(qq_test_dice(snapshot, 0, "bag"), "62 basic-quiddity",
                    "62 basic-quidity");
    qq_test_refused(snapshot, "players[0].bag[0]: there is no card "
                              "\"basic-quidity\" in the Wilds or the Quest "
                              "Area");
    json_decref(snapshot);
    snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_array_set_new(json_object_get(json_object_get(snapshot, "wilds"),
                                       "cards"), 7,
                       json_string("death-dealer"));
    qq_test_refused(snapshot,
                    "wilds.cards[7]: there is no card \"death-dealer\"");
    json_decref(snapshot);
}

Test(qq_position, a_die_in_two_places_is_refused)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_array_append_new(qq_test_dice(snapshot, 0, "used"),
                          json_string("28 deathdealer"));
    qq_test_refused(snapshot, "players[0].used[0]: die 28 is also in "
                              "players[0].ready[0]");
    json_decref(snapshot);
}

Test(qq_position, a_missing_die_is_refused)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_move(qq_test_dice(snapshot, -1, NULL), "29 deathdealer", NULL,
                 NULL);
    qq_test_refused(snapshot, "die 29 is in no place: the dice are "
                              "numbered from 0 to 86 and each is listed "
                              "once");
    json_decref(snapshot);
    /* The highest number left out leaves no gap; its card counts it. */
    snapshot = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_move(json_object_get(json_object_get(snapshot, "quest_area"),
                                 "dice"),
                 "87 exqualibur", NULL, NULL);
    qq_test_refused(snapshot, "exqualibur has 1 quest die, not 2");
    json_decref(snapshot);
    /* A die turned into another card's leaves its own card short. */
    snapshot = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_replace(qq_test_dice(snapshot, -1, NULL), "29 deathdealer",
                    "29 quake-dragon");
    qq_test_refused(snapshot, "deathdealer has 4 dice in the match, not 5");
    json_decref(snapshot);
}

Test(qq_position, a_bad_phase_name_lists_the_phases)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_object_set_new(json_object_get(snapshot, "turn"), "phase",
                        json_string("mian"));
    qq_test_refused(snapshot, "turn.phase: there is no phase \"mian\" (cull, "
                              "seize, special, main, defend, challenge, "
                              "takeover, capture, react, trigger, over, "
                              "first)");
    json_decref(snapshot);
}

Test(qq_position, faces_are_named_as_they_show_and_only_where_dice_show_one)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *ready = qq_test_dice(snapshot, 0, "ready");
    qq_test_replace(ready, "28 deathdealer, level 2 4/4",
                    "28 deathdealer, level 3 5/5");
    qq_test_refused(snapshot, "players[0].ready[0]: deathdealer has no face "
                              "\"level 3 5/5\"");
    qq_test_replace(ready, "28 deathdealer, level 3 5/5", "28 deathdealer");
    qq_test_refused(snapshot, "players[0].ready[0]: die 28 shows a face "
                              "here: write \"28 NAME, FACE\"");
    qq_test_move(ready, "28 deathdealer", qq_test_dice(snapshot, 0, "used"),
                 "28 deathdealer, level 2 4/4");
    qq_test_refused(snapshot, "players[0].used[0]: \"level 2 4/4\": dice in "
                              "the Used Pile show no face");
    json_decref(snapshot);
}

Test(qq_position, unknown_fields_and_old_formats_are_named)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_object_set_new(json_object_get(snapshot, "turn"), "quidity",
                        json_integer(3));
    qq_test_refused(snapshot, "turn.quidity: there is no such field");
    json_object_del(json_object_get(snapshot, "turn"), "quidity");
    qq_test_replace(qq_test_dice(snapshot, 1, "quest"),
                    "27 deathdealer, level 1 3/2, at exqualibur",
                    "27 deathdealer, level 1 3/2, asleep");
    qq_test_refused(snapshot, "players[1].quest[0]: \"asleep\" is not a mark "
                              "of a die (README, \"Snapshot\", lists them)");
    json_object_set_new(snapshot, "format", json_integer(2));
    qq_test_refused(snapshot, "format: this engine reads snapshots of "
                              "format 3");
    json_decref(snapshot);
}

/* Issue #22: check accepted two cards of one class in the Wilds. */
Test(qq_position, check_refuses_two_defenders_of_the_pale_in_the_wilds)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(5, seed);
    rules_error err = {{0}};
    qq_state *st = (qq_state *)qq_engine.setup(NULL, 2, seed, &err);
    cr_assert_not_null(st);
    cr_assert(qq_check(st, &err), "%s", err.message);
    int first = st->slot_count - 3;
    qq_test_put_card(st, first, "defender_of_the_pale");
    qq_test_put_card(st, first + 2, "mighty_scavenging_goblin");
    cr_assert(qq_check(st, &err), "%s", err.message);
    /* the second Defender of the Pale, beside the first */
    st->slots[first + 1].card = qq_card_find("mighty_defender_of_the_pale");
    cr_assert_not(qq_engine.check((rules_state *)st, &err));
    cr_expect_str_eq(err.message, "the Wilds hold two cards of the class "
                                  "Defender of the Pale "
                                  "(defender-of-the-pale and "
                                  "mighty-defender-of-the-pale); setup deals "
                                  "one card of each class");
    /* and so load refuses the position */
    json_t *snapshot = qq_engine.save((rules_state *)st);
    qq_test_refused(snapshot, err.message);
    json_decref(snapshot);
    qq_engine.destroy((rules_state *)st);
}

/* ---- issue #22: the quest die's roll is public ---- */

static void expect_roll_in_every_view(const rules_state *state, int seat,
                                      int die, int seized_from)
{
    const qq_state *st = (const qq_state *)state;
    for (int v = RULES_SPECTATOR; v < st->seats; v++) {
        json_t *view = qq_engine.view(state, v);
        json_t *roll = json_object_get(view, "last_quest_roll");
        cr_assert_not_null(roll, "view %d shows the roll", v);
        cr_expect_eq(json_integer_value(json_object_get(roll, "seat")), seat);
        cr_expect_eq(json_integer_value(json_object_get(roll, "die")), die);
        cr_expect_not_null(json_string_value(json_object_get(roll, "face")));
        cr_expect_not_null(
            json_string_value(json_object_get(roll, "reward")));
        json_t *from = json_object_get(roll, "seized_from");
        if (seized_from < 0)
            cr_expect_null(from);
        else
            cr_expect_eq(json_integer_value(from), seized_from);
        char *text = qq_engine.view_text(state, v);
        cr_expect_not_null(strstr(text, "Last quest roll: "),
                           "view_text %d:\n%s", v, text);
        free(text);
        json_decref(view);
    }
}

Test(qq_position, a_seized_quest_die_roll_is_shown_to_every_seat)
{
    json_t *snapshot = qq_test_example("seizing_the_last_quest_die");
    rules_state *state = qq_test_seized(snapshot);
    expect_roll_in_every_view(state, 0, 99, 2);
    char *text = qq_test_text(state, 1);
    cr_expect_not_null(strstr(text, "Last quest roll: seat 0 rolled 99 "
                                    "holy-quail (seized from seat 2) and "
                                    "got \""), "%s", text);
    free(text);
    text = qq_test_text(state, 0);
    cr_expect_not_null(strstr(text, "Last quest roll: you rolled 99 "),
                       "%s", text);
    free(text);
    /* the snapshot keeps it */
    json_t *again = qq_engine.save(state);
    json_t *roll = json_object_get(again, "last_quest_roll");
    cr_expect_eq(json_integer_value(json_object_get(roll, "seized_from")), 2);
    rules_state *loaded = qq_test_load(again);
    expect_roll_in_every_view(loaded, 0, 99, 2);
    qq_engine.destroy(loaded);
    json_decref(again);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

Test(qq_position, a_quest_die_rolled_from_its_card_is_shown_until_the_next)
{
    json_t *snapshot = qq_test_example("completing_a_quest_culls_per_creature");
    rules_state *state = qq_test_load(snapshot);
    harness_apply_text(&qq_engine, state, 1, "end");
    harness_apply_text(&qq_engine, state, 0, "cull 27");
    harness_apply_text(&qq_engine, state, 0, "cull 28");
    const qq_state *st = (const qq_state *)state;
    cr_assert_geq(st->last_roll.die, 0, "the quest die was rolled");
    int die = st->last_roll.die;
    expect_roll_in_every_view(state, 0, die, -1);
    json_decref(snapshot);
    qq_engine.destroy(state);
}
