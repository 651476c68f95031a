/* matchstate.c */
#include "matchstate.h"

#include <pthread.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

#define CACHE_SLOTS 1024

typedef struct cache_slot {
    long long match_id;
    long long seq;
    const rules_engine *engine;
    rules_state *state;
} cache_slot;

static cache_slot cache[CACHE_SLOTS];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

static cache_slot *slot_for(long long match_id)
{
    return &cache[(unsigned long long)match_id % CACHE_SLOTS];
}

void matchstate_remember(const rules_engine *engine, long long match_id,
                         long long seq, const rules_state *state)
{
    rules_state *copy = engine->clone(state);
    pthread_mutex_lock(&cache_lock);
    cache_slot *slot = slot_for(match_id);
    rules_state *old = slot->state;
    const rules_engine *old_engine = slot->engine;
    slot->match_id = match_id;
    slot->seq = seq;
    slot->engine = engine;
    slot->state = copy;
    pthread_mutex_unlock(&cache_lock);
    if (old != NULL)
        old_engine->destroy(old);
}

static rules_state *recall(const rules_engine *engine, long long match_id,
                           long long seq)
{
    rules_state *copy = NULL;
    pthread_mutex_lock(&cache_lock);
    cache_slot *slot = slot_for(match_id);
    if (slot->state != NULL && slot->match_id == match_id &&
        slot->seq == seq && slot->engine == engine)
        copy = engine->clone(slot->state);
    pthread_mutex_unlock(&cache_lock);
    return copy;
}

void matchstate_forget_all(void)
{
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++) {
        if (cache[i].state != NULL)
            cache[i].engine->destroy(cache[i].state);
        memset(&cache[i], 0, sizeof cache[i]);
    }
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
    return state;
}

static bool replay_one(const rules_engine *engine, rules_state *state,
                       int seat, const json_t *action, const json_t *event,
                       apierr *err)
{
    rules_error rerr = {{0}};
    if (engine->apply(state, seat, action, &rerr))
        return true;
    return apierr_set(err, 500, "replay_failed",
                      "event %lld no longer replays: %s",
                      (long long)json_integer_value(json_object_get(event, "seq")),
                      rerr.message);
}

/* Moves apply one action; a timeout applies the moves a deadline made for
 * its seat (data.moves); a decided sealed decision applies every seat's
 * revealed choice in seat order. Other events do not change the rules
 * state. */
static bool replay_event(const rules_engine *engine, rules_state *state,
                         const json_t *event, apierr *err)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    const json_t *data = json_object_get(event, "data");
    if (kind != NULL && strcmp(kind, "move") == 0)
        return replay_one(engine, state,
                          (int)json_integer_value(json_object_get(event, "seat")),
                          json_object_get(data, "action"), event, err);
    if (kind != NULL && strcmp(kind, "timeout") == 0) {
        int seat = (int)json_integer_value(json_object_get(event, "seat"));
        size_t i;
        const json_t *move;
        json_array_foreach(json_object_get(data, "moves"), i, move) {
            if (!replay_one(engine, state, seat,
                            json_object_get(move, "action"), event, err))
                return false;
        }
    }
    if (kind != NULL && strcmp(kind, "decided") == 0) {
        size_t i;
        const json_t *choice;
        json_array_foreach(json_object_get(data, "choices"), i, choice) {
            if (!replay_one(engine, state,
                            (int)json_integer_value(json_object_get(choice, "seat")),
                            json_object_get(choice, "action"), event, err))
                return false;
        }
    }
    return true;
}

rules_state *matchstate_load(PGconn *conn, const store_match *match,
                             const rules_engine *engine, apierr *err)
{
    if (strcmp(match->status, "open") == 0) {
        apierr_set(err, 409, "not_started",
                   "the match has not started: it is waiting for players to "
                   "join");
        return NULL;
    }
    rules_state *state = recall(engine, match->match_id, match->head_seq);
    if (state != NULL)
        return state;

    long long from = 0;
    char *snapshot_text = NULL;
    if (!store_find_snapshot(conn, match->match_id, match->head_seq,
                             engine->version, &from, &snapshot_text, err))
        return NULL;
    if (snapshot_text != NULL) {
        json_t *snapshot = json_loads(snapshot_text, 0, NULL);
        rules_error rerr = {{0}};
        state = snapshot ? engine->load(snapshot, &rerr) : NULL;
        json_decref(snapshot);
        free(snapshot_text);
        if (state == NULL) {
            log_warn("match %lld: snapshot at %lld unusable (%s); replaying "
                     "from the start",
                     match->match_id, from, rerr.message);
            from = 0;
        }
    }
    json_t *events = store_events_after(conn, match->match_id, from,
                                        (int)(match->head_seq - from + 1), err);
    if (events == NULL) {
        if (state != NULL)
            engine->destroy(state);
        return NULL;
    }
    if (state == NULL)
        state = setup_from_log(match, engine, events, err);
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) {
        if (state == NULL)
            break;
        if (!replay_event(engine, state, event, err)) {
            engine->destroy(state);
            state = NULL;
        }
    }
    json_decref(events);
    if (state != NULL)
        matchstate_remember(engine, match->match_id, match->head_seq, state);
    return state;
}
