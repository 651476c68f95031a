/* imap_worker.c: the rounds (list, read, hand over, put away) on a
 * core/worker thread. */
#include "mailin/imap_worker.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/metrics.h"
#include "core/worker.h"
#include "mailin/imap_client.h"
#include "mailin/imap_pool.h"
#include "store/db.h"
#include "store/imap_claims.h"

struct imap_worker {
    imap_config config;
    imap_handler handler;
    void *context;
    worker *thread;
    imap_pool *pool; /* the handler threads */
    /* The thread's own, from the first round to end: */
    imap_client *client; /* NULL until (re)connected */
    bool idling;
    bool down; /* the last attempt failed; the outage is logged already */
    /* Counters, read from other threads (atomics). */
    imap_worker_stats stats;
};

static void tally(unsigned long *counter)
{
    __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
}

static void drop_client(imap_worker *w)
{
    imap_client_close(w->client);
    w->client = NULL;
    w->idling = false;
}

/* The server failed us: logged once per outage, retried next round. */
static void outage(imap_worker *w, worker *self, const char *why)
{
    drop_client(w);
    if (worker_stopping(self))
        return;
    tally(&w->stats.failures);
    if (!w->down)
        log_warn("imap: %s; trying again every %d ms, silently until it "
                 "works",
                 why, w->config.poll_ms);
    w->down = true;
}

static bool connect_client(imap_worker *w, worker *self)
{
    char error[512];
    w->client =
        imap_client_open(&w->config, worker_wake_fd(self), error, sizeof error);
    if (w->client == NULL) {
        outage(w, self, error);
        return false;
    }
    return true;
}

/* Marks the handled messages \Seen in one STORE, then moves or deletes
 * those still this process's in one command (imap_client_mark_seen_batch:
 * one another process changed since the read is left to it). A refusal is
 * logged and the round goes on: the messages were handled, they are only
 * not put away (unseen, they are read again next round; seen, they stay
 * where they are). *done counts the ones that left the unseen. */
static imap_client_result put_away(imap_worker *w, const uint32_t *uids,
                                   size_t count, uint64_t version, size_t *done)
{
    if (count == 0)
        return IMAP_CLIENT_OK;
    bool gone[IMAP_CONFIG_BATCH_MAX];
    uint32_t mine[IMAP_CONFIG_BATCH_MAX];
    size_t kept = 0;
    imap_client_result r =
        imap_client_mark_seen_batch(w->client, uids, count, version, gone);
    if (r == IMAP_CLIENT_OK) {
        for (size_t i = 0; i < count; i++)
            if (!gone[i])
                mine[kept++] = uids[i];
        *done += count;
        if (kept > 0)
            r = w->config.done == IMAP_CONFIG_MOVE
                    ? imap_client_move_batch(w->client, mine, kept,
                                             w->config.done_folder)
                    : imap_client_delete_batch(w->client, mine, kept);
    }
    if (r == IMAP_CLIENT_OK)
        for (size_t i = 0; i < kept; i++)
            tally(&w->stats.put_away);
    else if (r == IMAP_CLIENT_REFUSED)
        log_warn("imap: %zu handled message%s not put away: %s", count,
                 count == 1 ? " is" : "s are", imap_client_error(w->client));
    return r;
}

/* Counts what the handler answered for one message of the batch that
 * came whole (fetched); whether to put it away. */
static bool answered(imap_worker *w, uint32_t uid, const imap_pool_job *job)
{
    tally(&w->stats.fetched);
    if (job->outcome == IMAP_TRY_LATER) {
        tally(&w->stats.try_later);
        return false;
    }
    if (job->outcome == IMAP_UNREADABLE) {
        tally(&w->stats.unreadable);
        log_warn("imap: message UID %u is not a mail pbemd can read: put "
                 "away",
                 uid);
    } else {
        tally(&w->stats.handled);
    }
    return true;
}

/* Reads, hands over and puts away the messages this process holds: one
 * FETCH of their sizes, one of their bytes, all handed over at once by
 * the handler threads (one sender's in turn, imap_pool.h), and once every
 * one is answered the ones done are marked and moved together. A crash
 * anywhere before the marking leaves them all unseen, to be read again
 * (the handler changes nothing the second time); one answered TRY_LATER
 * is not marked. BROKEN ends the round. */
