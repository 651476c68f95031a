/* mail_failures.h: addresses whose mail bounces. When a bounce (a DSN for
 * the service's own mail) comes in, the mailin/ handler records it here,
 * and the player's delivery status (GET /v1/players/me/notifications,
 * notify_outbox.h) shows that their address is failing.
 *
 * An address fails for MAIL_FAILURES_DAYS days from the first bounce of a
 * run; a bounce after that starts a new run (since now, one bounce). A
 * successful SMTP send does not end a run: the SMTP server accepting a
 * message says nothing of its delivery, and bounces come after it. A
 * player who changes address is no longer failing: the new address has
 * no bounces. Addresses compare case-insensitively (kept lower-case). */
#ifndef SERVICE_NOTIFY_MAIL_FAILURES_H
#define SERVICE_NOTIFY_MAIL_FAILURES_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

#define MAIL_FAILURES_DAYS 30

/* Records one bounce of mail to address, for reason (the DSN's words, cut
 * to 1000 bytes; NULL: "the mail bounced"), inside the caller's
 * transaction if it has one. False with err filled when address is not
 * one (400 "bad_email") or the database refused. */
bool mail_failures_record(PGconn *conn, const char *address,
                          const char *reason, apierr *err);

/* The delivery status of player_id's address (new reference):
 * {"failing": true, "since": RFC 3339, "reason", "bounces"} or
 * {"failing": false}; JSON null when the player has no address. NULL with
 * err filled when the database failed. */
json_t *mail_failures_status(PGconn *conn, long long player_id, apierr *err);

#endif
