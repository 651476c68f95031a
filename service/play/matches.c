/* matches.c: create, join, move, views (matches.h). */
#include "play/matches.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "core/log.h"
#include "deadlines/deadline_settings.h"
#include "play/append.h"
#include "play/decisions.h"
#include "play/delegates.h"
#include "play/describe.h"
#include "play/event_log.h"
#include "play/game_rules.h"
#include "play/lobby.h"
#include "play/matchstate.h"
#include "play/players.h"
#include "play/request.h"
#include "play/told_cache.h"
#include "rules.h"
#include "store/db.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/players.h"
#include "store/store.h"

/* A game as the API lists it; rules_page is where a person reads its rules
 * (the page the web app serves). */
static json_t *game_json(const rules_engine *engine)
{
    char page[96];
    snprintf(page, sizeof page, "/games/%s", engine->name);
    return json_pack("{s:s,s:s,s:i,s:i,s:i,s:o,s:s}", "name", engine->name,
                     "title", engine->title, "version", engine->version,
                     "min_seats", engine->min_seats, "max_seats",
                     engine->max_seats, "options", engine->describe_options(),
                     "rules_page", page);
}

json_t *matches_games(void)
{
    json_t *games = json_array();
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++)
        json_array_append_new(games, game_json(*e));
    return json_pack("{s:o}", "games", games);
}

