/* Several pbemd behind a real reverse proxy: Debian's nginx, terminating
 * TLS with a certificate of the test's own CA, with the location
 * configuration a deployment uses (deploy/nginx/pbem-location.conf), in
 * front of three pbemd on one database (tests/support/proxy.h).
 *
 * - A whole match is played through it, every request signed over
 *   @target-uri (the https URL the client meant) and checked by pbemd with
 *   PBEM_PUBLIC_SCHEME=https; an event stream passes through as it is
 *   written; a request whose Host was changed on the way is refused.
 * - One pbemd is killed with SIGKILL while players play through the proxy:
 *   every acknowledged move is in its match's log exactly once, where its
 *   answer said, and no request is answered 500.
 * - Forwarded and X-Forwarded-For are believed only from the proxy's
 *   address (PBEM_TRUSTED_PROXIES): a client's own are ignored, so a rate
 *   limit per address cannot be dodged by writing them. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../support/daemon.h"
#include "../../support/disruption.h"
#include "../../support/e2e.h"
#include "../../support/players.h"
#include "../../support/proxy.h"
#include "client.h"

#define SERVERS 3
#define SERVE_LIMIT_MS 60000
/* How long anything may take to recover after a kill. */
#define RECOVERY_LIMIT_MS 60000
#define MAX_PLAYERS 16

static daemon_proc servers[SERVERS];
static proxy front;

static void clean_up(void)
{
    proxy_remove(&front);
    for (int i = 0; i < SERVERS; i++)
        daemon_kill(&servers[i]);
    if (servers[0].key_file[0] != '\0')
        unlink(servers[0].key_file);
}

/* count pbemd on the test database, configured as behind the proxy, each
 * serving before the next starts (the first makes the shared key), then
 * nginx in front of them. */
static void start_cluster(int count, const char *rate_anonymous)
{
    cr_assert(sodium_init() >= 0);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    setenv("PBEM_PUBLIC_SCHEME", "https", 1);
    setenv("PBEM_TRUSTED_PROXIES", PROXY_SOURCE_ADDRESS, 1);
    if (rate_anonymous != NULL)
        setenv("PBEM_RATE_ANONYMOUS", rate_anonymous, 1);
    int ports[SERVERS];
    /* Prepared first: preparing removes the shared key file, which the
     * first pbemd then makes and the others read. */
    for (int i = 0; i < count; i++)
        daemon_prepare(&servers[i]);
    for (int i = 0; i < count; i++) {
        daemon_start(&servers[i]);
        cr_assert_geq(daemon_wait_serving(&servers[i], SERVE_LIMIT_MS), 0,
                      "pbemd %d did not serve within %d s; see %s", i,
                      SERVE_LIMIT_MS / 1000, servers[i].log);
        ports[i] = servers[i].port;
    }
    proxy_start(&front, ports, count);
}

/* A client of the proxy: https, trusting the test's CA. */
static client *proxy_client(void)
{
    client *c = client_new(front.base_url);
    cr_assert_not_null(c);
    client_trust_ca(c, front.ca_file);
    return c;
}

/* An event stream read through the proxy in a thread of its own, until
 * the text it waits for arrives or its time is up. */
typedef struct stream_reader {
    char url[160];
    char needle[32];
    char seen[8192];
    size_t seen_len;
    atomic_bool found;
    atomic_bool open; /* the answer's headers came */
    long status;
    pthread_t thread;
} stream_reader;

static size_t stream_chunk(char *data, size_t size, size_t count, void *user)
{
    stream_reader *s = user;
    size_t n = size * count;
    atomic_store(&s->open, true);
    size_t room = sizeof s->seen - 1 - s->seen_len;
    memcpy(s->seen + s->seen_len, data, n < room ? n : room);
    s->seen_len += n < room ? n : room;
    s->seen[s->seen_len] = '\0';
    if (strstr(s->seen, s->needle) != NULL) {
        atomic_store(&s->found, true);
        return 0; /* enough: hang up */
    }
    return n;
}

static size_t stream_header(char *data, size_t size, size_t count, void *user)
{
    stream_reader *s = user;
    if (size * count >= 2 && strncmp(data, "\r\n", 2) == 0)
        atomic_store(&s->open, true);
    return size * count;
}

static void *read_stream(void *arg)
{
    stream_reader *s = arg;
    CURL *curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_URL, s->url);
    curl_easy_setopt(curl, CURLOPT_CAINFO, front.ca_file);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, stream_chunk);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, stream_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, s);
    curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &s->status);
    atomic_store(&s->open, true);
    curl_easy_cleanup(curl);
    return NULL;
}

