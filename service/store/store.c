/* store.c: SQL for matches, events, snapshots, nonces, players, outbox. */
#include "store/store.h"

#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "ledger/canonical.h"
#include "store/db.h"
#include "store/db_params.h"
#include "rules.h"

/* bytea travels as text in the '\x<hex>' form. */
static void bytea_param(const uint8_t *bytes, size_t len, char *out)
{
    out[0] = '\\';
    out[1] = 'x';
    sodium_bin2hex(out + 2, 2 * len + 1, bytes, len);
}

static bool bytea_value(const char *text, uint8_t *out, size_t len)
{
    size_t got = 0;
    if (strncmp(text, "\\x", 2) != 0)
        return false;
    if (sodium_hex2bin(out, len, text + 2, strlen(text + 2), NULL, &got,
                       NULL) != 0)
        return false;
    return got == len;
}

bool store_begin(PGconn *conn, apierr *err)
{
    return db_begin(conn, err);
}

bool store_begin_shared(PGconn *conn, long long match_id, apierr *err)
{
    return db_begin_shared(conn, match_id, err);
}

bool store_commit(PGconn *conn, apierr *err)
{
    return db_command(conn, "COMMIT", 0, NULL, err);
}

void store_rollback(PGconn *conn)
{
    db_rollback(conn);
}

void store_match_ref(long long match_id, char out[32])
{
    snprintf(out, 32, "m_%lld", match_id);
}

void store_player_ref(long long player_id, char out[32])
{
    snprintf(out, 32, "p_%lld", player_id);
}

/* The id after prefix ("m_", "p_"): decimal digits without a leading
 * zero, sign or space, that fit a bigint; 0 otherwise, so each id has one
 * spelling. */
static long long parse_ref(const char *text, const char *prefix)
{
    size_t skip = strlen(prefix);
    if (text == NULL || strncmp(text, prefix, skip) != 0)
        return 0;
    const char *digits = text + skip;
    size_t n = strlen(digits);
    if (n == 0 || n > 19 || digits[0] < '1' || digits[0] > '9' ||
        strspn(digits, "0123456789") != n)
        return 0;
    errno = 0;
    long long id = strtoll(digits, NULL, 10);
    return errno == ERANGE ? 0 : id;
}

long long store_parse_match_ref(const char *text)
{
    return parse_ref(text, "m_");
}

long long store_parse_player_ref(const char *text)
{
    return parse_ref(text, "p_");
}

bool store_insert_match(PGconn *conn, const store_match *match, apierr *err)
{
    char zero_hash[2 * STORE_HASH_BYTES + 3];
    char sealed[2 * sizeof match->sealed_seed + 3];
    uint8_t zeros[STORE_HASH_BYTES] = {0};
    bytea_param(zeros, sizeof zeros, zero_hash);
    bytea_param(match->sealed_seed, sizeof match->sealed_seed, sealed);
    char *options = rules_sorted_json(match->options);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_text(&p, match->game);
    db_params_int(&p, match->engine_version);
    db_params_text(&p, options);
    db_params_int(&p, match->seat_count);
    db_params_text(&p, zero_hash);
    db_params_text(&p, sealed);
    db_params_int(&p, match->created_by);
    bool ok = db_command(conn,
                         "INSERT INTO matches (match_id, game, engine_version,"
                         " options, seat_count, status, head_seq, head_hash,"
                         " sealed_seed, created_by) VALUES ($1, $2, $3, $4,"
                         " $5, 'open', 0, $6, $7, $8)",
                         p.count, p.values, err);
    free(options);
    return ok;
}

static unsigned long reachability_changes;

static long long monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void store_reachability_changed(void)
{
    __atomic_add_fetch(&reachability_changes, 1, __ATOMIC_SEQ_CST);
}

/* Notes when a reading of who can be notified starts: a change counted
 * after this moment makes it out of date, even one made while it runs. */
static void reachability_read_starts(store_match *match)
{
    match->reachability_changes =
        __atomic_load_n(&reachability_changes, __ATOMIC_SEQ_CST);
    match->reachability_read_ms = monotonic_ms();
}

/* Notes whose reachability was read (after the seats are known). */
static void reachability_read_for_seats(store_match *match)
{
    memcpy(match->reachability_seat_player, match->seat_player,
           sizeof match->seat_player);
}

