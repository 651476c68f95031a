/* import.c */
#include "admin/import.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/admin.h"
#include "core/clock.h"
#include "store/db.h"
#include "store/db_params.h"
#include "deadlines/deadline_settings.h"
#include "admin/export.h"
#include "ledger/export_check.h"
#include "core/log.h"
#include "play/append.h"
#include "play/players.h"
#include "play/matchstate.h"
#include "ledger/replay.h"
#include "store/delegate_grants.h"
#include "store/sealed_choices.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/players.h"
#include "store/store.h"

/* One match on its way in. */
typedef struct incoming {
    const export_match *from;
    store_match match; /* options borrowed from the header */
    long long original_id;
    const rules_engine *engine; /* NULL unless the match is active */
    rules_state *state;         /* the state at the head, when active */
    json_t *imported_event;     /* with new_id */
} incoming;

static const char *str(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

static long long parse_player(const char *text)
{
    if (text == NULL || strncmp(text, "p_", 2) != 0 || text[2] == '\0')
        return 0;
    char *end = NULL;
    long long value = strtoll(text + 2, &end, 10);
    return *end == '\0' && value > 0 ? value : 0;
}

static bool known_status(const char *status)
{
    return status != NULL &&
           (strcmp(status, "open") == 0 || strcmp(status, "active") == 0 ||
            strcmp(status, "finished") == 0 || strcmp(status, "aborted") == 0);
}

/* The match row an export describes. */
static bool header_match(const export_match *m, store_match *match, apierr *err)
{
    const json_t *header = m->header;
    memset(match, 0, sizeof *match);
    const char *ref = str(header, "match");
    match->match_id = store_parse_match_ref(ref);
    const char *game = str(header, "game");
    const char *status = str(header, "status");
    const char *sealed = str(header, "sealed_seed");
    size_t sealed_len = 0;
    match->created_by = parse_player(str(
        json_object_get(json_array_get(m->events, 0), "data"), "created_by"));
    json_int_t seats =
        json_integer_value(json_object_get(header, "seat_count"));
    if (match->match_id <= 0 || game == NULL ||
        strlen(game) >= sizeof match->game || !known_status(status) ||
        seats < 1 || seats > STORE_MAX_SEATS || match->created_by <= 0 ||
        sodium_base642bin(match->sealed_seed, sizeof match->sealed_seed, sealed,
                          strlen(sealed), NULL, &sealed_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        sealed_len != sizeof match->sealed_seed)
        return apierr_set(err, 422, "bad_export",
                          "the header of %s has a bad match id, game, status, "
                          "seat_count, sealed_seed or creator",
                          ref ? ref : "(no match)");
    snprintf(match->game, sizeof match->game, "%s", game);
    snprintf(match->status, sizeof match->status, "%s", status);
    match->engine_version =
        (int)json_integer_value(json_object_get(header, "engine_version"));
    match->seat_count = (int)seats;
    match->options = json_object_get(header, "options");
    if (!json_is_object(match->options))
        return apierr_set(err, 422, "bad_export",
                          "the header of %s has no options object", ref);
    const json_t *last =
        json_array_get(m->events, json_array_size(m->events) - 1);
    match->head_seq = (long long)json_array_size(m->events);
    size_t got = 0;
    const char *hash = str(last, "hash");
    if (sodium_hex2bin(match->head_hash, STORE_HASH_BYTES, hash, strlen(hash),
                       NULL, &got, NULL) != 0 ||
        got != STORE_HASH_BYTES)
        return apierr_set(err, 422, "bad_export", "bad last hash");
    /* Seats as they are now: as joined, then as admins replaced them (a
     * rewind does not undo a replacement). */
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(header, "seats"), i, entry) {
        json_int_t seat = json_integer_value(json_object_get(entry, "seat"));
        if (seat >= 0 && seat < match->seat_count)
            match->seat_player[seat] = parse_player(str(entry, "player"));
    }
    json_array_foreach(m->events, i, entry) {
        const char *kind = str(entry, "kind");
        json_int_t seat = json_integer_value(json_object_get(entry, "seat"));
        if (kind != NULL && strcmp(kind, "seat_replaced") == 0 && seat >= 0 &&
            seat < match->seat_count)
            match->seat_player[seat] =
                parse_player(str(json_object_get(entry, "data"), "player"));
    }
    /* The service never seats one player twice (the seats table refuses
     * it), so such an export was edited by hand. */
    for (int s = 0; s < match->seat_count; s++) {
        for (int t = s + 1; t < match->seat_count; t++) {
            if (match->seat_player[s] != 0 &&
                match->seat_player[s] == match->seat_player[t]) {
                char player[32];
                store_player_ref(match->seat_player[s], player);
                return apierr_set(err, 422, "bad_export",
                                  "%s seats player %s twice (seats %d and "
                                  "%d); a player holds at most one seat in a "
                                  "match",
                                  ref, player, s, t);
            }
        }
    }
    return true;
}

static bool import_player(PGconn *conn, const json_t *entry, apierr *err)
{
    long long player = parse_player(str(entry, "player"));
    const char *name = str(entry, "name");
    const char *key_id = str(entry, "key_id");
    const char *key_b64 = str(entry, "public_key");
    uint8_t key[32];
    size_t key_len = 0;
    /* An email-only player has neither key nor key id. */
    bool email_only = json_is_null(json_object_get(entry, "public_key")) &&
                      json_is_null(json_object_get(entry, "key_id"));
    if (player <= 0 || name == NULL ||
        (!email_only &&
         (key_id == NULL || key_b64 == NULL ||
          sodium_base642bin(key, sizeof key, key_b64, strlen(key_b64), "\n",
                            &key_len, NULL,
                            sodium_base64_VARIANT_ORIGINAL) != 0 ||
          key_len != sizeof key)))
        return apierr_set(err, 422, "bad_export",
                          "a player entry of the header is malformed");
    /* An edited export is checked like a registration: its email ends up
     * in mail headers. */
    apierr field_err;
    if (!players_fields_ok(json_object_get(entry, "name"),
                                  json_object_get(entry, "email"), &field_err))
        return apierr_set(err, 422, "bad_export", "player %s: %s",
                          str(entry, "player"), field_err.message);
    return store_import_player(conn, player, name, str(entry, "email"),
                               email_only ? NULL : key, key_id, err);
}

/* A grant entry of the header as a grant row; false when malformed. */
static bool grant_of(const json_t *entry, store_grant *grant)
{
    memset(grant, 0, sizeof *grant);
    grant->delegate_id = store_parse_grant_ref(str(entry, "delegate"));
    grant->player_id = parse_player(str(entry, "player"));
    const char *key_id = str(entry, "key_id");
    const char *key_b64 = str(entry, "public_key");
    size_t key_len = 0;
    if (grant->delegate_id == 0 || grant->player_id <= 0 || key_id == NULL ||
        strlen(key_id) >= sizeof grant->key_id || key_b64 == NULL ||
        sodium_base642bin(grant->public_key, 32, key_b64, strlen(key_b64),
                          NULL, &key_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len != 32 || !players_name_ok(json_object_get(entry, "name")) ||
        !clock_parse(str(entry, "expires"), false, &grant->expires))
        return false;
    snprintf(grant->key_id, sizeof grant->key_id, "%s", key_id);
    snprintf(grant->name, sizeof grant->name, "%s", str(entry, "name"));
    size_t i;
    const json_t *item;
    json_array_foreach(json_object_get(entry, "scope"), i, item) {
        const char *w = json_string_value(item);
        grant->scope |= w == NULL                ? 0
                        : strcmp(w, "view") == 0 ? STORE_GRANT_VIEW
                        : strcmp(w, "move") == 0 ? STORE_GRANT_MOVE
                        : strcmp(w, "join") == 0 ? STORE_GRANT_JOIN
                                                 : 0;
    }
    const json_t *matches = json_object_get(entry, "matches");
    grant->all_matches = json_is_string(matches) &&
                         strcmp(json_string_value(matches), "all") == 0;
    json_array_foreach(matches, i, item) {
        long long id = store_parse_match_ref(json_string_value(item));
        if (id == 0 || grant->match_count >= STORE_GRANT_MATCHES_MAX)
            return false;
        grant->match_ids[grant->match_count++] = id;
    }
    const char *revoked = str(entry, "revoked");
    if (revoked != NULL && !clock_parse(revoked, false, &grant->revoked))
        return false;
    grant->created = clock_now();
    return grant->scope != 0 &&
           (grant->all_matches || grant->match_count > 0) &&
           json_is_object(json_object_get(entry, "request"));
}

/* The grants bots' keys acted under, with the players' signed requests,
 * so that an export of the restored match carries them again. */
static bool import_grants(PGconn *conn, const json_t *entries, apierr *err)
{
    size_t i;
    const json_t *entry;
    json_array_foreach(entries, i, entry) {
        store_grant grant;
        if (!grant_of(entry, &grant))
            return apierr_set(err, 422, "bad_export",
                              "delegate entry %zu of the header is "
                              "malformed",
                              i + 1);
        char *request = json_dumps(json_object_get(entry, "request"),
                                   JSON_COMPACT | JSON_SORT_KEYS);
        if (request == NULL)
            abort();
        int stored = store_grant_import(conn, &grant, request, err);
        free(request);
        if (stored < 0)
            return false;
        if (stored == 0)
            return apierr_set(err, 409, "delegate_conflict",
                              "grant %s of the export is another grant "
                              "here: this installation gave that id to "
                              "another player's or another key's grant",
                              str(entry, "delegate"));
    }
    return true;
}

static bool import_choices(PGconn *conn, long long match_id, const json_t *rows,
                           apierr *err)
{
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row) {
        char commitment[80];
        snprintf(commitment, sizeof commitment, "%s", str(row, "commitment"));
        if (!sealed_choices_import(
                conn, match_id, str(row, "decision"),
                (long long)json_integer_value(json_object_get(row, "seat")),
                str(row, "mode"), commitment, str(row, "sealed"),
                json_is_true(json_object_get(row, "revealed")), err))
            return false;
    }
    return true;
}

/* The `imported` event of a copy: where it came from and who asked. */
static json_t *imported_event(const caller *who, const char *from)
{
    json_t *request = json_deep_copy(who->signature);
    /* The body is the whole export: its digest stays, the bytes do not. */
    json_object_del(request, "body");
    const char *admin_key = admin_public_key();
    return json_pack("{s:s,s:{s:s,s:s,s:s,s:o}}", "kind", "imported", "data",
                     "from", from, "by", "admin", "admin_key",
                     admin_key ? admin_key : "", "request", request);
}

/* A fresh id, the seed re-sealed for it. */
static bool take_new_id(incoming *in, apierr *err)
{
    uint8_t seed[SEAL_SEED_BYTES];
    if (!seal_decrypt(in->original_id, in->match.sealed_seed,
                      sizeof in->match.sealed_seed, seed))
        return apierr_set(err, 422, "sealed_seed",
                          "the sealed seed of m_%lld cannot be opened with "
                          "this service's key file: import it on a server "
                          "with the key of the one that exported it",
                          in->original_id);
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    in->match.match_id = (long long)(random_id >> 1) | 1;
    seal_encrypt(in->match.match_id, seed, sizeof seed, in->match.sealed_seed);
    sodium_memzero(seed, sizeof seed);
    return true;
}

static const char *event_time(const json_t *events, size_t index)
{
    return str(json_array_get(events, index), "at");
}

/* Checks what the pure export check cannot: that this server can continue
 * the match (an active one replays from its sealed seed). */
static bool prepare(incoming *in, const caller *who, bool new_id, apierr *err)
{
    const export_match *m = in->from;
    if (!header_match(m, &in->match, err))
        return false;
    in->original_id = in->match.match_id;
    size_t n = json_array_size(m->events);
    for (size_t i = 0; i < n; i++) {
        if (!export_valid_time(event_time(m->events, i)))
            return apierr_set(err, 422, "export_rejected",
                              "m_%lld: event %zu has no RFC 3339 time \"at\"",
                              in->original_id, i + 1);
    }
    bool *counts = calloc(n + 1, sizeof *counts);
    if (counts == NULL)
        abort();
    replay_error rerr = {0};
    char decision[64];
    bool deciding = replay_history(m->events, counts, &rerr) &&
                    replay_open_decision(m->events, counts, decision) != 0;
    free(counts);
    if (new_id && deciding)
        return apierr_set(
            err, 409, "in_decision",
            "m_%lld is in the middle of sealed decision %s, whose "
            "commitments are bound to its id: import it under "
            "its own id, or rewind it to before the decision",
            in->original_id, decision);
    if (new_id) {
        char from[32];
        store_match_ref(in->original_id, from);
        if (!take_new_id(in, err))
            return false;
        in->imported_event = imported_event(who, from);
    } else if (strcmp(in->match.status, "open") == 0) {
        uint8_t seed[SEAL_SEED_BYTES];
        bool opened = seal_decrypt(in->match.match_id, in->match.sealed_seed,
                                   sizeof in->match.sealed_seed, seed);
        sodium_memzero(seed, sizeof seed);
        if (!opened)
            return apierr_set(err, 422, "sealed_seed",
                              "the sealed seed of m_%lld cannot be opened "
                              "with this service's key file: import it on a "
                              "server with the key of the one that exported "
                              "it",
                              in->original_id);
    }
    if (strcmp(in->match.status, "active") != 0)
        return true;
    in->engine = matchstate_engine(&in->match, err);
    if (in->engine == NULL)
        return false;
    apierr replay_err;
    in->state = matchstate_from_log(&in->match, in->engine, m->events,
                                    (long long)n, true, &replay_err);
    if (in->state == NULL)
        return apierr_set(err,
                          replay_err.status == 500 ? 422 : replay_err.status,
                          "export_rejected", "m_%lld: %s", in->original_id,
                          replay_err.message);
    return true;
}

static bool store_one(PGconn *conn, incoming *in, apierr *err)
{
    const export_match *m = in->from;
    const json_t *header = m->header;
    size_t i;
    const json_t *entry;
    json_array_foreach(json_object_get(header, "seats"), i, entry) {
        if (!import_player(conn, entry, err))
            return false;
    }
    json_array_foreach(json_object_get(header, "replacements"), i, entry) {
        if (!import_player(conn, entry, err))
            return false;
    }
    if (!import_grants(conn, json_object_get(header, "delegates"), err))
        return false;
    size_t n = json_array_size(m->events);
    if (!store_import_match(conn, &in->match, event_time(m->events, 0),
                            event_time(m->events, n - 1), err))
        return false;
    for (int s = 0; s < in->match.seat_count; s++) {
        if (in->match.seat_player[s] != 0 &&
            !store_insert_seat(conn, in->match.match_id, s,
                               in->match.seat_player[s], err))
            return false;
    }
    if (!store_import_events(conn, in->match.match_id, m->events, err) ||
        !import_choices(conn, in->match.match_id,
                        json_object_get(header, "sealed_choices"), err))
        return false;
    /* Deadlines, as the created event recorded them; the clocks of whoever
     * must act start afresh at the restore (the append below). */
    deadline_settings deadline;
    if (!deadline_settings_parse(
            json_object_get(json_object_get(json_array_get(m->events, 0),
                                            "data"),
                            "deadline"),
            &deadline, err) ||
        (deadline.enabled &&
         !deadline_settings_save(conn, in->match.match_id, &deadline, err)))
        return false;
    /* Play resumes at the head: a snapshot there, and whoever must act is
     * told (not the seats that have sealed their choice already). */
    uint32_t committed = 0;
    if (in->state != NULL) {
        rules_pending pending;
        in->engine->pending(in->state, &pending);
        if (pending.wait == RULES_WAIT_SIMULTANEOUS)
            committed = sealed_choices_committed(conn, in->match.match_id,
                                                 pending.decision);
    }
    append_change change = {.events = &in->imported_event,
                            .count = in->imported_event != NULL ? 1 : 0,
                            .state = in->state,
                            .tell = APPEND_TELL_SEATS,
                            .seats = ~committed,
                            .snapshot_now = true};
    return append_events(conn, &in->match, in->engine, &change, NULL, err);
}

/* Every player the matches name, locked so that concurrent imports of the
 * same players see each other's. */
static bool lock_players(PGconn *conn, const incoming *in, int count,
                         apierr *err)
{
    size_t cap = 16, n = 0;
    long long *ids = malloc(cap * sizeof *ids);
    if (ids == NULL)
        abort();
    for (int i = 0; i < count; i++) {
        static const char *const lists[] = {"seats", "replacements"};
        for (int l = 0; l < 2; l++) {
            size_t k;
            const json_t *entry;
            const json_t *list =
                json_object_get(in[i].from->header, lists[l]);
            json_array_foreach(list, k, entry) {
                if (n == cap) {
                    long long *grown = realloc(ids, (cap *= 2) * sizeof *ids);
                    if (grown == NULL)
                        abort();
                    ids = grown;
                }
                ids[n++] = parse_player(str(entry, "player"));
            }
        }
    }
    bool ok = store_lock_players(conn, ids, (int)n, err);
    free(ids);
    return ok;
}

static json_t *answer_entry(const incoming *in)
{
    char ref[32];
    store_match_ref(in->match.match_id, ref);
    json_t *entry = json_pack("{s:s,s:I}", "match", ref, "events",
                              (json_int_t)in->match.head_seq);
    if (in->imported_event != NULL) {
        char from[32];
        store_match_ref(in->original_id, from);
        json_object_set_new(entry, "from", json_string(from));
    }
    return entry;
}

static void incoming_free(incoming *in)
{
    if (in->state != NULL)
        in->engine->destroy(in->state);
    json_decref(in->imported_event);
}

/* The export check and the preparation of one match: no database, so
 * matches can be checked side by side. */
static bool check_one(incoming *in, const caller *who, bool new_id,
                      apierr *err)
{
    verify_report report;
    export_check(in->from, &report);
    if (report.ok)
        return prepare(in, who, new_id, err);
    const char *ref = str(in->from->header, "match");
    return apierr_set(err, 422, "export_rejected", "%s: event %lld: %s",
                      ref ? ref : "(header)", report.bad_seq, report.reason);
}

/* Matches checked side by side on every core: each thread takes the next
 * unchecked match. The answer names the first bad match in the export's
 * order, as a check one by one would; matches after it are not checked. */
typedef struct checking {
    incoming *in;
    int count;
    const caller *who;
    bool new_id;
    int next;      /* the next match to take (atomic) */
    int first_bad; /* the first failed match so far, count: none (atomic) */
    apierr *errs;  /* one per match */
} checking;

static void *check_some(void *arg)
{
    checking *c = arg;
    for (;;) {
        int i = __atomic_fetch_add(&c->next, 1, __ATOMIC_RELAXED);
        if (i >= c->count || i > __atomic_load_n(&c->first_bad, __ATOMIC_ACQUIRE))
            return NULL;
        if (check_one(&c->in[i], c->who, c->new_id, &c->errs[i]))
            continue;
        int bad = __atomic_load_n(&c->first_bad, __ATOMIC_ACQUIRE);
        while (i < bad && !__atomic_compare_exchange_n(
                              &c->first_bad, &bad, i, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE))
            ;
    }
}

static bool check_all(incoming *in, int count, const caller *who,
                      bool new_id, apierr *err)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 16 ? 16 : (int)cores;
    if (threads > count)
        threads = count;
    checking c = {.in = in, .count = count, .who = who, .new_id = new_id,
                  .first_bad = count,
                  .errs = calloc((size_t)count, sizeof(apierr))};
    if (c.errs == NULL)
        abort();
    pthread_t helpers[16];
    int started = 0;
    while (started < threads - 1 &&
           pthread_create(&helpers[started], NULL, check_some, &c) == 0)
        started++;
    check_some(&c);
    for (int i = 0; i < started; i++)
        pthread_join(helpers[i], NULL);
    bool ok = c.first_bad == count;
    if (!ok)
        *err = c.errs[c.first_bad];
    free(c.errs);
    return ok;
}

