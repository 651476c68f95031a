/* repair.c */
#include "admin/repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth/admin.h"
#include "core/hex.h"
#include "core/log.h"
#include "ledger/replay.h"
#include "play/append.h"
#include "play/describe.h"
#include "play/matchstate.h"
#include "play/request.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/players.h"
#include "store/sealed_choices.h"
#include "store/store.h"

#define REASON_MAX 500

/* The reason an admin gave, or NULL with err filled. */
static const char *reason_of(const json_t *body, apierr *err)
{
    const char *reason = json_string_value(json_object_get(body, "reason"));
    size_t len = reason ? strlen(reason) : 0;
    size_t blank = reason ? strspn(reason, " \t\r\n") : 0;
    if (reason == NULL || len == blank || len > REASON_MAX) {
        apierr_set(err, 400, "bad_reason",
                   "say why in \"reason\": 1 to %d characters, recorded in "
                   "the match's log for everyone to read",
                   REASON_MAX);
        return NULL;
    }
    return reason;
}

/* An admin event: kind, seat (-1: none), data (stolen) plus who and why. */
static json_t *admin_event(const caller *who, const char *kind, int seat,
                           json_t *data, const char *reason)
{
    const char *key = admin_public_key();
    json_object_set_new(data, "by", json_string("admin"));
    json_object_set_new(data, "reason", json_string(reason));
    json_object_set_new(data, "admin_key", json_string(key ? key : ""));
    json_object_set(data, "request", who->signature);
    json_t *event = json_pack("{s:s,s:o}", "kind", kind, "data", data);
    if (seat >= 0)
        json_object_set_new(event, "seat", json_integer(seat));
    return event;
}

/* What an admin's change answers; NULL with err filled when the match
 * cannot be described (describe.h): the change is then rolled back. */
static json_t *answer_of(const store_match *match, const rules_engine *engine,
                         const rules_state *state, apierr *err)
{
    json_t *described = describe_match(match, engine, state, err);
    if (described == NULL)
        return NULL;
    char hash[2 * STORE_HASH_BYTES + 1];
    hex_encode(match->head_hash, STORE_HASH_BYTES, hash);
    return json_pack("{s:I,s:s,s:o}", "seq", (json_int_t)match->head_seq,
                     "hash", hash, "match", described);
}

/* Commits the admin's change with its answer, or rolls it back when the
 * answer cannot be made. */
static json_t *commit_with_answer(PGconn *conn, const caller *who,
                                  const store_match *match,
                                  const rules_engine *engine,
                                  const rules_state *state, apierr *err)
{
    json_t *answer = answer_of(match, engine, state, err);
    if (answer == NULL) {
        store_rollback(conn);
        return NULL;
    }
    return append_commit(conn, who, match, 200, answer, err);
}

/* Loads the match, and who in it can be notified into *reach; 409 when
 * its status is not among those allowed. */
static bool load(PGconn *conn, long long match_id, store_match *match,
                 store_reachability *reach, bool open_ok, apierr *err)
{
    if (!store_load_match_reachable(conn, match_id, match, reach, err))
        return false;
    const char *status = match->status;
    bool ok = true;
    if (strcmp(status, "aborted") == 0)
        ok = apierr_set(err, 409, "aborted",
                        "this match was aborted by an admin: nothing more "
                        "can be done to it");
    else if (strcmp(status, "finished") == 0)
        ok = apierr_set(err, 409, "finished",
                        "this match is finished and its seed revealed: it "
                        "cannot be changed (players could foresee every "
                        "shuffle)");
    else if (!open_ok && strcmp(status, "active") != 0)
        ok = apierr_set(err, 409, "not_started",
                        "this match has not started: there is nothing to "
                        "rewind");
    if (!ok)
        store_match_free(match);
    return ok;
}

