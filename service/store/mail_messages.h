/* mail_messages.h: the mail the mail door took in (migrations/
 * 009_mail.sql), as stored: a row per message handled, under its key,
 * so that a message delivered twice is handled once; and the reply
 * tokens spent (mail_tokens_spent), each by the one message that used it.
 * mailin/mailin.h and mail_sender.h decide what a message means. */
#ifndef SERVICE_STORE_MAIL_MESSAGES_H
#define SERVICE_STORE_MAIL_MESSAGES_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"

/* With take, tries to take the session lock on message key (one process
 * at a time handles a message): 1 taken, 0 held by another session;
 * without, gives it back (1). -1 with err filled on a database error. */
int store_mail_messages_lock(PGconn *conn, const char *key, bool take,
                             apierr *err);

/* 1 when the message of key was handled before, 0 when not, -1 with err
 * filled. */
int store_mail_messages_seen(PGconn *conn, const char *key, apierr *err);

/* How many messages from sender (case aside) were answered or refused in
 * the last hour, or -1 with err filled. */
int store_mail_messages_answered_last_hour(PGconn *conn, const char *sender,
                                           apierr *err);

/* How many messages from sender (case aside) of the last hour had
 * outcome (one word, such as "noted"), or -1 with err filled. */
int store_mail_messages_outcomes_last_hour(PGconn *conn, const char *sender,
                                           const char *outcome, apierr *err);

/* When sender's answers of the last hour drop below limit again (epoch
 * seconds: an hour after the limit-th newest), into *at; now when they
 * are below it already. False with err filled. */
bool store_mail_messages_answers_free_at(PGconn *conn, const char *sender,
                                         int limit, long long *at,
                                         apierr *err);

/* Records the message of key as handled (inside the caller's transaction
 * or alone): its SHA-256, sender, the door it came by (via), its outcome
 * and the player it acted for (0: none). A key recorded already is left
 * alone. False with err filled. */
bool store_mail_messages_record(PGconn *conn, const char *key,
                                const uint8_t sha256[32], const char *sender,
                                const char *via, const char *outcome,
                                long long player_id, apierr *err);

/* Spends reply token token_id for the message of key, unless another
 * message spent it first (then nothing changes). False with err filled. */
bool store_mail_tokens_spend(PGconn *conn, const char *token_id,
                             const char *key, apierr *err);

/* Gives token_id back, when the message of key spent it: that message
 * did not do what the reply address was for (a refused line), so the
 * address works again. False with err filled. */
bool store_mail_tokens_release(PGconn *conn, const char *token_id,
                               const char *key, apierr *err);

/* The key of the message that spent token_id into key ("" when none has),
 * cut to size. False with err filled. */
bool store_mail_tokens_spent_by(PGconn *conn, const char *token_id, char *key,
                                size_t size, apierr *err);

#endif
