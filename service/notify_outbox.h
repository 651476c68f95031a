/* notify_outbox.h: what goes into the outbox, and what comes out for
 * people to read. When an appended event changes who must act, the same
 * transaction queues one row per recipient and channel:
 *   - each seat that must act now (every seat when the match is over) gets
 *     a row per channel it has: "email" when the player has an address and
 *     the service has SMTP (PBEM_SMTP_URL), and "webhook:<id>" per enabled
 *     player webhook; its payload carries that seat's own view and moves;
 *   - each enabled match webhook gets one row (player_id 0) whose payload
 *     holds only public data: the public view, who must act, the scores;
 *   - when an admin aborts a match, every seated player and relay.
 * (match, seq, player, channel, reason) is unique, so queueing twice for
 * the same reason adds nothing. The outbox worker (notify.h) sends them.
 *
 * A notification's public id is "ntf_<match_id>_<outbox_id>"; it is also
 * the webhook-id of every delivery attempt of it. */
#ifndef SERVICE_NOTIFY_OUTBOX_H
#define SERVICE_NOTIFY_OUTBOX_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "apierr.h"
#include "rules.h"
#include "store.h"

/* Queues the rows for match at match->head_seq (inside the caller's
 * transaction). */
bool notify_outbox_queue(PGconn *conn, const store_match *match,
                         const rules_engine *engine, const rules_state *state,
                         apierr *err);

/* The same for only the seats in the mask only (a bit per seat): a seat
 * put in by an admin, or the seats of a restored sealed decision that have
 * not committed yet. */
bool notify_outbox_queue_seats(PGconn *conn, const store_match *match,
                               const rules_engine *engine,
                               const rules_state *state, uint32_t only,
                               apierr *err);

/* An admin aborted the match (reason "match_aborted", webhook type
 * "match.aborted"): every seated player and every match relay is told,
 * with the admin's reason why. engine and state may be NULL (a match that
 * had not started). */
bool notify_outbox_queue_aborted(PGconn *conn, const store_match *match,
                                 const rules_engine *engine,
                                 const rules_state *state, const char *why,
                                 apierr *err);

void notify_outbox_ref(long long match_id, long long outbox_id, char out[48]);
/* False when text is not a notification id. */
bool notify_outbox_parse_ref(const char *text, long long *match_id,
                             long long *outbox_id);

/* GET /v1/players/me/notifications: the latest 100 notifications for
 * player_id (and for match webhooks they registered), with every attempt. */
json_t *notify_outbox_mine(long long player_id, apierr *err);

/* GET /v1/admin/notifications?status=…: the latest 100 rows in status
 * ("dead" by default; "pending", "sent"), with every attempt. */
json_t *notify_outbox_admin_list(const char *status, apierr *err);

/* POST /v1/admin/notifications/{id}/retry: a dead row back to pending, due
 * now, with a fresh round of attempts (its history stays). 404 when no
 * such row, 409 when it is not dead. */
json_t *notify_outbox_admin_retry(const char *ref, apierr *err);

#endif
