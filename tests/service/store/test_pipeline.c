/* Pipelined transactions (db_queue): an append and a nonce are queued and
 * read with the next statement that needs a result, the COMMIT at the
 * latest. What a caller sees must not change: the same refusals with the
 * same meaning, nothing of a refused transaction kept, and a connection
 * that works afterwards. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../support/pgtest.h"
#include "store_support.h"
#include "store/db.h"
#include "store/migrate.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/request_nonces.h"
#include "store/store.h"

static json_t *event(const char *kind, int n)
{
    return json_pack("{s:s,s:i,s:{s:i,s:s}}", "kind", kind, "seat", n % 2,
                     "data", "n", n, "text", "a \"quoted\" \\ {brace}, comma");
}

/* Appends n events one by one, outside any transaction. */
static void append_n(PGconn *conn, store_match *match, int n)
{
    for (int i = 0; i < n; i++) {
        json_t *e = event("move", i);
        apierr err;
        cr_assert(store_append(conn, match, &e, 1, NULL, &err), "%s",
                  err.message);
        json_decref(e);
    }
}

static long long head_of(PGconn *conn, long long match_id)
{
    long long head = -1;
    apierr err;
    cr_assert(store_load_head(conn, match_id, &head, NULL, &err), "%s",
              err.message);
    return head;
}

static long long count_rows(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQresultErrorMessage(r));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

static const uint8_t digest_a[32] = {1};
static const uint8_t digest_b[32] = {2};

Test(pipeline, a_stale_append_is_refused_at_commit_with_the_head_it_lost_to)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 31);
    append_n(conn, &match, 3);
    /* A writer that read the match at event 1. */
    store_match stale = match;
    stale.head_seq = 1;
    apierr err = {.head = -1};
    json_t *e = event("move", 9);
    bool ok = store_begin(conn, &err) &&
              store_append(conn, &stale, &e, 1, NULL, &err) &&
              store_commit(conn, &err);
    json_decref(e);
    cr_assert(!ok, "a stale append was committed");
    cr_expect_eq(err.status, 409);
    cr_expect_str_eq(err.code, "stale_seq");
    cr_expect_eq(err.head, 3, "err.head is %lld", err.head);
    cr_expect_not_null(strstr(err.message, "moved on to event 3"), "%s",
                       err.message);
    /* Rolled back, out of pipeline mode, and usable at once. */
    cr_expect_eq(PQtransactionStatus(conn), PQTRANS_IDLE);
    cr_expect_eq(PQpipelineStatus(conn), PQ_PIPELINE_OFF);
    store_rollback(conn);
    cr_expect_eq(count_rows(conn, "SELECT count(*) FROM events"), 3);
    append_n(conn, &match, 1);
    cr_expect_eq(head_of(conn, 31), 4);
    bool chain_ok = false;
    long long bad = 0;
    char reason[128];
    cr_assert(store_verify_chain(conn, 31, &chain_ok, &bad, reason,
                                 sizeof reason, &err),
              "%s", err.message);
    cr_expect(chain_ok, "chain broken at %lld: %s", bad, reason);
    store_match_free(&match);
    PQfinish(conn);
}

Test(pipeline, a_stale_append_outside_a_transaction_is_refused_at_once)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 32);
    append_n(conn, &match, 2);
    store_match stale = match;
    stale.head_seq = 0;
    apierr err = {.head = -1};
    json_t *e = event("move", 9);
    cr_expect(!store_append(conn, &stale, &e, 1, NULL, &err));
    json_decref(e);
    cr_expect_str_eq(err.code, "stale_seq");
    cr_expect_eq(err.head, 2);
    cr_expect_eq(head_of(conn, 32), 2);
    store_match_free(&match);
    PQfinish(conn);
}

