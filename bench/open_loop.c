/* open_loop.c: moves that arrive on their own clock, whatever the server's
 * answers (#42).
 *   open_loop BASE_URL GAME MATCHES SECONDS RATE [RATE...]
 * A closed loop (bench/service.c, bench/moves_loop.c) sends a player's next
 * move when the last is answered, so a slow server slows its own load and
 * its queues never grow: latency there is a function of throughput. Here
 * moves arrive at RATE a second in a Poisson process (exponential times
 * between arrivals, from a seeded generator, the same every run) for
 * SECONDS, at each RATE in turn, and each arrival's latency runs from the
 * time it was due to its answer, not from when it could be sent: a late
 * send counts in the latency (no coordinated omission).
 *
 * Each arrival is one move of one of MATCHES two-seat matches, played as
 * moves_loop plays them (each request signed, a random legal move, asked
 * with "Prefer: return=representation"). A match with a request in flight
 * is busy: its move, then the view of the seat that must act next when the
 * turn passed, or a new match when it ended. An arrival takes the match
 * idle the longest; when every match is busy it is missed, and counted
 * (MATCHES should be large enough that none is). The views and new matches
 * are load on the server but not timed: only the moves are.
 *
 * One thread per core, each with its own share of the matches, its own
 * arrivals at its share of RATE (independent Poisson processes add up to
 * one at the sum of their rates), and one curl multi handle on epoll; the
 * arrivals wake it through a timerfd (epoll_wait's timeout is in whole
 * milliseconds, which would send most moves late by a fraction of one).
 * Prints a line of key=value pairs per RATE: besides the latencies, the
 * 99th percentile of the sends' own lateness (the client's share of the
 * latency) and the connections the moves had to open. */
#include <curl/curl.h>
#include <math.h>
#include <pthread.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "latency.h"
#include "multi_request.h"
#include "play.h"

#define MAX_THREADS 64
#define MAX_RATES 8
/* Player pairs seated at most: registering costs a request each, and a
 * player may sit in many matches. */
#define MAX_PAIRS 32
/* Connections of all threads together: pbemd allows 200 from one address.
 * A move that finds them all busy waits in curl's queue, and that wait
 * counts in its latency. */
#define CONNECTIONS 128
#define ARRIVAL_SEED 42

typedef enum step { CREATE, JOIN, VIEW, MOVE } step;

typedef struct match {
    const client_key *keys; /* the two players seated in it: borrowed */
    char id[32];
    int seat;     /* the seat that must act */
    json_t *view; /* that seat's view while the match is idle */
    /* The request in flight. */
    step doing;
    multi_request req;
    double due; /* a move's arrival time */
} match;

/* Durations in seconds, in an array that grows. */
typedef struct samples {
    double *v;
    long n;
    long room;
} samples;

/* What one thread measured at one rate. */
typedef struct load {
    long arrivals;
    long missed; /* arrivals that found every match busy */
    long answered;
    long failed;
    long connects;     /* connections opened for the moves */
    samples latencies; /* from the arrival to the answer */
    samples lags;      /* from the arrival to handing the move to curl */
} load;

/* One client thread: its matches, its multi handle, its arrivals. */
typedef struct run {
    multi_sockets io; /* the multi handle and the epoll set watching it */
    const char *base_url;
    const char *game;
    match *matches;
    int count;
    match **idle; /* a ring of the idle matches, the longest idle first */
    int idle_first;
    int idle_count;
    int timer_fd;    /* fires at the next arrival */
    double curl_due; /* when curl wants its timeout action; < 0: never */
    int in_flight;
    /* The load being driven; rate 0 while the matches are set up. */
    double rate;
    double next_arrival;
    double deadline;
    unsigned short seed[3];
    load *measured;
    long errors;
    char error[256]; /* the first error */
    pthread_t thread;
} run;

