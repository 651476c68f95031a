/* growth.c: whether a move costs more as its match's log grows.
 *   growth keygen FILE
 *       makes the admin key: writes its secret to FILE, prints its public
 *       half (base64) for pbemd's PBEM_ADMIN_KEY.
 *   growth BASE_URL ADMIN_FILE CLIENTS MATCHES SECONDS EVENTS
 *       each of CLIENTS threads makes MATCHES antiquity_quest matches
 *       between its two players and plays each until its log holds EVENTS
 *       events (untimed), then plays them in turn for SECONDS, timing
 *       every move; prints one line of key=value pairs (ended: matches
 *       that random play ended while timed, then set aside).
 * A game lasts about 180 moves, so a log of thousands of events is made
 * the way a long-lived match gets one: an admin rewinds the match to just
 * after its start every CYCLE_MOVES moves and play goes on (the undone
 * events stay in the log). The timed part goes in rounds: every client
 * plays CYCLE_MOVES moves in each of its matches, all clients at once, and
 * the round is timed; then, untimed and with no move in flight, each
 * rewinds its matches (a rewind reads the whole log, an admin's cost
 * that would otherwise slow the moves beside it). Each client plays like
 * bench/service.c: a move asks for the mover's new view ("Prefer:
 * return=representation"), and a view is read again only when the turn
 * passes to the other seat. */
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

/* Moves between rewinds: well inside the shortest games. */
#define CYCLE_MOVES 40
#define MAX_SAMPLES 400000

typedef struct match {
    char id[32];
    long long anchor;    /* the event the rewinds go back to */
    long long head;
    int since_rewind;
    int seat;            /* the seat whose view is held, or must move */
    json_t *view;        /* that seat's view when still fresh, or NULL */
    bool over;           /* ended by chance: set aside (see step) */
} match;

typedef struct worker {
    const char *base_url;
    const client_key *admin;
    int matches;
    long long events;
    double seconds;
    client *c;
    client_key keys[2];
    match *m;
    long moves;
    int ended;           /* matches set aside because they ended */
    bool broken;         /* error set: takes no further part */
    double *latencies;
    long samples;
    long long first_head, last_head; /* summed over the matches */
    char error[256];
} worker;

static bool call(worker *w, const char *method, const char *path,
                 const char *body, const client_key *key, long expect,
                 client_response *r)
{
    return bench_call(w->c, method, path, body, key, expect, r, w->error);
}

static long long head_of(const json_t *match_json)
{
    return (long long)json_integer_value(
        json_object_get(json_object_get(match_json, "head"), "seq"));
}

