/* notify_policy.c */
#include "notify/notify_policy.h"

#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"

/* The ranges are config's table's: a value outside them stopped pbemd at
 * start, so a typo never turns delivery off. */
void notify_config_from_env(notify_config *config)
{
    config->poll_ms = (int)config_whole(CONFIG_NOTIFY_POLL_MS);
    config->batch = (int)config_whole(CONFIG_NOTIFY_BATCH);
    if (config->batch > NOTIFY_BATCH_MAX) /* the worker's arrays */
        config->batch = NOTIFY_BATCH_MAX;
    config->max_attempts = (int)config_whole(CONFIG_NOTIFY_MAX_ATTEMPTS);
    config->backoff_ms = config_whole(CONFIG_NOTIFY_BACKOFF_MS);
    config->backoff_max_ms = config_whole(CONFIG_NOTIFY_BACKOFF_MAX_MS);
    config->lease_seconds = (int)config_whole(CONFIG_NOTIFY_LEASE_SECONDS);
    config->timeout_seconds = (int)config_whole(CONFIG_WEBHOOK_TIMEOUT);
    config->allow_loopback = config_flag(CONFIG_WEBHOOK_ALLOW_LOOPBACK);
}

long long notify_backoff_ms(const notify_config *config, int attempt,
                            long long retry_after_ms)
{
    long long delay = config->backoff_ms > 0 ? config->backoff_ms : 1;
    for (int i = 1; i < attempt && delay < config->backoff_max_ms; i++)
        delay *= 2;
    if (delay > config->backoff_max_ms)
        delay = config->backoff_max_ms;
    uint64_t random;
    randombytes_buf(&random, sizeof random);
    long long jittered = delay / 2 + (long long)(random % (uint64_t)(delay / 2 + 1));
    if (retry_after_ms > NOTIFY_RETRY_AFTER_MAX_MS)
        retry_after_ms = NOTIFY_RETRY_AFTER_MAX_MS;
    return jittered < retry_after_ms ? retry_after_ms : jittered;
}

const char *notify_after_attempt(const notify_config *config, int attempt,
                                 bool sent, bool permanent,
                                 long long retry_after_ms,
                                 long long *delay_ms)
{
    *delay_ms = 0;
    if (sent)
        return "sent";
    if (permanent || attempt >= config->max_attempts)
        return "dead";
    *delay_ms = notify_backoff_ms(config, attempt, retry_after_ms);
    return "pending";
}
