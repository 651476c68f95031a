/* decisions.c */
#include "play/decisions.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "core/log.h"
#include "core/hex.h"
#include "play/append.h"
#include "play/delegates.h"
#include "play/describe.h"
#include "play/request.h"
#include "play/matchstate.h"
#include "ledger/seal.h"
#include "store/sealed_choices.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/store.h"

/* Everything a use case needs about an open decision. */
typedef struct decision_ctx {
    PGconn *conn;
    store_match match;
    store_reachability reach;
    const rules_engine *engine;
    rules_state *state;
    rules_pending pending;
    char match_ref[32];
    int seat;
    sealed_choice seats[SEALED_CHOICES_MAX_SEATS];
} decision_ctx;

static void ctx_free(decision_ctx *ctx)
{
    sealed_choices_free(ctx->seats);
    if (ctx->state != NULL)
        ctx->engine->destroy(ctx->state);
    store_match_free(&ctx->match);
}

/* Loads the match and its open decision; the caller must hold a seat in it
 * (unless seat_required is false). */
static bool open_decision(decision_ctx *ctx, const caller *who,
                          long long match_id, const char *decision,
                          bool seat_required, apierr *err)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->seat = -1;
    ctx->conn = db_conn(err);
    if (ctx->conn == NULL ||
        !store_load_match_reachable(ctx->conn, match_id, &ctx->match,
                                    &ctx->reach, err))
        return false;
    store_match_ref(match_id, ctx->match_ref);
    ctx->engine = matchstate_engine(&ctx->match, err);
    if (ctx->engine == NULL)
        return false;
    if (who != NULL)
        ctx->seat = request_seat_of(&ctx->match, who->player_id);
    if (seat_required && ctx->seat < 0)
        return apierr_set(err, 403, "not_seated",
                          "you have no seat in this match");
    if (!request_in_play(&ctx->match, err))
        return false;
    ctx->state = matchstate_load(ctx->conn, &ctx->match, ctx->engine, err);
    if (ctx->state == NULL)
        return false;
    ctx->engine->pending(ctx->state, &ctx->pending);
    if (ctx->pending.wait != RULES_WAIT_SIMULTANEOUS)
        return apierr_set(err, 409, "no_open_decision",
                          "no simultaneous decision is open: the match waits "
                          "for %s",
                          ctx->pending.prompt);
    if (decision != NULL && strcmp(decision, ctx->pending.decision) != 0)
        return apierr_set(err, 409, "no_open_decision",
                          "decision %s is not open; the open one is %s",
                          decision, ctx->pending.decision);
    if (seat_required && !(ctx->pending.seats & (1u << ctx->seat)))
        return apierr_set(err, 409, "not_your_decision",
                          "your seat has no choice to make in %s",
                          ctx->pending.decision);
    return sealed_choices_load(ctx->conn, ctx->match.match_id,
                               ctx->pending.decision, ctx->seats, err);
}

/* The choice as its canonical bytes plus the nonce, for sealing. */
static json_t *sealed_payload(const uint8_t *plain, size_t len,
                              uint8_t nonce[SEAL_NONCE_BYTES])
{
    if (len <= SEAL_NONCE_BYTES)
        return NULL;
    memcpy(nonce, plain, SEAL_NONCE_BYTES);
    return json_loadb((const char *)plain + SEAL_NONCE_BYTES,
                      len - SEAL_NONCE_BYTES, 0, NULL);
}

/* The choice the service sealed (len bytes: nonce + choice under the
 * service key), as a new reference, and its nonce; NULL when it cannot be
 * opened with this service's key file. */
static json_t *open_sealed(long long match_id, const uint8_t *sealed,
                           size_t len, uint8_t nonce[SEAL_NONCE_BYTES])
{
    if (sealed == NULL || len <= SEAL_OVERHEAD + SEAL_NONCE_BYTES)
        return NULL;
    uint8_t *plain = malloc(len);
    if (plain == NULL)
        abort();
    json_t *choice = NULL;
    if (seal_decrypt(match_id, sealed, len, plain))
        choice = sealed_payload(plain, len - SEAL_OVERHEAD, nonce);
    sodium_memzero(plain, len);
    free(plain);
    return choice;
}

