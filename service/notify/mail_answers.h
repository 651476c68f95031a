/* mail_answers.h: mail that answers mail. The play-by-email handler
 * (mailin/) answers every message it handles, sends confirmation mails to
 * new addresses, and invitations go out by mail too. None of them belongs
 * to a match's outbox, so they wait in their own table (mail_answers),
 * queued in the transaction that decided them, and the outbox worker
 * (notify.h) sends them by SMTP with the same retries. An answer is
 * threaded under the message it answers (In-Reply-To, References) and
 * marked Auto-Submitted: auto-replied so that no well-behaved program
 * answers it in turn (the other kinds: auto-generated).
 *
 * Queued here (mail_answers.c), sent by mail_answers_send.c. */
#ifndef SERVICE_NOTIFY_MAIL_ANSWERS_H
#define SERVICE_NOTIFY_MAIL_ANSWERS_H

#include <curl/curl.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "core/worker.h"
#include "notify/notify_policy.h"

typedef struct mail_answer {
    const char *to;          /* the address */
    const char *subject;     /* UTF-8; "Re: …" for an answer */
    const char *body;        /* plain text, UTF-8 */
    const char *reply_to;    /* the address answers should go to, or NULL */
    const char *in_reply_to; /* the Message-ID answered, without <>, or NULL */
    const char *references;  /* the References to carry on, or NULL */
    const char *kind;        /* "answer", "confirmation", "invitation" or
                                "sign_in" (play/sign_in.h) */
} mail_answer;

/* The line between what an answer says about the mail's commands and the
 * view of the match it shows after them: an answer merged into the
 * match's next mail (notify.h) keeps only what comes before it. */
#define MAIL_ANSWERS_VIEW_MARK "--\n"

/* How many bytes of body come before its view (MAIL_ANSWERS_VIEW_MARK),
 * trailing line ends left out: what an answer says about the commands. */
size_t mail_answers_told_length(const char *body);

/* Queues answer inside the caller's transaction. False with err filled
 * when the database refused. */
bool mail_answers_queue(PGconn *conn, const mail_answer *answer, apierr *err);

/* Sends the answers that are due, one round of the outbox worker: claims
 * up to config->batch pending rows (FOR UPDATE SKIP LOCKED, leased for
 * config->lease_seconds like outbox rows, so that any number of processes
 * send each once), sends them by SMTP in parallel on multi (mail.h:
 * From, To, Subject, Date, Message-ID "<kind>-<answer_id>.<keyed hex>@
 * <From's domain>" (mail_thread.h), Reply-To, In-Reply-To, References,
 * Auto-Submitted, and List-Unsubscribe when the address is a player's;
 * a mail whose Reply-To is a seat's token joins that match's thread)
 * and records
 * each attempt: 'sent'; 'pending' again after the outbox's backoff
 * (notify_policy.h); 'dead' after config->max_attempts, or at once when
 * the mail cannot be written (an address that cannot go into a header).
 * When self is asked to stop, the rows still in flight are released (due
 * now, no attempt counted). Without PBEM_SMTP_URL nothing is claimed: the
 * rows wait, and a warning says so once per process. The number of rows
 * claimed, or -1 on a database error. */
int mail_answers_send(PGconn *conn, const notify_config *config, CURLM *multi,
                      worker *self);

/* Milliseconds until the next pending answer falls due (0: now), or
 * ceiling_ms when that is later, there is none, or there is no SMTP server
 * to send it through. */
long long mail_answers_next_due_ms(PGconn *conn, long long ceiling_ms);

#endif
