/* chat_user.c */
#include "auth/chat_user.h"

#include <stdio.h>
#include <string.h>

#include "auth/delegate.h"
#include "core/clock.h"
#include "store/db.h"
#include "store/delegate_grants.h"

bool auth_chat_user(const char *key_id, unsigned scope, long long match_id,
                    caller *who, apierr *err)
{
    memset(who, 0, sizeof *who);
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    store_grant grants[AUTH_CHAT_LINKS_MAX];
    int count =
        store_grants_for_key(conn, key_id, grants, AUTH_CHAT_LINKS_MAX, err);
    if (count < 0)
        return false;
    if (count == 0)
        return apierr_set(err, 401, "not_linked",
                          "this chat account is not linked to a player yet: "
                          "get a code on the page (or with pbem chat-link) "
                          "and type /pbem link CODE");
    const store_grant *granted =
        auth_delegate_pick(grants, count, scope, match_id, clock_now(), err);
    if (granted == NULL)
        return false;
    who->player_id = granted->player_id;
    who->delegate_id = granted->delegate_id;
    snprintf(who->key_id, sizeof who->key_id, "%s", key_id);
    return true;
}
