/* notify_outbox.h: what goes into the outbox, and what comes out for
 * people to read. When an appended event changes who must act, the same
 * transaction queues one row per recipient and channel:
 *   - each seat that must act now (every seat when the match is over) gets
 *     a row per channel it has: "email" when the player has an address and
 *     the service has SMTP (PBEM_SMTP_URL), and "webhook:<id>" per enabled
 *     player webhook; its payload carries that seat's own view and moves;
 *   - each enabled match webhook gets one row (player_id 0) whose payload
 *     holds only public data: the public view, who must act, the scores.
 * (match, seq, player, channel, reason) is unique, so queueing twice for
 * the same reason adds nothing. Deadlines (deadlines.h) add reminders to
 * the seat that must act and, when a match's action says so, a row for
 * the admins. The outbox worker (notify.h) sends them.
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

/* The rows of a match that ended other than by the rules (a forfeit):
 * every seat and relay is told it is over, with result (borrowed). */
bool notify_outbox_queue_over(PGconn *conn, const store_match *match,
                              const rules_engine *engine,
                              const rules_state *state, const json_t *result,
                              apierr *err);

/* A deadline reminder to seat (reason "deadline_reminder", webhook type
 * "match.deadline_reminder"): the seat's own payload plus "deadline"
 * (borrowed: when it is due and what happens then), about event seq, the
 * start of the wait. */
bool notify_outbox_remind(PGconn *conn, const store_match *match,
                          const rules_engine *engine, const rules_state *state,
                          int seat, long long seq, const json_t *deadline,
                          apierr *err);

/* A deadline passed in a match whose action is to tell the admins: one
 * row for player 0 on channel "admins" (reason "deadline_admins") with the
 * public payload plus "deadline" (borrowed). The outbox worker mails it to
 * PBEM_ADMIN_EMAIL, or, without one, moves it to the dead letters, where
 * GET /v1/admin/notifications?status=dead shows it. */
bool notify_outbox_admins(PGconn *conn, const store_match *match,
                          const rules_engine *engine, const rules_state *state,
                          const json_t *deadline, apierr *err);

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