/* A request of m failed: m is never idle again, so it plays no more. */
static void fail(run *r, match *m, const char *what)
{
    static const char *const steps[] = {"create", "join", "view", "move"};
    if (r->errors++ == 0)
        snprintf(r->error, sizeof r->error, "%s of %s: %.200s", steps[m->doing],
                 m->id[0] ? m->id : "a new match", what);
}

/* Sends method path body (taken), signed by the player in seat, as m's
 * request. */
static void send_request(run *r, match *m, step doing, const char *method,
                         const char *path, char *body, int seat)
{
    m->doing = doing;
    char error[256];
    if (!multi_request_send(&m->req, r->io.multi, r->base_url, method, path,
                            body, &m->keys[seat], m, error)) {
        fail(r, m, error);
        return;
    }
    r->in_flight++;
}

static void create_match(run *r, match *m)
{
    char *body = NULL;
    if (asprintf(&body, "{\"game\":\"%s\",\"seats\":2}", r->game) < 0)
        abort();
    send_request(r, m, CREATE, "POST", "/v1/matches", body, 0);
}

static void ask_view(run *r, match *m)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", m->id);
    send_request(r, m, VIEW, "GET", path, NULL, m->seat);
}

static void make_idle(run *r, match *m)
{
    r->idle[(r->idle_first + r->idle_count++) % r->count] = m;
}

static match *take_idle(run *r)
{
    if (r->idle_count == 0)
        return NULL;
    match *m = r->idle[r->idle_first];
    r->idle_first = (r->idle_first + 1) % r->count;
    r->idle_count--;
    return m;
}

static void record(samples *s, double seconds)
{
    if (s->n == s->room) {
        s->room = s->room ? 2 * s->room : 4096;
        s->v = realloc(s->v, (size_t)s->room * sizeof(double));
        if (s->v == NULL)
            abort();
    }
    s->v[s->n++] = seconds;
}

/* m's move from its seat's view, due at due. */
static void send_move(run *r, match *m, double due)
{
    char *text = bench_random_move(m->view);
    json_decref(m->view);
    m->view = NULL;
    m->due = due;
    record(&r->measured->lags, bench_now() - due);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", m->id);
    send_request(r, m, MOVE, "POST", path, text, m->seat);
}

/* The answer to m's request, at at: a move's latency, and what the match
 * needs before its next move. */
static void answered(run *r, match *m, CURLcode result, double at)
{
    long status = multi_request_done(&m->req, r->io.multi);
    r->in_flight--;
    long expect = m->doing == CREATE ? 201 : 200;
    json_t *json = result == CURLE_OK && status == expect
                       ? json_loads(m->req.answer, 0, NULL)
                       : NULL;
    if (json == NULL) {
        char what[256];
        snprintf(what, sizeof what, "%s, %ld %.160s",
                 curl_easy_strerror(result), status,
                 m->req.answer_len ? m->req.answer : "");
        if (m->doing == MOVE)
            r->measured->failed++;
        fail(r, m, what);
        return;
    }
    char path[96];
    switch (m->doing) {
    case CREATE:
        snprintf(m->id, sizeof m->id, "%s",
                 json_string_value(
                     json_object_get(json_object_get(json, "match"), "id")));
        snprintf(path, sizeof path, "/v1/matches/%s/join", m->id);
        send_request(r, m, JOIN, "POST", path, strdup("{}"), 1);
        break;
    case JOIN:
        m->seat = bench_seat_to_move(json);
        ask_view(r, m);
        break;
    case VIEW:
        m->view = json_incref(json);
        make_idle(r, m);
        break;
    case MOVE:
        r->measured->answered++;
        long connects = 0;
        curl_easy_getinfo(m->req.easy, CURLINFO_NUM_CONNECTS, &connects);
        r->measured->connects += connects;
        record(&r->measured->latencies, at - m->due);
        if (json_is_true(json_object_get(json, "over"))) {
            m->id[0] = '\0';
            create_match(r, m);
            break;
        }
        int next = bench_seat_to_move(json);
        if (next == m->seat) {
            m->view = json_incref(json_object_get(json, "seat_view"));
            make_idle(r, m);
        } else {
            m->seat = next;
            ask_view(r, m);
        }
        break;
    }
    json_decref(json);
}