Test(pipeline, a_nonce_taken_meanwhile_is_409_and_takes_the_append_with_it)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    PGconn *other = pgtest_connect(schema);
    store_match match;
    store_test_match(conn, &match, 33);
    append_n(conn, &match, 1);
    apierr err = {.head = -1};
    /* This request queues its append... */
    json_t *e = event("move", 5);
    cr_assert(store_begin(conn, &err), "%s", err.message);
    bool queued = store_append(conn, &match, &e, 1, NULL, &err);
    json_decref(e);
    /* ...while a concurrent request with the same nonce commits first
     * (both found it unused)... */
    store_nonce theirs = {.status = 200, .response = "{\"first\":true}"};
    apierr other_err;
    cr_assert(
        store_save_nonce(other, "k_1", "n-race", digest_b, &theirs, &other_err),
        "%s", other_err.message);
    /* ...then this one queues the nonce and commits. */
    store_nonce mine = {
        .status = 200, .response = "{}", .match_id = 33, .seq = 2};
    queued = queued &&
             store_save_nonce(conn, "k_1", "n-race", digest_a, &mine, &err);
    bool ok = queued && store_commit(conn, &err);
    cr_assert(!ok, "the nonce was taken twice");
    cr_expect_eq(err.status, 409);
    cr_expect_str_eq(err.code, "nonce_reused");
    cr_expect_eq(PQtransactionStatus(conn), PQTRANS_IDLE);
    /* Nothing of the refused transaction stands: not its event either. */
    cr_expect_eq(head_of(conn, 33), 1);
    cr_expect_eq(count_rows(conn, "SELECT count(*) FROM events"), 1);
    store_nonce found = {0};
    cr_expect_eq(
        store_find_nonce(conn, "k_1", "n-race", digest_b, &found, &err), 1);
    cr_expect_str_eq(found.response, "{\"first\":true}");
    free(found.response);
    /* The connection goes on working, pipelined again. */
    match.head_seq = 1;
    e = event("move", 6);
    cr_assert(
        store_begin(conn, &err) &&
            store_append(conn, &match, &e, 1, NULL, &err) &&
            store_save_nonce(conn, "k_1", "n-next", digest_a, &mine, &err) &&
            store_commit(conn, &err),
        "%s", err.message);
    json_decref(e);
    cr_expect_eq(head_of(conn, 33), 2);
    store_match_free(&match);
    PQfinish(other);
    PQfinish(conn);
}

Test(pipeline, a_read_in_the_middle_sees_what_was_queued_before_it)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 34);
    apierr err = {.head = -1};
    json_t *events[2] = {event("move", 0), event("move", 1)};
    cr_assert(store_begin(conn, &err), "%s", err.message);
    cr_assert(store_append(conn, &match, events, 2, "active", &err), "%s",
              err.message);
    json_decref(events[0]);
    json_decref(events[1]);
    cr_expect_eq(head_of(conn, 34), 2);
    json_t *stored = store_events_after(conn, 34, 0, 10, &err);
    cr_assert_not_null(stored, "%s", err.message);
    cr_expect_eq(json_array_size(stored), 2);
    const char *text = json_string_value(json_object_get(
        json_object_get(json_array_get(stored, 1), "data"), "text"));
    cr_expect_str_eq(text, "a \"quoted\" \\ {brace}, comma");
    json_decref(stored);
    /* Still one transaction: another connection sees nothing yet. */
    PGconn *other = pgtest_connect(schema);
    cr_expect_eq(count_rows(other, "SELECT count(*) FROM events"), 0);
    cr_assert(store_commit(conn, &err), "%s", err.message);
    cr_expect_eq(count_rows(other, "SELECT count(*) FROM events"), 2);
    store_match loaded;
    cr_assert(store_load_match(other, 34, &loaded, &err), "%s", err.message);
    cr_expect_str_eq(loaded.status, "active");
    cr_expect_eq(memcmp(loaded.head_hash, match.head_hash, STORE_HASH_BYTES),
                 0);
    store_match_free(&loaded);
    store_match_free(&match);
    PQfinish(other);
    PQfinish(conn);
}

Test(pipeline, a_read_in_the_middle_reports_the_queued_failure_first)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 35);
    append_n(conn, &match, 2);
    store_match stale = match;
    stale.head_seq = 1;
    apierr err = {.head = -1};
    json_t *e = event("move", 7);
    cr_assert(store_begin(conn, &err), "%s", err.message);
    bool ok = store_append(conn, &stale, &e, 1, NULL, &err);
    json_decref(e);
    json_t *stored = ok ? store_events_after(conn, 35, 0, 10, &err) : NULL;
    cr_expect_null(stored, "a read after a refused append answered");
    json_decref(stored);
    cr_expect_str_eq(err.code, "stale_seq");
    cr_expect_eq(err.head, 2);
    cr_expect_eq(PQtransactionStatus(conn), PQTRANS_IDLE);
    store_rollback(conn);
    cr_expect_eq(head_of(conn, 35), 2);
    store_match_free(&match);
    PQfinish(conn);
}

