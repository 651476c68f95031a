/* mail_sender.h: who wrote a mail, and about what, before anything in it
 * is believed. A mail is believed only when
 *   - it was sent to one of the service's reply addresses (its token reads
 *     back, has not expired and was not spent by another message), and its
 *     From is the address that reply address was made for, or it was sent
 *     to the bare address (then only the answers that go to the registered
 *     address anyway, or a confirmation round trip, follow from it); and
 *   - when PBEM_MAIL_TRUST_AUTHSERV_ID names the receiving server, that
 *     server's Authentication-Results shows dmarc=pass or dkim=pass for the
 *     From domain.
 * A refused mail gets an answer saying why (rate-limited like all). */
#ifndef SERVICE_MAILIN_MAIL_SENDER_H
#define SERVICE_MAILIN_MAIL_SENDER_H

#include <jansson.h>
#include <stdbool.h>

#include "auth/reply_token.h"
#include "core/apierr.h"
#include "mailin/mail_message.h"

typedef enum mail_door {
    MAIL_DOOR_REFUSED = 0,  /* why says why */
    MAIL_DOOR_SEAT,         /* a reply about a seat of a match */
    MAIL_DOOR_ACCOUNT,      /* a reply to a mail about the player's account */
    MAIL_DOOR_INVITATION,   /* an answer to an invitation */
    MAIL_DOOR_CONFIRMATION, /* an answer to a confirmation request */
    MAIL_DOOR_BARE,         /* to the service's bare address */
} mail_door;

typedef struct mail_sender {
    mail_door door;
    long long player_id;       /* 0: the address is no player's yet */
    long long match_id;        /* SEAT: the match */
    int seat;                  /* SEAT: the seat (-1 otherwise) */
    long long invitation_id;   /* INVITATION */
    long long confirmation_id; /* CONFIRMATION */
    char token_id[REPLY_TOKEN_ID_CHARS + 1]; /* "" at the bare address */
    char authentication[200];  /* how it was believed, for the log */
    char why[512];             /* REFUSED: the sentence */
} mail_sender;

/* Establishes who wrote message (key: its idempotency key, for the spent
 * tokens). False only when the database failed (err filled): try later. */
bool mail_sender_identify(const mail_message *message, const char *key,
                          mail_sender *out, apierr *err);

/* Spends the sender's token for the message key (its own transaction),
 * so no other message can use it. When another message spent it first
 * (two racing), turns sender into a refusal. False when the database
 * failed. */
bool mail_sender_spend(mail_sender *sender, const char *key, apierr *err);

#endif
