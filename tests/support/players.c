/* players.c */
#include "players.h"

#include <jansson.h>
#include <poll.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How often a request without an answer is sent again: a client's pace
 * while the service is down, not a wait for anything in particular. */
#define RESEND_PACE_MS 20
/* One request may go unanswered this long (a PostgreSQL crash recovery
 * on a busy machine included) before the player gives up. */
#define RESEND_LIMIT_MS 90000

/* One move's answer in this many is lost on purpose (see
 * send_until_answered), so every run resends moves that were applied. */
#define LOSE_ONE_ANSWER_IN 16

/* Wall-clock microseconds, the clock pbemd stamps events with. */
static long long wall_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void fail(player *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void fail(player *p, const char *fmt, ...)
{
    if (p->failure[0] != '\0')
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(p->failure, sizeof p->failure, fmt, args);
    va_end(args);
}

/* Sends one request until it is answered below 500. With keep_nonce the
 * same signed request (created, nonce) goes out every time, and nonce
 * receives it; and when p->lose_next_answer is set, a success to the first
 * sending is thrown away unread (the client hangs up as it arrives), as a
 * phone leaving its network loses it. False (p->failure set) when no
 * answer came in time. */
static bool send_until_answered(player *p, client *c, const char *method,
                                const char *path, const char *body,
                                const client_key *key, bool keep_nonce,
                                char nonce[33], client_response *out)
{
    client_send_options options = {.created = (int64_t)time(NULL)};
    if (keep_nonce) {
        unsigned char raw[16];
        randombytes_buf(raw, sizeof raw);
        sodium_bin2hex(nonce, 33, raw, sizeof raw);
        options.nonce = nonce;
    }
    /* fwrite to a read-only stream fails: curl stops reading the answer
     * and client_send reports none. */
    if (keep_nonce && p->lose_next_answer)
        options.body_to = p->deaf;
    p->lose_next_answer = false;
    long began = now_ms();
    char error[256] = "";
    long status = 0;
    for (;;) {
        long outage_before = atomic_load(&p->board->outage);
        p->last_sent_us = wall_us();
        bool answered =
            client_send(c, method, path, body, key, &options, out, error);
        long outage_after = atomic_load(&p->board->outage);
        /* Thrown away by us (curl's CURLE_WRITE_ERROR), not cut by a
         * kill: the move was applied. */
        if (options.body_to != NULL && !answered &&
            strstr(error, "Failed writing") != NULL)
            p->answers_lost++;
        options.body_to = NULL;
        if (answered && out->status < 500)
            return true;
        if (answered) {
            status = out->status;
            if (out->status == 500) {
                bool up =
                    outage_before == outage_after && outage_before % 2 == 0;
                if (up) {
                    p->server_errors_up++;
                    fail(p, "%s %s: 500 while PostgreSQL was up: %.300s",
                         method, path, out->body ? out->body : "");
                } else {
                    p->server_errors_outage++;
                }
            }
            client_response_free(out);
        }
        if (now_ms() - began > RESEND_LIMIT_MS) {
            fail(p, "%s %s: no answer in %d s (last: %ld %s)", method, path,
                 RESEND_LIMIT_MS / 1000, status, error);
            return false;
        }
        p->resent++;
        poll(NULL, 0, RESEND_PACE_MS);
    }
}

/* Like send_until_answered, and the answer must have status expect. */
static bool call(player *p, client *c, const char *method, const char *path,
                 const char *body, int seat, bool keep_nonce, char nonce[33],
                 long expect, client_response *out)
{
    if (!send_until_answered(p, c, method, path, body, &p->keys[seat],
                             keep_nonce, nonce, out))
        return false;
    if (out->status != expect) {
        fail(p, "%s %s: %ld instead of %ld: %.300s", method, path, out->status,
             expect, out->body ? out->body : "");
        client_response_free(out);
        return false;
    }
    return true;
}

static bool new_match(player *p, client *c)
{
    char nonce[33], path[96];
    client_response r;
    if (!call(p, c, "POST", "/v1/matches",
              "{\"game\":\"antiquity_quest\",\"seats\":2}", 0, true, nonce, 201,
              &r))
        return false;
    const char *id = json_string_value(
        json_object_get(json_object_get(r.json, "match"), "id"));
    if (id == NULL) {
        fail(p, "a created match without an id: %.200s", r.body);
        client_response_free(&r);
        return false;
    }
    p->matches =
        realloc(p->matches, (size_t)(p->match_count + 1) * sizeof *p->matches);
    snprintf(p->matches[p->match_count], 32, "%s", id);
    client_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/join",
             p->matches[p->match_count]);
    if (!call(p, c, "POST", path, "{}", 1, true, nonce, 200, &r))
        return false;
    client_response_free(&r);
    p->match_count++;
    return true;
}

