/* outbox.c: see outbox.h. */
#include "store/outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_outbox_wake(PGconn *conn, apierr *err)
{
    return db_command(conn, "SELECT pg_notify('pbem_outbox', '')", 0, NULL,
                      err);
}

/* One seat's rows: $1 match, $2 seq, $3 player, $4 reason, $5 payload,
 * $6 whether mail is configured. Each enabled player webhook and the email
 * address, as the player's notification_settings allow: email waits out
 * quiet hours (not a deadline reminder: held, it could come after the
 * deadline), and a "your turn" email waits for the daily digest when the
 * player wants one; each enabled Web Push subscription of the player
 * (push_subscriptions) waits out quiet hours like email, never for the
 * digest. A "your turn" also schedules the player's escalating
 * reminders on every channel; the worker cancels those the player has made
 * pointless by acting (store_outbox_cancel_pointless). The same payload
 * goes to the player's event stream when they have opened one
 * (migrations/012_streams.sql: the next per-player id, taken under the
 * player's row lock). The stream heads of every seated player are locked
 * first, in player order, so two transactions telling the same players
 * (two matches ending at once, the seats in another order) cannot
 * deadlock. */
static const char queue_sql[] =
    "WITH stream_locks AS ("
    "  SELECT h.player_id FROM player_stream_heads h"
    "   WHERE h.player_id IN (SELECT s.player_id FROM seats s"
    "                          WHERE s.match_id = $1::bigint)"
    "   ORDER BY h.player_id FOR UPDATE),"
    " stream_id AS ("
    "  UPDATE player_stream_heads SET last_id = last_id + 1"
    "   WHERE player_id = $3::bigint"
    "     AND (SELECT count(*) FROM stream_locks) >= 0"
    "     AND NOT EXISTS (SELECT 1"
    "     FROM player_stream ps WHERE ps.player_id = $3::bigint"
    "      AND ps.match_id = $1::bigint AND ps.seq = $2::bigint"
    "      AND ps.reason = $4::text)"
    "  RETURNING last_id),"
    " streamed AS ("
    "  INSERT INTO player_stream (player_id, stream_id, match_id, seq,"
    "                             reason, payload)"
    "  SELECT $3::bigint, last_id, $1::bigint, $2::bigint, $4::text,"
    "         $5::jsonb FROM stream_id),"
    " settings AS ("
    "  SELECT coalesce(ns.email, true) AS email,"
    "         coalesce(ns.webhooks, true) AS webhooks,"
    "         coalesce(ns.time_zone, 'UTC') AS tz, ns.quiet_start, ns.quiet_end,"
    "         coalesce(ns.digest, false) AND $4::text = 'your_turn' AS digest,"
    "         coalesce(ns.digest_hour, 8::smallint) AS digest_hour,"
    "         CASE WHEN $4::text = 'your_turn'"
    "              THEN coalesce(ns.reminder_hours, '{}') ELSE '{}' END"
    "           AS reminders,"
    "         p.email IS NOT NULL AND $6::boolean AS mailable"
    "    FROM players p LEFT JOIN notification_settings ns USING (player_id)"
    "   WHERE p.player_id = $3::bigint),"
    " wanted AS ("
    "  SELECT 'webhook:' || w.webhook_id AS channel, w.webhook_id,"
    "         $4::text AS reason, $5::jsonb AS payload, now() AS due,"
    "         false AS digest"
    "    FROM webhooks w, settings"
    "   WHERE w.player_id = $3::bigint AND w.match_id IS NULL"
    "     AND w.disabled_at IS NULL AND settings.webhooks"
    "  UNION ALL"
    "  SELECT 'email', NULL::bigint, $4::text, $5::jsonb,"
    "         CASE WHEN digest THEN pbem_next_digest(now(), tz, digest_hour)"
    "              WHEN $4::text = 'deadline_reminder' THEN now()"
    "              ELSE pbem_after_quiet_hours(now(), tz, quiet_start, quiet_end)"
    "         END, digest"
    "    FROM settings WHERE email AND mailable"
    "  UNION ALL"
    "  SELECT 'push:' || ps.subscription_id, NULL::bigint, $4::text,"
    "         $5::jsonb,"
    "         CASE WHEN $4::text = 'deadline_reminder' THEN now()"
    "              ELSE pbem_after_quiet_hours(now(), tz, quiet_start, quiet_end)"
    "         END, false"
    "    FROM push_subscriptions ps, settings"
    "   WHERE ps.player_id = $3::bigint AND ps.disabled_at IS NULL),"
    " reminders AS ("
    "  SELECT w.channel, w.webhook_id, 'reminder_' || h || 'h' AS reason,"
    "         jsonb_set(jsonb_set(w.payload, '{type}', '\"match.reminder\"'),"
    "                   '{reminder_hours}', to_jsonb(h)) AS payload,"
    "         CASE WHEN w.channel = 'email'"
    "              THEN pbem_after_quiet_hours(now() + make_interval(hours => h),"
    "                                          s.tz, s.quiet_start, s.quiet_end)"
    "              ELSE now() + make_interval(hours => h) END AS due,"
    "         false AS digest"
    "    FROM wanted w, settings s, unnest(s.reminders) h)"
    " INSERT INTO outbox (match_id, seq, player_id, channel, reason, payload,"
    "                     webhook_id, next_attempt_at, digest)"
    " SELECT $1::bigint, $2::bigint, $3::bigint, channel, reason, payload,"
    "        webhook_id, due, digest"
    "   FROM (SELECT * FROM wanted UNION ALL SELECT * FROM reminders) rows"
    " ON CONFLICT DO NOTHING";

