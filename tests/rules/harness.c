/* harness.c: random complete matches through the rules interface alone. */
#include "harness.h"
#include "harness_tell.h"

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
    char *bytes = rules_sorted_json(snapshot);
    json_decref(snapshot);
    return bytes;
}

void harness_moves_rng(uint64_t n, rules_rng *rng)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(n, seed);
    /* Apart from the match's own seed, so that the choices do not repeat
     * the draws of its shuffles. */
    crypto_generichash(seed, sizeof seed, seed, sizeof seed, NULL, 0);
    rules_rng_init(rng, seed);
}

static int pick_seat(rules_rng *rng, uint32_t seats)
{
    int candidates[32];
    int n = 0;
    for (int s = 0; s < 32; s++) {
        if (seats & (1u << s))
            candidates[n++] = s;
    }
    return candidates[rules_rng_below(rng, (uint32_t)n)];
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
        texts[i] = rules_sorted_json(json_array_get(moves, i));
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
    char *text = rules_sorted_json(action);
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
                                  rules_rng *rng, harness_stats *stats)
{
    size_t count = json_array_size(moves);
    size_t samples = count < TEXT_SAMPLE ? count : TEXT_SAMPLE;
    for (size_t k = 0; k < samples; k++) {
        size_t i =
            count <= TEXT_SAMPLE ? k : rules_rng_below(rng, (uint32_t)count);
        const json_t *action = json_array_get(moves, i);
        char *text = engine->format_move(state, seat, action);
        char *json = rules_sorted_json(action);
        cr_assert_not_null(text, "%s: %s: format_move(%s) gave NULL",
                           engine->name, where, json);
        rules_error err = {{0}};
        json_t *parsed = engine->parse_move(state, seat, text, &err);
        cr_assert_not_null(parsed, "%s: %s: \"%s\" (from %s) does not parse: %s",
                           engine->name, where, text, json, err.message);
        char *back = rules_sorted_json(parsed);
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

/* A seat's text view (view_text) is for people reading a mail: a few
 * dozen short lines ending in a newline, no control characters, and, like
 * view(), never the seed. */
static void check_view_text(const rules_engine *engine, const rules_state *state,
                            int seat, const char *seed_hex, const char *where)
{
    char *text = engine->view_text(state, seat);
    cr_assert_not_null(text, "%s: %s: view_text(%d) is NULL", engine->name,
                       where, seat);
    size_t length = strlen(text);
    cr_assert(length > 0 && text[length - 1] == '\n',
              "%s: %s: view_text(%d) does not end in a newline", engine->name,
              where, seat);
    int lines = 0;
    int columns = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\n') {
            lines++;
            columns = 0;
            continue;
        }
        cr_assert(*c >= 0x20 && *c != 0x7f, "%s: %s: view_text(%d) holds "
                  "control character 0x%02x:\n%s", engine->name, where, seat,
                  *c, text);
        if ((*c & 0xc0) != 0x80) /* count characters, not UTF-8 bytes */
            columns++;
        cr_assert(columns <= 72, "%s: %s: view_text(%d) has a line longer "
                  "than 72 characters:\n%s", engine->name, where, seat, text);
    }
    cr_assert(lines >= 3 && lines <= 40, "%s: %s: view_text(%d) has %d "
              "lines (3 to 40):\n%s", engine->name, where, seat, lines, text);
    if (seed_hex != NULL)
        cr_assert_null(strstr(text, seed_hex), "%s: %s: view_text(%d) shows "
                       "the seed", engine->name, where, seat);
    if (engine->view_text_of_view != NULL) {
        /* The same text from a view the caller built (the seat view does
         * so, to build it once). */
        json_t *view = engine->view(state, seat);
        char *of_view = engine->view_text_of_view(state, seat, view);
        cr_assert_str_eq(of_view, text, "%s: %s: view_text_of_view(%d) "
                         "differs from view_text", engine->name, where, seat);
        free(of_view);
        json_decref(view);
    }
    free(text);
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
    char seed_hex[2 * RULES_SEED_BYTES + 1] = {0};
    if (seed != NULL)
        memcpy(seed_hex, seed + 8, 2 * RULES_SEED_BYTES);
    cr_assert_not_null(engine->view_text, "%s has no view_text", engine->name);
    for (int s = RULES_SPECTATOR; s < seats; s++)
        check_view_text(engine, state, s, seed ? seed_hex : NULL, where);
    if (seed != NULL) {
        for (int s = RULES_SPECTATOR; s < seats; s++) {
            json_t *view = engine->view(state, s);
            cr_assert_not_null(view, "%s: %s: view(%d) is NULL", engine->name,
                               where, s);
            char *text = rules_sorted_json(view);
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
                               uint32_t idle, const char *where, rules_rng *rng)
{
    if (engine->default_move == NULL)
        return;
    json_t *move = engine->default_move(state, seat);
    cr_assert_not_null(move, "%s: %s: no default move for pending seat %d",
                       engine->name, where, seat);
    rules_state *trial = engine->clone(state);
    rules_error err = {{0}};
    char *text = rules_sorted_json(move);
    cr_assert(engine->apply(trial, seat, move, &err),
              "%s: %s: default move %s of seat %d rejected: %s", engine->name,
              where, text, seat, err.message);
    free(text);
    engine->destroy(trial);
    json_decref(move);
    if (idle != 0) {
        int other = pick_seat(rng, idle);
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
    json_t *saved = NULL; /* save(state), once made */
    rules_rng rng;        /* the moves chosen: the same on every run */
    char where[160];
    rules_error err = {{0}};
    harness_moves_rng(n, &rng);

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

        int seat = pick_seat(&rng, pending.seats);
        json_t *legal = engine->legal(state, seat);
        json_t *list = json_object_get(legal, "moves");
        bool complete = json_is_true(json_object_get(legal, "complete"));
        cr_assert(json_array_size(list) > 0,
                  "%s: %s: seat %d is pending but has no legal move",
                  engine->name, where, seat);
        expect_no_duplicates(engine, list, where);
        json_t *action = json_incref(json_array_get(
            list, rules_rng_below(&rng, (uint32_t)json_array_size(list))));

        check_text_round_trip(engine, state, seat, list, where, &rng, stats);

        /* A seat that is not pending may not act. */
        uint32_t idle = ~pending.seats & ((1u << cfg->seats) - 1);
        /* The snapshot is kept for the tells of the move played here. */
        if (saved == NULL)
            saved = engine->save(state);
        char *before = rules_sorted_json(saved);
        if (idle != 0) {
            int other = pick_seat(&rng, idle);
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
                json_t *old = stale[rules_rng_below(
                    &rng, (uint32_t)(stale_count < STALE_POOL ? stale_count
                                                              : STALE_POOL))];
                if (listed(list, old))
                    continue;
                expect_rejected(engine, state, before, seat, old, "not listed",
                                where);
                stats->rejected_probes++;
            }
        }

        free(before);
        check_default_move(engine, state, seat, idle, where, &rng);
        rules_state *prior = engine->clone(state);
        cr_assert(engine->apply(state, seat, action, &err),
                  "%s: %s: listed move %s rejected: %s", engine->name, where,
                  rules_sorted_json(action), err.message);
        json_t *saved_after = engine->save(state);
        harness_check_tells_saved(engine, prior, state, saved, saved_after,
                                  seat, action, cfg->seats, where);
        json_decref(saved);
        saved = saved_after;
        engine->destroy(prior);
        cr_assert(engine->check(state, &err), "%s: %s: after %s: %s",
                  engine->name, where, rules_sorted_json(action),
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
    json_decref(saved);
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

/* Plays cfg->matches (times the soak factor) matches with one. Soak runs
 * play more matches from further seeds; the first ones are always the
 * same, so a failure in `make test` replays exactly. */
static void play_matches(const harness_config *cfg, harness_stats *stats,
                         void (*one)(const harness_config *, uint64_t,
                                     harness_stats *))
{
    cr_assert(sodium_init() >= 0);
    harness_stats local = {0};
    if (stats == NULL)
        stats = &local;
    int matches = cfg->matches * harness_soak_factor();
    for (int i = 0; i < matches; i++)
        one(cfg, cfg->first_seed + (uint64_t)i, stats);
}

void harness_random_play(const harness_config *cfg, harness_stats *stats)
{
    play_matches(cfg, stats, play_one_match);
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
            char *text = rules_sorted_json(move);
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

/* Hostile moves: what a player can send the service that no legal() ever
 * listed. Positions are sampled (the first moves, then every
 * HOSTILE_EVERY-th), and at each at most HOSTILE_BASES listed moves, one
 * per type, are mutated. A fixed generator seeded from the match number
 * makes a failure replay exactly. */
#define HOSTILE_EVERY 23
#define HOSTILE_FIRST_MOVES 2
#define HOSTILE_BASES 4
#define HOSTILE_DEPTH 3        /* nested objects/arrays mutated this deep */
#define HOSTILE_LONG 5000      /* characters of the long string and text */
#define HOSTILE_WIDE 1000      /* elements of the wide array */
#define HOSTILE_DEEP 200       /* nesting of the deep array */
#define HOSTILE_SHOWN 300      /* characters of an action shown in a failure */
#define HOSTILE_VALUES 17

typedef struct hostile_run {
    const rules_engine *engine;
    const rules_state *state;
    const char *before;        /* canonical snapshot of state */
    rules_state *trial;        /* a clone, replaced after an acceptance */
    int seat;
    bool idle;                 /* seat may not act: everything is refused */
    const char *where;
    json_t *types;             /* every "type" seen in the match */
    uint64_t rng;
    bool trace;
    harness_stats *stats;
} hostile_run;

static uint64_t hostile_random(hostile_run *run)
{
    /* splitmix64 */
    uint64_t z = (run->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static json_t *hostile_long_string(void)
{
    char *text = malloc(HOSTILE_LONG + 1);
    cr_assert(text != NULL);
    for (int i = 0; i < HOSTILE_LONG; i++)
        text[i] = (char)('a' + i % 26);
    text[HOSTILE_LONG] = '\0';
    json_t *value = json_string(text);
    free(text);
    return value;
}

/* Value number k of the hostile values every field is replaced by. */
static json_t *hostile_value(int k)
{
    static const char control[] = "\x01\x1f\x7f\t\n\r%s%n%x\\\"\xc3\xa9"
                                  "\xe2\x80\xae\xf0\x9f\x98\x80\0tail";
    json_t *value = NULL;
    switch (k) {
    case 0: value = json_null(); break;
    case 1: value = json_true(); break;
    case 2: value = json_integer(0); break;
    case 3: value = json_integer(-1); break;
    case 4: value = json_integer(INT32_MAX); break;
    case 5: value = json_integer(INT32_MIN); break;
    case 6: value = json_integer(INT64_MAX); break;
    case 7: value = json_integer(-INT64_MAX); break;
    case 8: value = json_real(1e308); break;
    case 9: value = json_real(1.5); break;
    case 10: value = json_string(""); break;
    case 11: value = hostile_long_string(); break;
    case 12: value = json_stringn(control, sizeof control - 1); break;
    case 13: value = json_array(); break;
    case 14: value = json_object(); break;
    case 15:
        value = json_array();
        for (int i = 0; i < HOSTILE_WIDE; i++)
            json_array_append_new(value, json_integer(i));
        break;
    default:
        value = json_array();
        for (int i = 1; i < HOSTILE_DEEP; i++) {
            json_t *outer = json_array();
            json_array_append_new(outer, value);
            value = outer;
        }
        break;
    }
    cr_assert(value != NULL, "hostile value %d could not be built", k);
    return value;
}

/* Feeds one hostile action: format_move must not crash, apply must refuse
 * it cleanly or accept it and keep the invariants. */
static void hostile_feed(hostile_run *run, const json_t *action)
{
    const rules_engine *engine = run->engine;
    run->stats->hostile_actions++;
    char *shown = rules_sorted_json(action);
    if (strlen(shown) > HOSTILE_SHOWN)
        strcpy(shown + HOSTILE_SHOWN - 3, "...");
    if (run->trace)
        fprintf(stderr, "hostile: %s: seat %d: %s\n", run->where, run->seat,
                shown);

    char *text = engine->format_move(run->state, run->seat, action);
    free(text);

    rules_error err = {{0}};
    if (engine->apply(run->trial, run->seat, action, &err)) {
        cr_assert(!run->idle, "%s: %s: seat %d may not act but %s was "
                  "accepted", engine->name, run->where, run->seat, shown);
        cr_assert(engine->check(run->trial, &err),
                  "%s: %s: after seat %d's %s: %s", engine->name, run->where,
                  run->seat, shown, err.message);
        engine->destroy(run->trial);
        run->trial = engine->clone(run->state);
    } else {
        cr_assert(err.message[0] != '\0',
                  "%s: %s: refusal of seat %d's %s has no sentence",
                  engine->name, run->where, run->seat, shown);
        cr_assert(memchr(err.message, '\0', sizeof err.message) != NULL);
        char *after = snapshot_bytes(engine, run->trial);
        cr_assert_str_eq(run->before, after,
                         "%s: %s: refused %s of seat %d changed the state",
                         engine->name, run->where, shown, run->seat);
        free(after);
    }
    free(shown);
}

static void hostile_replace_type(hostile_run *run, json_t *root,
                                 json_t *node, const json_t *own)
{
    static const char *const nonsense[] = {"nonsense", "", "TYPE", "pass "};
    size_t i;
    const json_t *type;
    json_array_foreach(run->types, i, type) {
        if (json_equal(type, own))
            continue;
        json_object_set_new(node, "type", json_deep_copy(type));
        hostile_feed(run, root);
    }
    for (size_t k = 0; k < sizeof nonsense / sizeof *nonsense; k++) {
        json_object_set_new(node, "type", json_string(nonsense[k]));
        hostile_feed(run, root);
    }
}

static void hostile_mutate(hostile_run *run, json_t *root, json_t *node,
                           int depth);

/* Every field of the object node (inside root) replaced, removed, and an
 * unknown one added; node is restored after each. */
static void hostile_mutate_object(hostile_run *run, json_t *root, json_t *node,
                                  int depth)
{
    size_t count = json_object_size(node);
    char **keys = calloc(count + 1, sizeof *keys);
    cr_assert(keys != NULL);
    size_t n = 0;
    const char *key;
    json_t *value;
    json_object_foreach(node, key, value) {
        keys[n] = strdup(key);
        cr_assert(keys[n] != NULL);
        n++;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *own = json_incref(json_object_get(node, keys[i]));
        for (int k = 0; k < HOSTILE_VALUES; k++) {
            json_object_set_new(node, keys[i], hostile_value(k));
            hostile_feed(run, root);
        }
        json_object_del(node, keys[i]);
        hostile_feed(run, root);
        if (strcmp(keys[i], "type") == 0)
            hostile_replace_type(run, root, node, own);
        json_object_set_new(node, keys[i], own);
        if (depth < HOSTILE_DEPTH)
            hostile_mutate(run, root, own, depth + 1);
    }
    json_object_set_new(node, "hostile_unknown_field", json_integer(1));
    hostile_feed(run, root);
    json_object_del(node, "hostile_unknown_field");
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
}

/* The array node's elements replaced and duplicated; the array emptied,
 * truncated and grown; node is restored after each. */
static void hostile_mutate_array(hostile_run *run, json_t *root, json_t *node,
                                 int depth)
{
    size_t n = json_array_size(node);
    size_t picks[4] = {0, 1, n / 2, n - 1};
    for (size_t p = 0; p < 4 && n > 0; p++) {
        size_t at = n <= 4 ? p : picks[p];
        if (at >= n || (n > 4 && p > 0 && picks[p] == picks[p - 1]))
            continue;
        json_t *own = json_incref(json_array_get(node, at));
        for (int k = 0; k < HOSTILE_VALUES; k++) {
            json_array_set_new(node, at, hostile_value(k));
            hostile_feed(run, root);
        }
        json_array_insert_new(node, at, json_deep_copy(own));
        json_array_set(node, at + 1, own);
        hostile_feed(run, root);   /* the element twice */
        json_array_remove(node, at);
        json_array_set_new(node, at, own);
        if (depth < HOSTILE_DEPTH)
            hostile_mutate(run, root, own, depth + 1);
    }
    json_t *whole = json_copy(node);
    json_array_clear(node);
    hostile_feed(run, root);       /* emptied */
    for (size_t keep = 1; keep < n; keep *= 2) {
        json_array_clear(node);
        for (size_t i = 0; i < keep; i++)
            json_array_append(node, json_array_get(whole, i));
        hostile_feed(run, root);   /* truncated */
    }
    json_array_clear(node);
    json_array_extend(node, whole);
    json_t *last = n > 0 ? json_array_get(whole, n - 1) : NULL;
    json_t *filler = last != NULL ? last : json_integer(0);
    json_array_append_new(node, json_deep_copy(filler));
    hostile_feed(run, root);       /* grown by one */
    while (json_array_size(node) < HOSTILE_WIDE)
        json_array_append_new(node, json_deep_copy(filler));
    hostile_feed(run, root);       /* grown to a thousand */
    json_array_clear(node);
    json_array_extend(node, whole);
    if (last == NULL)
        json_decref(filler);
    json_decref(whole);
}

static void hostile_mutate(hostile_run *run, json_t *root, json_t *node,
                           int depth)
{
    if (json_is_object(node))
        hostile_mutate_object(run, root, node, depth);
    else if (json_is_array(node))
        hostile_mutate_array(run, root, node, depth);
}

/* The whole action replaced by something that is not an object. */
static void hostile_not_objects(hostile_run *run, const json_t *base)
{
    json_t *values[] = {
        json_pack("[O]", base), json_array(), json_string("pass"),
        json_string(""), json_integer(7), json_real(-0.5), json_null(),
        json_true(), json_object(), hostile_value(16),
    };
    for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
        cr_assert(values[i] != NULL);
        hostile_feed(run, values[i]);
        json_decref(values[i]);
    }
}

/* A growing string for hostile texts. */
typedef struct hostile_text {
    char *bytes;
    size_t length;
    size_t size;
} hostile_text;

static void text_add(hostile_text *t, const char *bytes, size_t length)
{
    if (t->length + length + 1 > t->size) {
        t->size = 2 * (t->length + length + 1);
        t->bytes = realloc(t->bytes, t->size);
        cr_assert(t->bytes != NULL);
    }
    memcpy(t->bytes + t->length, bytes, length);
    t->length += length;
    t->bytes[t->length] = '\0';
}

static void text_word(hostile_text *t, const char *word)
{
    if (t->length > 0)
        text_add(t, " ", 1);
    text_add(t, word, strlen(word));
}

/* Parses a hostile text and, when it parses, feeds its action. */
static void hostile_feed_text(hostile_run *run, const char *text)
{
    const rules_engine *engine = run->engine;
    run->stats->hostile_texts++;
    if (run->trace)
        fprintf(stderr, "hostile text: %s: seat %d: \"%.300s\"\n", run->where,
                run->seat, text);
    rules_error err = {{0}};
    json_t *action = engine->parse_move(run->state, run->seat, text, &err);
    if (action == NULL) {
        cr_assert(err.message[0] != '\0',
                  "%s: %s: \"%.300s\" does not parse and says nothing",
                  engine->name, run->where, text);
        return;
    }
    hostile_feed(run, action);
    json_decref(action);
}

/* The text of base cut, doubled, renumbered and garbled word by word. */
static void hostile_texts(hostile_run *run, const json_t *base)
{
    char *text = run->engine->format_move(run->state, run->seat, base);
    if (text == NULL)
        return;
    char *copy = strdup(text);
    cr_assert(copy != NULL);
    char *words[256];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save);
         w != NULL && n < 256; w = strtok_r(NULL, " ", &save))
        words[n++] = w;

    static const char *const numbers[] = {"-1", "0", "99999999999999999999"};
    for (int variant = 0; variant < 2 + 3 + 1; variant++) {
        for (int i = 0; i < n; i++) {
            hostile_text t = {0};
            text_add(&t, "", 0);
            bool changed = true;
            for (int j = 0; j < n; j++) {
                if (variant == 0 && j == i)
                    break;                        /* cut at word i */
                if (variant >= 2 && variant < 5 && j == i) {
                    const char *digit = strpbrk(words[j], "0123456789");
                    if (digit == NULL) {
                        changed = false;
                        break;
                    }
                    size_t run_length = strspn(digit, "0123456789");
                    hostile_text w = {0};
                    text_add(&w, words[j], (size_t)(digit - words[j]));
                    text_add(&w, numbers[variant - 2],
                             strlen(numbers[variant - 2]));
                    text_add(&w, digit + run_length, strlen(digit + run_length));
                    text_word(&t, w.bytes);
                    free(w.bytes);
                    continue;
                }
                if (variant == 5 && j == i) {
                    char garble[13];
                    size_t length = 1 + hostile_random(run) % 12;
                    for (size_t b = 0; b < length; b++)
                        garble[b] = (char)(1 + hostile_random(run) % 255);
                    garble[length] = '\0';
                    text_word(&t, garble);
                    continue;
                }
                text_word(&t, words[j]);
                if (variant == 1 && j == i)
                    text_word(&t, words[j]);      /* word i twice */
            }
            if (changed)
                hostile_feed_text(run, t.bytes);
            free(t.bytes);
        }
    }
    /* The move repeated to 5000 characters. */
    hostile_text t = {0};
    while (t.length < HOSTILE_LONG)
        text_word(&t, text);
    hostile_feed_text(run, t.bytes);
    free(t.bytes);
    free(copy);
    free(text);
}

static void hostile_fixed_texts(hostile_run *run)
{
    char *text = malloc(HOSTILE_LONG + 1);
    cr_assert(text != NULL);
    memset(text, 'x', HOSTILE_LONG);
    text[HOSTILE_LONG] = '\0';
    hostile_feed_text(run, "");
    hostile_feed_text(run, "   ");
    hostile_feed_text(run, text);
    for (int i = 0; i < HOSTILE_LONG; i++)
        text[i] = (char)(1 + hostile_random(run) % 255);
    hostile_feed_text(run, text);
    free(text);
}

/* At most HOSTILE_BASES listed moves of distinct types, from a random
 * starting point in the list. New reference. */
static json_t *hostile_bases(hostile_run *run, const json_t *moves)
{
    json_t *bases = json_array();
    json_t *seen = json_array();
    size_t n = json_array_size(moves);
    size_t start = n > 0 ? hostile_random(run) % n : 0;
    for (size_t k = 0; k < n && json_array_size(bases) < HOSTILE_BASES; k++) {
        json_t *move = json_array_get(moves, (start + k) % n);
        const json_t *type = json_object_get(move, "type");
        json_t *key = type != NULL ? json_deep_copy(type) : json_null();
        if (listed(seen, key)) {
            json_decref(key);
            continue;
        }
        json_array_append_new(seen, key);
        json_array_append(bases, move);
    }
    json_decref(seen);
    return bases;
}

static void remember_types(json_t *types, const json_t *moves)
{
    size_t i;
    const json_t *move;
    json_array_foreach(moves, i, move) {
        const json_t *type = json_object_get(move, "type");
        if (json_is_string(type) && !listed(types, type))
            json_array_append_new(types, json_deep_copy(type));
    }
}

/* Every hostile variation of bases for seat. */
static void hostile_seat(hostile_run *run, int seat, bool idle,
                         const json_t *bases)
{
    run->seat = seat;
    run->idle = idle;
    run->trial = run->engine->clone(run->state);
    size_t i;
    const json_t *base;
    json_array_foreach(bases, i, base) {
        json_t *action = json_deep_copy(base);
        hostile_mutate(run, action, action, 0);
        char *after = rules_sorted_json(action);
        char *expected = rules_sorted_json(base);
        cr_assert_str_eq(after, expected, "harness: mutations not undone");
        free(after);
        free(expected);
        json_decref(action);
        hostile_texts(run, base);
        if (i == 0)
            hostile_not_objects(run, base);
    }
    hostile_fixed_texts(run);
    run->engine->destroy(run->trial);
    run->trial = NULL;
}

static void hostile_position(hostile_run *run, const harness_config *cfg,
                             const rules_pending *pending)
{
    const rules_engine *engine = run->engine;
    json_t *first_bases = NULL;
    for (int seat = 0; seat < cfg->seats; seat++) {
        if (!(pending->seats & (1u << seat)))
            continue;
        json_t *legal = engine->legal(run->state, seat);
        const json_t *moves = json_object_get(legal, "moves");
        remember_types(run->types, moves);
        json_t *bases = hostile_bases(run, moves);
        hostile_seat(run, seat, false, bases);
        if (first_bases == NULL)
            first_bases = json_incref(bases);
        json_decref(bases);
        json_decref(legal);
    }
    uint32_t idle = ~pending->seats & ((1u << cfg->seats) - 1);
    if (idle != 0 && first_bases != NULL) {
        /* One move is enough to show an idle seat is refused whatever it
         * sends. */
        while (json_array_size(first_bases) > 1)
            json_array_remove(first_bases, json_array_size(first_bases) - 1);
        int seats[32];
        int count = 0;
        for (int s = 0; s < cfg->seats; s++)
            if (idle & (1u << s))
                seats[count++] = s;
        hostile_seat(run, seats[hostile_random(run) % (uint64_t)count], true,
                     first_bases);
    }
    json_decref(first_bases);
}

static void hostile_match(const harness_config *cfg, uint64_t n,
                          harness_stats *stats)
{
    const rules_engine *engine = cfg->engine;
    rules_state *state = new_match(cfg, n);
    json_t *types = json_array();
    char where[160];
    hostile_run run = {.engine = engine, .where = where, .types = types,
                       .rng = n, .stats = stats,
                       .trace = getenv("PBEM_HOSTILE_TRACE") != NULL};
    rules_error err = {{0}};
    for (int moves = 0;; moves++) {
        rules_pending pending;
        engine->pending(state, &pending);
        if (pending.wait == RULES_WAIT_NOBODY)
            break;
        cr_assert(moves < cfg->max_moves, "%s: seed #%llu: no end after %d "
                  "moves", engine->name, (unsigned long long)n, moves);
        if (moves < HOSTILE_FIRST_MOVES || moves % HOSTILE_EVERY == 0) {
            snprintf(where, sizeof where, "seed #%llu (%d seats, %s) move %d",
                     (unsigned long long)n, cfg->seats,
                     cfg->options_json ? cfg->options_json : "defaults",
                     moves);
            char *before = snapshot_bytes(engine, state);
            run.state = state;
            run.before = before;
            hostile_position(&run, cfg, &pending);
            char *after = snapshot_bytes(engine, state);
            cr_assert_str_eq(before, after, "%s: %s: hostile moves changed "
                             "the state they were not applied to",
                             engine->name, where);
            free(after);
            free(before);
        }
        int seat = __builtin_ctz(pending.seats);
        if (rules_seat_count(pending.seats) > 1) {
            int skip = (int)(hostile_random(&run) %
                             (uint64_t)rules_seat_count(pending.seats));
            for (int s = 0; s < RULES_MAX_SEATS; s++) {
                if ((pending.seats & (1u << s)) && skip-- == 0) {
                    seat = s;
                    break;
                }
            }
        }
        json_t *legal = engine->legal(state, seat);
        const json_t *moves_listed = json_object_get(legal, "moves");
        size_t count = json_array_size(moves_listed);
        cr_assert(count > 0, "%s: seed #%llu move %d: seat %d has no move",
                  engine->name, (unsigned long long)n, moves, seat);
        const json_t *action = json_array_get(
            moves_listed, hostile_random(&run) % count);
        cr_assert(engine->apply(state, seat, action, &err),
                  "%s: seed #%llu move %d: listed move rejected: %s",
                  engine->name, (unsigned long long)n, moves, err.message);
        json_decref(legal);
    }
    json_decref(types);
    engine->destroy(state);
    stats->matches++;
}

void harness_hostile_moves(const harness_config *cfg, harness_stats *stats)
{
    play_matches(cfg, stats, hostile_match);
}

void harness_expect_hostile_moves_harmless(const harness_config *cfg)
{
    harness_stats stats = {0};
    harness_hostile_moves(cfg, &stats);
    cr_expect_eq(stats.matches, cfg->matches * harness_soak_factor());
    cr_expect_gt(stats.hostile_actions, 0);
    cr_expect_gt(stats.hostile_texts, 0);
    cr_log_info("%s: %d seats, %s: %ld hostile actions, %ld hostile texts",
                cfg->engine->name, cfg->seats,
                cfg->options_json ? cfg->options_json : "defaults",
                stats.hostile_actions, stats.hostile_texts);
}
