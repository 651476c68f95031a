/* service.c: signed moves per second through the whole service.
 *   service BASE_URL GAME CLIENTS SECONDS
 * Each client is a thread with its own two players and its own matches:
 * it reads its seat's view (legal moves), posts one at random, and times
 * the POST from send to answer. Like a careful bot, it asks for the new
 * state with each move ("Prefer: return=representation") and reads the view
 * again only when the turn has passed to the other seat. Prints accepted moves per second and the
 * p50/p99 latency of the accepted moves as one line of key=value pairs. */
#include <curl/curl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "latency.h"
#include "play.h"

#define MAX_SAMPLES 200000

typedef struct worker {
    const char *base_url;
    const char *game;
    double deadline;
    long accepted;
    long failed;
    double *latencies;
    long samples;
    char error[256];
} worker;

static bool call(client *c, const char *method, const char *path,
                 const char *body, const client_key *key, long expect,
                 client_response *r, worker *w)
{
    return bench_call(c, method, path, body, key, expect, r, w->error);
}

/* Creates a two-seat match between the worker's players; writes its id. */
static bool new_match(client *c, worker *w, client_key keys[2], char id[32])
{
    char body[128];
    client_response r;
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":2}", w->game);
    if (!call(c, "POST", "/v1/matches", body, &keys[0], 201, &r, w))
        return false;
    snprintf(id, 32, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    client_response_free(&r);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/join", id);
    if (!call(c, "POST", path, "{}", &keys[1], 200, &r, w))
        return false;
    client_response_free(&r);
    return true;
}

static void *play(void *arg)
{
    worker *w = arg;
    client *c = client_new(w->base_url);
    client_key keys[2];
    char player[32], match[32] = "";
    for (int i = 0; i < 2; i++) {
        client_new_key(&keys[i]);
        /* Two names that cannot be taken for each other: a match
         * refuses a second "bench" (core/names). */
        if (!client_register(c, i ? "Bench Second" : "Bench First", NULL,
                             &keys[i], player, w->error))
            goto done;
    }
    int seat = 0;
    json_t *view = NULL; /* the seat's view with its legal moves, when fresh */
    while (bench_now() < w->deadline) {
        if (match[0] == '\0' && !new_match(c, w, keys, match))
            break;
        char path[64];
        if (view == NULL) {
            client_response r;
            snprintf(path, sizeof path, "/v1/matches/%s/view", match);
            if (!call(c, "GET", path, NULL, &keys[seat], 200, &r, w))
                break;
            view = json_incref(r.json);
            client_response_free(&r);
        }
        int to_move = bench_seat_to_move(view);
        if (to_move != seat) {
            seat = to_move;
            json_decref(view);
            view = NULL;
            continue;
        }
        char *text = bench_random_move(view);
        json_decref(view);
        view = NULL;
        snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
        client_response r;
        double started = bench_now();
        bool ok = call(c, "POST", path, text, &keys[seat], 200, &r, w);
        double took = bench_now() - started;
        free(text);
        if (!ok) {
            w->failed++;
            break;
        }
        w->accepted++;
        if (w->samples < MAX_SAMPLES)
            w->latencies[w->samples++] = took;
        if (json_is_true(json_object_get(r.json, "over"))) {
            match[0] = '\0';
        } else {
            int next = bench_seat_to_move(r.json);
            /* The answer shows the mover's view: still fresh if it moves
             * again. */
            if (next == seat)
                view = json_incref(json_object_get(r.json, "seat_view"));
            seat = next;
        }
        client_response_free(&r);
    }
    json_decref(view);
done:
    client_free(c);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s BASE_URL GAME CLIENTS SECONDS\n", argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    int clients = atoi(argv[3]);
    double seconds = atof(argv[4]);
    worker *workers = calloc((size_t)clients, sizeof *workers);
    pthread_t *threads = calloc((size_t)clients, sizeof *threads);
    double start = bench_now();
    for (int i = 0; i < clients; i++) {
        workers[i] = (worker){.base_url = argv[1], .game = argv[2],
                              .deadline = start + seconds};
        workers[i].latencies = malloc(MAX_SAMPLES * sizeof(double));
        pthread_create(&threads[i], NULL, play, &workers[i]);
    }
    long accepted = 0, failed = 0, samples = 0;
    for (int i = 0; i < clients; i++) {
        pthread_join(threads[i], NULL);
        accepted += workers[i].accepted;
        failed += workers[i].failed;
        samples += workers[i].samples;
        if (workers[i].error[0])
            fprintf(stderr, "client %d: %s\n", i, workers[i].error);
    }
    double elapsed = bench_now() - start;
    double *all = malloc((size_t)(samples ? samples : 1) * sizeof(double));
    long n = 0;
    for (int i = 0; i < clients; i++) {
        memcpy(all + n, workers[i].latencies,
               (size_t)workers[i].samples * sizeof(double));
        n += workers[i].samples;
        free(workers[i].latencies);
    }
    double p50, p99;
    bench_percentiles(all, n, &p50, &p99);
    printf("clients=%d accepted=%ld failed=%ld moves_per_second=%.1f "
           "p50_ms=%.2f p99_ms=%.2f\n",
           clients, accepted, failed, (double)accepted / elapsed, p50, p99);
    free(all);
    free(workers);
    free(threads);
    curl_global_cleanup();
    return failed > 0 || accepted == 0 ? 1 : 0;
}
