/* outbox.h: the outbox rows (migrations/001, 003, 007) and the attempts
 * kept with them (outbox_attempts), as stored. notify/notify_outbox.h
 * decides what is queued and shows the rows to people; the outbox worker
 * (notify/notify.h, notify_digest.h) claims them under a lease, records
 * each attempt and releases what it could not send. A row is keyed by
 * (match_id, outbox_id); its public id is notify_outbox_ref's.
 *
 * Every function takes the caller's connection and, unless it says
 * otherwise, runs inside the caller's transaction when it has one. */
#ifndef SERVICE_STORE_OUTBOX_H
#define SERVICE_STORE_OUTBOX_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Wakes the outbox worker of every process (NOTIFY pbem_outbox), at the
 * commit of the caller's transaction, or at once outside one. */
bool store_outbox_wake(PGconn *conn, apierr *err);

/* ---- queueing ---------------------------------------------------------- */

/* One seat's rows for event seq of match_id, to player_id, for reason
 * with payload (JSON text): a row per enabled player webhook and, when
 * mailable (the service has SMTP) and the player has an address, the
 * email row, as the player's notification_settings allow (quiet hours,
 * the daily digest, the escalating reminders of a "your turn"); and the
 * same payload in the player's event stream when they opened one. A row
 * queued before for the same (match, seq, player, channel, reason) is
 * left alone. False with err filled. */
bool store_outbox_queue_seat(PGconn *conn, long long match_id, long long seq,
                             long long player_id, const char *reason,
                             const char *payload, bool mailable, apierr *err);

/* One row per enabled relay webhook of match_id (player 0) for event
 * seq, with payload (JSON text: public data only). */
bool store_outbox_queue_relays(PGconn *conn, long long match_id, long long seq,
                               const char *reason, const char *payload,
                               apierr *err);

/* The row for the admins (player 0, channel "admins", reason
 * "deadline_admins") of event seq of match_id, with payload (JSON text). */
bool store_outbox_queue_admins(PGconn *conn, long long match_id, long long seq,
                               const char *payload, apierr *err);

/* ---- the worker -------------------------------------------------------- */

/* The columns of store_outbox_claim_due's rows, in this order. */
enum {
    STORE_OUTBOX_DUE_MATCH,
    STORE_OUTBOX_DUE_ID,
    STORE_OUTBOX_DUE_PLAYER,
    STORE_OUTBOX_DUE_WEBHOOK, /* 0 when none */
    STORE_OUTBOX_DUE_CHANNEL,
    STORE_OUTBOX_DUE_REASON,
    STORE_OUTBOX_DUE_PAYLOAD,  /* JSON text */
    STORE_OUTBOX_DUE_ATTEMPTS, /* before this one */
    STORE_OUTBOX_DUE_CREATED,  /* RFC 3339 UTC, microseconds */
};

/* Claims up to limit pending rows that are due, oldest due first, and
 * leases them for lease_seconds (FOR UPDATE SKIP LOCKED, so processes
 * share the work): not the digest's rows, and not the reminders, nudges
 * and digest entries that have become pointless (the player acted, the
 * match ended) since store_outbox_cancel_pointless ran. The rows (caller
 * PQclears), or NULL with err filled. */
PGresult *store_outbox_claim_due(PGconn *conn, int lease_seconds, int limit,
                                 apierr *err);

/* The players with digest rows due now, at most limit of them: one
 * column, the player id. The caller PQclears; NULL with err filled. */
PGresult *store_outbox_digest_players(PGconn *conn, int limit, apierr *err);

/* The columns of store_outbox_claim_digest's rows, in this order. */
enum {
    STORE_OUTBOX_DIGEST_MATCH,
    STORE_OUTBOX_DIGEST_ID,
    STORE_OUTBOX_DIGEST_PAYLOAD,  /* JSON text */
    STORE_OUTBOX_DIGEST_ATTEMPTS, /* before this one */
    STORE_OUTBOX_DIGEST_CREATED,  /* RFC 3339 UTC, microseconds */
};

/* Claims up to limit of player's due digest rows (player: its id as
 * text) that are not pointless, leased for lease_seconds, ordered by
 * match then seq. The caller PQclears; NULL with err filled. */
PGresult *store_outbox_claim_digest(PGconn *conn, const char *player, int limit,
                                    int lease_seconds, apierr *err);

/* Records attempt number attempt of row (match_id, outbox_id): its
 * outcome ("sent", "failed", …), code (0: none), error (NULL: none) and
 * duration, and the row's new status: "sent", "dead", or "pending" again
 * in delay_ms. A row no longer pending is left alone. False with err
 * filled when the database refused. */
bool store_outbox_record_attempt(PGconn *conn, long long match_id,
                                 long long outbox_id, int attempt,
                                 long long duration_ms, const char *outcome,
                                 long code, const char *error,
                                 const char *status, long long delay_ms,
                                 apierr *err);

