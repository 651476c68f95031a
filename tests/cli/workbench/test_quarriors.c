/* Quarriors! with Quartifacts: the rulebook's quest cases, loaded from
 * rules/quarriors/examples/ and played through `pbem rules`. A die is
 * found by its number in the lists of the snapshot's places (README
 * "Snapshot"). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_run.h"

#define G "quarriors"

/* The entry of die d in list (an array of "NUMBER CARD, ..." texts), or
 * NULL. */
static const char *entry_of(const json_t *list, int d)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        const char *text = json_string_value(v);
        char *end;
        if (text != NULL && strtol(text, &end, 10) == d && end != text &&
            *end == ' ')
            return text;
    }
    return NULL;
}

/* The place (zone) and owner of die d in a position: its dice are listed
 * under the Wilds, the Quest Area or a player's places (README
 * "Snapshot"). */
static void die_of(const char *position, int d, char *zone, int *owner)
{
    json_t *p = json_loads(position, 0, NULL);
    cr_assert_not_null(p);
    *owner = -1;
    zone[0] = '\0';
    if (entry_of(json_object_get(json_object_get(p, "wilds"), "dice"), d))
        strcpy(zone, "wilds");
    if (entry_of(json_object_get(json_object_get(p, "quest_area"), "dice"),
                 d))
        strcpy(zone, "quest_card");
    size_t s;
    const json_t *player;
    json_array_foreach(json_object_get(p, "players"), s, player) {
        const char *key;
        const json_t *list;
        json_object_foreach((json_t *)player, key, list) {
            if (json_is_array(list) && entry_of(list, d) != NULL) {
                snprintf(zone, 16, "%s", key);
                *owner = (int)s;
            }
        }
    }
    cr_assert_neq(zone[0], '\0', "no die %d", d);
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
