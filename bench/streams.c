/* streams.c: events fanned out to open match streams.
 *   streams BASE_URL GAME STREAMS SECONDS
 * Registers two players, starts a match and opens STREAMS spectator
 * streams on it (GET /v1/matches/{id}/stream, one socket each, read by
 * one thread with poll(2)). A second thread plays the match's moves as
 * fast as the service takes them, noting when it sent each one. Prints
 * one key=value line: events delivered to all streams per second, moves
 * per second, and the latency from sending a move to reading its event on
 * a stream (p50/p99 over every stream's delivery; it includes the move's
 * own round trip, given as move_p50_ms). Stops early when the match ends. */
#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "client_stream.h"

#define MAX_SEQ 100000
#define MAX_SAMPLES 4000000

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "streams bench: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

typedef struct bench {
    const char *base_url;
    char match[32];
    client_key keys[2];
    double deadline;
    /* sent[seq]: when the move that appends event seq was sent (0: not a
     * move's first event). Written by the mover before it sends. */
    double *sent;
    long moves;
    double *move_latency;
    bool over;     /* the mover stopped (match over or time up) */
    long long last_seq;
} bench;

static json_t *call(client *c, const char *method, const char *path,
                    const char *body, const client_key *key, long expect)
{
    client_response r;
    char error[256];
    if (!client_send(c, method, path, body, key, NULL, &r, error))
        die(path, error);
    if (r.status != expect)
        die(path, r.body);
    json_t *json = json_incref(r.json);
    client_response_free(&r);
    return json;
}