static imap_client_result handle_held(imap_worker *w, worker *self,
                                      const uint32_t *uids, size_t count,
                                      size_t *done)
{
    imap_client_message messages[IMAP_CONFIG_BATCH_MAX];
    for (size_t i = 0; i < count; i++)
        messages[i] = (imap_client_message){.uid = uids[i]};
    uint64_t version = 0;
    imap_client_result r =
        imap_client_fetch_batch(w->client, messages, count, &version);
    if (r == IMAP_CLIENT_REFUSED)
        log_warn("imap: %s", imap_client_error(w->client));
    if (r != IMAP_CLIENT_OK)
        return r;
    uint32_t finished[IMAP_CONFIG_BATCH_MAX];
    size_t ended = 0;
    imap_pool_job jobs[IMAP_CONFIG_BATCH_MAX];
    uint32_t job_uids[IMAP_CONFIG_BATCH_MAX];
    size_t whole = 0;
    for (size_t i = 0; i < count; i++) {
        imap_client_message *m = &messages[i];
        if (m->result == IMAP_CLIENT_GONE) {
            *done += 1; /* another process put it away */
        } else if (m->result == IMAP_CLIENT_TOO_BIG) {
            log_warn("imap: message UID %u is %zu bytes, more than the %zu "
                     "pbemd reads: put away unread",
                     m->uid, m->length, IMAP_CLIENT_MESSAGE_MAX);
            tally(&w->stats.oversized);
            finished[ended++] = m->uid;
        } else if (m->result == IMAP_CLIENT_OK) {
            job_uids[whole] = m->uid;
            jobs[whole++] = (imap_pool_job){.raw = m->raw, .length = m->length};
        }
    }
    if (!worker_stopping(self))
        imap_pool_run(w->pool, jobs, whole, self);
    for (size_t i = 0; i < whole; i++)
        if (jobs[i].handed && answered(w, job_uids[i], &jobs[i]))
            finished[ended++] = job_uids[i];
    int busiest = imap_pool_busiest(w->pool);
    __atomic_store_n(&w->stats.busiest, (unsigned long)busiest,
                     __ATOMIC_RELAXED);
    metrics_imap_handlers(w->config.handlers, busiest);
    for (size_t i = 0; i < count; i++)
        free(messages[i].raw);
    return put_away(w, finished, ended, version, done);
}

/* handle_held for the listed messages this process holds (imap_claims.h):
 * one another process works on is left to it (its put-away, or its
 * TRY_LATER, shows in a later round's listing), and so is every message
 * while the database cannot be reached, as the handler would answer
 * TRY_LATER. */
static imap_client_result handle_listed(imap_worker *w, worker *self,
                                        const uint32_t *uids, size_t listed,
                                        size_t *done)
{
    apierr err;
    bool held[IMAP_CONFIG_BATCH_MAX];
    PGconn *conn = db_conn(&err);
    int holds = conn == NULL
                    ? -1
                    : store_imap_claims_hold(conn, w->config.shown, uids,
                                             listed, true, held, &err);
    if (holds < 0) {
        for (size_t i = 0; i < listed; i++)
            tally(&w->stats.try_later);
        return IMAP_CLIENT_OK;
    }
    uint32_t mine[IMAP_CONFIG_BATCH_MAX];
    size_t n = 0;
    for (size_t i = 0; i < listed; i++) {
        if (held[i])
            mine[n++] = uids[i];
        else
            tally(&w->stats.elsewhere);
    }
    imap_client_result r =
        n > 0 ? handle_held(w, self, mine, n, done) : IMAP_CLIENT_OK;
    /* A connection replaced meanwhile took the locks with it; a failure
     * here drops the connection, which frees them too. */
    conn = db_conn(&err);
    if (conn != NULL && n > 0)
        store_imap_claims_hold(conn, w->config.shown, mine, n, false, held,
                               &err);
    return r;
}

/* Between rounds: IDLE where the server offers it, so the sleep ends
 * when mail comes; else the poll interval alone. */
static void wait_for_news(imap_worker *w, worker *self, worker_pause *pause)
{
    int fd = -1;
    bool pending = false;
    imap_client_result r = imap_client_idle_begin(w->client, &fd, &pending);
    if (r == IMAP_CLIENT_BROKEN) {
        outage(w, self, imap_client_error(w->client));
        return;
    }
    if (r != IMAP_CLIENT_OK)
        return;
    w->idling = true;
    if (pending)
        pause->ms = 0;
    else
        pause->fd = fd;
}

