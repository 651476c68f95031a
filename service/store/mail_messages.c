/* mail_messages.c: see mail_messages.h. */
#include "store/mail_messages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/bytea.h"
#include "store/db.h"
#include "store/db_params.h"

int store_mail_messages_lock(PGconn *conn, const char *key, bool take,
                             apierr *err)
{
    const char *params[] = {key};
    PGresult *r = db_query(conn,
                           take ? "SELECT pg_try_advisory_lock("
                                  "hashtextextended($1, 9))"
                                : "SELECT pg_advisory_unlock("
                                  "hashtextextended($1, 9))",
                           1, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int got = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return got;
}

int store_mail_messages_seen(PGconn *conn, const char *key, apierr *err)
{
    const char *params[] = {key};
    PGresult *r =
        db_query(conn, "SELECT 1 FROM mail_messages WHERE message_key = $1", 1,
                 params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int seen = PQntuples(r) > 0;
    PQclear(r);
    return seen;
}

/* How many messages from sender (case aside) of the last hour had one
 * of outcomes (a text[] literal: "{answered,refused}"), or -1. */
static int count_last_hour(PGconn *conn, const char *sender,
                           const char *outcomes, apierr *err)
{
    const char *params[] = {sender, outcomes};
    PGresult *r = db_query(conn,
                           "SELECT count(*) FROM mail_messages"
                           " WHERE lower(sender) = lower($1)"
                           "   AND outcome = ANY ($2::text[])"
                           "   AND received_at > now() - interval '1 hour'",
                           2, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int n = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

int store_mail_messages_answered_last_hour(PGconn *conn, const char *sender,
                                           apierr *err)
{
    return count_last_hour(conn, sender, "{answered,refused}", err);
}

int store_mail_messages_outcomes_last_hour(PGconn *conn, const char *sender,
                                           const char *outcome, apierr *err)
{
    char outcomes[64];
    snprintf(outcomes, sizeof outcomes, "{\"%s\"}", outcome);
    return count_last_hour(conn, sender, outcomes, err);
}

bool store_mail_messages_answers_free_at(PGconn *conn, const char *sender,
                                         int limit, long long *at, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, sender);
    db_params_int(&p, limit > 0 ? limit - 1 : 0);
    PGresult *r = db_query(conn,
                           "SELECT extract(epoch FROM coalesce((SELECT"
                           " received_at + interval '1 hour' FROM mail_messages"
                           " WHERE lower(sender) = lower($1)"
                           "   AND outcome IN ('answered', 'refused')"
                           "   AND received_at > now() - interval '1 hour'"
                           " ORDER BY received_at DESC OFFSET $2 LIMIT 1),"
                           " now()))::bigint",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *at = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

bool store_mail_messages_record(PGconn *conn, const char *key,
                                const uint8_t sha256[32], const char *sender,
                                const char *via, const char *outcome,
                                long long player_id, apierr *err)
{
    char sha[BYTEA_TEXT_SIZE(32)];
    bytea_write(sha256, 32, sha);
    db_params p = {0};
    db_params_text(&p, key);
    db_params_text(&p, sha);
    db_params_text(&p, sender);
    db_params_text(&p, via);
    db_params_text(&p, outcome);
    if (player_id > 0)
        db_params_int(&p, player_id);
    else
        db_params_text(&p, NULL);
    return db_command(conn,
                      "INSERT INTO mail_messages (message_key, sha256, sender,"
                      " via, outcome, player_id)"
                      " VALUES ($1, $2::bytea, $3, $4, $5, $6)"
                      " ON CONFLICT (message_key) DO NOTHING",
                      p.count, p.values, err);
}

bool store_mail_tokens_spend(PGconn *conn, const char *token_id,
                             const char *key, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, token_id);
    db_params_text(&p, key);
    return db_command(conn,
                      "INSERT INTO mail_tokens_spent (token_id, message_key)"
                      " VALUES ($1, $2) ON CONFLICT (token_id) DO NOTHING",
                      p.count, p.values, err);
}

bool store_mail_tokens_release(PGconn *conn, const char *token_id,
                               const char *key, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, token_id);
    db_params_text(&p, key);
    return db_command(conn,
                      "DELETE FROM mail_tokens_spent"
                      " WHERE token_id = $1 AND message_key = $2",
                      p.count, p.values, err);
}

bool store_mail_tokens_spent_by(PGconn *conn, const char *token_id, char *key,
                                size_t size, apierr *err)
{
    const char *params[] = {token_id};
    PGresult *r = db_query(conn,
                           "SELECT message_key FROM mail_tokens_spent"
                           " WHERE token_id = $1",
                           1, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    snprintf(key, size, "%s", PQntuples(r) ? PQgetvalue(r, 0, 0) : "");
    PQclear(r);
    return true;
}
