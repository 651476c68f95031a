/* ratelimit.c: a normal client's latency while anonymous clients flood
 * GET /verify, the attack of issue #21 (16 verify loops pushed another
 * client's /healthz from 1 ms to 546 ms median).
 *   ratelimit setup BASE_URL GAME MOVES
 *       plays one two-seat match of GAME for up to MOVES moves (a long
 *       log, still in play when the game lasts longer: its verify is
 *       computed every time) and prints match=ID moves=N status=S
 *   ratelimit flood BASE_URL MATCH SECONDS LOOPS
 *       LOOPS threads GET /v1/matches/MATCH/verify without pause, from one
 *       address; prints how many were served and refused. Run it niced,
 *       in a process of its own: an attacker's CPU is not the server's,
 *       and threads of one process would starve the measuring one.
 *   ratelimit measure BASE_URL SECONDS
 *       a normal client, from another address, alternates GET /healthz
 *       with a signed move of its own match; prints p50/p99 of each.
 * The server is started with PBEM_TRUSTED_PROXIES=127.0.0.1: the clients
 * name their addresses in X-Forwarded-For, as they would behind the TLS
 * proxy deploy/ recommends. */
#include <curl/curl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"

#define MAX_SAMPLES 200000

static const char *const player_headers[] = {
    "X-Forwarded-For: 192.0.2.10", "Prefer: return=representation", NULL};
static const char *const flood_headers[] = {"X-Forwarded-For: 198.51.100.7",
                                            NULL};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool call(client *c, const char *method, const char *path,
                 const char *body, const client_key *key, long expect,
                 client_response *r)
{
    client_send_options options = {.extra_headers = player_headers};
    char error[256];
    if (!client_send(c, method, path, body, key, &options, r, error)) {
        fprintf(stderr, "%s %s: %s\n", method, path, error);
        return false;
    }
    if (r->status != expect) {
        fprintf(stderr, "%s %s: %ld %.180s\n", method, path, r->status,
                r->body ? r->body : "");
        client_response_free(r);
        return false;
    }
    return true;
}

/* A two-seat match of two new players; false on any refusal. */
static bool sit_down(client *c, const char *game, client_key keys[2],
                     char match[32])
{
    /* Two names no reader could take for one another (a match refuses
     * confusable names). */
    static const char *const names[2] = {"Ada", "Brook"};
    char player[32], error[256];
    for (int i = 0; i < 2; i++) {
        client_new_key(&keys[i]);
        if (!client_register(c, names[i], NULL, &keys[i], player, error)) {
            fprintf(stderr, "register: %s\n", error);
            return false;
        }
    }
    client_response r;
    char body[128];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":2}", game);
    if (!call(c, "POST", "/v1/matches", body, &keys[0], 201, &r))
        return false;
    snprintf(match, 32, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    client_response_free(&r);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    if (!call(c, "POST", path, "{}", &keys[1], 200, &r))
        return false;
    client_response_free(&r);
    return true;
}

/* One move of whoever must act; *took its POST's seconds. 1 played, 0 the
 * match is over, -1 refused. */
static int move_once(client *c, client_key keys[2], const char *match,
                     double *took)
{
    char path[64];
    client_response r;
    json_t *view = NULL;
    int seat = 0;
    for (int s = 0; s < 2 && view == NULL; s++) {
        snprintf(path, sizeof path, "/v1/matches/%s/view", match);
        if (!call(c, "GET", path, NULL, &keys[s], 200, &r))
            return -1;
        json_t *moves =
            json_object_get(json_object_get(r.json, "legal"), "moves");
        if (json_array_size(moves) > 0) {
            view = json_incref(r.json);
            seat = s;
        }
        client_response_free(&r);
    }
    if (view == NULL)
        return 0;
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    json_t *body = json_pack(
        "{s:O,s:O}", "seq",
        json_object_get(json_object_get(view, "head"), "seq"), "action",
        json_array_get(moves,
                       randombytes_uniform((uint32_t)json_array_size(moves))));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    json_decref(view);
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    double started = now_seconds();
    bool ok = call(c, "POST", path, text, &keys[seat], 200, &r);
    *took = now_seconds() - started;
    free(text);
    if (!ok)
        return -1;
    client_response_free(&r);
    return 1;
}

static int setup(const char *base_url, const char *game, int moves)
{
    client *c = client_new(base_url);
    client_key keys[2];
    char match[32];
    if (!sit_down(c, game, keys, match))
        return 1;
    int played = 0;
    double took;
    while (played < moves) {
        int r = move_once(c, keys, match, &took);
        if (r < 0)
            return 1;
        if (r == 0)
            break;
        played++;
    }
    char path[64];
    client_response r;
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    if (!call(c, "GET", path, NULL, NULL, 200, &r))
        return 1;
    printf("match=%s moves=%d status=%s\n", match, played,
           json_string_value(json_object_get(r.json, "status")));
    client_response_free(&r);
    client_free(c);
    return 0;
}

