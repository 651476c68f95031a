/* harness.c: random complete matches through the rules interface alone. */
#include "harness.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#define STALE_POOL 64
#define TEXT_SAMPLE 12
#define DEEP_CHECK_EVERY 7

typedef struct played_move {
    int seat;
    json_t *action;
} played_move;

void harness_seed(uint64_t n, uint8_t seed[RULES_SEED_BYTES])
{
    uint8_t input[8];
    for (int i = 0; i < 8; i++)
        input[i] = (uint8_t)(n >> (8 * i));
    crypto_generichash(seed, RULES_SEED_BYTES, input, sizeof input, NULL, 0);
}

static char *snapshot_bytes(const rules_engine *engine, const rules_state *state)
{
    json_t *snapshot = engine->save(state);
    cr_assert_not_null(snapshot, "%s: save() returned NULL", engine->name);
    char *bytes = rules_canonical_json(snapshot);
    json_decref(snapshot);
    return bytes;
}

static uint32_t random_below(uint32_t bound)
{
    return randombytes_uniform(bound);
}

static int pick_seat(uint32_t seats)
{
    int candidates[32];
    int n = 0;
    for (int s = 0; s < 32; s++) {
        if (seats & (1u << s))
            candidates[n++] = s;
    }
    return candidates[random_below((uint32_t)n)];
}

