/* tell: what each Lord is told of a move, on the rulebook's castle
 * example: sealed choices stay sealed until all have chosen, then the
 * reveal says where each went, what each played, who advanced and what
 * the thief stole. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "av_fixture.h"

/* Seat plays text; told[1 + viewer] gets what each viewer is told. */
static void play_told(av_state *s, int seat, const char *text,
                      char *told[RULES_MAX_SEATS + 1])
{
    harness_apply_text_told(&av_engine, (rules_state *)s, seat, text, told);
}

/* Rulebook "The castle": Lord X (seat 0) and Lord Y (seat 1) exhibit, a
 * thief of seat 2 waits at Culloden Castle (3/2). */
static av_state *castle_example(void)
{
    av_state *s = fixture_new(3, NULL);
    fixture_give(s, 0, "A1 A2 B1 B2 C1 C2", true);
    fixture_give(s, 1, "B3 B4 C3 D1 D2 D3 E1", true);
    fixture_give(s, 2, "F1", true);
    s->lord[2].pawn = 8;
    s->lord[0].pawn = s->lord[1].pawn = 2;
    return s;
}

Test(av_tell, sealed_choices_are_told_once_every_lord_has_chosen)
{
    av_state *s = castle_example();
    char *told[RULES_MAX_SEATS + 1];
    play_told(s, 0, "go castle", told);
    cr_expect_str_eq(told[1 + 0], "You chose \"go castle\"; it is revealed "
                                  "when every Lord has chosen.");
    cr_expect_str_eq(told[1 + 1], "Alice chose in secret.");
    cr_expect_str_eq(told[0], "Alice chose in secret.");
    harness_told_free(told);
    play_told(s, 1, "go castle", told);
    harness_told_free(told);
    play_told(s, 2, "go castle", told);
    cr_expect_str_eq(told[1 + 1], "Alice went to the castle. You went to the "
                                  "castle. Carol went to the castle.");
    harness_told_free(told);
    play_told(s, 0, "play exhibit", told);
    harness_told_free(told);
    play_told(s, 1, "play exhibit", told);
    harness_told_free(told);
    play_told(s, 2, "play thief 3", told);
    cr_expect_str_eq(told[1 + 2], "Alice played his exhibit card at the "
                                  "castle. Bob played his exhibit card at "
                                  "the castle. You played thief 3 at the "
                                  "castle.");
    cr_expect_str_eq(told[1 + 0], "You played your exhibit card at the "
                                  "castle. Bob played his exhibit card at "
                                  "the castle. Carol played thief 3 at the "
                                  "castle.");
    harness_told_free(told);
    play_told(s, 0, "exhibit A1 A2 B1 B2 C1 C2", told);
    cr_expect_str_eq(told[1 + 1], "Alice chose in secret.");
    harness_told_free(told);
    play_told(s, 1, "exhibit D1 D2 D3 E1", told);
    cr_expect_str_eq(told[0],
                     "Alice exhibited: A1 A2 B1 B2 C1 C2. Bob exhibited: D1 "
                     "D2 D3 E1. Alice showed the best exhibit and advanced 3 "
                     "(octagon of castle 4 (Culloden)). Bob showed the "
                     "second-best exhibit and advanced 2.");
    harness_told_free(told);
    play_told(s, 2, "steal C1", told);
    cr_expect_str_eq(told[1 + 0], "Thief 3 stole C1 from your exhibit.");
    harness_told_free(told);
    av_engine.destroy((rules_state *)s);
}