static json_t *revealed_event(int seat, const char *decision,
                              const json_t *action,
                              const uint8_t nonce[SEAL_NONCE_BYTES])
{
    char nonce_hex[2 * SEAL_NONCE_BYTES + 1];
    hex_encode(nonce, SEAL_NONCE_BYTES, nonce_hex);
    return json_pack("{s:s,s:i,s:{s:s,s:O,s:s}}", "kind", "revealed", "seat",
                     seat, "data", "decision", decision, "action", action,
                     "nonce", nonce_hex);
}

/* A reveal that opens its commitment to a choice the rules refuse: the
 * refused choice and nonce (so anyone can check the commitment), why the
 * rules refuse it, and the choice that stands in (borrowed). */
static json_t *voided_event(int seat, const char *decision,
                            const json_t *action,
                            const uint8_t nonce[SEAL_NONCE_BYTES],
                            const char *reason, const json_t *stand_in)
{
    char nonce_hex[2 * SEAL_NONCE_BYTES + 1];
    hex_encode(nonce, SEAL_NONCE_BYTES, nonce_hex);
    return json_pack("{s:s,s:i,s:{s:s,s:O,s:s,s:s,s:O}}", "kind", "voided",
                     "seat", seat, "data", "decision", decision, "action",
                     action, "nonce", nonce_hex, "reason", reason, "choice",
                     stand_in);
}

/* The choice that stands in for seat's: the engine's default move, or the
 * first legal one of an engine that names none (as the deadlines do, see
 * timers/absent_move.h); a new reference, or NULL. */
static json_t *default_choice(const decision_ctx *ctx, int seat)
{
    if (ctx->engine->default_move != NULL)
        return ctx->engine->default_move(ctx->state, seat);
    json_t *legal = ctx->engine->legal(ctx->state, seat);
    json_t *first =
        json_incref(json_array_get(json_object_get(legal, "moves"), 0));
    json_decref(legal);
    return first;
}

/* Checks that action is a choice the rules accept for seat now. */
static bool choice_is_legal(const decision_ctx *ctx, int seat,
                            const json_t *action, apierr *err)
{
    rules_state *trial = ctx->engine->clone(ctx->state);
    rules_error rerr = {{0}};
    bool ok = ctx->engine->apply(trial, seat, action, &rerr);
    ctx->engine->destroy(trial);
    if (!ok)
        apierr_set(err, 422, "illegal_move", "%s", rerr.message);
    return ok;
}

/* After a commit or reveal: reveals the server-sealed choices once all
 * seats have committed, and applies the decision once all are revealed.
 * Appends the events (starting with lead[0..lead_count), borrowed) inside
 * the caller's transaction. The revealed choices are collected in
 * revealed_actions. */
static bool advance(decision_ctx *ctx, json_t *const *lead, int lead_count,
                    json_t *revealed_actions[STORE_MAX_SEATS], bool *decided,
                    bool *over, apierr *err)
{
    json_t *events[APPEND_EVENTS_MAX];
    int count = 0;
    for (int i = 0; i < lead_count && i < 2; i++)
        events[count++] = lead[i];
    bool all_committed = true, all_revealed = true;
    *decided = false;
    for (int s = 0; s < ctx->match.seat_count; s++) {
        if (!(ctx->pending.seats & (1u << s)))
            continue;
        if (!ctx->seats[s].committed)
            all_committed = false;
    }
    bool ok = true;
    for (int s = 0; ok && all_committed && s < ctx->match.seat_count; s++) {
        sealed_choice *c = &ctx->seats[s];
        if (!(ctx->pending.seats & (1u << s)) || c->revealed || c->client_mode)
            continue;
        uint8_t nonce[SEAL_NONCE_BYTES];
        json_t *action =
            open_sealed(ctx->match.match_id, c->sealed, c->sealed_len, nonce);
        if (action == NULL) {
            ok = apierr_set(err, 500, "sealed_choice",
                            "seat %d's sealed choice cannot be opened with "
                            "this service's key file",
                            s);
            break;
        }
        events[count++] = revealed_event(s, ctx->pending.decision, action, nonce);
        revealed_actions[s] = action;
        c->revealed = true;
        ok = sealed_choices_mark_revealed(ctx->conn, ctx->match.match_id,
                                          ctx->pending.decision, s, err);
    }
    for (int s = 0; s < ctx->match.seat_count; s++) {
        if ((ctx->pending.seats & (1u << s)) && !ctx->seats[s].revealed)
            all_revealed = false;
    }
    json_t *decided_event = NULL;
    /* The state before the choices, so the log tells what each did. */
    rules_state *before = NULL;
    if (ok && all_revealed) {
        before = ctx->engine->clone(ctx->state);
        json_t *choices = json_array();
        for (int s = 0; ok && s < ctx->match.seat_count; s++) {
            if (!(ctx->pending.seats & (1u << s)))
                continue;
            json_array_append_new(choices,
                                  json_pack("{s:i,s:O}", "seat", s, "action",
                                            revealed_actions[s]));
            rules_error rerr = {{0}};
            if (!ctx->engine->apply(ctx->state, s, revealed_actions[s], &rerr))
                ok = apierr_set(err, 422, "illegal_move",
                                "seat %d's revealed choice is refused by the "
                                "rules: %s",
                                s, rerr.message);
        }
        decided_event = json_pack("{s:s,s:{s:s,s:o}}", "kind", "decided",
                                  "data", "decision", ctx->pending.decision,
                                  "choices", choices);
        events[count++] = decided_event;
        *decided = ok;
    }
    if (ok) {
        /* Who must act changes only once the decision is made. */
        append_change change = {
            .events = events,
            .count = count,
            .state = ctx->state,
            .before = before,
            .tell = *decided ? APPEND_TELL_PENDING : APPEND_TELL_NOBODY,
            .reach = &ctx->reach};
        ok = append_events(ctx->conn, &ctx->match, ctx->engine, &change, over,
                           err);
    }
    if (before != NULL)
        ctx->engine->destroy(before);
    for (int i = lead_count; i < count; i++)
        json_decref(events[i]);
    return ok;
}

