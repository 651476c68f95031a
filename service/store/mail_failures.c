/* mail_failures.c: see mail_failures.h. */
#include "store/mail_failures.h"

#include "store/db.h"
#include "store/db_params.h"

#define REASON_MAX "1000"
/* The SQL of a run still going at now(), run_days being parameter $n. */
#define FAILING(alias, n)                                                      \
    alias ".failed_at > now() - make_interval(days => $" n "::int)"

bool store_mail_failures_record(PGconn *conn, const char *address,
                                const char *reason, int run_days, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, address);
    db_params_text(&p, reason);
    db_params_int(&p, run_days);
    /* A run goes on while it is young enough, else starts again. */
    return db_command(
        conn,
        "INSERT INTO mail_failures AS f (email, reason)"
        " VALUES (lower($1), left($2, " REASON_MAX "))"
        " ON CONFLICT (email) DO UPDATE SET"
        "   reason = EXCLUDED.reason,"
        "   bounces = CASE WHEN " FAILING("f", "3")
        " THEN f.bounces + 1 ELSE 1 END,"
        "   failed_at = CASE WHEN " FAILING("f", "3") " THEN f.failed_at"
        "               ELSE now() END",
        p.count, p.values, err);
}

PGresult *store_mail_failures_of_player(PGconn *conn, long long player_id,
                                        int run_days, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, run_days);
    return db_query(
        conn,
        "SELECT p.email IS NOT NULL, coalesce(" FAILING("f", "2") ", false),"
        "   to_char(f.failed_at AT TIME ZONE 'UTC',"
        "           'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'),"
        "   f.reason, f.bounces"
        "  FROM players p LEFT JOIN mail_failures f ON f.email = lower(p.email)"
        " WHERE p.player_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
}