json_t *repair_rewind(const caller *who, long long match_id, const json_t *body,
                      apierr *err)
{
    const char *reason = reason_of(body, err);
    const json_t *to = json_object_get(body, "to_seq");
    if (reason == NULL)
        return NULL;
    if (!json_is_integer(to))
        return apierr_set(err, 400, "bad_rewind",
                          "\"to_seq\" must be the number of the event to go "
                          "back to"),
               NULL;
    long long to_seq = (long long)json_integer_value(to);
    PGconn *conn = db_conn(err);
    store_match match;
    store_reachability reach;
    if (conn == NULL || !load(conn, match_id, &match, &reach, false, err))
        return NULL;
    json_t *answer = NULL, *event = NULL;
    rules_state *state = NULL;
    const rules_engine *engine = matchstate_engine(&match, err);
    json_t *events =
        engine ? store_events_after(conn, match_id, 0, (int)match.head_seq, err)
               : NULL;
    if (events == NULL)
        goto done;
    replay_error rerr = {0};
    if (!replay_rewind_target(events, to_seq, &rerr)) {
        apierr_set(err, 422, "bad_rewind", "cannot rewind to event %lld: %s",
                   to_seq, rerr.reason);
        goto done;
    }
    state = matchstate_at(conn, &match, engine, to_seq, err);
    if (state == NULL)
        goto done;
    event =
        admin_event(who, "rewound", -1,
                    json_pack("{s:I}", "to_seq", (json_int_t)to_seq), reason);
    if (!store_begin(conn, err))
        goto done;
    /* A snapshot at every rewind: loads replay from there on (matchstate.h). */
    append_change change = {.events = &event,
                            .count = 1,
                            .state = state,
                            .tell = APPEND_TELL_PENDING,
                            .snapshot_now = true,
                            .reach = &reach};
    if (!sealed_choices_drop_after(conn, match_id, to_seq, err) ||
        !append_events(conn, &match, engine, &change, NULL, err)) {
        store_rollback(conn);
        goto done;
    }
    answer = commit_with_answer(conn, who, &match, engine, state, err);
    if (answer == NULL)
        goto done;
    matchstate_remember(engine, match_id, match.head_seq, state);
    log_info("match m_%lld rewound to event %lld by the admin (event %lld): %s",
             match_id, to_seq, match.head_seq, reason);
done:
    json_decref(events);
    json_decref(event);
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

/* The player's name and the key their requests are checked with (their
 * oldest key that is not revoked); 404 when there is no such player. */
static bool player_key(PGconn *conn, long long player_id, char name[81],
                       char key_b64[64], char key_id[64], apierr *err)
{
    char ref[32];
    store_player_ref(player_id, ref);
    bool found = false;
    if (!store_player_signing_key(conn, player_id, name, key_b64, key_id,
                                  &found, err))
        return false;
    if (!found)
        return apierr_set(err, 404, "no_such_player",
                          "there is no player %s with a usable key", ref);
    return true;
}

json_t *repair_replace_seat(const caller *who, long long match_id, int seat,
                            const json_t *body, apierr *err)
{
    const char *reason = reason_of(body, err);
    const char *ref = json_string_value(json_object_get(body, "player"));
    if (reason == NULL)
        return NULL;
    long long player_id = 0;
    if (ref != NULL && strncmp(ref, "p_", 2) == 0 && ref[2] != '\0') {
        char *end = NULL;
        player_id = strtoll(ref + 2, &end, 10);
        if (*end != '\0' || player_id <= 0)
            player_id = 0;
    }
    if (player_id == 0)
        return apierr_set(err, 400, "bad_player",
                          "\"player\" must be the id of a registered player, "
                          "like p_1234"),
               NULL;
    PGconn *conn = db_conn(err);
    store_match match;
    store_reachability reach;
    if (conn == NULL || !load(conn, match_id, &match, &reach, true, err))
        return NULL;
    json_t *answer = NULL, *event = NULL;
    rules_state *state = NULL;
    const rules_engine *engine = NULL;
    char name[81], key_b64[64], key_id[64], previous[32];
    if (seat < 0 || seat >= match.seat_count) {
        apierr_set(err, 404, "no_such_seat", "this match has seats 0 to %d",
                   match.seat_count - 1);
        goto done;
    }
    if (match.seat_player[seat] == 0) {
        apierr_set(err, 409, "seat_empty",
                   "seat %d is empty: a player joins it, no admin needed",
                   seat);
        goto done;
    }
    if (request_seat_of(&match, player_id) >= 0) {
        apierr_set(err, 409, "already_seated",
                   "%s already holds seat %d in this match", ref,
                   request_seat_of(&match, player_id));
        goto done;
    }
    if (!player_key(conn, player_id, name, key_b64, key_id, err))
        goto done;
    if (matchstate_has_state(&match)) {
        engine = matchstate_engine(&match, err);
        state = engine ? matchstate_load(conn, &match, engine, err) : NULL;
        if (state == NULL)
            goto done;
    }
    store_player_ref(match.seat_player[seat], previous);
    event = admin_event(who, "seat_replaced", seat,
                        json_pack("{s:s,s:s,s:s,s:s}", "player", ref,
                                  "replaces", previous, "public_key", key_b64,
                                  "key_id", key_id),
                        reason);
    if (!store_begin(conn, err))
        goto done;
    match.seat_player[seat] = player_id;
    snprintf(match.seat_name[seat], sizeof match.seat_name[seat], "%s", name);
    append_change change = {.events = &event,
                            .count = 1,
                            .state = state,
                            .tell = APPEND_TELL_SEATS,
                            .seats = 1u << seat};
    if (!store_move_seat(conn, match_id, seat, player_id, err) ||
        !append_events(conn, &match, engine, &change, NULL, err)) {
        store_rollback(conn);
        goto done;
    }
    answer = commit_with_answer(conn, who, &match, engine, state, err);
    if (answer == NULL)
        goto done;
    if (state != NULL)
        matchstate_remember(engine, match_id, match.head_seq, state);
    log_info("match m_%lld: seat %d passed from %s to %s by the admin: %s",
             match_id, seat, previous, ref, reason);
done:
    json_decref(event);
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}

json_t *repair_abort(const caller *who, long long match_id, const json_t *body,
                     apierr *err)
{
    const char *reason = reason_of(body, err);
    PGconn *conn = reason ? db_conn(err) : NULL;
    store_match match;
    store_reachability reach;
    if (conn == NULL || !load(conn, match_id, &match, &reach, true, err))
        return NULL;
    json_t *answer = NULL, *event = NULL;
    rules_state *state = NULL;
    /* An engine this server lacks is a reason to abort, not a bar to it. */
    apierr engine_err;
    const rules_engine *engine = matchstate_engine(&match, &engine_err);
    if (engine != NULL && matchstate_has_state(&match)) {
        state = matchstate_load(conn, &match, engine, err);
        if (state == NULL)
            goto done;
    }
    char secret_hex[2 * SEAL_SEED_BYTES + 1];
    if (!append_reveal_seed(&match, secret_hex, err))
        goto done;
    json_t *data = json_pack("{s:s}", "seed", secret_hex);
    if (state != NULL)
        json_object_set_new(data, "result", engine->result(state));
    event = admin_event(who, "aborted", -1, data, reason);
    if (!store_begin(conn, err))
        goto done;
    append_change change = {.events = &event,
                            .count = 1,
                            .state = state,
                            .status = "aborted",
                            .tell = APPEND_TELL_ABORTED,
                            .reason = reason,
                            .reach = &reach};
    if (!append_events(conn, &match, engine, &change, NULL, err)) {
        store_rollback(conn);
        goto done;
    }
    answer = commit_with_answer(conn, who, &match, engine, state, err);
    if (answer == NULL)
        goto done;
    log_info("match m_%lld aborted by the admin (event %lld): %s", match_id,
             match.head_seq, reason);
done:
    json_decref(event);
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}
