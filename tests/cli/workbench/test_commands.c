/* pbem rules: every verb, its output and its exit codes (0 ok, 1 refused
 * by the rules, 2 usage). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_run.h"

static const char *const engines[] = {"adel_verplichtet", "antiquity_quest",
                                      "another_mans_treasure", "artifact_stack",
                                      "quarriors", NULL};

static char *new_position(const char *game, const char *seats)
{
    const char *args[] = {"rules", game, "new", "--seats", seats, "--seed",
                          "c0ffee", NULL};
    wb_result r = wb_run(NULL, args);
    cr_assert_eq(r.status, 0, "new %s: %s", game, r.err);
    free(r.err);
    return r.out;
}

/* The example with field key of its top-level object replaced. */
static char *edited(const char *text, const char *key, json_t *value)
{
    json_t *p = json_loads(text, 0, NULL);
    cr_assert_not_null(p);
    json_object_set_new(p, key, value);
    char *out = json_dumps(p, JSON_INDENT(2));
    json_decref(p);
    return out;
}

Test(workbench_commands, list_names_every_engine_with_seats_and_options)
{
    wb_result r = wb_run(NULL, (const char *const[]){"rules", "list", NULL});
    cr_assert_eq(r.status, 0);
    for (const char *const *g = engines; *g != NULL; g++)
        cr_expect_not_null(strstr(r.out, *g), "%s not listed", *g);
    cr_expect_not_null(strstr(r.out, "Artifact Stack, 2-4 seats"));
    cr_expect_not_null(strstr(r.out, "stacks=\"random\" (string)"));
    cr_expect_not_null(strstr(r.out, "claim_window_hours=12 (integer 0..168)"));
    wb_free(&r);
}

Test(workbench_commands, new_is_deterministic_for_a_seed_and_checks)
{
    for (const char *const *g = engines; *g != NULL; g++) {
        char *a = new_position(*g, "2");
        char *b = new_position(*g, "2");
        cr_expect_str_eq(a, b, "%s: same seed, same position", *g);
        cr_expect_not_null(strstr(a, "c0ffee00"), "the seed is in the snapshot");
        wb_result r = wb_run(a, (const char *const[]){"rules", *g, "check",
                                                      NULL});
        cr_expect_eq(r.status, 0, "%s: %s", *g, r.err);
        cr_expect_not_null(strstr(r.out, "ok"));
        wb_free(&r);
        free(a);
        free(b);
    }
}

Test(workbench_commands, new_takes_typed_options)
{
    const char *args[] = {"rules", "another_mans_treasure", "new", "--seats",
                          "3", "--option", "game=progressive", "--option",
                          "claim_window_hours=0", "--seed", "01", NULL};
    wb_result r = wb_run(NULL, args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *p = json_loads(r.out, 0, NULL);
    cr_expect_str_eq(json_string_value(json_object_get(p, "game")),
                     "progressive");
    cr_expect_eq(json_integer_value(json_object_get(p, "claim_window_hours")),
                 0);
    json_decref(p);
    wb_free(&r);
}

Test(workbench_commands, bad_set_ups_are_usage_errors)
{
    const char *const cases[][8] = {
        {"rules", "artifact_stack", "new", "--seats", "9", NULL},
        {"rules", "artifact_stack", "new", "--seats", "5", NULL},
        {"rules", "artifact_stack", "new", NULL},
        {"rules", "artifact_stack", "new", "--seats", "2", "--seed", "xyz",
         NULL},
        {"rules", "artifact_stack", "new", "--seats", "2", "--option",
         "colour=blue", NULL},
        {"rules", "no_such_game", "new", "--seats", "2", NULL},
        {"rules", "artifact_stack", "shuffle", NULL},
        {"rules", NULL},
        {"frobnicate", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wb_result r = wb_run(NULL, cases[i]);
        cr_expect_eq(r.status, 2, "case %zu: %d %s", i, r.status, r.err);
        cr_expect_str_empty(r.out);
        cr_expect_neq(strlen(r.err), 0, "case %zu says why", i);
        cr_expect_not_null(strchr(r.err, '\n'));
        cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1,
                     "one line: %s", r.err);
        wb_free(&r);
    }
}

Test(workbench_commands, a_json_action_equals_its_text_move)
{
    const char *g = "artifact_stack";
    char *start = wb_example(g, "china_abc_set_is_10");
    char *by_text = wb_apply(g, start, (const char *const[]){
        "0:flip china 1 5 9", NULL});
    const char *args[] = {"rules", g, "apply", "--seat", "0", "--json",
                          "{\"type\":\"flip\",\"stack\":\"china\","
                          "\"cards\":[1,5,9]}", NULL};
    wb_result r = wb_run(start, args);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, by_text);
    wb_free(&r);
    free(start);
    free(by_text);
}

Test(workbench_commands, apply_refuses_bad_moves_and_unreadable_ones)
{
    const char *g = "another_mans_treasure";
    char *start = wb_example(g, "conlon_lays_run_of_4_scores_25");
    wb_refused(g, start, 1, "draw", "");          /* not seat 1's turn */
    wb_refused(g, start, 0, "fly away", "");       /* no such move */
    wb_refused(g, start, 0, "discard B4", "");     /* draw first */
    const char *no_seat[] = {"rules", g, "apply", "--move", "draw", NULL};
    wb_result r = wb_run(start, no_seat);
    cr_expect_eq(r.status, 2, "a move needs a seat");
    wb_free(&r);
    const char *far_seat[] = {"rules", g, "apply", "--seat", "5", "--move",
                              "draw", NULL};
    r = wb_run(start, far_seat);
    cr_expect_eq(r.status, 2, "seat 5 is not at a 2-seat table");
    wb_free(&r);
    free(start);
}

