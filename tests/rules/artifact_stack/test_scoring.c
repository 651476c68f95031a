/* The final scoring, rule by rule, as the rulebook states it. */
#include <criterion/criterion.h>

#include "fixture.h"

#define ALL_SCORING "statues,coins,relics,china,monsters,treasures"

static as_score score_of(const as_state *s, int seat)
{
    as_score sc[RULES_MAX_SEATS];
    as_score_all(s, sc);
    return sc[seat];
}

/* Every silver counts 1 VP; start from none so the sums are plain. */
static void no_silver(as_state *s)
{
    for (int p = 0; p < s->seats; p++) {
        s->bank += s->silver[p];
        s->silver[p] = 0;
    }
}

Test(as_scoring, statues_1_3_6_10)
{
    cr_expect_eq(as_statue_set_vp(1), 1);
    cr_expect_eq(as_statue_set_vp(2), 3);
    cr_expect_eq(as_statue_set_vp(3), 6);
    cr_expect_eq(as_statue_set_vp(4), 10);
    as_state *s = fx_new(2, ALL_SCORING);
    fx_give(s, 0, "statues4");
    cr_expect_eq(score_of(s, 0).statues, 1, "1 statue = 1 VP");
    fx_give(s, 0, "statues5");
    cr_expect_eq(score_of(s, 0).statues, 3, "2 statues = 3 VP");
    fx_give(s, 0, "statues6");
    cr_expect_eq(score_of(s, 0).statues, 6, "3 statues = 6 VP");
    fx_check(s);
    as_engine.destroy((rules_state *)s);
}

/* "You may not activate 3 statues and turn them for 6 points and afterwards
 * add an extra statue to that set to get 10 points." */
