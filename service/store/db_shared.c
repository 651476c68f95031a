/* db_shared.c: shared commits (db.h). A request thread records its
 * transaction's statements; one committer thread runs the transactions
 * that wait, in one transaction of its own, and commits them together. */
#include "store/db_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/metrics.h"

/* A transaction of more statements goes on alone (db_shared_spill): a
 * move needs 4 or 5, a sealed decision's end a few more. */
#define SHARED_STATEMENTS_MAX 24

/* One shared commit holds at most this many transactions, and at most
 * as many statements as the committer's pipeline takes: BEGIN, COMMIT,
 * and each statement with the PREPARE it may need on first use. */
#define SHARED_BATCH_MAX 64
#define SHARED_BATCH_STATEMENTS ((DB_QUEUE_MAX - 2) / 2)

typedef struct recorded_statement {
    const void *id; /* the caller's address for the text (db_pipeline_send) */
    char *sql;
    int nparams;
    char **params;
    db_explain *explain;
    long long facts[2];
} recorded_statement;

/* One thread's shared transaction: recorded by its thread, then run by
 * the committer while that thread waits. */
typedef struct shared_tx {
    PGconn *conn; /* the recording thread's connection; NULL: none open */
    long long order_key;
    long long arrival;
    recorded_statement items[SHARED_STATEMENTS_MAX];
    int count;
    /* The outcome, written by the committer before done. */
    bool done;
    bool committed;
    int failed_item; /* the recorded statement that failed, or -1 */
    char sqlstate[6];
    apierr err;
    pthread_cond_t finished;
    bool finished_made;
    struct shared_tx *next;
} shared_tx;

static __thread shared_tx own;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t arrived = PTHREAD_COND_INITIALIZER;
static shared_tx *waiting_first, *waiting_last;
static bool running, stopping;
static pthread_t committer_thread;
static long long arrivals, commits_made, transactions_made;
/* Transactions waiting for the committer. */
static int waiting_count;

static void forget_items(void)
{
    for (int i = 0; i < own.count; i++) {
        recorded_statement *s = &own.items[i];
        for (int p = 0; p < s->nparams; p++)
            free(s->params[p]);
        free(s->params);
        free(s->sql);
    }
    own.count = 0;
}

static char *copy_text(const char *text)
{
    if (text == NULL)
        return NULL;
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    return copy;
}

bool db_shared_begin(PGconn *conn, long long order_key)
{
    forget_items();
    own.conn = conn;
    own.order_key = order_key;
    return true;
}

bool db_shared_recording(const PGconn *conn)
{
    return own.conn != NULL && own.conn == conn;
}

void db_shared_drop(void)
{
    forget_items();
    own.conn = NULL;
}

void db_shared_spill(PGconn *conn)
{
    own.conn = NULL;
    apierr ignored;
    /* Idle with nothing queued, so the BEGIN is queued and cannot fail. */
    db_begin(conn, &ignored);
    for (int i = 0; i < own.count; i++) {
        recorded_statement *s = &own.items[i];
        db_pipeline_send(conn, s->id, s->sql, s->nparams,
                         (const char *const *)s->params, s->explain,
                         s->facts);
    }
    forget_items();
}

bool db_shared_record(PGconn *conn, const void *id, const char *sql,
                      int nparams, const char *const *params,
                      db_explain *explain, const long long facts[2],
                      apierr *err)
{
    if (own.count == SHARED_STATEMENTS_MAX) {
        db_shared_spill(conn);
        return db_queue(conn, sql, nparams, params, explain, facts, err);
    }
    recorded_statement *s = &own.items[own.count++];
    s->id = id;
    s->sql = copy_text(sql);
    s->nparams = nparams;
    s->params = nparams > 0 ? calloc((size_t)nparams, sizeof *s->params)
                            : NULL;
    if (nparams > 0 && s->params == NULL)
        abort();
    for (int p = 0; p < nparams; p++)
        s->params[p] = copy_text(params[p]);
    s->explain = explain;
    s->facts[0] = facts ? facts[0] : 0;
    s->facts[1] = facts ? facts[1] : 0;
    return true;
}

/* ---- the committer ---------------------------------------------------- */

static int by_order(const void *a, const void *b)
{
    const shared_tx *x = *(shared_tx *const *)a;
    const shared_tx *y = *(shared_tx *const *)b;
    if (x->order_key != y->order_key)
        return x->order_key < y->order_key ? -1 : 1;
    return x->arrival < y->arrival ? -1 : x->arrival > y->arrival;
}

static void fail(shared_tx *tx, int failed_item, const char *sqlstate,
                 const apierr *err)
{
    tx->committed = false;
    tx->failed_item = failed_item;
    snprintf(tx->sqlstate, sizeof tx->sqlstate, "%s", sqlstate);
    tx->err = *err;
}

/* Runs batch (in lock order) as one transaction until it commits: a
 * statement that fails fails its own transaction, which is left out, and
 * the rest are run again from BEGIN. A lost connection, or a failure that
 * is no one transaction's (the COMMIT), fails every one still in. */
