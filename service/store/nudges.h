/* nudges.h: the nudges players sent to the seats a match waits for
 * (migrations/007_notification_settings.sql), as stored. play/nudge.h
 * decides who may be nudged and queues the notifications; this module
 * keeps the rows, from which a seat's next allowed nudge is reckoned. */
#ifndef SERVICE_STORE_NUDGES_H
#define SERVICE_STORE_NUDGES_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Holds the lock that makes a match's nudges take turns (the match row's)
 * until the caller's transaction ends, so two nudgers cannot both find a
 * seat free to nudge. False with err filled. */
bool store_nudges_lock(PGconn *conn, long long match_id, apierr *err);

/* Seconds from now until seat of match_id may be nudged again, a nudge
 * being allowed window_seconds after the last: 0 when it may be now
 * (never nudged included). -1 with err filled on a database error. */
long long store_nudges_wait(PGconn *conn, long long match_id, int seat,
                            long long window_seconds, apierr *err);

/* Records that by_player nudged seat of match_id at event seq; the new
 * nudge's id in *nudge_id. False with err filled. */
bool store_nudges_insert(PGconn *conn, long long match_id, long long seq,
                         int seat, long long by_player, long long *nudge_id,
                         apierr *err);

#endif
