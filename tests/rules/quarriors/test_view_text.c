/* view_text as a person reads it in a mail, on scripted positions: the
 * seat's own dice and bag, the table, the glory and whose turn it is,
 * with the notation's names; and what it keeps secret (another seat's
 * bag, a sealed defense order). The harness checks its shape (lines,
 * width, no control characters) after every random move. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "position.h"
#include "quarriors/quarriors.h"

/* Whether text holds line as one of its lines (paragraphs unwrapped). */
static bool has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; p != NULL && *p; ) {
        if (strncmp(p, line, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
            return true;
        p = strchr(p, '\n');
        if (p != NULL)
            p++;
    }
    return false;
}

#define expect_line(text, line) \
    cr_expect(has_line(text, line), "no line \"%s\" in:\n%s", line, text)

Test(qq_view_text, a_seat_reads_its_dice_the_table_and_whose_turn_it_is)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    rules_state *state = qq_test_load(snapshot);
    char *text = qq_engine.view_text(state, 0);
    cr_expect_str_eq(text,
        "You are seat 0.\n"
        "Turn 1: your turn (phase 2, then the attack).\n"
        "Waiting for you: summon, ready or use dice, then attack or quest.\n"
        "Glory (25 wins): seat 0 0 (you), seat 1 0.\n"
        "Your pool: 0 quiddity, 0 with quiddity dice; 1 capture left for "
        "phase 4.\n"
        "With 0 quiddity you can capture: nothing yet.\n"
        "Your bag: 12 dice (8 basic-quiddity, 4 assistant); Used Pile (0).\n"
        "Your Ready Area: 28 Deathdealer (level 2: attack 4, defense 4).\n"
        "Seat 1's bag: 12 dice; Used Pile (0).\n"
        "Quest Area: exqualibur, level 2, 3 glory, 2 quest dice on the card,\n"
        "  seat 1 quests with 27 Deathdealer (level 1: attack 3, defense 2).\n"
        "Wilds (cost, dice left): basic-quiddity 0 (0), assistant 1 (2),\n"
        "  portal 4 (5), squire 1 (5), growth-charm 5 (5), life-cantrip 3 (5),\n"
        "  victory-charm 5 (5), deathdealer 3 (3), strong-ghostly-spirit 4 (5),\n"
        "  witching-hag 5 (5), mighty-warrior-of-the-quay 4 (5),\n"
        "  mighty-questing-wizard 8 (5), quake-dragon 8 (5),\n"
        "  strong-scavenging-goblin 3 (5).\n"
        "Words: quiddity = what dice and spells pay with, to summon and to\n"
        "  capture; level = what summoning a creature costs; attack and defense =\n"
        "  the damage it deals and takes; Ready Area = creatures and spells\n"
        "  summoned; creatures there attack, and score at the start of their\n"
        "  player's next turn; Used Pile = dice that go back into the bag when it\n"
        "  runs out.\n");
    free(text);
    text = qq_test_text(state, 1);
    expect_line(text, "You are seat 1.");
    expect_line(text, "Turn 1: seat 0's turn (phase 2, then the attack).");
    expect_line(text, "Waiting for seat 0.");
    expect_line(text, "Seat 0's Ready Area: 28 Deathdealer (level 2: attack 4, defense 4).");
    expect_line(text, "Quest Area: exqualibur, level 2, 3 glory, 2 quest "
                      "dice on the card, you quest with 27 Deathdealer "
                      "(level 1: attack 3, defense 2).");
    free(text);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

Test(qq_view_text, the_active_pool_names_each_die_and_its_face)
{
    json_t *snapshot = qq_test_example("seizing_the_last_quest_die");
    rules_state *state = qq_test_seized(snapshot);
    char *text = qq_test_text(state, 0);
    /* dice as a player says them, not codes ("70 assistant (level 1
     * 1/2)", "71 assistant (reroll *)") */
    expect_line(text, "Your Active Pool: 62 Basic Quiddity (1 quiddity), "
                      "63 Basic Quiddity (1 quiddity), 70 Assistant (level "
                      "1: attack 1, defense 2), 71 Assistant (reroll, "
                      "burst), 72 Assistant (1 quiddity) and 73 Assistant "
                      "(1 quiddity).");
    expect_line(text, "Your pool: 0 quiddity, 4 with quiddity dice; 1 "
                      "capture left for phase 4.");
    expect_line(text, "Your bag: 6 dice (6 basic-quiddity); Used Pile (1): "
                      "1 deathdealer.");
    expect_line(text, "Seat 1's Quartifact: 98 Holy Quail (Quartifact Holy "
                      "Quail).");
    free(text);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* Seat 1's bag holds a Deathdealer: seat 1 reads it, nobody else does. */
Test(qq_view_text, another_seats_bag_stays_secret)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    qq_test_move(qq_test_dice(snapshot, -1, NULL), "29 deathdealer",
                 qq_test_dice(snapshot, 1, "bag"), "29 deathdealer");
    rules_state *state = qq_test_load(snapshot);
    char *own = qq_test_text(state, 1);
    expect_line(own, "Your bag: 13 dice (8 basic-quiddity, 4 assistant, 1 "
                     "deathdealer); Used Pile (0).");
    free(own);
    for (int seat = RULES_SPECTATOR; seat <= 0; seat++) {
        char *text = qq_test_text(state, seat);
        expect_line(text, "Seat 1's bag: 13 dice; Used Pile (0).");
        cr_expect_null(strstr(text, "29 deathdealer"), "%s", text);
        cr_expect_null(strstr(text, "1 deathdealer"), "%s", text);
        free(text);
    }
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* Two against two in a challenge: each side orders its defenders in
 * secret; the order is read only by the seat that chose it. */
Test(qq_view_text, a_sealed_defense_order_is_read_only_by_its_seat)
{
    json_t *snapshot = qq_test_two_against_two();
    rules_state *state = qq_test_load(snapshot);
    harness_apply_text(&qq_engine, state, 0, "challenge exqualibur 28 30");
    harness_apply_text(&qq_engine, state, 0, "defend 30 28");
    char *mine = qq_test_text(state, 0);
    expect_line(mine, "Turn 1: your turn (phase 3, a quest challenge).");
    expect_line(mine, "Waiting for seat 1.");
    expect_line(mine, "Challenge at exqualibur. You have chosen. Seat 1 has "
                      "not chosen. Your order: defend 30 28.");
    free(mine);
    for (int seat = RULES_SPECTATOR; seat <= 1; seat += 2) {
        char *text = qq_test_text(state, seat);
        expect_line(text, seat == 1
                    ? "Challenge at exqualibur. Seat 0 has chosen. You have "
                      "not chosen."
                    : "Challenge at exqualibur. Seat 0 has chosen. Seat 1 "
                      "has not chosen.");
        if (seat == 1)
            expect_line(text, "Waiting for you: order the defenders in the "
                              "quest challenge.");
        cr_expect_null(strstr(text, "defend 30 28"), "%s", text);
        cr_expect_null(strstr(text, "order: "), "%s", text);
        free(text);
    }
    qq_engine.destroy(state);
    json_decref(snapshot);
}

Test(qq_view_text, the_spectator_is_nobody_s_you)
{
    json_t *snapshot = qq_test_example("seizing_the_last_quest_die");
    rules_state *state = qq_test_load(snapshot);
    char *text = qq_test_text(state, RULES_SPECTATOR);
    cr_expect_null(strstr(text, "You"), "%s", text);
    cr_expect_null(strstr(text, "you"), "%s", text);
    expect_line(text, "Seat 1's Quartifact: 98 Holy Quail (Quartifact Holy "
                      "Quail).");
    expect_line(text, "Glory (19 wins): seat 0 0, seat 1 0, seat 2 0.");
    free(text);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* The text ends with a legend of the game's words it used, so a
 * newcomer reads what "quiddity", "level" or "burst" mean. */
Test(qq_view_text, the_text_ends_with_a_legend_of_its_words)
{
    json_t *snapshot = qq_test_example("seizing_the_last_quest_die");
    rules_state *state = qq_test_seized(snapshot);
    char *text = qq_test_text(state, 0);
    const char *legend = strstr(text, "\nWords: ");
    cr_assert_not_null(legend, "no legend in:\n%s", text);
    cr_expect_null(strchr(legend + 1, '\n')[1] == '\0' ? NULL : "more",
                   "the legend is the last paragraph:\n%s", text);
    cr_expect_not_null(strstr(legend, "quiddity = what dice and spells pay "
                                      "with, to summon and to capture"));
    cr_expect_not_null(strstr(legend, "burst, double burst = the star "
                                      "icons a card's power may ask for"));
    cr_expect_not_null(strstr(legend, "Active Pool = the dice rolled this "
                                      "turn"));
    free(text);
    qq_engine.destroy(state);
    json_decref(snapshot);
}
