/* mail_pending.c: see mail_pending.h. */
#include "mailin/mail_pending.h"

#include <stdio.h>

#include "core/clock.h"
#include "core/log.h"
#include "store/email_confirmations.h"
#include "store/players.h"
#include "store/store.h"

bool mail_pending_find(PGconn *conn, const char *address, mail_pending *out,
                       bool *found, apierr *err)
{
    store_email_confirmation link;
    if (!store_email_confirmations_pending_for(conn, address, clock_now(),
                                               &link, found, err))
        return false;
    if (!*found)
        return true;
    char key_b64[64], key_id[64];
    bool named = false;
    if (!store_player_signing_key(conn, link.player_id, out->name, key_b64,
                                  key_id, &named, err))
        return false;
    if (!named)
        snprintf(out->name, sizeof out->name, "%s", "(your account)");
    out->confirmation_id = link.confirmation_id;
    out->player_id = link.player_id;
    out->expires = link.expires;
    return true;
}

long long mail_pending_confirm(PGconn *conn, const char *address, apierr *err)
{
    store_email_confirmation link;
    bool found = false;
    if (!store_email_confirmations_pending_for(conn, address, clock_now(),
                                               &link, &found, err))
        return -1;
    if (!found)
        return 0;
    if (!store_email_confirmations_confirm(conn, link.confirmation_id,
                                           clock_now(), err) ||
        !store_player_set_email(conn, link.player_id, link.email, err))
        return -1;
    char ref[32];
    store_player_ref(link.player_id, ref);
    log_info("player %s confirmed an address by answering a mail", ref);
    return link.player_id;
}
