/* db.c: see db.h. */
#include "db.h"

#include <stdio.h>
#include <stdlib.h>

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench: %s: %s\n", what, detail);
    exit(1);
}

PGconn *bench_db_connect(const char *url)
{
    PGconn *db = PQconnectdb(url ? url : "");
    if (PQstatus(db) != CONNECTION_OK)
        die("connect", PQerrorMessage(db));
    return db;
}

void bench_db_exec(PGconn *db, const char *sql)
{
    PGresult *r = PQexec(db, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK &&
        PQresultStatus(r) != PGRES_TUPLES_OK)
        die(sql, PQresultErrorMessage(r));
    PQclear(r);
}

PGresult *bench_db_rows(PGconn *db, const char *sql)
{
    PGresult *r = PQexec(db, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        die(sql, PQresultErrorMessage(r));
    return r;
}