static void read_answers(run *r)
{
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(r->io.multi, &left)) != NULL) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        double at = bench_now();
        match *m = NULL;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &m);
        answered(r, m, msg->data.result, at);
    }
}

/* Arms the timer for the next arrival, or disarms it past the window. */
static void arm_timer(run *r)
{
    struct itimerspec when = {0};
    if (r->rate > 0 && r->next_arrival < r->deadline) {
        when.it_value.tv_sec = (time_t)r->next_arrival;
        when.it_value.tv_nsec =
            (long)((r->next_arrival - (double)when.it_value.tv_sec) * 1e9);
        /* 0 would disarm it. */
        if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0)
            when.it_value.tv_nsec = 1;
    }
    if (timerfd_settime(r->timer_fd, TFD_TIMER_ABSTIME, &when, NULL) != 0)
        abort();
}

static double next_gap(run *r)
{
    /* erand48 is in [0, 1), so the logarithm's argument is in (0, 1]. */
    return -log(1.0 - erand48(r->seed)) / r->rate;
}

/* Every arrival due by now, each a move of the match idle the longest. */
static void arrive(run *r, double now)
{
    if (r->rate <= 0)
        return;
    while (r->next_arrival <= now && r->next_arrival < r->deadline) {
        double due = r->next_arrival;
        r->next_arrival += next_gap(r);
        r->measured->arrivals++;
        match *m = take_idle(r);
        if (m == NULL)
            r->measured->missed++;
        else
            send_move(r, m, due);
    }
    arm_timer(r);
}

/* curl's timer callback: the time is kept as a deadline, since the loop
 * also wakes for arrivals and the socket. */
static int set_timer(CURLM *multi, long timeout_ms, void *user)
{
    (void)multi;
    run *r = user;
    r->curl_due = timeout_ms < 0 ? -1 : bench_now() + timeout_ms / 1e3;
    return 0;
}

/* Sends the window's arrivals and reads the answers, until the window has
 * passed and nothing is in flight: every wait ends on a socket, the next
 * arrival, curl's timeout or 100 ms. Each request ends within curl's 30 s
 * timeout, so this does too. */
static void *drive(void *arg)
{
    run *r = arg;
    struct epoll_event events[64];
    arm_timer(r);
    for (;;) {
        double now = bench_now();
        arrive(r, now);
        if (r->in_flight == 0 && (r->rate <= 0 || now >= r->deadline))
            break;
        int wait_ms = 100;
        if (r->curl_due >= 0 && r->curl_due - now < 0.1)
            wait_ms =
                r->curl_due <= now ? 0 : (int)ceil((r->curl_due - now) * 1e3);
        int n =
            wait_ms == 0 ? 0 : epoll_wait(r->io.epoll_fd, events, 64, wait_ms);
        int running = 0;
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == r->timer_fd) {
                uint64_t expirations;
                if (read(fd, &expirations, sizeof expirations) < 0) {
                    /* Disarmed since it fired: nothing to read. */
                }
                continue;
            }
            multi_sockets_act(&r->io, &events[i], &running);
        }
        if (r->curl_due >= 0 && bench_now() >= r->curl_due) {
            r->curl_due = -1;
            curl_multi_socket_action(r->io.multi, CURL_SOCKET_TIMEOUT, 0,
                                     &running);
        }
        read_answers(r);
    }
    return NULL;
}

/* The threads' samples of one kind (which picks it from a load) at rate k,
 * together and sorted; *n says how many. Malloc'd. */
static double *gather(int threads, int k, load loads[][MAX_RATES],
                      samples *(*which)(load *), long *n)
{
    *n = 0;
    for (int t = 0; t < threads; t++)
        *n += which(&loads[t][k])->n;
    double *all = malloc((size_t)(*n ? *n : 1) * sizeof(double));
    if (all == NULL)
        abort();
    long at = 0;
    for (int t = 0; t < threads; t++) {
        samples *s = which(&loads[t][k]);
        memcpy(all + at, s->v, (size_t)s->n * sizeof(double));
        at += s->n;
    }
    double p50, p99;
    bench_percentiles(all, *n, &p50, &p99); /* sorts them */
    return all;
}