static bool listed(const json_t *moves, const json_t *action)
{
    size_t i;
    const json_t *move;
    json_array_foreach(moves, i, move) {
        if (json_equal(move, action))
            return true;
    }
    return false;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A player reading the list sees each move once. */
static void expect_no_duplicates(const rules_engine *engine,
                                 const json_t *moves, const char *where)
{
    size_t n = json_array_size(moves);
    char **texts = calloc(n + 1, sizeof *texts);
    cr_assert(texts != NULL);
    for (size_t i = 0; i < n; i++)
        texts[i] = rules_canonical_json(json_array_get(moves, i));
    qsort(texts, n, sizeof *texts, by_text);
    for (size_t i = 1; i < n; i++)
        cr_assert_str_neq(texts[i - 1], texts[i],
                          "%s: %s: the move %s is listed twice", engine->name,
                          where, texts[i]);
    for (size_t i = 0; i < n; i++)
        free(texts[i]);
    free(texts);
}

/* The move must be rejected with a sentence and leave no trace: the state
 * must still serialise to before (the snapshot taken before the probes). */
static void expect_rejected(const rules_engine *engine, rules_state *state,
                            const char *before, int seat, const json_t *action,
                            const char *why, const char *where)
{
    rules_error err = {{0}};
    bool accepted = engine->apply(state, seat, action, &err);
    char *text = rules_canonical_json(action);
    cr_assert(!accepted, "%s: %s: seat %d's %s was accepted (%s)",
              engine->name, where, seat, text, why);
    cr_assert(err.message[0] != '\0',
              "%s: %s: rejection of %s has no sentence", engine->name, where,
              text);
    char *after = snapshot_bytes(engine, state);
    cr_assert_str_eq(before, after,
                     "%s: %s: rejected %s changed the state", engine->name,
                     where, text);
    free(text);
    free(after);
}

static void check_text_round_trip(const rules_engine *engine,
                                  const rules_state *state, int seat,
                                  const json_t *moves, const char *where,
                                  harness_stats *stats)
{
    size_t count = json_array_size(moves);
    size_t samples = count < TEXT_SAMPLE ? count : TEXT_SAMPLE;
    for (size_t k = 0; k < samples; k++) {
        size_t i = count <= TEXT_SAMPLE ? k : random_below((uint32_t)count);
        const json_t *action = json_array_get(moves, i);
        char *text = engine->format_move(state, seat, action);
        char *json = rules_canonical_json(action);
        cr_assert_not_null(text, "%s: %s: format_move(%s) gave NULL",
                           engine->name, where, json);
        rules_error err = {{0}};
        json_t *parsed = engine->parse_move(state, seat, text, &err);
        cr_assert_not_null(parsed, "%s: %s: \"%s\" (from %s) does not parse: %s",
                           engine->name, where, text, json, err.message);
        char *back = rules_canonical_json(parsed);
        cr_assert(json_equal(parsed, action),
                  "%s: %s: \"%s\" parses to %s, not %s", engine->name, where,
                  text, back, json);
        stats->text_round_trips++;
        free(back);
        json_decref(parsed);
        free(text);
        free(json);
    }
}

static void check_snapshots(const rules_engine *engine, const rules_state *state,
                            int seats, const char *where)
{
    char *bytes = snapshot_bytes(engine, state);
    json_error_t jerr;
    json_t *snapshot = json_loads(bytes, 0, &jerr);
    rules_error err = {{0}};
    rules_state *loaded = engine->load(snapshot, &err);
    cr_assert_not_null(loaded, "%s: %s: load(save()) failed: %s", engine->name,
                       where, err.message);
    char *again = snapshot_bytes(engine, loaded);
    cr_assert_str_eq(bytes, again, "%s: %s: load(save()) differs", engine->name,
                     where);
    rules_state *copy = engine->clone(state);
    char *cloned = snapshot_bytes(engine, copy);
    cr_assert_str_eq(bytes, cloned, "%s: %s: clone() differs", engine->name,
                     where);

    /* The seed lets anyone predict every later shuffle: no view shows it. */
    const char *seed = strstr(bytes, "\"seed\":\"");
    if (seed != NULL) {
        char seed_hex[2 * RULES_SEED_BYTES + 1] = {0};
        memcpy(seed_hex, seed + 8, 2 * RULES_SEED_BYTES);
        for (int s = RULES_SPECTATOR; s < seats; s++) {
            json_t *view = engine->view(state, s);
            cr_assert_not_null(view, "%s: %s: view(%d) is NULL", engine->name,
                               where, s);
            char *text = rules_canonical_json(view);
            cr_assert_null(strstr(text, seed_hex),
                           "%s: %s: view(%d) shows the seed", engine->name,
                           where, s);
            free(text);
            json_decref(view);
        }
    }
    free(cloned);
    engine->destroy(copy);
    free(again);
    engine->destroy(loaded);
    json_decref(snapshot);
    free(bytes);
}

/* The engine's default move (the deadline action for an absent seat) is
 * one apply accepts for a pending seat, and there is none for an idle one. */
static void check_default_move(const rules_engine *engine,
                               const rules_state *state, int seat,
                               uint32_t idle, const char *where)
{
    if (engine->default_move == NULL)
        return;
    json_t *move = engine->default_move(state, seat);
    cr_assert_not_null(move, "%s: %s: no default move for pending seat %d",
                       engine->name, where, seat);
    rules_state *trial = engine->clone(state);
    rules_error err = {{0}};
    char *text = rules_canonical_json(move);
    cr_assert(engine->apply(trial, seat, move, &err),
              "%s: %s: default move %s of seat %d rejected: %s", engine->name,
              where, text, seat, err.message);
    free(text);
    engine->destroy(trial);
    json_decref(move);
    if (idle != 0) {
        int other = pick_seat(idle);
        json_t *none = engine->default_move(state, other);
        cr_assert_null(none, "%s: %s: idle seat %d has a default move",
                       engine->name, where, other);
    }
}

/* The rules' window (rules.h window), when the engine has one, bounds
 * pending seats only, never a sealed decision, has an id, and offers each
 * of its seats the {"type": "pass"} the service plays when it closes. */
static void check_window(const rules_engine *engine, const rules_state *state,
                         const rules_pending *pending, const char *where)
{
    if (engine->window == NULL)
        return;
    rules_window window;
    if (!engine->window(state, &window)) {
        cr_assert_eq(window.seats, 0u, "%s: %s: no window but seats 0x%x",
                     engine->name, where, window.seats);
        return;
    }
    cr_assert_neq(window.seats, 0u, "%s: %s: a window without seats",
                  engine->name, where);
    cr_assert_eq(window.seats & ~pending->seats, 0u,
                 "%s: %s: window seats 0x%x are not all pending (0x%x)",
                 engine->name, where, window.seats, pending->seats);
    cr_assert_neq(pending->wait, RULES_WAIT_SIMULTANEOUS,
                  "%s: %s: a window during a sealed decision", engine->name,
                  where);
    cr_assert(window.id[0] != '\0', "%s: %s: a window without an id",
              engine->name, where);
    cr_assert_geq(window.seconds, 0, "%s: %s: a window of negative length",
                  engine->name, where);
    json_t *pass = json_pack("{s:s}", "type", "pass");
    for (int seat = 0; seat < RULES_MAX_SEATS; seat++) {
        if (!(window.seats & (1u << seat)))
            continue;
        json_t *legal = engine->legal(state, seat);
        cr_assert(listed(json_object_get(legal, "moves"), pass),
                  "%s: %s: seat %d in the window is offered no pass",
                  engine->name, where, seat);
        json_decref(legal);
    }
    json_decref(pass);
}

static rules_state *new_match(const harness_config *cfg, uint64_t n)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(n, seed);
    json_t *options = NULL;
    if (cfg->options_json != NULL) {
        json_error_t jerr;
        options = json_loads(cfg->options_json, 0, &jerr);
        cr_assert_not_null(options, "bad options_json: %s", jerr.text);
    }
    rules_error err = {{0}};
    rules_state *state = cfg->engine->setup(options, cfg->seats, seed, &err);
    cr_assert_not_null(state, "%s: setup(%d seats, %s) failed: %s",
                       cfg->engine->name, cfg->seats,
                       cfg->options_json ? cfg->options_json : "defaults",
                       err.message);
    json_decref(options);
    return state;
}

