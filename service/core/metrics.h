/* metrics.h: counters for GET /metrics, in Prometheus text format:
 * requests by route and status, a request latency histogram, events
 * appended, deadline worker passes, mail answers sent. Safe to call from any thread. */
#ifndef SERVICE_CORE_METRICS_H
#define SERVICE_CORE_METRICS_H

#include <stddef.h>

/* route is a static string naming the route pattern ("POST /v1/matches/{id}/moves"). */
void metrics_request(const char *route, int status, double seconds);
void metrics_events_appended(int count);
/* One pass of the deadline worker, with the reminders it queued and the
 * actions it applied (tests wait for passes that began after they moved
 * the clock). */
void metrics_deadline_round(int reminders, int actions);

/* A mail that came in, by what became of it: MAIL_ANSWERED,
 * MAIL_IGNORED (automatic mail, duplicates), MAIL_LIMITED (over the
 * sender's hourly answers: dropped), MAIL_BOUNCE, MAIL_UNREADABLE. */
typedef enum metrics_mail {
    METRICS_MAIL_ANSWERED,
    METRICS_MAIL_IGNORED,
    METRICS_MAIL_LIMITED,
    METRICS_MAIL_BOUNCE,
    METRICS_MAIL_UNREADABLE,
    METRICS_MAIL_OUTCOMES
} metrics_mail;
void metrics_mail_received(metrics_mail outcome);
/* Attempts of the outbox worker at mail that answers mail
 * (notify/mail_answers.h): sent, failed (to be retried) and failed for the
 * last time (dead). */
void metrics_mail_answers(int sent, int failed, int dead);

/* Rate limits (http/rate_policy.h). A budget by name ("anonymous",
 * "player": static strings) with its quota per window of seconds and the
 * buckets its table can hold (all 0: the budget is off); how many of them
 * hold a client now; a route's cost in points; a request refused. */
void metrics_rate_budget(const char *policy, long long quota,
                         long long window, size_t slots);
void metrics_rate_buckets(const char *policy, size_t in_use);
void metrics_rate_route(const char *route, long long cost);
void metrics_rate_limited(const char *route, const char *policy);

/* A GET verify answered from the cache of finished matches, or computed. */
void metrics_verify_cache(int hit);

/* Rows of event_texts read back to tell a seat's view, or any reader's
 * log through play/event_log.h (most views read none:
 * play/told_cache.h keeps what this process told). */
void metrics_event_texts_read(long long rows);

/* One shared commit (store/db.h) of transactions, committed or not. */
void metrics_shared_commit(int transactions);

/* A request set aside (its connection suspended) while its transaction
 * waits for a shared commit, its thread free to serve others. */
void metrics_shared_commit_set_aside(void);

/* The HTTP server's threads (up to METRICS_HTTP_THREADS_MAX are shown)
 * and the connections one of them holds now (http/acceptor.h spreads
 * them): an operator sees at once when one thread serves far more
 * connections than the others. */
#define METRICS_HTTP_THREADS_MAX 256
void metrics_http_threads(int count);
void metrics_http_thread_connections(int thread, unsigned connections);

/* The IMAP worker's handler threads (mailin/imap_pool.h) and the most of
 * them busy at one moment so far: when that reaches the threads, the
 * mailbox may be read faster with more (PBEM_IMAP_HANDLERS). */
void metrics_imap_handlers(int threads, int busiest);

/* The metrics page; caller frees. */
char *metrics_render(void);

#endif
