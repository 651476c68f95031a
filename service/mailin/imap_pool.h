/* imap_pool.h: the threads that hand an IMAP batch's messages to the
 * handler at once (imap_worker.h), PBEM_IMAP_HANDLERS of them, each with
 * its own database connection (store/db.h's db_conn, made on first use
 * and closed when the pool stops).
 *
 * A batch is split by sender (imap_order.h): one sender's messages go to
 * one thread, one after the other in the batch's order (UID order), and
 * different senders' go to different threads while there are idle ones.
 * The worker's thread waits until every message of the batch is answered
 * before it marks any \Seen, so a message is still put away only after
 * the handler's answer, and a crash mid-batch leaves the whole batch
 * unseen, as before.
 *
 * Bounded: the threads are made once, at start; a batch is at most
 * IMAP_CONFIG_BATCH_MAX messages, whose bytes the worker already holds
 * (imap_client_fetch_batch) and the threads only borrow; nothing is
 * queued beyond the batch in hand. */
#ifndef SERVICE_MAILIN_IMAP_POOL_H
#define SERVICE_MAILIN_IMAP_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"
#include "core/worker.h"
#include "mailin/imap_handler.h"

/* The most handler threads PBEM_IMAP_HANDLERS allows. */
#define IMAP_POOL_THREADS_MAX 16

typedef struct imap_pool imap_pool;

/* One message of a batch. */
typedef struct imap_pool_job {
    const char *raw; /* borrowed; raw[length] == '\0' */
    size_t length;
    imap_outcome outcome; /* set when handed */
    bool handed;          /* false: the worker was stopping, not handed */
} imap_pool_job;

/* Starts threads (1 to IMAP_POOL_THREADS_MAX) threads; handler and
 * context are borrowed and must outlive the pool. NULL with err filled
 * (500, "imap") when a thread cannot start. */
imap_pool *imap_pool_start(int threads, imap_handler handler, void *context,
                           apierr *err);

/* Hands jobs[0..count) (at most IMAP_CONFIG_BATCH_MAX) to the handler as
 * the header says, and returns once each is answered, or left unhanded
 * because owner (the worker whose batch it is) is stopping. From one
 * thread at a time. */
void imap_pool_run(imap_pool *p, imap_pool_job *jobs, size_t count,
                   worker *owner);

/* The most threads that were handling messages at one moment since the
 * pool started. */
int imap_pool_busiest(const imap_pool *p);

/* Ends the threads (their database connections closed) and frees the
 * pool; no batch may be running. NULL does nothing. */
void imap_pool_stop(imap_pool *p);

#endif