static void play_one_match(const harness_config *cfg, uint64_t n,
                           harness_stats *stats)
{
    const rules_engine *engine = cfg->engine;
    rules_state *state = new_match(cfg, n);
    played_move *log = calloc((size_t)cfg->max_moves, sizeof *log);
    json_t *stale[STALE_POOL] = {0};
    int stale_count = 0;
    int moves = 0;
    char where[160];
    rules_error err = {{0}};

    cr_assert(engine->check(state, &err), "%s: seed #%llu after setup: %s",
              engine->name, (unsigned long long)n, err.message);
    for (;;) {
        snprintf(where, sizeof where, "seed #%llu (%d seats, %s) move %d",
                 (unsigned long long)n, cfg->seats,
                 cfg->options_json ? cfg->options_json : "defaults", moves);
        rules_pending pending;
        engine->pending(state, &pending);
        if (pending.wait == RULES_WAIT_NOBODY)
            break;
        cr_assert(pending.seats != 0, "%s: %s: pending names no seat",
                  engine->name, where);
        cr_assert(moves < cfg->max_moves,
                  "%s: %s: no end after %d moves", engine->name, where, moves);
        if (pending.wait == RULES_WAIT_ONE)
            cr_assert_eq(rules_seat_count(pending.seats), 1,
                         "%s: %s: WAIT_ONE names several seats", engine->name,
                         where);
        if (pending.wait == RULES_WAIT_SIMULTANEOUS)
            cr_assert(pending.decision[0] != '\0',
                      "%s: %s: simultaneous decision without an id",
                      engine->name, where);

        check_window(engine, state, &pending, where);

        int seat = pick_seat(pending.seats);
        json_t *legal = engine->legal(state, seat);
        json_t *list = json_object_get(legal, "moves");
        bool complete = json_is_true(json_object_get(legal, "complete"));
        cr_assert(json_array_size(list) > 0,
                  "%s: %s: seat %d is pending but has no legal move",
                  engine->name, where, seat);
        expect_no_duplicates(engine, list, where);
        json_t *action = json_incref(json_array_get(
            list, random_below((uint32_t)json_array_size(list))));

        check_text_round_trip(engine, state, seat, list, where, stats);

        /* A seat that is not pending may not act. */
        uint32_t idle = ~pending.seats & ((1u << cfg->seats) - 1);
        char *before = snapshot_bytes(engine, state);
        if (idle != 0) {
            int other = pick_seat(idle);
            json_t *other_legal = engine->legal(state, other);
            cr_assert_eq(json_array_size(json_object_get(other_legal, "moves")),
                         0, "%s: %s: seat %d is not pending but has moves",
                         engine->name, where, other);
            json_decref(other_legal);
            expect_rejected(engine, state, before, other, action,
                            "not its turn", where);
            stats->rejected_probes++;
        }
        /* Moves legal earlier and not listed now must be refused. */
        if (complete && stale_count > 0) {
            for (int tries = 0; tries < 2; tries++) {
                json_t *old = stale[random_below((uint32_t)(stale_count < STALE_POOL ? stale_count : STALE_POOL))];
                if (listed(list, old))
                    continue;
                expect_rejected(engine, state, before, seat, old, "not listed",
                                where);
                stats->rejected_probes++;
            }
        }

        free(before);
        check_default_move(engine, state, seat, idle, where);
        cr_assert(engine->apply(state, seat, action, &err),
                  "%s: %s: listed move %s rejected: %s", engine->name, where,
                  rules_canonical_json(action), err.message);
        cr_assert(engine->check(state, &err), "%s: %s: after %s: %s",
                  engine->name, where, rules_canonical_json(action),
                  err.message);
        if (cfg->after_move != NULL)
            cfg->after_move(engine, state, seat, action);

        size_t i;
        json_t *move;
        json_array_foreach(list, i, move) {
            if (i % 3 != 0)
                continue;
            int slot = stale_count++ % STALE_POOL;
            json_decref(stale[slot]);
            stale[slot] = json_incref(move);
        }
        log[moves].seat = seat;
        log[moves].action = action;
        moves++;
        json_decref(legal);
        if (moves % DEEP_CHECK_EVERY == 0)
            check_snapshots(engine, state, cfg->seats, where);
    }
    check_snapshots(engine, state, cfg->seats, where);

    json_t *result = engine->result(state);
    cr_assert(json_is_true(json_object_get(result, "over")),
              "%s: %s: nobody pending but result() is not over", engine->name,
              where);
    cr_assert_eq(json_array_size(json_object_get(result, "scores")),
                 (size_t)cfg->seats, "%s: %s: scores not one per seat",
                 engine->name, where);
    size_t ranked = 0;
    size_t i;
    json_t *place;
    json_array_foreach(json_object_get(result, "ranking"), i, place)
        ranked += json_array_size(place);
    cr_assert_eq(ranked, (size_t)cfg->seats, "%s: %s: ranking misses seats",
                 engine->name, where);
    json_decref(result);

    /* Determinism: the same seed and actions give the same bytes. */
    rules_state *replay = new_match(cfg, n);
    for (int m = 0; m < moves; m++) {
        cr_assert(engine->apply(replay, log[m].seat, log[m].action, &err),
                  "%s: seed #%llu replay of move %d rejected: %s",
                  engine->name, (unsigned long long)n, m, err.message);
    }
    char *original = snapshot_bytes(engine, state);
    char *replayed = snapshot_bytes(engine, replay);
    cr_assert_str_eq(original, replayed,
                     "%s: seed #%llu: replay gives a different snapshot",
                     engine->name, (unsigned long long)n);
    free(original);
    free(replayed);
    engine->destroy(replay);

    for (int m = 0; m < moves; m++)
        json_decref(log[m].action);
    for (int k = 0; k < STALE_POOL; k++)
        json_decref(stale[k]);
    free(log);
    engine->destroy(state);
    stats->moves += moves;
    stats->matches++;
}

