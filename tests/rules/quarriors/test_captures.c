/* Captures, as the rulebook counts them (phase 4: "Capture One Quarry Die
 * From the Wilds"; a Squire adds one) and as the text tells them: the
 * quest's "?" reward is a free capture besides the one of phase 4, so a
 * player who takes it captures twice in the turn, and the text says why
 * (issue #43: "1 capture" stayed after `capture shaping-spell`). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "position.h"
#include "quarriors/quarriors.h"

static int dice_of_card(const rules_state *state, int seat, const char *card)
{
    json_t *snapshot = qq_engine.save(state);
    json_t *player =
        json_array_get(json_object_get(snapshot, "players"), (size_t)seat);
    int n = 0;
    const char *place;
    json_t *list;
    json_object_foreach(player, place, list)
    {
        size_t i;
        json_t *die;
        if (!json_is_array(list))
            continue;
        json_array_foreach(list, i, die)
        {
            const char *text = strchr(json_string_value(die), ' ') + 1;
            n += strncmp(text, card, strlen(card)) == 0 &&
                 (text[strlen(card)] == '\0' || text[strlen(card)] == ',');
        }
    }
    json_decref(snapshot);
    return n;
}

#define expect_text(text, words)                                               \
    cr_expect_not_null(strstr(text, words), "no \"%s\" in:\n%s", words, text)

Test(qq_captures, the_free_capture_of_the_reward_leaves_phase_4_its_own)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *turn = json_object_get(snapshot, "turn");
    json_object_set_new(turn, "phase", json_string("special"));
    json_object_set_new(turn, "quest_done", json_string("exqualibur"));
    json_object_set_new(turn, "quiddity", json_integer(3));
    rules_state *state = qq_test_load(snapshot);
    char *text = qq_test_text(state, 0);
    expect_text(text, "The \"?\" reward: capture a die costing up to 4 for "
                      "free, or pass. This capture is extra: the one of "
                      "phase 4 stays.");
    expect_text(text, "1 capture left for phase 4.");
    free(text);

    harness_apply_text(&qq_engine, state, 0, "capture life-cantrip");
    cr_expect_eq(dice_of_card(state, 0, "life-cantrip"), 1);
    text = qq_test_text(state, 0);
    expect_text(text, "1 capture left for phase 4.");
    free(text);

    /* phase 3, then the capture of phase 4, which ends the turn */
    harness_apply_text(&qq_engine, state, 0, "attack");
    harness_apply_text(&qq_engine, state, 0, "capture deathdealer");
    cr_expect_eq(dice_of_card(state, 0, "deathdealer"), 2,
                 "28 and the one captured");
    rules_pending p;
    qq_engine.pending(state, &p);
    cr_expect_eq(p.seats, 1u << 1, "one capture in phase 4 ends the turn");
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* What can be bought is said, by card and cost, for the quiddity in hand:
 * every card the Wilds have left at that cost or less. */
Test(qq_captures, the_text_says_what_the_quiddity_in_hand_captures)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_object_set_new(json_object_get(snapshot, "turn"), "quiddity",
                        json_integer(3));
    rules_state *state = qq_test_load(snapshot);
    char *text = qq_test_text(state, 0);
    expect_text(text, "With 3 quiddity you can capture: assistant (1), "
                      "squire (1), life-cantrip (3), deathdealer (3), "
                      "strong-scavenging-goblin (3).");
    free(text);
    text = qq_test_text(state, 1);
    expect_text(text, "With 3 quiddity seat 0 can capture: assistant (1), ");
    free(text);
    qq_engine.destroy(state);
    json_decref(snapshot);
}
