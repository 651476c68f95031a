/* email_confirmations.h: the links that confirm an address for an account
 * (migrations/016_email_confirmations.sql). A row keeps the BLAKE2b-256
 * digest of the link's token, never the token; times are match time in
 * unix seconds (clock.h). The use case is play/email_links.h. */
#ifndef SERVICE_STORE_EMAIL_CONFIRMATIONS_H
#define SERVICE_STORE_EMAIL_CONFIRMATIONS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

#define EMAIL_CONFIRMATIONS_DIGEST_BYTES 32

typedef struct store_email_confirmation {
    long long confirmation_id;
    long long player_id;
    char email[255];
    long long expires; /* unix seconds */
    bool confirmed;
} store_email_confirmation;

/* How many links were made for email (case aside) after since, or -1
 * with err filled. */
int store_email_confirmations_since(PGconn *conn, const char *email,
                                    long long since, apierr *err);

/* Records a link confirming email for player_id, made at now, good until
 * expires, inside the caller's transaction. */
bool store_email_confirmations_insert(
    PGconn *conn, long long player_id, const char *email,
    const uint8_t digest[EMAIL_CONFIRMATIONS_DIGEST_BYTES], long long now,
    long long expires, apierr *err);

/* Finds the link whose token has digest and locks it until the caller's
 * transaction ends; *found false when there is none. */
bool store_email_confirmations_find(
    PGconn *conn, const uint8_t digest[EMAIL_CONFIRMATIONS_DIGEST_BYTES],
    store_email_confirmation *link, bool *found, apierr *err);

/* Marks the link confirmed at now, inside the caller's transaction (which
 * makes its address the account's: store_player_set_email). */
bool store_email_confirmations_confirm(PGconn *conn, long long confirmation_id,
                                       long long now, apierr *err);

/* The address of the player's latest link that is neither confirmed nor
 * expired at now into email (255 bytes; "" when none). */
bool store_email_confirmations_pending(PGconn *conn, long long player_id,
                                       long long now, char email[255],
                                       apierr *err);

/* The latest link for email (case aside) that is neither confirmed nor
 * expired at now, locked until the caller's transaction ends (if one is
 * open): the account that registered with the address and has not opened
 * the link yet. *found false when there is none. */
bool store_email_confirmations_pending_for(PGconn *conn, const char *email,
                                           long long now,
                                           store_email_confirmation *link,
                                           bool *found, apierr *err);

#endif