static samples *latencies_of(load *l)
{
    return &l->latencies;
}

static samples *lags_of(load *l)
{
    return &l->lags;
}

/* The sorted samples' p-th quantile (0 to 1), in milliseconds. */
static double quantile_ms(const double *sorted, long n, double p)
{
    return n ? sorted[(long)((double)n * p) < n ? (long)((double)n * p)
                                                : n - 1] *
                   1e3
             : 0;
}

/* The threads' measurements of rate k as one line. */
static void report(int threads, int k, double rate, double seconds, long errors,
                   load loads[][MAX_RATES])
{
    long arrivals = 0, missed = 0, done = 0, failed = 0, connects = 0;
    for (int t = 0; t < threads; t++) {
        load *l = &loads[t][k];
        arrivals += l->arrivals;
        connects += l->connects;
        missed += l->missed;
        done += l->answered;
        failed += l->failed;
    }
    long n, lag_n;
    double *all = gather(threads, k, loads, latencies_of, &n);
    double *lags = gather(threads, k, loads, lags_of, &lag_n);
    long over = 0;
    while (over < n && all[n - 1 - over] > 1.0)
        over++;
    printf("rate=%.1f seconds=%.1f arrivals=%ld offered_per_second=%.1f "
           "answered_per_second=%.1f missed=%ld failed=%ld errors=%ld "
           "p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f over_1s=%ld "
           "send_lag_p99_ms=%.2f connections_opened=%ld\n",
           rate, seconds, arrivals, (double)arrivals / seconds,
           (double)done / seconds, missed, failed, errors,
           quantile_ms(all, n, 0.5), quantile_ms(all, n, 0.99),
           quantile_ms(all, n, 0.999), quantile_ms(all, n, 1.0), over,
           quantile_ms(lags, lag_n, 0.99), connects);
    fflush(stdout);
    free(all);
    free(lags);
}

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* Runs every thread once over its current settings, and waits for them. */
static long run_threads(run *runs, int threads)
{
    long errors = 0;
    for (int t = 0; t < threads; t++)
        if (pthread_create(&runs[t].thread, NULL, drive, &runs[t]) != 0)
            abort();
    for (int t = 0; t < threads; t++) {
        pthread_join(runs[t].thread, NULL);
        errors += runs[t].errors;
        if (runs[t].errors > 0)
            fprintf(stderr, "open_loop: %ld errors, the first: %s\n",
                    runs[t].errors, runs[t].error);
        runs[t].errors = 0;
    }
    return errors;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 5 + MAX_RATES) {
        fprintf(stderr,
                "usage: %s BASE_URL GAME MATCHES SECONDS RATE [RATE...]\n",
                argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    int count = atoi(argv[3]);
    double seconds = atof(argv[4]);
    int rates = argc - 5;
    double rate[MAX_RATES];
    for (int k = 0; k < rates; k++) {
        rate[k] = atof(argv[5 + k]);
        if (rate[k] <= 0) {
            fprintf(stderr, "open_loop: a RATE must be positive: %s\n",
                    argv[5 + k]);
            return 2;
        }
    }
    int threads = online_cores();
    if (count < 1 || seconds <= 0)
        return 2;
    if (threads > count)
        threads = count;
    int pairs = count < MAX_PAIRS ? count : MAX_PAIRS;
    client_key(*keys)[2] = calloc((size_t)pairs, sizeof *keys);
    match *matches = calloc((size_t)count, sizeof *matches);
    match **idle = calloc((size_t)count, sizeof *idle);
    run *runs = calloc((size_t)threads, sizeof *runs);
    load(*loads)[MAX_RATES] = calloc((size_t)threads, sizeof *loads);
    if (keys == NULL || matches == NULL || idle == NULL || runs == NULL ||
        loads == NULL)
        abort();
    char error[256];
    client *setup = client_new(argv[1]);
    for (int i = 0; i < pairs; i++) {
        char id[32];
        for (int k = 0; k < 2; k++) {
            client_new_key(&keys[i][k]);
            /* A match refuses two names that could be taken for each
             * other (core/names). */
            if (!client_register(setup, k ? "Bench Second" : "Bench First",
                                 NULL, &keys[i][k], id, error)) {
                fprintf(stderr, "%s\n", error);
                return 1;
            }
        }
    }
    client_free(setup);
    for (int i = 0; i < count; i++) {
        matches[i].keys = keys[i % pairs];
        matches[i].req.easy = curl_easy_init();
        if (matches[i].req.easy == NULL)
            abort();
    }
    /* The matches are made and their first views read before anything is
     * timed, by the threads that will play them. */
    for (int t = 0, first = 0; t < threads; t++) {
        run *r = &runs[t];
        int share = count / threads + (t < count % threads);
        *r = (run){.io = {.multi = curl_multi_init(),
                          .epoll_fd = epoll_create1(EPOLL_CLOEXEC)},
                   .base_url = argv[1],
                   .game = argv[2],
                   .matches = matches + first,
                   .count = share,
                   .idle = idle + first,
                   .timer_fd = timerfd_create(CLOCK_MONOTONIC,
                                              TFD_NONBLOCK | TFD_CLOEXEC),
                   .curl_due = -1,
                   .seed = {0x330e, ARRIVAL_SEED, (unsigned short)t},
                   .measured = &loads[t][0]};
        first += share;
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = r->timer_fd};
        if (r->io.multi == NULL || r->io.epoll_fd < 0 || r->timer_fd < 0 ||
            epoll_ctl(r->io.epoll_fd, EPOLL_CTL_ADD, r->timer_fd, &ev) != 0)
            abort();
        long per_thread = CONNECTIONS / threads > 0 ? CONNECTIONS / threads : 1;
        curl_multi_setopt(r->io.multi, CURLMOPT_MAXCONNECTS, per_thread);
        curl_multi_setopt(r->io.multi, CURLMOPT_MAX_TOTAL_CONNECTIONS,
                          per_thread);
        multi_sockets_watch(&r->io);
        curl_multi_setopt(r->io.multi, CURLMOPT_TIMERFUNCTION, set_timer);
        curl_multi_setopt(r->io.multi, CURLMOPT_TIMERDATA, r);
        for (int i = 0; i < share; i++)
            create_match(r, &r->matches[i]);
    }
    if (run_threads(runs, threads) > 0)
        return 1;
    int answers = 0; /* rates measured without an error */
    for (int k = 0; k < rates; k++) {
        double start = bench_now() + 0.01;
        for (int t = 0; t < threads; t++) {
            run *r = &runs[t];
            r->rate = rate[k] / threads;
            r->deadline = start + seconds;
            r->next_arrival = start + next_gap(r);
            r->measured = &loads[t][k];
        }
        long errors = run_threads(runs, threads);
        report(threads, k, rate[k], seconds, errors, loads);
        answers += errors == 0;
    }
    for (int t = 0; t < threads; t++) {
        run *r = &runs[t];
        for (int i = 0; i < r->count; i++) {
            match *m = &r->matches[i];
            curl_multi_remove_handle(r->io.multi, m->req.easy);
            multi_request_free(&m->req);
            json_decref(m->view);
        }
        /* After curl's last socket callback. */
        curl_multi_cleanup(r->io.multi);
        close(r->io.epoll_fd);
        close(r->timer_fd);
        for (int k = 0; k < rates; k++) {
            free(loads[t][k].latencies.v);
            free(loads[t][k].lags.v);
        }
    }
    free(keys);
    free(matches);
    free(idle);
    free(runs);
    free(loads);
    curl_global_cleanup();
    return answers == rates ? 0 : 1;
}
