/* view_text: the view as a person reads it in a mail, on one scripted
 * table: a peek, a take, a treasure to keep or cash, a bonus set and a
 * steal, then a match played to its end. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static char *text_of(const as_state *s, int seat)
{
    char *text = as_engine.view_text((const rules_state *)s, seat);
    cr_assert_not_null(text);
    return text;
}

/* Asserts that text holds line as one whole line. */
static void expect_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *at = strstr(text, line); at != NULL;
         at = strstr(at + 1, line)) {
        if ((at == text || at[-1] == '\n') && at[n] == '\n')
            return;
    }
    cr_expect_fail("no line \"%s\" in:\n%s", line, text);
}

/* text with its wrapped lines joined again (a continuation's newline and
 * indent become one space); caller frees. */
static char *unwrapped(const char *text)
{
    char *flat = malloc(strlen(text) + 1);
    cr_assert_not_null(flat);
    size_t n = 0;
    for (const char *c = text; *c; c++) {
        if (c[0] == '\n' && c[1] == ' ') {
            while (c[1] == ' ')
                c++;
            flat[n++] = ' ';
            continue;
        }
        flat[n++] = *c;
    }
    flat[n] = '\0';
    return flat;
}

/* The small table (fixture.h); seat 0 peeks at 2.1.0 (1 silver), takes
 * coins4 and ends the turn. */
static as_state *scripted_table(void)
{
    as_state *s = fx_small_table();
    fx_do(s, 0, "peek 2.1.0");
    fx_do(s, 0, "take 2.0.0");
    fx_do(s, 0, "done");
    return s;
}

Test(as_view_text, the_table_as_each_seat_reads_it)
{
    as_state *s = scripted_table();
    char *mine = text_of(s, 0);
    expect_line(mine, "Round 1 of 2, clockwise: seat 0, seat 1.");
    expect_line(mine, "Turn: seat 1, 1 action left: take, dig or hire.");
    expect_line(mine, "Free to take: 2.1.0 china8 (B, face down, peeked by "
                      "you),\n  2.2.0 treasures3 (3 VP)");
    expect_line(mine, "Dig out for 1 silver: 1.1.0 statues5");
    expect_line(mine, "You (seat 0): 1 silver, 2 stars, 5 points so far.");
    expect_line(mine, "Your cards: coins4, weapons1, weapons2");
    expect_line(mine, "seat 1: 2 silver, 1 star, 7 points so far.");
    expect_line(mine, "seat 1 cards: relics4, china1 (A)");

    char *theirs = text_of(s, 1);
    expect_line(theirs, "Your turn (seat 1), 1 action left: take, dig or "
                        "hire.");
    expect_line(theirs, "Free to take: 2.1.0 face down (peeked by seat 0),\n"
                        "  2.2.0 treasures3 (3 VP)");
    expect_line(theirs, "seat 0: 1 silver, 2 stars, 5 points so far.");
    expect_line(theirs, "Your cards: relics4, china1 (A)");

    char *public = text_of(s, RULES_SPECTATOR);
    expect_line(public, "Turn: seat 1, 1 action left: take, dig or hire.");
    expect_line(public, "Free to take: 2.1.0 face down (peeked by seat 0),\n"
                        "  2.2.0 treasures3 (3 VP)");
    cr_expect_null(strstr(public, "You"), "a spectator is nobody's You:\n%s",
                   public);
    free(mine);
    free(theirs);
    free(public);
    as_engine.destroy((rules_state *)s);
}

Test(as_view_text, a_card_another_seat_peeked_at_stays_secret)
{
    as_state *s = scripted_table();
    char *mine = text_of(s, 0);
    char *theirs = text_of(s, 1);
    char *public = text_of(s, RULES_SPECTATOR);
    cr_expect_not_null(strstr(mine, "china8"), "seat 0 peeked:\n%s", mine);
    cr_expect_null(strstr(theirs, "china8"), "seat 1 did not:\n%s", theirs);
    cr_expect_null(strstr(public, "china8"), "nor the public:\n%s", public);
    /* nor does anybody see the stock for round 2 */
    for (int i = 0; i < s->stock_count; i++) {
        const char *card = as_card_name(s->stock[i]);
        cr_expect_null(strstr(mine, card), "the stock's %s shows", card);
        cr_expect_null(strstr(theirs, card), "the stock's %s shows", card);
    }
    expect_line(mine, "Temple: 3 cards at layer.column.row, layer 2 on top.");
    cr_expect_not_null(strstr(mine, "Stock: 28 cards, unseen, for round 2."),
                       "%s", mine);
    free(mine);
    free(theirs);
    free(public);
    as_engine.destroy((rules_state *)s);
}

