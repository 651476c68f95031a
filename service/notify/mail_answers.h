/* mail_answers.h: mail that answers mail. The play-by-email handler
 * (mailin/) answers every message it handles, sends confirmation mails to
 * new addresses, and invitations go out by mail too. None of them belongs
 * to a match's outbox, so they wait in their own table (mail_answers),
 * queued in the transaction that decided them, and the outbox worker
 * (notify.h) sends them by SMTP with the same retries. An answer is
 * threaded under the message it answers (In-Reply-To, References) and
 * marked Auto-Submitted: auto-replied so that no well-behaved program
 * answers it in turn. */
#ifndef SERVICE_NOTIFY_MAIL_ANSWERS_H
#define SERVICE_NOTIFY_MAIL_ANSWERS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

typedef struct mail_answer {
    const char *to;          /* the address */
    const char *subject;     /* UTF-8; "Re: …" for an answer */
    const char *body;        /* plain text, UTF-8 */
    const char *reply_to;    /* the address answers should go to, or NULL */
    const char *in_reply_to; /* the Message-ID answered, without <>, or NULL */
    const char *references;  /* the References to carry on, or NULL */
    const char *kind;        /* "answer", "confirmation" or "invitation" */
} mail_answer;

/* Queues answer inside the caller's transaction. False with err filled
 * when the database refused. */
bool mail_answers_queue(PGconn *conn, const mail_answer *answer, apierr *err);

#endif
