/* The text view as a person reads it in a mail: exact lines on scripted
 * positions, and another seat's hand, a cache and sealed plays kept out
 * of it. (The harness checks line counts and widths on every move of
 * random play; test_secrecy.c checks the text never names a card more
 * often than the seat's JSON view holds it.) */
#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"
#include "fixture.h"

#define E (&aq_engine)
#define RS(s) ((rules_state *)(s))

static char *text_of(const aq_state *s, int seat)
{
    char *text = E->view_text((const rules_state *)s, seat);
    cr_assert_not_null(text);
    return text;
}

/* Whether text holds line as one whole line. */
static bool has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *at = text; (at = strstr(at, line)) != NULL; at++) {
        if ((at == text || at[-1] == '\n') && at[n] == '\n')
            return true;
    }
    return false;
}

#define EXPECT_LINE(text, line)                                                \
    cr_expect(has_line(text, line), "no line \"%s\" in:\n%s", line, text)

/* Whether word occurs in text as a whole word. */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = text; (at = strstr(at, word)) != NULL; at++) {
        bool starts = at == text || strchr(" \n(:", at[-1]) != NULL;
        bool ends = strchr(" \n),.;", at[n]) != NULL;
        if (starts && ends)
            return true;
    }
    return false;
}

/* Seat 0 on turn in the play phase: its collections 1 (red 1-3-5) and 3
 * (a complete Perfect blue), seat 1's collection 2 (orange 1-2-5-W);
 * seat 0 has picked up its cache, seat 1's holds three treasures. */
static aq_state *table(void)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_PLAY);
    fx_collection(s, 0, "red1 red3 red5");
    fx_collection(s, 1, "orange1 orange2 orange5 orangeW");
    fx_collection(s, 0, "blue1 blue2 blue3 blue4 blueW");
    fx_hand(s, 0, "crown redW red2 yellow4");
    fx_hand(s, 1, "amulet tess green3");
    fx_cache(s, 1, "mask mask scepter");
    fx_cache_taken(s, 0);
    fx_discard(s, "purple2 green4");
    return s;
}

Test(aq_view_text, the_seat_on_turn_reads_its_hand_and_the_table)
{
    aq_state *s = table();
    char *text = text_of(s, 0);
    cr_expect_str_eq(
        text,
        "Antiquity Quest, round 1 of 1.\n"
        "It is your turn: play cards, then discard one to end your turn.\n"
        "Your hand (4 cards): yellow4 red2 redW crown\n"
        "Draw pile: 193 cards. Character pile: empty.\n"
        "Discard pile (2 cards, top first): green4 purple2\n"
        "You (seat 0): cache picked up; 2 collections, 1 complete.\n"
        "  1: red1 red3 red5 (perfect red, incomplete)\n"
        "  3: blue1 blue2 blue3 blue4 blueW (perfect blue, complete, 1000 "
        "points)\n"
        "seat 1: 3 cards in hand, cache of 3; 1 collection, none complete.\n"
        "  2: orange1 orange2 orange5 orangeW (perfect orange, incomplete)\n"
        "Scores: none yet; a round is scored when it ends.\n"
        "Key: an antiquity is named by its colour and value (1 to 5), or W "
        "for a\n"
        "  wild of that colour; treasures and characters go by their names. "
        "A\n"
        "  numbered line is a collection: mixed, standard or perfect as the "
        "rules\n"
        "  grade it.\n");
    free(text);
    E->destroy(RS(s));
}

Test(aq_view_text, another_seat_sees_the_top_card_and_its_own_hand)
{
    aq_state *s = table();
    char *text = text_of(s, 1);
    EXPECT_LINE(text, "It is seat 0's turn, to play cards and then discard.");
    EXPECT_LINE(text, "Your hand (3 cards): green3 amulet tess");
    EXPECT_LINE(text, "Discard pile: 2 cards, green4 on top.");
    EXPECT_LINE(text, "seat 0: 4 cards in hand, cache picked up; 2 "
                      "collections, 1 complete.");
    EXPECT_LINE(text, "You (seat 1): cache of 3; 1 collection, none "
                      "complete.");
    free(text);
    E->destroy(RS(s));
}

