/* reliability.h: how reliably players take their turns, read from the
 * deadline rows of their latest matches (migrations/006_deadlines.sql):
 * a turn, a sealed choice or a reveal whose clock closed because the seat
 * acted counts as taken, one whose deadline fired as missed; the windows
 * the rules time (kind 'window') are no turns. Matches without deadlines
 * have no rows, so they count for nothing. */
#ifndef SERVICE_STORE_RELIABILITY_H
#define SERVICE_STORE_RELIABILITY_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* For each of ids[0..count), over the matches they joined last (at most
 * matches of them): turns[i] the turns they had to take, missed[i] those
 * whose deadline fired first. False with err filled. */
bool store_reliability_read(PGconn *conn, const long long *ids, int count,
                            int matches, int *turns, int *missed, apierr *err);

#endif