static void run_batch(shared_tx **batch, int n)
{
    apierr err;
    memset(&err, 0, sizeof err);
    err.head = -1;
    PGconn *conn = db_conn(&err);
    for (int i = 0; i < n; i++)
        batch[i]->committed = conn != NULL;
    if (conn == NULL) {
        for (int i = 0; i < n; i++)
            fail(batch[i], -1, "", &err);
        return;
    }
    static const long long no_transaction[2] = {-1, -1};
    for (int left = n; left > 0; left--) {
        db_pipeline_send(conn, "BEGIN", "BEGIN", 0, NULL, NULL,
                         no_transaction);
        for (int i = 0; i < n; i++) {
            shared_tx *tx = batch[i];
            for (int k = 0; tx->committed && k < tx->count; k++) {
                const recorded_statement *s = &tx->items[k];
                const long long where[2] = {i, k};
                db_pipeline_send(conn, s->id, s->sql, s->nparams,
                                 (const char *const *)s->params, NULL, where);
            }
        }
        db_pipeline_send(conn, "COMMIT", "COMMIT", 0, NULL, NULL,
                         no_transaction);
        db_pipeline_outcome out;
        db_pipeline_read(conn, &out);
        if (out.failure == NULL)
            return;
        char sqlstate[6];
        snprintf(sqlstate, sizeof sqlstate, "%s", db_sqlstate(out.failure));
        apierr failed;
        memset(&failed, 0, sizeof failed);
        failed.head = -1;
        db_report_failure(conn, out.failure, out.sql, &failed);
        if (!out.lost && PQtransactionStatus(conn) != PQTRANS_IDLE)
            db_run_plain(conn, "ROLLBACK");
        long long culprit = out.lost ? -1 : out.facts[0];
        if (culprit < 0 || culprit >= n || !batch[culprit]->committed) {
            for (int i = 0; i < n; i++)
                if (batch[i]->committed)
                    fail(batch[i], -1, sqlstate, &failed);
            return;
        }
        fail(batch[culprit], (int)out.facts[1], sqlstate, &failed);
    }
}

static void *committer(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (waiting_first == NULL && !stopping)
            pthread_cond_wait(&arrived, &lock);
        if (waiting_first == NULL)
            break;
        /* Everything that arrived while the last commit ran, up to one
         * batch: that wait is what groups them. */
        shared_tx *batch[SHARED_BATCH_MAX];
        int n = 0, statements = 0;
        while (waiting_first != NULL && n < SHARED_BATCH_MAX &&
               statements + waiting_first->count <= SHARED_BATCH_STATEMENTS) {
            statements += waiting_first->count;
            batch[n++] = waiting_first;
            waiting_first = waiting_first->next;
            waiting_count--;
        }
        if (waiting_first == NULL)
            waiting_last = NULL;
        pthread_mutex_unlock(&lock);
        qsort(batch, (size_t)n, sizeof batch[0], by_order);
        run_batch(batch, n);
        pthread_mutex_lock(&lock);
        commits_made++;
        transactions_made += n;
        metrics_shared_commit(n);
        for (int i = 0; i < n; i++) {
            batch[i]->done = true;
            pthread_cond_signal(&batch[i]->finished);
        }
    }
    pthread_mutex_unlock(&lock);
    db_close_thread();
    return NULL;
}

/* Starts the committer if it is not running (lock held). */
static bool committer_running(void)
{
    if (running)
        return true;
    stopping = false;
    if (pthread_create(&committer_thread, NULL, committer, NULL) != 0) {
        log_error("database: cannot start the commit thread; transactions "
                  "commit one by one");
        return false;
    }
    running = true;
    return true;
}

bool db_shared_commit(PGconn *conn, apierr *err)
{
    if (own.count == 0) {
        db_shared_drop();
        return true;
    }
    if (!own.finished_made) {
        pthread_cond_init(&own.finished, NULL);
        own.finished_made = true;
    }
    pthread_mutex_lock(&lock);
    if (!committer_running()) {
        pthread_mutex_unlock(&lock);
        db_shared_spill(conn);
        return db_command(conn, "COMMIT", 0, NULL, err);
    }
    own.conn = NULL;
    own.done = false;
    own.next = NULL;
    own.arrival = arrivals++;
    waiting_count++;
    if (waiting_last != NULL)
        waiting_last->next = &own;
    else
        waiting_first = &own;
    waiting_last = &own;
    pthread_cond_signal(&arrived);
    while (!own.done)
        pthread_cond_wait(&own.finished, &lock);
    pthread_mutex_unlock(&lock);
    bool ok = own.committed;
    if (!ok) {
        *err = own.err;
        if (own.failed_item >= 0 && own.failed_item < own.count) {
            const recorded_statement *s = &own.items[own.failed_item];
            if (s->explain != NULL && PQstatus(conn) == CONNECTION_OK)
                s->explain(conn, own.sqlstate, s->facts, err);
        }
    }
    forget_items();
    return ok;
}

void db_shared_stop(void)
{
    pthread_mutex_lock(&lock);
    bool was_running = running;
    stopping = true;
    pthread_cond_signal(&arrived);
    pthread_mutex_unlock(&lock);
    if (was_running)
        pthread_join(committer_thread, NULL);
    pthread_mutex_lock(&lock);
    running = false;
    stopping = false;
    pthread_mutex_unlock(&lock);
}

void db_shared_stats(db_shared_figures *figures)
{
    pthread_mutex_lock(&lock);
    figures->commits = commits_made;
    figures->transactions = transactions_made;
    figures->waiting = waiting_count;
    pthread_mutex_unlock(&lock);
}