static void one_round(worker *self, void *context, worker_pause *pause)
{
    imap_worker *w = context;
    /* A session that broke while idling (the server restarted, say) is
     * replaced at once, without counting an outage. */
    if (w->idling) {
        w->idling = false;
        if (imap_client_idle_end(w->client) != IMAP_CLIENT_OK)
            drop_client(w);
    }
    if (w->client == NULL && !connect_client(w, self)) {
        tally(&w->stats.rounds);
        return;
    }
    uint32_t uids[IMAP_CONFIG_BATCH_MAX];
    size_t listed = 0, total = 0, done = 0;
    imap_client_result r = imap_client_unseen(
        w->client, uids, (size_t)w->config.batch, &listed, &total);
    /* Back only once it answers a search, not merely a login, so a server
     * that logs in and then fails is not logged back and down each round. */
    if (r == IMAP_CLIENT_OK && w->down) {
        log_info("imap: %s works again", w->config.shown);
        w->down = false;
    }
    if (r == IMAP_CLIENT_OK && listed > 0 && !worker_stopping(self)) {
        imap_client_result batch = handle_listed(w, self, uids, listed, &done);
        if (batch == IMAP_CLIENT_BROKEN)
            r = batch;
    }
    if (r != IMAP_CLIENT_OK)
        outage(w, self, imap_client_error(w->client));
    else if (total > listed && done > 0)
        pause->ms = 0; /* more are waiting, and this batch made room */
    else if (!worker_stopping(self))
        wait_for_news(w, self, pause);
    tally(&w->stats.rounds);
}

static void end(void *context)
{
    imap_worker *w = context;
    drop_client(w);
    /* The claims (store/imap_claims.h) are held on this thread's
     * database connection. */
    db_close_thread();
}

imap_worker *imap_worker_start(const imap_config *config, imap_handler handler,
                               void *context, apierr *err)
{
    imap_worker *w = calloc(1, sizeof *w);
    if (w == NULL)
        abort();
    w->config = *config;
    w->handler = handler;
    w->context = context;
    worker_spec spec = {
        .name = "imap",
        .what = "IMAP worker",
        .error_code = "imap",
        .poll_ms = config->poll_ms,
        .context = w,
        .round = one_round,
        .end = end,
    };
    log_info("imap: reading %s every %d ms at most with %d handler "
             "thread%s; handled mail is %s%s",
             config->shown, config->poll_ms, config->handlers,
             config->handlers == 1 ? "" : "s",
             config->done == IMAP_CONFIG_MOVE ? "moved to " : "deleted",
             config->done == IMAP_CONFIG_MOVE ? config->done_folder : "");
    w->pool = imap_pool_start(config->handlers, handler, context, err);
    w->thread = w->pool == NULL ? NULL : worker_start(&spec, err);
    if (w->thread == NULL) {
        imap_pool_stop(w->pool);
        explicit_bzero(&w->config, sizeof w->config);
        free(w);
        return NULL;
    }
    return w;
}

void imap_worker_stats_get(const imap_worker *w, imap_worker_stats *out)
{
    const imap_worker_stats *s = &w->stats;
    out->rounds = __atomic_load_n(&s->rounds, __ATOMIC_RELAXED);
    out->fetched = __atomic_load_n(&s->fetched, __ATOMIC_RELAXED);
    out->handled = __atomic_load_n(&s->handled, __ATOMIC_RELAXED);
    out->unreadable = __atomic_load_n(&s->unreadable, __ATOMIC_RELAXED);
    out->try_later = __atomic_load_n(&s->try_later, __ATOMIC_RELAXED);
    out->oversized = __atomic_load_n(&s->oversized, __ATOMIC_RELAXED);
    out->put_away = __atomic_load_n(&s->put_away, __ATOMIC_RELAXED);
    out->failures = __atomic_load_n(&s->failures, __ATOMIC_RELAXED);
    out->elsewhere = __atomic_load_n(&s->elsewhere, __ATOMIC_RELAXED);
    out->busiest = __atomic_load_n(&s->busiest, __ATOMIC_RELAXED);
}

void imap_worker_stop(imap_worker *w)
{
    if (w == NULL)
        return;
    worker_stop(w->thread);
    imap_pool_stop(w->pool);
    explicit_bzero(&w->config, sizeof w->config);
    free(w);
}
