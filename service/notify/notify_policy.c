/* notify_policy.c */
#include "notify/notify_policy.h"

#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A variable that is unset, empty, not a number or negative keeps the
 * default: a typo never turns delivery off. */
static long long env_number(const char *name, long long fallback)
{
    const char *text = getenv(name);
    if (text == NULL || text[0] == '\0')
        return fallback;
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    return *end == '\0' && value >= 0 ? value : fallback;
}

void notify_config_from_env(notify_config *config)
{
    config->poll_ms = (int)env_number("PBEM_NOTIFY_POLL_MS", 5000);
    config->batch = (int)env_number("PBEM_NOTIFY_BATCH", 16);
    if (config->batch < 1 || config->batch > NOTIFY_BATCH_MAX)
        config->batch = 16;
    config->max_attempts = (int)env_number("PBEM_NOTIFY_MAX_ATTEMPTS", 20);
    if (config->max_attempts < 1)
        config->max_attempts = 1;
    config->backoff_ms = env_number("PBEM_NOTIFY_BACKOFF_MS", 30000);
    config->backoff_max_ms = env_number("PBEM_NOTIFY_BACKOFF_MAX_MS", 21600000);
    config->lease_seconds = (int)env_number("PBEM_NOTIFY_LEASE_SECONDS", 120);
    if (config->lease_seconds < 1)
        config->lease_seconds = 1;
    long long timeout = env_number("PBEM_WEBHOOK_TIMEOUT", 20);
    config->timeout_seconds = (int)(timeout < 15 ? 15 : timeout > 30 ? 30 : timeout);
    const char *loopback = getenv("PBEM_WEBHOOK_ALLOW_LOOPBACK");
    config->allow_loopback = loopback != NULL && strcmp(loopback, "1") == 0;
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