bool store_reachability_current(const store_match *match, long long max_age_ms)
{
    return !match->reachability_unknown &&
           match->reachability_changes ==
               __atomic_load_n(&reachability_changes, __ATOMIC_SEQ_CST) &&
           monotonic_ms() - match->reachability_read_ms < max_age_ms &&
           memcmp(match->reachability_seat_player, match->seat_player,
                  sizeof match->seat_player) == 0;
}

bool store_load_match(PGconn *conn, long long match_id, store_match *match,
                      apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    memset(match, 0, sizeof *match);
    reachability_read_starts(match);
    /* One round trip: the match row with its seats as a JSON array. */
    PGresult *result = db_query(
        conn,
        "SELECT m.game, m.engine_version, m.options::text, m.seat_count,"
        " m.status, m.head_seq, m.head_hash, m.sealed_seed, m.created_by,"
        " (SELECT json_agg(json_build_array(s.seat, s.player_id, p.name,"
        "                      p.email IS NOT NULL AND coalesce(ns.email, true),"
        "                      coalesce(ns.webhooks, true) AND"
        "                      EXISTS (SELECT 1 FROM webhooks w"
        "                               WHERE w.player_id = p.player_id"
        "                                 AND w.match_id IS NULL"
        "                                 AND w.disabled_at IS NULL)"
        "                      OR EXISTS (SELECT 1 FROM player_stream_heads h"
        "                                  WHERE h.player_id = p.player_id))"
        "                  ORDER BY s.seat)"
        "    FROM seats s JOIN players p USING (player_id)"
        "    LEFT JOIN notification_settings ns USING (player_id)"
        "   WHERE s.match_id = m.match_id)::text,"
        " EXISTS (SELECT 1 FROM webhooks w WHERE w.match_id = m.match_id"
        "                                    AND w.disabled_at IS NULL)"
        " FROM matches m WHERE m.match_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    if (PQntuples(result) == 0) {
        PQclear(result);
        char ref[32];
        store_match_ref(match_id, ref);
        return apierr_set(err, 404, "no_such_match", "there is no match %s",
                          ref);
    }
    match->match_id = match_id;
    snprintf(match->game, sizeof match->game, "%s", PQgetvalue(result, 0, 0));
    match->engine_version = atoi(PQgetvalue(result, 0, 1));
    match->options = json_loads(PQgetvalue(result, 0, 2), 0, NULL);
    match->seat_count = atoi(PQgetvalue(result, 0, 3));
    snprintf(match->status, sizeof match->status, "%s",
             PQgetvalue(result, 0, 4));
    match->head_seq = atoll(PQgetvalue(result, 0, 5));
    bool ok = bytea_value(PQgetvalue(result, 0, 6), match->head_hash,
                          STORE_HASH_BYTES) &&
              bytea_value(PQgetvalue(result, 0, 7), match->sealed_seed,
                          sizeof match->sealed_seed);
    match->created_by = atoll(PQgetvalue(result, 0, 8));
    json_t *seats = PQgetisnull(result, 0, 9)
                        ? json_array()
                        : json_loads(PQgetvalue(result, 0, 9), 0, NULL);
    match->relay_webhooks = PQgetvalue(result, 0, 10)[0] == 't';
    PQclear(result);
    if (!ok || match->options == NULL || seats == NULL ||
        match->seat_count > STORE_MAX_SEATS) {
        json_decref(seats);
        return apierr_set(err, 500, "corrupt_match",
                          "match row %lld is malformed", match_id);
    }
    size_t i;
    json_t *seat_row;
    json_array_foreach(seats, i, seat_row) {
        json_int_t seat = json_integer_value(json_array_get(seat_row, 0));
        if (seat < 0 || seat >= match->seat_count)
            continue;
        match->seat_player[seat] =
            (long long)json_integer_value(json_array_get(seat_row, 1));
        snprintf(match->seat_name[seat], sizeof match->seat_name[seat], "%s",
                 json_string_value(json_array_get(seat_row, 2)));
        if (json_is_true(json_array_get(seat_row, 3)))
            match->seat_has_email |= 1u << seat;
        if (json_is_true(json_array_get(seat_row, 4)))
            match->seat_has_webhook |= 1u << seat;
    }
    json_decref(seats);
    reachability_read_for_seats(match);
    return true;
}