static json_t *decision_answer(const decision_ctx *ctx, bool decided,
                               bool over)
{
    char head_hash[2 * STORE_HASH_BYTES + 1];
    hex_encode(ctx->match.head_hash, STORE_HASH_BYTES, head_hash);
    rules_pending pending;
    ctx->engine->pending(ctx->state, &pending);
    long long id = ctx->match.match_id;
    uint32_t committed = 0, unrevealed = 0;
    apierr ignored;
    /* A failed read shows nobody as committed, as the views do. */
    if (pending.wait == RULES_WAIT_SIMULTANEOUS)
        sealed_choices_progress(ctx->conn, id, pending.decision, &committed,
                                &unrevealed, &ignored);
    return json_pack("{s:s,s:I,s:s,s:b,s:b,s:o,s:o}", "decision",
                     ctx->pending.decision, "seq",
                     (json_int_t)ctx->match.head_seq, "hash", head_hash,
                     "decided", decided, "over", over, "pending",
                     describe_pending_json(&pending, committed, unrevealed),
                     "result",
                     ctx->engine->result(ctx->state));
}

/* The choices of this decision already revealed, from the log: "revealed"
 * events, "timeout" events whose choice stands in for a commitment that
 * was never revealed, and "voided" events whose choice stands in for one
 * revealed to a choice the rules refuse. */
static bool earlier_reveals(const decision_ctx *ctx,
                            json_t *revealed_actions[STORE_MAX_SEATS],
                            apierr *err)
{
    json_t *log = store_events_after(ctx->conn, ctx->match.match_id, 0, 100000,
                                     err);
    if (log == NULL)
        return false;
    size_t i;
    json_t *event;
    json_array_foreach(log, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        json_t *data = json_object_get(event, "data");
        json_int_t s = json_integer_value(json_object_get(event, "seat"));
        const char *of = json_string_value(json_object_get(data, "decision"));
        if (kind && strcmp(kind, "rewound") == 0) {
            /* Reveals an admin's rewind went back over no longer count. */
            for (int r = 0; r < STORE_MAX_SEATS; r++) {
                json_decref(revealed_actions[r]);
                revealed_actions[r] = NULL;
            }
        }
        json_t *choice = kind && strcmp(kind, "revealed") == 0
                             ? json_object_get(data, "action")
                         : kind && (strcmp(kind, "timeout") == 0 ||
                                    strcmp(kind, "voided") == 0)
                             ? json_object_get(data, "choice")
                             : NULL;
        if (choice != NULL && s >= 0 && s < STORE_MAX_SEATS && of != NULL &&
            strcmp(of, ctx->pending.decision) == 0) {
            json_decref(revealed_actions[s]);
            revealed_actions[s] = json_incref(choice);
        }
    }
    json_decref(log);
    return true;
}

