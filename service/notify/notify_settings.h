/* notify_settings.h: a player's notification settings, the resource
 * GET / PUT /v1/players/me/notification-settings:
 *   {"email": true, "webhooks": true,       channels (false: none sent)
 *    "time_zone": "Europe/Paris",           IANA name, for the two below
 *    "quiet_hours": {"from": "22:00", "until": "07:00"} or null,
 *    "digest": false, "digest_hour": 8,     one email a day, local hour
 *    "reminder_hours": [24, 72]}            escalating reminders
 * Quiet hours and digests hold back email only: webhooks serve bots, which
 * do not sleep. Reminders go on every channel (email after quiet hours)
 * and are cancelled once the player acts. PUT replaces the whole settings
 * (absent fields take the defaults above: every channel, UTC, no quiet
 * hours, no digest, no reminders); unknown fields are refused. */
#ifndef SERVICE_NOTIFY_NOTIFY_SETTINGS_H
#define SERVICE_NOTIFY_NOTIFY_SETTINGS_H

#include <jansson.h>

#include "core/apierr.h"

json_t *notify_settings_get(long long player_id, apierr *err);

/* Validates body (400 with the field named) and stores it; answers the
 * settings as GET then shows them. */
json_t *notify_settings_put(long long player_id, const json_t *body,
                            apierr *err);

/* POST /v1/unsubscribe?player=p_…&token=…: the one-click unsubscribe of
 * every mail (RFC 8058; seal_unsubscribe_token): turns the player's email
 * off. 403 when the token is not the player's. */
json_t *notify_settings_unsubscribe(const char *player_ref, const char *token,
                                    apierr *err);

/* GET of the same link (a person clicking it, or a mail scanner fetching
 * it): changes nothing, answers a small HTML page whose button POSTs the
 * one-click form with NOTIFY_SETTINGS_PAGE_FIELD, for a page back. */
char *notify_settings_unsubscribe_page(const char *player_ref,
                                       const char *token, apierr *err);

/* The form field ("then=page") of that button's POST: its answer is a
 * page a person reads (notify_settings_unsubscribed_page), not JSON. */
#define NOTIFY_SETTINGS_PAGE_FIELD "then=page"

/* The page that says email is off, with a link to the settings page
 * (malloc'd). */
char *notify_settings_unsubscribed_page(void);

#endif