Test(pipeline, rolling_back_drops_what_was_queued)
{
    char schema[64];
    PGconn *conn = store_test_schema(schema);
    store_match match;
    store_test_match(conn, &match, 36);
    apierr err = {.head = -1};
    json_t *e = event("move", 0);
    cr_assert(store_begin(conn, &err) &&
                  store_append(conn, &match, &e, 1, NULL, &err),
              "%s", err.message);
    json_decref(e);
    store_rollback(conn);
    cr_expect_eq(PQtransactionStatus(conn), PQTRANS_IDLE);
    cr_expect_eq(PQpipelineStatus(conn), PQ_PIPELINE_OFF);
    cr_expect_eq(count_rows(conn, "SELECT count(*) FROM events"), 0);
    cr_expect_eq(head_of(conn, 36), 0);
    store_match_free(&match);
    PQfinish(conn);
}

/* On the thread's own connection (db_conn) statements are prepared on
 * first use, the PREPARE queued with them. */
static PGconn *thread_conn(const char *schema)
{
    apierr err;
    cr_assert(db_init(getenv("DATABASE_URL"), &err), "%s", err.message);
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    char sql[128];
    snprintf(sql, sizeof sql, "SET search_path TO %s", schema);
    cr_assert(db_command(conn, sql, 0, NULL, &err), "%s", err.message);
    return conn;
}

Test(pipeline,
     prepared_statements_work_queued_and_a_failed_prepare_is_forgotten)
{
    char schema[64];
    PGconn *setup = store_test_schema(schema);
    PGconn *conn = thread_conn(schema);
    store_match match;
    store_test_match(conn, &match, 37);
    apierr err = {.head = -1};
    for (int i = 0; i < 3; i++) {
        json_t *e = event("move", i);
        char nonce[16];
        snprintf(nonce, sizeof nonce, "n-%d", i);
        store_nonce answer = {.status = 200, .response = "{}"};
        cr_assert(
            store_begin(conn, &err) &&
                store_append(conn, &match, &e, 1, NULL, &err) &&
                store_save_nonce(conn, "k_1", nonce, digest_a, &answer, &err) &&
                store_commit(conn, &err),
            "move %d: %s", i, err.message);
        json_decref(e);
    }
    cr_expect_eq(head_of(setup, 37), 3);
    /* A statement PostgreSQL cannot prepare fails with its own error, every
     * time: the name queued for it is not taken as prepared. */
    static const char bad[] = "INSERT INTO no_such_table VALUES ($1)";
    const char *params[1] = {"1"};
    for (int i = 0; i < 2; i++) {
        cr_assert(store_begin(conn, &err), "%s", err.message);
        bool ok = db_queue(conn, bad, 1, params, NULL, NULL, &err) &&
                  store_commit(conn, &err);
        cr_expect(!ok);
        cr_expect_str_eq(err.code, "database:42P01", "try %d: %s", i, err.code);
        store_rollback(conn);
        cr_expect_eq(PQtransactionStatus(conn), PQTRANS_IDLE);
    }
    cr_expect_eq(head_of(conn, 37), 3);
    store_match_free(&match);
    db_close_thread();
    db_shutdown();
    PQfinish(setup);
}

static long long monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

Test(pipeline,
     a_server_that_does_not_answer_a_queued_transaction_is_503_in_time)
{
    char schema[64];
    PGconn *setup = store_test_schema(schema);
    db_set_timeout(400);
    PGconn *conn = thread_conn(schema);
    apierr err = {.head = -1};
    /* The server's own limit is longer than ours: only ours can end it. */
    cr_assert(db_command(conn, "SET statement_timeout = '20s'", 0, NULL, &err),
              "%s", err.message);
    long long start = monotonic_ms();
    cr_assert(store_begin(conn, &err), "%s", err.message);
    bool ok =
        db_queue(conn, "SELECT pg_sleep(10)", 0, NULL, NULL, NULL, &err) &&
        store_commit(conn, &err);
    cr_expect(!ok);
    store_expect_unavailable_in_time(&err, monotonic_ms() - start);
    store_rollback(conn);
    /* The next request gets a new connection that works. */
    PGconn *next = db_conn(&err);
    cr_assert_not_null(next, "%s", err.message);
    cr_expect(db_command(next, "SELECT 1", 0, NULL, &err), "%s", err.message);
    db_close_thread();
    db_shutdown();
    PQfinish(setup);
}
