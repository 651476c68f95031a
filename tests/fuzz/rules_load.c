/* rules_load.c: fuzzes each engine's load (rules.h): a snapshot is what a
 * referee edits by hand and what the service reads back from its cache, so
 * load must refuse anything malformed or inconsistent with a sentence, and
 * whatever it accepts must be a position every other function can use.
 *
 * Input: the engine's name on the first line, the snapshot (JSON) after it.
 * A snapshot that loads is held to rules.h's promises: check() passes,
 * save(load(save(s))) equals save(s), and the views, the legal moves, the
 * text view and the result of every seat can be computed. A broken promise
 * aborts, so the fuzzer reports it like a crash. */
#include "fuzz.h"
#include "rules.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* Applies move for seat to a copy of state: a move the engine offered
 * must be accepted, and leave a position that passes check(). */
static void play_offered(const rules_engine *engine, const rules_state *state,
                         int seat, const json_t *move)
{
    rules_error err = {{0}};
    rules_state *copy = engine->clone(state);
    if (!engine->apply(copy, seat, move, &err) || !engine->check(copy, &err))
        abort();
    engine->destroy(copy);
}

/* Asks everything a loaded position can be asked, and plays the first, the
 * last and the default move of each seat that must act. */
static void use_position(const rules_engine *engine, const rules_state *state,
                         int seats)
{
    rules_pending pending;
    engine->pending(state, &pending);
    for (int seat = RULES_SPECTATOR; seat < seats; seat++) {
        json_decref(engine->view(state, seat));
        free(engine->view_text(state, seat));
        json_t *legal = engine->legal(state, seat);
        const json_t *moves = json_object_get(legal, "moves");
        bool acts = seat >= 0 && (pending.seats & (1u << seat));
        if (acts && json_array_size(moves) > 0) {
            play_offered(engine, state, seat, json_array_get(moves, 0));
            play_offered(engine, state, seat,
                         json_array_get(moves, json_array_size(moves) - 1));
        }
        json_decref(legal);
        if (engine->default_move != NULL && seat >= 0) {
            json_t *move = engine->default_move(state, seat);
            if (acts && move != NULL)
                play_offered(engine, state, seat, move);
            json_decref(move);
        }
    }
    json_decref(engine->result(state));
    if (engine->window != NULL) {
        rules_window window;
        engine->window(state, &window);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *lf = memchr(data, '\n', size);
    if (lf == NULL || lf - data > 64)
        return 0;
    char name[65];
    memcpy(name, data, (size_t)(lf - data));
    name[lf - data] = '\0';
    const rules_engine *engine = rules_find(name);
    if (engine == NULL)
        return 0;
    json_t *snapshot = json_loadb((const char *)lf + 1,
                                  size - (size_t)(lf - data) - 1, 0, NULL);
    if (snapshot == NULL)
        return 0;
    rules_error err = {{0}};
    rules_state *state = engine->load(snapshot, &err);
    json_decref(snapshot);
    if (state == NULL) {
        if (err.message[0] == '\0')
            abort(); /* a refusal must say why */
        return 0;
    }
    if (!engine->check(state, &err))
        abort(); /* load accepted a position its own check refuses */
    json_t *saved = engine->save(state);
    rules_state *again = engine->load(saved, &err);
    if (again == NULL)
        abort(); /* load refuses what save wrote */
    json_t *resaved = engine->save(again);
    if (!json_equal(saved, resaved))
        abort(); /* save(load(save(s))) differs from save(s) */
    json_decref(resaved);
    json_decref(saved);
    /* The interface has no seat count; the result lists a score each. */
    json_t *result = engine->result(state);
    int seats = (int)json_array_size(json_object_get(result, "scores"));
    json_decref(result);
    if (seats > RULES_MAX_SEATS)
        abort();
    use_position(engine, state, seats);
    engine->destroy(again);
    engine->destroy(state);
    return 0;
}
