/* export.c */
#include "admin/export.h"

#include <ctype.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/delegate_grants.h"
#include "ledger/export_check.h"
#include "core/log.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/sealed_choices.h"
#include "store/store.h"

#define EVENTS_PAGE 256
#define MATCHES_PAGE 64

struct export_stream {
    bool bulk;
    char status[16];
    char since[64], until[64];
    bool has_since, has_until;
    /* bulk: the keyset of the next page of matches */
    char after_created[64];
    long long after_id;
    long long ids[MATCHES_PAGE];
    int id_count, id_next;
    bool ids_done;
    /* the match being written */
    long long match_id, head, written_seq;
    bool in_match;
    /* what is ready to be read */
    char *out;
    size_t out_len, out_off, out_cap;
    bool failed;
};

static void put(export_stream *s, const char *text, size_t len)
{
    if (s->out_len + len + 1 > s->out_cap) {
        size_t cap = s->out_cap ? s->out_cap : 65536;
        while (cap < s->out_len + len + 1)
            cap *= 2;
        char *grown = realloc(s->out, cap);
        if (grown == NULL)
            abort();
        s->out = grown;
        s->out_cap = cap;
    }
    memcpy(s->out + s->out_len, text, len);
    s->out_len += len;
}

/* The players of a match as its log tells them: seats as they were joined
 * (the header lists the original seats), and everyone an admin seated
 * since (with the key the seat_replaced event recorded). */
static bool players(PGconn *conn, long long match_id, long long head,
                    json_t *seats, json_t *replacements, apierr *err)
{
    PGresult *result = store_events_seatings(conn, match_id, head, err);
    if (result == NULL)
        return false;
    for (int row = 0; row < PQntuples(result); row++) {
        bool joined = strcmp(PQgetvalue(result, row, 0), "joined") == 0;
        char player[32];
        store_player_ref(atoll(PQgetvalue(result, row, 2)), player);
        /* An email-only player has no key: null, and their moves carry
         * the mail's record instead of a signature. */
        json_t *entry = json_pack(
            "{s:s,s:s,s:o,s:o,s:o}", "player", player, "name",
            PQgetvalue(result, row, 3), "email",
            PQgetisnull(result, row, 4)
                ? json_null()
                : json_string(PQgetvalue(result, row, 4)),
            "public_key",
            PQgetisnull(result, row, 5)
                ? json_null()
                : json_string(PQgetvalue(result, row, 5)),
            "key_id",
            PQgetisnull(result, row, 6)
                ? json_null()
                : json_string(PQgetvalue(result, row, 6)));
        if (entry == NULL)
            abort();
        if (joined) {
            json_object_set_new(entry, "seat",
                                json_integer(atoi(PQgetvalue(result, row, 1))));
            json_array_append_new(seats, entry);
            continue;
        }
        bool known = false;
        size_t i;
        json_t *other;
        json_array_foreach(replacements, i, other) {
            if (json_equal(json_object_get(other, "player"),
                           json_object_get(entry, "player")))
                known = true;
        }
        if (known)
            json_decref(entry);
        else
            json_array_append_new(replacements, entry);
    }
    PQclear(result);
    return true;
}

/* Sealed choices are kept encrypted with the service key, like the seed,
 * so they may travel: an export taken during a sealed decision restores
 * with its commitments intact. */
static json_t *sealed_choices(PGconn *conn, long long match_id, apierr *err)
{
    PGresult *result = sealed_choices_export(conn, match_id, err);
    if (result == NULL)
        return NULL;
    json_t *choices = json_array();
    for (int row = 0; row < PQntuples(result); row++)
        json_array_append_new(
            choices, json_pack("{s:s,s:i,s:s,s:s,s:o,s:b}", "decision",
                               PQgetvalue(result, row, 0), "seat",
                               atoi(PQgetvalue(result, row, 1)), "mode",
                               PQgetvalue(result, row, 2), "commitment",
                               PQgetvalue(result, row, 3), "sealed",
                               PQgetisnull(result, row, 4)
                                   ? json_null()
                                   : json_string(PQgetvalue(result, row, 4)),
                               "revealed",
                               strcmp(PQgetvalue(result, row, 5), "t") == 0));
    PQclear(result);
    return choices;
}

/* The grants bots' keys made this match's events under (data.delegate),
 * each with the player's signed request that made it, so the export can
 * be checked without the service (export_check.h). */
