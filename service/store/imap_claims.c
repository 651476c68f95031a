/* imap_claims.c: see imap_claims.h. */
#include "store/imap_claims.h"

#include <stdio.h>
#include <string.h>

#include "store/db.h"

int store_imap_claims_hold(PGconn *conn, const char *mailbox, uint32_t uid,
                           bool take, apierr *err)
{
    char number[16];
    snprintf(number, sizeof number, "%u", uid);
    const char *params[] = {mailbox, number};
    /* Seed 10: the mail door's message locks use 9 (mail_messages.c), so
     * the two never share a key by design. */
    PGresult *r = db_query(conn,
                           take ? "SELECT pg_try_advisory_lock("
                                  "hashtextextended($1 || '#' || $2, 10))"
                                : "SELECT pg_advisory_unlock("
                                  "hashtextextended($1 || '#' || $2, 10))",
                           2, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int got = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return got;
}