Test(as_scoring, flipped_statues_cannot_be_reused)
{
    as_state *s = fx_new(2, ALL_SCORING);
    fx_give(s, 0, "statues1");
    fx_give(s, 0, "statues2");
    fx_give(s, 0, "statues3");
    fx_do(s, 0, "flip statues 1 2 3");
    cr_expect_eq(score_of(s, 0).statues, 6);
    fx_give(s, 0, "statues4");
    fx_reject(s, 0, "flip statues 3 4", "never reused");
    cr_expect_eq(score_of(s, 0).statues, 6 + 1,
                 "the extra statue starts a new set: 6 + 1, not 10");
    fx_give(s, 0, "statues5");
    cr_expect_eq(score_of(s, 0).statues, 6 + 3);
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, coins_and_plain_cards_score_their_vp)
{
    as_state *s = fx_new(2, "coins,weapons,manuscripts,jewelry,relics,curses");
    no_silver(s);
    fx_give(s, 0, "coins4");
    fx_give(s, 0, "weapons4");
    fx_give(s, 0, "manuscripts4");
    fx_give(s, 0, "jewelry4");
    fx_give(s, 0, "curses1");
    cr_expect_eq(score_of(s, 0).cards, 2 + 1 + 1 + 1 + 0);
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, relic_majority_plus_3_minus_3_with_ties)
{
    as_state *s = fx_new(3, ALL_SCORING);
    fx_give(s, 0, "relics1");
    fx_give(s, 0, "relics2");
    fx_give(s, 1, "relics3");
    fx_give(s, 1, "relics4");
    /* 2, 2, 0: both leaders +3, the last -3 */
    cr_expect_eq(score_of(s, 0).relic_bonus, 3);
    cr_expect_eq(score_of(s, 1).relic_bonus, 3);
    cr_expect_eq(score_of(s, 2).relic_bonus, -3);
    /* 3, 2, 1: in between gets nothing */
    fx_give(s, 0, "relics5");
    fx_give(s, 2, "relics6");
    cr_expect_eq(score_of(s, 0).relic_bonus, 3);
    cr_expect_eq(score_of(s, 1).relic_bonus, 0);
    cr_expect_eq(score_of(s, 2).relic_bonus, -3);
    /* 3, 3, 3: everybody tied, nobody gains or loses (RULING) */
    fx_give(s, 1, "relics7");
    fx_give(s, 2, "relics8");
    fx_give(s, 2, "relics9");
    for (int p = 0; p < 3; p++)
        cr_expect_eq(score_of(s, p).relic_bonus, 0);
    cr_expect_eq(score_of(s, 0).cards, 3, "each relic is also 1 VP");
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, relic_fewest_tie_all_lose_3)
{
    as_state *s = fx_new(3, ALL_SCORING);
    fx_give(s, 0, "relics1");
    fx_give(s, 0, "relics2");
    fx_give(s, 1, "relics3");
    fx_give(s, 2, "relics4");
    cr_expect_eq(score_of(s, 0).relic_bonus, 3);
    cr_expect_eq(score_of(s, 1).relic_bonus, -3);
    cr_expect_eq(score_of(s, 2).relic_bonus, -3);
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, star_majority_3_vp_ties_share)
{
    as_state *s = fx_new(3, ALL_SCORING);
    for (int p = 0; p < 3; p++)
        cr_expect_eq(score_of(s, p).stars_bonus, 0, "no stars, no star card");
    fx_give(s, 0, "coins1");      /* cards 1-3 carry a star */
    fx_give(s, 0, "china2");
    fx_give(s, 1, "statues3");
    fx_give(s, 1, "monsters1");
    fx_give(s, 2, "relics1");
    fx_give(s, 2, "relics9");     /* no star */
    cr_expect_eq(score_of(s, 0).stars_bonus, 3);
    cr_expect_eq(score_of(s, 1).stars_bonus, 3);
    cr_expect_eq(score_of(s, 2).stars_bonus, 0);
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, china_sets_4_8_10)
{
    as_state *s = fx_new(2, ALL_SCORING);
    /* letters: 1 A, 2 B, 3 C, 4 A, 5 B, 6 C, 7 A, 8 B, 9 C */
    fx_give(s, 0, "china1");
    fx_give(s, 0, "china4");
    cr_expect_eq(score_of(s, 0).cards, 2, "a lone China card is 1 VP");
    fx_do(s, 0, "flip china 1 4");
    cr_expect_eq(score_of(s, 0).china, 4, "a pair of one letter is 4 VP");
    cr_expect_eq(score_of(s, 0).cards, 0);
    fx_give(s, 0, "china2");
    fx_give(s, 0, "china5");
    fx_give(s, 0, "china8");
    fx_do(s, 0, "flip china 2 5 8");
    cr_expect_eq(score_of(s, 0).china, 4 + 8, "three of a letter are 8 VP");
    fx_give(s, 1, "china3");
    fx_give(s, 1, "china7");
    fx_give(s, 1, "china9");
    s->turn = 1;
    fx_reject(s, 1, "flip china 3 7", "same letter");
    fx_give(s, 1, "china6");
    fx_reject(s, 1, "flip china 3 6 7 9", "2 or 3");
    fx_reject(s, 1, "flip china 6 7 9", "same letter"); /* C, A, C */
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, china_abc_set_is_10)
{
    as_state *s = fx_new(2, ALL_SCORING);
    fx_give(s, 0, "china1");
    fx_give(s, 0, "china5");
    fx_give(s, 0, "china9");
    fx_reject(s, 0, "flip china 1 5", "same letter");
    fx_do(s, 0, "flip china 1 5 9");
    cr_expect_eq(score_of(s, 0).china, 10);
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, monster_combos)
{
    /* vampire + cross 5, mummy + coffin 5, vampire mummy + either 4,
     * loose monster -1, loose cross -1, loose coffin +2 */
    cr_expect_eq(as_monster_vp(1, 0, 0, 1, 0), 5);
    cr_expect_eq(as_monster_vp(0, 1, 0, 0, 1), 5);
    cr_expect_eq(as_monster_vp(0, 0, 1, 0, 1), 4);
    cr_expect_eq(as_monster_vp(0, 0, 1, 1, 0), 4);
    cr_expect_eq(as_monster_vp(1, 1, 1, 0, 0), -3);
    cr_expect_eq(as_monster_vp(0, 0, 0, 1, 1), -1 + 2);
    cr_expect_eq(as_monster_vp(1, 0, 0, 0, 1), -1 + 2,
                 "a coffin does not catch a vampire");
    cr_expect_eq(as_monster_vp(1, 0, 1, 1, 0), 5 - 1,
                 "the cross catches the vampire, not the vampire mummy");
    cr_expect_eq(as_monster_vp(2, 2, 1, 2, 2), 5 * 4 - 1);
    as_state *s = fx_new(2, ALL_SCORING);
    /* 1 vampire, 2 mummy, 3 cross, 4 coffin, 5 vampire mummy */
    fx_give(s, 0, "monsters1");
    fx_give(s, 0, "monsters3");
    fx_give(s, 0, "monsters5");
    cr_expect_eq(score_of(s, 0).monsters, 5 - 1);
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, treasure_points_or_silver)
{
    as_state *s = fx_new(2, ALL_SCORING);
    no_silver(s);
    fx_keep_only(s, (const char *const[]){"2.0.0", "2.1.0", NULL});
    fx_place(s, "2.0.0", "treasures9");  /* 5 VP */
    fx_place(s, "2.1.0", "treasures4");  /* 3 VP */
    fx_do(s, 0, "take 2.0.0");
    fx_reject(s, 0, "done", "keep or cash");
    fx_do(s, 0, "keep");
    cr_expect_eq(score_of(s, 0).treasures, 5);
    cr_expect_eq(score_of(s, 0).cards, 0, "a treasure is itemised apart");
    cr_expect_eq(s->turn, 1);
    fx_do(s, 1, "take 2.1.0");
    fx_do(s, 1, "cash");
    cr_expect_eq(s->silver[1], 1, "3 VP cash in for 1 silver (rounded down)");
    cr_expect_eq(score_of(s, 1).cards, 0, "a cashed treasure scores nothing");
    as_engine.destroy((rules_state *)s);
}

