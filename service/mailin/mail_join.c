/* mail_join.c: see mail_join.h. */
#include "mailin/mail_join.h"

#include <stdlib.h>
#include <string.h>

#include "mailin/mail_pending.h"
#include "play/matches.h"
#include "play/retry.h"
#include "store/db.h"
#include "store/invitations.h"
#include "store/players.h"
#include "store/store.h"

long long mail_join_player_of(const char *address, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return -1;
    return store_player_by_email(conn, address, err);
}

/* The invitation's player, made or found once and kept on the invitation
 * row (locked meanwhile), so two answers to one invitation make one
 * player: the address's account, else the account waiting for the address
 * (now its), else a new email-only player. */
static bool invited_player(PGconn *conn, long long invitation_id,
                           long long *match_id, long long *player_id,
                           apierr *err)
{
    if (!store_begin(conn, err))
        return false;
    store_invitation invitation;
    bool found = false;
    if (!store_invitations_lock(conn, invitation_id, &invitation, &found,
                                err))
        goto fail;
    if (!found) {
        apierr_set(err, 404, "no_invitation",
                   "this invitation no longer exists (the match was "
                   "deleted)");
        goto fail;
    }
    *match_id = invitation.match_id;
    if (invitation.player_id != 0) {
        *player_id = invitation.player_id;
        store_rollback(conn);
        return true;
    }
    *player_id = mail_join_player_of(invitation.email, err);
    /* An account registered on the web with the address, its link not
     * opened yet, is the one invited: the invitation went to the address,
     * so its answer proves the mailbox as opening the link would. */
    if (*player_id == 0)
        *player_id = mail_pending_confirm(conn, invitation.email, err);
    char key_id[40];
    bool ok = *player_id >= 0 &&
              (*player_id > 0 ||
               store_create_player(conn, invitation.name, invitation.email,
                                   NULL, player_id, key_id, err));
    if (!ok)
        goto fail;
    if (!store_invitations_set_player(conn, invitation_id, *player_id, err) ||
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
    return store_invitations_accept(conn, invitation_id, err);
}