Test(cluster, a_match_is_played_through_the_proxy_signed_over_the_https_url,
     .fini = clean_up, .timeout = 600)
{
    start_cluster(SERVERS, NULL);
    e2e_table t;
    memset(&t, 0, sizeof t);
    t.server.http = proxy_client();
    e2e_seat_players(&t, "artifact_stack", 2, NULL);

    /* A stream opened now, through the proxy, gets the next move, which
     * may well be appended by another pbemd. */
    json_t *match = e2e_get(&t, "", NULL);
    long long head =
        json_integer_value(json_object_get(json_object_get(match, "head"),
                                           "seq"));
    json_decref(match);
    static stream_reader stream;
    memset(&stream, 0, sizeof stream);
    snprintf(stream.url, sizeof stream.url, "%s/v1/matches/%s/stream?after=%lld",
             front.base_url, t.match, head);
    snprintf(stream.needle, sizeof stream.needle, "id: %lld\n", head + 1);
    pthread_create(&stream.thread, NULL, read_stream, &stream);
    long began = disruption_now_ms();
    while (!atomic_load(&stream.open) &&
           disruption_now_ms() - began < SERVE_LIMIT_MS)
        poll(NULL, 0, 10); /* the pace of a bounded poll */
    cr_assert(atomic_load(&stream.open), "the stream's answer did not come");

    int moves = 0;
    while (e2e_play_one(&t))
        moves++;
    pthread_join(stream.thread, NULL);
    cr_expect(atomic_load(&stream.found),
              "the stream through the proxy did not carry event %lld (status "
              "%ld): %.300s",
              head + 1, stream.status, stream.seen);
    json_t *done = e2e_get(&t, "", NULL);
    cr_expect_str_eq(json_string_value(json_object_get(done, "status")),
                     "finished");
    json_decref(done);
    json_t *verify = e2e_get(&t, "/verify", NULL);
    cr_expect(json_is_true(json_object_get(verify, "ok")), "%s",
              json_dumps(verify, JSON_COMPACT));
    json_decref(verify);
    fprintf(stderr, "cluster: a whole artifact_stack match through nginx "
                    "and %d pbemd: %d moves\n",
            SERVERS, moves);

    /* The signature covers the https URL: a request whose Host was
     * changed on the way (as a proxy sending it on to another site would)
     * no longer holds. */
    const char *const other_host[] = {"Host: pbem.example.org", NULL};
    client_send_options options = {.extra_headers = other_host};
    e2e_response r = e2e_call_with(&t.server, "GET", "/v1/players/me", NULL,
                                   &t.players[0].key, &options);
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = e2e_call(&t.server, "GET", "/v1/players/me", NULL, &t.players[0]);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    client_free(t.server.http);
}

