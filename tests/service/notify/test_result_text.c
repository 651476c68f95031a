/* A match's result as the match-over mail writes it: the winner by name,
 * the standings, the tie-break in the rulebook's words and each seat's
 * points, never an engine's internal key. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "notify/result_text.h"

static char *text_of(const char *result_json, const char *names_json,
                     int viewer)
{
    json_error_t error;
    json_t *result = json_loads(result_json, 0, &error);
    json_t *names = json_loads(names_json, 0, &error);
    cr_assert_not_null(result, "%s", error.text);
    cr_assert_not_null(names, "%s", error.text);
    char *text = result_text(result, names, viewer);
    json_decref(result);
    json_decref(names);
    return text;
}

/* av_result's shape, as stored in a finished event: the final value is
 * the order the tie-break sorts final collections in. */
Test(result_text,
     adel_verplichtet_shows_no_final_value_and_a_tie_break_in_words)
{
    char *text = text_of(
        "{\"over\": true, \"scores\": [39, 34, 39],"
        " \"ranking\": [[0], [2], [1]],"
        " \"detail\": [{\"pawn\": 39, \"final_set\": [\"A1\", \"A2\", \"B3\"],"
        "               \"final_value\": 138379},"
        "              {\"pawn\": 34, \"final_set\": [], \"final_value\": 0},"
        "              {\"pawn\": 39, \"final_set\": [\"D3\", \"D4\"],"
        "               \"final_value\": 38363}],"
        " \"reason\": \"A pawn reached the dinner table, and the final "
        "exhibition was held: the furthest pawn wins.\","
        " \"tie_break\": \"Tied at 39: the most valuable final collection "
        "wins (more cards, then the oldest card): seat 0 showed 3 cards "
        "(oldest 1620), seat 2 showed 2 cards (oldest 1652).\"}",
        "[\"Robert\", \"Eliza\", \"Nigel\"]", 0);
    cr_expect_null(strstr(text, "final value"), "%s", text);
    cr_expect_null(strstr(text, "138379"), "%s", text);
    cr_expect_null(strstr(text, "38363"), "%s", text);
    cr_expect_not_null(strstr(text, "Robert won with a score of 39."), "%s",
                       text);
    cr_expect_not_null(
        strstr(text, "Tie-break: Tied at 39: the most valuable final "
                     "collection wins (more cards, then the oldest card): "
                     "Robert showed 3 cards (oldest 1620), Nigel showed 2 "
                     "cards (oldest 1652).\n"),
        "%s", text);
    cr_expect_not_null(strstr(text, "  Robert: pawn on space 39; final "
                                    "exhibition: A1, A2, B3\n"),
                       "%s", text);
    cr_expect_not_null(
        strstr(text, "  Eliza: pawn on space 34, final exhibition: none\n"),
        "%s", text);
    free(text);
}

/* as_result's shape: groups of points, counts and tie-breakers, and the
 * total they add up to. */
Test(result_text, groups_of_points_read_as_groups)
{
    char *text = text_of(
        "{\"over\": true, \"scores\": [43, 52], \"ranking\": [[1], [0]],"
        " \"detail\": [{\"total\": 43,"
        "               \"counts\": {\"relics\": 3, \"stars\": 6},"
        "               \"points\": {\"cards\": 25, \"relic_bonus\": -3},"
        "               \"tie_breakers\": {\"artifact_cards\": 25,"
        "                                \"silver\": 3}},"
        "              {\"total\": 52, \"counts\": {}, \"points\": {},"
        "               \"tie_breakers\": {}}],"
        " \"reason\": \"The match ended because the second temple was "
        "emptied.\"}",
        "[\"Robert\", \"Eliza\"]", 0);
    cr_expect_not_null(strstr(text, "  Robert: counts: relics 3, stars 6; "
                                    "points: cards 25, relic bonus -3; "
                                    "tie-breakers: artifact cards 25, "
                                    "silver 3; total 43\n"),
                       "%s", text);
    cr_expect_not_null(strstr(text, "Eliza won with a score of 52.\n"), "%s",
                       text);
    free(text);
}
