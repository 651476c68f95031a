/* test_commit_wait.c: a move waiting for its shared commit holds no
 * thread. pbemd runs two HTTP threads here; a move on match X leads a
 * shared commit that the test holds with a lock on X's row, so a move on
 * match Y, arriving meanwhile on the other thread, waits for the next
 * commit. That thread must go on serving its other connections, and the
 * waiting move must get the answer it would have got blocking. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/e2e.h"
#include "../../support/pgtest.h"

#define THREADS 2

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* A client of its own: one connection, on one of pbemd's threads. */
typedef struct conn {
    client *http;
    int thread;
} conn;

/* What /metrics says now: connections per thread, and requests set aside
 * while their transaction waited for a shared commit. */
typedef struct figures {
    long long held[THREADS];
    long long set_aside;
} figures;

/* The value on name's line (name at the start of a line: not its HELP). */
static long long figure(const char *text, const char *name)
{
    char line[128];
    snprintf(line, sizeof line, "\n%s", name);
    const char *at = strstr(text, line);
    cr_assert_not_null(at, "/metrics has no %s", name);
    return atoll(at + strlen(line));
}

static figures read_figures(client *http)
{
    client_response r;
    char errbuf[256];
    cr_assert(
        client_send(http, "GET", "/metrics", NULL, NULL, NULL, &r, errbuf),
        "/metrics: %s", errbuf);
    cr_assert_eq(r.status, 200);
    figures f;
    for (int i = 0; i < THREADS; i++) {
        char name[64];
        snprintf(name, sizeof name,
                 "pbem_http_thread_connections{thread=\"%d\"} ", i);
        f.held[i] = figure(r.body, name);
    }
    f.set_aside = figure(r.body, "pbem_db_shared_commit_set_aside_total ");
    client_response_free(&r);
    return f;
}

/* A new connection, and the thread it went to: the one whose count rose
 * (nothing else opens or closes connections meanwhile). */
static conn open_conn(const e2e_server *server, figures *before)
{
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", server->port);
    conn c = {.http = client_new(base), .thread = -1};
    figures now = read_figures(c.http);
    for (int i = 0; i < THREADS; i++)
        if (now.held[i] == before->held[i] + 1)
            c.thread = i;
    cr_assert_geq(c.thread, 0, "the new connection is on no thread");
    *before = now;
    return c;
}

/* One connection on the thread that will lead the held commit, and three
 * on the other; the connections opened on the way stay open (spare), so
 * that the counts change only by the next one opened. */
typedef struct conns {
    conn leader;
    conn others[3];
    conn spare[16];
    int spares;
} conns;

static void open_conns(const e2e_server *server, conns *c)
{
    figures f = read_figures(server->http);
    c->leader = open_conn(server, &f);
    int found = 0;
    while (found < 3) {
        conn next = open_conn(server, &f);
        if (next.thread != c->leader.thread) {
            c->others[found++] = next;
            continue;
        }
        cr_assert_lt(c->spares, 16, "every connection goes to one thread");
        c->spare[c->spares++] = next;
    }
}

static void close_conns(conns *c)
{
    client_free(c->leader.http);
    for (int i = 0; i < 3; i++)
        client_free(c->others[i].http);
    for (int i = 0; i < c->spares; i++)
        client_free(c->spare[i].http);
}

