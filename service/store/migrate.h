/* migrate.h: applies the numbered SQL files of migrations/ in order, each
 * once, each in its own transaction, recorded in schema_migrations. Refuses
 * a database that already holds a migration this build does not know (it
 * was migrated by a newer service). Safe to run from several processes at
 * once (an advisory lock serialises them). */
#ifndef SERVICE_STORE_MIGRATE_H
#define SERVICE_STORE_MIGRATE_H

#include <libpq-fe.h>
#include <stdbool.h>

#include "core/apierr.h"

/* Applies what is missing from dir ("migrations"). *applied (may be NULL)
 * receives how many files were applied now. False with err filled. */
bool migrate_apply(PGconn *conn, const char *dir, int *applied, apierr *err);

#endif
