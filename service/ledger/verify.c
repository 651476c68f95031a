/* verify.c */
#include "ledger/verify.h"

#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/forfeit.h"
#include "ledger/replay.h"
#include "rules.h"
#include "ledger/seal.h"
#include "ledger/chain.h"
#include "ledger/canonical.h"
#include "ledger/public_event.h"

#define MAX_DECISION_SEATS CHAIN_MAX_SEATS

bool verify_fail(verify_report *report, long long seq, const char *fmt, ...)
{
    report->ok = false;
    report->bad_seq = seq;
    va_list args;
    va_start(args, fmt);
    vsnprintf(report->reason, sizeof report->reason, fmt, args);
    va_end(args);
    return false;
}

static bool hex_bytes(const char *hex, uint8_t *out, size_t len)
{
    size_t got = 0;
    return hex != NULL && strlen(hex) == 2 * len &&
           sodium_hex2bin(out, len, hex, 2 * len, NULL, &got, NULL) == 0 &&
           got == len;
}

static const char *data_string(const json_t *event, const char *key)
{
    return json_string_value(json_object_get(json_object_get(event, "data"), key));
}

static bool check_chain(const json_t *events, verify_report *report)
{
    uint8_t prev[CHAIN_HASH_BYTES] = {0};
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        long long seq = (long long)i + 1;
        if (json_integer_value(json_object_get(event, "seq")) != seq)
            return verify_fail(report, seq, "event %lld is missing or out of order",
                        seq);
        uint8_t stored_prev[CHAIN_HASH_BYTES], stored[CHAIN_HASH_BYTES];
        if (!hex_bytes(json_string_value(json_object_get(event, "prev_hash")),
                       stored_prev, sizeof stored_prev) ||
            !hex_bytes(json_string_value(json_object_get(event, "hash")),
                       stored, sizeof stored))
            return verify_fail(report, seq, "event %lld has no valid hash fields", seq);
        if (sodium_memcmp(stored_prev, prev, sizeof prev) != 0)
            return verify_fail(report, seq,
                        "event %lld does not chain from event %lld", seq,
                        seq - 1);
        /* A public form that withholds a mail address cannot be hashed
         * again without it (public_event.h): its recorded hash stands,
         * and every link after it is still checked. */
        if (public_event_is_withheld(event)) {
            report->withheld++;
            memcpy(prev, stored, sizeof prev);
            report->events = seq;
            continue;
        }
        json_t *body = json_copy((json_t *)event);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
        /* The sentence the server tells of the event is not recorded. */
        json_object_del(body, "text");
        char *bytes = canonical_json(body);
        uint8_t computed[CHAIN_HASH_BYTES];
        chain_hash(prev, bytes, computed);
        free(bytes);
        /* Events hashed before the chain adopted RFC 8785 were hashed as
         * jansson's sorted compact JSON, which differs from it only in
         * rare strings (controls as \u00XX) and numbers: either form
         * binds the same content. */
        if (sodium_memcmp(computed, stored, sizeof stored) != 0) {
            bytes = rules_sorted_json(body);
            chain_hash(prev, bytes, computed);
            free(bytes);
        }
        json_decref(body);
        if (sodium_memcmp(computed, stored, sizeof stored) != 0)
            return verify_fail(report, seq,
                        "event %lld was altered: its content does not hash "
                        "to its recorded hash",
                        seq);
        memcpy(prev, stored, sizeof prev);
        report->events = seq;
    }
    return true;
}

/* What a decision's events said, seat by seat. */
typedef struct sealed_seat {
    bool committed;
    uint8_t commitment[SEAL_HASH_BYTES];
    bool revealed;
    const json_t *action; /* borrowed from the events */
} sealed_seat;

/* The decision the log has open. Decisions are resolved one at a time, so
 * one table suffices: it is cleared at each "decided" event, and at each
 * rewind (which only goes back to a point outside any decision, see
 * replay.h). */
typedef struct open_decision {
    char id[64]; /* "" when none is open */
    sealed_seat seats[MAX_DECISION_SEATS];
} open_decision;

/* Reads the opening of a commitment an event gives: its choice
 * ("action", borrowed) and "nonce". False when it lacks either. */
static bool read_opening(const json_t *event, const json_t **action,
                         uint8_t nonce[SEAL_NONCE_BYTES])
{
    *action = json_object_get(json_object_get(event, "data"), "action");
    return *action != NULL &&
           hex_bytes(data_string(event, "nonce"), nonce, SEAL_NONCE_BYTES);
}

/* Whether action and nonce, read from event, open commitment of seat in
 * decision id. */
