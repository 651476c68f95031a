/* test_commit_wait.c: a move waiting for its shared commit holds no
 * thread. pbemd runs two HTTP threads here; a move on match X is in a
 * shared commit that the test holds with a lock on X's row, so a move on
 * match Y, arriving meanwhile, waits for the next commit. Its thread must
 * go on serving its other connections, and the waiting move must get the
 * answer it would have got blocking. */
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

/* One connection for the move whose commit is held, and three on the
 * other thread: whichever thread runs a commit, these are not behind it.
 * The connections opened on the way stay open (spare), so that the counts
 * change only by the next one opened. */
typedef struct conns {
    conn first;
    conn others[3];
    conn spare[16];
    int spares;
} conns;

static void open_conns(const e2e_server *server, conns *c)
{
    figures f = read_figures(server->http);
    c->first = open_conn(server, &f);
    int found = 0;
    while (found < 3) {
        conn next = open_conn(server, &f);
        if (next.thread != c->first.thread) {
            c->others[found++] = next;
            continue;
        }
        cr_assert_lt(c->spares, 16, "every connection goes to one thread");
        c->spare[c->spares++] = next;
    }
}

static void close_conns(conns *c)
{
    client_free(c->first.http);
    for (int i = 0; i < 3; i++)
        client_free(c->others[i].http);
    for (int i = 0; i < c->spares; i++)
        client_free(c->spare[i].http);
}

/* Requests set aside so far. */
static long long set_aside(client *http)
{
    return read_figures(http).set_aside;
}

