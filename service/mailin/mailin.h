/* mailin.h: play by email, the door for mail that comes in. IMAP (the
 * worker in imap_worker.h), `pbem mail-in` from a mail server's pipe and
 * POST /v1/mail/inbound all hand each raw message here.
 *
 * A message is handled once: its key (the Message-ID with the sender's
 * address, or without one the SHA-256 of its bytes) is stored in the
 * transaction that queues its answer, and a session advisory lock on the key
 * keeps two processes from handling it at once. The same message again changes
 * nothing and gets no second answer; one interrupted half-way is handled again
 * from the start, and each of its commands that was already applied gets its
 * first answer back (mail_commands.h), so it is never applied twice.
 *
 * Never answered: mail marked Auto-Submitted (other than "no"),
 * Precedence bulk/junk/list, with an empty or MAILER-DAEMON return path,
 * or carrying List-Id, and Exchange's auto-replies (mail_auto.h). Bounces
 * of the service's own mail mark the address as failing.
 *
 * At most PBEM_MAIL_ANSWERS_PER_HOUR (10) answers go to one sender an
 * hour. Past that, a mail that came to a reply address from the address
 * it was made for is still acted on, every command of it: its answer
 * says once "you are writing fast; I will answer in one mail at HH:MM",
 * and the answers after it are held and merged into that one mail, sent
 * when the limit allows. Any other mail past the limit is dropped and
 * counted in /metrics: answering it could reach someone who never wrote.
 *
 * Every refusal carries a fresh reply address when the sender is known
 * (a player's, or the invitation's again while its seat is not taken),
 * and a reply address whose mail had a line refused and changed nothing
 * is given back: it works again. */
#ifndef SERVICE_MAILIN_MAILIN_H
#define SERVICE_MAILIN_MAILIN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"
#include "mailin/imap_worker.h"

typedef enum mailin_outcome {
    MAILIN_HANDLED,    /* done (answered, refused, ignored or a duplicate) */
    MAILIN_UNREADABLE, /* not a mail at all: nothing to answer */
    MAILIN_TRY_LATER,  /* the database failed, or another process holds
                          the message now: hand it in again later */
} mailin_outcome;

typedef struct mailin_result {
    mailin_outcome outcome;
    /* "answered", "held", "refused", "ignored: <why>", "duplicate",
     * "limited",
     * "bounce", "unreadable: <why>", "try later: <why>" */
    char what[320];
    char message_key[512];
    long long player_id; /* who wrote it, when known */
    int commands;        /* commands applied */
} mailin_result;

/* Handles one raw message (length bytes, may hold NUL) that came in
 * through via ("imap" or "http"). Thread-safe; uses the thread's database
 * connection. */
mailin_outcome mailin_receive(const char *raw, size_t length, const char *via,
                              mailin_result *result);

/* mailin_receive for the IMAP worker (imap_worker.h's handler; context
 * unused): handled and unreadable mail is put away, the rest waits. */
imap_outcome mailin_from_imap(void *context, const char *raw, size_t length);

#endif