/* Seals action for seat as the service does for a plain move: a fresh
 * nonce, the commitment, and nonce + choice encrypted with the service key
 * (*sealed malloc'd). */
static void seal_for_seat(const decision_ctx *ctx, int seat,
                          const json_t *action,
                          uint8_t commitment[SEAL_HASH_BYTES],
                          uint8_t **sealed, size_t *sealed_len)
{
    uint8_t nonce[SEAL_NONCE_BYTES];
    randombytes_buf(nonce, sizeof nonce);
    char *canonical = rules_sorted_json(action);
    seal_choice_commitment(ctx->match_ref, ctx->pending.decision, seat,
                           canonical, nonce, commitment);
    size_t plain_len = SEAL_NONCE_BYTES + strlen(canonical);
    uint8_t *plain = malloc(plain_len);
    if (plain == NULL)
        abort();
    memcpy(plain, nonce, SEAL_NONCE_BYTES);
    memcpy(plain + SEAL_NONCE_BYTES, canonical, strlen(canonical));
    *sealed_len = plain_len + SEAL_OVERHEAD;
    *sealed = malloc(*sealed_len);
    if (*sealed == NULL)
        abort();
    seal_encrypt(ctx->match.match_id, plain, plain_len, *sealed);
    sodium_memzero(plain, plain_len);
    sodium_memzero(nonce, sizeof nonce);
    free(plain);
    free(canonical);
}

/* Takes the match row before touching the decision's rows, as every
 * writer of a match does (the append's head guard, the deadline worker):
 * one lock order, so a commit racing a deadline waits instead of
 * deadlocking. 409 when the match moved on since ctx was loaded. */
static bool lock_match(const decision_ctx *ctx, apierr *err)
{
    bool same = false;
    if (!sealed_choices_hold_match(ctx->conn, ctx->match.match_id,
                                   ctx->match.head_seq, &same, err))
        return false;
    if (!same) {
        apierr_set(err, 409, "stale_seq",
                   "the match moved on while this request was being "
                   "handled; reload it and try again");
        return false;
    }
    return true;
}

static bool insert_choice(const decision_ctx *ctx, bool client_mode,
                          const uint8_t commitment[SEAL_HASH_BYTES],
                          const uint8_t *sealed, size_t sealed_len,
                          apierr *err)
{
    bool ok = sealed_choices_insert(
        ctx->conn, ctx->match.match_id, ctx->pending.decision, ctx->seat,
        client_mode, commitment, sealed, sealed_len, err);
    if (!ok && strcmp(err->code, "database:23505") == 0)
        apierr_set(err, 409, "already_committed",
                   "your seat has already committed to %s; a committed "
                   "choice cannot change",
                   ctx->pending.decision);
    return ok;
}

