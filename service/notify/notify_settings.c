/* notify_settings.c */
#include "notify/notify_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "ledger/seal.h"
#include "store/reachability.h"
#include "store/store.h"
#include "notify/templates.h"

#define REMINDERS_MAX 5
#define REMINDER_HOURS_MAX 720

/* "HH:MM" → minutes of the day, or -1. */
static int minutes_of(const json_t *value)
{
    const char *text = json_string_value(value);
    int hours, minutes;
    char end;
    if (text == NULL || strlen(text) != 5 ||
        sscanf(text, "%2d:%2d%c", &hours, &minutes, &end) != 2 || hours < 0 ||
        hours > 23 || minutes < 0 || minutes > 59)
        return -1;
    return hours * 60 + minutes;
}

static json_t *settings_json(const PGresult *r)
{
    json_t *quiet = json_null();
    if (!PQgetisnull(r, 0, 3)) {
        int from = atoi(PQgetvalue(r, 0, 3)), until = atoi(PQgetvalue(r, 0, 4));
        char from_text[16], until_text[16];
        snprintf(from_text, sizeof from_text, "%02d:%02d", from / 60, from % 60);
        snprintf(until_text, sizeof until_text, "%02d:%02d", until / 60,
                 until % 60);
        quiet = json_pack("{s:s,s:s}", "from", from_text, "until", until_text);
    }
    json_t *reminders = json_loads(PQgetvalue(r, 0, 7), 0, NULL);
    return json_pack("{s:b,s:b,s:s,s:o,s:b,s:i,s:o}", "email",
                     PQgetvalue(r, 0, 0)[0] == 't', "webhooks",
                     PQgetvalue(r, 0, 1)[0] == 't', "time_zone",
                     PQgetvalue(r, 0, 2), "quiet_hours", quiet, "digest",
                     PQgetvalue(r, 0, 5)[0] == 't', "digest_hour",
                     atoi(PQgetvalue(r, 0, 6)), "reminder_hours",
                     reminders ? reminders : json_array());
}

json_t *notify_settings_get(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(
        conn,
        "SELECT coalesce(ns.email, true), coalesce(ns.webhooks, true),"
        " coalesce(ns.time_zone, 'UTC'), ns.quiet_start, ns.quiet_end,"
        " coalesce(ns.digest, false), coalesce(ns.digest_hour, 8),"
        " array_to_json(coalesce(ns.reminder_hours, '{}'))::text"
        " FROM (SELECT $1::bigint AS player_id) p"
        " LEFT JOIN notification_settings ns USING (player_id)",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *settings = settings_json(r);
    PQclear(r);
    return settings;
}

static bool check_fields(const json_t *body, apierr *err)
{
    static const char *const known[] = {"email", "webhooks", "time_zone",
                                        "quiet_hours", "digest", "digest_hour",
                                        "reminder_hours"};
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)body, key, value) {
        bool found = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            found = found || strcmp(key, known[i]) == 0;
        if (!found)
            return apierr_set(err, 400, "bad_settings",
                              "unknown setting \"%.60s\"; the settings are "
                              "email, webhooks, time_zone, quiet_hours, "
                              "digest, digest_hour and reminder_hours",
                              key);
        (void)value;
    }
    return true;
}

static bool boolean_field(const json_t *body, const char *name, bool fallback,
                          bool *out, apierr *err)
{
    const json_t *value = json_object_get(body, name);
    if (value == NULL) {
        *out = fallback;
        return true;
    }
    if (!json_is_boolean(value))
        return apierr_set(err, 400, "bad_settings", "\"%s\" must be true or false",
                          name);
    *out = json_is_true(value);
    return true;
}

/* reminder_hours as a PostgreSQL array literal "{24,72}". */
static bool reminders_field(const json_t *body, char *out, size_t size,
                            apierr *err)
{
    const json_t *list = json_object_get(body, "reminder_hours");
    size_t used = (size_t)snprintf(out, size, "{");
    if (list != NULL && !json_is_array(list))
        return apierr_set(err, 400, "bad_settings",
                          "\"reminder_hours\" must be a list of hours, like "
                          "[24, 72]");
    if (json_array_size(list) > REMINDERS_MAX)
        return apierr_set(err, 400, "bad_settings",
                          "at most %d reminders", REMINDERS_MAX);
    json_int_t previous = 0;
    size_t i;
    const json_t *hours;
    json_array_foreach(list, i, hours) {
        json_int_t h = json_integer_value(hours);
        if (!json_is_integer(hours) || h <= previous || h > REMINDER_HOURS_MAX)
            return apierr_set(err, 400, "bad_settings",
                              "\"reminder_hours\" must rise, each a whole "
                              "number of hours from 1 to %d",
                              REMINDER_HOURS_MAX);
        previous = h;
        used += (size_t)snprintf(out + used, size - used, "%s%lld", i ? "," : "",
                                 (long long)h);
    }
    snprintf(out + used, size - used, "}");
    return true;
}

