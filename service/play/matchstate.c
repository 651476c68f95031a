/* matchstate.c */
#include "play/matchstate.h"

#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/ways.h"
#include "ledger/replay.h"
#include "store/events.h"

/* The cache holds CACHE_SETS × WAYS_PER_SET matches, each in one of the
 * ways of the set its id picks, at most once (core/ways.h): two matches
 * whose ids pick the same set no longer evict each other at every move,
 * each time costing the other a reload of the match, its snapshot and its
 * events (bench/growth's 200 matches: 1,556 moves/s with one slot per
 * id, 1,992 with four per set). */
#define CACHE_SETS 256

typedef struct cache_slot {
    long long match_id;
    long long seq;
    const rules_engine *engine;
    rules_state *state;
    bool has_row;      /* row holds the match as read or written at seq */
    store_match row;   /* options owned by the slot */
    store_reachability reach; /* who could be notified in it, and when
                                 that was read */
} cache_slot;

static ways_tag tags[CACHE_SETS][WAYS_PER_SET];
static cache_slot cache[CACHE_SETS][WAYS_PER_SET];
static unsigned long long use_clock;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned set_of(long long match_id)
{
    return ways_set((unsigned long long)match_id, CACHE_SETS);
}

/* The slot holding match_id (lock held), or NULL. */
static cache_slot *slot_of(long long match_id)
{
    unsigned set = set_of(match_id);
    int way = ways_find(tags[set], (unsigned long long)match_id, &use_clock);
    return way >= 0 ? &cache[set][way] : NULL;
}

/* The slot to put match_id in (lock held): its own, else an empty one,
 * else the one used longest ago. */
static cache_slot *slot_for(long long match_id)
{
    unsigned set = set_of(match_id);
    return &cache[set][ways_place(tags[set], (unsigned long long)match_id,
                                  &use_clock)];
}

/* A copy of match whose options the copy owns. */
static void copy_row(const store_match *match, store_match *copy)
{
    *copy = *match;
    copy->options = json_deep_copy(match->options);
    if (copy->options == NULL)
        abort();
}

/* Caches state, which the cache owns from now on, with match and reach
 * (both may be NULL). */
static void put(const rules_engine *engine, long long match_id,
                long long seq, rules_state *copy, const store_match *match,
                const store_reachability *reach)
{
    store_match row = {0};
    store_reachability kept = {0};
    if (match != NULL)
        copy_row(match, &row);
    if (reach != NULL)
        kept = *reach;
    else
        store_reachability_forget(&kept);
    pthread_mutex_lock(&cache_lock);
    cache_slot *slot = slot_for(match_id);
    rules_state *old = slot->state;
    const rules_engine *old_engine = slot->engine;
    json_t *old_options = slot->has_row ? slot->row.options : NULL;
    slot->match_id = match_id;
    slot->seq = seq;
    slot->engine = engine;
    slot->state = copy;
    slot->has_row = match != NULL;
    slot->row = row;
    slot->reach = kept;
    pthread_mutex_unlock(&cache_lock);
    if (old != NULL)
        old_engine->destroy(old);
    json_decref(old_options);
}

void matchstate_remember(const rules_engine *engine, long long match_id,
                         long long seq, const rules_state *state)
{
    put(engine, match_id, seq, engine->clone(state), NULL, NULL);
}

void matchstate_keep(const rules_engine *engine, const store_match *match,
                     const store_reachability *reach, rules_state *state)
{
    put(engine, match->match_id, match->head_seq, state, match, reach);
}

bool matchstate_recall(long long match_id, long long seq, store_match *match,
                       store_reachability *reach, const rules_engine **engine,
                       rules_state **state)
{
    bool found = false;
    pthread_mutex_lock(&cache_lock);
    cache_slot *slot = slot_of(match_id);
    if (slot != NULL && slot->has_row && slot->seq == seq) {
        *engine = slot->engine;
        *state = slot->engine->clone(slot->state);
        copy_row(&slot->row, match);
        /* Who can be notified changes without an event: the copy keeps
         * the reading only while it is current, else it is left unknown,
         * to be read again. */
        if (reach != NULL) {
            *reach = slot->reach;
            if (!store_reachability_current(&slot->reach,
                                            slot->row.seat_player,
                                            MATCHSTATE_REACHABILITY_MS))
                store_reachability_forget(reach);
        }
        found = true;
    }
    pthread_mutex_unlock(&cache_lock);
    return found;
}

