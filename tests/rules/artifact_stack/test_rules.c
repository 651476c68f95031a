/* The rulebook's actions and bonuses, each as a named scenario. */
#include <criterion/criterion.h>
#include <string.h>

#include "fixture.h"

#define BONUS "manuscripts,coins,weapons,jewelry,statues,relics"
#define SPECIAL "curses,treasures,manuscripts,relics,coins,monsters"

static const char *const TOP_AND_MIDDLE[] = {"2.0.0", "2.1.0", "2.2.0",
                                             "1.1.0", NULL};

static bool view_shows(const as_state *s, int seat, const char *card)
{
    json_t *view = as_engine.view((const rules_state *)s, seat);
    char *text = rules_sorted_json(view);
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", card);
    bool shown = strstr(text, quoted) != NULL;
    free(text);
    json_decref(view);
    return shown;
}

/* "As soon as you take your second manuscript card you may activate the
 * bonus to take one more action, or wait for a third manuscript to take 2
 * extra actions in a row." */
Test(as_rulebook, manuscript_example_second_manuscript_gives_an_action)
{
    as_state *s = fx_new(2, BONUS);
    fx_give(s, 0, "manuscripts4");
    fx_place(s, "2.0.0", "manuscripts5");
    fx_place(s, "2.1.0", "statues4");
    fx_do(s, 0, "take 2.0.0");
    cr_expect_eq(s->turn, 0, "the turn waits: the bonus may be activated");
    cr_expect_eq(s->actions, 0);
    fx_do(s, 0, "flip manuscripts 4 5");
    cr_expect_eq(s->actions, 1, "one more action");
    fx_do(s, 0, "take 2.1.0");
    cr_expect_eq(s->turn, 1, "the extra action used, the turn passes");
    as_engine.destroy((rules_state *)s);
}

Test(as_rulebook, manuscript_example_third_manuscript_gives_two_actions)
{
    as_state *s = fx_new(2, BONUS);
    fx_give(s, 0, "manuscripts4");
    fx_give(s, 0, "manuscripts5");
    fx_place(s, "2.0.0", "manuscripts6");
    fx_place(s, "2.1.0", "statues4");
    fx_place(s, "2.2.0", "statues5");
    fx_do(s, 0, "take 2.0.0");
    fx_do(s, 0, "flip manuscripts 4 5 6");
    cr_expect_eq(s->actions, 2, "two extra actions in a row");
    fx_do(s, 0, "take 2.1.0");
    cr_expect_eq(s->turn, 0);
    fx_do(s, 0, "take 2.2.0");
    cr_expect_eq(s->turn, 0, "two statues may still be locked as a set");
    fx_do(s, 0, "done");
    cr_expect_eq(s->turn, 1);
    as_engine.destroy((rules_state *)s);
}

Test(as_rulebook, manuscript_bonuses_chain)
{
    as_state *s = fx_new(2, BONUS);
    fx_give(s, 0, "manuscripts4");
    fx_give(s, 0, "manuscripts5");
    fx_give(s, 0, "manuscripts6");
    fx_place(s, "2.0.0", "manuscripts7");
    fx_place(s, "2.1.0", "statues4");
    fx_do(s, 0, "flip manuscripts 4 5");      /* before the action: 2 left */
    cr_expect_eq(s->actions, 2);
    fx_do(s, 0, "take 2.0.0");
    fx_do(s, 0, "flip manuscripts 6 7");      /* during the extra action */
    cr_expect_eq(s->actions, 2);
    fx_reject(s, 0, "flip manuscripts 5 6", "never reused");
    fx_do(s, 0, "take 2.1.0");
    fx_do(s, 0, "hire sculptor");
    cr_expect_eq(s->turn, 1);
    as_engine.destroy((rules_state *)s);
}

