/* savepoint.c: see savepoint.h. */
#include "store/savepoint.h"

#include "store/db.h"

bool store_savepoint_mark(PGconn *conn, apierr *err)
{
    return db_command(conn, "SAVEPOINT step", 0, NULL, err);
}

bool store_savepoint_undo(PGconn *conn, apierr *err)
{
    return db_command(conn, "ROLLBACK TO SAVEPOINT step", 0, NULL, err);
}