json_t *notify_settings_put(long long player_id, const json_t *body,
                            apierr *err)
{
    bool email = true, webhooks = true, digest = false;
    char reminders[128];
    if (!check_fields(body, err) ||
        !boolean_field(body, "email", true, &email, err) ||
        !boolean_field(body, "webhooks", true, &webhooks, err) ||
        !boolean_field(body, "digest", false, &digest, err) ||
        !reminders_field(body, reminders, sizeof reminders, err))
        return NULL;
    const json_t *zone = json_object_get(body, "time_zone");
    if (zone != NULL && (!json_is_string(zone) || json_string_length(zone) == 0 ||
                         json_string_length(zone) > 64))
        return apierr_set(err, 400, "bad_settings",
                          "\"time_zone\" must be an IANA time zone name, like "
                          "\"Europe/Paris\""),
               NULL;
    const json_t *hour = json_object_get(body, "digest_hour");
    if (hour != NULL && (!json_is_integer(hour) || json_integer_value(hour) < 0 ||
                         json_integer_value(hour) > 23))
        return apierr_set(err, 400, "bad_settings",
                          "\"digest_hour\" must be an hour from 0 to 23"),
               NULL;
    const json_t *quiet = json_object_get(body, "quiet_hours");
    int from = -1, until = -1;
    if (quiet != NULL && !json_is_null(quiet)) {
        from = minutes_of(json_object_get(quiet, "from"));
        until = minutes_of(json_object_get(quiet, "until"));
        if (!json_is_object(quiet) || from < 0 || until < 0 || from == until)
            return apierr_set(err, 400, "bad_settings",
                              "\"quiet_hours\" must be null or {\"from\": "
                              "\"22:00\", \"until\": \"07:00\"}, two different "
                              "local times"),
                   NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    const char *tz = zone ? json_string_value(zone) : "UTC";
    db_params zone_params = {0};
    db_params_text(&zone_params, tz);
    PGresult *known = db_query(conn,
                               "SELECT 1 FROM pg_timezone_names WHERE name = $1",
                               zone_params.count, zone_params.values,
                               PGRES_TUPLES_OK, err);
    if (known == NULL)
        return NULL;
    bool zone_known = PQntuples(known) > 0;
    PQclear(known);
    if (!zone_known)
        return apierr_set(err, 400, "bad_settings",
                          "\"%.64s\" is not a time zone this server knows; use "
                          "an IANA name like \"America/New_York\"",
                          tz),
               NULL;
    /* No quiet hours is NULL in both columns. */
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_text(&p, email ? "true" : "false");
    db_params_text(&p, webhooks ? "true" : "false");
    db_params_text(&p, tz);
    if (from >= 0)
        db_params_int(&p, from);
    else
        db_params_text(&p, NULL);
    if (until >= 0)
        db_params_int(&p, until);
    else
        db_params_text(&p, NULL);
    db_params_text(&p, digest ? "true" : "false");
    db_params_int(&p, hour ? (long long)json_integer_value(hour) : 8LL);
    db_params_text(&p, reminders);
    if (!db_command(conn,
                    "INSERT INTO notification_settings (player_id, email,"
                    " webhooks, time_zone, quiet_start, quiet_end, digest,"
                    " digest_hour, reminder_hours)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                    " ON CONFLICT (player_id) DO UPDATE SET email = $2,"
                    " webhooks = $3, time_zone = $4, quiet_start = $5,"
                    " quiet_end = $6, digest = $7, digest_hour = $8,"
                    " reminder_hours = $9, updated_at = now()",
                    p.count, p.values, err))
        return NULL;
    store_reachability_changed();
    return notify_settings_get(player_id, err);
}

static long long checked_player(const char *player_ref, const char *token,
                                apierr *err)
{
    long long player_id = player_ref ? store_parse_player_ref(player_ref) : 0;
    if (player_id <= 0 || !seal_unsubscribe_check(player_id, token)) {
        apierr_set(err, 403, "bad_unsubscribe_link",
                   "this unsubscribe link is not valid; use the link of a "
                   "recent notification email");
        return 0;
    }
    return player_id;
}

json_t *notify_settings_unsubscribe(const char *player_ref, const char *token,
                                    apierr *err)
{
    long long player_id = checked_player(player_ref, token, err);
    if (player_id == 0)
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    db_params p = {0};
    db_params_int(&p, player_id);
    if (!db_command(conn,
                    "INSERT INTO notification_settings (player_id, email)"
                    " SELECT player_id, false FROM players WHERE player_id = $1"
                    " ON CONFLICT (player_id) DO UPDATE SET email = false,"
                    " updated_at = now()",
                    p.count, p.values, err))
        return NULL;
    store_reachability_changed();
    return json_pack("{s:s,s:b}", "player", player_ref, "email", 0);
}

char *notify_settings_unsubscribe_page(const char *player_ref,
                                       const char *token, apierr *err)
{
    if (checked_player(player_ref, token, err) == 0)
        return NULL;
    char action[256];
    snprintf(action, sizeof action, "/v1/unsubscribe?player=%s&token=%s",
             player_ref, token);
    templates_var vars[] = {{"action", action}};
    return templates_render_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>Stop notification emails</title></head><body>\n"
        "<p>Stop all turn notification emails to this address? Webhooks and "
        "your matches are not affected; you can turn email on again in your "
        "notification settings.</p>\n"
        "<form method=\"post\" action=\"{{action}}\">"
        "<input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">"
        "<button type=\"submit\">Stop emails</button></form>\n</body></html>\n",
        vars, 1, true);
}
