/* Shared commits (db_begin_shared): transactions of different requests
 * that wait together are committed together, and each still fails alone.
 * What a caller sees must be what an ordinary transaction gives it: the
 * same refusals with the same meaning, nothing of a refused transaction
 * kept, and nothing of the others lost with it. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/pgtest.h"
#include "store/db.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/request_nonces.h"
#include "store/store.h"
#include "store_support.h"

static const uint8_t digest[32] = {7};

/* Points this process's db.h connections (each thread's) at
 * schema: every connection is made from the URL, so the search path goes
 * in the URL. */
static void use_schema(const char *schema)
{
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url);
    char with_schema[1024];
    snprintf(with_schema, sizeof with_schema, "%s%soptions=-csearch_path%%3D%s",
             url, strchr(url, '?') != NULL ? "&" : "?", schema);
    apierr err;
    cr_assert(db_init(with_schema, &err), "%s", err.message);
}

static long long number(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s: %s", sql,
                 PQresultErrorMessage(r));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

static long long head_of(PGconn *conn, long long match_id)
{
    char sql[96];
    snprintf(sql, sizeof sql,
             "SELECT head_seq FROM matches WHERE match_id = %lld", match_id);
    return number(conn, sql);
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void pause_briefly(void)
{
    struct timespec t = {0, 2 * 1000 * 1000};
    nanosleep(&t, NULL);
}

/* One request's move: an append at head (-1: the stored head) and its
 * nonce, in a shared transaction on this thread's own connection. */
typedef struct mover {
    long long match_id;
    long long head;
    const char *nonce;
    bool ok;
    apierr err;
    pthread_t thread;
} mover;

static void *move(void *arg)
{
    mover *m = arg;
    apierr err = {.head = -1};
    PGconn *conn = db_conn(&err);
    store_match match = {0};
    bool loaded =
        conn != NULL && store_load_match(conn, m->match_id, &match, &err);
    if (loaded && m->head >= 0)
        match.head_seq = m->head;
    json_t *e = json_pack("{s:s,s:i,s:{s:s}}", "kind", "move", "seat", 0,
                          "data", "text", m->nonce);
    store_nonce answer = {.status = 200,
                          .response = "{}",
                          .match_id = m->match_id,
                          .seq = match.head_seq + 1};
    m->ok = loaded && store_begin_shared(conn, m->match_id, &err) &&
            store_append(conn, &match, &e, 1, NULL, &err) &&
            store_save_nonce(conn, "k_1", m->nonce, digest, &answer, &err) &&
            store_commit(conn, &err);
    if (!m->ok && conn != NULL)
        store_rollback(conn);
    m->err = err;
    json_decref(e);
    if (loaded)
        store_match_free(&match);
    db_close_thread();
    return NULL;
}

static void start(mover *m)
{
    cr_assert_eq(pthread_create(&m->thread, NULL, move, m), 0);
}

/* Waits (5 s at most) until transactions wait for a shared commit. */
static void until_waiting(long long waiting)
{
    db_shared_figures f;
    long long deadline = now_ms() + 5000;
    for (db_shared_stats(&f); f.waiting < waiting; db_shared_stats(&f)) {
        cr_assert_lt(now_ms(), deadline, "%lld transactions wait, not %lld",
                     f.waiting, waiting);
        pause_briefly();
    }
}

/* A fresh schema holding match id, this process's connections pointed at
 * it, and this thread's connection; *setup is the test's own. */
static PGconn *thread_conn_with_match(PGconn **setup, store_match *match,
                                      long long id)
{
    char schema[64];
    *setup = store_test_schema(schema);
    store_test_match(*setup, match, id);
    use_schema(schema);
    apierr err = {.head = -1};
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    return conn;
}

static json_t *a_move(void)
{
    return json_pack("{s:s,s:i,s:{s:s}}", "kind", "move", "seat", 1, "data",
                     "text", "x");
}

Test(shared_commit, a_refused_transaction_fails_alone_and_the_others_commit)
{
    char schema[64];
    PGconn *setup = store_test_schema(schema);
    store_match matches[5];
    for (int i = 0; i < 5; i++)
        store_test_match(setup, &matches[i], 41 + i);
    use_schema(schema);
    db_shared_figures before;
    db_shared_stats(&before);

    /* Match 41's row is locked, so the first shared commit (its move)
     * waits, and the moves that arrive meanwhile wait together. */
    PGconn *blocker = pgtest_connect(schema);
    pgtest_exec(blocker, "BEGIN");
    pgtest_exec(blocker,
                "SELECT 1 FROM matches WHERE match_id = 41 FOR UPDATE");
    mover first = {.match_id = 41, .head = -1, .nonce = "n-41"};
    start(&first);
    pgtest_until_blocked_by(blocker);

    mover stale = {.match_id = 42, .head = 5, .nonce = "n-42"};
    mover fine = {.match_id = 43, .head = -1, .nonce = "n-43"};
    mover reused = {.match_id = 45, .head = -1, .nonce = "n-43"};
    mover also_fine = {.match_id = 44, .head = -1, .nonce = "n-44"};
    mover *together[] = {&stale, &fine, &reused, &also_fine};
    for (int i = 0; i < 4; i++)
        start(together[i]);
    until_waiting(4);
    pgtest_exec(blocker, "COMMIT");
    pthread_join(first.thread, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(together[i]->thread, NULL);

    cr_expect(first.ok, "%s", first.err.message);
    cr_expect(fine.ok, "%s", fine.err.message);
    cr_expect(also_fine.ok, "%s", also_fine.err.message);
    /* The stale head is refused with the head it lost to... */
    cr_expect(!stale.ok, "a stale append was committed");
    cr_expect_eq(stale.err.status, 409);
    cr_expect_str_eq(stale.err.code, "stale_seq");
    cr_expect_eq(stale.err.head, 0, "err.head is %lld", stale.err.head);
    /* ...and the nonce taken by an earlier transaction of the same commit
     * is refused as a reused nonce, its append with it. */
    cr_expect(!reused.ok, "one nonce was taken twice");
    cr_expect_eq(reused.err.status, 409, "%d %s", reused.err.status,
                 reused.err.message);
    cr_expect_str_eq(reused.err.code, "nonce_reused");

    cr_expect_eq(head_of(setup, 41), 1);
    cr_expect_eq(head_of(setup, 42), 0);
    cr_expect_eq(head_of(setup, 43), 1);
    cr_expect_eq(head_of(setup, 44), 1);
    cr_expect_eq(head_of(setup, 45), 0);
    cr_expect_eq(number(setup, "SELECT count(*) FROM events"), 3);
    cr_expect_eq(number(setup, "SELECT count(*) FROM events WHERE match_id"
                               " IN (42, 45)"),
                 0);
    cr_expect_eq(number(setup, "SELECT count(*) FROM request_nonces"), 3);

    /* Two commits: the first move's, then the four that waited, together. */
    db_shared_figures after;
    db_shared_stats(&after);
    cr_expect_eq(after.commits - before.commits, 2, "%lld commits",
                 after.commits - before.commits);
    cr_expect_eq(after.transactions - before.transactions, 5);
    cr_expect_eq(after.waiting, 0);
    for (int i = 0; i < 5; i++)
        store_match_free(&matches[i]);
    db_shutdown();
    PQfinish(blocker);
    PQfinish(setup);
}

Test(shared_commit, a_read_inside_makes_it_an_ordinary_transaction)
{
    PGconn *setup;
    store_match match;
    PGconn *conn = thread_conn_with_match(&setup, &match, 51);
    apierr err = {.head = -1};
    json_t *e = a_move();
    cr_assert(store_begin_shared(conn, 51, &err) &&
                  store_append(conn, &match, &e, 1, NULL, &err),
              "%s", err.message);
    json_decref(e);
    /* The read sees the transaction's own append... */
    json_t *stored = store_events_after(conn, 51, 0, 10, &err);
    cr_assert_not_null(stored, "%s", err.message);
    cr_expect_eq(json_array_size(stored), 1);
    json_decref(stored);
    /* ...which nobody else sees before the commit. */
    cr_expect_eq(head_of(setup, 51), 0);
    cr_expect(db_in_transaction(conn));
    cr_assert(store_commit(conn, &err), "%s", err.message);
    cr_expect_eq(head_of(setup, 51), 1);
    db_shared_figures f;
    db_shared_stats(&f);
    cr_expect_eq(f.commits, 0, "an ordinary transaction was shared");
    store_match_free(&match);
    db_close_thread();
    db_shutdown();
    PQfinish(setup);
}

Test(shared_commit, rolling_back_keeps_nothing_and_ends_the_transaction)
{
    PGconn *setup;
    store_match match;
    PGconn *conn = thread_conn_with_match(&setup, &match, 61);
    apierr err = {.head = -1};
    json_t *e = a_move();
    store_nonce answer = {.status = 200, .response = "{}"};
    cr_assert(store_begin_shared(conn, 61, &err) &&
                  store_append(conn, &match, &e, 1, NULL, &err) &&
                  store_save_nonce(conn, "k_1", "n-61", digest, &answer, &err),
              "%s", err.message);
    json_decref(e);
    cr_expect(db_in_transaction(conn));
    store_rollback(conn);
    cr_expect(!db_in_transaction(conn));
    /* A statement now runs at once, on its own. */
    store_nonce refusal = {.status = 422, .response = "{}"};
    cr_assert(store_save_nonce(conn, "k_1", "n-62", digest, &refusal, &err),
              "%s", err.message);
    cr_expect_eq(number(setup, "SELECT count(*) FROM request_nonces"), 1);
    cr_expect_eq(number(setup, "SELECT count(*) FROM request_nonces"
                               " WHERE nonce = 'n-62'"),
                 1);
    cr_expect_eq(number(setup, "SELECT count(*) FROM events"), 0);
    cr_expect_eq(head_of(setup, 61), 0);
    store_match_free(&match);
    db_close_thread();
    db_shutdown();
    PQfinish(setup);
}

Test(shared_commit, a_server_that_does_not_answer_is_503_in_time_and_then_works)
{
    PGconn *setup;
    store_match match;
    PGconn *conn = thread_conn_with_match(&setup, &match, 71);
    apierr err = {.head = -1};
    /* Our limit is short only for the statement that hangs: the setup
     * above and the request after it run at the service's usual limit,
     * so that a busy machine slows them without failing them. */
    db_set_timeout(400);
    long long began = now_ms();
    /* The server's own limit is made longer than ours, inside the shared
     * transaction: only ours can end it. */
    bool ok =
        store_begin_shared(conn, 71, &err) &&
        db_command(conn, "SET LOCAL statement_timeout = '20s'", 0, NULL,
                   &err) &&
        db_queue(conn, "SELECT pg_sleep(10)", 0, NULL, NULL, NULL, &err) &&
        store_commit(conn, &err);
    cr_expect(!ok);
    store_expect_unavailable_in_time(&err, now_ms() - began);
    store_rollback(conn);
    db_set_timeout(DB_TIMEOUT_MS);
    /* The next request's connection is a new one (each request asks
     * db_conn for its thread's, which replaces the one that was cut). */
    conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    json_t *e = a_move();
    cr_expect(store_begin_shared(conn, 71, &err) &&
                  store_append(conn, &match, &e, 1, NULL, &err) &&
                  store_commit(conn, &err),
              "%s", err.message);
    json_decref(e);
    cr_expect_eq(head_of(setup, 71), 1);
    store_match_free(&match);
    db_close_thread();
    db_shutdown();
    PQfinish(setup);
}