json_t *decisions_commit(const caller *who, long long match_id,
                         const char *decision, const json_t *body, apierr *err)
{
    decision_ctx ctx;
    json_t *answer = NULL, *action = NULL, *committed = NULL;
    json_t *revealed_actions[STORE_MAX_SEATS] = {0};
    uint8_t *sealed = NULL;
    size_t sealed_len = 0;
    uint8_t commitment[SEAL_HASH_BYTES];
    const json_t *given = json_object_get(body, "commitment");
    bool client_mode = given != NULL;
    /* The body is judged before the match (ctx is cleared first, so the
     * cleanup below holds either way). */
    memset(&ctx, 0, sizeof ctx);
    if (client_mode ? !request_hex32(body, "commitment", "bad_commitment",
                                     commitment, err)
                    : !request_action_shape(body, err))
        goto done;
    if (!open_decision(&ctx, who, match_id, decision, true, err))
        goto done;
    if (ctx.seats[ctx.seat].committed) {
        apierr_set(err, 409, "already_committed",
                   "your seat has already committed to %s; a committed "
                   "choice cannot change",
                   ctx.pending.decision);
        goto done;
    }
    if (!client_mode) {
        action = request_action(body, ctx.engine, ctx.state,
                                          ctx.seat, err);
        if (action == NULL || !choice_is_legal(&ctx, ctx.seat, action, err))
            goto done;
        seal_for_seat(&ctx, ctx.seat, action, commitment, &sealed,
                      &sealed_len);
    }
    char commitment_hex[2 * SEAL_HASH_BYTES + 1];
    hex_encode(commitment, sizeof commitment, commitment_hex);
    committed = json_pack("{s:s,s:i,s:{s:s,s:s,s:s}}", "kind", "committed",
                          "seat", ctx.seat, "data", "decision",
                          ctx.pending.decision, "commitment", commitment_hex,
                          "mode", client_mode ? "client" : "server");
    delegates_note(who, committed);
    sealed_choice *mine = &ctx.seats[ctx.seat];
    mine->committed = true;
    mine->client_mode = client_mode;
    memcpy(mine->commitment, commitment, sizeof commitment);
    if (!client_mode) {
        mine->sealed = malloc(sealed_len);
        memcpy(mine->sealed, sealed, sealed_len);
        mine->sealed_len = sealed_len;
    }
    if (!store_begin(ctx.conn, err))
        goto done;
    bool decided = false, over = false;
    if (!lock_match(&ctx, err) ||
        !insert_choice(&ctx, client_mode, commitment, sealed, sealed_len,
                       err) ||
        !advance(&ctx, &committed, 1, revealed_actions, &decided, &over,
                 err)) {
        store_rollback(ctx.conn);
        goto done;
    }
    answer = append_commit(ctx.conn, who, &ctx.match, 200,
                           decision_answer(&ctx, decided, over), err);
    if (answer == NULL)
        goto done;
    log_info("match %s: seat %d committed to %s (%s)", ctx.match_ref, ctx.seat,
             ctx.pending.decision, client_mode ? "client" : "server-sealed");
    /* Decided or not, ctx.state is the state at the new head. */
    matchstate_remember(ctx.engine, match_id, ctx.match.head_seq, ctx.state);
done:
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        json_decref(revealed_actions[s]);
    free(sealed);
    json_decref(committed);
    json_decref(action);
    ctx_free(&ctx);
    return answer;
}

json_t *decisions_reveal(const caller *who, long long match_id,
                         const char *decision, const json_t *body,
                         apierr *err)
{
    decision_ctx ctx;
    json_t *answer = NULL, *action = NULL, *revealed = NULL;
    json_t *revealed_actions[STORE_MAX_SEATS] = {0};
    uint8_t nonce[SEAL_NONCE_BYTES];
    /* The body is judged before the match. */
    memset(&ctx, 0, sizeof ctx);
    if (!request_hex32(body, "nonce", "bad_nonce", nonce, err) ||
        !request_action_shape(body, err))
        goto done;
    if (!open_decision(&ctx, who, match_id, decision, true, err))
        goto done;
    sealed_choice *mine = &ctx.seats[ctx.seat];
    if (!mine->committed || !mine->client_mode || mine->revealed) {
        apierr_set(err, 409, "nothing_to_reveal",
                   mine->revealed ? "your choice is already revealed"
                                  : "your seat has no client commitment to "
                                    "reveal in this decision");
        goto done;
    }
    for (int s = 0; s < ctx.match.seat_count; s++) {
        if ((ctx.pending.seats & (1u << s)) && !ctx.seats[s].committed) {
            apierr_set(err, 409, "not_all_committed",
                       "seat %d has not committed yet; reveal once every seat "
                       "has",
                       s);
            goto done;
        }
    }
    action = request_action(body, ctx.engine, ctx.state, ctx.seat,
                                      err);
    if (action == NULL)
        goto done;
    if (!seal_choice_opens(ctx.match_ref, ctx.pending.decision, ctx.seat,
                           action, nonce, mine->commitment)) {
        apierr_set(err, 422, "commitment_mismatch",
                   "this choice and nonce do not match your commitment to %s",
                   ctx.pending.decision);
        goto done;
    }
    /* The commitment is opened: a choice the rules refuse cannot stand,
     * and the commitment cannot change, so the seat's default choice
     * stands in for it, as for a reveal missed at a deadline; otherwise
     * the decision would wait for ever. */
    apierr refusal = {.head = -1};
    bool legal = choice_is_legal(&ctx, ctx.seat, action, &refusal);
    json_t *stand_in = legal ? json_incref(action)
                             : default_choice(&ctx, ctx.seat);
    if (stand_in == NULL) {
        apierr_set(err, 500, "default_move",
                   "the rules name no choice for seat %d", ctx.seat);
        goto done;
    }
    if (!earlier_reveals(&ctx, revealed_actions, err)) {
        json_decref(stand_in);
        goto done;
    }
    revealed_actions[ctx.seat] = stand_in;
    mine->revealed = true;
    revealed = legal ? revealed_event(ctx.seat, ctx.pending.decision, action,
                                      nonce)
                     : voided_event(ctx.seat, ctx.pending.decision, action,
                                    nonce, refusal.message, stand_in);
    delegates_note(who, revealed);
    if (!store_begin(ctx.conn, err))
        goto done;
    bool decided = false, over = false;
    if (!lock_match(&ctx, err) ||
        !sealed_choices_mark_revealed(ctx.conn, match_id, ctx.pending.decision,
                                      ctx.seat, err) ||
        !advance(&ctx, &revealed, 1, revealed_actions, &decided, &over, err)) {
        store_rollback(ctx.conn);
        goto done;
    }
    json_t *reply = decision_answer(&ctx, decided, over);
    if (!legal)
        json_object_set_new(reply, "voided",
                            json_pack("{s:s,s:O}", "reason", refusal.message,
                                      "choice", stand_in));
    answer = append_commit(ctx.conn, who, &ctx.match, 200, reply, err);
    if (answer == NULL)
        goto done;
    if (!legal)
        log_info("match %s: seat %d revealed a choice the rules refuse in "
                 "%s (%s); its commitment is void and its default choice "
                 "stands in",
                 ctx.match_ref, ctx.seat, ctx.pending.decision,
                 refusal.message);
    /* Decided or not, ctx.state is the state at the new head. */
    matchstate_remember(ctx.engine, match_id, ctx.match.head_seq, ctx.state);
done:
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        json_decref(revealed_actions[s]);
    json_decref(revealed);
    json_decref(action);
    ctx_free(&ctx);
    return answer;
}

