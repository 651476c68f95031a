/* view_text: the view a person reads in a mail, on scripted positions:
 * the words a player reads, and nothing of another seat's hand. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

static char *text_of(const amt_state *s, int seat)
{
    return amt_engine.view_text((const rules_state *)s, seat);
}

/* The text holds line as one whole line. */
static void expect_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *at = strstr(text, line); at != NULL;
         at = strstr(at + 1, line)) {
        if ((at == text || at[-1] == '\n') && at[n] == '\n')
            return;
    }
    cr_assert_fail("no line \"%s\" in:\n%s", line, text);
}

/* Issue #24's table: seat 0 took the G10, discarded B8, seat 2 claimed
 * it; seat 1 is next. Seat 0 holds the only Y5s. */
static amt_state *b8_claimed(void)
{
    amt_state *s = amt_test_new(3, NULL);
    const char *const hands[] = {"B8 B1 B2 B3 R5 R6 R7 Y5s",
                                 "Y1 Y2 Y3 Y4 B9 B10 R10 W1-6",
                                 "G1 G2 G3 G4 Y8 Y9 B11 Y11"};
    amt_test_deal(s, hands, "G10", "R1", 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "discard B8");
    amt_test_do(s, 2, "claim");
    return s;
}

Test(amt_view_text, the_next_player_reads_the_claim_and_its_hand)
{
    amt_state *s = b8_claimed();
    char *text = text_of(s, 1);
    cr_assert_str_eq(
        text,
        "Another Man's Treasure, classic game: round 1 of 5, 8 cards dealt.\n"
        "Patterns this round: 2sets4, 2runs4, set4run4, run8, 4pairs.\n"
        "Draw pile: 120 cards. Discard pile: 1 card, B8 on top.\n"
        "Your turn: draw, or take B8.\n"
        "Seat 0 discarded B8. \"Can I have it?\" Until you draw, others may "
        "claim\n"
        "  it or pass (the first claimer after you gets it and a penalty "
        "card):\n"
        "  seat 2 claimed it, seat 0 has not answered.\n"
        "\n"
        "Your hand (8 cards): B9 B10 R10 Y1 Y2 Y3 Y4 W1-6\n"
        "Your open patterns: 2sets4, 2runs4, set4run4, run8, 4pairs.\n"
        "\n"
        "Table: no melds yet.\n"
        "\n"
        "Scores (lowest total wins):\n"
        "Seat 0: 0 points; 8 cards in hand; nothing marked.\n"
        "You (seat 1): 0 points; 8 cards in hand; nothing marked.\n"
        "Seat 2: 0 points; 8 cards in hand; nothing marked.\n"
        "\n"
        "Key: B, R, Y, G are blue, red, yellow, green; a final s marks a "
        "smiley\n"
        "  5, 6 or 7. W1-6 is a wild for 1-6. 2sets4 is 2 sets of 4; 2runs4 "
        "is 2\n"
        "  suited runs of 4; set4run4 is 1 set of 4 and 1 suited run of 4;\n"
        "  run8 is 1 suited run of 8; 4pairs is 4 suited pairs.\n");
    free(text);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_view_text, each_seat_reads_its_own_hand_and_no_other)
{
    amt_state *s = b8_claimed();
    char *mine = text_of(s, 0);
    expect_line(mine, "Your hand (8 cards): B1 B2 B3 R5 R6 R7 Y5s G10");
    expect_line(mine, "You (seat 0): 0 points; 8 cards in hand; nothing "
                      "marked.");
    cr_assert_not_null(strstr(mine, "You discarded B8."));
    char *claimer = text_of(s, 2);
    expect_line(claimer, "Your hand (8 cards): B11 Y8 Y9 Y11 G1 G2 G3 G4");
    cr_assert_not_null(strstr(claimer, "you claimed it, seat 0 has not "
                                       "answered."));
    char *public = text_of(s, RULES_SPECTATOR);
    cr_assert_null(strstr(public, "Your"), "a spectator has no hand");
    cr_assert_null(strstr(public, "You"));
    /* Y5s is in seat 0's hand only: no other text names it */
    cr_assert_null(strstr(claimer, "Y5s"));
    cr_assert_null(strstr(public, "Y5s"));
    char *next = text_of(s, 1);
    cr_assert_null(strstr(next, "Y5s"));
    /* the draw pile's order neither: R1 is its top card */
    cr_assert_null(strstr(public, "R1"));
    free(next);
    free(public);
    free(claimer);
    free(mine);
    amt_engine.destroy((rules_state *)s);
}