bool store_load_reachability(PGconn *conn, store_match *match, apierr *err)
{
    reachability_read_starts(match);
    reachability_read_for_seats(match);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    PGresult *result = db_query(
        conn,
        "SELECT s.seat, p.email IS NOT NULL AND coalesce(ns.email, true),"
        "       coalesce(ns.webhooks, true) AND"
        "       EXISTS (SELECT 1 FROM webhooks w"
        "                WHERE w.player_id = p.player_id"
        "                  AND w.match_id IS NULL AND w.disabled_at IS NULL)"
        "       OR EXISTS (SELECT 1 FROM player_stream_heads h"
        "                   WHERE h.player_id = p.player_id),"
        "       EXISTS (SELECT 1 FROM webhooks w WHERE w.match_id = s.match_id"
        "                  AND w.disabled_at IS NULL)"
        "  FROM seats s JOIN players p USING (player_id)"
        "  LEFT JOIN notification_settings ns USING (player_id)"
        " WHERE s.match_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    match->seat_has_email = match->seat_has_webhook = 0;
    match->relay_webhooks = false;
    match->reachability_unknown = false;
    for (int row = 0; row < PQntuples(result); row++) {
        int seat = atoi(PQgetvalue(result, row, 0));
        if (seat < 0 || seat >= STORE_MAX_SEATS)
            continue;
        if (PQgetvalue(result, row, 1)[0] == 't')
            match->seat_has_email |= 1u << seat;
        if (PQgetvalue(result, row, 2)[0] == 't')
            match->seat_has_webhook |= 1u << seat;
        match->relay_webhooks = PQgetvalue(result, row, 3)[0] == 't';
    }
    PQclear(result);
    return true;
}

void store_match_free(store_match *match)
{
    json_decref(match->options);
    match->options = NULL;
}

bool store_move_seat(PGconn *conn, long long match_id, int seat,
                     long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, player_id);
    if (db_command(conn,
                   "UPDATE seats SET player_id = $3, joined_at = now()"
                   " WHERE match_id = $1 AND seat = $2",
                   p.count, p.values, err))
        return true;
    if (strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "already_seated",
                          "that player already holds a seat in this match");
    return false;
}

bool store_insert_seat(PGconn *conn, long long match_id, int seat,
                       long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, player_id);
    if (db_command(conn,
                   "INSERT INTO seats (match_id, seat, player_id)"
                   " VALUES ($1, $2, $3)",
                   p.count, p.values, err))
        return true;
    if (strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "seat_taken",
                          "seat %d was just taken, or you already have a "
                          "seat in this match",
                          seat);
    return false;
}

/* An event's "at" is match time (clock.h), so deadlines and the log agree
 * even under a test clock. */