/* Waits (10 s at most) until count requests were set aside. */
static void until_set_aside(client *http, long long count)
{
    long long deadline = now_ms() + 10000;
    for (;;) {
        figures f = read_figures(http);
        if (f.set_aside >= count)
            return;
        cr_assert_lt(now_ms(), deadline,
                     "%lld moves set aside while their commit waits, not %lld",
                     f.set_aside, count);
        struct timespec t = {0, 5 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
}

/* A move posted from a thread of the test. */
typedef struct mover {
    client *http;
    char path[96];
    char *body;
    const client_key *key;
    client_response r;
    atomic_bool answered;
    pthread_t thread;
} mover;

static void *post(void *arg)
{
    mover *m = arg;
    char errbuf[256];
    if (!client_send(m->http, "POST", m->path, m->body, m->key, NULL, &m->r,
                     errbuf))
        m->r.status = 0;
    atomic_store(&m->answered, true);
    return NULL;
}

/* A legal move of match's seat that must act, at the head it has now. */
static void prepare(mover *m, const e2e_table *t, const char *match,
                    client *http)
{
    e2e_table at = *t;
    snprintf(at.match, sizeof at.match, "%s", match);
    json_t *public = e2e_get(&at, "", NULL);
    int seat = e2e_first_pending_seat(public);
    cr_assert_geq(seat, 0);
    json_decref(public);
    json_t *view = e2e_get(&at, "/view", &t->players[seat]);
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    cr_assert_gt(json_array_size(moves), 0);
    json_t *body =
        json_pack("{s:O,s:O}", "seq",
                  json_object_get(json_object_get(view, "head"), "seq"),
                  "action", json_array_get(moves, 0));
    m->body = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    json_decref(view);
    snprintf(m->path, sizeof m->path, "/v1/matches/%s/moves", match);
    m->key = &t->players[seat].key;
    m->http = http;
}

static void start(mover *m)
{
    atomic_init(&m->answered, false);
    cr_assert_eq(pthread_create(&m->thread, NULL, post, m), 0);
}

static void finish(mover *m)
{
    pthread_join(m->thread, NULL);
    free(m->body);
}

/* A second match between the table's two players. */
static void another_match(const e2e_table *t, char *match, size_t size)
{
    e2e_response r =
        e2e_call(&t->server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":2,\"options\":{}}",
                 &t->players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(match, size, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(&t->server, "POST", path, "{}", &t->players[1]);
    cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

/* Locks match's row from outside pbemd: a shared commit that writes it
 * waits until the lock goes. */
static PGconn *hold_match(const char *match)
{
    PGconn *blocker = pgtest_connect("public");
    pgtest_exec(blocker, "BEGIN");
    char sql[128];
    snprintf(sql, sizeof sql,
             "SELECT 1 FROM matches WHERE match_id = %lld FOR UPDATE",
             atoll(match + 2));
    pgtest_exec(blocker, sql);
    return blocker;
}

static long long head_seen(client *http, const char *match,
                           const client_key *key)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    client_response r;
    char errbuf[256];
    cr_assert(client_send(http, "GET", path, NULL, key, NULL, &r, errbuf),
              "view: %s", errbuf);
    cr_assert_eq(r.status, 200, "view: %ld %s", r.status, r.body);
    long long seq = json_integer_value(
        json_object_get(json_object_get(r.json, "head"), "seq"));
    client_response_free(&r);
    return seq;
}

Test(commit_wait, a_thread_serves_a_view_while_its_move_waits_for_its_commit,
     .timeout = 120)
{
    setenv("PBEM_THREADS", "2", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    char y[32];
    another_match(&t, y, sizeof y);
    mover on_x = {0}, on_y = {0};
    conns c = {0};
    open_conns(&t.server, &c);
    conn leader = c.leader, *others = c.others;
    prepare(&on_x, &t, t.match, leader.http);
    prepare(&on_y, &t, y, others[0].http);
    long long y_head = head_seen(others[1].http, y, on_y.key);

    PGconn *blocker = hold_match(t.match);
    start(&on_x);
    pgtest_until_blocked_by(blocker);
    start(&on_y);
    until_set_aside(others[1].http, 1);
    /* The move on Y waits on its thread, which answers a view meanwhile:
     * the match is still where it was. */
    cr_expect_eq(head_seen(others[1].http, y, on_y.key), y_head);
    cr_expect(!atomic_load(&on_y.answered), "the move did not wait");
    pgtest_exec(blocker, "COMMIT");
    finish(&on_x);
    finish(&on_y);
    cr_expect_eq(on_x.r.status, 200, "%ld %s", on_x.r.status, on_x.r.body);
    cr_expect_eq(on_y.r.status, 200, "%ld %s", on_y.r.status, on_y.r.body);
    cr_expect_gt(head_seen(others[1].http, y, on_y.key), y_head);
    client_response_free(&on_x.r);
    client_response_free(&on_y.r);
    close_conns(&c);
    PQfinish(blocker);
    e2e_stop(&t.server);
}

Test(commit_wait, a_move_that_loses_its_race_while_set_aside_is_409_stale_seq,
     .timeout = 120)
{
    setenv("PBEM_THREADS", "2", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    char y[32];
    another_match(&t, y, sizeof y);
    mover on_x = {0}, first = {0}, second = {0};
    conns c = {0};
    open_conns(&t.server, &c);
    conn leader = c.leader, *others = c.others;
    prepare(&on_x, &t, t.match, leader.http);
    /* The same move twice, by two requests (two nonces), at one head. */
    prepare(&first, &t, y, others[0].http);
    prepare(&second, &t, y, others[1].http);
    long long y_head = head_seen(others[2].http, y, first.key);

    PGconn *blocker = hold_match(t.match);
    start(&on_x);
    pgtest_until_blocked_by(blocker);
    start(&first);
    until_set_aside(others[2].http, 1);
    start(&second);
    until_set_aside(others[2].http, 2);
    pgtest_exec(blocker, "COMMIT");
    finish(&on_x);
    finish(&first);
    finish(&second);
    cr_expect_eq(on_x.r.status, 200, "%ld %s", on_x.r.status, on_x.r.body);
    cr_expect_eq(first.r.status, 200, "%ld %s", first.r.status, first.r.body);
    /* The second is refused as it was before set-aside moves: the match
     * is past the head it named, and the answer says where. */
    cr_expect_eq(second.r.status, 409, "%ld %s", second.r.status,
                 second.r.body);
    json_t *error = json_object_get(second.r.json, "error");
    cr_expect_str_eq(json_string_value(json_object_get(error, "code")),
                     "stale_seq");
    cr_expect_eq(json_integer_value(json_object_get(error, "head")), y_head + 1,
                 "%s", second.r.body);
    cr_expect_eq(head_seen(others[2].http, y, first.key), y_head + 1);
    client_response_free(&on_x.r);
    client_response_free(&first.r);
    client_response_free(&second.r);
    close_conns(&c);
    PQfinish(blocker);
    e2e_stop(&t.server);
}

/* Ends the database sessions waiting for blocker's locks, as a database
 * that goes away ends them. */
static void end_sessions_blocked_by(PGconn *blocker)
{
    char sql[192];
    snprintf(sql, sizeof sql,
             "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
             " WHERE %d = ANY (pg_blocking_pids(pid))",
             PQbackendPID(blocker));
    pgtest_exec(blocker, sql);
}

static void third_match(const e2e_table *t, e2e_table *at, char *match)
{
    another_match(t, match, 32);
    *at = *t;
    snprintf(at->match, sizeof at->match, "%s", match);
}

Test(commit_wait, moves_set_aside_in_a_commit_whose_connection_is_lost_go_through_once,
     .timeout = 120)
{
    setenv("PBEM_THREADS", "2", 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    e2e_table on_y_table;
    char x[32], y[32];
    another_match(&t, x, sizeof x);
    third_match(&t, &on_y_table, y);
    mover on_w = {0}, on_x = {0}, on_y = {0};
    conns c = {0};
    open_conns(&t.server, &c);
    conn leader = c.leader, *others = c.others;
    prepare(&on_w, &t, t.match, leader.http);
    prepare(&on_x, &t, x, others[0].http);
    prepare(&on_y, &t, y, others[1].http);
    long long x_head = head_seen(others[2].http, x, on_x.key);
    long long y_head = head_seen(others[2].http, y, on_y.key);

    /* The moves on X and Y wait together behind the one on W... */
    PGconn *holds_w = hold_match(t.match);
    PGconn *holds_x = hold_match(x);
    start(&on_w);
    pgtest_until_blocked_by(holds_w);
    start(&on_x);
    until_set_aside(others[2].http, 1);
    start(&on_y);
    until_set_aside(others[2].http, 2);
    /* ...then share the next commit, which waits for X's row, and whose
     * database session ends. */
    pgtest_exec(holds_w, "COMMIT");
    pgtest_until_blocked_by(holds_x);
    end_sessions_blocked_by(holds_x);
    pgtest_exec(holds_x, "COMMIT");
    finish(&on_w);
    finish(&on_x);
    finish(&on_y);
    /* As a blocked move's: tried again on a new connection (its nonce
     * makes that safe), and applied once. */
    cr_expect_eq(on_w.r.status, 200, "%ld %s", on_w.r.status, on_w.r.body);
    cr_expect_eq(on_x.r.status, 200, "%ld %s", on_x.r.status, on_x.r.body);
    cr_expect_eq(on_y.r.status, 200, "%ld %s", on_y.r.status, on_y.r.body);
    cr_expect_eq(head_seen(others[2].http, x, on_x.key), x_head + 1);
    cr_expect_eq(head_seen(others[2].http, y, on_y.key), y_head + 1);
    client_response_free(&on_w.r);
    client_response_free(&on_x.r);
    client_response_free(&on_y.r);
    close_conns(&c);
    PQfinish(holds_w);
    PQfinish(holds_x);
    e2e_stop(&t.server);
}
