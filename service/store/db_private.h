/* db_private.h: what db.c and db_shared.c (the shared commits of db.h)
 * lend each other, and nobody else uses. */
#ifndef SERVICE_STORE_DB_PRIVATE_H
#define SERVICE_STORE_DB_PRIVATE_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "store/db.h"

/* ---- db.c, for the committer ---- */

/* At most this many statements (PREPAREs included) wait in one thread's
 * pipeline: a shared commit's whole batch, BEGIN to COMMIT. */
#define DB_QUEUE_MAX 256

/* Queues a statement on conn's pipeline (db.c's queue_send): prepared on
 * first use on this thread's connection, found again by id (the address
 * the statement's caller used) and text. */
void db_pipeline_send(PGconn *conn, const void *id, const char *sql,
                      int nparams, const char *const *params,
                      db_explain *explain, const long long facts[2]);

/* What reading a pipeline found. */
typedef struct db_pipeline_outcome {
    bool lost;          /* the connection was lost (failure: what to report) */
    PGresult *failure;  /* the first failed statement's result, or NULL */
    long long facts[2]; /* that statement's facts */
    char sql[81];       /* the start of its text */
} db_pipeline_outcome;

/* Sends a Sync, reads every queued result and leaves pipeline mode. */
void db_pipeline_read(PGconn *conn, db_pipeline_outcome *out);

/* Fills err for a failed result as every db_ function does (503 for a
 * lost connection, else 500 "database:SQLSTATE"), logs it and frees it. */
void db_report_failure(PGconn *conn, PGresult *result, const char *sql,
                       apierr *err);

/* Runs sql (no parameters) and drops its result: a ROLLBACK. */
void db_run_plain(PGconn *conn, const char *sql);

/* ---- db_shared.c, for db.c ---- */

/* Starts recording a shared transaction on conn (idle, nothing queued):
 * db_begin_shared. */
bool db_shared_begin(PGconn *conn, long long order_key);

/* Whether this thread is recording a shared transaction on conn. */
bool db_shared_recording(const PGconn *conn);

/* Records a statement of the shared transaction (params copied). When the
 * transaction grows past what one shared commit takes, it goes on as an
 * ordinary one on conn instead (db_shared_spill). False with err filled
 * only when that failed. */
bool db_shared_record(PGconn *conn, const void *id, const char *sql,
                      int nparams, const char *const *params,
                      db_explain *explain, const long long facts[2],
                      apierr *err);

/* Hands the recorded transaction to the committer and waits for its
 * outcome: true once committed; false with err filled (a failed
 * statement's explain has given it its meaning) when it was not. */
bool db_shared_commit(PGconn *conn, apierr *err);

/* Turns the recorded transaction into an ordinary one on conn: BEGIN and
 * every recorded statement are queued there, and the caller goes on (a
 * read that needs its result inside the transaction). */
void db_shared_spill(PGconn *conn);

/* Forgets the recorded transaction (a rollback). */
void db_shared_drop(void);

/* Stops the committer thread once it has finished what it holds
 * (db_shutdown). */
void db_shared_stop(void);

#endif