int harness_soak_factor(void)
{
    const char *text = getenv("PBEM_SOAK");
    int factor = text ? atoi(text) : 1;
    return factor >= 1 && factor <= 1000 ? factor : 1;
}

void harness_random_play(const harness_config *cfg, harness_stats *stats)
{
    cr_assert(sodium_init() >= 0);
    harness_stats local = {0};
    if (stats == NULL)
        stats = &local;
    /* Soak runs play more matches from further seeds; the first ones are
     * always the same, so a failure in `make test` replays exactly. */
    int matches = cfg->matches * harness_soak_factor();
    for (int i = 0; i < matches; i++)
        play_one_match(cfg, cfg->first_seed + (uint64_t)i, stats);
}

void harness_apply_text(const rules_engine *engine, rules_state *state,
                        int seat, const char *text)
{
    rules_error err = {{0}};
    json_t *action = engine->parse_move(state, seat, text, &err);
    cr_assert_not_null(action, "\"%s\" does not parse: %s", text, err.message);
    cr_assert(engine->apply(state, seat, action, &err),
              "seat %d: \"%s\" rejected: %s", seat, text, err.message);
    cr_assert(engine->check(state, &err), "after \"%s\": %s", text,
              err.message);
    json_decref(action);
}

void harness_reject_text(const rules_engine *engine, rules_state *state,
                         int seat, const char *text, const char *expected_words)
{
    rules_error err = {{0}};
    json_t *action = engine->parse_move(state, seat, text, &err);
    if (action == NULL) {
        if (expected_words != NULL)
            cr_assert_not_null(strstr(err.message, expected_words),
                               "\"%s\": \"%s\" does not say \"%s\"", text,
                               err.message, expected_words);
        return;
    }
    char *before = snapshot_bytes(engine, state);
    cr_assert(!engine->apply(state, seat, action, &err),
              "seat %d: \"%s\" was accepted", seat, text);
    char *after = snapshot_bytes(engine, state);
    cr_assert_str_eq(before, after, "rejected \"%s\" changed the state", text);
    if (expected_words != NULL)
        cr_assert_not_null(strstr(err.message, expected_words),
                           "\"%s\": \"%s\" does not say \"%s\"", text,
                           err.message, expected_words);
    free(before);
    free(after);
    json_decref(action);
}

