/* imap_worker.h: the IMAP worker, a thread of pbemd that reads the
 * players' mail (play by email, issue #18) from the mailbox of
 * PBEM_IMAP_URL (imap_config.h).
 *
 * Each round lists the unseen messages (up to PBEM_IMAP_BATCH, oldest
 * first) and works on them as a batch, in round trips for the batch, not
 * for each message: it reads them without marking them (one FETCH of
 * their sizes and flags, one of their bytes, BODY.PEEK[]), hands their
 * bytes to the handler on PBEM_IMAP_HANDLERS threads at once, one
 * sender's messages on one thread in the order they came (imap_pool.h),
 * and once all are answered marks \Seen, in one STORE,
 * those the handler answered HANDLED (its result is committed) or
 * UNREADABLE, and moves them to the done folder or deletes them in one
 * command (PBEM_IMAP_DONE). TRY_LATER leaves a message unseen for the
 * next round. So a crash (or a failed IMAP command) anywhere before the
 * marking leaves the batch unseen: it is read and handed over again, and
 * the handler, idempotent by Message-ID in the database, changes nothing
 * the second time and answers HANDLED, after which it is put away. A message
 * over IMAP_CLIENT_MESSAGE_MAX (4 MiB) never reaches the handler: it is logged
 * (WARN) and put away unread.
 *
 * Rounds come every PBEM_IMAP_POLL_MS, at once while a full batch was put
 * away, and as soon as the server reports news on servers that offer IMAP
 * IDLE (the worker idles between rounds). Any number of processes may
 * read one mailbox: each works on a message only while it holds it in
 * PostgreSQL (store/imap_claims.h, a session lock on the mailbox and the
 * UID, from before the read to after the put-away), and leaves the ones
 * another holds to it, so no two processes read, hand over or move one
 * message at once. A process that read a message another has since put
 * away finds it gone or \Seen; should it still hand it over (its view of
 * the mailbox late), that is the harmless repeat described above.
 * Marking \Seen is, besides, a claim of its own: on servers with
 * CONDSTORE only a process that saw the message unchanged since its read
 * marks it and moves it; a message another process already moved is no
 * error. A crash between marking and moving leaves the message seen where
 * it was: handled, only not put away. While PostgreSQL cannot be reached
 * no message is read (the handler could not commit anything).
 *
 * A server that cannot be reached, refuses the login or breaks off is
 * logged once per outage (WARN, with the URL's password shown as ***),
 * retried every round, and its return logged (INFO). */
#ifndef SERVICE_MAILIN_IMAP_WORKER_H
#define SERVICE_MAILIN_IMAP_WORKER_H

#include <stddef.h>

#include "core/apierr.h"
#include "mailin/imap_config.h"
#include "mailin/imap_handler.h"

typedef struct imap_worker imap_worker;

/* What a worker has done since it started (for tests and metrics). */
typedef struct imap_worker_stats {
    unsigned long rounds;     /* rounds ended, whatever they found */
    unsigned long fetched;    /* messages read and handed to the handler */
    unsigned long handled;    /* ... answered IMAP_HANDLED */
    unsigned long unreadable; /* ... answered IMAP_UNREADABLE */
    unsigned long try_later;  /* ... answered IMAP_TRY_LATER, or left
                                 while the database was away */
    unsigned long oversized;  /* put away unread: over 4 MiB */
    unsigned long put_away;   /* marked \Seen and moved or deleted */
    unsigned long failures;   /* rounds cut short by the server */
    unsigned long elsewhere;  /* listed, but another process had it */
    unsigned long busiest;    /* the most handler threads busy at once */
} imap_worker_stats;

/* Starts the thread. config is copied; handler and context are borrowed
 * and must outlive the worker. NULL with err filled (500, "imap") when
 * the thread cannot start; an unreachable server is not an error here,
 * it is retried every round. */
imap_worker *imap_worker_start(const imap_config *config, imap_handler handler,
                               void *context, apierr *err);

/* A consistent enough snapshot of the counters (each read atomically). */
void imap_worker_stats_get(const imap_worker *w, imap_worker_stats *out);

/* Stops the worker after the messages in hand (one per handler thread;
 * the rest of the batch is left unseen), put away too unless the server
 * fails to answer within PBEM_IMAP_TIMEOUT (a connection attempt is
 * abandoned at once, idling ends at once), and returns once its threads
 * have ended. NULL does nothing. */
void imap_worker_stop(imap_worker *w);

#endif
