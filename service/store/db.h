/* db.h: PostgreSQL connections (libpq). One connection per thread, made on
 * first use and kept for the thread's life (libpq connections must not be
 * shared between threads). Connection failures become one sentence that says
 * what to do, never a page of libpq noise, and never show a password. */
#ifndef SERVICE_STORE_DB_H
#define SERVICE_STORE_DB_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Remembers the URL and checks that a server answers there. On failure
 * fills err (status 503) with the sentence to print and returns false. */
bool db_init(const char *url, apierr *err);

/* How long one wait on PostgreSQL (a connection, or one statement) may
 * last by default. Past it the connection is shut, and PostgreSQL, which
 * checks its clients' connections, ends the statement. */
#define DB_TIMEOUT_MS 10000

/* Sets that limit (main, from the environment, before any connection). */
void db_set_timeout(int milliseconds);

/* Whether PostgreSQL answers this thread within milliseconds (connecting
 * first if need be), for health checks: a hung server makes it false, with
 * err filled, once the time is out. */
bool db_ping(int milliseconds, apierr *err);

/* Seconds a client is told to wait (Retry-After) when the database is
 * unavailable. */
#define DB_RETRY_AFTER_SECONDS 2

/* This thread's connection, reconnecting if it broke or PostgreSQL closed
 * it while idle (a restart); NULL with err filled (503
 * "database_unavailable", with retry_after) when the database cannot be
 * reached. Borrowed: do not PQfinish. */
PGconn *db_conn(apierr *err);

/* A connection of its own that LISTENs on channel (a fixed lower-case
 * name, such as "pbem_outbox"), non-blocking, for a worker to poll: made
 * as db_conn makes them (each host of a multi-host DATABASE_URL in turn,
 * within the database time limit). The caller owns it (PQfinish). NULL
 * with err filled (503) when it cannot be made. */
PGconn *db_listen(const char *channel, apierr *err);

/* Closes this thread's connection (at thread exit). */
void db_close_thread(void);

/* Closes every thread's connection: call once, after the threads that used
 * them have stopped (server shutdown). */
void db_shutdown(void);

/* Runs a parameterised statement (text parameters; lengths NULL). On this
 * thread's connection it is prepared on first use and then run by name.
 * The result is the caller's to PQclear. On an unexpected status returns NULL,
 * fills err (500, code "database:<SQLSTATE>") and logs libpq's message;
 * when the connection itself was lost, 503 "database_unavailable" with
 * retry_after (the request may be tried again). */
PGresult *db_query(PGconn *conn, const char *sql, int nparams,
                   const char *const *params, ExecStatusType expected,
                   apierr *err);

/* Like db_query for statements whose result is not needed. */
bool db_command(PGconn *conn, const char *sql, int nparams,
                const char *const *params, apierr *err);

/* Waits until what conn has read is on the synchronous standbys too, by
 * committing a transaction of its own that writes to the log (its commit
 * waits for them, and comes after everything it read). A primary
 * restarted after a crash shows the commits that were still waiting for
 * the standby when it died, and the standby promoted in its place never
 * got them: an answer read from such a commit must not be given before
 * this. Outside any transaction; false with err filled (503
 * "database_unavailable" when the standby does not answer within the
 * limit). */
bool db_wait_replicated(PGconn *conn, apierr *err);

/* ---- pipelined transactions ------------------------------------------
 *
 * Statements whose results are not needed before the COMMIT are queued:
 * sent at once (libpq's pipeline mode) but read only when the next
 * db_query or db_command, the COMMIT included, needs its own result. Then
 * everything goes out with it and is read in one wait, in order. The first
 * queued statement that failed is that statement's failure, reported there
 * as db_command would have reported it, after the transaction was rolled
 * back and the queued statement's explain (if any) gave it its meaning. A
 * lost connection is 503 "database_unavailable", as for any statement. */

/* Turns a queued statement's failure (err already filled as db_command
 * fills it; sqlstate its SQLSTATE) into what it means to its caller, such
 * as 409 "nonce_reused". Called after the rollback, so it may read. facts
 * are the two numbers given to db_queue, copied. */