static bool opens_commitment(const json_t *event, const char *id, int seat,
                             const json_t *action,
                             const uint8_t nonce[SEAL_NONCE_BYTES],
                             const uint8_t commitment[SEAL_HASH_BYTES])
{
    /* Bound to the match id the decision was played under (a copy
     * imported under a new id keeps its original events). */
    const char *match_ref = json_string_value(json_object_get(event, "match"));
    return seal_choice_opens(match_ref ? match_ref : "", id, seat, action,
                             nonce, commitment);
}

/* The choice that stands in for a commitment: a timeout's "choice" voids
 * one that was never revealed, and a "voided" event's one revealed to a
 * choice the rules refuse. NULL for other events. */
static const json_t *stand_in_of(const json_t *event, const char *kind)
{
    if (strcmp(kind, "timeout") != 0 && strcmp(kind, "voided") != 0)
        return NULL;
    return json_object_get(json_object_get(event, "data"), "choice");
}

/* Checks that an event of a decision (id) belongs to the one open, opening
 * it if none is, and names a seat the table holds (a "decided" event
 * names none). */
static bool joins_open_decision(open_decision *open, const char *kind,
                                const char *id, json_int_t seat, long long seq,
                                verify_report *report)
{
    if (id == NULL || strlen(id) >= sizeof open->id)
        return verify_fail(report, seq, "event %lld names no decision", seq);
    if (open->id[0] == '\0')
        snprintf(open->id, sizeof open->id, "%s", id);
    if (strcmp(open->id, id) != 0)
        return verify_fail(report, seq,
                           "event %lld belongs to decision %s while %s is open",
                           seq, id, open->id);
    if (strcmp(kind, "decided") != 0 &&
        (seat < 0 || seat >= MAX_DECISION_SEATS))
        return verify_fail(report, seq, "event %lld has no valid seat", seq);
    return true;
}

static bool check_committed(open_decision *open, const json_t *event, int seat,
                            long long seq, verify_report *report)
{
    sealed_seat *mine = &open->seats[seat];
    if (mine->committed)
        return verify_fail(report, seq, "seat %d committed twice to %s", seat,
                           open->id);
    if (!hex_bytes(data_string(event, "commitment"), mine->commitment,
                   SEAL_HASH_BYTES))
        return verify_fail(report, seq, "event %lld has no valid commitment",
                           seq);
    mine->committed = true;
    return true;
}

static bool check_revealed(open_decision *open, const json_t *event, int seat,
                           long long seq, verify_report *report)
{
    sealed_seat *mine = &open->seats[seat];
    if (!mine->committed || mine->revealed)
        return verify_fail(report, seq,
                           "event %lld reveals a choice seat %d did not "
                           "commit to (or revealed already)",
                           seq, seat);
    const json_t *action = NULL;
    uint8_t nonce[SEAL_NONCE_BYTES];
    if (!read_opening(event, &action, nonce))
        return verify_fail(report, seq, "event %lld has no nonce or choice",
                           seq);
    if (!opens_commitment(event, open->id, seat, action, nonce,
                          mine->commitment))
        return verify_fail(report, seq,
                           "event %lld: seat %d's revealed choice and nonce "
                           "do not match its commitment",
                           seq, seat);
    mine->revealed = true;
    mine->action = action;
    report->commitments++;
    return true;
}

/* A timeout's or a "voided" event's choice standing in for seat's. */
static bool check_stand_in(open_decision *open, const json_t *event,
                           const json_t *stand_in, bool voided, int seat,
                           long long seq, verify_report *report)
{
    sealed_seat *mine = &open->seats[seat];
    if (!mine->committed || mine->revealed)
        return verify_fail(report, seq,
                           "event %lld voids a commitment seat %d did not "
                           "make (or revealed already)",
                           seq, seat);
    /* Voided at a reveal: the refused choice must open the commitment, or
     * a seat could void a choice it never made. */
    const json_t *action = NULL;
    uint8_t nonce[SEAL_NONCE_BYTES];
    if (voided && (!read_opening(event, &action, nonce) ||
                   !opens_commitment(event, open->id, seat, action, nonce,
                                     mine->commitment)))
        return verify_fail(report, seq,
                           "event %lld: seat %d's refused choice and nonce "
                           "do not match its commitment",
                           seq, seat);
    if (voided)
        report->commitments++;
    mine->revealed = true;
    mine->action = stand_in;
    return true;
}

/* The "decided" event applies exactly the revealed choices of the seats
 * that committed, and closes the decision. */
