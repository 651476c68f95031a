/* players_seen.h: when each player was last seen on the web page
 * (migrations/022_mail_merge_and_seen.sql), as stored. notify/notify_seen.h
 * says what counts as seen and marks it; the outbox's queueing
 * (store/outbox.h) reads it to spare a "your turn" email. */
#ifndef SERVICE_STORE_PLAYERS_SEEN_H
#define SERVICE_STORE_PLAYERS_SEEN_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* player_id was seen now. False with err filled. */
bool store_players_seen_mark(PGconn *conn, long long player_id, apierr *err);

#endif