static rules_state *recall(const rules_engine *engine, long long match_id,
                           long long seq)
{
    rules_state *copy = NULL;
    pthread_mutex_lock(&cache_lock);
    cache_slot *slot = slot_of(match_id);
    if (slot != NULL && slot->seq == seq && slot->engine == engine) {
        copy = engine->clone(slot->state);
    }
    pthread_mutex_unlock(&cache_lock);
    return copy;
}

void matchstate_forget_all(void)
{
    pthread_mutex_lock(&cache_lock);
    for (int set = 0; set < CACHE_SETS; set++)
        for (int way = 0; way < WAYS_PER_SET; way++) {
            cache_slot *slot = &cache[set][way];
            if (slot->state != NULL)
                slot->engine->destroy(slot->state);
            if (slot->has_row)
                json_decref(slot->row.options);
            memset(slot, 0, sizeof *slot);
        }
    memset(tags, 0, sizeof tags);
    pthread_mutex_unlock(&cache_lock);
}

const rules_engine *matchstate_engine(const store_match *match, apierr *err)
{
    const rules_engine *engine = rules_find(match->game);
    if (engine == NULL) {
        apierr_set(err, 409, "engine_missing",
                   "this server has no %s engine, so it cannot replay the match",
                   match->game);
        return NULL;
    }
    if (engine->version != match->engine_version) {
        apierr_set(err, 409, "engine_version",
                   "this match is played under %s rules version %d and this "
                   "server runs version %d; it will not replay the match under "
                   "other rules",
                   match->game, match->engine_version, engine->version);
        return NULL;
    }
    return engine;
}

bool matchstate_seed(const store_match *match, const char *const *entropy_hex,
                     uint8_t seed[RULES_SEED_BYTES], apierr *err)
{
    uint8_t secret[SEAL_SEED_BYTES];
    if (!seal_decrypt(match->match_id, match->sealed_seed,
                      sizeof match->sealed_seed, secret))
        return apierr_set(err, 500, "seed_sealed",
                          "the match seed cannot be decrypted with this "
                          "service's key file (was PBEM_KEY_FILE changed?)");
    uint8_t entropy[STORE_MAX_SEATS][32];
    memset(entropy, 0, sizeof entropy);
    for (int s = 0; s < match->seat_count; s++) {
        size_t len = 0;
        if (entropy_hex[s] != NULL)
            sodium_hex2bin(entropy[s], 32, entropy_hex[s],
                           strlen(entropy_hex[s]), NULL, &len, NULL);
    }
    seal_match_seed(secret, (const uint8_t(*)[32])entropy, match->seat_count,
                    seed);
    sodium_memzero(secret, sizeof secret);
    return true;
}

/* Setup from the seed: the joined events carry each seat's entropy. */
static rules_state *setup_from_log(const store_match *match,
                                   const rules_engine *engine,
                                   const json_t *events, apierr *err)
{
    const char *entropy_hex[STORE_MAX_SEATS] = {0};
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (kind == NULL || strcmp(kind, "joined") != 0)
            continue;
        json_int_t seat = json_integer_value(json_object_get(event, "seat"));
        if (seat >= 0 && seat < match->seat_count)
            entropy_hex[seat] = json_string_value(
                json_object_get(json_object_get(event, "data"), "entropy"));
    }
    uint8_t seed[RULES_SEED_BYTES];
    if (!matchstate_seed(match, entropy_hex, seed, err))
        return NULL;
    rules_error rerr = {{0}};
    rules_state *state =
        engine->setup(match->options, match->seat_count, seed, &rerr);
    sodium_memzero(seed, sizeof seed);
    if (state == NULL)
        apierr_set(err, 500, "replay_failed",
                   "the match no longer sets up: %s", rerr.message);
    /* rerr only carries the message; state does not point into it. */
    /* cppcheck-suppress returnDanglingLifetime */
    return state;
}

bool matchstate_has_state(const store_match *match)
{
    if (strcmp(match->status, "active") == 0 ||
        strcmp(match->status, "finished") == 0)
        return true;
    if (strcmp(match->status, "aborted") != 0)
        return false;
    /* The last join starts the match in the same transaction, so an
     * aborted match started exactly when all its seats are filled. */
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == 0)
            return false;
    }
    return true;
}

/* Applies the events of events (from index first on) that counts marks
 * (every one when counts is NULL), up to seq upto. */
