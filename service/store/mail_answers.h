/* mail_answers.h: the queue of mail that answers mail, confirmations,
 * invitations and sign-in links (migrations/009_mail.sql), as stored.
 * notify/mail_answers.h says what goes in and how it is sent; this module
 * only reads and writes the rows: queued inside the caller's transaction,
 * claimed under a lease by the outbox worker, then sent, pending again or
 * dead. */
#ifndef SERVICE_STORE_MAIL_ANSWERS_H
#define SERVICE_STORE_MAIL_ANSWERS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Queues a mail (the texts borrowed; the subject cut to 998 bytes, a
 * header line's limit; reply_to, in_reply_to and references may be NULL)
 * and wakes the outbox worker at commit. False with err filled. */
bool store_mail_answers_insert(PGconn *conn, const char *to_address,
                               const char *subject, const char *body,
                               const char *reply_to, const char *in_reply_to,
                               const char *references, const char *kind,
                               apierr *err);

/* An answer held back until due (epoch seconds), for an address that
 * has had its hourly answers (mailin.h): it goes out as one mail at that
 * time, however many mails it answers. *due is when the address's held
 * answer goes out; 1 when there is one, 0 when not (one the worker has
 * claimed is being sent, and held no more), -1 with err filled. */
int store_mail_answers_held(PGconn *conn, const char *to_address,
                            long long *due, apierr *err);

/* Adds body to the address's held answer (after a blank line; the
 * newest reply_to, in_reply_to and references replace the older), or
 * holds a new one until due with subject. Inside the caller's
 * transaction. False with err filled. */
bool store_mail_answers_hold(PGconn *conn, const char *to_address,
                             const char *subject, const char *body,
                             const char *reply_to, const char *in_reply_to,
                             const char *references, long long due,
                             apierr *err);

/* An answer to a mailed move that left the sender waiting for others,
 * held hold_seconds for match_id's next mail to to_address (migration
 * 022): notify.h merges it into that mail, else it goes alone when due.
 * Inside the caller's transaction. False with err filled. */
bool store_mail_answers_hold_for_match(
    PGconn *conn, const char *to_address, const char *subject, const char *body,
    const char *reply_to, const char *in_reply_to, const char *references,
    long long match_id, int hold_seconds, apierr *err);

/* The columns of store_mail_answers_take_held's rows, in this order. */
enum {
    STORE_MAIL_ANSWERS_HELD_ID,
    STORE_MAIL_ANSWERS_HELD_BODY,
    STORE_MAIL_ANSWERS_HELD_IN_REPLY_TO, /* NULL when none */
    STORE_MAIL_ANSWERS_HELD_REFERENCES,  /* NULL when none */
};

/* Takes the answers still held for match_id's next mail to to_address
 * (any case), oldest first, leased for lease_seconds so that the answers
 * worker leaves them to the mail they join; after the lease, one that was
 * not marked merged goes alone. The caller PQclears; NULL with err
 * filled. */
PGresult *store_mail_answers_take_held(PGconn *conn, long long match_id,
                                       const char *to_address,
                                       int lease_seconds, apierr *err);

/* The answers answer_ids[0..count) went out inside notification (its
 * "ntf_…" id): sent. False with err filled. */
bool store_mail_answers_merged(PGconn *conn, const long long *answer_ids,
                               int count, const char *notification,
                               apierr *err);

/* How many mails wait to be sent, or -1 with err filled. */
long long store_mail_answers_pending(PGconn *conn, apierr *err);

/* The columns of store_mail_answers_claim's rows, in this order. */
enum {
    STORE_MAIL_ANSWERS_ID,
    STORE_MAIL_ANSWERS_TO,
    STORE_MAIL_ANSWERS_SUBJECT,
    STORE_MAIL_ANSWERS_BODY,
    STORE_MAIL_ANSWERS_REPLY_TO,    /* NULL when none */
    STORE_MAIL_ANSWERS_IN_REPLY_TO, /* NULL when none */
    STORE_MAIL_ANSWERS_REFERENCES,  /* NULL when none */
    STORE_MAIL_ANSWERS_KIND,
    STORE_MAIL_ANSWERS_ATTEMPTS, /* before this one */
    STORE_MAIL_ANSWERS_CREATED,  /* RFC 3339 UTC, microseconds */
};

/* Claims up to limit due pending rows, oldest due first, leased for
 * lease_seconds (FOR UPDATE SKIP LOCKED, so processes share the work),
 * and marks them claimed: no later answer joins them, nor does a turn
 * mail take them. The caller PQclears; NULL with err filled. */
PGresult *store_mail_answers_claim(PGconn *conn, int lease_seconds, int limit,
                                   apierr *err);

/* Records attempt number attempt of answer_id: its new status ("sent",
 * "dead", or "pending" again in delay_ms) and error (NULL: none). A row
 * no longer pending is left alone. False with err filled. */
bool store_mail_answers_record(PGconn *conn, long long answer_id, int attempt,
                               const char *status, const char *error,
                               long long delay_ms, apierr *err);

/* A claimed row whose sending was cut short: due again now, no attempt
 * counted. False with err filled. */
bool store_mail_answers_release(PGconn *conn, long long answer_id, apierr *err);

/* Milliseconds until the earliest pending row falls due (negative when it
 * is overdue) in *due_ms. False when none is pending, or with err filled
 * when the database failed. */
bool store_mail_answers_next_due_ms(PGconn *conn, long long *due_ms,
                                    apierr *err);

#endif
