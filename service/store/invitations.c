/* invitations.c: the rows of mailed invitations (invitations.h). */
#include "store/invitations.h"

#include <stdio.h>
#include <stdlib.h>

#include "store/db.h"
#include "store/db_params.h"

bool store_invitations_insert(PGconn *conn, long long invitation_id,
                              long long match_id, const char *email,
                              const char *name, long long invited_by,
                              apierr *err)
{
    db_params p = {0};
    db_params_int(&p, invitation_id);
    db_params_int(&p, match_id);
    db_params_text(&p, email);
    db_params_text(&p, name);
    db_params_int(&p, invited_by);
    return db_command(conn,
                      "INSERT INTO invitations (invitation_id, match_id, email,"
                      " name, invited_by) VALUES ($1, $2, $3, $4, $5)",
                      p.count, p.values, err);
}

bool store_invitations_lock(PGconn *conn, long long invitation_id,
                            store_invitation *out, bool *found, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, invitation_id);
    PGresult *r = db_query(conn,
                           "SELECT match_id, email, name, player_id"
                           " FROM invitations WHERE invitation_id = $1"
                           " FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) > 0;
    if (*found) {
        out->match_id = atoll(PQgetvalue(r, 0, 0));
        snprintf(out->email, sizeof out->email, "%s", PQgetvalue(r, 0, 1));
        snprintf(out->name, sizeof out->name, "%s", PQgetvalue(r, 0, 2));
        out->player_id = PQgetisnull(r, 0, 3) ? 0 : atoll(PQgetvalue(r, 0, 3));
    }
    PQclear(r);
    return true;
}

bool store_invitations_set_player(PGconn *conn, long long invitation_id,
                                  long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, invitation_id);
    db_params_int(&p, player_id);
    return db_command(conn,
                      "UPDATE invitations SET player_id = $2"
                      " WHERE invitation_id = $1",
                      p.count, p.values, err);
}

bool store_invitations_accept(PGconn *conn, long long invitation_id,
                              apierr *err)
{
    db_params p = {0};
    db_params_int(&p, invitation_id);
    return db_command(conn,
                      "UPDATE invitations SET accepted_at = now()"
                      " WHERE invitation_id = $1 AND accepted_at IS NULL",
                      p.count, p.values, err);
}

bool store_invitations_address(PGconn *conn, long long invitation_id,
                               char *email, size_t size, long long *player_id,
                               apierr *err)
{
    db_params p = {0};
    db_params_int(&p, invitation_id);
    PGresult *r = db_query(conn,
                           "SELECT email, player_id FROM invitations"
                           " WHERE invitation_id = $1",
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
