/* pgtest.c */
#include "pgtest.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

PGconn *pgtest_connect(const char *schema)
{
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url, "DATABASE_URL is not set: run the tests with make test");
    PGconn *conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "cannot connect: %s",
                 PQerrorMessage(conn));
    char sql[160];
    snprintf(sql, sizeof sql, "SET search_path TO %s; SET client_min_messages TO warning", schema);
    pgtest_exec(conn, sql);
    return conn;
}

PGconn *pgtest_fresh_schema(char *schema)
{
    uint8_t random[8];
    char hex[17];
    randombytes_buf(random, sizeof random);
    sodium_bin2hex(hex, sizeof hex, random, sizeof random);
    snprintf(schema, 64, "t_%s", hex);
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url, "DATABASE_URL is not set: run the tests with make test");
    PGconn *admin = PQconnectdb(url);
    cr_assert_eq(PQstatus(admin), CONNECTION_OK, "cannot connect: %s",
                 PQerrorMessage(admin));
    char sql[128];
    snprintf(sql, sizeof sql, "CREATE SCHEMA %s", schema);
    pgtest_exec(admin, sql);
    PQfinish(admin);
    return pgtest_connect(schema);
}

void pgtest_exec(PGconn *conn, const char *sql)
{
    PGresult *result = PQexec(conn, sql);
    ExecStatusType status = PQresultStatus(result);
    cr_assert(status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK,
              "%s failed: %s", sql, PQresultErrorMessage(result));
    PQclear(result);
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void pgtest_until_blocked_by(PGconn *blocker)
{
    char sql[160];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM pg_stat_activity"
             " WHERE %d = ANY (pg_blocking_pids(pid))",
             PQbackendPID(blocker));
    PGconn *watch = pgtest_connect("public");
    long long deadline = now_ms() + 10000;
    for (;;) {
        PGresult *r = PQexec(watch, sql);
        cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                     PQerrorMessage(watch));
        long long waiting = atoll(PQgetvalue(r, 0, 0));
        PQclear(r);
        if (waiting > 0)
            break;
        cr_assert_lt(now_ms(), deadline, "nothing waits for the lock");
        /* A poll of what PostgreSQL shows, not a wait for time to pass. */
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    PQfinish(watch);
}
