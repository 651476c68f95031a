/* moves_loop.c: bench/service.c's players, all driven by one thread.
 *   moves_loop BASE_URL GAME CLIENTS SECONDS
 * CLIENTS players each play their own two-seat matches exactly as in
 * bench/service.c (read the seat's view, post a random legal move with
 * "Prefer: return=representation", read the view again only when the turn
 * passes), but every request goes through one curl multi handle on one
 * thread instead of a thread per player. On two shared cores, 64 client
 * threads compete with the server's for the scheduler, and a thread that
 * waits for its turn on a core counts that wait in its move's latency;
 * here the client is one runnable thread however many players it drives,
 * so the latency is closer to what the server gives. Prints the same line
 * as bench/service.c. */
#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"
#include "latency.h"
#include "play.h"

#define MAX_SAMPLES 400000

typedef enum step { CREATE, JOIN, VIEW, MOVE } step;

typedef struct player {
    client_key keys[2];
    char match[32];
    int seat;
    json_t *view; /* the seat's view when fresh */
    /* The request in flight. */
    step doing;
    CURL *easy;
    struct curl_slist *headers;
    char *body;
    char *answer;
    size_t answer_len;
    double sent;
} player;

typedef struct run {
    CURLM *multi;
    const char *base_url;
    const char *game;
    int in_flight; /* requests sent and not yet answered */
    long accepted;
    long failed;
    double *latencies;
    long samples;
    char error[256];
} run;

static size_t collect(char *data, size_t size, size_t count, void *user)
{
    player *p = user;
    size_t n = size * count;
    char *grown = realloc(p->answer, p->answer_len + n + 1);
    if (grown == NULL)
        abort();
    memcpy(grown + p->answer_len, data, n);
    p->answer_len += n;
    grown[p->answer_len] = '\0';
    p->answer = grown;
    return n;
}

/* Sends method path body signed by key as p's next request. */
static bool send_request(run *r, player *p, step doing, const char *method,
                         const char *path, char *body, int seat)
{
    char url[256];
    snprintf(url, sizeof url, "%s%s", r->base_url, path);
    p->doing = doing;
    p->body = body;
    p->answer_len = 0;
    p->headers = curl_slist_append(NULL, "Content-Type: application/json");
    p->headers = curl_slist_append(p->headers, "Expect:");
    p->headers =
        curl_slist_append(p->headers, "Prefer: return=representation");
    if (!client_sign_headers(method, path, body, &p->keys[seat], &p->headers,
                             r->error))
        return false;
    curl_easy_reset(p->easy);
    curl_easy_setopt(p->easy, CURLOPT_URL, url);
    curl_easy_setopt(p->easy, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(p->easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(p->easy, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(p->easy, CURLOPT_HTTPHEADER, p->headers);
    if (body != NULL) {
        curl_easy_setopt(p->easy, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(p->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    curl_easy_setopt(p->easy, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(p->easy, CURLOPT_WRITEDATA, p);
    curl_easy_setopt(p->easy, CURLOPT_PRIVATE, p);
    p->sent = bench_now();
    r->in_flight++;
    return curl_multi_add_handle(r->multi, p->easy) == CURLM_OK;
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
    long status = 0;
    curl_easy_getinfo(p->easy, CURLINFO_RESPONSE_CODE, &status);
    curl_multi_remove_handle(r->multi, p->easy);
    r->in_flight--;
    curl_slist_free_all(p->headers);
    p->headers = NULL;
    free(p->body);
    p->body = NULL;
    long expect = p->doing == CREATE ? 201 : 200;
    if (status != expect) {
        snprintf(r->error, sizeof r->error, "step %d of %s: %ld %.180s",
                 (int)p->doing, p->match, status,
                 p->answer ? p->answer : "");
        return false;
    }
    json_t *json = json_loads(p->answer, 0, NULL);
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

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s BASE_URL GAME CLIENTS SECONDS\n", argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    int count = atoi(argv[3]);
    double seconds = atof(argv[4]);
    if (count < 1)
        return 2;
    run r = {.multi = curl_multi_init(), .base_url = argv[1],
             .game = argv[2],
             .latencies = malloc(MAX_SAMPLES * sizeof(double))};
    curl_multi_setopt(r.multi, CURLMOPT_MAXCONNECTS, (long)count);
    player *players = calloc((size_t)count, sizeof *players);
    /* Registration, before anything is timed. */
    client *setup = client_new(argv[1]);
    for (int i = 0; i < count; i++) {
        char id[32];
        for (int k = 0; k < 2; k++) {
            client_new_key(&players[i].keys[k]);
            if (!client_register(setup, "bench", NULL, &players[i].keys[k],
                                 id, r.error)) {
                fprintf(stderr, "%s\n", r.error);
                return 1;
            }
        }
        players[i].easy = curl_easy_init();
    }
    client_free(setup);
    double start = bench_now(), deadline = start + seconds;
    bool ok = true;
    for (int i = 0; ok && i < count; i++)
        ok = next_request(&r, &players[i]);
    int running = 0;
    while (ok && r.in_flight > 0) {
        curl_multi_perform(r.multi, &running);
        CURLMsg *msg;
        int left;
        while (ok && (msg = curl_multi_info_read(r.multi, &left)) != NULL) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            double at = bench_now();
            player *p = NULL;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &p);
            if (msg->data.result != CURLE_OK) {
                snprintf(r.error, sizeof r.error, "%s",
                         curl_easy_strerror(msg->data.result));
                ok = false;
            } else {
                /* Past the deadline, answers are counted and nothing
                 * new is sent. */
                ok = answered(&r, p, at, at < deadline);
            }
        }
        if (ok && r.in_flight > 0)
            curl_multi_poll(r.multi, NULL, 0, 100, NULL);
    }
    if (!ok) {
        r.failed++;
        fprintf(stderr, "moves_loop: %s\n", r.error);
    }
    double elapsed = bench_now() - start;
    double p50, p99;
    bench_percentiles(r.latencies, r.samples, &p50, &p99);
    printf("clients=%d accepted=%ld failed=%ld moves_per_second=%.1f "
           "p50_ms=%.2f p99_ms=%.2f\n",
           count, r.accepted, r.failed, (double)r.accepted / elapsed, p50,
           p99);
    for (int i = 0; i < count; i++) {
        curl_multi_remove_handle(r.multi, players[i].easy);
        curl_easy_cleanup(players[i].easy);
        curl_slist_free_all(players[i].headers);
        free(players[i].body);
        free(players[i].answer);
        json_decref(players[i].view);
    }
    free(players);
    free(r.latencies);
    curl_multi_cleanup(r.multi);
    curl_global_cleanup();
    return r.failed > 0 || r.accepted == 0 ? 1 : 0;
}