static void utc_now(char out[32])
{
    long long now = clock_now_us();
    time_t seconds = (time_t)(now / 1000000);
    struct tm tm;
    gmtime_r(&seconds, &tm);
    size_t n = strftime(out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(out + n, 32 - n, ".%06lldZ", now % 1000000);
}

bool store_load_head(PGconn *conn, long long match_id, long long *head,
                     int *engine_version, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *result = db_query(conn,
                                "SELECT head_seq, engine_version FROM matches"
                                " WHERE match_id = $1",
                                p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    bool found = PQntuples(result) > 0;
    *head = found ? atoll(PQgetvalue(result, 0, 0)) : 0;
    if (engine_version != NULL)
        *engine_version = found ? atoi(PQgetvalue(result, 0, 1)) : 0;
    PQclear(result);
    if (!found) {
        char ref[32];
        store_match_ref(match_id, ref);
        return apierr_set(err, 404, "no_such_match", "there is no match %s",
                          ref);
    }
    return true;
}

/* The text of a PostgreSQL array of count elements (text, bytea in its
 * '\x' form, or numbers; NULL is SQL NULL), each quoted and escaped, for a
 * text parameter cast to the array type. malloc'd. */
static char *array_literal(char *const *items, int count)
{
    size_t size = 3;
    for (int i = 0; i < count; i++)
        size += items[i] ? 2 * strlen(items[i]) + 3 : 5;
    char *text = malloc(size);
    if (text == NULL)
        abort();
    size_t at = 0;
    text[at++] = '{';
    for (int i = 0; i < count; i++) {
        if (i > 0)
            text[at++] = ',';
        if (items[i] == NULL) {
            memcpy(text + at, "NULL", 4);
            at += 4;
            continue;
        }
        text[at++] = '"';
        for (const char *c = items[i]; *c != '\0'; c++) {
            if (*c == '"' || *c == '\\')
                text[at++] = '\\';
            text[at++] = *c;
        }
        text[at++] = '"';
    }
    text[at++] = '}';
    text[at] = '\0';
    return text;
}

/* What a failed append means (db_explain): a writer that lost the race
 * learns the head it lost to, read after the rollback. facts: match id,
 * the head the writer expected. */
static void explain_append(PGconn *conn, const char *sqlstate,
                           const long long facts[2], apierr *err)
{
    if (strcmp(sqlstate, "23505") == 0) {
        apierr_set(err, 409, "stale_seq",
                   "another request appended event %lld first; reload "
                   "the match and try again",
                   facts[1] + 1);
        return;
    }
    if (strcmp(sqlstate, DB_STALE_HEAD) != 0)
        return;
    long long head = facts[1];
    if (!store_load_head(conn, facts[0], &head, NULL, err))
        return;
    apierr_set(err, 409, "stale_seq",
               "the match moved on to event %lld while this request "
               "expected %lld; reload the match and try again",
               head, facts[1]);
    err->head = head;
}

bool store_append(PGconn *conn, store_match *match, json_t *const *events,
                  int count, const char *new_status, apierr *err)
{
    char ref[32], at[32];
    store_match_ref(match->match_id, ref);
    utc_now(at);

    /* Per event: kind, seat, body, prev_hash, hash, as the function's
     * arrays take them. */
    char **columns[5];
    for (int c = 0; c < 5; c++) {
        columns[c] = calloc((size_t)count + 1, sizeof *columns[c]);
        if (columns[c] == NULL)
            abort();
    }
    char **kinds = columns[0], **seats = columns[1], **bodies = columns[2],
         **prevs = columns[3], **hashes = columns[4];
    uint8_t prev[STORE_HASH_BYTES], hash[STORE_HASH_BYTES];
    memcpy(prev, match->head_hash, sizeof prev);
    for (int i = 0; i < count; i++) {
        json_t *seat = json_object_get(events[i], "seat");
        json_t *event = json_pack(
            "{s:s,s:I,s:O,s:O,s:s,s:O}", "match", ref, "seq",
            (json_int_t)(match->head_seq + 1 + i), "kind",
            json_object_get(events[i], "kind"), "seat",
            seat ? seat : json_null(), "at", at, "data",
            json_object_get(events[i], "data"));
        bodies[i] = canonical_json(event);
        json_decref(event);
        chain_hash(prev, bodies[i], hash);
        /* No kind: SQL NULL, which the table refuses. */
        const char *kind =
            json_string_value(json_object_get(events[i], "kind"));
        kinds[i] = kind ? strdup(kind) : NULL;
        /* A seatless event (or a non-integer seat) stores SQL NULL. */
        if (json_is_integer(seat)) {
            seats[i] = malloc(24);
            if (seats[i] == NULL)
                abort();
            snprintf(seats[i], 24, "%lld", (long long)json_integer_value(seat));
        }
        prevs[i] = malloc(2 * STORE_HASH_BYTES + 3);
        hashes[i] = malloc(2 * STORE_HASH_BYTES + 3);
        if ((kind && kinds[i] == NULL) || prevs[i] == NULL ||
            hashes[i] == NULL)
            abort();
        bytea_param(prev, sizeof prev, prevs[i]);
        bytea_param(hash, sizeof hash, hashes[i]);
        memcpy(prev, hash, sizeof prev);
    }
    memcpy(hash, prev, sizeof hash);

    /* One statement: the guard (moving the head from exactly what we read
     * locks the match row; a writer that lost the race gets DB_STALE_HEAD)
     * and the events. Queued in a transaction: its failure comes with the
     * statement that next needs a result, the COMMIT at the latest. */
    char hash_text[2 * STORE_HASH_BYTES + 3];
    bytea_param(hash, sizeof hash, hash_text);
    char *arrays[5];
    for (int c = 0; c < 5; c++)
        arrays[c] = array_literal(columns[c], count);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_int(&p, match->head_seq);
    db_params_text(&p, hash_text);
    db_params_text(&p, new_status);
    for (int c = 0; c < 5; c++)
        db_params_text(&p, arrays[c]);
    const long long facts[2] = {match->match_id, match->head_seq};
    bool ok = db_queue(conn,
                       "SELECT append_match_events($1, $2, $3, $4, $5, $6,"
                       " $7, $8, $9)",
                       p.count, p.values, explain_append, facts, err);
    if (ok) {
        match->head_seq += count;
        memcpy(match->head_hash, hash, sizeof hash);
        if (new_status != NULL)
            snprintf(match->status, sizeof match->status, "%s", new_status);
    }
    for (int c = 0; c < 5; c++) {
        free(arrays[c]);
        for (int i = 0; i < count; i++)
            free(columns[c][i]);
        free(columns[c]);
    }
    return ok;
}

json_t *store_events_after(PGconn *conn, long long match_id, long long after,
                           int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, after);
    db_params_int(&p, limit);
    PGresult *result = db_query(
        conn,
        "SELECT body, encode(hash, 'hex'), encode(prev_hash, 'hex')"
        " FROM events WHERE match_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return NULL;
    json_t *list = json_array();
    for (int row = 0; row < PQntuples(result); row++) {
        json_t *event = json_loads(PQgetvalue(result, row, 0), 0, NULL);
        if (event == NULL)
            continue;
        json_object_set_new(event, "hash",
                            json_string(PQgetvalue(result, row, 1)));
        json_object_set_new(event, "prev_hash",
                            json_string(PQgetvalue(result, row, 2)));
        json_array_append_new(list, event);
    }
    PQclear(result);
    return list;
}

bool store_verify_chain(PGconn *conn, long long match_id, bool *ok,
                        long long *bad_seq, char *reason, size_t reason_size,
                        apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *result = db_query(
        conn,
        "SELECT e.seq, e.body, e.prev_hash, e.hash, m.head_seq, m.head_hash"
        " FROM matches m LEFT JOIN events e USING (match_id)"
        " WHERE m.match_id = $1 ORDER BY e.seq",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    uint8_t chain[STORE_HASH_BYTES] = {0};
    *ok = true;
    *bad_seq = 0;
    reason[0] = '\0';
    long long expected_seq = 1;
    int rows = PQntuples(result);
    for (int row = 0; *ok && row < rows; row++) {
        if (PQgetisnull(result, row, 0))
            break;
        long long seq = atoll(PQgetvalue(result, row, 0));
        uint8_t stored_prev[STORE_HASH_BYTES], stored[STORE_HASH_BYTES];
        uint8_t computed[STORE_HASH_BYTES];
        *bad_seq = seq;
        if (seq != expected_seq) {
            snprintf(reason, reason_size, "event %lld is missing", expected_seq);
            *bad_seq = expected_seq;
            *ok = false;
            break;
        }
        bytea_value(PQgetvalue(result, row, 2), stored_prev, sizeof stored_prev);
        bytea_value(PQgetvalue(result, row, 3), stored, sizeof stored);
        chain_hash(chain, PQgetvalue(result, row, 1), computed);
        if (sodium_memcmp(stored_prev, chain, sizeof chain) != 0) {
            snprintf(reason, reason_size,
                     "event %lld does not chain from event %lld", seq, seq - 1);
            *ok = false;
        } else if (sodium_memcmp(computed, stored, sizeof stored) != 0) {
            snprintf(reason, reason_size,
                     "event %lld's bytes do not match its hash", seq);
            *ok = false;
        }
        memcpy(chain, stored, sizeof chain);
        expected_seq++;
    }
    if (*ok && rows > 0) {
        uint8_t head_hash[STORE_HASH_BYTES];
        long long head = atoll(PQgetvalue(result, 0, 4));
        bytea_value(PQgetvalue(result, 0, 5), head_hash, sizeof head_hash);
        if (head != expected_seq - 1 ||
            sodium_memcmp(head_hash, chain, sizeof chain) != 0) {
            snprintf(reason, reason_size,
                     "the match head (%lld) does not match its last event", head);
            *bad_seq = head;
            *ok = false;
        }
    }
    if (*ok)
        *bad_seq = 0;
    PQclear(result);
    return true;
}

bool store_find_snapshot(PGconn *conn, long long match_id, long long max_seq,
                         int engine_version, long long *seq, char **state,
                         apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, max_seq);
    db_params_int(&p, engine_version);
    PGresult *result = db_query(
        conn,
        "SELECT seq, state FROM snapshots WHERE match_id = $1 AND seq <= $2"
        " AND engine_version = $3 ORDER BY seq DESC LIMIT 1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    *seq = 0;
    *state = NULL;
    if (PQntuples(result) > 0) {
        *seq = atoll(PQgetvalue(result, 0, 0));
        *state = strdup(PQgetvalue(result, 0, 1));
    }
    PQclear(result);
    return true;
}

bool store_save_snapshot(PGconn *conn, long long match_id, long long seq,
                         int engine_version, const char *state, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_int(&p, engine_version);
    db_params_text(&p, state);
    return db_command(conn,
                      "INSERT INTO snapshots (match_id, seq, engine_version,"
                      " state) VALUES ($1, $2, $3, $4)"
                      " ON CONFLICT (match_id, seq) DO NOTHING",
                      p.count, p.values, err);
}

int store_find_nonce(PGconn *conn, const char *key_id, const char *nonce,
                     const uint8_t digest[32], store_nonce *found_nonce,
                     apierr *err)
{
    const char *params[] = {key_id, nonce};
    PGresult *result = db_query(conn,
                                "SELECT request_digest, status, response,"
                                " coalesce(match_id, 0), coalesce(seq, 0)"
                                " FROM request_nonces"
                                " WHERE key_id = $1 AND nonce = $2",
                                2, params, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return -1;
    int found = 0;
    if (PQntuples(result) > 0) {
        uint8_t stored[32];
        found = 2;
        if (bytea_value(PQgetvalue(result, 0, 0), stored, sizeof stored) &&
            sodium_memcmp(stored, digest, sizeof stored) == 0) {
            found = 1;
            found_nonce->status = atoi(PQgetvalue(result, 0, 1));
            found_nonce->response = strdup(PQgetvalue(result, 0, 2));
            found_nonce->match_id = atoll(PQgetvalue(result, 0, 3));
            found_nonce->seq = atoll(PQgetvalue(result, 0, 4));
        }
    }
    PQclear(result);
    return found;
}

/* What a failed nonce insert means (db_explain). */
static void explain_nonce(PGconn *conn, const char *sqlstate,
                          const long long facts[2], apierr *err)
{
    (void)conn;
    (void)facts;
    if (strcmp(sqlstate, "23505") == 0)
        apierr_set(err, 409, "nonce_reused",
                   "this signature nonce was used a moment ago by a "
                   "concurrent request; sign again with a new nonce");
}

bool store_save_nonce(PGconn *conn, const char *key_id, const char *nonce,
                      const uint8_t digest[32], const store_nonce *answer,
                      apierr *err)
{
    char digest_text[2 * 32 + 3];
    bytea_param(digest, 32, digest_text);
    db_params p = {0};
    db_params_text(&p, key_id);
    db_params_text(&p, nonce);
    db_params_text(&p, digest_text);
    db_params_int(&p, answer->status);
    db_params_text(&p, answer->response);
    /* No match or no event yet: SQL NULL, not 0. */
    if (answer->match_id > 0)
        db_params_int(&p, answer->match_id);
    else
        db_params_text(&p, NULL);
    if (answer->seq > 0)
        db_params_int(&p, answer->seq);
    else
        db_params_text(&p, NULL);
    /* In a transaction (a use case's answer) it is queued, and a nonce
     * taken meanwhile shows at the COMMIT; alone (a refusal) it runs at
     * once. */
    return db_queue(conn,
                    "INSERT INTO request_nonces (key_id, nonce, request_digest,"
                    " status, response, match_id, seq)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    p.count, p.values, explain_nonce, NULL, err);
}

int store_prune_nonces(PGconn *conn, long long seconds, int limit,
                       apierr *err)
{
    db_params p = {0};
    db_params_int(&p, seconds);
    db_params_int(&p, limit);
    PGresult *result = db_query(
        conn,
        "DELETE FROM request_nonces WHERE (key_id, nonce) IN"
        " (SELECT key_id, nonce FROM request_nonces"
        "  WHERE created_at < now() - make_interval(secs => $1)"
        "  ORDER BY created_at LIMIT $2)",
        p.count, p.values, PGRES_COMMAND_OK, err);
    if (result == NULL)
        return -1;
    int deleted = atoi(PQcmdTuples(result));
    PQclear(result);
    return deleted;
}

void store_key_id(const uint8_t public_key[32], char key_id[40])
{
    uint8_t digest[8];
    crypto_generichash(digest, sizeof digest, public_key, 32, NULL, 0);
    char digest_hex[17];
    sodium_bin2hex(digest_hex, sizeof digest_hex, digest, sizeof digest);
    snprintf(key_id, 40, "k_%s", digest_hex);
}

bool store_create_player(PGconn *conn, const char *name, const char *email,
                         const uint8_t public_key[32], long long *player_id,
                         char key_id[40], apierr *err)
{
    if (public_key != NULL)
        store_key_id(public_key, key_id);
    else
        key_id[0] = '\0';
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    *player_id = (long long)(random_id >> 1);
    if (*player_id == 0)
        *player_id = 1;
    char key_text[2 * 32 + 3] = "";
    if (public_key != NULL)
        bytea_param(public_key, 32, key_text);
    db_params player = {0};
    db_params_int(&player, *player_id);
    db_params_text(&player, name);
    db_params_text(&player, email);
    db_params key = {0};
    db_params_text(&key, key_id);
    db_params_int(&key, *player_id);
    db_params_text(&key, key_text);
    bool ok = db_command(conn,
                         "INSERT INTO players (player_id, name, email)"
                         " VALUES ($1, $2, $3)",
                         player.count, player.values, err) &&
              (public_key == NULL ||
               db_command(conn,
                          "INSERT INTO player_keys (key_id, player_id,"
                          " public_key) VALUES ($1, $2, $3)",
                          key.count, key.values, err));
    if (!ok && strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "key_registered",
                          "this public key is already registered");
    return ok;
}

bool store_find_key(PGconn *conn, const char *key_id, uint8_t public_key[32],
                    long long *player_id, apierr *err)
{
    const char *params[] = {key_id};
    PGresult *result = db_query(conn,
                                "SELECT public_key, player_id FROM player_keys"
                                " WHERE key_id = $1 AND revoked_at IS NULL",
                                1, params, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    bool found = PQntuples(result) > 0 &&
                 bytea_value(PQgetvalue(result, 0, 0), public_key, 32);
    if (found)
        *player_id = atoll(PQgetvalue(result, 0, 1));
    PQclear(result);
    if (!found)
        return apierr_set(err, 401, "unknown_key",
                          "the signature's keyid is not a registered key");
    return true;
}

bool store_lock_players(PGconn *conn, const long long *ids, int count,
                        apierr *err)
{
    char *list = db_params_int_array(ids, count);
    db_params p = {0};
    db_params_text(&p, list);
    /* In id order, so two imports never wait on each other in a circle. */
    bool ok = db_command(conn,
                         "SELECT count(pg_advisory_xact_lock(hashtextextended("
                         "'pbem-player:' || id, 0)))"
                         " FROM (SELECT DISTINCT id FROM unnest($1::bigint[])"
                         "       id ORDER BY id) ids",
                         p.count, p.values, err);
    free(list);
    return ok;
}

bool store_import_player(PGconn *conn, long long player_id, const char *name,
                         const char *email, const uint8_t public_key[32],
                         const char *key_id, apierr *err)
{
    char key_text[2 * 32 + 3] = "";
    if (public_key != NULL)
        bytea_param(public_key, 32, key_text);
    db_params find = {0};
    db_params_int(&find, player_id);
    db_params_text(&find, public_key ? key_id : "");
    PGresult *result = db_query(
        conn,
        "SELECT (SELECT count(*) FROM players WHERE player_id = $1),"
        " (SELECT public_key FROM player_keys WHERE key_id = $2"
        "   AND player_id = $1)",
        find.count, find.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    bool present = atoi(PQgetvalue(result, 0, 0)) > 0;
    /* An email-only player is the same player when the id is. */
    bool same = public_key == NULL;
    if (public_key != NULL && !PQgetisnull(result, 0, 1)) {
        uint8_t stored[32];
        same = bytea_value(PQgetvalue(result, 0, 1), stored, sizeof stored) &&
               sodium_memcmp(stored, public_key, sizeof stored) == 0;
    }
    PQclear(result);
    char ref[32];
    store_player_ref(player_id, ref);
    if (present && same)
        return true;
    if (present)
        return apierr_set(err, 409, "player_conflict",
                          "player %s exists here with a different key", ref);
    db_params player = {0};
    db_params_int(&player, player_id);
    db_params_text(&player, name);
    db_params_text(&player, email);
    db_params key = {0};
    db_params_text(&key, key_id);
    db_params_int(&key, player_id);
    db_params_text(&key, key_text);
    if (db_command(conn,
                   "INSERT INTO players (player_id, name, email)"
                   " VALUES ($1, $2, $3)",
                   player.count, player.values, err) &&
        (public_key == NULL ||
         db_command(conn,
                    "INSERT INTO player_keys (key_id, player_id, public_key)"
                    " VALUES ($1, $2, $3)",
                    key.count, key.values, err)))
        return true;
    if (strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "player_conflict",
                          "the key of player %s is registered here to "
                          "another player",
                          ref);
    return false;
}

bool store_import_match(PGconn *conn, const store_match *match,
                        const char *created_at, const char *updated_at,
                        apierr *err)
{
    char head_hash[2 * STORE_HASH_BYTES + 3];
    char sealed[2 * sizeof match->sealed_seed + 3];
    bytea_param(match->head_hash, STORE_HASH_BYTES, head_hash);
    bytea_param(match->sealed_seed, sizeof match->sealed_seed, sealed);
    db_params exists = {0};
    db_params_int(&exists, match->match_id);
    PGresult *found = db_query(conn,
                               "SELECT 1 FROM matches WHERE match_id = $1",
                               exists.count, exists.values, PGRES_TUPLES_OK,
                               err);
    if (found == NULL)
        return false;
    bool present = PQntuples(found) > 0;
    PQclear(found);
    if (present) {
        char ref[32];
        store_match_ref(match->match_id, ref);
        return apierr_set(err, 409, "match_exists",
                          "match %s is already here (imported twice?)", ref);
    }
    char *options = rules_sorted_json(match->options);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_text(&p, match->game);
    db_params_int(&p, match->engine_version);
    db_params_text(&p, options);
    db_params_int(&p, match->seat_count);
    db_params_text(&p, match->status);
    db_params_int(&p, match->head_seq);
    db_params_text(&p, head_hash);
    db_params_text(&p, sealed);
    db_params_int(&p, match->created_by);
    db_params_text(&p, created_at);
    db_params_text(&p, updated_at);
    bool ok = db_command(conn,
                         "INSERT INTO matches (match_id, game, engine_version,"
                         " options, seat_count, status, head_seq, head_hash,"
                         " sealed_seed, created_by, created_at, updated_at)"
                         " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
                         " coalesce($11::timestamptz, now()),"
                         " coalesce($12::timestamptz, now()))",
                         p.count, p.values, err);
    free(options);
    if (!ok && strcmp(err->code, "database:23505") == 0) {
        char ref[32];
        store_match_ref(match->match_id, ref);
        return apierr_set(err, 409, "match_exists",
                          "match %s is already here (imported twice?)", ref);
    }
    return ok;
}

bool store_import_events(PGconn *conn, long long match_id, const json_t *events,
                         apierr *err)
{
    /* One statement per match: the rows travel as one JSON array. */
    json_t *rows = json_array();
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        json_t *body = json_copy((json_t *)event);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
        char *bytes = rules_sorted_json(body);
        json_decref(body);
        json_t *seat = json_object_get(event, "seat");
        json_array_append_new(
            rows, json_pack("[I,O,O,s,O,O]", (json_int_t)(i + 1),
                            json_object_get(event, "kind"),
                            json_is_integer(seat) ? seat : json_null(), bytes,
                            json_object_get(event, "prev_hash"),
                            json_object_get(event, "hash")));
        free(bytes);
    }
    char *text = json_dumps(rows, JSON_COMPACT);
    json_decref(rows);
    if (text == NULL)
        abort();
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, text);
    bool ok = db_command(conn,
                         "INSERT INTO events (match_id, seq, kind, seat, body,"
                         " prev_hash, hash, created_at)"
                         " SELECT $1::bigint, (r->>0)::bigint, r->>1,"
                         " (r->>2)::integer, r->>3, decode(r->>4, 'hex'),"
                         " decode(r->>5, 'hex'),"
                         " ((r->>3)::json->>'at')::timestamptz"
                         " FROM json_array_elements($2::json) r",
                         p.count, p.values, err);
    free(text);
    return ok;
}
