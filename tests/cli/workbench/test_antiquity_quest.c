/* Antiquity Quest: the rulebook's worked examples, loaded from
 * rules/antiquity_quest/examples/ and played through `pbem rules`. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_run.h"

#define G "antiquity_quest"

static void need_engine(void)
{
    if (!wb_has_engine(G))
        cr_assert_fail("antiquity_quest is not in this build's registry");
}

/* The finished round's breakdown for side: detail.rounds[0].sides[side]. */
static json_t *round_side(const json_t *score, int side)
{
    json_t *rounds = json_object_get(json_object_get(score, "detail"), "rounds");
    return json_array_get(json_object_get(json_array_get(rounds, 0), "sides"),
                          (size_t)side);
}

static long long field(const json_t *object, const char *key)
{
    return json_integer_value(json_object_get(object, key));
}

/* Collection id as the spectator sees it. */
static json_t *collection(const char *position, int id)
{
    const char *args[] = {"rules", G, "view", "--seat", "spectator", NULL};
    wb_result r = wb_run(position, args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *view = json_loads(r.out, 0, NULL);
    wb_free(&r);
    json_t *found = NULL;
    size_t i, j;
    json_t *side, *c;
    json_array_foreach(json_object_get(view, "sides"), i, side) {
        json_array_foreach(json_object_get(side, "collections"), j, c) {
            if (field(c, "id") == id)
                found = json_incref(c);
        }
    }
    json_decref(view);
    cr_assert_not_null(found, "no collection %d", id);
    return found;
}

static void expect_collection(const char *position, int id, const char *grade,
                              bool complete, int value)
{
    json_t *c = collection(position, id);
    cr_expect_str_eq(json_string_value(json_object_get(c, "grade")), grade,
                     "collection %d grade", id);
    cr_expect_eq(json_is_true(json_object_get(c, "complete")), complete,
                 "collection %d complete", id);
    cr_expect_eq(field(c, "value"), value, "collection %d value", id);
    json_decref(c);
}

Test(workbench_aq, roberts_score_500_3500_1425_is_5425)
{
    need_engine();
    char *start = wb_example(G, "roberts_score");
    char *end = wb_apply(G, start, (const char *const[]){
        "0:add 6 purple5", "1:draw", "1:discard yellow5", NULL});
    json_t *score = wb_read(G, "score", end);
    cr_expect(json_is_true(json_object_get(score, "over")));
    json_t *robert = round_side(score, 0);
    cr_expect_eq(field(robert, "bonus"), 500);
    cr_expect_eq(field(robert, "collections"), 3500);
    cr_expect_eq(field(robert, "played"), 1425);
    cr_expect_eq(field(robert, "unplayed"), 0);
    cr_expect_eq(wb_int_at(score, "scores", 0), 5425);
    json_decref(score);
    free(start);
    free(end);
}

Test(workbench_aq, eliza_perfect_sabotaged_to_standard)
{
    need_engine();
    char *start = wb_example(G, "eliza_perfect_sabotaged_to_standard");
    expect_collection(start, 2, "perfect", false, 0);
    char *end = wb_apply(G, start, (const char *const[]){"0:add 2 orange1",
                                                         NULL});
    expect_collection(end, 2, "standard", true, 500);
    free(start);
    free(end);
}

Test(workbench_aq, discard_pile_pickup)
{
    need_engine();
    char *start = wb_example(G, "discard_pile_pickup");
    char *end = wb_apply(G, start, (const char *const[]){
        "0:pickup green1 green2", NULL});
    json_t *p = json_loads(end, 0, NULL);
    cr_expect_str_eq(json_string_value(json_object_get(p, "phase")), "play",
                     "the turn continues");
    cr_expect_str_eq(json_string_value(json_object_get(p, "discard_pile")), "");
    /* tokens are name.copy (README "Cards"): compare the names */
    const char *hand = json_string_value(
        json_array_get(json_object_get(p, "hands"), 0));
    cr_expect_not_null(strstr(hand, "greenW."), "the wild stays in hand");
    cr_expect_not_null(strstr(hand, "red3."));
    cr_expect_not_null(strstr(hand, "crown."));
    cr_expect_not_null(strstr(hand, "yellow3."));
    cr_expect_null(strstr(hand, "green1."));
    json_decref(p);
    expect_collection(end, 2, "perfect", false, 0);
    free(start);
    free(end);
}

Test(workbench_aq, red_1_3_5_then_2_and_wild_is_perfect)
{
    need_engine();
    char *start = wb_example(G, "red_135_then_2_and_wild_is_perfect");
    char *first = wb_apply(G, start, (const char *const[]){
        "0:draw", "0:play red1 red3 red5", "0:discard yellow1", NULL});
    expect_collection(first, 1, "perfect", false, 0);
    char *end = wb_apply(G, first, (const char *const[]){
        "1:draw", "1:discard blue1", "0:draw", "0:add 1 red2 redW", NULL});
    expect_collection(end, 1, "perfect", true, 1000);
    free(start);
    free(first);
    free(end);
}

Test(workbench_aq, civilization_bonus_250_500_750_is_1500)
{
    need_engine();
    char *start = wb_example(G, "civilization_bonus_1500");
    char *end = wb_apply(G, start, (const char *const[]){
        "0:add 4 green5", "1:draw", "1:discard yellow5", NULL});
    json_t *score = wb_read(G, "score", end);
    cr_expect_eq(field(round_side(score, 0), "civilization"), 1500);
    cr_expect_eq(wb_int_at(score, "scores", 0), 500 + 3750 + 800 + 1500);
    json_decref(score);
    free(start);
    free(end);
}
