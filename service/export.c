/* export.c */
#include "export.h"

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "export_check.h"
#include "log.h"
#include "rules.h"
#include "store.h"

typedef struct buffer {
    char *text;
    size_t len, cap;
} buffer;

static void put(buffer *b, const char *text, size_t len)
{
    if (b->len + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len + 1)
            cap *= 2;
        char *grown = realloc(b->text, cap);
        if (grown == NULL)
            abort();
        b->text = grown;
        b->cap = cap;
    }
    memcpy(b->text + b->len, text, len);
    b->len += len;
    b->text[b->len] = '\0';
}

static void put_line(buffer *b, const json_t *value)
{
    char *line = json_dumps(value, JSON_COMPACT);
    if (line == NULL)
        abort();
    put(b, line, strlen(line));
    put(b, "\n", 1);
    free(line);
}

static bool export_one(PGconn *conn, long long match_id, buffer *out,
                       apierr *err)
{
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return false;
    json_t *seats = store_export_seats(conn, match_id, err);
    json_t *events = seats ? store_events_after(conn, match_id, 0,
                                                 (int)(match.head_seq + 1), err)
                           : NULL;
    if (events == NULL) {
        json_decref(seats);
        store_match_free(&match);
        return false;
    }
    char ref[32], sealed[2 * sizeof match.sealed_seed + 8];
    store_match_ref(match_id, ref);
    sodium_bin2base64(sealed, sizeof sealed, match.sealed_seed,
                      sizeof match.sealed_seed, sodium_base64_VARIANT_ORIGINAL);
    json_t *commitment = json_object_get(
        json_object_get(json_array_get(events, 0), "data"), "seed_commitment");
    json_t *header = json_pack(
        "{s:s,s:s,s:s,s:i,s:O,s:i,s:s,s:o,s:O,s:s}", "format", EXPORT_FORMAT,
        "match", ref, "game", match.game, "engine_version",
        match.engine_version, "options", match.options, "seat_count",
        match.seat_count, "status", match.status, "seats", seats,
        "seed_commitment", commitment ? commitment : json_null(),
        "sealed_seed", sealed);
    put_line(out, header);
    json_decref(header);
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) put_line(out, event);
    json_decref(events);
    store_match_free(&match);
    return true;
}

char *export_match_text(long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    buffer out = {0};
    if (conn == NULL || !export_one(conn, match_id, &out, err)) {
        free(out.text);
        return NULL;
    }
    return out.text;
}

char *export_bulk_text(const char *status, apierr *err)
{
    PGconn *conn = db_conn(err);
    json_t *ids = conn ? store_match_ids(conn, status, err) : NULL;
    if (ids == NULL)
        return NULL;
    buffer out = {0};
    put(&out, "", 0);
    size_t i;
    json_t *id;
    json_array_foreach(ids, i, id) {
        apierr skip;
        /* A match deleted meanwhile is skipped, not an error. */
        if (!export_one(conn, (long long)json_integer_value(id), &out, &skip) &&
            skip.status != 404) {
            *err = skip;
            free(out.text);
            json_decref(ids);
            return NULL;
        }
    }
    json_decref(ids);
    return out.text;
}

static long long parse_ref(const char *text, char prefix)
{
    if (text == NULL || text[0] != prefix || text[1] != '_' || text[2] == '\0')
        return 0;
    char *end = NULL;
    long long value = strtoll(text + 2, &end, 10);
    return *end == '\0' && value > 0 ? value : 0;
}