static void acknowledge(player *p, const char nonce[33], long long played_on,
                        long long resent_at, const json_t *answer)
{
    pthread_mutex_lock(&p->board->lock);
    p->moves =
        realloc(p->moves, (size_t)(p->move_count + 1) * sizeof *p->moves);
    acknowledged_move *m = &p->moves[p->move_count];
    m->match = p->match_count - 1;
    memcpy(m->nonce, nonce, 33);
    m->played_on = played_on;
    m->resent_at = resent_at;
    m->answered_seq = json_integer_value(json_object_get(answer, "seq"));
    snprintf(m->answered_hash, sizeof m->answered_hash, "%s",
             json_string_value(json_object_get(answer, "hash")));
    p->move_count++;
    p->board->acknowledged++;
    pthread_cond_broadcast(&p->board->moved);
    pthread_mutex_unlock(&p->board->lock);
}

/* Plays one move of the current match (starting one if need be); false
 * once something went wrong. */
static bool play_one(player *p, client *c, bool *in_match, int *seat)
{
    if (!*in_match) {
        if (!new_match(p, c))
            return false;
        *in_match = true;
        *seat = 0;
    }
    const char *match = p->matches[p->match_count - 1];
    char path[96], nonce[33];
    client_response r;
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    if (!call(p, c, "GET", path, NULL, *seat, false, nonce, 200, &r))
        return false;
    json_t *pending =
        json_object_get(json_object_get(r.json, "pending"), "seats");
    if (json_array_size(pending) == 0) {
        /* Nobody must act: the match is over (its last answer says
         * so too; this covers an answer that did not). */
        client_response_free(&r);
        *in_match = false;
        return true;
    }
    int to_move = (int)json_integer_value(json_array_get(pending, 0));
    if (to_move != *seat) {
        *seat = to_move;
        client_response_free(&r);
        return true;
    }
    json_t *moves = json_object_get(json_object_get(r.json, "legal"), "moves");
    json_int_t head = json_integer_value(
        json_object_get(json_object_get(r.json, "head"), "seq"));
    if (json_array_size(moves) == 0) {
        fail(p, "seat %d of %s must act and has no legal move", *seat, match);
        client_response_free(&r);
        return false;
    }
    json_t *body = json_pack(
        "{s:I,s:O}", "seq", head, "action",
        json_array_get(moves,
                       randombytes_uniform((uint32_t)json_array_size(moves))));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    client_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    long resent = p->resent;
    p->lose_next_answer = randombytes_uniform(LOSE_ONE_ANSWER_IN) == 0;
    bool ok = call(p, c, "POST", path, text, *seat, true, nonce, 200, &r);
    free(text);
    if (!ok)
        return false;
    long long resent_at = 0;
    if (p->resent > resent) {
        p->acknowledged_on_resend++;
        resent_at = p->last_sent_us;
    }
    acknowledge(p, nonce, head, resent_at, r.json);
    if (json_is_true(json_object_get(r.json, "over")))
        *in_match = false;
    client_response_free(&r);
    return true;
}

static void *play(void *arg)
{
    player *p = arg;
    client *c = client_new(p->board->base_url);
    client_trust_ca(c, p->board->ca_file);
    p->deaf = fopen("/dev/null", "r");
    if (p->deaf == NULL)
        fail(p, "cannot open /dev/null");
    bool in_match = false;
    int seat = 0;
    while (!atomic_load(&p->board->stop) && play_one(p, c, &in_match, &seat))
        ;
    client_free(c);
    if (p->deaf != NULL)
        fclose(p->deaf);
    /* A player that gave up wakes whoever waits for moves. */
    pthread_mutex_lock(&p->board->lock);
    pthread_cond_broadcast(&p->board->moved);
    pthread_mutex_unlock(&p->board->lock);
    return NULL;
}

void player_register(player *p, board *b, int index)
{
    memset(p, 0, sizeof *p);
    p->index = index;
    p->board = b;
    client *c = client_new(b->base_url);
    client_trust_ca(c, b->ca_file);
    for (int i = 0; i < 2 && p->failure[0] == '\0'; i++) {
        char id[32], error[256];
        client_new_key(&p->keys[i]);
        if (!client_register(c, i ? "Eliza" : "Robert", NULL, &p->keys[i], id,
                             error))
            fail(p, "register: %s", error);
    }
    client_free(c);
}

void player_start(player *p)
{
    pthread_create(&p->thread, NULL, play, p);
}

void player_join(player *p)
{
    pthread_join(p->thread, NULL);
}

long player_acknowledged(player *p)
{
    pthread_mutex_lock(&p->board->lock);
    long n = p->move_count;
    pthread_mutex_unlock(&p->board->lock);
    return n;
}

/* The nonce of a move event's signed request, or NULL. */
static const char *event_nonce(json_t *event, char out[64])
{
    const char *input = json_string_value(json_object_get(
        json_object_get(json_object_get(event, "data"), "request"),
        "signature_input"));
    const char *at = input ? strstr(input, ";nonce=\"") : NULL;
    if (at == NULL)
        return NULL;
    at += strlen(";nonce=\"");
    size_t len = strcspn(at, "\"");
    if (len >= 64)
        return NULL;
    memcpy(out, at, len);
    out[len] = '\0';
    return out;
}

