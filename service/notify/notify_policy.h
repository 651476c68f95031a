/* notify_policy.h: how the outbox is delivered, shared by the outbox worker
 * (notify.h) and the digests (notify_digest.h): how many rows a round
 * claims, how long a claim (lease) lasts, how many attempts a row gets and
 * how long to wait between them. Kept apart from both so neither needs the
 * other to know when to retry.
 *
 * The names keep the notify_ prefix they had in notify.h: main.c fills a
 * notify_config and the backoff tests call notify_backoff_ms.
 *
 * Environment: PBEM_NOTIFY_POLL_MS (5000), PBEM_NOTIFY_BATCH (16, at most
 * NOTIFY_BATCH_MAX), PBEM_NOTIFY_MAX_ATTEMPTS (20), PBEM_NOTIFY_BACKOFF_MS
 * (30000: the first retry's delay, doubling up to
 * PBEM_NOTIFY_BACKOFF_MAX_MS, 21600000), PBEM_NOTIFY_LEASE_SECONDS (120),
 * PBEM_WEBHOOK_TIMEOUT (20, clamped to 15–30), PBEM_WEBHOOK_ALLOW_LOOPBACK
 * (1: tests' loopback receivers). */
#ifndef SERVICE_NOTIFY_NOTIFY_POLICY_H
#define SERVICE_NOTIFY_NOTIFY_POLICY_H

#include <stdbool.h>

/* The most rows one round may claim. */
#define NOTIFY_BATCH_MAX 64

/* A Retry-After is honoured up to a day: an endpoint cannot park a row
 * for longer. */
#define NOTIFY_RETRY_AFTER_MAX_MS (24LL * 3600 * 1000)

typedef struct notify_config {
    int poll_ms;
    int batch;
    int max_attempts;
    long long backoff_ms;
    long long backoff_max_ms;
    int lease_seconds;
    int timeout_seconds;
    bool allow_loopback;
} notify_config;

/* The values in effect (core/config.h: defaults, or the environment's
 * as checked at start). */
void notify_config_from_env(notify_config *config);

/* The delay before retry number attempt + 1 after attempt failures
 * (attempt >= 1): backoff_ms doubled per failure, capped, with jitter in
 * [half, full]; never less than retry_after_ms (itself capped at
 * NOTIFY_RETRY_AFTER_MAX_MS). */
long long notify_backoff_ms(const notify_config *config, int attempt,
                            long long retry_after_ms);

/* What becomes of a row after its attempt number attempt (>= 1): "sent";
 * "dead" when it failed for good (permanent) or for the last time
 * (max_attempts); else "pending", to be tried again after *delay_ms
 * (notify_backoff_ms). *delay_ms is 0 for sent and dead rows. */
const char *notify_after_attempt(const notify_config *config, int attempt,
                                 bool sent, bool permanent,
                                 long long retry_after_ms,
                                 long long *delay_ms);

#endif
