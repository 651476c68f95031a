/* Another Man's Treasure: the rulebook's worked examples, loaded from
 * rules/another_mans_treasure/examples/ and played through `pbem rules`. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_run.h"

#define G "another_mans_treasure"

/* Seat 0 takes the G9, lays 2 sets of 4 and discards its last card. */
#define GOES_OUT "0:take", "0:pattern 2sets4 set:B4,R4,Y4,G4 set:B9,R9,Y9,G9", \
                 "0:discard G2"

static json_t *player(const json_t *position, int seat)
{
    return json_array_get(json_object_get(position, "players"), (size_t)seat);
}

Test(workbench_amt, lizzy_goes_out_sheila_lays_one_set_of_4)
{
    char *start = wb_example(G, "lizzy_goes_out_sheila_lays_one_set");
    char *out = wb_apply(G, start, (const char *const[]){GOES_OUT, NULL});
    json_t *pending = wb_read(G, "pending", out);
    cr_expect_str_eq(json_string_value(json_object_get(pending, "decision")),
                     "r1-endplay");
    json_decref(pending);
    wb_refused(G, out, 1, "pattern 2sets4 set:B5,R5,Y5,G5,R5",
               "more cards than the pattern states");
    char *end = wb_apply(G, out, (const char *const[]){
                             "1:pattern 2sets4 set:B5,R5,Y5,G5", NULL});
    json_t *score = wb_read(G, "score", end);
    cr_expect_eq(wb_int_at(score, "scores", 0), 0);
    cr_expect_eq(wb_int_at(score, "scores", 1), 20, "R5 B2 Y8 G10 = 20");
    json_decref(score);
    json_t *position = json_loads(end, 0, NULL);
    cr_expect_eq(json_integer_value(json_object_get(position, "round")), 2,
                 "the next round is dealt");
    json_t *sheila = player(position, 1);
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_object_get(sheila, "marked"), 0)), "2sets4");
    cr_expect_eq(json_integer_value(json_object_get(sheila, "completed")), 0,
                 "a partial pattern");
    json_decref(position);
    free(start);
    free(out);
    free(end);
}

Test(workbench_amt, chris_goes_out_yahosh_lays_his_run_of_8)
{
    char *start = wb_example(G, "chris_goes_out_yahosh_lays_run_of_8");
    char *end = wb_apply(G, start, (const char *const[]){
        GOES_OUT, "1:pass", "2:pattern run8 run:Y1,Y2,Y3,Y4,Y5,Y6,Y7,Y8",
        NULL});
    json_t *score = wb_read(G, "score", end);
    cr_expect_eq(wb_int_at(score, "scores", 1), 40);
    cr_expect_eq(wb_int_at(score, "scores", 2), 5, "only R3 is left");
    json_decref(score);
    json_t *position = json_loads(end, 0, NULL);
    cr_expect_eq(json_integer_value(
                     json_object_get(player(position, 2), "completed")), 1,
                 "a complete pattern");
    json_decref(position);
    free(start);
    free(end);
}

Test(workbench_amt, conlon_lays_a_run_of_4_and_scores_25)
{
    char *start = wb_example(G, "conlon_lays_run_of_4_scores_25");
    char *end = wb_apply(G, start, (const char *const[]){
        GOES_OUT, "1:pattern 2runs4 run:B1,B2,B3,B4", NULL});
    json_t *score = wb_read(G, "score", end);
    cr_expect_eq(wb_int_at(score, "scores", 1), 25, "five numbered cards");
    json_decref(score);
    free(start);
    free(end);
}

Test(workbench_amt, player_2_swaps_yellow_8_for_player_1s_wild)
{
    char *start = wb_example(G, "player_2_swaps_yellow_8_for_wild");
    char *laid = wb_apply(G, start, (const char *const[]){
        "0:take", "0:pattern 2runs4 run:Y1,Y2,Y3,Y4 run:Y5,Y6,Y7,W1-11",
        "0:discard R2", "1:draw", NULL});
    wb_refused(G, laid, 1,
               "pattern 2sets4 set:B3,R3,G3,Y3 set:B10,R10,Y10,G10 "
               "swap:P1.2:Y8",
               "swapped wild must be played");
    wb_refused(G, laid, 1,
               "pattern 2sets4 set:B3,R3,G3,W1-11 set:B10,R10,Y10,G10 "
               "swap:P1.1:Y8",
               "exact card");
    char *end = wb_apply(G, laid, (const char *const[]){
        "1:pattern 2sets4 set:B3,R3,G3,W1-11 set:B10,R10,Y10,G10 "
        "swap:P1.2:Y8",
        NULL});
    json_t *position = json_loads(end, 0, NULL);
    /* Player 1's second meld, P1.2 (README "Position"). */
    json_t *run = json_array_get(json_object_get(player(position, 0),
                                                 "melds"), 1);
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_object_get(run, "cards"), 3)), "Y8",
                     "player 1's run now ends in the yellow 8");
    cr_expect_eq(wb_int_at(run, "by", 3), 1, "played there by player 2");
    json_t *hand = json_object_get(player(position, 1), "hand");
    cr_expect_eq(json_array_size(hand), 2, "Y3 and the drawn B11 remain");
    cr_expect_str_eq(json_string_value(json_array_get(hand, 0)), "B11");
    json_decref(position);
    free(start);
    free(laid);
    free(end);
}
