/* notify_settings.c */
#include "notify/notify_settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "store/db.h"
#include "ledger/seal.h"
#include "store/notification_settings.h"
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

/* The settings of r's row (STORE_NOTIFICATION_SETTINGS_… columns). */
static json_t *settings_json(const PGresult *r)
{
    json_t *quiet = json_null();
    if (!PQgetisnull(r, 0, STORE_NOTIFICATION_SETTINGS_QUIET_START)) {
        int from = atoi(
            PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_QUIET_START));
        int until =
            atoi(PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_QUIET_END));
        char from_text[16], until_text[16];
        snprintf(from_text, sizeof from_text, "%02d:%02d", from / 60, from % 60);
        snprintf(until_text, sizeof until_text, "%02d:%02d", until / 60,
                 until % 60);
        quiet = json_pack("{s:s,s:s}", "from", from_text, "until", until_text);
    }
    json_t *reminders = json_loads(
        PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_REMINDERS), 0, NULL);
    return json_pack(
        "{s:b,s:b,s:s,s:o,s:b,s:i,s:o,s:b}", "email",
        PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_EMAIL)[0] == 't',
        "webhooks",
        PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_WEBHOOKS)[0] == 't',
        "time_zone", PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_TIME_ZONE),
        "quiet_hours", quiet, "digest",
        PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_DIGEST)[0] == 't',
        "digest_hour",
        atoi(PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_DIGEST_HOUR)),
        "reminder_hours", reminders ? reminders : json_array(),
        "skip_when_seen",
        PQgetvalue(r, 0, STORE_NOTIFICATION_SETTINGS_SKIP_WHEN_SEEN)[0] == 't');
}

json_t *notify_settings_get(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    PGresult *r = store_notification_settings_get(conn, player_id, err);
    if (r == NULL)
        return NULL;
    json_t *settings = settings_json(r);
    PQclear(r);
    return settings;
}

static bool check_fields(const json_t *body, apierr *err)
{
    static const char *const known[] = {
        "email",  "webhooks",    "time_zone",      "quiet_hours",
        "digest", "digest_hour", "reminder_hours", "skip_when_seen"};
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
                              "digest, digest_hour, reminder_hours and "
                              "skip_when_seen",
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
    bool email = true, webhooks = true, digest = false, skip = true;
    char reminders[128];
    if (!check_fields(body, err) ||
        !boolean_field(body, "email", true, &email, err) ||
        !boolean_field(body, "skip_when_seen", true, &skip, err) ||
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
    bool zone_known;
    if (!store_notification_settings_zone_known(conn, tz, &zone_known, err))
        return NULL;
    if (!zone_known)
        return apierr_set(err, 400, "bad_settings",
                          "\"%.64s\" is not a time zone this server knows; use "
                          "an IANA name like \"America/New_York\"",
                          tz),
               NULL;
    store_notification_settings settings = {
        .email = email,
        .webhooks = webhooks,
        .time_zone = tz,
        .quiet_start = from,
        .quiet_end = until,
        .digest = digest,
        .digest_hour = hour ? (int)json_integer_value(hour) : 8,
        .reminder_hours = reminders,
        .skip_when_seen = skip,
    };
    if (!store_notification_settings_put(conn, player_id, &settings, err))
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
    if (!store_notification_settings_stop_email(conn, player_id, err))
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
        "<input type=\"hidden\" name=\"then\" value=\"page\">"
        "<button type=\"submit\">Stop emails</button></form>\n</body></html>\n",
        vars, 1, true);
}

char *notify_settings_unsubscribed_page(void)
{
    char settings[512];
    snprintf(settings, sizeof settings, "%s/settings",
             config_text(CONFIG_PUBLIC_URL) ? config_text(CONFIG_PUBLIC_URL)
                                            : "");
    templates_var vars[] = {{"settings", settings}};
    return templates_render_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>Notification emails stopped</title></head><body>\n"
        "<p>Done: no more turn notification emails go to this address. Your "
        "matches and webhooks go on as before.</p>\n"
        "<p>To have them again, turn email on in your "
        "<a href=\"{{settings}}\">notification settings</a>.</p>\n"
        "</body></html>\n",
        vars, 1, true);
}
