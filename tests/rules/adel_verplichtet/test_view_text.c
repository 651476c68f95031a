/* The text view (view_text) as a Lord reads it in a mail: his hand, the
 * table, the scores and whose move it is, with cards, checks, thieves and
 * moves named as the notation names them, and nothing of what is hidden
 * from him. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <string.h>

#include "../harness.h"
#include "av_fixture.h"

static char *text_of(const av_state *s, int seat)
{
    char *text = av_engine.view_text((const rules_state *)s, seat);
    cr_assert_not_null(text);
    return text;
}

/* Asserts that text holds line as one whole line. */
static void expect_line(const char *text, const char *line)
{
    size_t length = strlen(line);
    for (const char *at = strstr(text, line); at != NULL;
         at = strstr(at + 1, line)) {
        if ((at == text || at[-1] == '\n') && at[length] == '\n')
            return;
    }
    cr_expect_fail("no line \"%s\" in:\n%s", line, text);
}

/* Whether text names word as a whole word (card names such as "B2"). */
static bool names_word(const char *text, const char *word)
{
    size_t length = strlen(word);
    for (const char *at = strstr(text, word); at != NULL;
         at = strstr(at + 1, word)) {
        bool starts = at == text || !isalnum((unsigned char)at[-1]);
        bool ends = !isalnum((unsigned char)at[length]);
        if (starts && ends)
            return true;
    }
    return false;
}

static void all_go_castle(av_state *s)
{
    for (int i = 0; i < s->seats; i++)
        harness_apply_text(&av_engine, (rules_state *)s, i, "go castle");
}

/* The rulebook's Lord X (seat 0) and Lord Y (seat 1) at Culloden Castle,
 * with seat 2's thief 3 about to steal; seat 0's thief 6 is in prison. */
static av_state *culloden(void)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 B1 B2 C1 C2", true);
    fixture_give(s, 1, "B3 B4 C3 D1 D2 D3 E1", true);
    fixture_give(s, 2, "F1", true);
    s->lord[2].pawn = 8;
    s->lord[0].pawn = s->lord[1].pawn = 2;
    s->prison[0] = 6;
    return s;
}

Test(av_view_text, a_lord_reads_his_hand_the_table_and_his_move)
{
    av_state *s = culloden();
    char *text = text_of(s, 0);
    expect_line(text, "Turn 1: every Lord chooses in secret where he goes.");
    expect_line(text, "Waiting for seat 0 (you), seat 1 and seat 2.");
    expect_line(text, "It is your move.");
    expect_line(text, "Your hand: A1 A2 B1 B2 C1 C2");
    expect_line(text, "Your checks: 8000 11000 14000 17000");
    expect_line(text, "Your thief: 1 (thief 6 is in prison)");
    expect_line(text, "seat 0 (you): space 2");
    expect_line(text, "seat 1: space 2, 7 cards, checks 8100 11100 13900 "
                      "16900, thieves 2 7");
    expect_line(text, "seat 2: space 8, 1 card, checks 8200 11200 13800 "
                      "16800, thieves 3 8");
    expect_line(text, "Exhibit winners advance 3 and 2: the leader is in "
                      "castle 4 (Culloden).");
    expect_line(text, "Auction house: B5 and F4 face up (piles of 19 and 12 "
                      "cards).");
    expect_line(text, "Prison, cell #1 first: thief 6, empty, empty.");
    free(text);
    av_engine.destroy((rules_state *)s);
}

Test(av_view_text, a_sealed_choice_is_shown_to_its_lord_alone)
{
    av_state *s = culloden();
    all_go_castle(s);
    rules_state *detective = av_engine.clone((const rules_state *)s);
    harness_apply_text(&av_engine, (rules_state *)s, 0, "play exhibit");
    harness_apply_text(&av_engine, detective, 0, "play detective");
    char *mine = text_of(s, 0);
    expect_line(mine, "You chose: play exhibit (hidden until every Lord has "
                      "chosen).");
    expect_line(mine, "At the castle: seat 0, seat 1 and seat 2.");
    for (int viewer = RULES_SPECTATOR; viewer < 3; viewer++) {
        if (viewer == 0)
            continue;
        char *one = text_of(s, viewer);
        char *other = av_engine.view_text(detective, viewer);
        cr_expect_str_eq(one, other, "seat %d tells seat 0's sealed cards "
                                     "apart", viewer);
        free(one);
        free(other);
    }
    char *theirs = text_of(s, 1);
    expect_line(theirs, "Waiting for seat 1 (you) and seat 2; seat 0 has "
                        "chosen.");
    cr_expect_null(strstr(theirs, "play exhibit"));
    free(mine);
    free(theirs);
    av_engine.destroy(detective);
    av_engine.destroy((rules_state *)s);
}

