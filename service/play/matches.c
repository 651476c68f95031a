/* matches.c: create, join, move, views. */
#include "play/matches.h"
#include "play/retry.h"
#include "play/matches_internal.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "deadlines/deadline_settings.h"
#include "deadlines/deadlines.h"
#include "play/decisions.h"
#include "ledger/forfeit.h"
#include "core/log.h"
#include "notify/mail.h"
#include "play/matchstate.h"
#include "core/metrics.h"
#include "notify/notify_outbox.h"
#include "ledger/replay.h"
#include "rules.h"
#include "store/store.h"

#define NAME_MAX_LEN 80
#define EMAIL_MAX_LEN 254

static const char *wait_name(rules_wait wait)
{
    switch (wait) {
    case RULES_WAIT_ONE:
        return "one";
    case RULES_WAIT_ANY_ORDER:
        return "any_order";
    case RULES_WAIT_SIMULTANEOUS:
        return "simultaneous";
    default:
        return "nobody";
    }
}

json_t *matches_pending_json(const rules_pending *pending, uint32_t committed)
{
    json_t *seats = json_array();
    json_t *done = json_array();
    for (int s = 0; s < 32; s++) {
        if (!(pending->seats & (1u << s)))
            continue;
        json_array_append_new((committed & (1u << s)) ? done : seats,
                              json_integer(s));
    }
    json_t *out = json_pack("{s:s,s:o,s:s}", "wait", wait_name(pending->wait),
                            "seats", seats, "prompt", pending->prompt);
    if (pending->decision[0] != '\0') {
        json_object_set_new(out, "decision", json_string(pending->decision));
        json_object_set_new(out, "committed", done);
    } else {
        json_decref(done);
    }
    return out;
}

/* Seats of an open sealed decision that have committed already: they
 * have acted, even though the rules still wait for the decision. */
static uint32_t committed_seats(long long match_id, const rules_pending *pending)
{
    if (pending->wait != RULES_WAIT_SIMULTANEOUS)
        return 0;
    apierr err;
    PGconn *conn = db_conn(&err);
    return conn ? decisions_committed(conn, match_id, pending->decision) : 0;
}

/* A match that ended by forfeit is over although its rules still wait
 * for someone. */
static bool ended_early(const store_match *match, const rules_engine *engine,
                        const rules_state *state)
{
    rules_pending pending;
    engine->pending(state, &pending);
    return strcmp(match->status, "finished") == 0 &&
           pending.wait != RULES_WAIT_NOBODY;
}

/* Who must act, as the views show it (matches_pending). */
static json_t *pending_of(const store_match *match, const rules_engine *engine,
                          const rules_state *state, uint32_t *committed)
{
    rules_pending pending;
    matches_pending(match, engine, state, &pending);
    *committed = committed_seats(match->match_id, &pending);
    return matches_pending_json(&pending, *committed);
}

/* The result the views show: the engine's, or after a forfeit the one the
 * finished event recorded (forfeit.h). */
static json_t *result_of(const store_match *match, const rules_engine *engine,
                         const rules_state *state)
{
    json_t *result = engine->result(state);
    if (!ended_early(match, engine, state))
        return result;
    apierr err;
    uint32_t forfeited = 0;
    PGconn *conn = db_conn(&err);
    if (conn != NULL)
        deadlines_forfeited(conn, match->match_id, &forfeited, &err);
    json_t *final = forfeit_result(result, forfeited);
    json_decref(result);
    return final;
}

/* Deadlines: the settings and every seat's clock; a match without
 * deadlines shows clocks only when its rules time a window of their own
 * (rules.h window), so a seat sees when it closes. */
static void describe_deadlines(json_t *out, const store_match *match,
                               const rules_engine *engine)
{
    apierr err;
    PGconn *conn = db_conn(&err);
    deadline_settings settings;
    if (conn == NULL ||
        !deadline_settings_load(conn, match->match_id, &settings, &err))
        return;
    if (settings.enabled)
        json_object_set_new(out, "deadline",
                            deadline_settings_json(&settings));
    else if (engine == NULL || engine->window == NULL)
        return;
    json_t *clocks = deadlines_describe(conn, match, &err);
    if (clocks != NULL)
        json_object_set_new(out, "clocks", clocks);
}

void matches_hex(const uint8_t *bytes, size_t len, char *out)
{
    sodium_bin2hex(out, 2 * len + 1, bytes, len);
}