bool store_outbox_queue_seat(PGconn *conn, long long match_id, long long seq,
                             long long player_id, const char *reason,
                             const char *payload, bool mailable, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_int(&p, player_id);
    db_params_text(&p, reason);
    db_params_text(&p, payload);
    db_params_text(&p, mailable ? "true" : "false");
    return db_command(conn, queue_sql, p.count, p.values, err);
}

bool store_outbox_queue_relays(PGconn *conn, long long match_id, long long seq,
                               const char *reason, const char *payload,
                               apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_text(&p, reason);
    db_params_text(&p, payload);
    return db_command(
        conn,
        "INSERT INTO outbox (match_id, seq, player_id, channel, reason,"
        " payload, webhook_id)"
        " SELECT $1, $2, 0, 'webhook:' || w.webhook_id, $3, $4::jsonb,"
        "        w.webhook_id"
        "   FROM webhooks w WHERE w.match_id = $1 AND w.disabled_at IS NULL"
        " ON CONFLICT DO NOTHING",
        p.count, p.values, err);
}

bool store_outbox_queue_admins(PGconn *conn, long long match_id, long long seq,
                               const char *payload, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_text(&p, payload);
    return db_command(conn,
                      "INSERT INTO outbox (match_id, seq, player_id,"
                      " channel, reason, payload) VALUES ($1, $2, 0,"
                      " 'admins', 'deadline_admins', $3::jsonb)"
                      " ON CONFLICT DO NOTHING",
                      p.count, p.values, err);
}

/* SQL: whether outbox row alias may be cancelled once pointless (a
 * reminder, a nudge or a digest entry; never a plain "your turn" or "match
 * over"). The worker's claim skips such rows while they are pointless, so
 * a row falling due between the cancel pass and the claim is not sent. */
#define CANCELLABLE(alias)                                                   \
    "(" alias ".reason LIKE 'reminder\\_%' OR "                            \
    alias ".reason LIKE 'nudge\\_%' OR " alias ".digest)"

