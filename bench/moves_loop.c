/* moves_loop.c: bench/service.c's players, driven by one thread per core.
 *   moves_loop BASE_URL GAME CLIENTS SECONDS [THREADS]
 * CLIENTS players each play their own two-seat matches exactly as in
 * bench/service.c (read the seat's view, post a random legal move with
 * "Prefer: return=representation", read the view again only when the turn
 * passes), but the requests go through curl multi handles, one per client
 * thread, instead of a thread per player. On two shared cores, 64 client
 * threads compete with the server's for the scheduler, and a thread that
 * waits for its turn on a core counts that wait in its move's latency.
 *
 * THREADS (default: the cores online) share the players out. One thread
 * was tried first: it left a core idle for a tenth of the run, while it
 * read a burst of answers one after another and the server had nothing to
 * do until it sent the next requests (perf sched, docs/benchmarks.md); each
 * answer in the burst counted the reading of those before it in its
 * latency. Prints the same line as bench/service.c. */
#include <curl/curl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "latency.h"
#include "multi_request.h"
#include "play.h"

#define MAX_SAMPLES 400000 /* per thread */
#define MAX_THREADS 64

typedef enum step { CREATE, JOIN, VIEW, MOVE } step;

typedef struct player {
    client_key keys[2];
    char match[32];
    int seat;
    json_t *view; /* the seat's view when fresh */
    /* The request in flight. */
    step doing;
    multi_request req;
    double sent;
} player;

/* One client thread: its players, its multi handle, what it measured. */
typedef struct run {
    multi_sockets io; /* the multi handle and the epoll set watching it */
    const char *base_url;
    const char *game;
    player *players;
    int count;
    double deadline;
    pthread_t thread;
    long timeout_ms; /* when curl wants to be called anyway; -1: never */
    int in_flight;   /* requests sent and not yet answered */
    long accepted;
    long failed;
    double *latencies;
    long samples;
    char error[256];
} run;

/* Sends method path body (taken) signed by the player in seat as p's next
 * request. */
static bool send_request(run *r, player *p, step doing, const char *method,
                         const char *path, char *body, int seat)
{
    p->doing = doing;
    if (!multi_request_send(&p->req, r->io.multi, r->base_url, method, path,
                            body, &p->keys[seat], p, r->error))
        return false;
    /* Signed and handed to curl: the latency runs from here. */
    p->sent = bench_now();
    r->in_flight++;
    return true;
}

static bool ask_view(run *r, player *p)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", p->match);
    return send_request(r, p, VIEW, "GET", path, NULL, p->seat);
}

/* With a fresh view: the move, or the other seat's view first. */
static bool next_request(run *r, player *p)
{
    if (p->match[0] == '\0') {
        char *body = NULL;
        if (asprintf(&body, "{\"game\":\"%s\",\"seats\":2}", r->game) < 0)
            abort();
        return send_request(r, p, CREATE, "POST", "/v1/matches", body, 0);
    }
    if (p->view == NULL)
        return ask_view(r, p);
    int to_move = bench_seat_to_move(p->view);
    if (to_move != p->seat) {
        p->seat = to_move;
        json_decref(p->view);
        p->view = NULL;
        return ask_view(r, p);
    }
    char *text = bench_random_move(p->view);
    json_decref(p->view);
    p->view = NULL;
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", p->match);
    return send_request(r, p, MOVE, "POST", path, text, p->seat);
}

/* The answer to p's request: what it changes, then the next request
 * unless the time is up (more false). */
static bool answered(run *r, player *p, double at, bool more)
{
    long status = multi_request_done(&p->req, r->io.multi);
    r->in_flight--;
    long expect = p->doing == CREATE ? 201 : 200;
    if (status != expect) {
        snprintf(r->error, sizeof r->error, "step %d of %s: %ld %.180s",
                 (int)p->doing, p->match, status,
                 p->req.answer ? p->req.answer : "");
        return false;
    }
    json_t *json = json_loads(p->req.answer, 0, NULL);
    char path[96];
    bool ok = true;
    if (!more) {
        if (p->doing == MOVE) {
            r->accepted++;
            if (r->samples < MAX_SAMPLES)
                r->latencies[r->samples++] = at - p->sent;
        }
        json_decref(json);
        return true;
    }
    switch (p->doing) {
    case CREATE:
        snprintf(p->match, sizeof p->match, "%s",
                 json_string_value(
                     json_object_get(json_object_get(json, "match"), "id")));
        snprintf(path, sizeof path, "/v1/matches/%s/join", p->match);
        ok = send_request(r, p, JOIN, "POST", path, strdup("{}"), 1);
        break;
    case JOIN:
        p->seat = 0;
        ok = next_request(r, p);
        break;
    case VIEW:
        p->view = json_incref(json);
        ok = next_request(r, p);
        break;
    case MOVE:
        r->accepted++;
        if (r->samples < MAX_SAMPLES)
            r->latencies[r->samples++] = at - p->sent;
        if (json_is_true(json_object_get(json, "over"))) {
            p->match[0] = '\0';
        } else {
            int next = bench_seat_to_move(json);
            if (next == p->seat)
                p->view = json_incref(json_object_get(json, "seat_view"));
            p->seat = next;
        }
        ok = next_request(r, p);
        break;
    }
    json_decref(json);
    return ok;
}

static int set_timer(CURLM *multi, long timeout_ms, void *user)
{
    (void)multi;
    ((run *)user)->timeout_ms = timeout_ms;
    return 0;
}

/* Reads the transfers curl has finished: each answer, and the request
 * that follows it. False on the first failure (r->error says it). */