Test(as_actions, free_card_is_taken_for_nothing_covered_card_dug_out)
{
    as_state *s = fx_new(2, BONUS);
    fx_keep_only(s, TOP_AND_MIDDLE);
    fx_place(s, "1.1.0", "coins4");
    fx_reject(s, 0, "take 1.1.0", "covered by 2 cards");
    s->silver[0] = 1;
    s->bank++;
    fx_reject(s, 0, "dig 1.1.0", "costs 2 silver (1 per covering card) and "
                                 "you have 1");
    fx_reject(s, 0, "dig 2.0.0", "free");
    s->silver[0] = 2;
    s->bank--;
    int bank = s->bank;
    fx_do(s, 0, "dig 1.1.0");
    cr_expect_eq(s->silver[0], 0);
    cr_expect_eq(s->bank, bank + 2, "the silver goes to the bank");
    cr_expect_eq(s->owner[as_card_by_name("coins4")], 0);
    cr_expect_eq(s->turn, 1);
    fx_do(s, 1, "take 2.0.0");
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

Test(as_actions, peek_costs_1_silver_and_only_the_peeker_sees)
{
    as_state *s = fx_new(3, BONUS);
    fx_keep_only(s, TOP_AND_MIDDLE);
    fx_place(s, "1.1.0", "coins8");           /* cards 7-9 lie face down */
    fx_place(s, "2.0.0", "coins1");
    cr_expect(!view_shows(s, 0, "coins8"));
    fx_reject(s, 0, "peek 2.0.0", "face up");
    fx_do(s, 0, "peek 1.1.0");
    cr_expect_eq(s->silver[0], 1);
    cr_expect(view_shows(s, 0, "coins8"), "the peeker sees the card");
    cr_expect(!view_shows(s, 1, "coins8"), "another seat does not");
    cr_expect(!view_shows(s, RULES_SPECTATOR, "coins8"));
    fx_reject(s, 0, "peek 1.1.0", "already peeked");
    as_engine.destroy((rules_state *)s);
}

Test(as_actions, hire_an_assistant_for_1_silver)
{
    as_state *s = fx_new(2, BONUS);
    fx_reject(s, 0, "hire seer", "not in this match");
    s->bank += s->silver[0];
    s->silver[0] = 0;
    fx_reject(s, 0, "hire scribe", "costs 1 silver and you have 0");
    s->silver[0] = 1;
    s->bank--;
    fx_do(s, 0, "hire sculptor");
    cr_expect_eq(s->assistant_owner[as_assistant_by_name("sculptor")], 0);
    cr_expect_eq(s->silver[0], 0);
    cr_expect_eq(s->turn, 1, "hiring is the turn's action");
    fx_reject(s, 1, "hire sculptor", "already been hired");
    as_engine.destroy((rules_state *)s);
}

Test(as_bonus, coins_give_1_or_2_silver)
{
    as_state *s = fx_new(2, BONUS);
    for (int k = 4; k <= 8; k++) {
        char name[24];
        snprintf(name, sizeof name, "coins%d", k);
        fx_give(s, 0, name);
    }
    fx_do(s, 0, "flip coins 4 5");
    cr_expect_eq(s->silver[0], 3);
    fx_do(s, 0, "flip coins 6 7 8");
    cr_expect_eq(s->silver[0], 5);
    fx_give(s, 0, "coins9");
    fx_reject(s, 0, "flip coins 9", "2 or 3");
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

Test(as_bonus, weapons_steal_face_up_cards_from_one_or_two_players)
{
    as_state *s = fx_new(3, BONUS);
    fx_give(s, 0, "weapons4");
    fx_give(s, 0, "weapons5");
    fx_give(s, 0, "weapons6");
    fx_give(s, 1, "coins4");
    fx_give(s, 1, "coins5");
    fx_give(s, 1, "coins6");
    fx_give(s, 2, "relics4");
    s->turn = 1;
    fx_do(s, 1, "flip coins 5 6");
    s->turn = 0;
    fx_do(s, 0, "flip weapons 4 5 6");
    fx_reject(s, 0, "take 2.0.0", "steal");
    fx_reject(s, 0, "steal coins5", "face-up");
    fx_reject(s, 0, "steal weapons4", "another player");
    fx_do(s, 0, "steal coins4");
    fx_do(s, 0, "steal relics4");
    cr_expect_eq(s->owner[as_card_by_name("coins4")], 0);
    cr_expect_eq(s->owner[as_card_by_name("relics4")], 0);
    cr_expect_eq(s->task, AS_TASK_NONE);
    as_engine.destroy((rules_state *)s);
}

Test(as_bonus, weapons_steal_lapses_without_targets)
{
    as_state *s = fx_new(2, BONUS);
    fx_give(s, 0, "weapons4");
    fx_give(s, 0, "weapons5");
    fx_reject(s, 0, "flip weapons 4 5", "no other player");
    fx_give(s, 0, "weapons6");
    fx_give(s, 1, "coins4");
    fx_do(s, 0, "flip weapons 4 5 6");
    fx_do(s, 0, "steal coins4");
    cr_expect_eq(s->task, AS_TASK_NONE, "nothing left to steal");
    as_engine.destroy((rules_state *)s);
}

Test(as_bonus, jewelry_recruits_assistants)
{
    as_state *s = fx_new(2, BONUS);
    fx_give(s, 0, "jewelry4");
    fx_give(s, 0, "jewelry5");
    fx_give(s, 0, "jewelry6");
    int silver = s->silver[0];
    fx_do(s, 0, "flip jewelry 4 5 6");
    fx_do(s, 0, "recruit scribe");
    fx_reject(s, 0, "recruit scribe", "not waiting");
    fx_do(s, 0, "recruit banker");
    cr_expect_eq(s->silver[0], silver, "recruited assistants are free");
    cr_expect_eq(s->actions, 1, "recruiting is not the turn's action");
    as_engine.destroy((rules_state *)s);
}

static void take_curse(as_state *s, int seat, const char *curse)
{
    fx_place(s, "2.0.0", curse);
    char move[] = "take 2.0.0";
    fx_do(s, seat, move);
}

Test(as_curses, blessings_and_curses_resolve_at_once)
{
    as_state *s = fx_new(2, SPECIAL);
    take_curse(s, 0, "curses1");
    cr_expect_eq(s->silver[0], 4, "+2 silver");
    cr_expect(s->flipped[as_card_by_name("curses1")], "resolved: face down");
    take_curse(s, 1, "curses6");
    cr_expect_eq(s->silver[1], 0, "-2 silver");
    take_curse(s, 0, "curses3");
    cr_expect_eq(s->turn, 0, "a free extra action");
    take_curse(s, 0, "curses8");
    cr_expect_eq(s->skip[0], 1);
    take_curse(s, 1, "curses5");
    cr_expect_eq(s->silver[1], 0, "cannot lose silver you do not have");
    cr_expect_eq(s->turn, 1, "seat 0 loses its next action");
    cr_expect_eq(s->skip[0], 0);
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

Test(as_curses, give_and_discard_a_face_up_card)
{
    as_state *s = fx_new(3, SPECIAL);
    fx_give(s, 0, "coins4");
    fx_give(s, 0, "relics4");
    take_curse(s, 0, "curses7");
    fx_reject(s, 0, "give relics5", "not face up");
    fx_do(s, 0, "give coins4");
    cr_expect_eq(s->owner[as_card_by_name("coins4")], 1, "to the next player");
    take_curse(s, 1, "curses9");
    fx_do(s, 1, "discard coins4");
    cr_expect_eq(s->place[as_card_by_name("coins4")], AS_BOX);
    take_curse(s, 2, "curses4");
    fx_do(s, 2, "recruit scribe");
    cr_expect_eq(s->assistant_owner[as_assistant_by_name("scribe")], 2);
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

Test(as_round2, second_temple_reverses_order_and_last_player_starts)
{
    as_state *s = fx_new(3, BONUS);
    fx_keep_only(s, (const char *const[]){"2.0.0", NULL});
    fx_place(s, "2.0.0", "statues4");
    fx_do(s, 0, "hire sculptor");
    fx_do(s, 1, "take 2.0.0");
    cr_expect_eq(s->round, 2);
    int in_temple = 0, removed = 0;
    for (int c = 0; c < AS_CARDS; c++) {
        in_temple += s->place[c] == AS_IN_TEMPLE;
        removed += s->place[c] == AS_REMOVED;
    }
    cr_expect_eq(in_temple, 26);
    cr_expect_eq(removed, 2, "2 cards are left over");
    cr_expect_eq(s->turn, 2, "the last player of round 1 starts");
    fx_do(s, 2, "take 2.0.0");
    cr_expect_eq(s->turn, 1, "counter-clockwise");
    fx_do(s, 1, "take 2.1.0");
    cr_expect_eq(s->turn, 0, "round 1's start player is last");
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

Test(as_round2, game_ends_when_the_second_temple_is_empty)
{
    as_state *s = fx_new(2, BONUS);
    fx_keep_only(s, (const char *const[]){"2.0.0", NULL});
    fx_do(s, 0, "take 2.0.0");
    cr_expect_eq(s->round, 2);
    fx_keep_only(s, (const char *const[]){"2.0.0", NULL});
    fx_do(s, s->turn, "take 2.0.0");
    rules_pending p;
    as_engine.pending((const rules_state *)s, &p);
    if (p.wait != RULES_WAIT_NOBODY)
        fx_do(s, s->turn, "done");
    as_engine.pending((const rules_state *)s, &p);
    cr_expect_eq(p.wait, RULES_WAIT_NOBODY);
    json_t *result = as_engine.result((const rules_state *)s);
    cr_expect(json_is_true(json_object_get(result, "over")));
    json_decref(result);
    as_engine.destroy((rules_state *)s);
}

/* "Play continues until all cards of the first temple have been taken.
 * The first round is then over": an extra action left when the last card
 * goes is not played in round 1 (no hiring with it). */
Test(as_round2, first_round_is_over_when_its_last_card_is_taken)
{
    as_state *s = fx_new(2, BONUS);
    fx_keep_only(s, (const char *const[]){"2.0.0", NULL});
    fx_place(s, "2.0.0", "statues4");
    fx_give(s, 0, "manuscripts4");
    fx_give(s, 0, "manuscripts5");
    fx_do(s, 0, "flip manuscripts 4 5");
    cr_expect_eq(s->actions, 2);
    fx_do(s, 0, "take 2.0.0");
    cr_expect_eq(s->round, 2, "the first temple is empty: round 1 is over");
    cr_expect_eq(s->turn, 1, "the last player of round 1 starts round 2");
    cr_expect_eq(s->assistant_owner[as_assistant_by_name("sculptor")],
                 AS_POOL);
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

/* "As soon as all cards of the second temple are taken, the game ends": an
 * action left over cannot hire an assistant any more; a bonus of the last
 * turn may still be activated (RULING) but nothing else. */
Test(as_round2, no_action_after_the_second_temple_is_empty)
{
    as_state *s = fx_new(2, BONUS);
    fx_keep_only(s, (const char *const[]){"2.0.0", NULL});
    fx_do(s, 0, "take 2.0.0");
    cr_assert_eq(s->round, 2);
    cr_assert_eq(s->turn, 1);
    fx_keep_only(s, (const char *const[]){"2.0.0", NULL});
    fx_place(s, "2.0.0", "statues4");
    fx_give(s, 1, "manuscripts4");
    fx_give(s, 1, "manuscripts5");
    fx_give(s, 1, "coins4");
    fx_give(s, 1, "coins5");
    fx_do(s, 1, "flip manuscripts 4 5");
    fx_do(s, 1, "take 2.0.0");
    cr_expect_eq(s->actions, 1);
    fx_reject(s, 1, "hire sculptor", "temple is empty");
    s->assistant_owner[as_assistant_by_name("scribe")] = 1;
    fx_reject(s, 1, "use scribe", "would give nothing");
    fx_give(s, 1, "manuscripts6");
    fx_give(s, 1, "manuscripts7");
    fx_reject(s, 1, "flip manuscripts 6 7", "would give nothing");
    fx_do(s, 1, "flip coins 4 5");
    cr_expect(s->over, "nothing is left to do: the game is over");
    cr_expect_eq(s->assistant_owner[as_assistant_by_name("sculptor")],
                 AS_POOL);
    as_engine.destroy((rules_state *)s);
}

Test(as_assistants, each_ability_works_once)
{
    as_state *s = fx_new(2, "relics,manuscripts,weapons,coins,statues,treasures");
    const char *mine[] = {"digger", "scribe", "thief", "banker", "sculptor",
                          "cartographer"};
    for (int i = 0; i < 6; i++)
        s->assistant_owner[as_assistant_by_name(mine[i])] = 0;
    fx_keep_only(s, TOP_AND_MIDDLE);
    fx_place(s, "1.1.0", "relics8");
    fx_place(s, "2.0.0", "statues4");
    fx_give(s, 1, "coins4");
    fx_reject(s, 0, "use sculptor", "at the end");
    fx_reject(s, 0, "use digger", "dig L.C.R with digger");
    fx_do(s, 0, "peek 1.1.0 with cartographer");
    cr_expect_eq(s->silver[0], 2, "a free peek");
    fx_do(s, 0, "use banker");
    cr_expect_eq(s->silver[0], 4);
    fx_reject(s, 0, "use banker", "already used");
    fx_do(s, 0, "use thief");
    fx_do(s, 0, "steal coins4");
    fx_do(s, 0, "use scribe");
    cr_expect_eq(s->actions, 2);
    fx_do(s, 0, "dig 1.1.0 with digger");
    cr_expect_eq(s->silver[0], 4, "a free dig");
    fx_reject(s, 0, "dig 2.0.0 with digger", "already used");
    fx_do(s, 0, "take 2.0.0");
    cr_expect_eq(s->turn, 1);
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

Test(as_notation, email_words_parse)
{
    as_state *s = fx_new(2, BONUS);
    const char *pairs[][2] = {
        {"take 2.1", "{\"at\":\"2.1.0\",\"type\":\"take\"}"},
        {"Take 2.1.0", "{\"at\":\"2.1.0\",\"type\":\"take\"}"},
        {"dig 0.3.1", "{\"at\":\"0.3.1\",\"type\":\"dig\"}"},
        {"dig 0.3.1 with digger",
         "{\"assistant\":\"digger\",\"at\":\"0.3.1\",\"type\":\"dig\"}"},
        {"peek 0.2.0", "{\"at\":\"0.2.0\",\"type\":\"peek\"}"},
        {"hire scribe", "{\"assistant\":\"scribe\",\"type\":\"hire\"}"},
        {"flip coins 5 2", "{\"cards\":[2,5],\"stack\":\"coins\",\"type\":\"flip\"}"},
        {"steal relics4", "{\"card\":\"relics4\",\"type\":\"steal\"}"},
        {"done", "{\"type\":\"done\"}"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        rules_error err = {{0}};
        json_t *move = as_engine.parse_move((const rules_state *)s, 0,
                                            pairs[i][0], &err);
        cr_assert_not_null(move, "%s: %s", pairs[i][0], err.message);
        char *text = rules_sorted_json(move);
        cr_expect_str_eq(text, pairs[i][1]);
        free(text);
        json_decref(move);
    }
    const char *bad[] = {"take 3.0.0", "take 1.4.0", "dig", "flip coins 2 2",
                         "hire nobody", "jump 1", "take 2.1 with scribe"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rules_error err = {{0}};
        cr_expect_null(as_engine.parse_move((const rules_state *)s, 0, bad[i],
                                            &err), "%s parsed", bad[i]);
        cr_expect_neq(err.message[0], '\0');
    }
    as_engine.destroy((rules_state *)s);
}

Test(as_invariants, silver_and_cards_are_conserved)
{
    as_state *s = fx_new(4, SPECIAL);
    int silver = s->bank;
    int cards = 0;
    for (int p = 0; p < 4; p++)
        silver += s->silver[p];
    for (int c = 0; c < AS_CARDS; c++)
        cards += s->place[c] != AS_OUT;
    cr_expect_eq(silver, 40);
    cr_expect_eq(cards, 54);
    cr_expect_eq(s->bank, 32);
    s->bank--;
    rules_error err = {{0}};
    cr_expect(!as_engine.check((const rules_state *)s, &err));
    cr_expect_not_null(strstr(err.message, "silver"));
    as_engine.destroy((rules_state *)s);
}

Test(as_setup, options_and_seats)
{
    uint8_t seed[RULES_SEED_BYTES] = {1};
    rules_error err = {{0}};
    cr_expect_null(as_engine.setup(NULL, 5, seed, &err));
    json_t *bad = json_pack("{s:s}", "stacks", "coins,coins,relics,china,"
                                                "monsters,curses");
    cr_expect_null(as_engine.setup(bad, 2, seed, &err));
    json_decref(bad);
    bad = json_pack("{s:s}", "stacks", "coins,relics");
    cr_expect_null(as_engine.setup(bad, 2, seed, &err));
    cr_expect_not_null(strstr(err.message, "exactly 6"));
    json_decref(bad);
    rules_state *st = as_engine.setup(NULL, 3, seed, &err);
    as_state *s = (as_state *)st;
    int stacks = 0, assistants = 0, face_down = 0;
    for (int k = 0; k < AS_STACKS; k++)
        stacks += s->in_play[k];
    for (int a = 0; a < AS_ASSISTANTS; a++)
        assistants += s->assistant_owner[a] == AS_POOL;
    for (int i = 0; i < AS_TEMPLE; i++)
        face_down += as_data.covered[as_card_number(s->temple[i]) - 1];
    cr_expect_eq(stacks, 6);
    cr_expect_geq(assistants, 6, "the assistants of the 6 stacks");
    cr_expect_eq(s->stock_count, 28);
    cr_expect_eq(s->silver[2], 2);
    cr_expect_gt(face_down, 0);
    as_engine.destroy(st);
}
