/* mail_confirmations.c: see mail_confirmations.h. */
#include "store/mail_confirmations.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_mail_confirmations_insert(PGconn *conn, long long confirmation_id,
                                     const char *email, const char *name,
                                     const char *commands, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, confirmation_id);
    db_params_text(&p, email);
    db_params_text(&p, name);
    db_params_text(&p, commands);
    return db_command(conn,
                      "INSERT INTO mail_confirmations (confirmation_id,"
                      " email, name, commands) VALUES ($1, $2, $3,"
                      " left($4, 65536))",
                      p.count, p.values, err);
}

bool store_mail_confirmations_address(PGconn *conn, long long confirmation_id,
                                      char *email, size_t size,
                                      long long *player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, confirmation_id);
    PGresult *r = db_query(conn,
                           "SELECT email, player_id"
                           " FROM mail_confirmations"
                           " WHERE confirmation_id = $1",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    email[0] = '\0';
    *player_id = 0;
    if (PQntuples(r) > 0) {
        snprintf(email, size, "%s", PQgetvalue(r, 0, 0));
        if (!PQgetisnull(r, 0, 1))
            *player_id = atoll(PQgetvalue(r, 0, 1));
    }
    PQclear(r);
    return true;
}

PGresult *store_mail_confirmations_lock(PGconn *conn, long long confirmation_id,
                                        apierr *err)
{
    db_params p = {0};
    db_params_int(&p, confirmation_id);
    return db_query(conn,
                    "SELECT email, name, commands, player_id"
                    " FROM mail_confirmations"
                    " WHERE confirmation_id = $1 FOR UPDATE",
                    p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_mail_confirmations_confirm(PGconn *conn, long long confirmation_id,
                                      long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, confirmation_id);
    db_params_int(&p, player_id);
    return db_command(conn,
                      "UPDATE mail_confirmations SET player_id = $2,"
                      " confirmed_at = coalesce(confirmed_at, now())"
                      " WHERE confirmation_id = $1",
                      p.count, p.values, err);
}