json_t *matches_game(const char *name, apierr *err)
{
    const rules_engine *engine = rules_find(name);
    if (engine == NULL) {
        apierr_set(err, 404, "unknown_game",
                   "there is no game called \"%.60s\" here: GET /v1/games "
                   "lists the games",
                   name);
        return NULL;
    }
    char *summary = game_rules_summary(engine->name);
    if (summary == NULL) {
        log_error("the rules summary of %s cannot be read from the "
                  "templates folder (PBEM_TEMPLATES)",
                  engine->name);
        apierr_set(err, 500, "summary_missing",
                   "the rules summary of %s is missing on this server",
                   engine->title);
        return NULL;
    }
    json_t *game = game_json(engine);
    json_object_set_new(game, "summary", json_string(summary));
    free(summary);
    return game;
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

/* The player's public entropy, if the body gives any (else ""), as 64
 * lower-case hex digits. */
static bool entropy_of(const json_t *body, char out[65], apierr *err)
{
    const json_t *entropy = json_object_get(body, "entropy");
    out[0] = '\0';
    if (entropy == NULL || json_is_null(entropy))
        return true;
    uint8_t bytes[32];
    if (!request_hex32(body, "entropy", "bad_entropy", bytes, err))
        return false;
    hex_encode(bytes, sizeof bytes, out);
    return true;
}

/* The new seat as stored (its player's name) into match, and who in the
 * match can be reached now into reach, read inside the create's or join's
 * transaction; match's head stays the one the request read: the append's
 * guard still refuses a join if the match moved on meanwhile. */
static bool with_stored_seat(PGconn *conn, store_match *match, int seat,
                             store_reachability *reach, apierr *err)
{
    store_match stored;
    if (!store_load_match_reachable(conn, match->match_id, &stored, reach, err))
        return false;
    snprintf(match->seat_name[seat], sizeof match->seat_name[seat], "%s",
             stored.seat_name[seat]);
    store_match_free(&stored);
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
    store_lobby lobby;
    if (seats < 0 || !entropy_of(body, entropy, err) ||
        !deadline_settings_parse(json_object_get(body, "deadline"), &deadline,
                                 err) ||
        !lobby_settings_parse(body, &lobby, err))
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
    hex_encode(commitment, sizeof commitment, commitment_hex);
    store_player_ref(who->player_id, player);

    json_t *created =
        json_pack("{s:s,s:{s:s,s:i,s:O,s:i,s:s,s:s}}", "kind", "created",
                  "data", "game", engine->name, "engine_version",
                  engine->version, "options", options, "seats", seats,
                  "seed_commitment", commitment_hex, "created_by", player);
    /* The deadline rules are part of the public record of the match. */
    if (deadline.enabled)
        json_object_set_new(json_object_get(created, "data"), "deadline",
                            deadline_settings_json(&deadline));
    json_t *joined = json_pack("{s:s,s:i,s:{s:s}}", "kind", "joined", "seat", 0,
                               "data", "player", player);
    if (entropy[0] != '\0')
        json_object_set_new(json_object_get(joined, "data"), "entropy",
                            json_string(entropy));
    json_t *events[] = {created, joined};
    json_t *answer = NULL;
    PGconn *conn = db_conn(err);
    bool ok = conn != NULL && store_begin(conn, err);
    if (ok) {
        append_change change = {.events = events, .count = 2};
        store_reachability reach;
        ok = store_insert_match(conn, &match, err) &&
             deadline_settings_save(conn, match.match_id, &deadline, err) &&
             store_lobby_insert(conn, match.match_id, engine->name, &lobby,
                                err) &&
             store_insert_seat(conn, match.match_id, 0, who->player_id, err) &&
             with_stored_seat(conn, &match, 0, &reach, err) &&
             append_events(conn, &match, engine, &change, NULL, err);
        json_t *described = NULL;
        if (ok) {
            match.seat_player[0] = who->player_id;
            described = describe_match(&match, engine, NULL, err);
            ok = described != NULL;
        }
        if (ok) {
            answer = append_commit(conn, who, &match, 201,
                                   json_pack("{s:o,s:i,s:o}", "match",
                                             described, "seat", 0, "lobby",
                                             lobby_settings_json(&lobby)),
                                   err);
            ok = answer != NULL;
        } else {
            store_rollback(conn);
        }
    }
    if (ok) {
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
    /* Everyone at the table must be able to tell who moved. */
    store_player joiner;
    if (!store_player_load(conn, who->player_id, false, &joiner, err) ||
        !players_name_fits_match(joiner.name, "your name", who->player_id,
                                 &match, err) ||
        !lobby_may_join(conn, &match, who->player_id, err))
        goto fail;
    char player[32];
    store_player_ref(who->player_id, player);
    events[0] = json_pack("{s:s,s:i,s:{s:s}}", "kind", "joined", "seat", seat,
                          "data", "player", player);
    if (entropy[0] != '\0')
        json_object_set_new(json_object_get(events[0], "data"), "entropy",
                            json_string(entropy));
    delegates_note(who, events[0]);
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
        json_array_foreach(log, i, event)
        {
            json_int_t s = json_integer_value(json_object_get(event, "seat"));
            const char *kind =
                json_string_value(json_object_get(event, "kind"));
            if (kind && strcmp(kind, "joined") == 0 && s >= 0 &&
                s < match.seat_count)
                entropy_hex[s] = json_string_value(
                    json_object_get(json_object_get(event, "data"), "entropy"));
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
        events[1] =
            json_pack("{s:s,s:{s:s,s:i}}", "kind", "started", "data", "engine",
                      engine->name, "engine_version", engine->version);
    }
    if (!store_begin(conn, err))
        goto fail;
    store_reachability reach;
    append_change change = {.events = events,
                            .count = starts ? 2 : 1,
                            .state = state,
                            .status = starts ? "active" : NULL,
                            .tell = APPEND_TELL_PENDING,
                            .reach = &reach};
    if (!store_insert_seat(conn, match_id, seat, who->player_id, err) ||
        !with_stored_seat(conn, &match, seat, &reach, err) ||
        (starts && !store_lobby_formed(conn, match_id, err)) ||
        !append_events(conn, &match, engine, &change, NULL, err)) {
        store_rollback(conn);
        goto fail;
    }
    json_t *described = describe_match(&match, engine, state, err);
    if (described == NULL) {
        store_rollback(conn);
        goto fail;
    }
    answer = append_commit(
        conn, who, &match, 200,
        json_pack("{s:o,s:i}", "match", described, "seat", seat), err);
    if (answer == NULL)
        goto fail;
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

/* Loads a match, who in it can be notified, the engine it is played under
 * and the caller's seat; fails (and frees the match) when the engine
 * cannot replay it or the caller has no seat (403). */
static bool load_for_seat(PGconn *conn, long long match_id, const caller *who,
                          store_match *match, store_reachability *reach,
                          const rules_engine **engine, int *seat, apierr *err)
{
    if (!store_load_match_reachable(conn, match_id, match, reach, err))
        return false;
    *engine = matchstate_engine(match, err);
    *seat = request_seat_of(match, who->player_id);
    if (*engine != NULL && *seat < 0)
        apierr_set(err, 403, "not_seated", "you have no seat in this match");
    if (*engine == NULL || *seat < 0) {
        store_match_free(match);
        return false;
    }
    return true;
}

/* What a move request does once its match and the state at the head the
 * client named are in hand: check the seat, the turn and the move, append
 * the event with the request's nonce and answer. When the move is applied
 * the state goes to the process's cache (*owned is set to NULL); otherwise
 * it stays the caller's. A move during a secret decision goes to
 * decisions_commit. */
/* A move applied and queued for its commit, its request set aside until
 * the commit's outcome is known (matches_move_begin): what the answer
 * still needs then. */
struct matches_later {
    db_shared *queued;
    json_t *answer;
    store_match match; /* at the move's head */
    store_reachability reach;
    const rules_engine *engine;
    rules_state *state; /* after the move */
    int seat;
    bool with_seat_view;
    /* Played from the cache: a failure is not the answer; the move is
     * made again from the database (play_from_cache). */
    bool from_cache;
    const caller *who;  /* the request's, borrowed */
    const json_t *body; /* the request's, borrowed */
};

/* The half of a move after its commit, whichever way it waited: the
 * mover's view beside the answer (after the commit and outside the stored
 * answer: a retry gets the answer without it, as it was stored; left out,
 * with Preference-Applied, when it cannot be read: the move stands), and
 * the state (stolen) kept for the next move. */
static json_t *committed(json_t *answer, const store_match *match,
                         const store_reachability *reach,
                         const rules_engine *engine, rules_state *state,
                         int seat, bool with_seat_view)
{
    event_log_committed(match);
    if (with_seat_view) {
        apierr err;
        json_t *view = describe_seat_view(match, engine, state, seat, &err);
        if (view != NULL)
            json_object_set_new(answer, "seat_view", view);
        else
            log_warn("match m_%lld: the mover's view after event %lld is "
                     "left out of the answer: %s",
                     match->match_id, match->head_seq, err.message);
    }
    matchstate_keep(engine, match, reach, state);
    return answer;
}

/* Takes what a queued move's answer needs: the match (its options) and
 * the state leave the caller's hands. */
static matches_later *set_aside(db_shared *queued, json_t *answer,
                                store_match *match,
                                const store_reachability *reach,
                                const rules_engine *engine, rules_state *state,
                                int seat, bool with_seat_view)
{
    matches_later *later = calloc(1, sizeof *later);
    if (later == NULL)
        abort();
    *later = (matches_later){.queued = queued,
                             .answer = answer,
                             .match = *match,
                             .reach = *reach,
                             .engine = engine,
                             .state = state,
                             .seat = seat,
                             .with_seat_view = with_seat_view};
    match->options = NULL;
    return later;
}

static json_t *play(PGconn *conn, const caller *who, store_match *match,
                    store_reachability *reach, const rules_engine *engine,
                    rules_state **owned, int seat, const json_t *body,
                    bool with_seat_view, const db_waiter *waiter,
                    matches_later **later, apierr *err)
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
        json_t *committed =
            decisions_commit(who, match->match_id, pending.decision, body, err);
        /* As for any move: the view after the commit, outside the stored
         * answer. */
        if (committed != NULL && with_seat_view) {
            apierr ignored;
            json_t *view = matches_seat_view(who, match->match_id, &ignored);
            if (view != NULL)
                json_object_set_new(committed, "seat_view", view);
        }
        return committed;
    }
    json_t *action = request_action(body, engine, state, seat, err);
    if (action == NULL)
        return NULL;
    json_t *answer = NULL, *events[1] = {NULL};
    char *text = engine->format_move(state, seat, action);
    /* The state before the move, so what it did can be told. */
    rules_state *before = engine->clone(state);
    char *told = NULL;
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
    delegates_note(who, events[0]);
    /* Notify only when someone new must act (or the match ends): a player
     * who draws and then plays is told once that it is their turn, and the
     * seats still owing a move in any order are not told again. */
    rules_pending after;
    engine->pending(state, &after);
    bool changed = after.wait != pending.wait ||
                   (after.seats & ~pending.seats) != 0 ||
                   strcmp(after.decision, pending.decision) != 0;
    /* Who can be told is read before the transaction, so that a move
     * needs no read inside it and can share its commit with other
     * matches' (store_begin_shared). */
    if (changed && reach->unknown &&
        !store_reachability_load(conn, match->match_id, match->seat_player,
                                 reach, err))
        goto done;
    if (!store_begin_shared(conn, match->match_id, err))
        goto done;
    bool over = false;
    long long move_seq = match->head_seq + 1;
    append_change change = {.events = events,
                            .count = 1,
                            .state = state,
                            .before = before,
                            .tell = changed ? APPEND_TELL_PENDING
                                            : APPEND_TELL_NOBODY,
                            .reach = reach};
    if (!append_events(conn, match, engine, &change, &over, err)) {
        store_rollback(conn);
        goto done;
    }
    char head_hash[2 * STORE_HASH_BYTES + 1];
    hex_encode(match->head_hash, STORE_HASH_BYTES, head_hash);
    /* seq is the new head (the next move's seq); a move that ends the
     * match is followed by the finished event, so the move's own seq and
     * what it caused are given beside it, and what it did in words. */
    json_t *caused =
        json_pack("[{s:I,s:s}]", "seq", (json_int_t)move_seq, "kind", "move");
    if (over)
        json_array_append_new(caused, json_pack("{s:I,s:s}", "seq",
                                                (json_int_t)match->head_seq,
                                                "kind", "finished"));
    told = describe_told(match, engine, before, state, seat, action);
    answer = json_pack(
        "{s:I,s:s,s:I,s:o,s:b,s:o,s:o,s:s}", "seq", (json_int_t)match->head_seq,
        "hash", head_hash, "move_seq", (json_int_t)move_seq, "events", caused,
        "over", over, "pending", describe_pending_json(&after, 0, 0), "result",
        engine->result(state), "text", told);
    db_shared *queued = NULL;
    int outcome = append_commit_queue(conn, who, match, 200, &answer, waiter,
                                      &queued, err);
    if (outcome == DB_QUEUED) {
        *later = set_aside(queued, answer, match, reach, engine, state, seat,
                           with_seat_view);
        answer = NULL;
        *owned = NULL;
    } else if (outcome == DB_COMMITTED) {
        answer = committed(answer, match, reach, engine, state, seat,
                           with_seat_view);
        *owned = NULL;
    }
done:
    engine->destroy(before);
    free(told);
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
                               const json_t *body, bool with_seat_view,
                               const db_waiter *waiter, matches_later **later)
{
    store_match match;
    store_reachability reach;
    const rules_engine *engine;
    rules_state *state;
    if (!matchstate_recall(match_id, seq, &match, &reach, &engine, &state))
        return NULL;
    json_t *answer = NULL;
    rules_pending pending;
    engine->pending(state, &pending);
    int seat = request_seat_of(&match, who->player_id);
    apierr err = {.head = -1};
    if (seat >= 0 && strcmp(match.status, "active") == 0 &&
        pending.wait != RULES_WAIT_SIMULTANEOUS)
        answer = play(conn, who, &match, &reach, engine, &state, seat, body,
                      with_seat_view, waiter, later, &err);
    if (*later != NULL)
        (*later)->from_cache = true;
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

/* Whether a move at seq, behind the head, is a sealed choice in the
 * decision still open at the head: every event since seq commits another
 * seat to that decision, which changes nothing the caller chose on. Seats
 * of a simultaneous decision then commit without racing on the head. On
 * true *state is the state at the head (the caller's to destroy). */
static bool same_open_decision(PGconn *conn, const store_match *match,
                               const rules_engine *engine, long long seq,
                               rules_state **state)
{
    long long behind = match->head_seq - seq;
    if (seq < 0 || behind <= 0 || behind > STORE_MAX_SEATS)
        return false;
    apierr ignored;
    json_t *since =
        store_events_after(conn, match->match_id, seq, (int)behind, &ignored);
    /* The log first: an ordinary stale move fails here, before any state
     * is loaded. */
    const char *decision = NULL;
    bool same = since != NULL && json_array_size(since) == (size_t)behind;
    size_t i;
    json_t *event;
    json_array_foreach(since, i, event)
    {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        const char *of = json_string_value(
            json_object_get(json_object_get(event, "data"), "decision"));
        if (kind == NULL || strcmp(kind, "committed") != 0 || of == NULL ||
            (decision != NULL && strcmp(of, decision) != 0))
            same = false;
        decision = of;
    }
    rules_state *at_head =
        same ? matchstate_load(conn, match, engine, &ignored) : NULL;
    if (at_head != NULL) {
        rules_pending pending;
        engine->pending(at_head, &pending);
        same = pending.wait == RULES_WAIT_SIMULTANEOUS &&
               strcmp(pending.decision, decision) == 0;
    } else {
        same = false;
    }
    json_decref(since);
    if (same)
        *state = at_head;
    else if (at_head != NULL)
        engine->destroy(at_head);
    return same;
}

/* A move from the match as the database has it (not from the cache). */
static json_t *play_from_database(PGconn *conn, const caller *who,
                                  long long match_id, const json_t *body,
                                  bool with_seat_view, const db_waiter *waiter,
                                  matches_later **later, apierr *err)
{
    const json_t *seq = json_object_get(body, "seq");
    store_match match;
    store_reachability reach;
    const rules_engine *engine;
    int seat;
    if (!load_for_seat(conn, match_id, who, &match, &reach, &engine, &seat,
                       err))
        return NULL;
    json_t *answer = NULL;
    rules_state *state = NULL;
    if (!request_in_play(&match, err))
        goto done;
    if (json_integer_value(seq) != match.head_seq &&
        !same_open_decision(conn, &match, engine, json_integer_value(seq),
                            &state)) {
        apierr_set(err, 409, "stale_seq",
                   "the match is at event %lld, not %lld: reload it and decide "
                   "again",
                   match.head_seq, (long long)json_integer_value(seq));
        err->head = match.head_seq;
        goto done;
    }
    if (state == NULL)
        state = matchstate_load(conn, &match, engine, err);
    if (state == NULL)
        goto done;
    answer = play(conn, who, &match, &reach, engine, &state, seat, body,
                  with_seat_view, waiter, later, err);
done:
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

json_t *matches_move_begin(const caller *who, long long match_id,
                           const json_t *body, bool with_seat_view,
                           const db_waiter *waiter, matches_later **later,
                           apierr *err)
{
    *later = NULL;
    /* The body is judged before the match, so a malformed request gets
     * the sentence about what is wrong with it whatever the match's state. */
    const json_t *seq = json_object_get(body, "seq");
    if (!json_is_integer(seq) || json_integer_value(seq) < 0) {
        apierr_set(err, 400, "bad_move",
                   "\"seq\" must be the match's head sequence number you "
                   "saw (a number >= 0)");
        return NULL;
    }
    uint8_t commitment[32];
    if (json_object_get(body, "commitment") != NULL
            ? !request_hex32(body, "commitment", "bad_commitment", commitment,
                             err)
            : !request_action_shape(body, err))
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    json_t *answer =
        play_from_cache(conn, who, match_id, (long long)json_integer_value(seq),
                        body, with_seat_view, waiter, later);
    if (*later != NULL) {
        (*later)->who = who;
        (*later)->body = body;
    }
    if (answer != NULL || *later != NULL)
        return answer;
    return play_from_database(conn, who, match_id, body, with_seat_view, waiter,
                              later, err);
}

json_t *matches_move_end(matches_later *later, apierr *err)
{
    apierr from_cache = {.head = -1};
    json_t *answer = append_commit_outcome(
        later->queued, later->answer, later->from_cache ? &from_cache : err);
    if (answer != NULL) {
        answer = committed(answer, &later->match, &later->reach, later->engine,
                           later->state, later->seat, later->with_seat_view);
        later->state = NULL;
    } else if (later->from_cache) {
        /* As play_from_cache's callers do when it fails: the database
         * gives the authoritative answer. */
        PGconn *conn = db_conn(err);
        matches_later *again = NULL;
        if (conn != NULL)
            answer = play_from_database(conn, later->who, later->match.match_id,
                                        later->body, later->with_seat_view,
                                        NULL, &again, err);
    }
    if (later->state != NULL)
        later->engine->destroy(later->state);
    store_match_free(&later->match);
    free(later);
    return answer;
}

json_t *matches_move(const caller *who, long long match_id, const json_t *body,
                     bool with_seat_view, apierr *err)
{
    matches_later *later;
    return matches_move_begin(who, match_id, body, with_seat_view, NULL, &later,
                              err);
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
    answer = describe_match(&match, engine, state, err);
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
    if (!matchstate_recall(match_id, head, &match, NULL, &engine, &state))
        return NULL;
    int seat = request_seat_of(&match, who->player_id);
    /* One that cannot be described now is read again in full, which
     * answers the error. */
    json_t *answer =
        seat >= 0 && version == match.engine_version
            ? describe_seat_view(&match, engine, state, seat, &ignored)
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
    store_reachability reach;
    const rules_engine *engine;
    int seat;
    if (!load_for_seat(conn, match_id, who, &match, &reach, &engine, &seat,
                       err))
        return NULL;
    rules_state *state = NULL;
    if (matchstate_has_state(&match)) {
        state = matchstate_load(conn, &match, engine, err);
        if (state == NULL)
            goto done;
    }
    answer = describe_seat_view(&match, engine, state, seat, err);
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
    if (events != NULL && !event_log_annotate(conn, match_id, events, err)) {
        json_decref(events);
        events = NULL;
    }
    if (events != NULL)
        answer = json_pack("{s:o,s:I}", "events", events, "head",
                           (json_int_t)match.head_seq);
    store_match_free(&match);
    return answer;
}

void matches_cache_clear(void)
{
    matchstate_forget_all();
    told_cache_forget_all();
}