static bool check_decided(open_decision *open, const json_t *event,
                          long long seq, verify_report *report)
{
    const json_t *choices =
        json_object_get(json_object_get(event, "data"), "choices");
    size_t k;
    const json_t *choice;
    int count = 0;
    json_array_foreach(choices, k, choice) {
        json_int_t s = json_integer_value(json_object_get(choice, "seat"));
        if (s < 0 || s >= MAX_DECISION_SEATS || !open->seats[s].revealed ||
            !json_equal(open->seats[s].action,
                        json_object_get(choice, "action")))
            return verify_fail(report, seq,
                               "event %lld applies a choice for seat %lld "
                               "that is not the one revealed",
                               seq, (long long)s);
        count++;
    }
    for (int s = 0; s < MAX_DECISION_SEATS; s++) {
        if (open->seats[s].committed && !open->seats[s].revealed)
            return verify_fail(report, seq,
                               "event %lld decides %s before seat %d revealed",
                               seq, open->id, s);
        if (open->seats[s].committed)
            count--;
    }
    if (count != 0)
        return verify_fail(report, seq,
                           "event %lld's choices are not the committed seats'",
                           seq);
    memset(open, 0, sizeof *open);
    return true;
}

/* Checks one event of the log against the decision open, if it is one of
 * a sealed decision's. */
static bool check_sealed_event(open_decision *open, const json_t *event,
                               long long seq, verify_report *report)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    if (kind == NULL)
        return verify_fail(report, seq, "event %lld has no kind", seq);
    if (strcmp(kind, "rewound") == 0) {
        memset(open, 0, sizeof *open);
        return true;
    }
    bool voided = strcmp(kind, "voided") == 0;
    const json_t *stand_in = stand_in_of(event, kind);
    if (voided && stand_in == NULL)
        return verify_fail(report, seq,
                           "event %lld voids a commitment and names no "
                           "choice to stand in",
                           seq);
    bool committed = strcmp(kind, "committed") == 0;
    bool revealed = strcmp(kind, "revealed") == 0;
    bool decided = strcmp(kind, "decided") == 0;
    if (!committed && !revealed && !decided && stand_in == NULL)
        return true;
    json_int_t seat = json_integer_value(json_object_get(event, "seat"));
    if (!joins_open_decision(open, kind, data_string(event, "decision"), seat,
                             seq, report))
        return false;
    if (stand_in != NULL)
        return check_stand_in(open, event, stand_in, voided, (int)seat, seq,
                              report);
    if (committed)
        return check_committed(open, event, (int)seat, seq, report);
    if (revealed)
        return check_revealed(open, event, (int)seat, seq, report);
    return check_decided(open, event, seq, report);
}

static bool check_commitments(const json_t *events, verify_report *report)
{
    open_decision open;
    memset(&open, 0, sizeof open);
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        if (!check_sealed_event(&open, event, (long long)i + 1, report))
            return false;
    }
    return true;
}

/* The event that ended the match and revealed its seed, or NULL. */
static const json_t *end_event(const json_t *events, long long *seq)
{
    const json_t *end = NULL;
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (kind &&
            (strcmp(kind, "finished") == 0 || strcmp(kind, "aborted") == 0)) {
            end = event;
            *seq = (long long)i + 1;
        }
    }
    return end;
}

static bool has_started(const json_t *events, const bool *counts)
{
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (counts[i] && kind && strcmp(kind, "started") == 0)
            return true;
    }
    return false;
}

/* With the seed revealed, every shuffle and every counting move can be
 * replayed. */