void matches_pending(const store_match *match, const rules_engine *engine,
                     const rules_state *state, rules_pending *pending)
{
    engine->pending(state, pending);
    if (strcmp(match->status, "aborted") == 0) {
        memset(pending, 0, sizeof *pending);
        pending->wait = RULES_WAIT_NOBODY;
        snprintf(pending->prompt, sizeof pending->prompt,
                 "nothing: an admin aborted the match");
    } else if (strcmp(match->status, "finished") == 0 &&
               pending->wait != RULES_WAIT_NOBODY) {
        memset(pending, 0, sizeof *pending);
        pending->wait = RULES_WAIT_NOBODY;
        snprintf(pending->prompt, sizeof pending->prompt,
                 "the match ended by forfeit");
    }
}

/* The public description of a match (no hidden information). */
json_t *matches_describe(const store_match *match, const rules_engine *engine,
                          const rules_state *state)
{
    char ref[32], head_hash[2 * STORE_HASH_BYTES + 1];
    store_match_ref(match->match_id, ref);
    matches_hex(match->head_hash, STORE_HASH_BYTES, head_hash);
    json_t *seats = json_array();
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == 0) {
            json_array_append_new(seats, json_pack("{s:i,s:n}", "seat", s,
                                                   "player"));
            continue;
        }
        char player[32];
        store_player_ref(match->seat_player[s], player);
        json_array_append_new(seats,
                              json_pack("{s:i,s:s,s:s}", "seat", s, "player",
                                        player, "name", match->seat_name[s]));
    }
    json_t *out = json_pack(
        "{s:s,s:s,s:s,s:i,s:s,s:i,s:O,s:o,s:{s:I,s:s}}", "id", ref, "game",
        match->game, "title", engine ? engine->title : match->game,
        "engine_version", match->engine_version, "status", match->status,
        "seat_count", match->seat_count, "options", match->options, "seats",
        seats, "head", "seq", (json_int_t)match->head_seq, "hash", head_hash);
    describe_deadlines(out, match, engine);
    if (state != NULL && engine != NULL) {
        uint32_t committed;
        json_object_set_new(out, "pending",
                            pending_of(match, engine, state, &committed));
        json_object_set_new(out, "view", engine->view(state, RULES_SPECTATOR));
        json_object_set_new(out, "result", result_of(match, engine, state));
    }
    return out;
}

json_t *matches_games(void)
{
    json_t *games = json_array();
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        json_array_append_new(
            games, json_pack("{s:s,s:s,s:i,s:i,s:i,s:o}", "name", (*e)->name,
                             "title", (*e)->title, "version", (*e)->version,
                             "min_seats", (*e)->min_seats, "max_seats",
                             (*e)->max_seats, "options",
                             (*e)->describe_options()));
    }
    return json_pack("{s:o}", "games", games);
}

bool matches_registration_key(const json_t *body, uint8_t public_key[32],
                              apierr *err)
{
    const char *key_b64 = json_string_value(json_object_get(body, "public_key"));
    size_t key_len = 0;
    if (key_b64 == NULL ||
        sodium_base642bin(public_key, crypto_sign_PUBLICKEYBYTES, key_b64,
                          strlen(key_b64), NULL, &key_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len != crypto_sign_PUBLICKEYBYTES)
        return apierr_set(err, 400, "bad_public_key",
                          "public_key must be a 32-byte Ed25519 public key in "
                          "standard base64");
    return true;
}

bool matches_player_fields_ok(const json_t *name_json,
                              const json_t *email_json, apierr *err)
{
    const char *name = json_string_value(name_json);
    const char *email = json_string_value(email_json);
    if (name == NULL || name[0] == '\0' || strlen(name) > NAME_MAX_LEN)
        return apierr_set(err, 400, "bad_name",
                          "name must be a string of 1 to %d characters",
                          NAME_MAX_LEN);
    if (email_json != NULL && !json_is_null(email_json) &&
        (email == NULL || strlen(email) > EMAIL_MAX_LEN ||
         !mail_address_ok(email)))
        return apierr_set(err, 400, "bad_email",
                          "email must look like name@example.org (at most %d "
                          "characters)",
                          EMAIL_MAX_LEN);
    return true;
}

json_t *matches_register_player(const caller *who, const json_t *body,
                                const uint8_t public_key[32], apierr *err)
{
    const json_t *name_json = json_object_get(body, "name");
    const json_t *email_json = json_object_get(body, "email");
    if (!matches_player_fields_ok(name_json, email_json, err))
        return NULL;
    const char *name = json_string_value(name_json);
    const char *email = json_string_value(email_json);
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    long long player_id;
    char key_id[40], ref[32];
    if (!store_begin(conn, err))
        return NULL;
    if (!store_create_player(conn, name, email, public_key, &player_id, key_id,
                             err)) {
        store_rollback(conn);
        return NULL;
    }
    store_player_ref(player_id, ref);
    json_t *answer = json_pack("{s:s,s:s,s:s}", "id", ref, "name", name,
                               "key_id", key_id);
    /* The answer is kept with the nonce: a retry after a lost answer gets
     * it again instead of "already registered". */
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        return NULL;
    }
    log_info("player %s registered with key %s", ref, key_id);
    return answer;
}

