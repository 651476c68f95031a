/* pgtest.h: test access to the real PostgreSQL that `make test` starts
 * (DATABASE_URL). Each test works in a fresh schema of its own, so tests
 * running in parallel never see each other's rows. */
#ifndef TESTS_SUPPORT_PGTEST_H
#define TESTS_SUPPORT_PGTEST_H

#include <libpq-fe.h>

/* A new connection whose search_path is a new, empty schema; its name is
 * written to schema (at least 64 bytes). Fails the test if the database is
 * unreachable. */
PGconn *pgtest_fresh_schema(char *schema);

/* Another connection to an existing schema (for concurrency tests). */
PGconn *pgtest_connect(const char *schema);

/* Runs SQL that must succeed. */
void pgtest_exec(PGconn *conn, const char *sql);

/* Waits, 10 s at most, until some backend waits for a lock blocker
 * holds (pg_blocking_pids), asked on a connection of its own: inside the
 * blocker's transaction pg_stat_activity would not change. */
void pgtest_until_blocked_by(PGconn *blocker);

#endif