Test(as_scoring, assistants_silver_and_total)
{
    as_state *s = fx_new(2, ALL_SCORING);
    s->assistant_owner[as_assistant_by_name("sculptor")] = 0;
    s->assistant_owner[as_assistant_by_name("excavator")] = 0;
    as_score sc = score_of(s, 0);
    cr_expect_eq(sc.assistants, 1 + 2 + 1, "1 VP each, +2 for the sculptor");
    cr_expect_eq(sc.silver, 2, "1 VP per silver");
    cr_expect_eq(sc.total, 4 + 2);
    as_engine.destroy((rules_state *)s);
}

/* Equal totals: seat 0 two coins (4 VP, 2 cards), seat 1 one coin and
 * two silver (4 VP, 1 card). */
static as_state *tied_at_4(void)
{
    as_state *t = fx_new(2, "coins,weapons,manuscripts,jewelry,statues,china");
    no_silver(t);
    fx_give(t, 0, "coins4");
    fx_give(t, 0, "coins5");
    fx_give(t, 1, "coins6");
    t->silver[1] = 2;
    t->bank -= 2;
    return t;
}

static json_t *ranking_of(const as_state *s)
{
    json_t *result = as_engine.result((const rules_state *)s);
    json_t *ranking = json_incref(json_object_get(result, "ranking"));
    json_decref(result);
    return ranking;
}

Test(as_scoring, tie_break_most_artifact_cards_then_most_silver)
{
    as_score sc[RULES_MAX_SEATS];
    json_t *ranking;
    /* equal totals: seat 0 wins on cards */
    as_state *t = tied_at_4();
    as_score_all(t, sc);
    cr_expect_eq(sc[0].total, sc[1].total);
    ranking = ranking_of(t);
    cr_expect_eq(json_integer_value(json_array_get(json_array_get(ranking, 0), 0)), 0);
    json_decref(ranking);
    /* equal totals and cards: more silver wins */
    fx_give(t, 1, "statues4");               /* +1 VP, +1 card */
    t->silver[0] = 1;
    t->bank -= 1;
    as_score_all(t, sc);
    cr_expect_eq(sc[0].total, sc[1].total);
    cr_expect_eq(sc[0].artifact_cards, sc[1].artifact_cards);
    ranking = ranking_of(t);
    cr_expect_eq(json_integer_value(json_array_get(json_array_get(ranking, 0), 0)), 1);
    json_decref(ranking);
    as_engine.destroy((rules_state *)t);

    /* all equal: they share the place */
    as_state *u = fx_new(2, "coins,weapons,manuscripts,jewelry,statues,china");
    fx_give(u, 0, "coins4");
    fx_give(u, 1, "coins5");
    ranking = ranking_of(u);
    cr_expect_eq(json_array_size(ranking), 1, "a full tie shares first place");
    cr_expect_eq(json_array_size(json_array_get(ranking, 0)), 2);
    json_decref(ranking);
    as_engine.destroy((rules_state *)u);
}