/* Outbox rows per recipient and channel (notify_outbox.h). */
bool matches_notify_pending(PGconn *conn, const store_match *match,
                           const rules_engine *engine, const rules_state *state,
                           apierr *err)
{
    return notify_outbox_queue(conn, match, engine, state, err);
}

static int requested_seats(const json_t *body, const rules_engine *engine,
                           apierr *err)
{
    const json_t *seats = json_object_get(body, "seats");
    if (!json_is_integer(seats) ||
        json_integer_value(seats) < engine->min_seats ||
        json_integer_value(seats) > engine->max_seats ||
        json_integer_value(seats) > STORE_MAX_SEATS) {
        apierr_set(err, 400, "bad_seats",
                   "%s is for %d to %d players: give \"seats\" as a number in "
                   "that range",
                   engine->title, engine->min_seats, engine->max_seats);
        return -1;
    }
    return (int)json_integer_value(seats);
}

static bool entropy_of(const json_t *body, char out[65], apierr *err)
{
    const json_t *entropy = json_object_get(body, "entropy");
    out[0] = '\0';
    if (entropy == NULL || json_is_null(entropy))
        return true;
    const char *hex = json_string_value(entropy);
    uint8_t bytes[32];
    size_t len = 0;
    if (hex == NULL || strlen(hex) != 64 ||
        sodium_hex2bin(bytes, sizeof bytes, hex, 64, NULL, &len, NULL) != 0 ||
        len != 32)
        return apierr_set(err, 400, "bad_entropy",
                          "entropy must be 32 bytes as 64 hex digits");
    sodium_bin2hex(out, 65, bytes, sizeof bytes);
    return true;
}

