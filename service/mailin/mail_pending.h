/* mail_pending.h: an address someone registered with on the web (or asked
 * to add to an account) whose confirmation link has not been opened yet.
 * Mail from it must not make a second, email-only account: the mail door
 * says whose address it is waiting to be, and answering its confirmation
 * proves the mailbox as opening the link does (play/email_links.h), so it
 * makes the address that account's. */
#ifndef SERVICE_MAILIN_MAIL_PENDING_H
#define SERVICE_MAILIN_MAIL_PENDING_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

typedef struct mail_pending {
    long long confirmation_id; /* the link's */
    long long player_id;       /* the account waiting for the address */
    char name[81];             /* its name */
    long long expires;         /* when the link stops working (unix s) */
} mail_pending;

/* The account waiting for address, if any (*found). False with err filled
 * when the database failed. */
bool mail_pending_find(PGconn *conn, const char *address, mail_pending *out,
                       bool *found, apierr *err);

/* Makes address the account's, as opening its link would, inside the
 * caller's transaction; the link is spent. Returns the player id (0 when
 * no account waits for it any more), or -1 with err filled. */
long long mail_pending_confirm(PGconn *conn, const char *address, apierr *err);

#endif