PGresult *store_outbox_claim_due(PGconn *conn, int lease_seconds, int limit,
                                 apierr *err)
{
    db_params p = {0};
    db_params_int(&p, lease_seconds);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "UPDATE outbox o"
        "   SET next_attempt_at = now() + make_interval(secs => $1::int)"
        "  FROM (SELECT match_id, outbox_id FROM outbox"
        "         WHERE status = 'pending' AND next_attempt_at <= now()"
        "           AND NOT digest"
        "           AND NOT (" CANCELLABLE("outbox") " AND"
        "                    pbem_outbox_pointless(match_id, seq, player_id))"
        "         ORDER BY next_attempt_at LIMIT $2::int"
        "         FOR UPDATE SKIP LOCKED) due"
        " WHERE o.match_id = due.match_id AND o.outbox_id = due.outbox_id"
        " RETURNING o.match_id, o.outbox_id, o.player_id,"
        "   coalesce(o.webhook_id, 0), o.channel, o.reason, o.payload::text,"
        "   o.attempts, to_char(o.created_at AT TIME ZONE 'UTC',"
        "   'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_outbox_digest_players(PGconn *conn, int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT DISTINCT player_id FROM outbox"
        " WHERE status = 'pending' AND digest AND next_attempt_at <= now()"
        " LIMIT $1::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_outbox_claim_digest(PGconn *conn, const char *player, int limit,
                                    int lease_seconds, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, player);
    db_params_int(&p, lease_seconds);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "WITH claimed AS ("
        "  UPDATE outbox o"
        "     SET next_attempt_at = now() + make_interval(secs => $2::int)"
        "    FROM (SELECT match_id, outbox_id FROM outbox"
        "           WHERE player_id = $1::bigint AND status = 'pending'"
        "             AND digest AND next_attempt_at <= now()"
        "             AND NOT pbem_outbox_pointless(match_id, seq, player_id)"
        "           LIMIT $3::int FOR UPDATE SKIP LOCKED) due"
        "   WHERE o.match_id = due.match_id AND o.outbox_id = due.outbox_id"
        "  RETURNING o.match_id, o.outbox_id, o.payload::text, o.attempts, o.seq,"
        "   to_char(o.created_at AT TIME ZONE 'UTC',"
        "   'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') AS created)"
        " SELECT match_id, outbox_id, payload, attempts, created FROM claimed"
        "  ORDER BY match_id, seq",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_outbox_record_attempt(PGconn *conn, long long match_id,
                                 long long outbox_id, int attempt,
                                 long long duration_ms, const char *outcome,
                                 long code, const char *error,
                                 const char *status, long long delay_ms,
                                 apierr *err)
{
    /* Seconds with milliseconds, for make_interval: not a whole number. */
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", (double)delay_ms / 1000.0);
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, outbox_id);
    db_params_int(&p, attempt);
    db_params_int(&p, duration_ms);
    db_params_text(&p, outcome);
    if (code)
        db_params_int(&p, code);
    else
        db_params_text(&p, NULL);
    db_params_text(&p, error);
    db_params_text(&p, status);
    db_params_text(&p, secs);
    return db_command(
        conn,
        "WITH attempt AS (INSERT INTO outbox_attempts (match_id, outbox_id,"
        "   attempt, duration_ms, outcome, code, error)"
        "   VALUES ($1, $2, $3::int, $4::int, $5, $6::int, $7))"
        " UPDATE outbox SET attempts = $3::int, status = $8, last_error = $7,"
        "   sent_at = CASE WHEN $8 = 'sent' THEN now() ELSE sent_at END,"
        "   next_attempt_at = now() + make_interval(secs => $9::float8)"
        " WHERE match_id = $1 AND outbox_id = $2 AND status = 'pending'",
        p.count, p.values, err);
}

bool store_outbox_release(PGconn *conn, long long match_id, long long outbox_id,
                          apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, outbox_id);
    return db_command(
        conn,
        "UPDATE outbox SET next_attempt_at = now()"
        " WHERE match_id = $1 AND outbox_id = $2 AND status = 'pending'",
        p.count, p.values, err);
}

bool store_outbox_cancel_shown_turn(PGconn *conn, long long match_id,
                                    long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, player_id);
    return db_command(
        conn,
        "UPDATE outbox SET status = 'cancelled',"
        "   last_error = 'the answer to the mailed move showed the next turn'"
        " WHERE match_id = $1::bigint AND player_id = $2::bigint"
        "   AND channel = 'email' AND reason = 'your_turn'"
        "   AND status = 'pending' AND attempts = 0",
        p.count, p.values, err);
}

