/* imap_claims.h: which process is putting one mailbox message through
 * (read, handled, marked \Seen and moved), held as a PostgreSQL session
 * advisory lock on the mailbox's name and the message's UID, so that of
 * several pbemd reading one mailbox only one works on a message at a time.
 *
 * IMAP's own claim (a conditional STORE of \Seen, RFC 7162) is not enough
 * on its own: Dovecot 2.3 with maildir lets two STOREs that arrive at the
 * same moment with the same UNCHANGEDSINCE both succeed, and both sessions
 * then MOVE the message, which copies it twice. A session lock lives only
 * as long as its connection, so a process that dies mid-message frees it
 * at once. No table: the lock is the whole state. */
#ifndef SERVICE_STORE_IMAP_CLAIMS_H
#define SERVICE_STORE_IMAP_CLAIMS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"

/* With take, tries to take the message uid of mailbox (any text naming
 * it, such as its URL without the password): 1 taken, 0 another session
 * has it; without, gives it back (1, or 0 when this session did not hold
 * it: its connection was replaced since). -1 with err filled on a
 * database error. */
int store_imap_claims_hold(PGconn *conn, const char *mailbox, uint32_t uid,
                           bool take, apierr *err);

#endif