json_t *import_matches(const caller *who, const char *text, size_t len,
                       bool new_id, apierr *err)
{
    export_match *matches = NULL;
    verify_report report;
    int count = text ? export_parse(text, len, &matches, &report) : 0;
    if (count < 0)
        return apierr_set(err, 400, "bad_export", "%s", report.reason), NULL;
    if (count == 0)
        return apierr_set(err, 400, "bad_export",
                          "the body holds no export header line"),
               NULL;
    incoming *in = calloc((size_t)count, sizeof *in);
    if (in == NULL)
        abort();
    for (int i = 0; i < count; i++)
        in[i].from = &matches[i];
    bool ok = check_all(in, count, who, new_id, err);
    PGconn *conn = ok ? db_conn(err) : NULL;
    ok = conn != NULL && store_begin(conn, err);
    if (ok && !lock_players(conn, in, count, err)) {
        store_rollback(conn);
        ok = false;
        conn = NULL;
    }
    json_t *imported = json_array();
    long long events = 0;
    for (int i = 0; ok && i < count; i++) {
        ok = store_one(conn, &in[i], err);
        if (ok) {
            json_array_append_new(imported, answer_entry(&in[i]));
            events += in[i].match.head_seq;
        }
    }
    json_t *answer = json_pack("{s:o}", "imported", imported);
    if (ok) {
        answer = append_commit(conn, who, NULL, 201, answer, err);
        ok = answer != NULL;
    } else if (conn != NULL) {
        store_rollback(conn);
    }
    if (ok) {
        for (int i = 0; i < count; i++) {
            if (in[i].state != NULL)
                matchstate_remember(in[i].engine, in[i].match.match_id,
                                    in[i].match.head_seq, in[i].state);
        }
        log_info("imported %d match(es), %lld events, from an export%s", count,
                 events, new_id ? " under new ids" : "");
    } else {
        json_decref(answer);
        answer = NULL;
    }
    for (int i = 0; i < count; i++)
        incoming_free(&in[i]);
    free(in);
    export_matches_free(matches, count);
    return answer;
}
