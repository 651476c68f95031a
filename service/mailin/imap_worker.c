/* imap_worker.c: the rounds (list, read, hand over, put away) on a
 * core/worker thread. */
#include "mailin/imap_worker.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/worker.h"
#include "mailin/imap_client.h"
#include "store/db.h"
#include "store/imap_claims.h"

struct imap_worker {
    imap_config config;
    imap_handler handler;
    void *context;
    worker *thread;
    /* The thread's own, from the first round to end: */
    imap_client *client; /* NULL until (re)connected */
    bool idling;
    bool down; /* the last attempt failed; the outage is logged already */
    /* Counters, read from other threads (atomics). */
    imap_worker_stats stats;
};

static void count(unsigned long *counter)
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
    count(&w->stats.failures);
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

/* Marks a message \Seen, then moves or deletes it; GONE when another
 * process claimed it first (imap_client_mark_seen). A refusal is logged
 * and the round goes on: the message was handled, it is only not put
 * away (unseen, it is read again next round; seen, it stays where it is). */
static imap_client_result put_away(imap_worker *w, uint32_t uid,
                                   uint64_t version)
{
    imap_client_result r = imap_client_mark_seen(w->client, uid, version);
    if (r == IMAP_CLIENT_GONE)
        return r;
    if (r == IMAP_CLIENT_OK)
        r = w->config.done == IMAP_CONFIG_MOVE
                ? imap_client_move(w->client, uid, w->config.done_folder)
                : imap_client_delete(w->client, uid);
    if (r == IMAP_CLIENT_OK)
        count(&w->stats.put_away);
    else if (r == IMAP_CLIENT_REFUSED)
        log_warn("imap: message UID %u is handled but not put away: %s", uid,
                 imap_client_error(w->client));
    return r;
}

/* Reads, hands over and puts away one message that this process holds;
 * BROKEN ends the round. *gone is true when the message left the
 * mailbox's unseen ones. */
static imap_client_result handle_held(imap_worker *w, uint32_t uid, bool *gone)
{
    char *raw = NULL;
    size_t length = 0;
    uint64_t version = 0;
    *gone = false;
    imap_client_result r =
        imap_client_fetch(w->client, uid, &raw, &length, &version);
    if (r == IMAP_CLIENT_GONE) {
        *gone = true; /* another process put it away */
        return IMAP_CLIENT_OK;
    }
    if (r == IMAP_CLIENT_REFUSED) {
        log_warn("imap: %s", imap_client_error(w->client));
        return r;
    }
    if (r == IMAP_CLIENT_TOO_BIG) {
        log_warn("imap: message UID %u is %zu bytes, more than the %zu "
                 "pbemd reads: put away unread",
                 uid, length, IMAP_CLIENT_MESSAGE_MAX);
        count(&w->stats.oversized);
        r = put_away(w, uid, version);
        *gone = r == IMAP_CLIENT_OK || r == IMAP_CLIENT_GONE;
        return r == IMAP_CLIENT_GONE ? IMAP_CLIENT_OK : r;
    }
    if (r != IMAP_CLIENT_OK)
        return r;
    count(&w->stats.fetched);
    imap_outcome outcome = w->handler(w->context, raw, length);
    free(raw);
    if (outcome == IMAP_TRY_LATER) {
        count(&w->stats.try_later);
        return IMAP_CLIENT_OK;
    }
    if (outcome == IMAP_UNREADABLE) {
        count(&w->stats.unreadable);
        log_warn("imap: message UID %u is not a mail pbemd can read: put "
                 "away",
                 uid);
    } else {
        count(&w->stats.handled);
    }
    r = put_away(w, uid, version);
    *gone = r == IMAP_CLIENT_OK || r == IMAP_CLIENT_GONE;
    return r == IMAP_CLIENT_GONE ? IMAP_CLIENT_OK : r;
}

/* handle_held, once this process holds the message (imap_claims.h): one
 * another process works on is left to it (its put-away, or its TRY_LATER,
 * shows in a later round's listing), and so is every message while the
 * database cannot be reached, as the handler would answer TRY_LATER. */
static imap_client_result handle_one(imap_worker *w, uint32_t uid, bool *gone)
{
    *gone = false;
    apierr err;
    PGconn *conn = db_conn(&err);
    int held = conn == NULL ? -1
                            : store_imap_claims_hold(conn, w->config.shown, uid,
                                                     true, &err);
    if (held != 1) {
        count(held == 0 ? &w->stats.elsewhere : &w->stats.try_later);
        return IMAP_CLIENT_OK;
    }
    imap_client_result r = handle_held(w, uid, gone);
    /* A connection replaced meanwhile took the lock with it; a failure
     * here drops the connection, which frees the lock too. */
    conn = db_conn(&err);
    if (conn != NULL)
        store_imap_claims_hold(conn, w->config.shown, uid, false, &err);
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
        count(&w->stats.rounds);
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
    for (size_t i = 0;
         r == IMAP_CLIENT_OK && i < listed && !worker_stopping(self); i++) {
        bool gone = false;
        imap_client_result one = handle_one(w, uids[i], &gone);
        if (one == IMAP_CLIENT_BROKEN)
            r = one;
        done += gone;
    }
    if (r != IMAP_CLIENT_OK)
        outage(w, self, imap_client_error(w->client));
    else if (total > listed && done > 0)
        pause->ms = 0; /* more are waiting, and this batch made room */
    else if (!worker_stopping(self))
        wait_for_news(w, self, pause);
    count(&w->stats.rounds);
}

static void end(void *context)
{
    imap_worker *w = context;
    drop_client(w);
    /* The handler works through this thread's database connection. */
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
    log_info("imap: reading %s every %d ms at most; handled mail is %s%s",
             config->shown, config->poll_ms,
             config->done == IMAP_CONFIG_MOVE ? "moved to " : "deleted",
             config->done == IMAP_CONFIG_MOVE ? config->done_folder : "");
    w->thread = worker_start(&spec, err);
    if (w->thread == NULL) {
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
}

void imap_worker_stop(imap_worker *w)
{
    if (w == NULL)
        return;
    worker_stop(w->thread);
    explicit_bzero(&w->config, sizeof w->config);
    free(w);
}