typedef void db_explain(PGconn *conn, const char *sqlstate,
                        const long long facts[2], apierr *err);

/* The SQLSTATE of migration 014's append_match_events when the match is
 * no longer at the head the writer expected. */
#define DB_STALE_HEAD "PB409"

/* Starts a transaction; the BEGIN is queued (it goes with the next
 * statement that needs its result). */
bool db_begin(PGconn *conn, apierr *err);

/* Queues a statement of the open transaction (params are copied at once;
 * explain and facts may be NULL). Outside a transaction it runs at once,
 * and a failure gets explain's meaning there. False only then. */
bool db_queue(PGconn *conn, const char *sql, int nparams,
              const char *const *params, db_explain *explain,
              const long long facts[2], apierr *err);

/* Ends the transaction without keeping anything: what is queued is read
 * and dropped, then ROLLBACK unless the transaction already ended. */
void db_rollback(PGconn *conn);

/* Whether conn is inside a transaction, a shared one included. */
bool db_in_transaction(PGconn *conn);

/* ---- shared commits (group commit) -------------------------------------
 *
 * PostgreSQL spends about as much on a commit (the WAL flush and the work
 * around it) as on a small append, so transactions that arrive together
 * from different requests share one: the committer, a thread of its own,
 * runs them in order of their order_key, in one transaction on its own
 * connection, and commits them together. Each still fails alone: a
 * statement that fails (a stale head, a nonce taken) is reported to its
 * own transaction, after its explain gave it its meaning, and the others
 * are run again without it and committed.
 *
 * db_begin_shared starts one: db_queue and db_command (but the COMMIT)
 * record their statement instead of sending it, and their failures show
 * at the COMMIT, which waits for the shared commit (its time limit is the
 * database limit, per batch). A statement that needs its result inside
 * the transaction (db_query), or a transaction of more statements than a
 * shared commit takes, turns it into an ordinary one on conn: everything
 * recorded is sent there, and nothing is shared. db_rollback forgets it.
 * order_key orders the transactions of one shared commit (the match id:
 * row locks are then taken in one order, by every process). */
bool db_begin_shared(PGconn *conn, long long order_key, apierr *err);

/* A shared transaction queued for its commit by db_commit_queue, whose
 * request waits without holding its thread. */
typedef struct db_shared db_shared;

/* How a request waits without holding its thread: suspend sets it aside
 * (called once, before anyone can call ready, while the request's own
 * call is still running); ready, from the committer's thread, brings it
 * back once its outcome is known. */
typedef struct db_waiter {
    void (*suspend)(void *context);
    void (*ready)(void *context);
    void *context;
} db_waiter;

enum { DB_FAILED, DB_COMMITTED, DB_QUEUED };

/* The COMMIT of the transaction open on conn, without waiting: a shared
 * one is DB_QUEUED, with *queued set and waiter->suspend called; once
 * waiter->ready is called, db_commit_outcome gives the outcome. Otherwise
 * (waiter NULL, or an ordinary transaction) as db_command's COMMIT:
 * DB_COMMITTED, or DB_FAILED with err filled (the transaction is over
 * either way). The HTTP door's way; every other caller blocks
 * (store_commit). */
int db_commit_queue(PGconn *conn, const db_waiter *waiter, db_shared **queued,
                    apierr *err);

/* On the queuing request's thread, after waiter->ready: the outcome of a
 * queued commit, as the COMMIT would have given it (a failure explained on
 * this thread's connection). Frees queued. */
bool db_commit_outcome(db_shared *queued, apierr *err);

/* What the shared commits of this process have done so far. */
typedef struct db_shared_figures {
    long long commits;      /* shared commits made */
    long long transactions; /* the transactions they held */
    long long waiting;      /* transactions queued, not yet in a batch */
} db_shared_figures;

void db_shared_stats(db_shared_figures *figures);

/* The SQLSTATE of a failed result ("23505" unique violation) or "". */
const char *db_sqlstate(const PGresult *result);

#endif