/* Another seat's hand, a cache and the discard pile below its top card
 * are secrets: amulet, tess and green3 are only in seat 1's hand, mask
 * and scepter only in its cache, purple2 is under the top card. */
Test(aq_view_text, secrets_stay_out_of_other_seats_text)
{
    aq_state *s = table();
    char *mine = text_of(s, 1);
    cr_expect(has_word(mine, "amulet") && has_word(mine, "tess"),
              "the seat reads its own hand:\n%s", mine);
    free(mine);
    for (int viewer = RULES_SPECTATOR; viewer <= 0; viewer++) {
        char *text = text_of(s, viewer);
        const char *secrets[] = {"amulet", "tess", "green3", "mask", "scepter"};
        for (size_t i = 0; i < sizeof secrets / sizeof secrets[0]; i++)
            cr_expect(!has_word(text, secrets[i]),
                      "view_text(%d) shows %s:\n%s", viewer, secrets[i], text);
        if (viewer == RULES_SPECTATOR)
            cr_expect(!has_word(text, "purple2"),
                      "only the seat on turn "
                      "reviews the pile:\n%s",
                      text);
        free(text);
    }
    E->destroy(RS(s));
}

Test(aq_view_text, the_spectator_reads_no_hand_and_no_you)
{
    aq_state *s = table();
    char *text = text_of(s, RULES_SPECTATOR);
    EXPECT_LINE(text, "It is seat 0's turn, to play cards and then discard.");
    cr_expect_null(strstr(text, "Your"), "%s", text);
    cr_expect_null(strstr(text, "You "), "%s", text);
    EXPECT_LINE(text, "seat 1: 3 cards in hand, cache of 3; 1 collection, "
                      "none complete.");
    free(text);
    E->destroy(RS(s));
}

/* Revoked visas: the maker reads its own sealed plays in the notation;
 * the others read only who has chosen. */
Test(aq_view_text, sealed_final_plays_are_read_by_their_maker_only)
{
    aq_state *s = fx_new(3, "{\"revoked_visas\": true}", AQ_PHASE_PLAY);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0,
                      i % 2 ? "red1 red2 red3 red4 red5"
                            : "blue1 blue2 blue3 blue4 blue5");
    int last = fx_collection(s, 0, "green1 green2 green3 green4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "green5");
    fx_hand(s, 1, "yellow1 yellow2 yellow3 crown");
    fx_hand(s, 2, "orange1 orange2");
    char add[32];
    snprintf(add, sizeof add, "add %d green5", last);
    harness_apply_text(E, RS(s), 0, add);
    harness_apply_text(E, RS(s), 1, "final play yellow1 yellow2 yellow3");
    char *maker = text_of(s, 1);
    char *other = text_of(s, 2);
    EXPECT_LINE(maker, "Your final plays, sealed: final play yellow1 yellow2 "
                       "yellow3");
    EXPECT_LINE(other, "Still to choose: you.");
    cr_expect_not_null(strstr(other, "The round ends: seat 0 went out. The "
                                     "others make their final plays"),
                       "%s", other);
    cr_expect(!has_word(other, "yellow1"), "%s", other);
    free(maker);
    free(other);
    E->destroy(RS(s));
}

/* After a round: the scores, and the viewer's own breakdown. */
Test(aq_view_text, the_finished_round_is_scored_in_words)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_hand(s, 0, "red1");
    fx_hand(s, 1, "crown crown");
    while (s->draw.count > 1)
        aq_pile_push(&s->character, aq_pile_pop(&s->draw));
    harness_apply_text(E, RS(s), 0, "draw"); /* the draw pile runs out */
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    char *text = text_of(s, 1);
    EXPECT_LINE(text, "The match is over: seat 0 wins with -25 points.");
    EXPECT_LINE(text, "Round 1 scores: seat 0 -25, you -100.");
    EXPECT_LINE(text, "Your round 1: bonus 0, collections 0, played cards 0, "
                      "cards left -100.");
    free(text);
    E->destroy(RS(s));
}
