/* mail_join.c: see mail_join.h. */
#include "mailin/mail_join.h"

#include <stdlib.h>
#include <string.h>

#include "play/matches.h"
#include "play/retry.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/players.h"
#include "store/store.h"

long long mail_join_player_of(const char *address, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return -1;
    const char *params[] = {address};
    PGresult *r = db_query(conn,
                           "SELECT player_id FROM players"
                           " WHERE lower(email) = lower($1)"
                           " ORDER BY created_at, player_id LIMIT 1",
                           1, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    long long id = PQntuples(r) ? atoll(PQgetvalue(r, 0, 0)) : 0;
    PQclear(r);
    return id;
}

/* The invitation's player, made or found once and kept on the invitation
 * row (locked meanwhile), so two answers to one invitation make one
 * player. */
static bool invited_player(PGconn *conn, long long invitation_id,
                           long long *match_id, long long *player_id,
                           apierr *err)
{
    db_params p = {0};
    db_params_int(&p, invitation_id);
    if (!store_begin(conn, err))
        return false;
    PGresult *r = db_query(conn,
                           "SELECT match_id, email, name, player_id"
                           " FROM invitations WHERE invitation_id = $1"
                           " FOR UPDATE",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        goto fail;
    if (PQntuples(r) == 0) {
        PQclear(r);
        apierr_set(err, 404, "no_invitation",
                   "this invitation no longer exists (the match was "
                   "deleted)");
        goto fail;
    }
    *match_id = atoll(PQgetvalue(r, 0, 0));
    if (!PQgetisnull(r, 0, 3)) {
        *player_id = atoll(PQgetvalue(r, 0, 3));
        PQclear(r);
        store_rollback(conn);
        return true;
    }
    char *email = strdup(PQgetvalue(r, 0, 1));
    char *name = strdup(PQgetvalue(r, 0, 2));
    PQclear(r);
    *player_id = mail_join_player_of(email, err);
    char key_id[40];
    bool ok = *player_id >= 0 &&
              (*player_id > 0 ||
               store_create_player(conn, name, email, NULL, player_id, key_id,
                                   err));
    free(email);
    free(name);
    if (!ok)
        goto fail;
    db_params u = {0};
    db_params_int(&u, invitation_id);
    db_params_int(&u, *player_id);
    if (!db_command(conn,
                    "UPDATE invitations SET player_id = $2"
                    " WHERE invitation_id = $1",
                    u.count, u.values, err) ||
        !store_commit(conn, err))
        goto fail;
    return true;
fail:
    store_rollback(conn);
    return false;
}

bool mail_join_accept(long long invitation_id, const caller *base,
                      long long *match_id, long long *player_id, int *seat,
                      apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL ||
        !invited_player(conn, invitation_id, match_id, player_id, err))
        return false;
    caller who = *base;
    who.player_id = *player_id;
    retry_answer stored = {0};
    int seen = retry_find(&who, &stored, err);
    if (seen < 0)
        return false;
    json_t *answer = NULL;
    if (seen == 1) {
        answer = json_loads(stored.body ? stored.body : "{}", 0, NULL);
        free(stored.body);
        if (stored.status >= 400) {
            /* A stored refusal has the API's error shape. */
            const json_t *error = json_object_get(answer, "error");
            apierr_set(err, stored.status, "refused", "%s",
                       json_string_value(json_object_get(error, "message"))
                           ?: "the join was refused");
            json_decref(answer);
            return false;
        }
    } else {
        json_t *body = json_object();
        answer = matches_join(&who, *match_id, body, err);
        json_decref(body);
        if (answer == NULL)
            return false;
    }
    *seat = (int)json_integer_value(json_object_get(answer, "seat"));
    json_decref(answer);
    db_params p = {0};
    db_params_int(&p, invitation_id);
    return db_command(conn,
                      "UPDATE invitations SET accepted_at = now()"
                      " WHERE invitation_id = $1 AND accepted_at IS NULL",
                      p.count, p.values, err);
}
