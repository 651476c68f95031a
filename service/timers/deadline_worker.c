/* deadline_worker.c */
#include "timers/deadline_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth/auth.h"
#include "core/clock.h"
#include "store/db.h"
#include "store/db_params.h"
#include "deadlines/deadlines.h"
#include "core/log.h"
#include "core/metrics.h"
#include "core/worker.h"
#include "store/request_nonces.h"
#include "store/store.h"
#include "timers/timeouts.h"

#define BATCH_MAX 64
#define BUSY_MAX 64

/* Nonces are kept twice the signature window (a client's clock may run
 * ahead of ours by a whole window) and five minutes more. */
#define NONCE_KEEP_SECONDS (2 * AUTH_WINDOW_SECONDS + 300)
#define NONCE_PRUNE_BATCH 5000
#define NONCE_PRUNE_EVERY_MS (60 * 1000)

struct deadline_worker {
    worker *thread;
    int batch;
    long long pruned_at_ms; /* monotonic; 0 before the first pruning */
};

/* Queues the reminders that are due; returns how many, or -1. */
static int remind_batch(deadline_worker *w, PGconn *conn)
{
    apierr err;
    long long now = clock_now();
    db_params p = {0};
    db_params_int(&p, now);
    db_params_int(&p, w->batch);
    if (!store_begin(conn, &err))
        return -1;
    PGresult *r = db_query(conn,
                           "SELECT match_id, deadline_id FROM deadlines"
                           " WHERE closed_at IS NULL AND fired_at IS NULL"
                           "   AND reminded_at IS NULL"
                           "   AND remind_at <= to_timestamp($1::bigint)"
                           " ORDER BY remind_at LIMIT $2::int"
                           " FOR UPDATE SKIP LOCKED",
                           p.count, p.values, PGRES_TUPLES_OK, &err);
    if (r == NULL) {
        store_rollback(conn);
        return -1;
    }
    int n = PQntuples(r);
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        deadline_row row;
        long long match_id = atoll(PQgetvalue(r, i, 0));
        ok = deadlines_get(conn, match_id, atoll(PQgetvalue(r, i, 1)), &row,
                           &err) &&
             db_command(conn, "SAVEPOINT reminder", 0, NULL, &err);
        if (ok && !timeouts_remind(conn, &row, now, &err)) {
            /* A match that cannot be loaded gets no reminder, but must not
             * stop the others: the row is marked and the failure logged. */
            log_error("match m_%lld: seat %d's deadline reminder could not "
                      "be queued: %s",
                      match_id, row.seat, err.message);
            ok = db_command(conn, "ROLLBACK TO SAVEPOINT reminder", 0, NULL,
                            &err) &&
                 deadlines_mark_reminded(conn, &row, now, &err);
        }
    }
    PQclear(r);
    if (!ok || !store_commit(conn, &err)) {
        store_rollback(conn);
        return -1;
    }
    return n;
}

/* A row whose action failed is marked so it does not fire again and again;
 * it stays current, so the seat's next move closes it. */
static void mark_failed(PGconn *conn, long long match_id, long long deadline_id,
                        long long now)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, deadline_id);
    db_params_int(&p, now);
    apierr err;
    db_command(conn,
               "UPDATE deadlines SET fired_at = to_timestamp($3::bigint),"
               " outcome = 'failed' WHERE match_id = $1 AND deadline_id = $2",
               p.count, p.values, &err);
}

/* Fires one due row of a match not in busy. Returns 1 when it fired, 0
 * when nothing is due, 2 when the row's match is busy (added to busy), -1
 * on a database error. */
