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
        json_t *body = json_copy((json_t *)event);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
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
    json_t *action;   /* borrowed from the events */
} sealed_seat;

/* Whether the choice ("action") and "nonce" of event open commitment
 * of seat in decision id. */
static bool opens_commitment(const json_t *event, const char *id, int seat,
                             const uint8_t commitment[SEAL_HASH_BYTES])
{
    uint8_t nonce[SEAL_NONCE_BYTES];
    const json_t *data = json_object_get(event, "data");
    const json_t *action = json_object_get(data, "action");
    if (!hex_bytes(data_string(event, "nonce"), nonce, sizeof nonce) ||
        action == NULL)
        return false;
    /* Bound to the match id the decision was played under (a copy
     * imported under a new id keeps its original events). */
    const char *match_ref = json_string_value(json_object_get(event, "match"));
    return seal_choice_opens(match_ref ? match_ref : "", id, seat, action,
                             nonce, commitment);
}

static bool check_commitments(const json_t *events, verify_report *report)
{
    /* Decisions are resolved one at a time, so one table suffices: it is
     * cleared at each "decided" event, and at each rewind (which only goes
     * back to a point outside any decision, see replay.h). */
    char decision[64] = "";
    sealed_seat seats[MAX_DECISION_SEATS];
    memset(seats, 0, sizeof seats);
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        long long seq = (long long)i + 1;
        const char *kind = json_string_value(json_object_get(event, "kind"));
        json_int_t seat = json_integer_value(json_object_get(event, "seat"));
        const char *id = data_string(event, "decision");
        if (kind == NULL)
            return verify_fail(report, seq, "event %lld has no kind", seq);
        if (strcmp(kind, "rewound") == 0) {
            memset(seats, 0, sizeof seats);
            decision[0] = '\0';
            continue;
        }
        /* A timeout that names a choice voids a commitment that was never
         * revealed, and a "voided" event one revealed to a choice the
         * rules refuse: that choice stands in for it. */
        const json_t *data = json_object_get(event, "data");
        bool voided = strcmp(kind, "voided") == 0;
        const json_t *stand_in = strcmp(kind, "timeout") == 0 || voided
                                     ? json_object_get(data, "choice")
                                     : NULL;
        if (voided && stand_in == NULL)
            return verify_fail(report, seq,
                               "event %lld voids a commitment and names no "
                               "choice to stand in",
                               seq);
        bool sealed_kind = strcmp(kind, "committed") == 0 ||
                           strcmp(kind, "revealed") == 0 ||
                           strcmp(kind, "decided") == 0 || stand_in != NULL;
        if (!sealed_kind)
            continue;
        if (id == NULL || strlen(id) >= sizeof decision)
            return verify_fail(report, seq, "event %lld names no decision", seq);
        if (decision[0] == '\0')
            snprintf(decision, sizeof decision, "%s", id);
        if (strcmp(decision, id) != 0)
            return verify_fail(report, seq,
                        "event %lld belongs to decision %s while %s is open",
                        seq, id, decision);
        if (strcmp(kind, "decided") != 0 &&
            (seat < 0 || seat >= MAX_DECISION_SEATS))
            return verify_fail(report, seq, "event %lld has no valid seat", seq);
        if (stand_in != NULL) {
            if (!seats[seat].committed || seats[seat].revealed)
                return verify_fail(report, seq,
                            "event %lld voids a commitment seat %lld did not "
                            "make (or revealed already)",
                            seq, (long long)seat);
            /* Voided at a reveal: the refused choice must open the
             * commitment, or a seat could void a choice it never made. */
            if (voided && !opens_commitment(event, id, (int)seat,
                                            seats[seat].commitment))
                return verify_fail(report, seq,
                            "event %lld: seat %lld's refused choice and nonce "
                            "do not match its commitment",
                            seq, (long long)seat);
            if (voided)
                report->commitments++;
            seats[seat].revealed = true;
            seats[seat].action = (json_t *)stand_in;
        } else if (strcmp(kind, "committed") == 0) {
            if (seats[seat].committed)
                return verify_fail(report, seq, "seat %lld committed twice to %s",
                            (long long)seat, id);
            if (!hex_bytes(data_string(event, "commitment"),
                           seats[seat].commitment, SEAL_HASH_BYTES))
                return verify_fail(report, seq, "event %lld has no valid commitment",
                            seq);
            seats[seat].committed = true;
        } else if (strcmp(kind, "revealed") == 0) {
            uint8_t nonce[SEAL_NONCE_BYTES];
            json_t *action = json_object_get(json_object_get(event, "data"),
                                             "action");
            if (!seats[seat].committed || seats[seat].revealed)
                return verify_fail(report, seq,
                            "event %lld reveals a choice seat %lld did not "
                            "commit to (or revealed already)",
                            seq, (long long)seat);
            if (!hex_bytes(data_string(event, "nonce"), nonce, sizeof nonce) ||
                action == NULL)
                return verify_fail(report, seq, "event %lld has no nonce or choice",
                            seq);
            if (!opens_commitment(event, id, (int)seat,
                                  seats[seat].commitment))
                return verify_fail(report, seq,
                            "event %lld: seat %lld's revealed choice and nonce "
                            "do not match its commitment",
                            seq, (long long)seat);
            seats[seat].revealed = true;
            seats[seat].action = action;
            report->commitments++;
        } else {
            const json_t *choices = json_object_get(json_object_get(event, "data"),
                                                    "choices");
            size_t k;
            const json_t *choice;
            int count = 0;
            json_array_foreach(choices, k, choice) {
                json_int_t s = json_integer_value(json_object_get(choice, "seat"));
                if (s < 0 || s >= MAX_DECISION_SEATS || !seats[s].revealed ||
                    !json_equal(seats[s].action,
                                json_object_get(choice, "action")))
                    return verify_fail(report, seq,
                                "event %lld applies a choice for seat %lld "
                                "that is not the one revealed",
                                seq, (long long)s);
                count++;
            }
            for (int s = 0; s < MAX_DECISION_SEATS; s++) {
                if (seats[s].committed && !seats[s].revealed)
                    return verify_fail(report, seq,
                                "event %lld decides %s before seat %d revealed",
                                seq, id, s);
                if (seats[s].committed)
                    count--;
            }
            if (count != 0)
                return verify_fail(report, seq,
                            "event %lld's choices are not the committed seats'",
                            seq);
            memset(seats, 0, sizeof seats);
            decision[0] = '\0';
        }
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
    if (!report->ok)
        json_object_set_new(out, "first_bad",
                            json_pack("{s:I,s:s}", "seq",
                                      (json_int_t)report->bad_seq, "reason",
                                      report->reason));
    return out;
}
