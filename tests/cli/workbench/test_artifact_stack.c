/* Artifact Stack: the rulebook's examples, loaded from
 * rules/artifact_stack/examples/ and played through `pbem rules`. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "test_run.h"

#define G "artifact_stack"

static long long turn_of(const char *position)
{
    json_t *p = json_loads(position, 0, NULL);
    long long turn = json_integer_value(json_object_get(p, "turn"));
    json_decref(p);
    return turn;
}

/* A number of seat 0's score detail ("statues", "china", "monsters"). */
static long long detail(const char *position, const char *key)
{
    json_t *score = wb_read(G, "score", position);
    json_t *mine = json_array_get(json_object_get(score, "detail"), 0);
    /* Seat 0's points for key: its breakdown keeps points apart from the
     * counts that break ties. */
    long long v = json_integer_value(
        json_object_get(json_object_get(mine, "points"), key));
    json_decref(score);
    return v;
}

Test(workbench_as, manuscripts_second_manuscript_gives_one_action)
{
    char *start = wb_example(G, "manuscripts_second_gives_one_action");
    char *taken = wb_apply(G, start, (const char *const[]){"0:take 2.0.0",
                                                           NULL});
    cr_expect_eq(turn_of(taken), 0, "the turn waits: the bonus may be used");
    char *end = wb_apply(G, taken, (const char *const[]){
        "0:flip manuscripts 4 5", "0:take 2.1.0", NULL});
    cr_expect_eq(turn_of(end), 1, "the extra action used, the turn passes");
    free(start);
    free(taken);
    free(end);
}

Test(workbench_as, manuscripts_third_manuscript_gives_two_actions)
{
    char *start = wb_example(G, "manuscripts_third_gives_two_actions");
    char *two = wb_apply(G, start, (const char *const[]){
        "0:take 2.0.0", "0:flip manuscripts 4 5 6", "0:take 2.1.0",
        "0:take 2.2.0", NULL});
    cr_expect_eq(turn_of(two), 0, "two statues may still be locked as a set");
    char *end = wb_apply(G, two, (const char *const[]){"0:done", NULL});
    cr_expect_eq(turn_of(end), 1);
    free(start);
    free(two);
    free(end);
}

Test(workbench_as, flipped_statues_are_not_reused_6_plus_1_not_10)
{
    char *start = wb_example(G, "statues_flipped_set_is_not_reused");
    cr_expect_eq(detail(start, "statues"), 10, "four loose statues: 10");
    char *flipped = wb_apply(G, start, (const char *const[]){
        "0:flip statues 1 2 3", NULL});
    wb_refused(G, flipped, 0, "flip statues 3 4", "never reused");
    cr_expect_eq(detail(flipped, "statues"), 6 + 1,
                 "the extra statue starts a new set: 6 + 1, not 10");
    free(start);
    free(flipped);
}

Test(workbench_as, china_a_b_c_set_is_10)
{
    char *start = wb_example(G, "china_abc_set_is_10");
    wb_refused(G, start, 0, "flip china 1 5", "same letter");
    char *end = wb_apply(G, start, (const char *const[]){
        "0:flip china 1 5 9", NULL});
    cr_expect_eq(detail(end, "china"), 10);
    free(start);
    free(end);
}

Test(workbench_as, monsters_vampire_and_cross_5_loose_vampire_mummy_minus_1)
{
    char *start = wb_example(G, "monsters_vampire_cross_and_loose_vampire_mummy");
    cr_expect_eq(detail(start, "monsters"), 5 - 1);
    free(start);
}