Test(cluster, a_pbemd_killed_under_load_loses_no_acknowledged_move,
     .fini = clean_up, .timeout = 900)
{
    int clients = (int)disruption_env_long("PBEM_CLUSTER_CLIENTS", 4);
    cr_assert(clients >= 1 && clients <= MAX_PLAYERS);
    start_cluster(SERVERS, NULL);
    board b;
    static player players[MAX_PLAYERS];
    disruption_start_players(&b, front.base_url, front.ca_file, players,
                             clients);

    cr_assert_gt(disruption_let_play(&b, 1000, RECOVERY_LIMIT_MS), 0,
                 "no move was acknowledged through the proxy");
    pthread_mutex_lock(&b.lock);
    long before_kill = b.acknowledged;
    pthread_mutex_unlock(&b.lock);
    long killed = disruption_now_ms();
    daemon_kill(&servers[1]);
    /* The proxy routes around it: moves go on being acknowledged. */
    long after = disruption_let_play(&b, 2000, RECOVERY_LIMIT_MS);
    cr_assert_gt(after, 0, "no move was acknowledged after the kill");
    long since[MAX_PLAYERS];
    for (int i = 0; i < clients; i++)
        since[i] = player_acknowledged(&players[i]);
    while (!disruption_everyone_moved_since(players, clients, since) &&
           disruption_now_ms() - killed < RECOVERY_LIMIT_MS)
        disruption_let_play(&b, 0, RECOVERY_LIMIT_MS);
    atomic_store(&b.stop, true);
    for (int i = 0; i < clients; i++)
        player_join(&players[i]);

    audit a = {0};
    long acknowledged = 0, resent = 0, errors = 0;
    client *reader = proxy_client();
    for (int i = 0; i < clients; i++) {
        player *p = &players[i];
        player_audit(p, reader, &a);
        cr_expect_str_empty(p->failure, "player %d: %s", i, p->failure);
        acknowledged += p->move_count;
        resent += p->resent;
        errors += p->server_errors_up + p->server_errors_outage;
    }
    client_free(reader);
    fprintf(stderr,
            "cluster: kill -9 of one of %d pbemd behind nginx: clients=%d "
            "acknowledged=%ld (%ld before the kill) lost=%ld duplicated=%ld "
            "misplaced=%ld unacknowledged=%ld bad_chains=%ld resent=%ld "
            "answered_from_store=%ld 500=%ld\n",
            SERVERS, clients, acknowledged, before_kill, a.lost, a.duplicated,
            a.misplaced, a.unacknowledged, a.bad_chains, resent, a.replayed,
            errors);
    cr_expect_gt(acknowledged, before_kill);
    cr_expect_eq(a.lost, 0, "%ld acknowledged moves are not in the log",
                 a.lost);
    cr_expect_eq(a.duplicated, 0, "%ld moves are in the log twice",
                 a.duplicated);
    cr_expect_eq(a.misplaced, 0, "%ld moves are not where answered",
                 a.misplaced);
    cr_expect_eq(a.unacknowledged, 0, "%ld moves were never acknowledged",
                 a.unacknowledged);
    cr_expect_eq(a.bad_chains, 0, "%ld matches do not verify", a.bad_chains);
    cr_expect_eq(errors, 0, "%ld requests were answered 500", errors);
    for (int i = 0; i < clients; i++)
        player_free(&players[i]);
}

/* GET /v1/games from the local address from, to base (through the proxy
 * when base is https), with extra (NULL-terminated) headers: the status. */
static long games_from(const char *from, const char *base,
                       const char *const *extra)
{
    CURL *curl = curl_easy_init();
    char url[128], interface[32];
    snprintf(url, sizeof url, "%s/v1/games", base);
    snprintf(interface, sizeof interface, "host!%s", from);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CAINFO, front.ca_file);
    curl_easy_setopt(curl, CURLOPT_INTERFACE, interface);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_NOBODY, 0L);
    FILE *sink = fopen("/dev/null", "w");
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, sink);
    struct curl_slist *headers = NULL;
    for (int i = 0; extra != NULL && extra[i] != NULL; i++)
        headers = curl_slist_append(headers, extra[i]);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    long status = 0;
    CURLcode rc = curl_easy_perform(curl);
    cr_assert_eq(rc, CURLE_OK, "GET %s from %s: %s", url, from,
                 curl_easy_strerror(rc));
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    fclose(sink);
    curl_easy_cleanup(curl);
    return status;
}

Test(cluster, forwarded_is_believed_from_the_proxy_only, .fini = clean_up,
     .timeout = 300)
{
    /* One pbemd (a budget is per process), 4 anonymous requests a minute
     * per client address. */
    start_cluster(1, "4/60");
    const char *const forged[] = {"Forwarded: for=203.0.113.9",
                                  "X-Forwarded-For: 203.0.113.9", NULL};
    for (int i = 0; i < 4; i++)
        cr_expect_eq(games_from("127.0.0.3", front.base_url, NULL), 200);
    cr_expect_eq(games_from("127.0.0.3", front.base_url, NULL), 429,
                 "the proxy's client at 127.0.0.3 was not limited");
    /* Another client of the proxy has a budget of its own, whatever
     * Forwarded it writes itself: the proxy replaces it. */
    const char *const as_the_first[] = {"Forwarded: for=127.0.0.3",
                                        "X-Forwarded-For: 127.0.0.3", NULL};
    cr_expect_eq(games_from("127.0.0.4", front.base_url, as_the_first), 200,
                 "a client naming another in Forwarded was counted as it");
    /* Straight to pbemd, a client's own Forwarded is not believed: every
     * request counts against its real address, whatever it names. */
    char direct[64];
    snprintf(direct, sizeof direct, "http://127.0.0.1:%d", servers[0].port);
    long last = 0;
    for (int i = 0; i < 5; i++)
        last = games_from("127.0.0.5", direct, forged);
    cr_expect_eq(last, 429,
                 "a client writing Forwarded itself escaped its limit");
}
