/* mail_time.h: a moment as a mail tells it to its reader, on their own
 * clock: "14:05 (Europe/Paris)" with the zone of their settings (settings
 * zone), or "14:05 UTC" when they set none; with the day when it is not
 * about the next hours ("Mon 30 Nov 2026 at 14:05 (Europe/Paris)"). */
#ifndef SERVICE_NOTIFY_MAIL_TIME_H
#define SERVICE_NOTIFY_MAIL_TIME_H

#include <libpq-fe.h>
#include <stdbool.h>

#define MAIL_TIME_MAX 96

/* at_epoch (unix seconds) on player_id's clock into out. On a database
 * error, the UTC time. */
void mail_time_at(PGconn *conn, long long player_id, long long at_epoch,
                  bool with_day, char out[MAIL_TIME_MAX]);

/* The same of an RFC 3339 time (a payload's "due_at"); out is at as it
 * came when it cannot be read. */
void mail_time_of(PGconn *conn, long long player_id, const char *at,
                  bool with_day, char out[MAIL_TIME_MAX]);

#endif
