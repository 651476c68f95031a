/* deadline_worker.c */
#include "timers/deadline_worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth/auth.h"
#include "core/clock.h"
#include "store/db.h"
#include "store/deadlines.h"
#include "store/match_locks.h"
#include "store/savepoint.h"
#include "deadlines/deadlines.h"
#include "core/log.h"
#include "core/metrics.h"
#include "core/worker.h"
#include "play/seeks.h"
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
    store_deadline_ref due[BATCH_MAX];
    if (!store_begin(conn, &err))
        return -1;
    int n = store_deadlines_claim_reminders(conn, now, w->batch, due, &err);
    if (n < 0) {
        store_rollback(conn);
        return -1;
    }
    bool ok = true;
    for (int i = 0; ok && i < n; i++) {
        deadline_row row;
        ok = deadlines_get(conn, due[i].match_id, due[i].deadline_id, &row,
                           &err) &&
             store_savepoint_mark(conn, &err);
        if (ok && !timeouts_remind(conn, &row, now, &err)) {
            /* A match that cannot be loaded gets no reminder, but must not
             * stop the others: the row is marked and the failure logged. */
            log_error("match m_%lld: seat %d's deadline reminder could not "
                      "be queued: %s",
                      due[i].match_id, row.seat, err.message);
            ok = store_savepoint_undo(conn, &err) &&
                 deadlines_mark_reminded(conn, &row, now, &err);
        }
    }
    if (!ok || !store_commit(conn, &err)) {
        store_rollback(conn);
        return -1;
    }
    return n;
}

/* Fires one due row of a match not in busy. Returns 1 when it fired, 0
 * when nothing is due, 2 when the row's match is busy (added to busy), -1
 * on a database error. */
static int fire_one(PGconn *conn, long long *busy, int *busy_count)
{
    apierr err;
    long long now = clock_now();
    store_deadline_ref due;
    if (!store_begin(conn, &err))
        return -1;
    int found =
        store_deadlines_claim_due(conn, now, busy, *busy_count, &due, &err);
    if (found <= 0) {
        store_rollback(conn);
        return found;
    }
    /* Never wait for the match while holding the deadline row: a move in
     * progress holds the match and will want this row. */
    int held = store_match_locks_try(conn, due.match_id, &err);
    if (held <= 0) {
        store_rollback(conn);
        if (held == 0 && *busy_count < BUSY_MAX)
            busy[(*busy_count)++] = due.match_id;
        return held < 0 ? -1 : 2;
    }
    if (!store_savepoint_mark(conn, &err)) {
        store_rollback(conn);
        return -1;
    }
    if (!timeouts_fire(conn, due.match_id, due.deadline_id, now, &err)) {
        log_error("match m_%lld: deadline %lld could not be applied: %s",
                  due.match_id, due.deadline_id, err.message);
        /* A row whose action failed is marked so it does not fire again
         * and again; it stays current, so the seat's next move closes it. */
        apierr again;
        if (!store_savepoint_undo(conn, &again)) {
            store_rollback(conn);
            return -1;
        }
        store_deadlines_fail(conn, due.match_id, due.deadline_id, now, &again);
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
        seeks_pair_waiting();
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