/* The open decision of match_id for the deadline worker: seat must be one
 * the decision waits for. */
static bool open_for_seat(decision_ctx *ctx, long long match_id, int seat,
                          apierr *err)
{
    if (!open_decision(ctx, NULL, match_id, NULL, false, err))
        return false;
    ctx->seat = seat;
    if (seat < 0 || seat >= ctx->match.seat_count ||
        !(ctx->pending.seats & (1u << seat)))
        return apierr_set(err, 409, "not_your_decision",
                          "seat %d has no choice to make in %s", seat,
                          ctx->pending.decision);
    return true;
}

bool decisions_commit_default(PGconn *conn, long long match_id, int seat,
                              const json_t *choice, json_t *timeout,
                              apierr *err)
{
    decision_ctx ctx;
    json_t *revealed_actions[STORE_MAX_SEATS] = {0};
    json_t *committed = NULL;
    uint8_t *sealed = NULL;
    size_t sealed_len = 0;
    bool ok = open_for_seat(&ctx, match_id, seat, err);
    if (ok && ctx.conn != conn)
        ok = apierr_set(err, 500, "internal",
                        "a deadline must act on the worker's connection");
    if (ok && ctx.seats[seat].committed)
        ok = apierr_set(err, 409, "already_committed",
                        "seat %d has already committed to %s", seat,
                        ctx.pending.decision);
    if (ok)
        ok = choice_is_legal(&ctx, seat, choice, err);
    if (ok) {
        uint8_t commitment[SEAL_HASH_BYTES];
        seal_for_seat(&ctx, seat, choice, commitment, &sealed, &sealed_len);
        char commitment_hex[2 * SEAL_HASH_BYTES + 1];
        hex_encode(commitment, sizeof commitment, commitment_hex);
        committed = json_pack("{s:s,s:i,s:{s:s,s:s,s:s}}", "kind",
                              "committed", "seat", seat, "data", "decision",
                              ctx.pending.decision, "commitment",
                              commitment_hex, "mode", "server");
        sealed_choice *c = &ctx.seats[seat];
        c->committed = true;
        memcpy(c->commitment, commitment, sizeof commitment);
        c->sealed = malloc(sealed_len);
        if (c->sealed == NULL)
            abort();
        memcpy(c->sealed, sealed, sealed_len);
        c->sealed_len = sealed_len;
        json_t *lead[] = {timeout, committed};
        bool decided = false, over = false;
        ok = insert_choice(&ctx, false, commitment, sealed, sealed_len, err) &&
             advance(&ctx, lead, 2, revealed_actions, &decided, &over, err);
    }
    if (ok)
        log_info("match %s: seat %d's deadline passed; its default choice "
                 "is committed to %s",
                 ctx.match_ref, seat, ctx.pending.decision);
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        json_decref(revealed_actions[s]);
    free(sealed);
    json_decref(committed);
    ctx_free(&ctx);
    return ok;
}