/* The rulebook's wild swap position: Player 1 (seat 0) has laid two runs
 * of 4, the wild standing for the yellow 8. */
Test(amt_view_text, melds_are_named_as_the_notation_names_them)
{
    amt_state *s = amt_test_new(2, NULL);
    const char *const hands[] = {"Y5 Y6 Y7 W1-11 Y1 Y2 Y3 Y4 B7",
                                 "Y8 B3 R3 G3 Y3 B10 R10 Y10 G10"};
    amt_test_deal(s, hands, "R2", "B11", 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2runs4 run:Y1,Y2,Y3,Y4 run:Y5,Y6,Y7,W1-11");
    amt_test_do(s, 0, "discard R2");
    char *theirs = text_of(s, 1);
    expect_line(theirs, "Table (meld P1.2 is seat 0's 2nd):");
    expect_line(theirs, "P1.1, seat 0's run: Y1 Y2 Y3 Y4");
    expect_line(theirs, "P1.2, seat 0's run: Y5 Y6 Y7 W1-11 (as Y8)");
    expect_line(theirs, "Your turn: draw, or take R2.");
    char *mine = text_of(s, 0);
    expect_line(mine, "P1.2, your run: Y5 Y6 Y7 W1-11 (as Y8)");
    expect_line(mine, "Your hand (1 card): B7");
    expect_line(mine, "You laid your pattern this round.");
    expect_line(mine, "You (seat 0): 0 points; 1 card in hand; marked "
                      "2runs4 (1 complete).");
    free(mine);
    free(theirs);
    amt_engine.destroy((rules_state *)s);
}

/* The round's end: seat 1 has sealed a set of 4, seat 2 still chooses;
 * only seat 1 reads its choice. */
Test(amt_view_text, a_sealed_choice_is_read_only_by_its_seat)
{
    amt_state *s = amt_test_new(3, NULL);
    const char *const hands[] = {"B4 R4 Y4 G4 B9 R9 Y9 G2",
                                 "B5 R5 Y5 G5 B1 R3 G7 Y11",
                                 "Y1 Y2 Y3 Y4 Y5 Y6 Y7 R8 R3"};
    amt_test_deal(s, hands, "G9", NULL, 0);
    amt_test_do(s, 0, "take");
    amt_test_do(s, 0, "pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9");
    amt_test_do(s, 0, "discard G2");
    amt_test_do(s, 1, "pattern 2sets4 set:B5,R5,Y5,G5");
    char *sealer = text_of(s, 1);
    expect_line(sealer, "Round 1 is over: seat 0 went out.");
    expect_line(sealer, "Your sealed choice: pattern 2sets4 set:B5,R5,Y5,G5");
    cr_assert_not_null(strstr(sealer, "you have chosen, seat 2 is choosing."));
    char *other = text_of(s, 2);
    expect_line(other, "You may lay cards for an open pattern, or pass.");
    cr_assert_not_null(strstr(other, "seat 1 has chosen, you are choosing."));
    cr_assert_null(strstr(other, "set:B5"), "the choice is sealed");
    char *public = text_of(s, RULES_SPECTATOR);
    cr_assert_null(strstr(public, "set:B5"));
    free(public);
    free(other);
    free(sealer);
    amt_engine.destroy((rules_state *)s);
}

Test(amt_view_text, the_game_over_gives_the_places)
{
    amt_state *s = amt_test_new(3, NULL);
    s->phase = AMT_PHASE_OVER;
    s->round = 4;
    const int totals[3] = {40, 25, 40};
    for (int p = 0; p < 3; p++) {
        s->players[p].round_score[0] = totals[p] - 5;
        s->players[p].round_score[4] = 5;
        s->players[p].total = totals[p];
        s->players[p].used = 1u << AMT_P_RUN8;
        s->players[p].completed = 1;
    }
    rules_error err = {{0}};
    cr_assert(amt_engine.check((rules_state *)s, &err), "%s", err.message);
    char *text = text_of(s, 2);
    expect_line(text, "The game is over after round 5.");
    expect_line(text, "Places: 1. seat 1 (25 points); 2. seat 0, you "
                      "(40 points).");
    /* the score sheet's rounds, and the tie-break's count on the next
     * line */
    expect_line(text, "Seat 1: 25 points (20+0+0+0+5); 8 cards in hand; "
                      "marked run8");
    expect_line(text, "  (1 complete).");
    free(text);
    amt_engine.destroy((rules_state *)s);
}
