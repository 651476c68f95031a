/* table_talk.h: the messages written at a match's table
 * (play/messages.h) that a player has not had by mail yet, as the lines
 * of their next mail about the match: a turn mail, a match-over mail, or
 * the answer to their own mail. No mail goes out for a message alone.
 *
 *   Messages at the table since your last mail:
 *     Alice: Good luck, everyone!
 *     Bob, to you alone: Deal.
 *
 * Only what the player may read: the public messages and the private
 * ones written to them, none of their own, none from a player they
 * muted. */
#ifndef SERVICE_NOTIFY_TABLE_TALK_H
#define SERVICE_NOTIFY_TABLE_TALK_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* At most this many messages ride in one mail (the oldest first); the
 * rest wait for the next. */
#define TABLE_TALK_MAIL_MAX 50

/* The lines above for player_id in match_id (malloc'd; "" when there is
 * nothing new), and the last message they hold into *through (0: none).
 * NULL with err filled when the database failed. */
char *table_talk_unmailed(PGconn *conn, long long match_id, long long player_id,
                          long long *through, apierr *err);

/* Records that player_id's mail about match_id carried the messages up
 * to through (nothing when through is 0). False with err filled. */
bool table_talk_mailed(PGconn *conn, long long match_id, long long player_id,
                       long long through, apierr *err);

#endif