static int fire_one(PGconn *conn, long long *busy, int *busy_count)
{
    apierr err;
    long long now = clock_now();
    char *skip = db_params_int_array(busy, *busy_count);
    db_params p = {0};
    db_params_int(&p, now);
    db_params_text(&p, skip);
    if (!store_begin(conn, &err)) {
        free(skip);
        return -1;
    }
    PGresult *r = db_query(conn,
                           "SELECT match_id, deadline_id FROM deadlines"
                           " WHERE closed_at IS NULL AND fired_at IS NULL"
                           "   AND fire_at <= to_timestamp($1::bigint)"
                           "   AND match_id <> ALL ($2::bigint[])"
                           " ORDER BY fire_at LIMIT 1 FOR UPDATE SKIP LOCKED",
                           p.count, p.values, PGRES_TUPLES_OK, &err);
    free(skip);
    if (r == NULL || PQntuples(r) == 0) {
        int status = r == NULL ? -1 : 0;
        PQclear(r);
        store_rollback(conn);
        return status;
    }
    long long match_id = atoll(PQgetvalue(r, 0, 0));
    long long deadline_id = atoll(PQgetvalue(r, 0, 1));
    PQclear(r);
    /* Never wait for the match while holding the deadline row: a move in
     * progress holds the match and will want this row. */
    db_params match_params = {0};
    db_params_int(&match_params, match_id);
    r = db_query(conn,
                 "SELECT 1 FROM matches WHERE match_id = $1"
                 " FOR UPDATE SKIP LOCKED",
                 match_params.count, match_params.values, PGRES_TUPLES_OK,
                 &err);
    if (r == NULL || PQntuples(r) == 0) {
        int status = r == NULL ? -1 : 2;
        PQclear(r);
        store_rollback(conn);
        if (status == 2 && *busy_count < BUSY_MAX)
            busy[(*busy_count)++] = match_id;
        return status;
    }
    PQclear(r);
    if (!db_command(conn, "SAVEPOINT fire", 0, NULL, &err)) {
        store_rollback(conn);
        return -1;
    }
    if (!timeouts_fire(conn, match_id, deadline_id, now, &err)) {
        log_error("match m_%lld: deadline %lld could not be applied: %s",
                  match_id, deadline_id, err.message);
        apierr again;
        if (!db_command(conn, "ROLLBACK TO SAVEPOINT fire", 0, NULL, &again)) {
            store_rollback(conn);
            return -1;
        }
        mark_failed(conn, match_id, deadline_id, now);
    }
    if (!store_commit(conn, &err)) {
        store_rollback(conn);
        return -1;
    }
    return 1;
}

static long long monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Housekeeping beside the deadlines, at most once a minute: the nonces
 * the signature window has closed on, a batch at a time so no statement
 * holds the table long. Every process may do it; they only share work. */
static void prune_nonces(deadline_worker *w, worker *self, PGconn *conn)
{
    long long now = monotonic_ms();
    if (w->pruned_at_ms != 0 && now - w->pruned_at_ms < NONCE_PRUNE_EVERY_MS)
        return;
    w->pruned_at_ms = now;
    apierr err;
    long long total = 0;
    int deleted;
    do {
        deleted = store_prune_nonces(conn, NONCE_KEEP_SECONDS,
                                     NONCE_PRUNE_BATCH, &err);
        if (deleted > 0)
            total += deleted;
    } while (deleted == NONCE_PRUNE_BATCH && !worker_stopping(self));
    if (total > 0)
        log_info("pruned %lld request nonces older than %d s", total,
                 NONCE_KEEP_SECONDS);
}

static void one_round(worker *self, void *context, worker_pause *pause)
{
    deadline_worker *w = context;
    apierr err;
    PGconn *conn = db_conn(&err);
    int reminders = 0, actions = 0;
    if (conn != NULL) {
        prune_nonces(w, self, conn);
        reminders = remind_batch(w, conn);
        long long busy[BUSY_MAX];
        int busy_count = 0;
        for (int i = 0; i < w->batch && !worker_stopping(self); i++) {
            int fired = fire_one(conn, busy, &busy_count);
            if (fired <= 0)
                break;
            actions += fired == 1;
        }
    }
    metrics_deadline_round(reminders > 0 ? reminders : 0, actions);
    /* Work found: there may be more, so no sleep before the next round. */
    if (reminders > 0 || actions > 0)
        pause->ms = 0;
}

static void end(void *context)
{
    (void)context;
    db_close_thread();
}

deadline_worker *deadline_worker_start(int poll_ms, int batch, apierr *err)
{
    deadline_worker *w = calloc(1, sizeof *w);
    if (w == NULL)
        abort();
    w->batch = batch >= 1 && batch <= BATCH_MAX ? batch : 16;
    worker_spec spec = {
        .name = "deadlines",
        .what = "deadline worker",
        .error_code = "deadlines",
        .poll_ms = poll_ms > 0 ? poll_ms : 10000,
        .context = w,
        .round = one_round,
        .end = end,
    };
    w->thread = worker_start(&spec, err);
    if (w->thread == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

void deadline_worker_stop(deadline_worker *w)
{
    if (w == NULL)
        return;
    worker_stop(w->thread);
    free(w);
}
