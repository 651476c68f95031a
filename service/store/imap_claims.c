/* imap_claims.c: see imap_claims.h. */
#include "store/imap_claims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"

int store_imap_claims_hold(PGconn *conn, const char *mailbox,
                           const uint32_t *uids, size_t count, bool take,
                           bool *held, apierr *err)
{
    memset(held, 0, count * sizeof *held);
    if (count == 0)
        return 0;
    /* "{7,8,12}": at most 64 UIDs of 10 digits. */
    size_t size = count * 11 + 3, used = 0;
    char *array = malloc(size);
    if (array == NULL)
        abort();
    array[used++] = '{';
    for (size_t i = 0; i < count; i++)
        used += (size_t)snprintf(array + used, size - used, "%s%u",
                                 i ? "," : "", uids[i]);
    snprintf(array + used, size - used, "}");
    const char *params[] = {mailbox, array};
    /* Seed 10: the mail door's message locks use 9 (mail_messages.c), so
     * the two never share a key by design. The key is the mailbox, '#'
     * and the UID in decimal, one per message. */
    PGresult *r =
        db_query(conn,
                 take ? "SELECT pg_try_advisory_lock("
                        "hashtextextended($1 || '#' || u::text, 10))"
                        " FROM unnest($2::bigint[]) WITH ORDINALITY AS t(u, i)"
                        " ORDER BY i"
                      : "SELECT pg_advisory_unlock("
                        "hashtextextended($1 || '#' || u::text, 10))"
                        " FROM unnest($2::bigint[]) WITH ORDINALITY AS t(u, i)"
                        " ORDER BY i",
                 2, params, PGRES_TUPLES_OK, err);
    free(array);
    if (r == NULL)
        return -1;
    int got = 0;
    for (int i = 0; i < PQntuples(r) && (size_t)i < count; i++) {
        held[i] = strcmp(PQgetvalue(r, i, 0), "t") == 0;
        got += held[i];
    }
    PQclear(r);
    return got;
}
