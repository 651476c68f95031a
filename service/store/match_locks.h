/* match_locks.h: holding a match's row without waiting for it. A change
 * to a match holds its row for the whole transaction; a worker that would
 * change a match on its own account (the deadline worker) must not wait
 * behind a move in progress while it holds rows that move will want, so
 * it takes the match only when the match is free. */
#ifndef SERVICE_STORE_MATCH_LOCKS_H
#define SERVICE_STORE_MATCH_LOCKS_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Holds match_id's row until the caller's transaction ends, if no other
 * transaction holds it: 1 held, 0 busy (or no such match), -1 with err
 * filled. */
int store_match_locks_try(PGconn *conn, long long match_id, apierr *err);

#endif