json_t *matches_create(const caller *who, const json_t *body, apierr *err)
{
    const char *game = json_string_value(json_object_get(body, "game"));
    const rules_engine *engine = game ? rules_find(game) : NULL;
    if (engine == NULL) {
        apierr_set(err, 400, "unknown_game",
                   "\"game\" must name one of the games GET /v1/games lists");
        return NULL;
    }
    int seats = requested_seats(body, engine, err);
    char entropy[65];
    deadline_settings deadline;
    if (seats < 0 || !entropy_of(body, entropy, err) ||
        !deadline_settings_parse(json_object_get(body, "deadline"), &deadline,
                                 err))
        return NULL;
    rules_error rerr = {{0}};
    json_t *declared = engine->describe_options();
    json_t *options = rules_resolve_options(
        declared, json_object_get(body, "options"), &rerr);
    json_decref(declared);
    if (options == NULL) {
        apierr_set(err, 400, "bad_options", "%s", rerr.message);
        return NULL;
    }
    /* Options can forbid seat counts (pairs need an even number): ask the
     * engine now rather than fail when the last player joins. */
    uint8_t probe_seed[RULES_SEED_BYTES] = {0};
    rules_state *probe = engine->setup(options, seats, probe_seed, &rerr);
    if (probe == NULL) {
        json_decref(options);
        apierr_set(err, 400, "bad_options", "%s", rerr.message);
        return NULL;
    }
    engine->destroy(probe);

    store_match match;
    memset(&match, 0, sizeof match);
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    match.match_id = (long long)(random_id >> 1) | 1;
    snprintf(match.game, sizeof match.game, "%s", engine->name);
    match.engine_version = engine->version;
    match.options = options;
    match.seat_count = seats;
    snprintf(match.status, sizeof match.status, "open");
    match.created_by = who->player_id;
    uint8_t seed[SEAL_SEED_BYTES], commitment[SEAL_HASH_BYTES];
    seal_new_seed(seed);
    seal_seed_commitment(seed, commitment);
    seal_encrypt(match.match_id, seed, sizeof seed, match.sealed_seed);
    sodium_memzero(seed, sizeof seed);
    char commitment_hex[2 * SEAL_HASH_BYTES + 1], player[32];
    matches_hex(commitment, sizeof commitment, commitment_hex);
    store_player_ref(who->player_id, player);

    json_t *created = json_pack(
        "{s:s,s:{s:s,s:i,s:O,s:i,s:s,s:s}}", "kind", "created", "data", "game",
        engine->name, "engine_version", engine->version, "options", options,
        "seats", seats, "seed_commitment", commitment_hex, "created_by",
        player);
    /* The deadline rules are part of the public record of the match. */
    if (deadline.enabled)
        json_object_set_new(json_object_get(created, "data"), "deadline",
                            deadline_settings_json(&deadline));
    json_t *joined = json_pack("{s:s,s:i,s:{s:s}}", "kind", "joined", "seat",
                               0, "data", "player", player);
    if (entropy[0] != '\0')
        json_object_set_new(json_object_get(joined, "data"), "entropy",
                            json_string(entropy));
    json_t *events[] = {created, joined};
    json_t *answer = NULL;
    PGconn *conn = db_conn(err);
    bool ok = conn != NULL && store_begin(conn, err);
    if (ok) {
        ok = store_insert_match(conn, &match, err) &&
             deadline_settings_save(conn, match.match_id, &deadline, err) &&
             store_insert_seat(conn, match.match_id, 0, who->player_id, err) &&
             store_append(conn, &match, events, 2, NULL, err);
        if (ok) {
            match.seat_player[0] = who->player_id;
            answer = json_pack("{s:o,s:i}", "match",
                               matches_describe(&match, engine, NULL), "seat", 0);
            ok =
                retry_commit(conn, who, &match, 201, answer, err);
        } else {
            store_rollback(conn);
        }
    }
    if (ok) {
        metrics_events_appended(2);
        log_info("match m_%lld created: %s for %d seats by %s", match.match_id,
                 engine->name, seats, player);
    } else {
        json_decref(answer);
        answer = NULL;
    }
    json_decref(created);
    json_decref(joined);
    store_match_free(&match);
    return answer;
}

json_t *matches_join(const caller *who, long long match_id, const json_t *body,
                     apierr *err)
{
    char entropy[65];
    if (!entropy_of(body, entropy, err))
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *answer = NULL;
    json_t *events[2] = {NULL, NULL};
    rules_state *state = NULL;
    const rules_engine *engine = matchstate_engine(&match, err);
    int seat = -1, seated = 0;
    for (int s = 0; s < match.seat_count; s++) {
        if (match.seat_player[s] == who->player_id) {
            apierr_set(err, 409, "already_seated",
                       "you already have seat %d in this match", s);
            goto fail;
        }
        if (match.seat_player[s] != 0)
            seated++;
        else if (seat < 0)
            seat = s;
    }
    if (engine == NULL)
        goto fail;
    if (strcmp(match.status, "aborted") == 0) {
        apierr_set(err, 409, "aborted",
                   "this match was aborted by an admin: nobody can join it");
        goto fail;
    }
    if (strcmp(match.status, "open") != 0 || seat < 0) {
        apierr_set(err, 409, "match_full",
                   "this match has no free seat: it is %s", match.status);
        goto fail;
    }
    char player[32];
    store_player_ref(who->player_id, player);
    events[0] = json_pack("{s:s,s:i,s:{s:s}}", "kind", "joined", "seat", seat,
                          "data", "player", player);
    if (entropy[0] != '\0')
        json_object_set_new(json_object_get(events[0], "data"), "entropy",
                            json_string(entropy));
    bool starts = seated + 1 == match.seat_count;
    match.seat_player[seat] = who->player_id;
    snprintf(match.seat_name[seat], sizeof match.seat_name[seat], "%s", "");
    if (starts) {
        /* Everyone is in: the engine sets up from the secret seed and all
         * the seats' entropy. */
        const char *entropy_hex[STORE_MAX_SEATS] = {0};
        json_t *log = store_events_after(conn, match_id, 0, 1000, err);
        if (log == NULL)
            goto fail;
        size_t i;
        json_t *event;
        json_array_foreach(log, i, event) {
            json_int_t s = json_integer_value(json_object_get(event, "seat"));
            const char *kind = json_string_value(json_object_get(event, "kind"));
            if (kind && strcmp(kind, "joined") == 0 && s >= 0 &&
                s < match.seat_count)
                entropy_hex[s] = json_string_value(json_object_get(
                    json_object_get(event, "data"), "entropy"));
        }
        entropy_hex[seat] = entropy[0] ? entropy : NULL;
        uint8_t seed[RULES_SEED_BYTES];
        bool seeded = matchstate_seed(&match, entropy_hex, seed, err);
        json_decref(log);
        if (!seeded)
            goto fail;
        rules_error rerr = {{0}};
        state = engine->setup(match.options, match.seat_count, seed, &rerr);
        sodium_memzero(seed, sizeof seed);
        if (state == NULL) {
            apierr_set(err, 500, "setup_failed", "the game could not start: %s",
                       rerr.message);
            goto fail;
        }
        events[1] = json_pack("{s:s,s:{s:s,s:i}}", "kind", "started", "data",
                              "engine", engine->name, "engine_version",
                              engine->version);
    }
    if (!store_begin(conn, err))
        goto fail;
    if (!store_insert_seat(conn, match_id, seat, who->player_id, err) ||
        !store_append(conn, &match, events, starts ? 2 : 1,
                      starts ? "active" : NULL, err)) {
        store_rollback(conn);
        goto fail;
    }
    /* Reloaded inside the transaction: the new seat, and whether its
     * player can be reached, are part of the match now. */
    store_match_free(&match);
    if (!store_load_match(conn, match_id, &match, err) ||
        (starts && !matches_notify_pending(conn, &match, engine, state, err)) ||
        (starts && !deadlines_sync(conn, &match, engine, state, err))) {
        store_rollback(conn);
        goto fail;
    }
    answer = json_pack("{s:o,s:i}", "match", matches_describe(&match, engine, state),
                       "seat", seat);
    if (!retry_commit(conn, who, &match, 200, answer, err)) {
        json_decref(answer);
        answer = NULL;
        goto fail;
    }
    metrics_events_appended(starts ? 2 : 1);
    if (starts) {
        matchstate_remember(engine, match_id, match.head_seq, state);
        log_info("match m_%lld started with %d seats", match_id,
                 match.seat_count);
    }
fail:
    if (state != NULL)
        engine->destroy(state);
    json_decref(events[0]);
    json_decref(events[1]);
    store_match_free(&match);
    return answer;
}

