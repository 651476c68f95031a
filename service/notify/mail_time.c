/* mail_time.c: see mail_time.h. */
#include "notify/mail_time.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/notification_settings.h"

/* to_char's forms: an hour of today or tomorrow, or a day and an hour. */
#define HOUR_FORM "HH24:MI"
#define DAY_FORM "Dy FMDD Mon YYYY \"at\" HH24:MI"

/* "14:05 UTC" or "14:05 (Europe/Paris)". */
static void with_zone(const char *clock, const char *zone,
                      char out[MAIL_TIME_MAX])
{
    if (strcmp(zone, "UTC") == 0 || strcmp(zone, "Etc/UTC") == 0)
        snprintf(out, MAIL_TIME_MAX, "%s UTC", clock);
    else
        snprintf(out, MAIL_TIME_MAX, "%s (%s)", clock, zone);
}

static bool local(PGconn *conn, long long player_id, const char *at,
                  long long at_epoch, bool with_day, char out[MAIL_TIME_MAX])
{
    char clock[64], zone[72];
    apierr err;
    if (conn == NULL ||
        !store_notification_settings_local_time(
            conn, player_id, at, at_epoch, with_day ? DAY_FORM : HOUR_FORM,
            clock, sizeof clock, zone, sizeof zone, &err))
        return false;
    with_zone(clock, zone, out);
    return true;
}

void mail_time_at(PGconn *conn, long long player_id, long long at_epoch,
                  bool with_day, char out[MAIL_TIME_MAX])
{
    if (local(conn, player_id, NULL, at_epoch, with_day, out))
        return;
    time_t t = (time_t)at_epoch;
    struct tm tm;
    gmtime_r(&t, &tm);
    char clock[64];
    strftime(clock, sizeof clock, with_day ? "%a %-d %b %Y at %H:%M" : "%H:%M",
             &tm);
    with_zone(clock, "UTC", out);
}

void mail_time_of(PGconn *conn, long long player_id, const char *at,
                  bool with_day, char out[MAIL_TIME_MAX])
{
    if (at == NULL || !local(conn, player_id, at, 0, with_day, out))
        snprintf(out, MAIL_TIME_MAX, "%s", at ? at : "");
}
