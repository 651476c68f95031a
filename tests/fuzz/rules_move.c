/* rules_move.c: fuzzes each engine's parse_move (rules.h) against real
 * positions, with the text a player types in a mail or a "move" body.
 *
 * At start, each engine plays one match at its fewest and one at its most
 * seats from a fixed seed, every seat making its default move (or the first
 * legal one), and keeps every POSITION_EVERY-th position: openings, middle
 * games, last rounds.
 *
 * Input: a first line "<game> <position> <seat>" (position and seat are
 * taken modulo what exists; a missing seat means the first seat that must
 * act), then the move text. A parsed action is applied to a copy of the
 * position: parse_move checks the form only, so apply must judge anything
 * it returns; a position apply accepts must pass check(), and an action it
 * accepts is legal, so its notation (format_move) must parse back to it.
 * A broken promise aborts, so the fuzzer reports it. */
#include <stdio.h>

#include "fuzz.h"
#include "rules.h"

#define POSITION_EVERY 5
#define POSITIONS_MAX 64
#define MOVES_MAX 2000

typedef struct positions {
    const rules_engine *engine;
    int count;
    rules_state *state[POSITIONS_MAX];
} positions;

static positions by_engine[8];

/* The lowest seat that must act, or -1. */
static int first_pending(const rules_engine *engine, const rules_state *state)
{
    rules_pending pending;
    engine->pending(state, &pending);
    for (int s = 0; s < RULES_MAX_SEATS; s++)
        if (pending.seats & (1u << s))
            return s;
    return -1;
}

/* Plays one match of engine from a fixed seed, keeping positions. Under
 * the default options an engine may allow fewer seats than max_seats (some
 * counts need an option): then it plays with the most it allows. */
static void play_match(positions *kept, int seats)
{
    const rules_engine *engine = kept->engine;
    uint8_t seed[RULES_SEED_BYTES] = {42};
    rules_error err = {{0}};
    rules_state *state = NULL;
    for (; state == NULL && seats >= engine->min_seats; seats--)
        state = engine->setup(NULL, seats, seed, &err);
    if (state == NULL) {
        fprintf(stderr, "rules_move: %s cannot set up a match: %s\n",
                engine->name, err.message);
        abort();
    }
    for (int n = 0; n < MOVES_MAX; n++) {
        int seat = first_pending(engine, state);
        if (n % POSITION_EVERY == 0 || seat < 0) {
            if (kept->count < POSITIONS_MAX)
                kept->state[kept->count++] = engine->clone(state);
        }
        if (seat < 0)
            break;
        json_t *move =
            engine->default_move ? engine->default_move(state, seat) : NULL;
        if (move == NULL) {
            json_t *legal = engine->legal(state, seat);
            move =
                json_incref(json_array_get(json_object_get(legal, "moves"), 0));
            json_decref(legal);
        }
        bool applied = move != NULL && engine->apply(state, seat, move, &err);
        json_decref(move);
        if (!applied)
            break;
    }
    engine->destroy(state);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    int i = 0;
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        if (i == (int)(sizeof by_engine / sizeof by_engine[0]))
            break;
        by_engine[i].engine = *e;
        play_match(&by_engine[i], (*e)->min_seats);
        if ((*e)->max_seats != (*e)->min_seats)
            play_match(&by_engine[i], (*e)->max_seats);
        i++;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *rest = text;
    char *head = fuzz_line(&rest);
    char name[65];
    unsigned position = 0;
    int seat = -1;
    if (sscanf(head, "%64s %u %d", name, &position, &seat) < 1) {
        free(text);
        return 0;
    }
    const positions *kept = NULL;
    for (size_t i = 0; i < sizeof by_engine / sizeof by_engine[0]; i++)
        if (by_engine[i].engine != NULL &&
            strcmp(by_engine[i].engine->name, name) == 0)
            kept = &by_engine[i];
    if (kept == NULL || kept->count == 0) {
        free(text);
        return 0;
    }
    const rules_engine *engine = kept->engine;
    const rules_state *state = kept->state[position % (unsigned)kept->count];
    if (seat < 0)
        seat = first_pending(engine, state);
    if (seat < 0)
        seat = 0;
    seat %= RULES_MAX_SEATS;

    rules_error err = {{0}};
    json_t *action = engine->parse_move(state, seat, rest, &err);
    if (action == NULL) {
        if (err.message[0] == '\0')
            abort(); /* a refusal must say why */
        free(text);
        return 0;
    }
    char *formatted = engine->format_move(state, seat, action);
    rules_state *copy = engine->clone(state);
    if (engine->apply(copy, seat, action, &err)) {
        if (!engine->check(copy, &err))
            abort(); /* apply made a position that breaks an invariant */
        /* A legal action reads back as itself from its notation. */
        json_t *again =
            formatted ? engine->parse_move(state, seat, formatted, &err) : NULL;
        if (!json_equal(again, action))
            abort();
        json_decref(again);
    }
    engine->destroy(copy);
    free(formatted);
    json_decref(action);
    free(text);
    return 0;
}