bool matches_in_play(const store_match *match, apierr *err)
{
    if (strcmp(match->status, "aborted") == 0)
        return apierr_set(err, 409, "aborted",
                          "this match was aborted by an admin: it accepts no "
                          "more moves, commitments or reveals");
    if (strcmp(match->status, "active") != 0)
        return apierr_set(err, 409, "not_in_play",
                          "the match is %s, not in play", match->status);
    return true;
}

int matches_seat_of(const store_match *match, long long player_id)
{
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == player_id)
            return s;
    }
    return -1;
}

/* Loads a match, the engine it is played under and the caller's seat;
 * fails (and frees the match) when the engine cannot replay it or the
 * caller has no seat (403). */
static bool load_for_seat(PGconn *conn, long long match_id, const caller *who,
                          store_match *match, const rules_engine **engine,
                          int *seat, apierr *err)
{
    if (!store_load_match(conn, match_id, match, err))
        return false;
    *engine = matchstate_engine(match, err);
    *seat = matches_seat_of(match, who->player_id);
    if (*engine != NULL && *seat < 0)
        apierr_set(err, 403, "not_seated", "you have no seat in this match");
    if (*engine == NULL || *seat < 0) {
        store_match_free(match);
        return false;
    }
    return true;
}

/* The action a body asks for: {"action": {...}} or {"move": "text"}. */
json_t *matches_requested_action(const json_t *body, const rules_engine *engine,
                                const rules_state *state, int seat,
                                apierr *err)
{
    const json_t *action = json_object_get(body, "action");
    const json_t *text = json_object_get(body, "move");
    if (json_is_object(action) && text == NULL)
        return json_incref((json_t *)action);
    if (json_is_string(text) && action == NULL) {
        if (json_string_length(text) > 1000) {
            apierr_set(err, 400, "bad_move", "a text move is at most 1000 characters");
            return NULL;
        }
        rules_error rerr = {{0}};
        json_t *parsed =
            engine->parse_move(state, seat, json_string_value(text), &rerr);
        if (parsed == NULL)
            apierr_set(err, 422, "unreadable_move", "%s", rerr.message);
        /* rerr only carries the message; parsed does not point into it. */
        /* cppcheck-suppress returnDanglingLifetime */
        return parsed;
    }
    apierr_set(err, 400, "bad_move",
               "give either \"action\" (a JSON object) or \"move\" (text), "
               "with \"seq\"");
    return NULL;
}