Test(av_view_text, the_thief_reads_the_exhibits_he_steals_from)
{
    av_state *s = culloden();
    all_go_castle(s);
    fixture_all(s, (const char *const[]){"play exhibit", "play exhibit",
                                         "play thief 3"});
    fixture_all(s, (const char *const[]){"exhibit A1 A2 B1 B2 C1 C2",
                                         "exhibit D1 D2 D3 E1", NULL});
    char *text = text_of(s, 2);
    expect_line(text, "Turn 1: the castle thieves steal from the exhibits.");
    expect_line(text, "Waiting for seat 2 (you): thief 3 steals one card "
                      "from each exhibit he");
    expect_line(text, "It is your move.");
    expect_line(text, "seat 0: space 5, 0 cards, checks 8000 11000 14000 "
                      "17000, thief 1");
    expect_line(text, "seat 0's exhibit on display: A1 A2 B1 B2 C1 C2");
    expect_line(text, "seat 1's exhibit on display: D1 D2 D3 E1");
    expect_line(text, "Turn 1 so far:");
    expect_line(text, "At the castle: seat 0 (play exhibit), seat 1 (play "
                      "exhibit) and seat 2");
    expect_line(text, "  (play thief 3).");
    expect_line(text, "seat 1 shows the second-best exhibit and advances 2");
    free(text);

    harness_apply_text(&av_engine, (rules_state *)s, 2, "steal C1");
    harness_apply_text(&av_engine, (rules_state *)s, 2, "steal D1");
    text = text_of(s, RULES_SPECTATOR);
    expect_line(text, "Turn 2: every Lord chooses in secret where he goes.");
    expect_line(text, "Turn 1:");
    expect_line(text, "thief 3 steals C1 from seat 0's exhibit");
    expect_line(text, "thief 3 steals D1 from seat 1's exhibit");
    cr_expect_null(strstr(text, "display"), "the exhibits went home:\n%s",
                   text);
    free(text);
    av_engine.destroy((rules_state *)s);
}

/* Nothing hidden from a seat reaches its text: other hands, the cards
 * under the face-up ones; and the spectator reads no "You". */
Test(av_view_text, no_secret_reaches_another_seat)
{
    av_state *s = culloden();
    av_cards face_down = 0;
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j + 1 < s->pile_count[k]; j++)
            face_down |= (av_cards)1 << s->pile[k][j];
    }
    for (int viewer = RULES_SPECTATOR; viewer < 3; viewer++) {
        char *text = text_of(s, viewer);
        for (int c = 0; c < AV_CARDS; c++) {
            char name[4];
            av_card_name(c, name);
            int owner = -1;
            for (int i = 0; i < 3; i++) {
                if (s->lord[i].hand >> c & 1)
                    owner = i;
            }
            bool hidden = (face_down >> c & 1) ||
                          (owner >= 0 && owner != viewer);
            if (hidden)
                cr_expect_not(names_word(text, name), "seat %d reads the "
                              "hidden card %s:\n%s", viewer, name, text);
            if (owner >= 0 && owner == viewer)
                cr_expect(names_word(text, name), "seat %d misses his own "
                          "card %s", viewer, name);
        }
        if (viewer == RULES_SPECTATOR)
            cr_expect(strstr(text, "You") == NULL &&
                      strstr(text, "you") == NULL,
                      "the spectator is not addressed:\n%s", text);
        free(text);
    }
    av_engine.destroy((rules_state *)s);
}

/* The rulebook's end: the final exhibition, then the result by pawns. */
Test(av_view_text, the_result_names_the_places)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 A3", true);
    fixture_give(s, 1, "B1 B2 B3 B4", true);
    fixture_give(s, 2, "F1 F2", true);
    s->lord[0].pawn = 36;
    s->lord[1].pawn = 30;
    s->lord[2].pawn = 20;
    all_go_castle(s);
    fixture_all(s, (const char *const[]){"play exhibit", "play thief",
                                         "play detective"});
    harness_apply_text(&av_engine, (rules_state *)s, 0, "exhibit A1 A2 A3");
    harness_apply_text(&av_engine, (rules_state *)s, 1, "steal A1");
    char *text = text_of(s, 1);
    expect_line(text, "Final exhibition: every Lord shows in secret his "
                      "largest and most");
    expect_line(text, "seat 0: space 37 (dinner table), 2 cards");
    expect_line(text, "Turn 1 and the final exhibition:");
    expect_line(text, "a pawn has reached the dinner table: the final "
                      "exhibition follows");
    free(text);
    fixture_all(s, (const char *const[]){"exhibit nothing",
                                         "exhibit A1 B1 B2 B3 B4",
                                         "exhibit nothing"});
    text = text_of(s, 1);
    expect_line(text, "The game is over. Result: 1st seat 1 (space 38); 2nd "
                      "seat 0 (space 37);");
    expect_line(text, "  3rd seat 2 (space 23).");
    expect_line(text, "Your hand: A1 B1 B2 B3 B4");
    cr_expect_null(strstr(text, "Your check"), "checks no longer matter");
    expect_line(text, "seat 1 (you): space 38 (dinner table); final set A1 "
                      "B1 B2 B3 B4");
    expect_line(text, "seat 0: space 37 (dinner table); final set none");
    free(text);
    av_engine.destroy((rules_state *)s);
}
