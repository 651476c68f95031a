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
 * once; the notification id lets receivers drop duplicates. Each round
 * also sends the mail that answers mail (mail_answers.h), with the same
 * claims, leases and retries.
 *
 * Environment: PBEM_NOTIFY (0 disables the worker), PBEM_ADMIN_EMAIL
 * (where rows of the "admins" channel, deadline notices, are mailed;
 * without it they go to the dead letters at once, where the admin API
 * shows them); the delivery policy's variables are in notify_policy.h. */
#ifndef SERVICE_NOTIFY_NOTIFY_H
#define SERVICE_NOTIFY_NOTIFY_H

#include "core/apierr.h"
#include "notify/notify_policy.h"

typedef struct notify_worker notify_worker;

/* Starts the worker thread with the delivery policy of config
 * (notify_policy.h; copied); it listens and works on the database
 * db_init named. NULL with err filled. */
notify_worker *notify_start(const notify_config *config, apierr *err);

/* Stops it: transfers in flight are abandoned and their rows released
 * (due now, no attempt counted); returns once the thread has ended. */
void notify_stop(notify_worker *worker);

#endif
