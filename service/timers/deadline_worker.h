/* deadline_worker.h: the deadline worker, a thread of pbemd. Every poll
 * interval (and at once after it found work) it reads match time
 * (clock.h) and, in one transaction each:
 *   - claims up to a batch of rows whose reminder is due
 *     (SELECT … FOR UPDATE SKIP LOCKED), queues each reminder and marks it
 *     sent in that same transaction, so it is queued exactly once;
 *   - claims one row whose action is due, then the match row
 *     (FOR UPDATE SKIP LOCKED: a match busy with a move is left for the
 *     next round, so a worker never waits on a lock while holding one) and
 *     applies the action (timeouts.h), marking the row fired in the same
 *     transaction as the events it appends with their expected head.
 * Once a minute it also prunes the request nonces the signature window
 * has closed on (store_prune_nonces).
 * Any number of processes may run it against one database: a row or match
 * another process holds is skipped, and a row it has fired is no longer
 * due, so each reminder and each action happens once.
 *
 * Environment: PBEM_DEADLINES (0: no worker in this process),
 * PBEM_DEADLINE_POLL_MS (10000), PBEM_DEADLINE_BATCH (16). */
#ifndef SERVICE_TIMERS_DEADLINE_WORKER_H
#define SERVICE_TIMERS_DEADLINE_WORKER_H

#include "core/apierr.h"

typedef struct deadline_worker deadline_worker;

/* Starts the thread. NULL with err filled. */
deadline_worker *deadline_worker_start(int poll_ms, int batch, apierr *err);

/* Stops it after the transaction in progress; returns once it has ended. */
void deadline_worker_stop(deadline_worker *worker);

#endif