static json_t *delegates(PGconn *conn, long long match_id, long long head,
                         apierr *err)
{
    PGresult *result = store_grants_of_match(conn, match_id, head, err);
    if (result == NULL)
        return NULL;
    json_t *list = json_array();
    for (int row = 0; row < PQntuples(result); row++) {
        char ref[32], player[32];
        snprintf(ref, sizeof ref, "d_%s", PQgetvalue(result, row, 0));
        store_player_ref(atoll(PQgetvalue(result, row, 1)), player);
        /* Key, scope, matches and expiry as the player's signed body
         * wrote them (the check holds the two against each other). */
        json_t *body = json_loads(PQgetvalue(result, row, 4), 0, NULL);
        json_t *request = json_loads(PQgetvalue(result, row, 5), 0, NULL);
        json_t *entry = json_pack(
            "{s:s,s:s,s:s,s:s,s:O?,s:O?,s:O?,s:O?,s:o,s:o}", "delegate", ref,
            "player", player, "key_id", PQgetvalue(result, row, 2), "name",
            PQgetvalue(result, row, 3), "public_key",
            json_object_get(body, "public_key"), "scope",
            json_object_get(body, "scope"), "matches",
            json_object_get(body, "matches"), "expires",
            json_object_get(body, "expires"), "revoked",
            PQgetisnull(result, row, 6)
                ? json_null()
                : json_string(PQgetvalue(result, row, 6)),
            "request", request ? request : json_null());
        json_decref(body);
        if (entry == NULL)
            abort();
        json_array_append_new(list, entry);
    }
    PQclear(result);
    return list;
}

/* Reads the header of one match in one snapshot (REPEATABLE READ), so the
 * sealed choices and players it lists agree with its head. */