static void *mover(void *arg)
{
    bench *b = arg;
    client *c = client_new(b->base_url);
    char path[96];
    while (now_seconds() < b->deadline) {
        snprintf(path, sizeof path, "/v1/matches/%s", b->match);
        json_t *match = call(c, "GET", path, NULL, NULL, 200);
        const char *status = json_string_value(json_object_get(match, "status"));
        int seat = (int)json_integer_value(json_array_get(
            json_object_get(json_object_get(match, "pending"), "seats"), 0));
        bool finished = strcmp(status, "active") != 0;
        json_decref(match);
        if (finished)
            break;
        snprintf(path, sizeof path, "/v1/matches/%s/view", b->match);
        json_t *view = call(c, "GET", path, NULL, &b->keys[seat], 200);
        json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
        json_int_t head = json_integer_value(
            json_object_get(json_object_get(view, "head"), "seq"));
        json_t *body = json_pack(
            "{s:I,s:O}", "seq", head, "action",
            json_array_get(moves, randombytes_uniform((uint32_t)json_array_size(moves))));
        char *text = json_dumps(body, JSON_COMPACT);
        json_decref(body);
        json_decref(view);
        if (head + 1 >= MAX_SEQ)
            break;
        snprintf(path, sizeof path, "/v1/matches/%s/moves", b->match);
        double started = now_seconds();
        __atomic_store(&b->sent[head + 1], &started, __ATOMIC_RELEASE);
        json_t *answer = call(c, "POST", path, text, &b->keys[seat], 200);
        b->move_latency[b->moves++] = now_seconds() - started;
        __atomic_store_n(&b->last_seq,
                         (long long)json_integer_value(json_object_get(answer, "seq")),
                         __ATOMIC_RELEASE);
        json_decref(answer);
        free(text);
    }
    __atomic_store_n(&b->over, true, __ATOMIC_RELEASE);
    client_free(c);
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *values, long n, double p)
{
    if (n == 0)
        return 0;
    qsort(values, (size_t)n, sizeof *values, by_value);
    return values[(long)(p * (double)(n - 1))];
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: streams BASE_URL GAME STREAMS SECONDS\n");
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        die("sodium", "cannot initialise");
    bench b = {.base_url = argv[1]};
    int count = atoi(argv[3]);
    double seconds = atof(argv[4]);
    client *c = client_new(b.base_url);
    char player[32], error[256];
    for (int i = 0; i < 2; i++) {
        client_new_key(&b.keys[i]);
        /* A match refuses two names that could be taken for each
         * other (core/names). */
        if (!client_register(c, i ? "Bench Second" : "Bench First", NULL,
                             &b.keys[i], player, error))
            die("register", error);
    }
    char body[128];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":2}", argv[2]);
    json_t *made = call(c, "POST", "/v1/matches", body, &b.keys[0], 201);
    snprintf(b.match, sizeof b.match, "%s",
             json_string_value(json_object_get(json_object_get(made, "match"), "id")));
    json_decref(made);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", b.match);
    json_decref(call(c, "POST", path, "{}", &b.keys[1], 200));
    client_free(c);

    b.sent = calloc(MAX_SEQ, sizeof *b.sent);
    b.move_latency = calloc(MAX_SEQ, sizeof *b.move_latency);
    double *latency = malloc(MAX_SAMPLES * sizeof *latency);
    client_stream **open = calloc((size_t)count, sizeof *open);
    struct pollfd *fds = calloc((size_t)count, sizeof *fds);
    if (!b.sent || !b.move_latency || !latency || !open || !fds)
        die("memory", "out of memory");
    snprintf(path, sizeof path, "/v1/matches/%s/stream", b.match);
    for (int i = 0; i < count; i++) {
        open[i] = client_stream_open(b.base_url, path, NULL, NULL, 30000, error);
        if (open[i] == NULL)
            die("open a stream", error);
        if (client_stream_status(open[i]) != 200)
            die("open a stream", client_stream_body(open[i], NULL));
        fds[i] = (struct pollfd){.fd = client_stream_fd(open[i]), .events = POLLIN};
    }

    /* The log so far is not part of the measure. */
    snprintf(path, sizeof path, "/v1/matches/%s", b.match);
    c = client_new(b.base_url);
    json_t *match = call(c, "GET", path, NULL, NULL, 200);
    long long initial = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    client_free(c);
    long long *seen = calloc((size_t)count, sizeof *seen);
    for (int i = 0; seen != NULL && i < count; i++)
        seen[i] = initial;
    b.last_seq = initial;

    double started = now_seconds();
    b.deadline = started + seconds;
    pthread_t thread;
    pthread_create(&thread, NULL, mover, &b);
    long delivered = 0, samples = 0;
    /* Reads until the mover stopped and every stream has its last event
     * (or a grace of 10 s passed). */
    double drained_by = 0;
    for (;;) {
        bool over = __atomic_load_n(&b.over, __ATOMIC_ACQUIRE);
        long long last = __atomic_load_n(&b.last_seq, __ATOMIC_ACQUIRE);
        if (over) {
            if (drained_by == 0)
                drained_by = now_seconds() + 10;
            bool all = true;
            for (int i = 0; i < count && all; i++)
                all = seen[i] >= last;
            if (all || now_seconds() > drained_by)
                break;
        }
        if (poll(fds, (nfds_t)count, 100) <= 0)
            continue;
        double now = now_seconds();
        for (int i = 0; i < count; i++) {
            if (!(fds[i].revents & POLLIN))
                continue;
            client_stream_poll(open[i]);
            size_t len;
            const char *text = client_stream_body(open[i], &len);
            const char *done = text;
            const char *end;
            while ((end = strstr(done, "\n\n")) != NULL) {
                if (strncmp(done, "id: ", 4) == 0) {
                    long long seq = atoll(done + 4);
                    if (seq > seen[i]) {
                        seen[i] = seq;
                        delivered++;
                        double sent = 0;
                        if (seq < MAX_SEQ)
                            __atomic_load(&b.sent[seq], &sent, __ATOMIC_ACQUIRE);
                        if (sent > 0 && samples < MAX_SAMPLES)
                            latency[samples++] = now - sent;
                    }
                }
                done = end + 2;
            }
            client_stream_drop(open[i], (size_t)(done - text));
        }
    }
    double elapsed = now_seconds() - started;
    pthread_join(thread, NULL);
    long missing = 0;
    for (int i = 0; i < count; i++)
        if (seen[i] < b.last_seq)
            missing++;
    double move_p50 = percentile(b.move_latency, b.moves, 0.5);
    printf("streams=%d moves=%ld seconds=%.1f events_delivered=%ld "
           "events_fanned_out_per_second=%.0f moves_per_second=%.1f "
           "p50_ms=%.2f p99_ms=%.2f move_p50_ms=%.2f streams_behind=%ld\n",
           count, b.moves, elapsed, delivered, (double)delivered / elapsed,
           (double)b.moves / elapsed, percentile(latency, samples, 0.5) * 1e3,
           percentile(latency, samples, 0.99) * 1e3, move_p50 * 1e3, missing);
    for (int i = 0; i < count; i++)
        client_stream_close(open[i]);
    free(open);
    free(fds);
    free(seen);
    free(latency);
    free(b.sent);
    free(b.move_latency);
    curl_global_cleanup();
    return 0;
}
