/* db.h: what the benchmarks that fill a database themselves (lobby,
 * scale) share: statements that must succeed, or the benchmark stops,
 * saying which statement failed and why. */
#ifndef BENCH_DB_H
#define BENCH_DB_H

#include <libpq-fe.h>

/* A connection to url (NULL: libpq's defaults), or exit. */
PGconn *bench_db_connect(const char *url);

/* Runs sql, which returns nothing or rows nobody reads, or exits. */
void bench_db_exec(PGconn *db, const char *sql);

/* Runs sql and gives its rows (the caller PQclears them), or exits. */
PGresult *bench_db_rows(PGconn *db, const char *sql);

#endif