int store_outbox_over_mailed(PGconn *conn, long long match_id,
                             long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, player_id);
    PGresult *r = db_query(
        conn,
        "SELECT 1 FROM outbox WHERE match_id = $1::bigint"
        "   AND player_id = $2::bigint AND channel = 'email'"
        "   AND reason = 'match_over'"
        "   AND (status = 'sent' OR attempts > 0) LIMIT 1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int mailed = PQntuples(r) > 0;
    PQclear(r);
    return mailed;
}

bool store_outbox_wait_for_answer(PGconn *conn, long long match_id,
                                  long long seq, int seat,
                                  long long player_id, int delay_seconds,
                                  apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_int(&p, seat);
    db_params_int(&p, player_id);
    db_params_int(&p, delay_seconds);
    /* The seat's latest events only: a mailed move is among the last few
     * of the match when its answer is still being written. */
    return db_command(
        conn,
        "UPDATE outbox SET next_attempt_at = greatest(next_attempt_at,"
        "   now() + make_interval(secs => $5::int))"
        " WHERE match_id = $1::bigint AND seq = $2::bigint"
        "   AND player_id = $4::bigint AND channel = 'email'"
        "   AND reason IN ('your_turn', 'match_over') AND status = 'pending'"
        "   AND EXISTS (SELECT 1 FROM events e"
        "        WHERE e.match_id = $1::bigint AND e.seq > $2::bigint - 64"
        "          AND e.seq <= $2::bigint AND e.seat = $3::int"
        "          AND e.created_at > now() - interval '10 seconds'"
        "          AND (e.body::jsonb #>> '{data,request,via}' = 'email'"
        "               OR (e.kind = 'committed' AND"
        "                   e.body::jsonb #>> '{data,mode}' = 'server'))"
        "          AND NOT EXISTS (SELECT 1 FROM mail_answers a"
        "                JOIN players p ON lower(a.to_address) = lower(p.email)"
        "               WHERE p.player_id = $4::bigint"
        "                 AND a.created_at >= e.created_at))",
        p.count, p.values, err);
}

bool store_outbox_spare_turn_mail(PGconn *conn, long long match_id,
                                  long long seq, int seat, long long player_id,
                                  int seen_minutes, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seq);
    db_params_int(&p, seat);
    db_params_int(&p, player_id);
    db_params_int(&p, seen_minutes);
    /* now() is the transaction's start: the events appended with this
     * notification, and no earlier ones. A server-sealed commitment
     * records no request, so the mail door's sealed choices are known by
     * their mode: a simple client that seals through the service is
     * answered with the decision's state too. */
    return db_command(
        conn,
        "UPDATE outbox o SET status = 'cancelled',"
        "   last_error = CASE WHEN why.answered"
        "     THEN 'the answer to the mailed move showed the next turn'"
        "     ELSE 'the player was on the web page within '"
        "          || $5::int || ' minutes' END"
        "  FROM (SELECT"
        "    EXISTS (SELECT 1 FROM events e"
        "             WHERE e.match_id = $1::bigint AND e.seq <= $2::bigint"
        "               AND e.created_at = now() AND e.seat = $3::int"
        "               AND (e.body::jsonb #>> '{data,request,via}' = 'email'"
        "                    OR (e.kind = 'committed' AND"
        "                        e.body::jsonb #>> '{data,mode}' = 'server')))"
        "      AS answered,"
        "    $5::int > 0 AND EXISTS (SELECT 1 FROM players_seen s"
        "        LEFT JOIN notification_settings n USING (player_id)"
        "       WHERE s.player_id = $4::bigint"
        "         AND coalesce(n.skip_when_seen, true)"
        "         AND s.seen_at > now() - make_interval(mins => $5::int))"
        "      AS seen) why"
        " WHERE o.match_id = $1::bigint AND o.seq = $2::bigint"
        "   AND o.player_id = $4::bigint AND o.channel = 'email'"
        "   AND o.reason = 'your_turn' AND o.status = 'pending'"
        "   AND (why.answered OR why.seen)",
        p.count, p.values, err);
}

