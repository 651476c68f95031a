/* mail_failures.c: see mail_failures.h. */
#include "notify/mail_failures.h"

#include <stdlib.h>
#include <string.h>

#include "store/mail_failures.h"

#define ADDRESS_MAX 254

bool mail_failures_record(PGconn *conn, const char *address,
                          const char *reason, apierr *err)
{
    if (address == NULL || strlen(address) < 3 ||
        strlen(address) > ADDRESS_MAX || strchr(address, '@') == NULL)
        return apierr_set(err, 400, "bad_email",
                          "a bounce names the address that failed");
    return store_mail_failures_record(
        conn, address, reason && reason[0] ? reason : "the mail bounced",
        MAIL_FAILURES_DAYS, err);
}

json_t *mail_failures_status(PGconn *conn, long long player_id, apierr *err)
{
    PGresult *r = store_mail_failures_of_player(conn, player_id,
                                                MAIL_FAILURES_DAYS, err);
    if (r == NULL)
        return NULL;
    json_t *status;
    if (PQntuples(r) != 1 ||
        strcmp(PQgetvalue(r, 0, STORE_MAIL_FAILURES_HAS_EMAIL), "t") != 0)
        status = json_null();
    else if (strcmp(PQgetvalue(r, 0, STORE_MAIL_FAILURES_FAILING), "t") != 0)
        status = json_pack("{s:b}", "failing", 0);
    else
        status = json_pack(
            "{s:b,s:s,s:s,s:i}", "failing", 1, "since",
            PQgetvalue(r, 0, STORE_MAIL_FAILURES_SINCE), "reason",
            PQgetvalue(r, 0, STORE_MAIL_FAILURES_REASON), "bounces",
            atoi(PQgetvalue(r, 0, STORE_MAIL_FAILURES_BOUNCES)));
    PQclear(r);
    return status;
}
