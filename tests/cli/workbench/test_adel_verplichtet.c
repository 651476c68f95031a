/* Adel Verplichtet: the rulebook's examples, loaded from
 * rules/adel_verplichtet/examples/ and played through `pbem rules`. The
 * score of a Lord is the space his pawn stands on. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_run.h"

#define G "adel_verplichtet"

static void expect_pawns(const char *position, const int *pawns, int seats)
{
    json_t *score = wb_read(G, "score", position);
    for (int i = 0; i < seats; i++)
        cr_expect_eq(wb_int_at(score, "scores", (size_t)i), pawns[i],
                     "Lord %d on %lld, not %d", i,
                     wb_int_at(score, "scores", (size_t)i), pawns[i]);
    json_decref(score);
}

Test(workbench_av, lord_x_and_lord_y_exhibit_at_culloden)
{
    char *start = wb_example(G, "lord_x_and_lord_y_exhibit");
    char *shown = wb_apply(G, start, (const char *const[]){
        "0:go castle", "1:go castle", "2:go castle", "0:play exhibit",
        "1:play exhibit", "2:play thief 3", "0:exhibit A1 A2 B1 B2 C1 C2",
        "1:exhibit D1 D2 D3 E1", NULL});
    expect_pawns(shown, (const int[]){2 + 3, 2 + 2, 8}, 3);
    wb_refused(G, shown, 2, "steal B3", "displayed exhibit");
    char *end = wb_apply(G, shown, (const char *const[]){
        "2:steal C1", "2:steal D1", NULL});
    json_t *p = json_loads(end, 0, NULL);
    json_t *lords = json_object_get(p, "lords");
    char *thief = json_dumps(json_object_get(json_array_get(lords, 2), "hand"),
                             JSON_COMPACT);
    cr_expect_str_eq(thief, "[\"C1\",\"D1\",\"F1\"]",
                     "the thief goes home with his loot");
    char *y = json_dumps(json_object_get(json_array_get(lords, 1), "hand"),
                         JSON_COMPACT);
    cr_expect_str_eq(y, "[\"B3\",\"B4\",\"C3\",\"D2\",\"D3\",\"E1\"]",
                     "Lord Y keeps a six-card set");
    free(thief);
    free(y);
    json_decref(p);
    free(start);
    free(shown);
    free(end);
}

Test(workbench_av, detective_standing_advances_1_2_3_3_4)
{
    char *start = wb_example(G, "detective_standing");
    char *end = wb_apply(G, start, (const char *const[]){
        "0:go castle", "1:go castle", "2:go castle", "3:go castle",
        "4:go castle", "0:play detective", "1:play detective",
        "2:play detective", "3:play detective", "4:play thief", NULL});
    expect_pawns(end, (const int[]){21, 17, 13, 13, 5}, 5);
    json_t *p = json_loads(end, 0, NULL);
    cr_expect_eq(wb_int_at(p, "prison", 0), 5, "Black's thief 5 in cell 1");
    json_decref(p);
    free(start);
    free(end);
}

Test(workbench_av, dinner_table_then_final_exhibition_plus_8)
{
    char *start = wb_example(G, "dinner_table_and_final_exhibition");
    char *final = wb_apply(G, start, (const char *const[]){
        "0:go castle", "1:go castle", "2:go castle", "0:play exhibit",
        "1:play thief", "2:play detective", "0:exhibit A1 A2 A3",
        "1:steal A1", NULL});
    expect_pawns(final, (const int[]){37, 30, 23}, 3);
    wb_refused(G, final, 0, "exhibit A2 A3", "at least three");
    char *end = wb_apply(G, final, (const char *const[]){
        "0:exhibit nothing", "1:exhibit A1 B1 B2 B3 B4", "2:exhibit nothing",
        NULL});
    expect_pawns(end, (const int[]){37, 38, 23}, 3);
    json_t *score = wb_read(G, "score", end);
    cr_expect(json_is_true(json_object_get(score, "over")));
    cr_expect_eq(json_integer_value(json_array_get(
                     json_array_get(json_object_get(score, "ranking"), 0), 0)),
                 1, "Lord 1 wins");
    json_decref(score);
    free(start);
    free(final);
    free(end);
}