/* The "finished" event with result (borrowed); it reveals the seed so
 * anyone can replay every shuffle. NULL with err filled when the seed
 * cannot be decrypted. */
bool matches_reveal_seed(const store_match *match,
                         char hex[2 * SEAL_SEED_BYTES + 1], apierr *err)
{
    uint8_t secret[SEAL_SEED_BYTES];
    if (!seal_decrypt(match->match_id, match->sealed_seed,
                      sizeof match->sealed_seed, secret))
        return apierr_set(err, 500, "seed_sealed",
                          "the match seed cannot be decrypted with this "
                          "service's key file");
    matches_hex(secret, sizeof secret, hex);
    sodium_memzero(secret, sizeof secret);
    return true;
}

static json_t *finished_event(const store_match *match, const json_t *result,
                              apierr *err)
{
    char secret_hex[2 * SEAL_SEED_BYTES + 1];
    if (!matches_reveal_seed(match, secret_hex, err))
        return NULL;
    return json_pack("{s:s,s:{s:O,s:s}}", "kind", "finished", "data",
                     "result", result, "seed", secret_hex);
}

bool matches_append_forfeit(PGconn *conn, store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, json_t *const *events,
                            int count, uint32_t forfeited, apierr *err)
{
    json_t *all[STORE_MAX_SEATS * 2 + 2];
    if (count > STORE_MAX_SEATS * 2 + 1)
        return apierr_set(err, 500, "internal", "too many events at once");
    for (int i = 0; i < count; i++)
        all[i] = events[i];
    json_t *engine_result = engine->result(state);
    json_t *result = forfeit_result(engine_result, forfeited);
    json_decref(engine_result);
    all[count] = finished_event(match, result, err);
    bool ok = all[count] != NULL &&
              store_append(conn, match, all, count + 1, "finished", err) &&
              notify_outbox_queue_over(conn, match, engine, state, result,
                                       err) &&
              deadlines_sync(conn, match, engine, state, err);
    json_decref(all[count]);
    json_decref(result);
    if (ok)
        metrics_events_appended(count + 1);
    return ok;
}

bool matches_append_play(PGconn *conn, store_match *match,
                         const rules_engine *engine, const rules_state *state,
                         json_t *const *events, int count, bool notify,
                         bool *over, apierr *err)
{
    rules_pending pending;
    engine->pending(state, &pending);
    *over = pending.wait == RULES_WAIT_NOBODY;
    json_t *all[STORE_MAX_SEATS + 8];
    if (count > STORE_MAX_SEATS + 7)
        return apierr_set(err, 500, "internal", "too many events at once");
    for (int i = 0; i < count; i++)
        all[i] = events[i];
    if (*over) {
        json_t *result = engine->result(state);
        all[count] = finished_event(match, result, err);
        json_decref(result);
        if (all[count] == NULL)
            return false;
        count++;
    }
    long long old_head = match->head_seq;
    bool ok = store_append(conn, match, all, count, *over ? "finished" : NULL,
                           err) &&
              (!notify ||
               ((!match->reachability_unknown ||
                 store_load_reachability(conn, match, err)) &&
                matches_notify_pending(conn, match, engine, state, err))) &&
              deadlines_sync(conn, match, engine, state, err);
    if (ok && old_head / MATCHES_SNAPSHOT_EVERY !=
                  match->head_seq / MATCHES_SNAPSHOT_EVERY) {
        json_t *snapshot = engine->save(state);
        char *snapshot_text = rules_canonical_json(snapshot);
        ok = store_save_snapshot(conn, match->match_id, match->head_seq,
                                 engine->version, snapshot_text, err);
        free(snapshot_text);
        json_decref(snapshot);
    }
    if (*over)
        json_decref(all[count - 1]);
    if (ok)
        metrics_events_appended(count);
    return ok;
}

/* What GET /view answers: the match, the seat's view and the moves it may
 * make now. state is NULL while the match waits for players. */
