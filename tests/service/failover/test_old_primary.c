/* An old primary, as pg_auto_failover leaves one for a moment: its keeper
 * restarted it after a crash (or it thawed) before learning that the
 * standby was promoted in its place. It takes writes, names its standby
 * in synchronous_standby_names, and has none: its commits wait. What it
 * shows is behind the new primary, or holds commits the new primary never
 * had (those that waited for the standby when it crashed). store/db.c must
 * pass it over for the next host, and must not give an answer read from
 * it. Here the old primary is a cluster whose synchronous standby does
 * not exist, the new one a plain cluster; no pbemd. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../support/pgcluster.h"
#include "store/db.h"

#define DATABASE "pbem_old_primary"
/* The database limit for these tests: the time a wait for a standby that
 * never answers costs. */
#define LIMIT_MS 1500

static pgcluster old_primary, new_primary;

static void clean_up(void)
{
    db_shutdown();
    pgcluster_remove(&old_primary);
    pgcluster_remove(&new_primary);
}

static void run(const pgcluster *c, const char *sql)
{
    char url[200];
    pgcluster_url(c, "postgres", url, sizeof url);
    PGconn *conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK ||
                  PQresultStatus(r) == PGRES_TUPLES_OK,
              "%s: %s", sql, PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
}

/* The old primary waits for a standby that is gone. */
static void make_old_primary(void)
{
    pgcluster_create(&old_primary, DATABASE);
    run(&old_primary,
        "ALTER SYSTEM SET synchronous_standby_names = 'ANY 1 (gone)'");
    run(&old_primary, "SELECT pg_reload_conf()");
}

/* Which of the two conn is on: its socket's folder tells. */
static const char *which(PGconn *conn)
{
    PGresult *r = PQexec(conn, "SHOW unix_socket_directories");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        return "neither (the query failed)";
    }
    const char *name = strcmp(PQgetvalue(r, 0, 0), old_primary.dir) == 0
                           ? "the old primary"
                           : "the new primary";
    PQclear(r);
    return name;
}

/* This thread's connection through both, the old primary named first
 * (as a multi-host URL may well name it), within LIMIT_MS. */
static PGconn *connect_through_both(void)
{
    const pgcluster *both[] = {&old_primary, &new_primary};
    char url[600];
    pgcluster_multi_url(both, 2, DATABASE, url, sizeof url);
    db_set_timeout(LIMIT_MS);
    apierr err = {0};
    cr_assert(db_init(url, &err), "%s", err.message);
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    return conn;
}

Test(old_primary, is_passed_over_for_the_next_host_that_takes_writes,
     .fini = clean_up, .timeout = 120)
{
    make_old_primary();
    pgcluster_create(&new_primary, DATABASE);
    PGconn *conn = connect_through_both();
    cr_expect_str_eq(which(conn), "the new primary",
                     "the connection went to the old primary, whose commits "
                     "never reach a standby");
    /* Nothing on the connection cancels a commit's wait for the standby:
     * PostgreSQL reports such a commit as made, with a mere warning. */
    PGresult *r = PQexec(conn, "SHOW statement_timeout");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK);
    cr_expect_str_eq(PQgetvalue(r, 0, 0), "0",
                     "a statement_timeout would acknowledge a commit the "
                     "standby never got");
    PQclear(r);
}

Test(old_primary, gives_no_answer_until_a_standby_has_what_was_read,
     .fini = clean_up, .timeout = 120)
{
    make_old_primary();
    pgcluster_create(&new_primary, DATABASE);
    db_set_timeout(LIMIT_MS);
    apierr err = {0};

    char url[200];
    pgcluster_url(&old_primary, DATABASE, url, sizeof url);
    PGconn *conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    cr_expect_not(db_wait_replicated(conn, &err),
                  "what the old primary showed was taken as replicated");
    cr_expect_eq(err.status, 503, "%d %s: %s", err.status, err.code,
                 err.message);
    PQfinish(conn);

    /* A primary with no synchronous standby to wait for answers at once. */
    pgcluster_url(&new_primary, DATABASE, url, sizeof url);
    conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    err = (apierr){0};
    cr_expect(db_wait_replicated(conn, &err), "%s", err.message);
    PQfinish(conn);
}

