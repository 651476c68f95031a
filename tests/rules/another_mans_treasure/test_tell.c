/* tell: what each seat is told when a move is made, at known positions;
 * and the harness's check of those sentences, shown failing on leaky
 * ones (every engine's random play relies on it). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "support.h"

/* Seat 0 to draw R1 from the pile; G10 on the discard pile. */
static amt_state *r1_on_top(void)
{
    amt_state *s = amt_test_new(3, NULL);
    const char *const hands[] = {"B8 B1 B2 B3 R5 R6 R7 Y5s",
                                 "Y1 Y2 Y3 Y4 B9 B10 R10 W1-6",
                                 "G1 G2 G3 G4 Y8 Y9 B11 Y11"};
    amt_test_deal(s, hands, "G10", "R1", 0);
    return s;
}

/* What the harness finds wrong with told, said by viewer's tell of seat 0
 * drawing R1 (NULL: nothing). */
static char *problem_with_draw_told(int viewer, const char *told)
{
    amt_state *s = r1_on_top();
    rules_state *before = amt_engine.clone((const rules_state *)s);
    amt_test_do(s, 0, "draw");
    json_t *draw = json_pack("{s:s}", "type", "draw");
    char *problem = harness_tell_problem(
        &amt_engine, before, (const rules_state *)s, 0, draw, viewer, told);
    json_decref(draw);
    amt_engine.destroy(before);
    amt_engine.destroy((rules_state *)s);
    return problem;
}

Test(amt_tell_check, a_card_drawn_by_another_seat_may_not_be_named)
{
    char *problem = problem_with_draw_told(1, "Alice drew R1.");
    cr_assert_not_null(problem, "the harness let Bob read Alice's R1");
    cr_assert_not_null(strstr(problem, "\"r1\""), "%s", problem);
    free(problem);
    problem = problem_with_draw_told(RULES_SPECTATOR, "Alice drew r1.");
    cr_assert_not_null(problem, "the harness let a spectator read R1");
    free(problem);
}

Test(amt_tell_check, the_drawer_may_read_its_card_and_others_the_count)
{
    char *problem = problem_with_draw_told(0, "You drew R1.");
    cr_assert_null(problem, "%s", problem);
    problem = problem_with_draw_told(1, "Alice drew a card.");
    cr_assert_null(problem, "%s", problem);
    /* G10 lies face up on the discard pile: anyone may read it. */
    problem = problem_with_draw_told(2, "Alice drew instead of taking G10.");
    cr_assert_null(problem, "%s", problem);
}

Test(amt_tell_check, long_multiline_or_empty_sentences_are_refused)
{
    char long_text[302];
    memset(long_text, 'a', 301);
    long_text[301] = '\0';
    const char *const bad[] = {long_text, "Alice drew\na card.", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *problem = problem_with_draw_told(1, bad[i]);
        cr_assert_not_null(problem, "\"%s\" passed", bad[i]);
        free(problem);
    }
}

Test(amt_tell_check, the_seed_may_not_be_told)
{
    amt_state *s = r1_on_top();
    json_t *snapshot = amt_engine.save((const rules_state *)s);
    char *text = rules_sorted_json(snapshot);
    const char *seed = strstr(text, "\"seed\":\"");
    cr_assert_not_null(seed, "no seed in %s", text);
    char told[100];
    snprintf(told, sizeof told, "Seed %.64s.", seed + 8);
    char *problem = problem_with_draw_told(0, told);
    cr_assert_not_null(problem, "the seed was told");
    free(problem);
    free(text);
    json_decref(snapshot);
    amt_engine.destroy((rules_state *)s);
}