static bool new_match(worker *w, match *m)
{
    client_response r;
    if (!call(w, "POST", "/v1/matches",
              "{\"game\":\"antiquity_quest\",\"seats\":2}", &w->keys[0], 201,
              &r))
        return false;
    snprintf(m->id, sizeof m->id, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    client_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", m->id);
    if (!call(w, "POST", path, "{}", &w->keys[1], 200, &r))
        return false;
    client_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/view", m->id);
    if (!call(w, "GET", path, NULL, &w->keys[0], 200, &r))
        return false;
    m->head = m->anchor = head_of(r.json);
    m->seat = 0;
    m->since_rewind = 0;
    m->over = false;
    json_decref(m->view);
    m->view = json_incref(r.json);
    client_response_free(&r);
    return true;
}

/* Takes the match back to its anchor; its view is read afresh. */
static bool rewind_match(worker *w, match *m)
{
    char path[96], body[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/rewind", m->id);
    snprintf(body, sizeof body,
             "{\"to_seq\":%lld,\"reason\":\"growing a long log\"}", m->anchor);
    client_response r;
    if (!call(w, "POST", path, body, w->admin, 200, &r))
        return false;
    m->head = (long long)json_integer_value(json_object_get(r.json, "seq"));
    client_response_free(&r);
    m->since_rewind = 0;
    json_decref(m->view);
    m->view = NULL;
    return true;
}

/* One move in m (a view read first when needed); *took is the move's
 * round trip, or 0 when only a view was read. */
static bool step(worker *w, match *m, double *took)
{
    *took = 0;
    char path[96];
    if (m->view == NULL) {
        client_response r;
        snprintf(path, sizeof path, "/v1/matches/%s/view", m->id);
        if (!call(w, "GET", path, NULL, &w->keys[m->seat], 200, &r))
            return false;
        m->view = json_incref(r.json);
        client_response_free(&r);
    }
    int to_move = bench_seat_to_move(m->view);
    if (to_move != m->seat) {
        m->seat = to_move;
        json_decref(m->view);
        m->view = NULL;
        return true;
    }
    char *text = bench_random_move(m->view);
    json_decref(m->view);
    m->view = NULL;
    snprintf(path, sizeof path, "/v1/matches/%s/moves", m->id);
    client_response r;
    double started = bench_now();
    bool ok = call(w, "POST", path, text, &w->keys[m->seat], 200, &r);
    *took = bench_now() - started;
    free(text);
    if (!ok)
        return false;
    m->head = (long long)json_integer_value(json_object_get(r.json, "seq"));
    m->since_rewind++;
    if (json_is_true(json_object_get(r.json, "over"))) {
        /* Random play can end a match within CYCLE_MOVES of its start (a
         * finished match cannot be rewound): it is set aside, and the
         * move counts. */
        m->over = true;
        w->ended++;
        client_response_free(&r);
        return true;
    }
    int next = bench_seat_to_move(r.json);
    if (next == m->seat)
        m->view = json_incref(json_object_get(r.json, "seat_view"));
    m->seat = next;
    client_response_free(&r);
    return m->since_rewind < CYCLE_MOVES || rewind_match(w, m);
}

static pthread_barrier_t rounds;
static volatile bool stop; /* set by main between two barriers */

static bool prepare(worker *w)
{
    w->c = client_new(w->base_url);
    char player[32];
    for (int i = 0; i < 2; i++) {
        client_new_key(&w->keys[i]);
        /* A match refuses two names that could be taken for each
         * other (core/names). */
        if (!client_register(w->c, i ? "Growth Second" : "Growth First", NULL,
                             &w->keys[i], player, w->error))
            return false;
    }
    double took;
    for (int i = 0; i < w->matches; i++) {
        match *m = &w->m[i];
        /* One that ends while its log grows is replaced. */
        do {
            if (!new_match(w, m))
                return false;
            while (!m->over && m->head < w->events)
                if (!step(w, m, &took))
                    return false;
        } while (m->over);
        w->first_head += m->head;
        if (m->since_rewind > 0 && !rewind_match(w, m))
            return false;
    }
    w->ended = 0; /* those replaced above are not reported */
    return true;
}

/* One round: CYCLE_MOVES moves in each match, in turn (the last move of a
 * cycle leaves the rewind to the untimed part). */
static bool play_round(worker *w)
{
    double took;
    for (int left = w->matches; left > 0;) {
        left = 0;
        for (int i = 0; i < w->matches; i++) {
            match *m = &w->m[i];
            if (m->over || m->since_rewind >= CYCLE_MOVES - 1)
                continue;
            if (!step(w, m, &took))
                return false;
            left++;
            if (took > 0) {
                w->moves++;
                if (w->samples < MAX_SAMPLES)
                    w->latencies[w->samples++] = took;
            }
        }
    }
    return true;
}

static bool rewind_all(worker *w)
{
    for (int i = 0; i < w->matches; i++)
        if (!w->m[i].over && !rewind_match(w, &w->m[i]))
            return false;
    return true;
}

static void *run(void *arg)
{
    worker *w = arg;
    w->broken = !prepare(w);
    for (;;) {
        pthread_barrier_wait(&rounds); /* ready */
        pthread_barrier_wait(&rounds); /* go, or stop */
        if (stop)
            break;
        w->broken = w->broken || !play_round(w);
        pthread_barrier_wait(&rounds); /* round over */
        w->broken = w->broken || !rewind_all(w);
    }
    for (int i = 0; i < w->matches; i++)
        w->last_head += w->m[i].head;
    return NULL;
}

static int keygen(const char *file)
{
    client_key admin;
    client_new_key(&admin);
    FILE *f = fopen(file, "wb");
    if (f == NULL || fwrite(admin.secret_key, 1, 64, f) != 64 ||
        fclose(f) != 0) {
        perror(file);
        return 1;
    }
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    printf("%s\n", b64);
    return 0;
}

static bool read_admin(const char *file, client_key *admin)
{
    FILE *f = fopen(file, "rb");
    bool ok = f != NULL && fread(admin->secret_key, 1, 64, f) == 64;
    if (f != NULL)
        fclose(f);
    if (!ok)
        return false;
    crypto_sign_ed25519_sk_to_pk(admin->public_key, admin->secret_key);
    snprintf(admin->key_id, sizeof admin->key_id, "admin");
    return true;
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0)
        return 1;
    if (argc == 3 && strcmp(argv[1], "keygen") == 0)
        return keygen(argv[2]);
    if (argc != 7) {
        fprintf(stderr,
                "usage: %s keygen FILE\n"
                "       %s BASE_URL ADMIN_FILE CLIENTS MATCHES SECONDS "
                "EVENTS\n",
                argv[0], argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    client_key admin;
    if (!read_admin(argv[2], &admin)) {
        fprintf(stderr, "growth: cannot read the admin key in %s\n", argv[2]);
        return 1;
    }
    int clients = atoi(argv[3]), matches = atoi(argv[4]);
    if (clients < 1 || matches < 1)
        return 2;
    double seconds = atof(argv[5]);
    worker *workers = calloc((size_t)clients, sizeof *workers);
    pthread_t *threads = calloc((size_t)clients, sizeof *threads);
    pthread_barrier_init(&rounds, NULL, (unsigned)clients + 1);
    for (int i = 0; i < clients; i++) {
        workers[i] = (worker){.base_url = argv[1], .admin = &admin,
                              .matches = matches,
                              .events = atoll(argv[6]),
                              .seconds = seconds};
        workers[i].m = calloc((size_t)matches, sizeof(match));
        workers[i].latencies = malloc(MAX_SAMPLES * sizeof(double));
        pthread_create(&threads[i], NULL, run, &workers[i]);
    }
    double timed = 0;
    for (;;) {
        pthread_barrier_wait(&rounds); /* every client ready */
        stop = timed >= seconds;
        double started = bench_now();
        pthread_barrier_wait(&rounds);
        if (stop)
            break;
        pthread_barrier_wait(&rounds); /* every client's round over */
        timed += bench_now() - started;
    }
    long moves = 0, samples = 0, ended = 0;
    long long first = 0, last = 0;
    bool failed = false;
    for (int i = 0; i < clients; i++) {
        pthread_join(threads[i], NULL);
        worker *w = &workers[i];
        moves += w->moves;
        samples += w->samples;
        ended += w->ended;
        first += w->first_head;
        last += w->last_head;
        if (w->error[0]) {
            fprintf(stderr, "client %d: %s\n", i, w->error);
            failed = true;
        }
    }
    double *all = malloc((size_t)(samples ? samples : 1) * sizeof(double));
    long n = 0;
    for (int i = 0; i < clients; i++) {
        worker *w = &workers[i];
        memcpy(all + n, w->latencies, (size_t)w->samples * sizeof(double));
        n += w->samples;
        for (int j = 0; j < w->matches; j++)
            json_decref(w->m[j].view);
        free(w->m);
        free(w->latencies);
        if (w->c != NULL)
            client_free(w->c);
    }
    double p50, p99;
    bench_percentiles(all, n, &p50, &p99);
    long total = (long)clients * matches;
    printf("events=%s clients=%d matches=%ld log_at_start=%lld "
           "log_at_end=%lld moves=%ld moves_per_second=%.1f p50_ms=%.2f "
           "p99_ms=%.2f ended=%ld\n",
           argv[6], clients, total, first / total, last / total, moves,
           timed > 0 ? (double)moves / timed : 0, p50, p99, ended);
    free(all);
    free(workers);
    free(threads);
    pthread_barrier_destroy(&rounds);
    curl_global_cleanup();
    return failed || moves == 0 ? 1 : 0;
}
