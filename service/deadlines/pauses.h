/* pauses.h: when a player's clocks stand still. A player's declared
 * vacations (play/vacations.h records them) pause every deadline of theirs;
 * the deadline rows (deadlines.h) are planned around these spans. */
#ifndef SERVICE_DEADLINES_PAUSES_H
#define SERVICE_DEADLINES_PAUSES_H

#include <libpq-fe.h>

#include "core/apierr.h"
#include "deadlines/deadline_math.h"

/* At most this many vacations of a player pause a clock. */
#define PAUSES_MAX 32

/* The spans in which player_id's clocks stand still, from since on (at
 * most max), into out: the count, or -1 with err filled. */
int pauses_of_player(PGconn *conn, long long player_id, long long since,
                     deadline_span *out, int max, apierr *err);

#endif
