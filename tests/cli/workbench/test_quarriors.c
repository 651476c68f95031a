/* Quarriors! with Quartifacts: the rulebook's quest cases, loaded from
 * rules/quarriors/examples/ and played through `pbem rules`. Die numbers
 * are the indices of the snapshot's "dice" list (README "Snapshot"). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_run.h"

#define G "quarriors"

/* The first word (zone) and fourth (owner) of die d in a position. */
static void die_of(const char *position, int d, char *zone, int *owner)
{
    json_t *p = json_loads(position, 0, NULL);
    const char *text = json_string_value(
        json_array_get(json_object_get(p, "dice"), (size_t)d));
    cr_assert_not_null(text, "no die %d", d);
    int slot, quest_die;
    cr_assert_eq(sscanf(text, "%15s %d %d %d", zone, &slot, &quest_die, owner),
                 4);
    json_decref(p);
}

static long long glory(const char *position, int seat)
{
    json_t *score = wb_read(G, "score", position);
    long long g = wb_int_at(score, "scores", (size_t)seat);
    json_decref(score);
    return g;
}

Test(workbench_qq, challenge_wipes_out_the_questers_and_takes_over)
{
    char *start = wb_example(G, "challenge_wipes_out_the_questers");
    char *fought = wb_apply(G, start, (const char *const[]){
        "0:challenge exqualibur 28", NULL});
    char zone[16];
    int owner;
    die_of(fought, 27, zone, &owner);
    cr_expect_str_eq(zone, "used", "4 damage destroys the 3/2 quester");
    cr_expect_eq(glory(fought, 0), 1, "1 glory per creature destroyed");
    char *end = wb_apply(G, fought, (const char *const[]){"0:take", NULL});
    die_of(end, 28, zone, &owner);
    cr_expect_str_eq(zone, "quest", "the challenger now quests");
    free(start);
    free(fought);
    free(end);
}

Test(workbench_qq, completing_a_quest_culls_per_creature_then_3_glory)
{
    char *start = wb_example(G, "completing_a_quest_culls_per_creature");
    char *end = wb_apply(G, start, (const char *const[]){
        "1:end", "0:cull 27", "0:cull 28", NULL});
    cr_expect_eq(glory(end, 0), 3, "Exqualibur's glory, once");
    char zone[16];
    int owner;
    die_of(end, 27, zone, &owner);
    cr_expect_str_eq(zone, "wilds", "a culled die goes back to its card");
    free(start);
    free(end);
}

Test(workbench_qq, seizing_the_last_quest_die)
{
    char *start = wb_example(G, "seizing_the_last_quest_die");
    char *scored = wb_apply(G, start, (const char *const[]){"2:end", "0:done",
                                                            NULL});
    cr_expect_eq(glory(scored, 0), 2, "the quest scores its glory once");
    wb_refused(G, scored, 0, "seize 0", "holds one");
    char *end = wb_apply(G, scored, (const char *const[]){"0:seize 2", NULL});
    char zone[16];
    int owner;
    die_of(end, 99, zone, &owner);
    cr_expect_neq(owner, 2, "seat 2 lost its quest die");
    die_of(end, 98, zone, &owner);
    cr_expect_eq(owner, 1, "seat 1 keeps its die");
    free(start);
    free(scored);
    free(end);
}
