/* notify.h: the outbox worker, a thread of pbemd. It sleeps until woken by
 * NOTIFY pbem_outbox (its own LISTEN connection), until the next row falls
 * due, or until the poll interval passes; then claims due rows with
 * SELECT … FOR UPDATE SKIP LOCKED LIMIT n, leasing them (next_attempt_at
 * moves a lease ahead) so several processes share the work and a process
 * killed mid-delivery loses nothing: its rows fall due again when the
 * lease runs out. It sends them in parallel on one libcurl multi handle
 * (webhooks.h, mail.h), records every attempt in outbox_attempts, marks
 * successes sent, retries failures with exponential backoff and jitter
 * (never sooner than a Retry-After asks) and moves a row that failed its
 * last attempt, or can never be delivered, to 'dead'. Delivery is at least
 * once; the notification id lets receivers drop duplicates.
 *
 * Environment: PBEM_NOTIFY (0 disables the worker), PBEM_NOTIFY_POLL_MS
 * (5000), PBEM_NOTIFY_BATCH (16), PBEM_NOTIFY_MAX_ATTEMPTS (20),
 * PBEM_NOTIFY_BACKOFF_MS (30000: the first retry's delay, doubling up to
 * PBEM_NOTIFY_BACKOFF_MAX_MS, 21600000), PBEM_NOTIFY_LEASE_SECONDS (120),
 * PBEM_WEBHOOK_TIMEOUT (20, clamped to 15–30), PBEM_WEBHOOK_ALLOW_LOOPBACK
 * (1: tests' loopback receivers), PBEM_ADMIN_EMAIL (where rows of the
 * "admins" channel, deadline notices, are mailed; without it they go to
 * the dead letters at once, where the admin API shows them). */
#ifndef SERVICE_NOTIFY_H
#define SERVICE_NOTIFY_H

#include <stdbool.h>

#include "core/apierr.h"

typedef struct notify_config {
    const char *database_url;
    int poll_ms;
    int batch;
    int max_attempts;
    long long backoff_ms;
    long long backoff_max_ms;
    int lease_seconds;
    int timeout_seconds;
    bool allow_loopback;
} notify_config;

/* Defaults overridden by the environment. */
void notify_config_from_env(notify_config *config, const char *database_url);

/* The delay before retry number attempt + 1 after attempt failures
 * (attempt >= 1): backoff_ms doubled per failure, capped, with jitter in
 * [half, full]; never less than retry_after_ms. */
long long notify_backoff_ms(const notify_config *config, int attempt,
                            long long retry_after_ms);

typedef struct notify_worker notify_worker;

/* Starts the worker thread (config is copied). NULL with err filled. */
notify_worker *notify_start(const notify_config *config, apierr *err);

/* Stops it: transfers in flight are abandoned and their rows released
 * (due now, no attempt counted); returns once the thread has ended. */
void notify_stop(notify_worker *worker);

#endif