static json_t *seat_view_of(const store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, int seat)
{
    json_t *answer = matches_describe(match, engine, NULL);
    json_object_set_new(answer, "seat", json_integer(seat));
    if (state == NULL)
        return answer;
    uint32_t committed;
    json_object_set_new(answer, "pending",
                        pending_of(match, engine, state, &committed));
    json_object_set_new(answer, "view", engine->view(state, seat));
    json_object_set_new(answer, "result", result_of(match, engine, state));
    /* A seat that has sealed its choice, or whose match is over (by the
     * rules, a forfeit or an admin's abort), has nothing more to do now. */
    bool over = strcmp(match->status, "finished") == 0 ||
                strcmp(match->status, "aborted") == 0;
    json_t *legal = (committed & (1u << seat)) || over
                        ? json_pack("{s:[],s:b,s:[]}", "moves", "complete", 1,
                                    "forms")
                        : engine->legal(state, seat);
    json_t *texts = json_array();
    size_t i;
    json_t *move;
    json_array_foreach(json_object_get(legal, "moves"), i, move) {
        char *text = engine->format_move(state, seat, move);
        json_array_append_new(texts, text ? json_string(text) : json_null());
        free(text);
    }
    json_object_set_new(legal, "texts", texts);
    json_object_set_new(answer, "legal", legal);
    return answer;
}

/* What a move request does once its match and the state at the head the
 * client named are in hand: check the seat, the turn and the move, append
 * the event with the request's nonce and answer. When the move is applied
 * the state goes to the process's cache (*owned is set to NULL); otherwise
 * it stays the caller's. A move during a secret decision goes to
 * decisions_commit. */
static json_t *play(PGconn *conn, const caller *who, store_match *match,
                    const rules_engine *engine, rules_state **owned, int seat,
                    const json_t *body, bool with_seat_view, apierr *err)
{
    rules_state *state = *owned;
    rules_pending pending;
    engine->pending(state, &pending);
    if (!(pending.seats & (1u << seat))) {
        apierr_set(err, 409, "not_your_turn",
                   "it is not your turn: waiting for %s to %s",
                   rules_seat_count(pending.seats) == 1 ? "another seat"
                                                        : "other seats",
                   pending.prompt);
        return NULL;
    }
    if (pending.wait == RULES_WAIT_SIMULTANEOUS) {
        /* A plain move during a secret decision is sealed by the service,
         * so simple clients (email) need nothing else. */
        return decisions_commit(who, match->match_id, pending.decision, body,
                                err);
    }
    json_t *action = matches_requested_action(body, engine, state, seat, err);
    if (action == NULL)
        return NULL;
    json_t *answer = NULL, *events[1] = {NULL};
    char *text = engine->format_move(state, seat, action);
    rules_error rerr = {{0}};
    if (!engine->apply(state, seat, action, &rerr)) {
        free(text);
        apierr_set(err, 422, "illegal_move", "%s", rerr.message);
        goto done;
    }
    events[0] = json_pack("{s:s,s:i,s:{s:O,s:s?}}", "kind", "move", "seat",
                          seat, "data", "action", action, "text", text);
    free(text);
    if (who->signature != NULL)
        json_object_set(json_object_get(events[0], "data"), "request",
                        who->signature);
    if (!store_begin(conn, err))
        goto done;
    /* Notify only when someone new must act (or the match ends): a player
     * who draws and then plays is told once that it is their turn, and the
     * seats still owing a move in any order are not told again. */
    rules_pending after;
    engine->pending(state, &after);
    bool changed = after.wait != pending.wait ||
                   (after.seats & ~pending.seats) != 0 ||
                   strcmp(after.decision, pending.decision) != 0;
    bool over = false;
    if (!matches_append_play(conn, match, engine, state, events, 1, changed,
                             &over, err)) {
        store_rollback(conn);
        goto done;
    }
    char head_hash[2 * STORE_HASH_BYTES + 1];
    matches_hex(match->head_hash, STORE_HASH_BYTES, head_hash);
    answer = json_pack("{s:I,s:s,s:b,s:o,s:o}", "seq",
                       (json_int_t)match->head_seq, "hash", head_hash, "over",
                       over, "pending", matches_pending_json(&after, 0),
                       "result", engine->result(state));
    if (!retry_commit(conn, who, match, 200, answer, err)) {
        json_decref(answer);
        answer = NULL;
        goto done;
    }
    /* After the commit and outside the stored answer: a retry gets the
     * answer without it, as it was stored. */
    if (with_seat_view)
        json_object_set_new(answer, "seat_view",
                            seat_view_of(match, engine, state, seat));
    matchstate_keep(engine, match, state);
    *owned = NULL;
done:
    json_decref(action);
    json_decref(events[0]);
    return answer;
}