static bool replay(const json_t *events, const bool *counts,
                   verify_report *report)
{
    const json_t *created = json_array_get(events, 0);
    long long end_seq = 0;
    const json_t *end = end_event(events, &end_seq);
    const char *first_kind =
        json_string_value(json_object_get(created, "kind"));
    if (first_kind == NULL || strcmp(first_kind, "created") != 0)
        return verify_fail(report, 1, "event 1 is not the match's creation");
    uint8_t commitment[SEAL_HASH_BYTES];
    if (!hex_bytes(data_string(created, "seed_commitment"), commitment,
                   sizeof commitment))
        return verify_fail(report, 1, "event 1 commits to no seed");
    if (end == NULL)
        return true; /* the seed stays secret until the end */

    uint8_t seed[SEAL_SEED_BYTES], computed[SEAL_HASH_BYTES];
    if (!hex_bytes(data_string(end, "seed"), seed, sizeof seed))
        return verify_fail(report, end_seq, "event %lld reveals no seed",
                           end_seq);
    seal_seed_commitment(seed, computed);
    if (sodium_memcmp(computed, commitment, sizeof computed) != 0)
        return verify_fail(report, end_seq,
                           "event %lld reveals a seed that does not match the "
                           "commitment of event 1",
                           end_seq);
    if (!has_started(events, counts))
        return true; /* aborted before it started: nothing to replay */
    const json_t *data = json_object_get(created, "data");
    const char *game = json_string_value(json_object_get(data, "game"));
    const rules_engine *engine = game ? rules_find(game) : NULL;
    if (engine == NULL)
        return verify_fail(report, 1, "this verifier has no %s engine",
                    game ? game : "(unnamed)");
    if (engine->version != json_integer_value(json_object_get(data, "engine_version")))
        return verify_fail(report, 1,
                    "the match was played under %s version %lld; this "
                    "verifier has version %d",
                    game,
                    (long long)json_integer_value(json_object_get(data, "engine_version")),
                    engine->version);
    int seats = (int)json_integer_value(json_object_get(data, "seats"));
    if (seats < 1 || seats > CHAIN_MAX_SEATS)
        return verify_fail(report, 1, "event 1 has an impossible seat count");
    uint8_t entropy[CHAIN_MAX_SEATS][32];
    memset(entropy, 0, sizeof entropy);
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        json_int_t seat = json_integer_value(json_object_get(event, "seat"));
        const char *hex = data_string(event, "entropy");
        if (kind && strcmp(kind, "joined") == 0 && hex != NULL &&
            seat >= 0 && seat < seats &&
            !hex_bytes(hex, entropy[seat], 32))
            return verify_fail(report, (long long)i + 1,
                        "event %lld has malformed entropy", (long long)i + 1);
    }
    uint8_t match_seed[RULES_SEED_BYTES];
    seal_match_seed(seed, (const uint8_t(*)[32])entropy, seats, match_seed);
    rules_error err = {{0}};
    rules_state *state = engine->setup(json_object_get(data, "options"), seats,
                                       match_seed, &err);
    if (state == NULL)
        return verify_fail(report, 1, "the match does not set up: %s", err.message);
    bool ok = true;
    uint32_t forfeited = 0;
    replay_error rerr = {0};
    json_array_foreach(events, i, event) {
        if (counts[i] && !replay_apply(engine, state, event, true, &rerr)) {
            ok = verify_fail(report, rerr.seq, "%s", rerr.reason);
            break;
        }
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (counts[i] && kind != NULL && strcmp(kind, "forfeited") == 0) {
            json_int_t seat = json_integer_value(json_object_get(event, "seat"));
            if (seat >= 0 && seat < 32)
                forfeited |= 1u << seat;
        }
    }
    const json_t *recorded =
        json_object_get(json_object_get(end, "data"), "result");
    if (ok && recorded != NULL) {
        json_t *result = engine->result(state);
        if (forfeited != 0) {
            /* A forfeit ended the match: the same rule for every game. */
            json_t *final = forfeit_result(result, forfeited);
            json_decref(result);
            result = final;
        }
        if (!json_equal(result, recorded))
            ok = verify_fail(
                report, end_seq,
                "event %lld's result is not what replaying the match "
                "gives",
                end_seq);
        json_decref(result);
    }
    engine->destroy(state);
    report->replayed = ok;
    return ok;
}

void verify_events(const json_t *events, verify_report *report)
{
    memset(report, 0, sizeof *report);
    report->ok = true;
    if (!json_is_array(events) || json_array_size(events) == 0) {
        verify_fail(report, 1, "the log is empty");
        return;
    }
    if (!check_chain(events, report) || !check_commitments(events, report))
        return;
    size_t n = json_array_size(events);
    bool *counts = calloc(n, sizeof *counts);
    if (counts == NULL)
        abort();
    replay_error rerr = {0};
    if (!replay_history(events, counts, &rerr))
        verify_fail(report, rerr.seq, "%s", rerr.reason);
    else
        replay(events, counts, report);
    free(counts);
}

json_t *verify_report_json(const verify_report *report)
{
    json_t *out = json_pack("{s:b,s:I,s:i,s:b}", "ok", report->ok, "events",
                            (json_int_t)report->events, "commitments",
                            report->commitments, "replayed", report->replayed);
    if (report->withheld > 0)
        json_object_set_new(out, "withheld",
                            json_integer(report->withheld));
    if (!report->ok)
        json_object_set_new(out, "first_bad",
                            json_pack("{s:I,s:s}", "seq",
                                      (json_int_t)report->bad_seq, "reason",
                                      report->reason));
    return out;
}
