/* The castle: exhibits, thieves, detectives and the prison, with the
 * rulebook's Lord X / Lord Y and detective-standing examples. */
#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "av_fixture.h"

static void all_go(av_state *s, const char *where)
{
    char move[32];
    snprintf(move, sizeof move, "go %s", where);
    for (int i = 0; i < s->seats; i++)
        harness_apply_text(&av_engine, (rules_state *)s, i, move);
}

/* Lord X (seat 0) AABBCC, Lord Y (seat 1) BBCDDDE, a thief (seat 2) at
 * Culloden Castle (3/2). Y shows only DDDE and keeps a six-card set. */
Test(av_castle, rulebook_lord_x_and_lord_y_exhibit)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 B1 B2 C1 C2", true);
    fixture_give(s, 1, "B3 B4 C3 D1 D2 D3 E1", true);
    fixture_give(s, 2, "F1", true);
    s->lord[2].pawn = 8; /* the leader stands in Culloden Castle */
    s->lord[0].pawn = s->lord[1].pawn = 2;
    cr_expect_str_eq(fixture_decision(s), "t1-location");
    all_go(s, "castle");
    cr_expect_str_eq(fixture_decision(s), "t1-action");
    const char *const actions[] = {"play exhibit", "play exhibit",
                                   "play thief 3"};
    fixture_all(s, actions);
    cr_expect_eq(s->phase, AV_PHASE_EXHIBIT);
    cr_expect_str_eq(fixture_decision(s), "t1-exhibit");
    const char *const sets[] = {"exhibit A1 A2 B1 B2 C1 C2",
                                "exhibit D1 D2 D3 E1", NULL};
    fixture_all(s, sets);
    cr_expect_eq(s->lord[0].pawn, 2 + 3, "Lord X wins the exhibit: +3");
    cr_expect_eq(s->lord[1].pawn, 2 + 2, "Lord Y is second: +2");
    cr_expect_eq(s->phase, AV_PHASE_STEAL);
    harness_reject_text(&av_engine, (rules_state *)s, 2, "steal B3",
                        "displayed exhibit");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "steal C1");
    harness_reject_text(&av_engine, (rules_state *)s, 2, "steal C2",
                        "not yet robbed");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "steal D1");
    /* no detective: the thief goes home with his loot */
    cr_expect_eq(s->phase, AV_PHASE_LOCATION);
    cr_expect_str_eq(fixture_decision(s), "t2-location");
    cr_expect_eq(s->lord[2].hand, fixture_cards("F1 C1 D1"));
    cr_expect_eq(s->lord[1].hand, fixture_cards("B3 B4 C3 D2 D3 E1"));
    cr_expect(av_set_valid(s->lord[1].hand), "Y keeps a six-card set");
    cr_expect_eq(s->prison[0], 0);
    av_engine.destroy((rules_state *)s);
}

Test(av_castle, highest_sack_steals_first_from_each_exhibit)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 A3", true);
    all_go(s, "castle");
    const char *const actions[] = {"play exhibit", "play thief 2",
                                   "play thief 8"};
    fixture_all(s, actions);
    harness_apply_text(&av_engine, (rules_state *)s, 0, "exhibit A1 A2 A3");
    rules_pending p;
    av_engine.pending((rules_state *)s, &p);
    cr_expect_eq(p.wait, RULES_WAIT_ONE);
    cr_expect_eq(p.seats, 1u << 2, "thief 8 chooses before thief 2");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "steal A1");
    av_engine.pending((rules_state *)s, &p);
    cr_expect_eq(p.seats, 1u << 1);
    harness_apply_text(&av_engine, (rules_state *)s, 1, "steal A3");
    cr_expect_eq(s->lord[0].hand, fixture_cards("A2"));
    av_engine.destroy((rules_state *)s);
}

/* Black 4th, Green & Yellow 3rd, Blue 2nd, Red 1st: successful detectives
 * advance Red 1, Blue 2, Green and Yellow 3, Black 4. */
