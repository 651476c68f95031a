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

/* Which of the two conn is on: its synchronous_standby_names tells. */
static const char *which(PGconn *conn)
{
    PGresult *r = PQexec(conn, "SHOW synchronous_standby_names");
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    const char *name = strcmp(PQgetvalue(r, 0, 0), "") == 0 ? "the new primary"
                                                            : "the old primary";
    PQclear(r);
    return name;
}

Test(old_primary, is_passed_over_for_the_next_host_that_takes_writes,
     .fini = clean_up, .timeout = 120)
{
    make_old_primary();
    pgcluster_create(&new_primary, DATABASE);
    /* The old primary first, as a multi-host URL may well name it. */
    const pgcluster *both[] = {&old_primary, &new_primary};
    char url[600];
    pgcluster_multi_url(both, 2, DATABASE, url, sizeof url);
    db_set_timeout(LIMIT_MS);
    apierr err = {0};
    cr_assert(db_init(url, &err), "%s", err.message);
    PGconn *conn = db_conn(&err);
    cr_assert_not_null(conn, "%s", err.message);
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
