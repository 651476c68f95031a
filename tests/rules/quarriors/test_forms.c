/* The move forms legal() lists ("capture CARD", "end") are the forms of
 * the moves it lists, so a heading of the mail never offers a move the
 * rules refuse (issue #43: "capture CARD | pass | end" in phase 4, where
 * "pass" was refused). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "position.h"
#include "quarriors/quarriors.h"

/* The first word of each form equals the type of some listed move (the
 * quest's form starts "quest start"), and each listed move's type has a
 * form. */
static void expect_forms_match_moves(const json_t *legal)
{
    const json_t *moves = json_object_get(legal, "moves");
    const json_t *forms = json_object_get(legal, "forms");
    size_t i, k;
    const json_t *form, *move;
    json_array_foreach(forms, i, form)
    {
        const char *text = json_string_value(form);
        size_t word = strcspn(text, " ");
        bool listed = false;
        json_array_foreach(moves, k, move)
        {
            const char *type = json_string_value(json_object_get(move, "type"));
            listed = listed ||
                     (strlen(type) == word && strncmp(type, text, word) == 0);
        }
        cr_expect(listed, "form \"%s\" offered without such a move", text);
    }
    json_array_foreach(moves, k, move)
    {
        const char *type = json_string_value(json_object_get(move, "type"));
        bool formed = false;
        json_array_foreach(forms, i, form)
        {
            const char *text = json_string_value(form);
            formed =
                formed ||
                (strncmp(text, type, strlen(type)) == 0 &&
                 (text[strlen(type)] == ' ' || text[strlen(type)] == '\0'));
        }
        cr_expect(formed, "move type %s has no form", type);
    }
}

Test(qq_forms, phase_4_offers_capture_and_end_and_never_pass)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_object_set_new(json_object_get(snapshot, "turn"), "quiddity",
                        json_integer(4));
    rules_state *state = qq_test_load(snapshot);
    /* seat 1 has nothing in its Ready Area: the attack hits nobody and
     * the turn goes on to the captures */
    harness_apply_text(&qq_engine, state, 0, "attack");
    json_t *legal = qq_engine.legal(state, 0);
    json_t *forms = json_object_get(legal, "forms");
    cr_assert_eq(json_array_size(forms), 2, "%s",
                 json_dumps(forms, JSON_COMPACT));
    cr_expect_str_eq(json_string_value(json_array_get(forms, 0)),
                     "capture CARD");
    cr_expect_str_eq(json_string_value(json_array_get(forms, 1)), "end");
    expect_forms_match_moves(legal);
    harness_reject_text(&qq_engine, state, 0, "pass", "capture");
    json_decref(legal);
    qq_engine.destroy(state);
    json_decref(snapshot);
}

/* Whole matches of absent players (the default move each time): at every
 * step, for every seat, the forms and the moves agree. */
Test(qq_forms, every_form_listed_is_a_move_listed, .timeout = 120)
{
    for (int seats = 2; seats <= 4; seats++) {
        uint8_t seed[RULES_SEED_BYTES];
        harness_seed(4300u + (unsigned)seats, seed);
        rules_error err;
        rules_state *state = qq_engine.setup(NULL, seats, seed, &err);
        cr_assert_not_null(state, "%s", err.message);
        for (int step = 0; step < 3000; step++) {
            rules_pending p;
            qq_engine.pending(state, &p);
            if (p.wait == RULES_WAIT_NOBODY)
                break;
            int actor = -1;
            for (int s = 0; s < seats; s++) {
                json_t *legal = qq_engine.legal(state, s);
                expect_forms_match_moves(legal);
                json_decref(legal);
                if (actor < 0 && (p.seats & (1u << s)))
                    actor = s;
            }
            json_t *move = qq_engine.default_move(state, actor);
            cr_assert(qq_engine.apply(state, actor, move, &err), "%s",
                      err.message);
            json_decref(move);
        }
        qq_engine.destroy(state);
    }
}
