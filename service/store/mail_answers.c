/* mail_answers.c: see mail_answers.h. */
#include "store/mail_answers.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/outbox.h"

bool store_mail_answers_insert(PGconn *conn, const char *to_address,
                               const char *subject, const char *body,
                               const char *reply_to, const char *in_reply_to,
                               const char *references, const char *kind,
                               apierr *err)
{
    db_params p = {0};
    db_params_text(&p, to_address);
    db_params_text(&p, subject);
    db_params_text(&p, body);
    db_params_text(&p, reply_to);
    db_params_text(&p, in_reply_to);
    db_params_text(&p, references);
    db_params_text(&p, kind);
    /* The worker listens on the outbox's channel: wake it at commit. */
    return db_command(conn,
                      "INSERT INTO mail_answers (to_address, subject, body, "
                      "reply_to, in_reply_to, \"references\", kind) VALUES "
                      "($1, left($2, 998), $3, $4, $5, $6, $7)",
                      p.count, p.values, err) &&
           store_outbox_wake(conn, err);
}

/* A held answer: pending, never tried, due later, an answer to the
 * address. A row waiting after a failed attempt has attempts > 0; one the
 * worker is sending (its time moved a lease ahead) has claimed_at
 * (migration 028): nothing may join it, nor take it. */
#define HELD_ROW                                                               \
    " to_address = $1 AND kind = 'answer' AND status = 'pending'"              \
    " AND attempts = 0 AND claimed_at IS NULL AND next_attempt_at > now()"     \
    " AND match_id IS NULL"

int store_mail_answers_held(PGconn *conn, const char *to_address,
                            long long *due, apierr *err)
{
    const char *params[] = {to_address};
    PGresult *r = db_query(conn,
                           "SELECT extract(epoch FROM next_attempt_at)::bigint"
                           " FROM mail_answers WHERE" HELD_ROW
                           " ORDER BY answer_id DESC LIMIT 1",
                           1, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int found = PQntuples(r) > 0;
    *due = found ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return found;
}

bool store_mail_answers_hold(PGconn *conn, const char *to_address,
                             const char *subject, const char *body,
                             const char *reply_to, const char *in_reply_to,
                             const char *references, long long due, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, to_address);
    db_params_text(&p, body);
    db_params_text(&p, reply_to);
    db_params_text(&p, in_reply_to);
    db_params_text(&p, references);
    PGresult *r = db_query(conn,
                           "UPDATE mail_answers SET body = body || E'\\n\\n'"
                           " || $2, reply_to = coalesce($3, reply_to),"
                           " in_reply_to = $4, \"references\" = $5"
                           " WHERE answer_id = (SELECT answer_id FROM"
                           " mail_answers WHERE" HELD_ROW
                           " ORDER BY answer_id DESC LIMIT 1 FOR UPDATE)"
                           " RETURNING answer_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    int merged = PQntuples(r);
    PQclear(r);
    if (merged > 0)
        return true;
    db_params q = {0};
    db_params_text(&q, to_address);
    db_params_text(&q, subject);
    db_params_text(&q, body);
    db_params_text(&q, reply_to);
    db_params_text(&q, in_reply_to);
    db_params_text(&q, references);
    db_params_int(&q, due);
    /* The worker listens on the outbox's channel: woken, it sleeps until
     * the row falls due. */
    return db_command(conn,
                      "INSERT INTO mail_answers (to_address, subject, body,"
                      " reply_to, in_reply_to, \"references\", kind,"
                      " next_attempt_at) VALUES ($1, left($2, 998), $3, $4,"
                      " $5, $6, 'answer', to_timestamp($7))",
                      q.count, q.values, err) &&
           store_outbox_wake(conn, err);
}

bool store_mail_answers_hold_for_match(
    PGconn *conn, const char *to_address, const char *subject, const char *body,
    const char *reply_to, const char *in_reply_to, const char *references,
    long long match_id, int hold_seconds, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, to_address);
    db_params_text(&p, subject);
    db_params_text(&p, body);
    db_params_text(&p, reply_to);
    db_params_text(&p, in_reply_to);
    db_params_text(&p, references);
    db_params_int(&p, match_id);
    db_params_int(&p, hold_seconds);
    return db_command(conn,
                      "INSERT INTO mail_answers (to_address, subject, body,"
                      " reply_to, in_reply_to, \"references\", kind,"
                      " match_id, next_attempt_at) VALUES ($1, left($2, 998),"
                      " $3, $4, $5, $6, 'answer', $7::bigint,"
                      " now() + make_interval(secs => $8::int))",
                      p.count, p.values, err) &&
           store_outbox_wake(conn, err);
}

