/* events.c: the hash-chained event log and its snapshots (events.h). */
#include "store/bytea.h"
#include "store/events.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "ledger/canonical.h"
#include "ledger/public_event.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"
#include "rules.h"

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
        bytea_write(prev, sizeof prev, prevs[i]);
        bytea_write(hash, sizeof hash, hashes[i]);
        memcpy(prev, hash, sizeof prev);
    }
    memcpy(hash, prev, sizeof hash);

    /* One statement: the guard (moving the head from exactly what we read
     * locks the match row; a writer that lost the race gets DB_STALE_HEAD)
     * and the events. Queued in a transaction: its failure comes with the
     * statement that next needs a result, the COMMIT at the latest. */
    char hash_text[2 * STORE_HASH_BYTES + 3];
    bytea_write(hash, sizeof hash, hash_text);
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
        /* Every reader of this list may show it to anyone: old events
         * that logged a sender's address give their public form. */
        public_event_withhold(event);
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
        bytea_read_exact(PQgetvalue(result, row, 2), stored_prev,
                          sizeof stored_prev);
        bytea_read_exact(PQgetvalue(result, row, 3), stored, sizeof stored);
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
        bytea_read_exact(PQgetvalue(result, 0, 5), head_hash,
                          sizeof head_hash);
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

PGresult *store_events_seatings(PGconn *conn, long long match_id,
                                long long head, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, head);
    return db_query(
        conn,
        "SELECT e.kind, e.seat, p.player_id, p.name, p.email,"
        " CASE WHEN e.kind = 'joined' THEN encode(k.public_key, 'base64')"
        "      ELSE e.body::json #>> '{data,public_key}' END,"
        " CASE WHEN e.kind = 'joined' THEN k.key_id"
        "      ELSE e.body::json #>> '{data,key_id}' END"
        " FROM events e"
        " JOIN players p ON p.player_id ="
        "   substr(e.body::json #>> '{data,player}', 3)::bigint"
        " LEFT JOIN LATERAL (SELECT key_id, public_key FROM player_keys"
        "   WHERE player_id = p.player_id ORDER BY created_at, key_id"
        "   LIMIT 1) k ON true"
        " WHERE e.match_id = $1 AND e.seq <= $2"
        "   AND e.kind IN ('joined', 'seat_replaced')"
        " ORDER BY e.seq",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_events_export_page(PGconn *conn, long long match_id,
                                   long long after, long long upto, int limit,
                                   apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, after);
    db_params_int(&p, upto);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT seq, body, encode(hash, 'hex'), encode(prev_hash, 'hex')"
        " FROM events WHERE match_id = $1 AND seq > $2 AND seq <= $3"
        " ORDER BY seq LIMIT $4::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_events_last_move(PGconn *conn, long long match_id, long long seq,
                            int *seat, char **text, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    PGresult *r = db_query(conn,
                           "SELECT seat, body::jsonb #>> '{data,text}'"
                           " FROM events WHERE match_id = $1 AND seq <= $2"
                           " AND kind = 'move' ORDER BY seq DESC LIMIT 1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *seat = -1;
    *text = NULL;
    if (PQntuples(r) == 1 && !PQgetisnull(r, 0, 1)) {
        *seat = PQgetisnull(r, 0, 0) ? -1 : atoi(PQgetvalue(r, 0, 0));
        *text = strdup(PQgetvalue(r, 0, 1));
        if (*text == NULL)
            abort();
    }
    PQclear(r);
    return true;
}
