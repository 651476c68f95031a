/* mail_failures.h: the addresses whose mail bounced (migrations/
 * 009_mail.sql), as stored: one row per address, kept lower-case, with
 * the start of its current run of bounces, how many, and the last reason.
 * notify/mail_failures.h says what a run is and shows it to the player. */
#ifndef SERVICE_STORE_MAIL_FAILURES_H
#define SERVICE_STORE_MAIL_FAILURES_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Records one bounce of mail to address for reason (cut to 1000 bytes):
 * the address's run goes on when it started less than run_days ago, else
 * a new run starts now with one bounce. False with err filled. */
bool store_mail_failures_record(PGconn *conn, const char *address,
                                const char *reason, int run_days, apierr *err);

/* The columns of store_mail_failures_of_player's row, in this order. */
enum {
    STORE_MAIL_FAILURES_HAS_EMAIL, /* "t" when the player has an address */
    STORE_MAIL_FAILURES_FAILING,   /* "t" while a run is going */
    STORE_MAIL_FAILURES_SINCE,     /* the run's start, RFC 3339 UTC */
    STORE_MAIL_FAILURES_REASON,
    STORE_MAIL_FAILURES_BOUNCES,
};

/* The failures of player_id's address, a run counting as going when it
 * started less than run_days ago: one row, none when there is no such
 * player. The caller PQclears; NULL with err filled. */
PGresult *store_mail_failures_of_player(PGconn *conn, long long player_id,
                                        int run_days, apierr *err);

#endif