/* The end breakdown a player reads: the parts of the points add up to the
 * total, a kept treasure is a part of its own, and the counts that are not
 * points (the tie-breakers, the stars and relics the bonuses compare) are
 * kept apart from the points. */
Test(as_scoring, the_breakdown_adds_up_and_keeps_tie_breakers_apart)
{
    as_state *s = fx_new(2, ALL_SCORING);
    fx_give(s, 0, "treasures9");   /* 5 VP */
    fx_give(s, 0, "coins4");       /* 2 VP */
    fx_give(s, 0, "statues4");     /* 1 VP */
    fx_give(s, 0, "relics4");      /* 1 VP, and the relic bonus */
    s->over = true;
    json_t *result = as_engine.result((const rules_state *)s);
    json_t *detail = json_array_get(json_object_get(result, "detail"), 0);
    json_t *points = json_object_get(detail, "points");
    cr_assert(json_is_object(points), "%s", json_dumps(detail, 0));
    cr_expect_eq(json_integer_value(json_object_get(points, "treasures")), 5);
    cr_expect_eq(json_integer_value(json_object_get(points, "cards")), 3);
    long long sum = 0;
    const char *key;
    json_t *value;
    json_object_foreach(points, key, value) sum += json_integer_value(value);
    cr_expect_eq(sum, json_integer_value(json_object_get(detail, "total")));
    cr_expect_eq(sum, json_integer_value(json_array_get(
                          json_object_get(result, "scores"), 0)));
    cr_expect_null(json_object_get(points, "artifact_cards"));
    cr_expect_eq(json_integer_value(json_object_get(
                     json_object_get(detail, "tie_breakers"),
                     "artifact_cards")),
                 4);
    json_decref(result);
    as_engine.destroy((rules_state *)s);
}

/* Once over, the result says why the match ended and, when cards or
 * silver separated equal totals, which tie-break did. */
Test(as_scoring, the_result_names_the_end_and_the_tie_break)
{
    as_state *t = tied_at_4();
    json_t *result = as_engine.result((const rules_state *)t);
    cr_expect_null(json_object_get(result, "reason"), "not over yet");
    json_decref(result);
    t->over = true;
    result = as_engine.result((const rules_state *)t);
    cr_expect_str_eq(json_string_value(json_object_get(result, "reason")),
                     "The match ended because the second temple was "
                     "emptied.");
    cr_expect_str_eq(json_string_value(json_object_get(result, "tie_break")),
                     "Tied at 4: seat 0 holds more artifact cards (2 to 1).");
    json_decref(result);
    fx_give(t, 1, "statues4");
    t->silver[0] = 1;
    t->bank -= 1;
    result = as_engine.result((const rules_state *)t);
    cr_expect_str_eq(json_string_value(json_object_get(result, "tie_break")),
                     "Tied at 5 and on artifact cards (2): seat 1 holds more "
                     "silver (2 to 1).");
    json_decref(result);
    as_engine.destroy((rules_state *)t);

    as_state *u = fx_new(2, "coins,weapons,manuscripts,jewelry,statues,china");
    fx_give(u, 0, "coins4");
    fx_give(u, 1, "coins5");
    u->over = true;
    result = as_engine.result((const rules_state *)u);
    cr_expect_null(json_object_get(result, "tie_break"),
                   "a full tie shares the place: no tie-break");
    json_decref(result);
    as_engine.destroy((rules_state *)u);
}