bool decisions_void_reveal(PGconn *conn, long long match_id, int seat,
                           json_t *timeout, apierr *err)
{
    decision_ctx ctx;
    json_t *revealed_actions[STORE_MAX_SEATS] = {0};
    const json_t *choice =
        json_object_get(json_object_get(timeout, "data"), "choice");
    bool ok = open_for_seat(&ctx, match_id, seat, err);
    if (ok && ctx.conn != conn)
        ok = apierr_set(err, 500, "internal",
                        "a deadline must act on the worker's connection");
    sealed_choice *c = &ctx.seats[seat < 0 ? 0 : seat % STORE_MAX_SEATS];
    if (ok && (!c->committed || !c->client_mode || c->revealed))
        ok = apierr_set(err, 409, "nothing_to_reveal",
                        "seat %d has no commitment of its own waiting to be "
                        "revealed in %s",
                        seat, ctx.pending.decision);
    for (int s = 0; ok && s < ctx.match.seat_count; s++) {
        if ((ctx.pending.seats & (1u << s)) && !ctx.seats[s].committed)
            ok = apierr_set(err, 409, "not_all_committed",
                            "seat %d has not committed yet", s);
    }
    if (ok && choice == NULL)
        ok = apierr_set(err, 500, "internal", "the timeout names no choice");
    if (ok)
        ok = choice_is_legal(&ctx, seat, choice, err) &&
             earlier_reveals(&ctx, revealed_actions, err);
    if (ok) {
        json_decref(revealed_actions[seat]);
        revealed_actions[seat] = json_incref((json_t *)choice);
        c->revealed = true;
        bool decided = false, over = false;
        ok = sealed_choices_mark_revealed(conn, match_id, ctx.pending.decision,
                                          seat, err) &&
             advance(&ctx, &timeout, 1, revealed_actions, &decided, &over, err);
    }
    if (ok)
        log_info("match %s: seat %d did not reveal in time; its commitment "
                 "to %s is void and its default choice stands in",
                 ctx.match_ref, seat, ctx.pending.decision);
    for (int s = 0; s < STORE_MAX_SEATS; s++)
        json_decref(revealed_actions[s]);
    ctx_free(&ctx);
    return ok;
}

/* Whether decision is one the match has had: named in its log, or the
 * one open now (which has no event before the first commitment). 1 yes,
 * 0 no, -1 when the state could not be read (err filled). */
static int decision_exists(PGconn *conn, const store_match *match,
                            const json_t *log, const char *decision,
                            apierr *err)
{
    size_t i;
    json_t *event;
    json_array_foreach(log, i, event) {
        const char *of = json_string_value(
            json_object_get(json_object_get(event, "data"), "decision"));
        if (of != NULL && strcmp(of, decision) == 0)
            return 1;
    }
    if (!matchstate_has_state(match))
        return 0;
    const rules_engine *engine = matchstate_engine(match, err);
    if (engine == NULL)
        return -1;
    rules_state *state = matchstate_load(conn, match, engine, err);
    if (state == NULL)
        return -1;
    rules_pending pending;
    engine->pending(state, &pending);
    engine->destroy(state);
    return pending.wait == RULES_WAIT_SIMULTANEOUS &&
           strcmp(pending.decision, decision) == 0;
}

/* Whether event is of kind and is seat's in decision. */
static bool seat_event(const json_t *event, const char *kind,
                       const char *decision, int seat)
{
    const char *its_kind = json_string_value(json_object_get(event, "kind"));
    const char *of = json_string_value(
        json_object_get(json_object_get(event, "data"), "decision"));
    return its_kind != NULL && strcmp(its_kind, kind) == 0 && of != NULL &&
           strcmp(of, decision) == 0 &&
           json_integer_value(json_object_get(event, "seat")) == seat;
}

/* Adds to entry what the log made public of seat's revealed choice in
 * decision: the choice and nonce that open its commitment, or the choice
 * that stood in for it. */