Test(as_view_text, a_treasure_waits_to_be_kept_or_cashed)
{
    as_state *s = scripted_table();
    fx_do(s, 1, "take 2.2.0");
    char *theirs = text_of(s, 1);
    char *mine = text_of(s, 0);
    expect_line(theirs, "Your turn (seat 1): keep treasures3 for 3 VP or cash "
                        "it for 1 silver.");
    expect_line(mine, "Turn: seat 1, to keep treasures3 for 3 VP or cash it "
                      "for 1 silver.");
    fx_do(s, 1, "cash");
    free(theirs);
    theirs = text_of(s, 1);
    expect_line(theirs,
                "Your cards: relics4, china1 (A); face down: treasures3");
    free(mine);
    free(theirs);
    as_engine.destroy((rules_state *)s);
}

Test(as_view_text, a_flipped_set_and_a_steal)
{
    as_state *s = scripted_table();
    fx_do(s, 1, "hire thief");
    fx_do(s, 1, "done");
    fx_do(s, 0, "flip weapons 1 2");
    char *mine = text_of(s, 0);
    expect_line(mine, "Your turn (seat 0): steal 1 face-up card from the other "
                      "players.");
    free(mine);
    fx_do(s, 0, "steal relics4");
    mine = text_of(s, 0);
    expect_line(mine, "Your cards: coins4, relics4; face down: "
                      "weapons1+weapons2");
    expect_line(mine, "seat 1: 1 silver, 1 star, 0 points so far; assistants: "
                      "thief.");
    free(mine);
    as_engine.destroy((rules_state *)s);
}

Test(as_view_text, the_end_names_the_winner)
{
    as_state *s = scripted_table();
    for (int moves = 0; moves < 500 && !s->over; moves++) {
        json_t *move = as_engine.default_move((const rules_state *)s, s->turn);
        rules_error err = {{0}};
        cr_assert(as_engine.apply((rules_state *)s, s->turn, move, &err), "%s",
                  err.message);
        json_decref(move);
    }
    cr_assert(s->over);
    json_t *result = as_engine.result((const rules_state *)s);
    const json_t *first = json_array_get(json_object_get(result, "ranking"), 0);
    int winner = (int)json_integer_value(json_array_get(first, 0));
    int points = (int)json_integer_value(
        json_array_get(json_object_get(result, "scores"), (size_t)winner));
    char line[96];
    snprintf(line, sizeof line,
             "The match is over. %s: seat %d, with %d "
             "points.",
             json_array_size(first) == 1 ? "Winner" : "Sharing first place",
             winner, points);
    char *public = text_of(s, RULES_SPECTATOR);
    cr_expect_not_null(strstr(public, line), "no \"%s\" in:\n%s", line, public);
    cr_expect_null(strstr(public, "so far"), "the points are final:\n%s",
                   public);
    /* why it ended, and each seat's points as parts that add up */
    char *flat = unwrapped(public);
    cr_expect_not_null(strstr(flat, "The match ended because the second "
                                    "temple was emptied."),
                       "%s", public);
    snprintf(line, sizeof line, "%d points (", points);
    cr_expect_not_null(strstr(flat, line), "no \"%s\" in:\n%s", line, public);
    free(flat);
    free(public);
    json_decref(result);
    as_engine.destroy((rules_state *)s);
}

/* Asserts that text's last paragraph is the legend and holds words. */
static void expect_legend(const char *text, const char *words)
{
    const char *legend = strstr(text, "\nWords: ");
    cr_assert_not_null(legend, "no legend in:\n%s", text);
    /* last: every line after its first is a continuation (indented) */
    for (const char *c = strchr(legend + 1, '\n'); c != NULL && c[1];
         c = strchr(c + 1, '\n'))
        cr_expect(c[1] == ' ', "the legend is not last:\n%s", text);
    char *flat = unwrapped(legend + 1);
    cr_expect_not_null(strstr(flat, words), "no \"%s\" in the legend:\n%s",
                       words, flat);
    free(flat);
}

/* The words a newcomer meets ("stars", "flip", "dig out") are explained
 * at the end of the text that uses them. */
Test(as_view_text, the_text_ends_with_a_legend_of_its_words)
{
    as_state *s = scripted_table();
    char *mine = text_of(s, 0);
    expect_legend(mine, "star = cards 1 to 3 of each stack; the most stars "
                        "earn 3 VP at the end");
    expect_legend(mine, "dig out = pay 1 silver per card covering it");
    cr_expect_null(strstr(mine, "flip ="), "no flip yet:\n%s", mine);
    free(mine);
    fx_do(s, 1, "hire thief");
    fx_do(s, 1, "done");
    fx_do(s, 0, "flip weapons 1 2");
    mine = text_of(s, 0);
    expect_legend(mine, "flip = turn 2 or 3 cards of a stack face down for "
                        "their bonus (they still score)");
    free(mine);
    as_engine.destroy((rules_state *)s);
}

/* The games list shows the option: "random" says what it does. */
Test(as_view_text, the_stacks_option_says_what_random_means)
{
    json_t *options = as_engine.describe_options();
    const char *text = json_string_value(
        json_object_get(json_object_get(options, "stacks"), "description"));
    cr_assert_not_null(text);
    cr_expect_not_null(strstr(text, "\"random\" (the default) draws 6 of "
                                    "them at random"),
                       "%s", text);
    json_decref(options);
}