/* A claimed row whose delivery was cut short: due again now, its lease
 * given back, no attempt counted. False with err filled. */
bool store_outbox_release(PGconn *conn, long long match_id, long long outbox_id,
                          apierr *err);

/* Cancels the "your turn" emails of player_id in match_id still waiting
 * for their first attempt (a claim being sent goes anyway): the answer to the player's mail, queued in the
 * caller's transaction, shows that turn (a turn that came from another
 * transaction, such as the reveal of sealed choices, while the mail was
 * being handled). False with err filled. */
bool store_outbox_cancel_shown_turn(PGconn *conn, long long match_id,
                                    long long player_id, apierr *err);

/* Cancels the "your turn" email of player_id (seat in match) about event
 * seq, queued in the caller's transaction, when that transaction's events
 * include a move of seat made by mail, or a choice seat sealed through the
 * service (what the mail door makes): the answer to that mail (or
 * request) already shows the seat its next turn; or when seen_minutes > 0
 * and the player was seen on the page that recently (players_seen.h) with
 * their setting skip_when_seen on: the turn reaches the page. Its
 * reminders stay. False with err filled. */
/* Whether player_id's "match over" email of match_id has gone (or is
 * going: an attempt recorded): 1 yes, 0 no, -1 with err filled. */
int store_outbox_over_mailed(PGconn *conn, long long match_id,
                             long long player_id, apierr *err);

/* Puts off by delay_seconds the "your turn" and "match over" emails of
 * player_id (seat in match) about event seq, queued in the caller's
 * transaction, when the seat made a move by mail in the last 10 seconds
 * that has no answer yet: the answer, still being written, joins them
 * (mail_answers.h) or stands for them.
 * False with err filled. */
bool store_outbox_wait_for_answer(PGconn *conn, long long match_id,
                                  long long seq, int seat,
                                  long long player_id, int delay_seconds,
                                  apierr *err);

bool store_outbox_spare_turn_mail(PGconn *conn, long long match_id,
                                  long long seq, int seat, long long player_id,
                                  int seen_minutes, apierr *err);

/* Cancels the due reminders, nudges and digest entries that have become
 * pointless: the player has acted since (an event of their seat after the
 * row's), or the match is no longer active. How many, or -1 with err
 * filled. */
int store_outbox_cancel_pointless(PGconn *conn, apierr *err);

/* Milliseconds until the earliest pending row falls due (negative when it
 * is overdue) in *due_ms. False when no row is pending, or with err filled
 * when the database failed. */
bool store_outbox_next_due_ms(PGconn *conn, long long *due_ms, apierr *err);

/* ---- listings ---------------------------------------------------------- */

/* The columns of a listing's rows, in this order. Times are RFC 3339 UTC
 * with milliseconds. */
enum {
    STORE_OUTBOX_LIST_MATCH,
    STORE_OUTBOX_LIST_ID,
    STORE_OUTBOX_LIST_SEQ,
    STORE_OUTBOX_LIST_REASON,
    STORE_OUTBOX_LIST_CHANNEL,
    STORE_OUTBOX_LIST_STATUS,
    STORE_OUTBOX_LIST_ATTEMPTS,
    STORE_OUTBOX_LIST_LAST_ERROR, /* NULL when none */
    STORE_OUTBOX_LIST_CREATED,
    STORE_OUTBOX_LIST_SENT, /* NULL until sent */
    STORE_OUTBOX_LIST_NEXT_ATTEMPT,
    STORE_OUTBOX_LIST_PLAYER,
    STORE_OUTBOX_LIST_ATTEMPT_LOG, /* JSON array of every attempt */
};

/* The latest limit rows for player_id and for the match webhooks they
 * registered, newest first. The caller PQclears; NULL with err filled. */
PGresult *store_outbox_list_of_player(PGconn *conn, long long player_id,
                                      int limit, apierr *err);

/* The latest limit rows in status, newest first. The caller PQclears;
 * NULL with err filled. */
PGresult *store_outbox_list_in_status(PGconn *conn, const char *status,
                                      int limit, apierr *err);

/* Row (match_id, outbox_id) alone (no row when there is none). The
 * caller PQclears; NULL with err filled. */
PGresult *store_outbox_list_one(PGconn *conn, long long match_id,
                                long long outbox_id, apierr *err);

/* ---- the admins' retries ----------------------------------------------- */

/* The status of row (match_id, outbox_id) into status ("" and *found
 * false when there is none). False with err filled. */
bool store_outbox_status(PGconn *conn, long long match_id, long long outbox_id,
                         char status[16], bool *found, apierr *err);

/* A dead row back to pending, due now, with a fresh round of attempts
 * (its attempts stay in outbox_attempts), and the workers woken. A row
 * not dead is left alone. False with err filled. */
bool store_outbox_retry_dead(PGconn *conn, long long match_id,
                             long long outbox_id, apierr *err);

#endif