Test(av_tell, the_detective_turn_tells_who_was_caught)
{
    av_state *s = fixture_new(3, NULL);
    const char *const go[] = {"go castle", "go castle", "go castle"};
    fixture_all(s, go);
    const char *const plays[] = {"play detective", "play thief 7", NULL};
    fixture_all(s, plays);
    char *told[RULES_MAX_SEATS + 1];
    play_told(s, 2, "play thief 3", told);
    cr_expect_str_eq(told[1 + 2],
                     "Alice played his detective at the castle. Bob played "
                     "thief 7 at the castle. You played thief 3 at the "
                     "castle. Thief 3 was caught and entered cell #1. Thief 7 "
                     "was caught and entered cell #1. Alice's detective "
                     "advanced Alice 1.");
    harness_told_free(told);
    /* to the detective's own Lord */
    av_engine.destroy((rules_state *)s);
    s = fixture_new(3, NULL);
    fixture_all(s, go);
    fixture_all(s, plays);
    play_told(s, 2, "play thief 3", told);
    cr_expect_str_eq(told[1 + 0],
                     "You played your detective at the castle. Bob played "
                     "thief 7 at the castle. Carol played thief 3 at the "
                     "castle. Thief 3 was caught and entered cell #1. Thief "
                     "7 was caught and entered cell #1. Your detective "
                     "advanced you 1.");
    harness_told_free(told);
    av_engine.destroy((rules_state *)s);
}

/* The service tells a resolved decision once per sealed choice, each from
 * the state before them all to the state after: each choice's tell, in
 * seat order, joined by " | " (moves[seat] NULL: the seat does not
 * choose). Together they tell each Lord's choice once and what the
 * choices did once. */
static char *told_per_choice(av_state *s, const char *const moves[3],
                             int viewer)
{
    rules_state *before = av_engine.clone((rules_state *)s);
    json_t *actions[3] = {NULL, NULL, NULL};
    for (int seat = 0; seat < 3; seat++) {
        if (moves[seat] == NULL)
            continue;
        rules_error err = {{0}};
        actions[seat] =
            av_engine.parse_move((rules_state *)s, seat, moves[seat], &err);
        cr_assert_not_null(actions[seat], "%s: %s", moves[seat], err.message);
        cr_assert(av_engine.apply((rules_state *)s, seat, actions[seat], &err),
                  "%s: %s", moves[seat], err.message);
    }
    char *story = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&story, &len);
    for (int seat = 0; seat < 3; seat++) {
        if (actions[seat] == NULL)
            continue;
        char *one = rules_tell(&av_engine, before, (rules_state *)s, seat,
                               actions[seat], viewer, harness_names);
        fprintf(f, "%s%s", ftell(f) > 0 ? " | " : "", one);
        free(one);
        json_decref(actions[seat]);
    }
    fclose(f);
    av_engine.destroy(before);
    return story;
}

Test(av_tell, a_decision_told_choice_by_choice_tells_the_reveal_once)
{
    av_state *s = castle_example();
    const char *const go[] = {"go castle", "go castle", "go castle"};
    char *story = told_per_choice(s, go, 1);
    cr_expect_str_eq(story, "Alice went to the castle. | You went to the "
                            "castle. | Carol went to the castle.");
    free(story);
    const char *const plays[] = {"play exhibit", "play exhibit",
                                 "play thief 3"};
    story = told_per_choice(s, plays, 0);
    cr_expect_str_eq(story, "You played your exhibit card at the castle. | "
                            "Bob played his exhibit card at the castle. | "
                            "Carol played thief 3 at the castle.");
    free(story);
    /* Carol's thief does not exhibit: two choices, the outcome told once,
     * with the last. */
    const char *const exhibits[] = {"exhibit A1 A2 B1 B2 C1 C2",
                                    "exhibit D1 D2 D3 E1", NULL};
    story = told_per_choice(s, exhibits, RULES_SPECTATOR);
    cr_expect_str_eq(story, "Alice exhibited: A1 A2 B1 B2 C1 C2. | Bob "
                            "exhibited: D1 D2 D3 E1. Alice showed the best "
                            "exhibit and advanced 3 (octagon of castle 4 "
                            "(Culloden)). Bob showed the second-best exhibit "
                            "and advanced 2.");
    free(story);
    av_engine.destroy((rules_state *)s);
}
