/* push_subscriptions.c: see push_subscriptions.h. */
#include "store/push_subscriptions.h"

#include "store/db.h"
#include "store/db_params.h"

/* The STORE_PUSH_… columns. */
#define PUSH_COLUMNS                                                           \
    " subscription_id, endpoint,"                                              \
    " to_char(created_at AT TIME ZONE 'UTC', "                                 \
    "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"                                       \
    " to_char(disabled_at AT TIME ZONE 'UTC', "                                \
    "'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"                                       \
    " disabled_reason"

PGresult *store_push_subscriptions_put(PGconn *conn, long long player_id,
                                       const char *endpoint, const char *p256dh,
                                       const char *auth, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, endpoint);
    db_params_text(&p, p256dh);
    db_params_text(&p, auth);
    return db_query(
        conn,
        "INSERT INTO push_subscriptions (player_id, endpoint, p256dh, auth)"
        " VALUES ($1, $2, $3::bytea, $4::bytea)"
        " ON CONFLICT (player_id, endpoint) DO UPDATE"
        "   SET p256dh = excluded.p256dh, auth = excluded.auth,"
        "       disabled_at = NULL, disabled_reason = NULL"
        " RETURNING" PUSH_COLUMNS,
        p.count, p.values, PGRES_TUPLES_OK, err);
}

PGresult *store_push_subscriptions_of_player(PGconn *conn, long long player_id,
                                             apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    return db_query(conn,
                    "SELECT" PUSH_COLUMNS " FROM push_subscriptions"
                    " WHERE player_id = $1 AND disabled_at IS NULL"
                    " ORDER BY subscription_id",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

int store_push_subscriptions_disable_owned(PGconn *conn,
                                           long long subscription_id,
                                           long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, subscription_id);
    db_params_int(&p, player_id);
    PGresult *r =
        db_query(conn,
                 "UPDATE push_subscriptions SET disabled_at = now(),"
                 "       disabled_reason = 'turned off by its owner'"
                 " WHERE subscription_id = $1 AND player_id = $2"
                 "   AND disabled_at IS NULL RETURNING subscription_id",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int found = PQntuples(r) > 0;
    PQclear(r);
    return found;
}

PGresult *store_push_subscriptions_load(PGconn *conn, long long subscription_id,
                                        apierr *err)
{
    db_params p = {0};
    db_params_int(&p, subscription_id);
    return db_query(conn,
                    "SELECT endpoint, p256dh, auth, disabled_at IS NOT NULL"
                    "  FROM push_subscriptions WHERE subscription_id = $1",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_push_subscriptions_disable(PGconn *conn, long long subscription_id,
                                      const char *reason, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, subscription_id);
    db_params_text(&p, reason);
    return db_command(conn,
                      "UPDATE push_subscriptions SET disabled_at = now(),"
                      "       disabled_reason = $2"
                      " WHERE subscription_id = $1 AND disabled_at IS NULL",
                      p.count, p.values, err);
}
