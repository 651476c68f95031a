/* notification_settings.c: see notification_settings.h. */
#include "store/notification_settings.h"

#include <stdio.h>

#include "store/db.h"
#include "store/db_params.h"

PGresult *store_notification_settings_get(PGconn *conn, long long player_id,
                                          apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    return db_query(
        conn,
        "SELECT coalesce(ns.email, true), coalesce(ns.webhooks, true),"
        " coalesce(ns.time_zone, 'UTC'), ns.quiet_start, ns.quiet_end,"
        " coalesce(ns.digest, false), coalesce(ns.digest_hour, 8),"
        " array_to_json(coalesce(ns.reminder_hours, '{}'))::text,"
        " coalesce(ns.skip_when_seen, true)"
        " FROM (SELECT $1::bigint AS player_id) p"
        " LEFT JOIN notification_settings ns USING (player_id)",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_notification_settings_zone_known(PGconn *conn, const char *name,
                                            bool *known, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, name);
    PGresult *r = db_query(conn,
                           "SELECT 1 FROM pg_timezone_names WHERE name = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *known = PQntuples(r) > 0;
    PQclear(r);
    return true;
}

bool store_notification_settings_local_time(PGconn *conn, long long player_id,
                                            const char *at, long long at_epoch,
                                            const char *format, char *out,
                                            size_t size, char *zone,
                                            size_t zone_size, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, at);
    db_params_int(&p, at_epoch);
    db_params_text(&p, format);
    PGresult *r = db_query(
        conn,
        "SELECT to_char(coalesce($2::timestamptz, to_timestamp($3::bigint))"
        "               AT TIME ZONE z.name, $4), z.name"
        "  FROM (SELECT coalesce((SELECT time_zone FROM notification_settings"
        "                          WHERE player_id = $1::bigint), 'UTC')"
        "         AS name) z",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    snprintf(out, size, "%s", PQgetvalue(r, 0, 0));
    snprintf(zone, zone_size, "%s", PQgetvalue(r, 0, 1));
    PQclear(r);
    return true;
}

bool store_notification_settings_put(
    PGconn *conn, long long player_id,
    const store_notification_settings *settings, apierr *err)
{
    /* No quiet hours is NULL in both columns. */
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, settings->email ? "true" : "false");
    db_params_text(&p, settings->webhooks ? "true" : "false");
    db_params_text(&p, settings->time_zone);
    if (settings->quiet_start >= 0)
        db_params_int(&p, settings->quiet_start);
    else
        db_params_text(&p, NULL);
    if (settings->quiet_end >= 0)
        db_params_int(&p, settings->quiet_end);
    else
        db_params_text(&p, NULL);
    db_params_text(&p, settings->digest ? "true" : "false");
    db_params_int(&p, settings->digest_hour);
    db_params_text(&p, settings->reminder_hours);
    db_params_text(&p, settings->skip_when_seen ? "true" : "false");
    return db_command(conn,
                      "INSERT INTO notification_settings (player_id, email,"
                      " webhooks, time_zone, quiet_start, quiet_end, digest,"
                      " digest_hour, reminder_hours, skip_when_seen)"
                      " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                      " ON CONFLICT (player_id) DO UPDATE SET email = $2,"
                      " webhooks = $3, time_zone = $4, quiet_start = $5,"
                      " quiet_end = $6, digest = $7, digest_hour = $8,"
                      " reminder_hours = $9, skip_when_seen = $10,"
                      " updated_at = now()",
                      p.count, p.values, err);
}

bool store_notification_settings_stop_email(PGconn *conn, long long player_id,
                                            apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    return db_command(conn,
                      "INSERT INTO notification_settings (player_id, email)"
                      " SELECT player_id, false FROM players"
                      " WHERE player_id = $1"
                      " ON CONFLICT (player_id) DO UPDATE SET email = false,"
                      " updated_at = now()",
                      p.count, p.values, err);
}