Test(av_castle, rulebook_detective_standing)
{
    const int pawns[5] = {20, 15, 10, 10, 5}; /* Red Blue Green Yellow Black */
    for (int thief = 0; thief < 5; thief += 4) {
        av_state *s = fixture_new(5, NULL);
        for (int i = 0; i < 5; i++)
            s->lord[i].pawn = pawns[i];
        all_go(s, "castle");
        const char *moves[5];
        for (int i = 0; i < 5; i++)
            moves[i] = i == thief ? "play thief" : "play detective";
        fixture_all(s, moves);
        const int standing[5] = {1, 2, 3, 3, 4};
        for (int i = 0; i < 5; i++) {
            int want = pawns[i] + (i == thief ? 0 : standing[i]);
            cr_expect_eq(s->lord[i].pawn, want, "Lord %d: %d, not %d", i,
                         s->lord[i].pawn, want);
        }
        cr_expect_eq(s->prison[0], av_thief_sack(thief, 0));
        av_engine.destroy((rules_state *)s);
    }
}

Test(av_castle, detective_without_thieves_does_not_advance)
{
    av_state *s = fixture_new(3, NULL);
    all_go(s, "castle");
    const char *const moves[] = {"play detective", "play detective",
                                 "play detective"};
    fixture_all(s, moves);
    for (int i = 0; i < 3; i++)
        cr_expect_eq(s->lord[i].pawn, 0);
    av_engine.destroy((rules_state *)s);
}

Test(av_castle, caught_thieves_keep_their_loot_and_enter_lowest_sack_first)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "B1 B2 B3", true);
    all_go(s, "castle");
    const char *const actions[] = {"play exhibit", "play thief 7",
                                   "play thief 3"};
    fixture_all(s, actions);
    harness_apply_text(&av_engine, (rules_state *)s, 0, "exhibit B1 B2 B3");
    harness_apply_text(&av_engine, (rules_state *)s, 1, "steal B1");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "steal B2");
    /* no detective: both thieves go home */
    cr_expect_eq(s->prison[0], 0);
    cr_expect(s->lord[1].hand >> av_card_parse("B1") & 1);

    /* next turn Lord 0 sends his detective */
    all_go(s, "castle");
    const char *const next[] = {"play detective", "play thief 7",
                                "play thief 3"};
    fixture_all(s, next);
    /* thief 3 enters cell #1 first and is bumped on by thief 7 */
    cr_expect_eq(s->prison[0], 7);
    cr_expect_eq(s->prison[1], 3);
    cr_expect_eq(s->prison[2], 0);
    av_engine.destroy((rules_state *)s);
}

Test(av_castle, thief_released_when_caught_thieves_exceed_players)
{
    av_state *s = fixture_new(3, NULL);
    s->prison[0] = 8;
    s->prison[1] = 7;
    s->prison[2] = 6;
    all_go(s, "castle");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play thief 6",
                        "in prison");
    const char *const moves[] = {"play thief 1", "play detective",
                                 "play detective"};
    fixture_all(s, moves);
    cr_expect_eq(s->prison[0], 1);
    cr_expect_eq(s->prison[1], 8);
    cr_expect_eq(s->prison[2], 7);
    cr_expect(av_thief_free(s, 6), "the prisoner of cell #3 goes free");
    av_engine.destroy((rules_state *)s);
}

Test(av_castle, exhibitors_choose_after_seeing_the_thieves)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "C1 C2 C3 D1", true);
    all_go(s, "castle");
    const char *const actions[] = {"play exhibit", "play thief",
                                   "play thief"};
    fixture_all(s, actions);
    json_t *view = av_engine.view((rules_state *)s, 0);
    json_t *lords = json_object_get(view, "lords");
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(
                         json_array_get(lords, 1), "play"), "card")),
                     "thief");
    json_decref(view);
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit C1 C2",
                        "at least three");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit C1 C2 E1",
                        "own hand");
    av_engine.destroy((rules_state *)s);
}

/* Issue #22: "play thief" with both thieves in prison names the prison,
 * as "play thief 1" does, not a missing sack number. */
Test(av_castle, play_thief_with_both_thieves_in_prison_says_so)
{
    av_state *s = fixture_new(3, NULL);
    s->prison[0] = 6;
    s->prison[1] = 1;
    all_go(s, "castle");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play thief",
                        "both your thieves (1 and 6) are in prison");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play thief 1",
                        "your thief 1 is in prison");
    /* a free thief still has to be named in JSON, as before */
    json_t *unnamed = json_pack("{s:s,s:s}", "type", "play", "card", "thief");
    rules_error err = {{0}};
    cr_expect_not(av_engine.apply((rules_state *)s, 1, unnamed, &err));
    cr_expect(strstr(err.message, "sack number (2 or 7)") != NULL, "%s",
              err.message);
    json_decref(unnamed);
    harness_apply_text(&av_engine, (rules_state *)s, 1, "play thief");
    av_engine.destroy((rules_state *)s);
}