static bool read_answers(run *r)
{
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(r->io.multi, &left)) != NULL) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        double at = bench_now();
        player *p = NULL;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &p);
        if (msg->data.result != CURLE_OK) {
            snprintf(r->error, sizeof r->error, "%s",
                     curl_easy_strerror(msg->data.result));
            return false;
        }
        /* Past the deadline, answers are counted and nothing new is
         * sent. */
        if (!answered(r, p, at, at < r->deadline))
            return false;
    }
    return true;
}

/* One client thread: starts its players, then answers and sends until
 * the deadline and every answer still awaited is in. curl's socket
 * interface with epoll: each wake-up touches only the connections that
 * are ready (curl_multi_poll polled all of them every time). */
static void *drive(void *arg)
{
    run *r = arg;
    r->timeout_ms = -1;
    r->io.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    if (r->io.epoll_fd < 0)
        abort();
    multi_sockets_watch(&r->io);
    curl_multi_setopt(r->io.multi, CURLMOPT_TIMERFUNCTION, set_timer);
    curl_multi_setopt(r->io.multi, CURLMOPT_TIMERDATA, r);
    bool ok = true;
    for (int i = 0; ok && i < r->count; i++)
        ok = next_request(r, &r->players[i]);
    int running = 0;
    struct epoll_event events[64];
    while (ok && r->in_flight > 0) {
        int wait_ms =
            r->timeout_ms < 0 || r->timeout_ms > 100 ? 100 : (int)r->timeout_ms;
        int n =
            wait_ms == 0 ? 0 : epoll_wait(r->io.epoll_fd, events, 64, wait_ms);
        if (n <= 0) {
            curl_multi_socket_action(r->io.multi, CURL_SOCKET_TIMEOUT, 0,
                                     &running);
        }
        for (int i = 0; i < n; i++)
            multi_sockets_act(&r->io, &events[i], &running);
        ok = read_answers(r);
    }
    if (!ok)
        r->failed++;
    return NULL;
}

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: %s BASE_URL GAME CLIENTS SECONDS [THREADS]\n",
                argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    int count = atoi(argv[3]);
    double seconds = atof(argv[4]);
    int threads = argc == 6 ? atoi(argv[5]) : online_cores();
    if (count < 1 || threads < 1 || threads > MAX_THREADS)
        return 2;
    if (threads > count)
        threads = count;
    player *players = calloc((size_t)count, sizeof *players);
    run *runs = calloc((size_t)threads, sizeof *runs);
    if (players == NULL || runs == NULL)
        abort();
    /* Registration, before anything is timed. */
    char error[256];
    client *setup = client_new(argv[1]);
    for (int i = 0; i < count; i++) {
        char id[32];
        for (int k = 0; k < 2; k++) {
            client_new_key(&players[i].keys[k]);
            /* A match refuses two names that could be taken for each
             * other (core/names). */
            if (!client_register(setup, k ? "Bench Second" : "Bench First",
                                 NULL, &players[i].keys[k], id, error)) {
                fprintf(stderr, "%s\n", error);
                return 1;
            }
        }
        players[i].req.easy = curl_easy_init();
    }
    client_free(setup);
    double start = bench_now();
    for (int t = 0, first = 0; t < threads; t++) {
        run *r = &runs[t];
        int share = count / threads + (t < count % threads);
        *r = (run){.io.multi = curl_multi_init(),
                   .base_url = argv[1],
                   .game = argv[2],
                   .players = players + first,
                   .count = share,
                   .deadline = start + seconds,
                   .latencies = malloc(MAX_SAMPLES * sizeof(double))};
        if (r->io.multi == NULL || r->latencies == NULL)
            abort();
        curl_multi_setopt(r->io.multi, CURLMOPT_MAXCONNECTS, (long)share);
        first += share;
        if (pthread_create(&r->thread, NULL, drive, r) != 0)
            abort();
    }
    long accepted = 0, failed = 0, samples = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(runs[t].thread, NULL);
        accepted += runs[t].accepted;
        failed += runs[t].failed;
        samples += runs[t].samples;
        if (runs[t].failed > 0)
            fprintf(stderr, "moves_loop: %s\n", runs[t].error);
    }
    double elapsed = bench_now() - start;
    double *latencies =
        malloc((size_t)(samples > 0 ? samples : 1) * sizeof(double));
    if (latencies == NULL)
        abort();
    for (int t = 0, at = 0; t < threads; t++) {
        memcpy(latencies + at, runs[t].latencies,
               (size_t)runs[t].samples * sizeof(double));
        at += (int)runs[t].samples;
    }
    double p50, p99;
    bench_percentiles(latencies, samples, &p50, &p99);
    printf("clients=%d accepted=%ld failed=%ld moves_per_second=%.1f "
           "p50_ms=%.2f p99_ms=%.2f\n",
           count, accepted, failed, (double)accepted / elapsed, p50, p99);
    for (int t = 0; t < threads; t++) {
        run *r = &runs[t];
        for (int i = 0; i < r->count; i++) {
            player *p = &r->players[i];
            curl_multi_remove_handle(r->io.multi, p->req.easy);
            multi_request_free(&p->req);
            json_decref(p->view);
        }
        /* After curl's last socket callback. */
        curl_multi_cleanup(r->io.multi);
        close(r->io.epoll_fd);
        free(r->latencies);
    }
    free(latencies);
    free(players);
    free(runs);
    curl_global_cleanup();
    return failed > 0 || accepted == 0 ? 1 : 0;
}
