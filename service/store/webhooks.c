/* webhooks.c: see webhooks.h. */
#include "store/webhooks.h"

#include <stdio.h>

#include "store/db.h"
#include "store/db_params.h"

#define TIME_SQL(col)                                                          \
    "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

/* The STORE_WEBHOOKS_… columns. */
#define DESCRIBED                                                            \
    "webhook_id, coalesce(match_id, 0), url, " TIME_SQL("created_at")       \
    ", " TIME_SQL("disabled_at") ", disabled_reason, format"

bool store_webhooks_insert(PGconn *conn, long long webhook_id,
                           long long player_id, long long match_id,
                           const char *url, const char *sealed_secret,
                           const char *format, char created_at[32], apierr *err)
{
    /* A player's own webhook (no match) has a NULL match_id. */
    db_params p = {0};
    db_params_int(&p, webhook_id);
    db_params_int(&p, player_id);
    if (match_id)
        db_params_int(&p, match_id);
    else
        db_params_text(&p, NULL);
    db_params_text(&p, url);
    db_params_text(&p, sealed_secret);
    db_params_text(&p, format);
    PGresult *r = db_query(conn,
                           "INSERT INTO webhooks (webhook_id, player_id,"
                           " match_id, url, sealed_secret, format)"
                           " VALUES ($1, $2, $3, $4, $5, $6) RETURNING "
                           TIME_SQL("created_at"),
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    snprintf(created_at, 32, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return true;
}

PGresult *store_webhooks_of_player(PGconn *conn, long long player_id,
                                   apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    return db_query(conn,
                    "SELECT " DESCRIBED " FROM webhooks"
                    " WHERE player_id = $1 ORDER BY created_at, webhook_id",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_webhooks_disable_owned(PGconn *conn, long long webhook_id,
                                       long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, webhook_id);
    db_params_int(&p, player_id);
    return db_query(
        conn,
        "UPDATE webhooks SET disabled_at = coalesce(disabled_at, now()),"
        " disabled_reason = coalesce(disabled_reason, 'disabled by its owner')"
        " WHERE webhook_id = $1 AND player_id = $2"
        " RETURNING " DESCRIBED,
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_webhooks_load(PGconn *conn, long long webhook_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, webhook_id);
    return db_query(conn,
                    "SELECT url, sealed_secret, disabled_at IS NOT NULL,"
                    " format FROM webhooks WHERE webhook_id = $1",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_webhooks_disable(PGconn *conn, long long webhook_id,
                            const char *reason, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, webhook_id);
    db_params_text(&p, reason);
    return db_command(conn,
                      "UPDATE webhooks SET disabled_at = now(),"
                      " disabled_reason = $2"
                      " WHERE webhook_id = $1 AND disabled_at IS NULL",
                      p.count, p.values, err);
}