/* An event's "at" (2026-11-25T19:27:42.123456Z) in microseconds, or 0. */
static long long parse_at(const char *text)
{
    struct tm tm = {0};
    long micro = 0;
    if (text == NULL ||
        sscanf(text, "%d-%d-%dT%d:%d:%d.%6ldZ", &tm.tm_year, &tm.tm_mon,
               &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &micro) != 7)
        return 0;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (long long)timegm(&tm) * 1000000 + micro;
}

/* One event of a match's log. */
typedef struct logged_event {
    long long seq;
    char hash[72];
    bool move;
    long long at_us; /* when pbemd made it */
    char nonce[64];  /* of a move's signed request */
    int seen;        /* acknowledged moves that matched it */
} logged_event;

/* The whole log of match into *out (count events; the caller frees);
 * false (p->failure set) when it could not be read. */
static bool read_log(player *p, client *c, const char *match,
                     logged_event **out, long *count)
{
    *out = NULL;
    *count = 0;
    long long after = 0;
    for (;;) {
        char path[128];
        snprintf(path, sizeof path,
                 "/v1/matches/%s/events?after=%lld&limit=500", match, after);
        client_response r = {0};
        char error[256] = "";
        if (!client_send(c, "GET", path, NULL, NULL, NULL, &r, error) ||
            r.status != 200) {
            fail(p, "GET %s: %ld %s", path, r.status, error);
            client_response_free(&r);
            return false;
        }
        json_t *events = json_object_get(r.json, "events");
        size_t i;
        json_t *event;
        json_array_foreach(events, i, event)
        {
            after = json_integer_value(json_object_get(event, "seq"));
            *out = realloc(*out, (size_t)(*count + 1) * sizeof **out);
            logged_event *e = &(*out)[(*count)++];
            memset(e, 0, sizeof *e);
            e->seq = after;
            snprintf(e->hash, sizeof e->hash, "%s",
                     json_string_value(json_object_get(event, "hash")));
            const char *kind =
                json_string_value(json_object_get(event, "kind"));
            char nonce[64];
            e->move = kind != NULL && strcmp(kind, "move") == 0;
            e->at_us =
                parse_at(json_string_value(json_object_get(event, "at")));
            if (e->move && event_nonce(event, nonce) != NULL)
                snprintf(e->nonce, sizeof e->nonce, "%s", nonce);
        }
        size_t got = json_array_size(events);
        client_response_free(&r);
        if (got < 500)
            return true;
    }
}

/* Whether the log holds the head an answer reported: its seq and hash. */
static bool log_has_head(const logged_event *log, long count,
                         const acknowledged_move *m)
{
    for (long j = 0; j < count; j++)
        if (log[j].seq == m->answered_seq)
            return strcmp(log[j].hash, m->answered_hash) == 0;
    return false;
}

void player_audit(player *p, client *c, audit *a)
{
    for (int k = 0; k < p->match_count; k++) {
        const char *match = p->matches[k];
        long count;
        logged_event *log;
        if (!read_log(p, c, match, &log, &count))
            return;
        a->events += count;
        for (long i = 0; i < p->move_count; i++) {
            const acknowledged_move *m = &p->moves[i];
            if (m->match != k)
                continue;
            long found = 0;
            for (long j = 0; j < count; j++) {
                if (!log[j].move || strcmp(log[j].nonce, m->nonce) != 0)
                    continue;
                found++;
                log[j].seen++;
                if (log[j].seq <= m->played_on || log[j].seq > m->answered_seq)
                    a->misplaced++;
                /* Made before the sending that was answered: an earlier
                 * sending applied it and its answer was lost. */
                if (m->resent_at != 0 && log[j].at_us != 0 &&
                    log[j].at_us < m->resent_at)
                    a->replayed++;
            }
            if (found == 0) {
                a->lost++;
                /* What it takes to find the move in the servers' logs. */
                fprintf(stderr,
                        "players: lost: match %s, nonce %s, played on %lld, "
                        "answered seq %lld, %s\n",
                        match, m->nonce, m->played_on, m->answered_seq,
                        m->resent_at != 0 ? "answered to a resending"
                                          : "answered to its first sending");
            } else if (found > 1)
                a->duplicated += found - 1;
            if (found > 0 && !log_has_head(log, count, m))
                a->misplaced++;
        }
        for (long j = 0; j < count; j++)
            if (log[j].move && log[j].seen == 0)
                a->unacknowledged++;
        free(log);

        char path[96];
        snprintf(path, sizeof path, "/v1/matches/%s/verify", match);
        client_response r = {0};
        char error[256] = "";
        if (!client_send(c, "GET", path, NULL, NULL, NULL, &r, error) ||
            r.status != 200) {
            fail(p, "GET %s: %ld %s", path, r.status, error);
            client_response_free(&r);
            return;
        }
        if (!json_is_true(json_object_get(r.json, "ok"))) {
            a->bad_chains++;
            fail(p, "%s does not verify: %.300s", match, r.body);
        }
        client_response_free(&r);
    }
}

void player_free(player *p)
{
    free(p->matches);
    free(p->moves);
}