typedef struct flood {
    const char *base_url;
    const char *match;
    double deadline;
    long served, limited, other;
} flood;

static void *verify_loop(void *arg)
{
    flood *f = arg;
    client *c = client_new(f->base_url);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/verify", f->match);
    client_send_options options = {.extra_headers = flood_headers};
    while (now_seconds() < f->deadline) {
        client_response r;
        char error[256];
        if (!client_send(c, "GET", path, NULL, NULL, &options, &r, error)) {
            f->other++;
            continue;
        }
        if (r.status == 200)
            f->served++;
        else if (r.status == 429)
            f->limited++;
        else
            f->other++;
        client_response_free(&r);
    }
    client_free(c);
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void percentiles(double *samples, long n, double *p50, double *p99)
{
    qsort(samples, (size_t)n, sizeof *samples, by_value);
    *p50 = n ? samples[n / 2] * 1e3 : 0;
    *p99 = n ? samples[(n * 99) / 100] * 1e3 : 0;
}

/* The normal client alone: GET /healthz and a signed move of its own
 * match, in turn, for seconds. */
static int measure(const char *base_url, double seconds)
{
    client *c = client_new(base_url);
    client_key keys[2];
    char own[32];
    if (!sit_down(c, "antiquity_quest", keys, own))
        return 1;
    double start = now_seconds();
    double *health = malloc(MAX_SAMPLES * sizeof *health);
    double *moves = malloc(MAX_SAMPLES * sizeof *moves);
    long nh = 0, nm = 0, failed = 0;
    client_send_options options = {.extra_headers = player_headers};
    while (now_seconds() < start + seconds && nh < MAX_SAMPLES) {
        client_response r;
        char error[256];
        double began = now_seconds();
        if (client_send(c, "GET", "/healthz", NULL, NULL, &options, &r,
                        error)) {
            health[nh++] = now_seconds() - began;
            failed += r.status != 200;
            client_response_free(&r);
        } else {
            failed++;
        }
        double took;
        int played = move_once(c, keys, own, &took);
        if (played < 0)
            failed++;
        if (played == 0 && !sit_down(c, "antiquity_quest", keys, own))
            break;
        if (played > 0)
            moves[nm++] = took;
    }
    double h50, h99, m50, m99;
    percentiles(health, nh, &h50, &h99);
    percentiles(moves, nm, &m50, &m99);
    printf("healthz=%ld healthz_p50_ms=%.2f healthz_p99_ms=%.2f moves=%ld "
           "move_p50_ms=%.2f move_p99_ms=%.2f failed=%ld\n",
           nh, h50, h99, nm, m50, m99, failed);
    free(health);
    free(moves);
    client_free(c);
    return 0;
}

/* The flood alone, in a process of its own (run it niced: an attacker's
 * CPU is not the server's). */
static int flood_only(const char *base_url, const char *match, double seconds,
                      int loops)
{
    double start = now_seconds();
    flood *floods = calloc((size_t)loops, sizeof *floods);
    pthread_t *threads = calloc((size_t)loops, sizeof *threads);
    for (int i = 0; i < loops; i++) {
        floods[i] = (flood){.base_url = base_url, .match = match,
                            .deadline = start + seconds};
        pthread_create(&threads[i], NULL, verify_loop, &floods[i]);
    }
    long served = 0, limited = 0, other = 0;
    for (int i = 0; i < loops; i++) {
        pthread_join(threads[i], NULL);
        served += floods[i].served;
        limited += floods[i].limited;
        other += floods[i].other;
    }
    printf("verify_served=%ld verify_limited=%ld verify_other=%ld\n", served,
           limited, other);
    free(floods);
    free(threads);
    return 0;
}

int main(int argc, char **argv)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    if (argc == 5 && strcmp(argv[1], "setup") == 0)
        return setup(argv[2], argv[3], atoi(argv[4]));
    if (argc == 6 && strcmp(argv[1], "flood") == 0)
        return flood_only(argv[2], argv[3], atof(argv[4]), atoi(argv[5]));
    if (argc == 4 && strcmp(argv[1], "measure") == 0)
        return measure(argv[2], atof(argv[3]));
    fprintf(stderr,
            "usage: %s setup BASE_URL GAME MOVES\n"
            "       %s measure BASE_URL SECONDS\n"
            "       %s flood BASE_URL MATCH SECONDS LOOPS\n",
            argv[0], argv[0], argv[0]);
    return 2;
}