static bool apply_events(const rules_engine *engine, rules_state *state,
                         const json_t *events, const bool *counts,
                         long long upto, bool check_requests, apierr *err)
{
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        long long seq =
            (long long)json_integer_value(json_object_get(event, "seq"));
        if (seq > upto)
            break;
        if (counts != NULL && !counts[i])
            continue;
        replay_error rerr = {0};
        if (!replay_apply(engine, state, event, check_requests, &rerr))
            return apierr_set(err, check_requests ? 422 : 500, "replay_failed",
                              "%s", rerr.reason);
    }
    return true;
}

rules_state *matchstate_from_log(const store_match *match,
                                 const rules_engine *engine,
                                 const json_t *events, long long upto,
                                 bool check_requests, apierr *err)
{
    size_t n = json_array_size(events);
    if (upto > (long long)n)
        upto = (long long)n;
    /* Which events count is a question of the log up to upto only. */
    json_t *prefix = json_array();
    for (long long i = 0; i < upto; i++)
        json_array_append(prefix, json_array_get(events, (size_t)i));
    bool *counts = calloc(n + 1, sizeof *counts);
    if (counts == NULL)
        abort();
    replay_error rerr = {0};
    rules_state *state = NULL;
    if (!replay_history(prefix, counts, &rerr))
        apierr_set(err, check_requests ? 422 : 500, "replay_failed", "%s",
                   rerr.reason);
    else
        state = setup_from_log(match, engine, prefix, err);
    if (state != NULL && !apply_events(engine, state, prefix, counts, upto,
                                       check_requests, err)) {
        engine->destroy(state);
        state = NULL;
    }
    free(counts);
    json_decref(prefix);
    return state;
}

static bool has_rewind(const json_t *events)
{
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (kind != NULL && strcmp(kind, "rewound") == 0)
            return true;
    }
    return false;
}

static rules_state *load_snapshot(const rules_engine *engine,
                                  const store_match *match, long long seq,
                                  char *text)
{
    json_t *snapshot = json_loads(text, 0, NULL);
    rules_error rerr = {{0}};
    rules_state *state = snapshot ? engine->load(snapshot, &rerr) : NULL;
    json_decref(snapshot);
    free(text);
    if (state == NULL)
        log_warn("match %lld: snapshot at %lld unusable (%s); replaying "
                 "from the start",
                 match->match_id, seq, rerr.message);
    return state;
}

/* A snapshot at S holds the state right after S as the match stood then,
 * which is still the state at S as long as no rewind after S has undone S.
 * The service saves one at every rewind, so the common case replays only
 * the events after the latest snapshot; otherwise the whole log is read
 * and only the events that count are replayed. */
rules_state *matchstate_at(PGconn *conn, const store_match *match,
                           const rules_engine *engine, long long upto,
                           apierr *err)
{
    long long from = 0;
    char *snapshot_text = NULL;
    if (!store_find_snapshot(conn, match->match_id, upto, engine->version,
                             &from, &snapshot_text, err))
        return NULL;
    rules_state *state = NULL;
    if (snapshot_text != NULL) {
        json_t *after = store_events_after(conn, match->match_id, from,
                                           (int)(upto - from), err);
        if (after == NULL) {
            free(snapshot_text);
            return NULL;
        }
        if (!has_rewind(after)) {
            state = load_snapshot(engine, match, from, snapshot_text);
            snapshot_text = NULL;
            if (state != NULL &&
                !apply_events(engine, state, after, NULL, upto, false, err)) {
                engine->destroy(state);
                json_decref(after);
                return NULL;
            }
        }
        free(snapshot_text);
        json_decref(after);
        if (state != NULL)
            return state;
    }
    json_t *events =
        store_events_after(conn, match->match_id, 0, (int)upto, err);
    if (events == NULL)
        return NULL;
    state = matchstate_from_log(match, engine, events, upto, false, err);
    json_decref(events);
    return state;
}

rules_state *matchstate_load(PGconn *conn, const store_match *match,
                             const rules_engine *engine, apierr *err)
{
    if (!matchstate_has_state(match)) {
        apierr_set(err, 409, "not_started",
                   "the match has not started: it is waiting for players to "
                   "join");
        return NULL;
    }
    rules_state *state = recall(engine, match->match_id, match->head_seq);
    if (state != NULL)
        return state;
    state = matchstate_at(conn, match, engine, match->head_seq, err);
    if (state != NULL)
        matchstate_remember(engine, match->match_id, match->head_seq, state);
    return state;
}
