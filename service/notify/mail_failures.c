/* mail_failures.c: see mail_failures.h. */
#include "notify/mail_failures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"

#define ADDRESS_MAX 254
#define REASON_MAX "1000"
/* The SQL of a run still going at now(). */
#define FAILING(alias)                                                       \
    alias ".failed_at > now() - make_interval(days => "                      \
    STRINGIFY(MAIL_FAILURES_DAYS) ")"
#define STRINGIFY(x) STRINGIFY_(x)
#define STRINGIFY_(x) #x

bool mail_failures_record(PGconn *conn, const char *address,
                          const char *reason, apierr *err)
{
    if (address == NULL || strlen(address) < 3 ||
        strlen(address) > ADDRESS_MAX || strchr(address, '@') == NULL)
        return apierr_set(err, 400, "bad_email",
                          "a bounce names the address that failed");
    db_params p = {0};
    db_params_text(&p, address);
    db_params_text(&p, reason && reason[0] ? reason : "the mail bounced");
    /* A run goes on while it is young enough, else starts again. */
    return db_command(
        conn,
        "INSERT INTO mail_failures AS f (email, reason)"
        " VALUES (lower($1), left($2, " REASON_MAX "))"
        " ON CONFLICT (email) DO UPDATE SET"
        "   reason = EXCLUDED.reason,"
        "   bounces = CASE WHEN " FAILING("f") " THEN f.bounces + 1 ELSE 1 END,"
        "   failed_at = CASE WHEN " FAILING("f") " THEN f.failed_at"
        "               ELSE now() END",
        p.count, p.values, err);
}

json_t *mail_failures_status(PGconn *conn, long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(
        conn,
        "SELECT p.email IS NOT NULL, coalesce(" FAILING("f") ", false),"
        "   to_char(f.failed_at AT TIME ZONE 'UTC',"
        "           'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"
        "   f.reason, f.bounces"
        "  FROM players p LEFT JOIN mail_failures f ON f.email = lower(p.email)"
        " WHERE p.player_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *status;
    if (PQntuples(r) != 1 || strcmp(PQgetvalue(r, 0, 0), "t") != 0)
        status = json_null();
    else if (strcmp(PQgetvalue(r, 0, 1), "t") != 0)
        status = json_pack("{s:b}", "failing", 0);
    else
        status = json_pack("{s:b,s:s,s:s,s:i}", "failing", 1, "since",
                           PQgetvalue(r, 0, 2), "reason", PQgetvalue(r, 0, 3),
                           "bounces", atoi(PQgetvalue(r, 0, 4)));
    PQclear(r);
    return status;
}