/* A move against the match as this process last wrote or read it at the
 * head the client named, without reading the match first: the append's
 * head guard still refuses it if another process has moved the match on.
 * NULL when it was not cached or did not go through, whatever the reason:
 * the caller then does it again from the database, which gives the
 * authoritative answer (a refusal, or the stale head). */
static json_t *play_from_cache(PGconn *conn, const caller *who,
                               long long match_id, long long seq,
                               const json_t *body, bool with_seat_view)
{
    store_match match;
    const rules_engine *engine;
    rules_state *state;
    if (!matchstate_recall(match_id, seq, &match, &engine, &state))
        return NULL;
    json_t *answer = NULL;
    rules_pending pending;
    engine->pending(state, &pending);
    int seat = matches_seat_of(&match, who->player_id);
    apierr err = {.head = -1};
    if (seat >= 0 && strcmp(match.status, "active") == 0 &&
        pending.wait != RULES_WAIT_SIMULTANEOUS)
        answer = play(conn, who, &match, engine, &state, seat, body,
                      with_seat_view, &err);
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

json_t *matches_move(const caller *who, long long match_id, const json_t *body,
                     bool with_seat_view, apierr *err)
{
    const json_t *seq = json_object_get(body, "seq");
    if (!json_is_integer(seq)) {
        apierr_set(err, 400, "bad_move",
                   "\"seq\" must be the match's head sequence number you saw");
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *answer = play_from_cache(conn, who, match_id,
                                     (long long)json_integer_value(seq), body,
                                     with_seat_view);
    if (answer != NULL)
        return answer;
    store_match match;
    const rules_engine *engine;
    int seat;
    if (!load_for_seat(conn, match_id, who, &match, &engine, &seat, err))
        return NULL;
    rules_state *state = NULL;
    if (!matches_in_play(&match, err))
        goto done;
    if (json_integer_value(seq) != match.head_seq) {
        apierr_set(err, 409, "stale_seq",
                   "the match is at event %lld, not %lld: reload it and decide "
                   "again",
                   match.head_seq, (long long)json_integer_value(seq));
        err->head = match.head_seq;
        goto done;
    }
    state = matchstate_load(conn, &match, engine, err);
    if (state == NULL)
        goto done;
    answer = play(conn, who, &match, engine, &state, seat, body,
                  with_seat_view, err);
done:
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

json_t *matches_public(long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    const rules_engine *engine = matchstate_engine(&match, err);
    rules_state *state = NULL;
    json_t *answer = NULL;
    if (engine != NULL && matchstate_has_state(&match)) {
        state = matchstate_load(conn, &match, engine, err);
        if (state == NULL)
            goto done;
    }
    answer = matches_describe(&match, engine, state);
done:
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

/* The view from the match and state this process has cached at the
 * match's head, which costs one small read instead of the match's rows;
 * NULL when they are not cached (or the caller has no seat: the full read
 * answers that). */
static json_t *seat_view_from_cache(PGconn *conn, const caller *who,
                                    long long match_id)
{
    long long head;
    int version;
    apierr ignored;
    if (!store_load_head(conn, match_id, &head, &version, &ignored))
        return NULL;
    store_match match;
    const rules_engine *engine;
    rules_state *state;
    if (!matchstate_recall(match_id, head, &match, &engine, &state))
        return NULL;
    int seat = matches_seat_of(&match, who->player_id);
    json_t *answer = seat >= 0 && version == match.engine_version
                         ? seat_view_of(&match, engine, state, seat)
                         : NULL;
    engine->destroy(state);
    store_match_free(&match);
    return answer;
}

json_t *matches_seat_view(const caller *who, long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *answer = seat_view_from_cache(conn, who, match_id);
    if (answer != NULL)
        return answer;
    store_match match;
    const rules_engine *engine;
    int seat;
    if (!load_for_seat(conn, match_id, who, &match, &engine, &seat, err))
        return NULL;
    rules_state *state = NULL;
    if (matchstate_has_state(&match)) {
        state = matchstate_load(conn, &match, engine, err);
        if (state == NULL)
            goto done;
    }
    answer = seat_view_of(&match, engine, state, seat);
done:
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

json_t *matches_events(long long match_id, long long after, int limit,
                       apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *events = store_events_after(conn, match_id, after, limit, err);
    json_t *answer = NULL;
    if (events != NULL)
        answer = json_pack("{s:o,s:I}", "events", events, "head",
                           (json_int_t)match.head_seq);
    store_match_free(&match);
    return answer;
}

void matches_cache_clear(void)
{
    matchstate_forget_all();
}