static bool header_match(const json_t *header, const json_t *events,
                         store_match *match, apierr *err)
{
    memset(match, 0, sizeof *match);
    const char *ref = json_string_value(json_object_get(header, "match"));
    match->match_id = store_parse_match_ref(ref);
    const char *game = json_string_value(json_object_get(header, "game"));
    const char *status = json_string_value(json_object_get(header, "status"));
    const char *sealed =
        json_string_value(json_object_get(header, "sealed_seed"));
    size_t sealed_len = 0;
    const json_t *created_data =
        json_object_get(json_array_get(events, 0), "data");
    match->created_by = parse_ref(
        json_string_value(json_object_get(created_data, "created_by")), 'p');
    json_int_t seats = json_integer_value(json_object_get(header, "seat_count"));
    if (match->match_id <= 0 || game == NULL || strlen(game) >= sizeof match->game ||
        status == NULL ||
        (strcmp(status, "open") != 0 && strcmp(status, "active") != 0 &&
         strcmp(status, "finished") != 0) ||
        seats < 1 || seats > STORE_MAX_SEATS || match->created_by <= 0 ||
        sodium_base642bin(match->sealed_seed, sizeof match->sealed_seed,
                          sealed, strlen(sealed), NULL, &sealed_len, NULL,
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
    const json_t *last = json_array_get(events, json_array_size(events) - 1);
    match->head_seq = (long long)json_array_size(events);
    size_t got = 0;
    const char *hash = json_string_value(json_object_get(last, "hash"));
    if (sodium_hex2bin(match->head_hash, STORE_HASH_BYTES, hash, strlen(hash),
                       NULL, &got, NULL) != 0 ||
        got != STORE_HASH_BYTES)
        return apierr_set(err, 422, "bad_export", "bad last hash");
    return true;
}

static bool import_one(PGconn *conn, const export_match *m, apierr *err)
{
    store_match match;
    if (!header_match(m->header, m->events, &match, err))
        return false;
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(m->header, "seats"), i, seat) {
        long long player = parse_ref(
            json_string_value(json_object_get(seat, "player")), 'p');
        json_int_t number = json_integer_value(json_object_get(seat, "seat"));
        const char *name = json_string_value(json_object_get(seat, "name"));
        const char *email = json_string_value(json_object_get(seat, "email"));
        const char *key_id = json_string_value(json_object_get(seat, "key_id"));
        const char *key_b64 =
            json_string_value(json_object_get(seat, "public_key"));
        uint8_t key[32];
        size_t key_len = 0;
        if (player <= 0 || number < 0 || number >= match.seat_count ||
            name == NULL || key_id == NULL || key_b64 == NULL ||
            sodium_base642bin(key, sizeof key, key_b64, strlen(key_b64), "\n",
                              &key_len, NULL,
                              sodium_base64_VARIANT_ORIGINAL) != 0 ||
            key_len != sizeof key)
            return apierr_set(err, 422, "bad_export",
                              "seat entry %zu of the header is malformed", i);
        if (!store_import_player(conn, player, name, email, key, key_id, err))
            return false;
    }
    if (!store_import_match(conn, &match, err))
        return false;
    json_array_foreach(json_object_get(m->header, "seats"), i, seat) {
        if (!store_insert_seat(
                conn, match.match_id,
                (int)json_integer_value(json_object_get(seat, "seat")),
                parse_ref(json_string_value(json_object_get(seat, "player")),
                          'p'),
                err))
            return false;
    }
    const json_t *event;
    json_array_foreach(m->events, i, event) {
        uint8_t prev[STORE_HASH_BYTES], hash[STORE_HASH_BYTES];
        size_t got1 = 0, got2 = 0;
        const char *prev_hex = json_string_value(json_object_get(event, "prev_hash"));
        const char *hash_hex = json_string_value(json_object_get(event, "hash"));
        sodium_hex2bin(prev, sizeof prev, prev_hex, strlen(prev_hex), NULL,
                       &got1, NULL);
        sodium_hex2bin(hash, sizeof hash, hash_hex, strlen(hash_hex), NULL,
                       &got2, NULL);
        json_t *body = json_deep_copy(event);
        json_object_del(body, "hash");
        json_object_del(body, "prev_hash");
        char *bytes = rules_canonical_json(body);
        json_decref(body);
        json_t *seat_value = json_object_get(event, "seat");
        bool ok = store_import_event(
            conn, match.match_id, (long long)i + 1,
            json_string_value(json_object_get(event, "kind")),
            json_is_integer(seat_value) ? (int)json_integer_value(seat_value)
                                        : -1,
            bytes, prev, hash, err);
        free(bytes);
        if (!ok)
            return false;
    }
    return true;
}

char *export_import_text(const char *text, size_t len, apierr *err)
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
    for (int i = 0; i < count; i++) {
        export_check(&matches[i], &report);
        if (!report.ok) {
            const char *ref =
                json_string_value(json_object_get(matches[i].header, "match"));
            apierr_set(err, 422, "export_rejected",
                       "%s: event %lld: %s", ref ? ref : "(header)",
                       report.bad_seq, report.reason);
            export_matches_free(matches, count);
            return NULL;
        }
    }
    PGconn *conn = db_conn(err);
    bool ok = conn != NULL && store_begin(conn, err);
    json_t *imported = json_array();
    for (int i = 0; ok && i < count; i++) {
        ok = import_one(conn, &matches[i], err);
        if (ok)
            json_array_append_new(
                imported,
                json_pack("{s:O,s:I}", "match",
                          json_object_get(matches[i].header, "match"), "events",
                          (json_int_t)json_array_size(matches[i].events)));
    }
    if (ok)
        ok = store_commit(conn, err);
    else if (conn != NULL)
        store_rollback(conn);
    char *answer = NULL;
    if (ok) {
        json_t *body = json_pack("{s:o}", "imported", imported);
        answer = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        log_info("imported %d match(es) from an export", count);
    } else {
        json_decref(imported);
    }
    export_matches_free(matches, count);
    return answer;
}
