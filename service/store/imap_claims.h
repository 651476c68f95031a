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
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"

/* With take, tries to take the messages uids[0..count) of mailbox (any
 * text naming it, such as its URL without the password), in one
 * statement: held[i] is whether this session now holds uids[i] (false:
 * another session has it). Without take, gives them back (held[i] false
 * when this session did not hold uids[i]: its connection was replaced
 * since). The number held or given back, or -1 with err filled on a
 * database error (held then all false). */
int store_imap_claims_hold(PGconn *conn, const char *mailbox,
                           const uint32_t *uids, size_t count, bool take,
                           bool *held, apierr *err);

#endif