static void add_public_outcome(json_t *entry, const json_t *log,
                               const char *decision, int seat)
{
    size_t i;
    json_t *event;
    json_array_foreach(log, i, event) {
        json_t *data = json_object_get(event, "data");
        if (seat_event(event, "revealed", decision, seat)) {
            json_object_set(entry, "action", json_object_get(data, "action"));
            json_object_set(entry, "nonce", json_object_get(data, "nonce"));
        }
        /* A commitment revealed to a choice the rules refuse is void. */
        if (seat_event(event, "voided", decision, seat)) {
            json_object_set(entry, "action", json_object_get(data, "choice"));
            json_object_set(entry, "refused_action",
                            json_object_get(data, "action"));
            json_object_set(entry, "nonce", json_object_get(data, "nonce"));
            json_object_set_new(entry, "voided", json_true());
        }
        /* So is one never revealed in time; the deadline's choice stood
         * in for it. */
        if (seat_event(event, "timeout", decision, seat) &&
            json_object_get(data, "choice") != NULL) {
            json_object_set(entry, "action", json_object_get(data, "choice"));
            json_object_set_new(entry, "voided", json_true());
        }
    }
}

/* Adds to entry the seat's own sealed choice and its nonce, opened with
 * the service key, for the seat itself to read back. */
static void add_own_choice(json_t *entry, long long match_id,
                           const sealed_choice *choice)
{
    uint8_t nonce[SEAL_NONCE_BYTES];
    json_t *mine =
        open_sealed(match_id, choice->sealed, choice->sealed_len, nonce);
    if (mine == NULL)
        return;
    char nonce_hex[2 * SEAL_NONCE_BYTES + 1];
    hex_encode(nonce, sizeof nonce, nonce_hex);
    sodium_memzero(nonce, sizeof nonce);
    json_object_set_new(entry, "your_choice", mine);
    json_object_set_new(entry, "your_nonce", json_string(nonce_hex));
}

/* The entry of a seat that committed: who and how, the commitment, and
 * once revealed what the log made public. */
static json_t *committed_entry(int seat, const sealed_choice *choice,
                               const json_t *log, const char *decision)
{
    char commitment_hex[2 * SEAL_HASH_BYTES + 1];
    hex_encode(choice->commitment, SEAL_HASH_BYTES, commitment_hex);
    json_t *entry =
        json_pack("{s:i,s:b,s:s,s:s,s:b}", "seat", seat, "committed", 1, "mode",
                  choice->client_mode ? "client" : "server", "commitment",
                  commitment_hex, "revealed", choice->revealed);
    if (choice->revealed)
        add_public_outcome(entry, log, decision, seat);
    return entry;
}

json_t *decisions_show(const caller *who, long long match_id,
                       const char *decision, apierr *err)
{
    PGconn *conn = db_conn(err);
    store_match match;
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    int my_seat = who ? request_seat_of(&match, who->player_id) : -1;
    char ref[32];
    store_match_ref(match_id, ref);
    sealed_choice seats[SEALED_CHOICES_MAX_SEATS] = {0};
    json_t *log = NULL, *answer = NULL;
    if (!sealed_choices_load(conn, match_id, decision, seats, err))
        goto done;
    bool any_committed = false;
    for (int s = 0; s < SEALED_CHOICES_MAX_SEATS; s++)
        any_committed = any_committed || seats[s].committed;
    /* The reveals themselves are public events. */
    log = store_events_after(conn, match_id, 0, 100000, err);
    int known = log == NULL ? -1
                : any_committed
                    ? 1
                    : decision_exists(conn, &match, log, decision, err);
    if (known == 0)
        apierr_set(err, 404, "no_such_decision", "match %s has no decision %s",
                   ref, decision);
    if (known <= 0)
        goto done;
    json_t *entries = json_array();
    answer = json_pack("{s:s,s:s,s:o}", "match", ref, "decision", decision,
                       "seats", entries);
    for (int s = 0; s < SEALED_CHOICES_MAX_SEATS; s++) {
        if (!seats[s].committed)
            continue;
        json_t *entry = committed_entry(s, &seats[s], log, decision);
        /* A seat may read back its own sealed choice. */
        if (s == my_seat && !seats[s].revealed)
            add_own_choice(entry, match_id, &seats[s]);
        json_array_append_new(entries, entry);
    }
done:
    json_decref(log);
    sealed_choices_free(seats);
    store_match_free(&match);
    return answer;
}