int store_outbox_cancel_pointless(PGconn *conn, apierr *err)
{
    PGresult *r = db_query(
        conn,
        "UPDATE outbox o SET status = 'cancelled',"
        "   last_error = CASE WHEN m.status <> 'active'"
        "                     THEN 'the match is ' || m.status"
        "                     ELSE 'the player has acted since' END"
        "  FROM matches m"
        " WHERE m.match_id = o.match_id AND o.status = 'pending'"
        "   AND o.next_attempt_at <= now()"
        "   AND " CANCELLABLE("o")
        "   AND pbem_outbox_pointless(o.match_id, o.seq, o.player_id)"
        " RETURNING 1",
        0, NULL, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int n = PQntuples(r);
    PQclear(r);
    return n;
}

bool store_outbox_next_due_ms(PGconn *conn, long long *due_ms, apierr *err)
{
    PGresult *r = db_query(conn,
                           "SELECT ceil(extract(epoch FROM min(next_attempt_at)"
                           " - clock_timestamp()) * 1000)::bigint"
                           " FROM outbox WHERE status = 'pending'",
                           0, NULL, PGRES_TUPLES_OK, err);
    bool any = r != NULL && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0);
    if (any)
        *due_ms = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return any;
}

#define TS(col)                                                                \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

/* The columns every listing reads (STORE_OUTBOX_LIST_…), in this order. */
#define LISTING_COLUMNS                                                      \
    "o.match_id, o.outbox_id, o.seq, o.reason, o.channel, o.status,"        \
    " o.attempts, o.last_error, " TS("o.created_at") ", " TS("o.sent_at")  \
    ", " TS("o.next_attempt_at") ", o.player_id,"                           \
    " (SELECT coalesce(json_agg(json_build_object('attempt', a.attempt,"    \
    "   'at', " TS("a.attempted_at") ", 'outcome', a.outcome, 'code',"     \
    " a.code, 'error', a.error, 'duration_ms', a.duration_ms)"            \
    " ORDER BY a.attempt_id), '[]') FROM outbox_attempts a"                 \
    "  WHERE a.match_id = o.match_id AND a.outbox_id = o.outbox_id)"

PGresult *store_outbox_list_of_player(PGconn *conn, long long player_id,
                                      int limit, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT " LISTING_COLUMNS " FROM outbox o WHERE o.player_id = $1"
        " OR (o.player_id = 0 AND o.webhook_id IN (SELECT webhook_id"
        "     FROM webhooks WHERE player_id = $1))"
        " ORDER BY o.created_at DESC, o.outbox_id DESC LIMIT $2::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_outbox_list_in_status(PGconn *conn, const char *status,
                                      int limit, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, status);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT " LISTING_COLUMNS " FROM outbox o WHERE o.status = $1"
        " ORDER BY o.created_at DESC, o.outbox_id DESC LIMIT $2::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_outbox_list_one(PGconn *conn, long long match_id,
                                long long outbox_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, outbox_id);
    return db_query(conn,
                    "SELECT " LISTING_COLUMNS " FROM outbox o"
                    " WHERE o.match_id = $1 AND o.outbox_id = $2",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_outbox_status(PGconn *conn, long long match_id, long long outbox_id,
                         char status[16], bool *found, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, outbox_id);
    PGresult *r = db_query(conn,
                           "SELECT status FROM outbox"
                           " WHERE match_id = $1 AND outbox_id = $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) == 1;
    snprintf(status, 16, "%s", *found ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return true;
}

bool store_outbox_retry_dead(PGconn *conn, long long match_id,
                             long long outbox_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, outbox_id);
    return db_command(conn,
                      "UPDATE outbox SET status = 'pending', attempts = 0,"
                      " next_attempt_at = now(), last_error = NULL"
                      " WHERE match_id = $1 AND outbox_id = $2"
                      " AND status = 'dead'",
                      p.count, p.values, err) &&
           store_outbox_wake(conn, err);
}