static json_t *header(PGconn *conn, long long match_id, long long *head,
                      apierr *err)
{
    if (!store_begin_read_only(conn, err))
        return NULL;
    store_match match;
    json_t *out = NULL, *seats = json_array(), *replaced = json_array();
    json_t *choices = NULL, *first = NULL, *grants = NULL;
    bool loaded = store_load_match(conn, match_id, &match, err);
    if (loaded && players(conn, match_id, match.head_seq, seats, replaced, err))
        choices = sealed_choices(conn, match_id, err);
    if (choices != NULL)
        grants = delegates(conn, match_id, match.head_seq, err);
    if (grants != NULL)
        first = store_events_after(conn, match_id, 0, 1, err);
    if (first != NULL) {
        char ref[32], sealed[2 * sizeof match.sealed_seed + 8];
        store_match_ref(match_id, ref);
        sodium_bin2base64(sealed, sizeof sealed, match.sealed_seed,
                          sizeof match.sealed_seed,
                          sodium_base64_VARIANT_ORIGINAL);
        json_t *commitment =
            json_object_get(json_object_get(json_array_get(first, 0), "data"),
                            "seed_commitment");
        out = json_pack(
            "{s:s,s:s,s:s,s:i,s:O,s:i,s:s,s:O,s:O,s:O,s:O,s:s}", "format",
            EXPORT_FORMAT, "match", ref, "game", match.game, "engine_version",
            match.engine_version, "options", match.options, "seat_count",
            match.seat_count, "status", match.status, "seats", seats,
            "replacements", replaced, "sealed_choices", choices,
            "seed_commitment", commitment ? commitment : json_null(),
            "sealed_seed", sealed);
        /* Only when a bot acted: older readers see the header they know. */
        if (json_array_size(grants) > 0)
            json_object_set(out, "delegates", grants);
        *head = match.head_seq;
    }
    if (loaded)
        store_match_free(&match);
    json_decref(seats);
    json_decref(replaced);
    json_decref(choices);
    json_decref(grants);
    json_decref(first);
    if (out == NULL) {
        store_rollback(conn);
        return NULL;
    }
    if (!store_commit(conn, err)) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static bool start_match(export_stream *s, PGconn *conn, long long match_id,
                        apierr *err)
{
    long long head = 0;
    json_t *line = header(conn, match_id, &head, err);
    if (line == NULL)
        return false;
    char *text = json_dumps(line, JSON_COMPACT);
    json_decref(line);
    if (text == NULL)
        abort();
    put(s, text, strlen(text));
    put(s, "\n", 1);
    free(text);
    s->match_id = match_id;
    s->head = head;
    s->written_seq = 0;
    s->in_match = true;
    return true;
}

/* The next page of the current match's events, each line exactly as GET
 * /v1/matches/{id}/events gives it: the stored canonical body with its
 * hashes added. */
static bool event_page(export_stream *s, PGconn *conn, apierr *err)
{
    PGresult *result = store_events_export_page(
        conn, s->match_id, s->written_seq, s->head, EVENTS_PAGE, err);
    if (result == NULL)
        return false;
    int rows = PQntuples(result);
    for (int row = 0; row < rows; row++) {
        const char *body = PQgetvalue(result, row, 1);
        size_t len = strlen(body);
        if (len < 2 || body[len - 1] != '}') {
            PQclear(result);
            return apierr_set(err, 500, "corrupt_event",
                              "an event of match %lld is not a JSON object",
                              s->match_id);
        }
        put(s, body, len - 1);
        put(s, ",\"hash\":\"", 9);
        put(s, PQgetvalue(result, row, 2), 2 * STORE_HASH_BYTES);
        put(s, "\",\"prev_hash\":\"", 15);
        put(s, PQgetvalue(result, row, 3), 2 * STORE_HASH_BYTES);
        put(s, "\"}\n", 3);
        s->written_seq = atoll(PQgetvalue(result, row, 0));
    }
    PQclear(result);
    if (rows == 0 || s->written_seq >= s->head)
        s->in_match = false;
    return true;
}

static bool id_page(export_stream *s, PGconn *conn, apierr *err)
{
    PGresult *result = store_matches_export_page(
        conn, s->status[0] ? s->status : NULL, s->has_since ? s->since : NULL,
        s->has_until ? s->until : NULL, s->after_created, s->after_id,
        MATCHES_PAGE, err);
    if (result == NULL)
        return false;
    s->id_count = PQntuples(result);
    s->id_next = 0;
    for (int row = 0; row < s->id_count; row++)
        s->ids[row] = atoll(PQgetvalue(result, row, 0));
    if (s->id_count > 0) {
        snprintf(s->after_created, sizeof s->after_created, "%s",
                 PQgetvalue(result, s->id_count - 1, 1));
        s->after_id = s->ids[s->id_count - 1];
    }
    s->ids_done = s->id_count < MATCHES_PAGE;
    PQclear(result);
    return true;
}

/* Makes the next piece of the export ready; false on a database failure.
 * Leaves nothing ready at the end. */
static bool produce(export_stream *s, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    while (s->out_len == 0) {
        if (s->in_match) {
            if (!event_page(s, conn, err))
                return false;
            continue;
        }
        if (!s->bulk)
            return true;
        if (s->id_next == s->id_count) {
            if (s->ids_done)
                return true;
            if (!id_page(s, conn, err))
                return false;
            continue;
        }
        apierr skip;
        /* A match gone meanwhile is left out, not an error. */
        if (!start_match(s, conn, s->ids[s->id_next++], &skip) &&
            skip.status != 404) {
            *err = skip;
            return false;
        }
    }
    return true;
}

static export_stream *stream_new(void)
{
    export_stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    return s;
}

export_stream *export_open_match(long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    export_stream *s = stream_new();
    if (!start_match(s, conn, match_id, err)) {
        export_close(s);
        return NULL;
    }
    return s;
}

export_stream *export_open_bulk(const export_filter *filter, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    export_stream *s = stream_new();
    s->bulk = true;
    snprintf(s->status, sizeof s->status, "%s",
             filter->status ? filter->status : "");
    s->has_since = filter->since != NULL;
    s->has_until = filter->until != NULL;
    snprintf(s->since, sizeof s->since, "%s",
             s->has_since ? filter->since : "");
    snprintf(s->until, sizeof s->until, "%s",
             s->has_until ? filter->until : "");
    snprintf(s->after_created, sizeof s->after_created, "-infinity");
    if (!id_page(s, conn, err)) {
        export_close(s);
        return NULL;
    }
    return s;
}

ssize_t export_read(export_stream *s, char *buf, size_t max)
{
    if (s->out_off == s->out_len) {
        s->out_off = s->out_len = 0;
        apierr err;
        if (s->failed || !produce(s, &err)) {
            if (!s->failed)
                log_error("export cut short: %s", err.message);
            s->failed = true;
            return -1;
        }
        if (s->out_len == 0)
            return 0;
    }
    size_t n = s->out_len - s->out_off;
    if (n > max)
        n = max;
    memcpy(buf, s->out + s->out_off, n);
    s->out_off += n;
    return (ssize_t)n;
}

void export_close(export_stream *s)
{
    if (s == NULL)
        return;
    free(s->out);
    free(s);
}

static bool digits(const char *text, int count)
{
    for (int i = 0; i < count; i++) {
        if (!isdigit((unsigned char)text[i]))
            return false;
    }
    return true;
}

bool export_valid_time(const char *t)
{
    /* YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM) */
    if (t == NULL || strlen(t) < 20 || strlen(t) > 40 || !digits(t, 4) ||
        t[4] != '-' || !digits(t + 5, 2) || t[7] != '-' || !digits(t + 8, 2) ||
        (t[10] != 'T' && t[10] != 't') || !digits(t + 11, 2) || t[13] != ':' ||
        !digits(t + 14, 2) || t[16] != ':' || !digits(t + 17, 2))
        return false;
    int month = atoi(t + 5), day = atoi(t + 8), hour = atoi(t + 11);
    int minute = atoi(t + 14), second = atoi(t + 17);
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int year = atoi(t);
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (month < 1 || month > 12 || day < 1 || day > days[month - 1] ||
        (month == 2 && day == 29 && !leap) || hour > 23 || minute > 59 ||
        second > 60)
        return false;
    const char *rest = t + 19;
    if (*rest == '.') {
        rest++;
        if (!isdigit((unsigned char)*rest))
            return false;
        while (isdigit((unsigned char)*rest))
            rest++;
    }
    if ((*rest == 'Z' || *rest == 'z') && rest[1] == '\0')
        return true;
    return (*rest == '+' || *rest == '-') && digits(rest + 1, 2) &&
           rest[3] == ':' && digits(rest + 4, 2) && rest[6] == '\0' &&
           atoi(rest + 1) <= 23 && atoi(rest + 4) <= 59;
}