Test(workbench_commands, legal_lists_moves_with_their_notation)
{
    const char *g = "another_mans_treasure";
    char *start = wb_example(g, "conlon_lays_run_of_4_scores_25");
    wb_result r = wb_run(start, (const char *const[]){"rules", g, "legal",
                                                      "--seat", "0", NULL});
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *legal = json_loads(r.out, 0, NULL);
    json_t *notation = json_object_get(legal, "notation");
    cr_expect_eq(json_array_size(notation),
                 json_array_size(json_object_get(legal, "moves")));
    cr_expect_not_null(strstr(r.out, "\"take\""));
    cr_expect_not_null(strstr(r.out, "\"draw\""));
    json_decref(legal);
    wb_free(&r);
    r = wb_run(start, (const char *const[]){"rules", g, "legal", "--seat", "1",
                                            NULL});
    cr_expect_not_null(strstr(r.out, "\"moves\": []"), "seat 1 may not act");
    wb_free(&r);
    free(start);
}

Test(workbench_commands, views_hide_the_seed_and_other_hands)
{
    for (const char *const *g = engines; *g != NULL; g++) {
        char *start = new_position(*g, "2");
        const char *const seats[] = {"0", "1", "spectator"};
        for (int i = 0; i < 3; i++) {
            const char *args[] = {"rules", *g, "view", "--seat", seats[i],
                                  NULL};
            wb_result r = wb_run(start, args);
            cr_expect_eq(r.status, 0, "%s view %s: %s", *g, seats[i], r.err);
            cr_expect_null(strstr(r.out, "c0ffee"), "%s: the seed shows", *g);
            wb_free(&r);
        }
        free(start);
    }
}

/* view --text prints what the mails show people: plain lines, naming
 * "seat 0"'s own things with "Your", never the seed. */
Test(workbench_commands, view_text_is_for_people)
{
    for (const char *const *g = engines; *g != NULL; g++) {
        char *start = new_position(*g, "2");
        const char *args[] = {"rules", *g, "view", "--seat", "0", "--text",
                              NULL};
        wb_result r = wb_run(start, args);
        cr_expect_eq(r.status, 0, "%s view --text: %s", *g, r.err);
        cr_expect_neq(r.out[0], '{', "%s: JSON instead of text:\n%s", *g,
                      r.out);
        cr_expect(strstr(r.out, "Your") != NULL || strstr(r.out, "You ") != NULL,
                  "%s: the seat's own part is not introduced:\n%s", *g, r.out);
        cr_expect_null(strstr(r.out, "c0ffee"), "%s: the seed shows", *g);
        wb_free(&r);
        const char *bad[] = {"rules", *g, "view", "--text", NULL};
        r = wb_run(start, bad);
        cr_expect_eq(r.status, 2, "%s: view --text without --seat", *g);
        wb_free(&r);
        free(start);
    }
}

Test(workbench_commands, pending_names_who_acts)
{
    char *start = wb_example("artifact_stack", "china_abc_set_is_10");
    json_t *p = wb_read("artifact_stack", "pending", start);
    cr_expect_str_eq(json_string_value(json_object_get(p, "wait")), "one");
    cr_expect_eq(wb_int_at(p, "seats", 0), 0);
    json_decref(p);
    free(start);
}

Test(workbench_commands, a_hand_edited_position_breaking_an_invariant_is_refused)
{
    const char *g = "artifact_stack";
    char *start = wb_example(g, "china_abc_set_is_10");
    char *rich = edited(start, "bank", json_integer(99)); /* silver from nowhere */
    wb_result r = wb_run(rich, (const char *const[]){"rules", g, "check", NULL});
    cr_expect_eq(r.status, 1);
    cr_expect_not_null(strstr(r.err, "silver"), "the invariant named: %s",
                       r.err);
    wb_free(&r);
    wb_refused(g, rich, 0, "flip china 1 5 9", "silver");
    free(rich);

    const char *amt = "another_mans_treasure";
    char *deal = wb_example(amt, "conlon_lays_run_of_4_scores_25");
    json_t *d = json_loads(deal, 0, NULL);
    json_t *discard = json_object_get(d, "discard_pile");
    cr_assert_not_null(discard, "the position form has a discard_pile");
    json_array_append_new(discard, json_string("B1")); /* a fourth B1 */
    char *twice = json_dumps(d, 0);
    json_decref(d);
    r = wb_run(twice, (const char *const[]){"rules", amt, "check", NULL});
    cr_expect_eq(r.status, 1, "a card in two places");
    cr_expect_str_empty(r.out);
    cr_expect_not_null(strstr(r.err, "refused"), "%s", r.err);
    cr_expect_not_null(strstr(r.err, "\"B1\""), "the card named: %s", r.err);
    wb_free(&r);
    free(twice);
    free(deal);
    free(start);
}

Test(workbench_commands, malformed_input_is_refused_not_crashed)
{
    const char *const inputs[] = {"", "{", "[1,2,3]", "{\"game\":\"x\"}",
                                  "null"};
    for (const char *const *g = engines; *g != NULL; g++) {
        for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
            wb_result r = wb_run(inputs[i], (const char *const[]){
                                                "rules", *g, "score", NULL});
            cr_expect_eq(r.status, 1, "%s, input %zu: %d", *g, i, r.status);
            cr_expect_str_empty(r.out);
            wb_free(&r);
        }
    }
}
