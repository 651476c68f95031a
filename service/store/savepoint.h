/* savepoint.h: a point inside a transaction to go back to, so that one
 * failing step of a batch undoes its own work only and the transaction
 * goes on (the deadline worker fires a batch of rows in one transaction
 * and keeps the others when one fails). One name for every step: a new
 * savepoint hides the one before it until it is released or undone. */
#ifndef SERVICE_STORE_SAVEPOINT_H
#define SERVICE_STORE_SAVEPOINT_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Marks the point; the caller's transaction must be open. */
bool store_savepoint_mark(PGconn *conn, apierr *err);

/* Undoes everything since the latest mark, which stays, and leaves the
 * transaction usable again. */
bool store_savepoint_undo(PGconn *conn, apierr *err);

#endif
