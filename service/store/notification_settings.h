/* notification_settings.h: a player's notification settings
 * (migrations/007_notification_settings.sql), as stored: a row only once
 * the player changed something; without one every default holds.
 * notify/notify_settings.h checks and shows them; the outbox's queueing
 * (store/outbox.h) reads them where it queues. */
#ifndef SERVICE_STORE_NOTIFICATION_SETTINGS_H
#define SERVICE_STORE_NOTIFICATION_SETTINGS_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/apierr.h"

/* One player's settings as written. */
typedef struct store_notification_settings {
    bool email, webhooks;  /* the channels */
    const char *time_zone; /* IANA name (borrowed) */
    int quiet_start;       /* minutes of the day; -1: no quiet hours */
    int quiet_end;         /* likewise */
    bool digest;
    int digest_hour;            /* 0 to 23, local */
    const char *reminder_hours; /* array text, "{24,72}" (borrowed) */
    bool skip_when_seen;        /* no "your turn" email while on the page */
} store_notification_settings;

/* The columns of store_notification_settings_get's row, defaults filled
 * in, in this order. */
enum {
    STORE_NOTIFICATION_SETTINGS_EMAIL,    /* "t" or "f" */
    STORE_NOTIFICATION_SETTINGS_WEBHOOKS, /* "t" or "f" */
    STORE_NOTIFICATION_SETTINGS_TIME_ZONE,
    STORE_NOTIFICATION_SETTINGS_QUIET_START, /* NULL: no quiet hours */
    STORE_NOTIFICATION_SETTINGS_QUIET_END,   /* NULL: no quiet hours */
    STORE_NOTIFICATION_SETTINGS_DIGEST,      /* "t" or "f" */
    STORE_NOTIFICATION_SETTINGS_DIGEST_HOUR,
    STORE_NOTIFICATION_SETTINGS_REMINDERS,      /* JSON array of hours */
    STORE_NOTIFICATION_SETTINGS_SKIP_WHEN_SEEN, /* "t" or "f" */
};

/* player_id's settings: one row, the defaults where the player has set
 * nothing. The caller PQclears; NULL with err filled. */
PGresult *store_notification_settings_get(PGconn *conn, long long player_id,
                                          apierr *err);

/* Whether PostgreSQL knows the time zone called name (*known), as the
 * settings' times are reckoned in it. False with err filled. */
bool store_notification_settings_zone_known(PGconn *conn, const char *name,
                                            bool *known, apierr *err);

/* A moment on player_id's clock, written by format (to_char's) into out,
 * and the zone's name into zone ("UTC" when they set none): at when not
 * NULL (a timestamptz's text, RFC 3339), else at_epoch (unix seconds).
 * False with err filled, an at that is no time included. */
bool store_notification_settings_local_time(PGconn *conn, long long player_id,
                                            const char *at, long long at_epoch,
                                            const char *format, char *out,
                                            size_t size, char *zone,
                                            size_t zone_size, apierr *err);

/* Writes player_id's settings, replacing any. False with err filled. */
bool store_notification_settings_put(
    PGconn *conn, long long player_id,
    const store_notification_settings *settings, apierr *err);

/* Turns email off for player_id, the rest unchanged (nothing when there
 * is no such player). False with err filled. */
bool store_notification_settings_stop_email(PGconn *conn, long long player_id,
                                            apierr *err);

#endif
