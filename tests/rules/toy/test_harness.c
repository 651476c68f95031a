/* The harness run on a toy engine: proves the harness and rules.h work
 * before real engines depend on them. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

extern const rules_engine toy_engine;

Test(harness, toy_engine_passes_every_check)
{
    harness_stats stats = {0};
    for (int seats = 2; seats <= 4; seats++) {
        harness_config cfg = {.engine = &toy_engine,
                              .seats = seats,
                              .matches = 50,
                              .max_moves = 200,
                              .first_seed = 1000u * (unsigned)seats};
        harness_random_play(&cfg, &stats);
    }
    cr_expect_eq(stats.matches, 150);
    cr_expect_gt(stats.rejected_probes, 0);
    cr_expect_gt(stats.text_round_trips, 0);
}

/* The toy's tell names a drawn card to its drawer only: what the doors'
 * secrecy tests rely on. */
Test(harness, toy_tells_a_drawn_card_to_its_drawer_only)
{
    const char *names[] = {"Ann", "Bob", "Cy"};
    uint8_t seed[RULES_SEED_BYTES] = {3};
    rules_error err = {{0}};
    rules_state *state = toy_engine.setup(NULL, 3, seed, &err);
    cr_assert_not_null(state, "%s", err.message);
    int adds = 0;
    for (int move = 0; move < 60; move++) {
        rules_pending pending;
        toy_engine.pending(state, &pending);
        if (pending.wait == RULES_WAIT_NOBODY)
            break;
        int seat = __builtin_ctz(pending.seats);
        json_t *legal = toy_engine.legal(state, seat);
        json_t *action =
            json_incref(json_array_get(json_object_get(legal, "moves"), 0));
        json_decref(legal);
        rules_state *before = toy_engine.clone(state);
        cr_assert(toy_engine.apply(state, seat, action, &err), "%s",
                  err.message);
        json_t *view = toy_engine.view(state, seat);
        const char *card = json_string_value(json_object_get(view, "card"));
        bool added = strcmp(json_string_value(json_object_get(action, "type")),
                            "add") == 0;
        for (int viewer = RULES_SPECTATOR; viewer < 3; viewer++) {
            char *told = rules_tell(&toy_engine, before, state, seat, action,
                                    viewer, names);
            if (added && viewer == seat)
                cr_expect_not_null(strstr(told, card), "%s", told);
            else if (added)
                cr_expect_null(strstr(told, card), "%s", told);
            free(told);
        }
        adds += added;
        json_decref(view);
        json_decref(action);
        toy_engine.destroy(before);
    }
    cr_expect_gt(adds, 3);
    toy_engine.destroy(state);
}

/* Every move random play makes, one line each, for the test below. */
static FILE *moves_played;

static void note_move(const rules_engine *engine, const rules_state *state,
                      int seat, const json_t *action)
{
    (void)engine;
    (void)state;
    char *text = rules_sorted_json(action);
    fprintf(moves_played, "%d %s\n", seat, text);
    free(text);
}

/* The moves of random play follow from the match number: a failure's
 * "seed #N move M" is the same match and the same move on every run, so
 * it can be played again and looked at. */
static char *moves_of_random_play(uint64_t first_seed)
{
    char *text = NULL;
    size_t size = 0;
    moves_played = open_memstream(&text, &size);
    harness_config cfg = {.engine = &toy_engine,
                          .seats = 3,
                          .matches = 20,
                          .max_moves = 200,
                          .first_seed = first_seed,
                          .after_move = note_move};
    harness_random_play(&cfg, NULL);
    fclose(moves_played);
    return text;
}

Test(harness, random_play_makes_the_same_moves_from_the_same_seeds)
{
    char *first = moves_of_random_play(7000);
    char *again = moves_of_random_play(7000);
    char *other = moves_of_random_play(8000);
    cr_assert_gt(strlen(first), 0, "random play made no move");
    cr_expect_str_eq(first, again,
                     "the same seeds played different moves, so a failing "
                     "seed cannot be played again");
    cr_expect_str_neq(first, other, "other seeds played the same moves");
    free(first);
    free(again);
    free(other);
}