PGresult *store_mail_answers_take_held(PGconn *conn, long long match_id,
                                       const char *to_address,
                                       int lease_seconds, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_text(&p, to_address);
    db_params_int(&p, lease_seconds);
    /* Still held (never tried, never claimed, not due): the answers
     * worker claims none of them while the lease runs, and one that fell
     * due and was claimed is its own. */
    return db_query(
        conn,
        "WITH taken AS (UPDATE mail_answers"
        "   SET next_attempt_at = now() + make_interval(secs => $3::int)"
        " WHERE answer_id IN (SELECT answer_id FROM mail_answers"
        "        WHERE match_id = $1::bigint AND status = 'pending'"
        "          AND lower(to_address) = lower($2) AND attempts = 0"
        "          AND claimed_at IS NULL AND next_attempt_at > now()"
        "        FOR UPDATE SKIP LOCKED)"
        " RETURNING answer_id, body, in_reply_to, \"references\")"
        " SELECT answer_id, body, in_reply_to, \"references\" FROM taken"
        " ORDER BY answer_id",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_mail_answers_merged(PGconn *conn, const long long *answer_ids,
                               int count, const char *notification, apierr *err)
{
    char *ids = db_params_int_array(answer_ids, count);
    db_params p = {0};
    db_params_text(&p, ids);
    db_params_text(&p, notification);
    bool ok = db_command(conn,
                         "UPDATE mail_answers SET status = 'sent',"
                         "   sent_at = now(), merged_into = $2"
                         " WHERE answer_id = ANY($1::bigint[])"
                         "   AND status = 'pending'",
                         p.count, p.values, err);
    free(ids);
    return ok;
}

long long store_mail_answers_pending(PGconn *conn, apierr *err)
{
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM mail_answers"
                           " WHERE status = 'pending'",
                           0, NULL, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    long long waiting = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return waiting;
}

PGresult *store_mail_answers_claim(PGconn *conn, int lease_seconds, int limit,
                                   apierr *err)
{
    db_params p = {0};
    db_params_int(&p, lease_seconds);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "UPDATE mail_answers a"
        "   SET next_attempt_at = now() + make_interval(secs => $1::int),"
        "       claimed_at = now()"
        "  FROM (SELECT answer_id FROM mail_answers"
        "         WHERE status = 'pending' AND next_attempt_at <= now()"
        "         ORDER BY next_attempt_at LIMIT $2::int"
        "         FOR UPDATE SKIP LOCKED) due"
        " WHERE a.answer_id = due.answer_id"
        " RETURNING a.answer_id, a.to_address, a.subject, a.body, a.reply_to,"
        "   a.in_reply_to, a.\"references\", a.kind, a.attempts,"
        "   to_char(a.created_at AT TIME ZONE 'UTC',"
        "   'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_mail_answers_record(PGconn *conn, long long answer_id, int attempt,
                               const char *status, const char *error,
                               long long delay_ms, apierr *err)
{
    /* Seconds with milliseconds, for make_interval: not a whole number. */
    char secs[32];
    snprintf(secs, sizeof secs, "%.3f", (double)delay_ms / 1000.0);
    db_params p = {0};
    db_params_int(&p, answer_id);
    db_params_int(&p, attempt);
    db_params_text(&p, status);
    db_params_text(&p, error);
    db_params_text(&p, secs);
    return db_command(conn,
                      "UPDATE mail_answers SET attempts = $2::int, status = $3,"
                      "   last_error = $4,"
                      "   sent_at = CASE WHEN $3 = 'sent' THEN now() END,"
                      "   next_attempt_at = now()"
                      "     + make_interval(secs => $5::float8)"
                      " WHERE answer_id = $1 AND status = 'pending'",
                      p.count, p.values, err);
}

bool store_mail_answers_release(PGconn *conn, long long answer_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, answer_id);
    return db_command(conn,
                      "UPDATE mail_answers SET next_attempt_at = now()"
                      " WHERE answer_id = $1 AND status = 'pending'",
                      p.count, p.values, err);
}

bool store_mail_answers_next_due_ms(PGconn *conn, long long *due_ms,
                                    apierr *err)
{
    PGresult *r = db_query(conn,
                           "SELECT ceil(extract(epoch FROM min(next_attempt_at)"
                           " - clock_timestamp()) * 1000)::bigint"
                           " FROM mail_answers WHERE status = 'pending'",
                           0, NULL, PGRES_TUPLES_OK, err);
    bool any = r != NULL && PQntuples(r) == 1 && !PQgetisnull(r, 0, 0);
    if (any)
        *due_ms = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return any;
}