void harness_default_play(const harness_config *cfg, harness_stats *stats)
{
    cr_assert(sodium_init() >= 0);
    const rules_engine *engine = cfg->engine;
    cr_assert_not_null(engine->default_move, "%s names no default move",
                       engine->name);
    for (int i = 0; i < cfg->matches; i++) {
        uint64_t n = cfg->first_seed + (uint64_t)i;
        rules_state *state = new_match(cfg, n);
        int moves = 0;
        rules_error err = {{0}};
        for (;;) {
            rules_pending pending;
            engine->pending(state, &pending);
            if (pending.wait == RULES_WAIT_NOBODY)
                break;
            cr_assert(moves < cfg->max_moves,
                      "%s: seed #%llu (%d seats): absent players did not "
                      "finish within %d default moves",
                      engine->name, (unsigned long long)n, cfg->seats, moves);
            /* Every seat is absent: the lowest pending seat's clock runs
             * out first. */
            int seat = __builtin_ctz(pending.seats);
            json_t *move = engine->default_move(state, seat);
            cr_assert_not_null(move,
                               "%s: seed #%llu move %d: no default move for "
                               "pending seat %d",
                               engine->name, (unsigned long long)n, moves,
                               seat);
            char *text = rules_canonical_json(move);
            cr_assert(engine->apply(state, seat, move, &err),
                      "%s: seed #%llu move %d: default move %s rejected: %s",
                      engine->name, (unsigned long long)n, moves, text,
                      err.message);
            free(text);
            json_decref(move);
            cr_assert(engine->check(state, &err), "%s: seed #%llu: %s",
                      engine->name, (unsigned long long)n, err.message);
            moves++;
        }
        json_t *result = engine->result(state);
        cr_assert(json_is_true(json_object_get(result, "over")));
        json_decref(result);
        engine->destroy(state);
        if (stats != NULL) {
            stats->moves += moves;
            stats->matches++;
        }
    }
}

void harness_expect_absent_players_finish(const rules_engine *engine,
                                          const char *options, int seats,
                                          uint64_t seed)
{
    harness_stats stats = {0};
    harness_config cfg = {.engine = engine,
                          .options_json = options,
                          .seats = seats,
                          .matches = 3,
                          .max_moves = 20000,
                          .first_seed = seed};
    harness_default_play(&cfg, &stats);
    cr_expect_eq(stats.matches, 3);
    cr_expect_gt(stats.moves, 0);
}
