/* mail_confirmations.h: the confirmations the mail door asked for
 * (migrations/009_mail.sql), as stored: mail to the bare address from
 * someone not known by a reply token is answered with a confirmation, and
 * its commands wait here until the answer to that confirmation comes
 * back. mailin/mailin.h asks and confirms; mail_sender.h finds the
 * address a confirmation's reply token was made for. */
#ifndef SERVICE_STORE_MAIL_CONFIRMATIONS_H
#define SERVICE_STORE_MAIL_CONFIRMATIONS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"

/* Records confirmation confirmation_id asked of email, for a player to be
 * named name, with the commands of the first mail (cut to 64 KiB). False
 * with err filled. */
bool store_mail_confirmations_insert(PGconn *conn, long long confirmation_id,
                                     const char *email, const char *name,
                                     const char *commands, apierr *err);

/* The address confirmation_id was asked of into email ("" when there is no
 * such confirmation), cut to size, and the player it made or found
 * (*player_id, 0 when none yet). False with err filled. */
bool store_mail_confirmations_address(PGconn *conn, long long confirmation_id,
                                      char *email, size_t size,
                                      long long *player_id, apierr *err);

/* The columns of store_mail_confirmations_lock's row, in this order. */
enum {
    STORE_MAIL_CONFIRMATIONS_EMAIL,
    STORE_MAIL_CONFIRMATIONS_NAME,
    STORE_MAIL_CONFIRMATIONS_COMMANDS,
    STORE_MAIL_CONFIRMATIONS_PLAYER, /* NULL until confirmed */
};

/* Reads confirmation_id and holds its row until the caller's transaction
 * ends (no row when there is none). The caller PQclears; NULL with err
 * filled. */
PGresult *store_mail_confirmations_lock(PGconn *conn, long long confirmation_id,
                                        apierr *err);

/* Marks confirmation_id confirmed (the first time only) for player_id.
 * False with err filled. */
bool store_mail_confirmations_confirm(PGconn *conn, long long confirmation_id,
                                      long long player_id, apierr *err);

#endif