/* Waits (10 s at most) until count requests were set aside. */
static void until_set_aside(client *http, long long count)
{
    long long deadline = now_ms() + 10000;
    for (;;) {
        long long now = set_aside(http);
        if (now >= count)
            return;
        cr_assert_lt(now_ms(), deadline,
                     "%lld moves set aside while their commit waits, not %lld",
                     now, count);
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

/* Starts m[0], whose commit holder holds, then each of the others once
 * the one before waits set aside. */
static void start_behind(mover *m, int count, PGconn *holder, client *metrics)
{
    start(&m[0]);
    pgtest_until_blocked_by(holder);
    long long before = set_aside(metrics);
    for (int i = 1; i < count; i++) {
        start(&m[i]);
        until_set_aside(metrics, before + i);
    }
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

/* pbemd with two threads, two players, count matches between them
 * (match[0] is the table's) and the connections of open_conns. */
typedef struct scene {
    e2e_table t;
    char match[3][32];
    conns c;
} scene;

static void set_scene(scene *s, int count)
{
    setenv("PBEM_THREADS", "2", 1);
    e2e_sit_down(&s->t, "antiquity_quest", 2, NULL);
    snprintf(s->match[0], sizeof s->match[0], "%s", s->t.match);
    for (int i = 1; i < count; i++)
        another_match(&s->t, s->match[i], sizeof s->match[i]);
    open_conns(&s->t.server, &s->c);
}

static void end_scene(scene *s, mover *movers, int count)
{
    for (int i = 0; i < count; i++)
        client_response_free(&movers[i].r);
    close_conns(&s->c);
    e2e_stop(&s->t.server);
}

static void expect_answered(const mover *m, long status)
{
    cr_expect_eq(m->r.status, status, "%s: %ld %s", m->path, m->r.status,
                 m->r.body);
}

Test(commit_wait, a_thread_serves_a_view_while_its_move_waits_for_its_commit,
     .timeout = 120)
{
    scene s = {0};
    set_scene(&s, 2);
    client **others = (client *[]){s.c.others[0].http, s.c.others[1].http};
    mover m[2] = {{0}};
    prepare(&m[0], &s.t, s.match[0], s.c.first.http);
    prepare(&m[1], &s.t, s.match[1], others[0]);
    long long y_head = head_seen(others[1], s.match[1], m[1].key);

    PGconn *blocker = hold_match(s.match[0]);
    start(&m[0]);
    pgtest_until_blocked_by(blocker);
    long long before = set_aside(others[1]);
    start(&m[1]);
    until_set_aside(others[1], before + 1);
    /* The move on Y waits on its thread, which answers a view meanwhile:
     * the match is still where it was. */
    cr_expect_eq(head_seen(others[1], s.match[1], m[1].key), y_head);
    cr_expect(!atomic_load(&m[1].answered), "the move did not wait");
    pgtest_exec(blocker, "COMMIT");
    for (int i = 0; i < 2; i++) {
        finish(&m[i]);
        expect_answered(&m[i], 200);
    }
    cr_expect_eq(head_seen(others[1], s.match[1], m[1].key), y_head + 1);
    PQfinish(blocker);
    end_scene(&s, m, 2);
}

Test(commit_wait, a_move_that_loses_its_race_while_set_aside_is_409_stale_seq,
     .timeout = 120)
{
    scene s = {0};
    set_scene(&s, 2);
    client *metrics = s.c.others[2].http;
    mover m[3] = {{0}};
    prepare(&m[0], &s.t, s.match[0], s.c.first.http);
    /* The same move twice, by two requests (two nonces), at one head. */
    prepare(&m[1], &s.t, s.match[1], s.c.others[0].http);
    prepare(&m[2], &s.t, s.match[1], s.c.others[1].http);
    long long y_head = head_seen(metrics, s.match[1], m[1].key);

    PGconn *blocker = hold_match(s.match[0]);
    start_behind(m, 3, blocker, metrics);
    pgtest_exec(blocker, "COMMIT");
    for (int i = 0; i < 3; i++)
        finish(&m[i]);
    expect_answered(&m[0], 200);
    expect_answered(&m[1], 200);
    /* The second is refused as a blocked move's was: the match is past
     * the head it named, and the answer says where. */
    expect_answered(&m[2], 409);
    json_t *error = json_object_get(m[2].r.json, "error");
    cr_expect_str_eq(json_string_value(json_object_get(error, "code")),
                     "stale_seq");
    cr_expect_eq(json_integer_value(json_object_get(error, "head")),
                 y_head + 1, "%s", m[2].r.body);
    cr_expect_eq(head_seen(metrics, s.match[1], m[1].key), y_head + 1);
    PQfinish(blocker);
    end_scene(&s, m, 3);
}

Test(commit_wait,
     moves_set_aside_in_a_commit_whose_connection_is_lost_go_through_once,
     .timeout = 120)
{
    scene s = {0};
    set_scene(&s, 3);
    client *metrics = s.c.others[2].http;
    mover m[3] = {{0}};
    prepare(&m[0], &s.t, s.match[0], s.c.first.http);
    long long head[3];
    for (int i = 1; i < 3; i++) {
        prepare(&m[i], &s.t, s.match[i], s.c.others[i - 1].http);
        head[i] = head_seen(metrics, s.match[i], m[i].key);
    }

    /* The moves on X and Y wait together behind the one on W... */
    PGconn *holds_w = hold_match(s.match[0]);
    PGconn *holds_x = hold_match(s.match[1]);
    start_behind(m, 3, holds_w, metrics);
    /* ...then share the next commit, which waits for X's row, and whose
     * database session ends. */
    pgtest_exec(holds_w, "COMMIT");
    pgtest_until_blocked_by(holds_x);
    end_sessions_blocked_by(holds_x);
    pgtest_exec(holds_x, "COMMIT");
    /* As a blocked move's: tried again on a new connection (its nonce
     * makes that safe), and applied once. */
    for (int i = 0; i < 3; i++) {
        finish(&m[i]);
        expect_answered(&m[i], 200);
    }
    for (int i = 1; i < 3; i++)
        cr_expect_eq(head_seen(metrics, s.match[i], m[i].key), head[i] + 1);
    PQfinish(holds_w);
    PQfinish(holds_x);
    end_scene(&s, m, 3);
}
