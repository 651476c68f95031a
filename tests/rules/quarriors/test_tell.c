/* tell: each kind of move told with what came of it, at known positions:
 * to the seat that moved in the second person, to the others by name,
 * and never what a seat may not see (a sealed order of defenders, a die
 * in a bag). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "position.h"
#include "quarriors/quarriors.h"

static const char *const names[] = {"Ann", "Bob", "Cid"};

/* Plays text for seat on state and returns what viewer is told (a new
 * string). */
static char *played(rules_state *state, int seat, const char *text, int viewer)
{
    rules_error err;
    json_t *action = qq_engine.parse_move(state, seat, text, &err);
    cr_assert_not_null(action, "%s", err.message);
    rules_state *before = qq_engine.clone(state);
    cr_assert(qq_engine.apply(state, seat, action, &err), "%s: %s", text,
              err.message);
    char *told =
        rules_tell(&qq_engine, before, state, seat, action, viewer, names);
    cr_expect_leq(strlen(told), 300, "%s", told);
    qq_engine.destroy(before);
    json_decref(action);
    return told;
}

/* Every viewer's sentence for the same move: seat 0, seat 1, public. */
static void expect_told(rules_state *state, int seat, const char *text,
                        const char *to_ann, const char *to_bob,
                        const char *to_public)
{
    const char *expected[] = {to_ann, to_bob, to_public};
    const int viewers[] = {0, 1, RULES_SPECTATOR};
    char *told[3];
    for (int i = 0; i < 3; i++) {
        rules_state *copy = qq_engine.clone(state);
        told[i] = played(copy, seat, text, viewers[i]);
        qq_engine.destroy(copy);
        cr_expect_str_eq(told[i], expected[i], "told to %d", viewers[i]);
        free(told[i]);
    }
    free(played(state, seat, text, 0));
}

static json_t *bob_has_a_deathdealer_ready(void)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_move(qq_test_dice(snapshot, -1, NULL), "29 deathdealer",
                 qq_test_dice(snapshot, 1, "ready"),
                 "29 deathdealer, level 1 3/2");
    json_object_set_new(json_object_get(snapshot, "turn"), "quiddity",
                        json_integer(3));
    return snapshot;
}

Test(qq_tell, an_attack_says_who_fell)
{
    json_t *snapshot = bob_has_a_deathdealer_ready();
    rules_state *state = qq_test_load(snapshot);
    expect_told(state, 0, "attack",
                "You attacked with Deathdealer (4). Bob's Deathdealer (2) "
                "was destroyed.",
                "Ann attacked with Deathdealer (4). Your Deathdealer (2) "
                "was destroyed.",
                "Ann attacked with Deathdealer (4). Bob's Deathdealer (2) "
                "was destroyed.");
    expect_told(state, 0, "capture deathdealer",
                "You captured a Deathdealer die, paying 3 quiddity. Now it is "
                "Bob's turn.",
                "Ann captured a Deathdealer die, paying 3 quiddity. Now it is "
                "your turn.",
                "Ann captured a Deathdealer die, paying 3 quiddity. Now it is "
                "Bob's turn.");
    qq_engine.destroy(state);
    json_decref(snapshot);
}

Test(qq_tell, a_challenge_scores_glory_for_each_creature_destroyed)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    rules_state *state = qq_test_load(snapshot);
    expect_told(
        state, 0, "challenge exqualibur 28",
        "You challenged Bob's band questing to Exqualibur with Deathdealer. "
        "Bob's Deathdealer (2) was destroyed. You gained 1 glory "
        "(1 in all).",
        "Ann challenged your band questing to Exqualibur with Deathdealer. "
        "Your Deathdealer (2) was destroyed. Ann gained 1 glory (1 "
        "in all).",
        "Ann challenged Bob's band questing to Exqualibur with Deathdealer. "
        "Bob's Deathdealer (2) was destroyed. Ann gained 1 glory (1 "
        "in all).");
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* A sealed order of defenders: the seat that chose it is told so; the
 * others learn that it chose, not what. */
Test(qq_tell, a_sealed_order_of_defenders_is_not_told)
{
    json_t *snapshot = qq_test_two_against_two();
    rules_state *state = qq_test_load(snapshot);
    harness_apply_text(&qq_engine, state, 0, "challenge exqualibur 28 30");
    expect_told(state, 0, "defend 30 28", "You chose your order of defenders.",
                "Ann chose an order of defenders, sealed until both sides "
                "have chosen.",
                "Ann chose an order of defenders, sealed until both sides "
                "have chosen.");
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* A summon and a reroll name the die's new face (the Active Pool and the
 * Ready Area are public); the quest's "?" capture is told as free. */
Test(qq_tell, summons_rerolls_and_the_free_capture)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *turn = json_object_get(snapshot, "turn");
    json_object_set_new(turn, "phase", json_string("special"));
    json_object_set_new(turn, "quest_done", json_string("exqualibur"));
    rules_state *state = qq_test_load(snapshot);
    expect_told(state, 0, "capture life-cantrip",
                "You captured a Life Cantrip die, free: a quest's \"?\" "
                "reward. You drew and rolled 6 dice.",
                "Ann captured a Life Cantrip die, free: a quest's \"?\" "
                "reward. Ann drew and rolled 6 dice.",
                "Ann captured a Life Cantrip die, free: a quest's \"?\" "
                "reward. Ann drew and rolled 6 dice.");
    json_decref(snapshot);
    snapshot = qq_engine.save(state);
    qq_engine.destroy(state);
    /* the six dice drawn are in the Active Pool: summon an Assistant
     * showing a creature when there is one */
    state = qq_test_load(snapshot);
    json_t *legal = qq_engine.legal(state, 0);
    size_t i;
    json_t *move;
    bool summoned = false;
    json_array_foreach(json_object_get(legal, "moves"), i, move)
    {
        const char *type = json_string_value(json_object_get(move, "type"));
        if (summoned || strcmp(type, "summon") != 0)
            continue;
        char *text = qq_engine.format_move(state, 0, move);
        char *told = played(state, 0, text, 1);
        cr_expect(strncmp(told, "Ann paid ", 9) == 0 &&
                      strstr(told, " to summon ") != NULL &&
                      strstr(told, "(level ") != NULL &&
                      strstr(told, "attack ") != NULL,
                  "%s", told);
        free(told);
        free(text);
        summoned = true;
    }
    cr_expect(summoned, "the dice drawn show a creature to summon");
    json_decref(legal);
    qq_engine.destroy(state);
    json_decref(snapshot);
}