/* A second thread, idle on its connection while another thread finds its
 * own lost, as pbemd's request threads are. */
static pthread_barrier_t phases;
static char idle_saw[2][400];

static void *idle_thread(void *arg)
{
    (void)arg;
    for (int phase = 0; phase < 2; phase++) {
        pthread_barrier_wait(&phases);
        apierr err = {0};
        PGconn *conn = db_conn(&err);
        snprintf(idle_saw[phase], sizeof idle_saw[phase], "%s",
                 conn != NULL ? which(conn) : err.message);
        pthread_barrier_wait(&phases);
    }
    db_close_thread();
    return NULL;
}

/* Waits until sql, run on c, returns value (t or f). */
static void wait_until(const pgcluster *c, const char *sql, const char *value)
{
    char url[200];
    pgcluster_url(c, "postgres", url, sizeof url);
    for (int tries = 0;; tries++) {
        PGconn *conn = PQconnectdb(url);
        PGresult *r = PQexec(conn, sql);
        bool done = PQresultStatus(r) == PGRES_TUPLES_OK &&
                    strcmp(PQgetvalue(r, 0, 0), value) == 0;
        PQclear(r);
        PQfinish(conn);
        if (done)
            return;
        cr_assert_lt(tries, 100, "%s never returned %s", sql, value);
        poll(NULL, 0, 50); /* the pace of a bounded poll */
    }
}

Test(old_primary, a_connection_left_idle_on_it_is_made_again, .fini = clean_up,
     .timeout = 120)
{
    /* Both threads connect while the old primary is still the primary. */
    pgcluster_create(&old_primary, DATABASE);
    pgcluster_create(&new_primary, DATABASE);
    PGconn *conn = connect_through_both();
    cr_assert_str_eq(which(conn), "the old primary");
    pthread_barrier_init(&phases, NULL, 2);
    pthread_t idle;
    cr_assert_eq(pthread_create(&idle, NULL, idle_thread, NULL), 0);
    pthread_barrier_wait(&phases);
    pthread_barrier_wait(&phases);
    cr_assert_str_eq(idle_saw[0], "the old primary");

    /* The failover: the old primary's commits no longer reach a standby,
     * and this thread's connection to it is cut. */
    run(&old_primary,
        "ALTER SYSTEM SET synchronous_standby_names = 'ANY 1 (gone)'");
    run(&old_primary, "SELECT pg_reload_conf()");
    wait_until(&old_primary,
               "SELECT current_setting('synchronous_standby_names') <> ''",
               "t");
    int pid = PQbackendPID(conn);
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%d)", pid);
    run(&old_primary, sql);
    snprintf(sql, sizeof sql,
             "SELECT count(*) = 0 FROM pg_stat_activity WHERE pid = %d", pid);
    wait_until(&old_primary, sql, "t");
    /* A backend leaves pg_stat_activity before its process exits and its
     * socket closes: wait (bounded) until this end has seen the close, as
     * a request thread finding its connection lost has. */
    struct pollfd closed = {.fd = PQsocket(conn), .events = POLLRDHUP};
    cr_assert_eq(poll(&closed, 1, 10000), 1,
                 "the terminated connection was not closed within 10 s");
    apierr err = {0};
    conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
    cr_expect_str_eq(which(conn), "the new primary");

    /* The other thread's connection, idle all along, is made again. */
    pthread_barrier_wait(&phases);
    pthread_barrier_wait(&phases);
    pthread_join(idle, NULL);
    pthread_barrier_destroy(&phases);
    cr_expect_str_eq(idle_saw[1], "the new primary",
                     "a connection left idle on the old primary answered "
                     "from it after another thread had lost its own");
}
