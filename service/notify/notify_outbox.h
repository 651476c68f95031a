/* notify_outbox.h: what goes into the outbox, and what comes out for
 * people to read. When an appended event changes who must act, the same
 * transaction queues one row per recipient and channel:
 *   - each seat that must act now (every seat when the match is over) gets
 *     a row per channel it has: "email" when the player has an address and
 *     the service has SMTP (PBEM_SMTP_URL), and "webhook:<id>" per enabled
 *     player webhook; its payload carries that seat's own view and moves;
 *     and what happened since its last turn ("changes");
 *   - each enabled match webhook gets one row (player_id 0) whose payload
 *     holds only public data: the public view, who must act, the scores;
 *   - when an admin aborts a match, every seated player and relay.
 * A player's notification_settings (notify_settings.h) shape the rows:
 * channels turned off get none, email waits out quiet hours or, for "your
 * turn", the daily digest (notify_digest.h), and a "your turn" schedules
 * "reminder_<N>h" rows at the player's escalating reminder hours. One mail
 * per decision: a seat whose own mailed move (or choice sealed through the
 * service) in the same transaction leaves it to act again gets no "your
 * turn" email, the answer to its mail showing the turn (its reminders
 * stay; store_outbox_spare_turn_mail), and so does a player seen on the
 * web page (notify_seen.h). Rows are
 * queued once per appended event, inside its transaction, and (match, seq,
 * player, channel, reason) is unique, so an event never notifies twice.
 * Deadlines (deadlines.h) add reminders to the seat that must act and,
 * when a match's action says so, a row for the admins. The outbox worker
 * (notify.h) sends them.
 *
 * A notification's public id is "ntf_<match_id>_<outbox_id>"; it is also
 * the webhook-id of every delivery attempt of it. */
#ifndef SERVICE_NOTIFY_NOTIFY_OUTBOX_H
#define SERVICE_NOTIFY_NOTIFY_OUTBOX_H

#include <jansson.h>
#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"
#include "rules.h"
#include "store/matches.h"
#include "store/reachability.h"

/* Queues the rows for match at match->head_seq (inside the caller's
 * transaction), for the seats and relays reach says can be told (NULL or
 * unknown: every one, and the statements decide). The functions below that
 * take a reach read it the same way. before is the state before the
 * events (NULL: unknown): a seat it asked to act among others in any
 * order (or in secret), asked again in the same decision, gets no second
 * "your turn" email (its other channels do). */
bool notify_outbox_queue(PGconn *conn, const store_match *match,
                         const store_reachability *reach,
                         const rules_engine *engine, const rules_state *state,
                         const rules_state *before, apierr *err);

/* The "your turn" payload of seat (which must act in state at
 * match->head_seq), exactly as queued for its webhooks: what an event
 * stream sends for a match waiting for the player when it opens. A new
 * reference, or NULL with err filled. */
json_t *notify_outbox_turn_payload(PGconn *conn, const store_match *match,
                                   const rules_engine *engine,
                                   const rules_state *state, int seat,
                                   apierr *err);

/* Queues a nudge: one "nudge_<nudge_id>" row per channel of the player
 * at seat (which must act in state) naming who nudged. */
bool notify_outbox_queue_nudge(PGconn *conn, const store_match *match,
                               const rules_engine *engine,
                               const rules_state *state, int seat,
                               long long nudge_id, const char *nudged_by,
                               apierr *err);

/* The rows of a match that ended other than by the rules (a forfeit):
 * every seat and relay is told it is over, with result (borrowed). */
bool notify_outbox_queue_over(PGconn *conn, const store_match *match,
                              const store_reachability *reach,
                              const rules_engine *engine,
                              const rules_state *state, const json_t *result,
                              apierr *err);

/* A deadline reminder to seat (reason "deadline_reminder", webhook type
 * "match.deadline_reminder"): the seat's own payload plus "deadline"
 * (borrowed: when it is due and what happens then), about event seq, the
 * start of the wait. */
bool notify_outbox_remind(PGconn *conn, const store_match *match,
                          const store_reachability *reach,
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
/* The same for only the seats in the mask only (a bit per seat): a seat
 * put in by an admin, or the seats of a restored sealed decision that have
 * not committed yet. */
bool notify_outbox_queue_seats(PGconn *conn, const store_match *match,
                               const store_reachability *reach,
                               const rules_engine *engine,
                               const rules_state *state, uint32_t only,
                               apierr *err);

/* An admin aborted the match (reason "match_aborted", webhook type
 * "match.aborted"): every seated player and every match relay is told,
 * with the admin's reason why. engine and state may be NULL (a match that
 * had not started). */
bool notify_outbox_queue_aborted(PGconn *conn, const store_match *match,
                                 const store_reachability *reach,
                                 const rules_engine *engine,
                                 const rules_state *state, const char *why,
                                 apierr *err);

/* A quick match formed (play/seeks.h) and started: each seated player
 * is told by their usual channels (reason "match_found", webhook and
 * stream type "match.found", mail templates/match_found.*): the match,
 * the game, everyone's names and their own seat, about the match's head
 * event. Players seated by an invitation get no such row: they asked for
 * that match by name. */
bool notify_outbox_queue_found(PGconn *conn, const store_match *match,
                               const rules_engine *engine, apierr *err);

void notify_outbox_ref(long long match_id, long long outbox_id, char out[48]);
/* False when text is not a notification id. */
bool notify_outbox_parse_ref(const char *text, long long *match_id,
                             long long *outbox_id);

/* GET /v1/players/me/notifications: the latest 100 notifications for
 * player_id (and for match webhooks they registered), with every attempt,
 * and when the player has an address, whether mail to it bounces
 * ("email", mail_failures.h). */
json_t *notify_outbox_mine(long long player_id, apierr *err);

/* GET /v1/admin/notifications?status=…: the latest 100 rows in status
 * ("dead" by default; "pending", "sent", "cancelled"), with every attempt. */
json_t *notify_outbox_admin_list(const char *status, apierr *err);

/* POST /v1/admin/notifications/{id}/retry: a dead row back to pending, due
 * now, with a fresh round of attempts (its history stays). 404 when no
 * such row, 409 when it is not dead. */
json_t *notify_outbox_admin_retry(const char *ref, apierr *err);

#endif
