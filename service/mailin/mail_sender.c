/* mail_sender.c: see mail_sender.h. */
#include "mailin/mail_sender.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/config.h"
#include "mailin/mail_authres.h"
#include "mailin/mail_join.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/invitations.h"
#include "store/mail_confirmations.h"
#include "store/mail_messages.h"
#include "store/players.h"

static bool refused(mail_sender *out, const char *fmt, const char *a,
                    const char *b)
{
    out->door = MAIL_DOOR_REFUSED;
    snprintf(out->why, sizeof out->why, fmt, a, b);
    return true;
}

/* The address a kind of token was made for: the player's, the
 * invitation's or the confirmation's; "" when it no longer exists. */
static bool address_of(PGconn *conn, const reply_token *token, char *out,
                       size_t size, long long *player_id, apierr *err)
{
    if (token->kind == REPLY_TOKEN_SEAT ||
        token->kind == REPLY_TOKEN_ACCOUNT) {
        bool found = false;
        if (!store_player_address(conn, token->subject, out, size, &found,
                                  err))
            return false;
        *player_id = found ? token->subject : 0;
        return true;
    }
    if (token->kind == REPLY_TOKEN_INVITATION)
        return store_invitations_address(conn, token->subject, out, size,
                                         player_id, err);
    return store_mail_confirmations_address(conn, token->subject, out, size,
                                            player_id, err);
}

/* The token in the first recipient that is one of our reply addresses;
 * "" for the bare address (or none of ours: a pipe may show only the
 * alias it was delivered to). */
static void our_token(const mail_message *message,
                      char token[REPLY_TOKEN_CHARS + 1])
{
    token[0] = '\0';
    for (size_t i = 0; i < message->recipient_count; i++) {
        char found[REPLY_TOKEN_CHARS + 1];
        if (reply_token_in_address(message->recipients[i], found) &&
            found[0] != '\0') {
            memcpy(token, found, sizeof found);
            return;
        }
    }
}

static bool authenticated(const mail_message *message, mail_sender *out)
{
    const char *trusted = config_text(CONFIG_MAIL_TRUST_AUTHSERV_ID);
    if (trusted == NULL) {
        snprintf(out->authentication, sizeof out->authentication,
                 "reply address");
        return true;
    }
    char why[160];
    if (!mail_authres_pass(message->authentication_results,
                           message->authentication_result_count, trusted,
                           message->from_domain, why, sizeof why)) {
        refused(out,
                "the receiving mail server could not confirm that this mail "
                "comes from %s (%s); the service only acts on mail whose "
                "sender's domain signs it (DKIM) or passes DMARC",
                message->from_domain, why);
        return false;
    }
    snprintf(out->authentication, sizeof out->authentication,
             "reply address; %s", why[0] ? why : "authenticated");
    return true;
}

bool mail_sender_identify(const mail_message *message, const char *key,
                          mail_sender *out, apierr *err)
{
    memset(out, 0, sizeof *out);
    out->seat = -1;
    if (!authenticated(message, out))
        return true;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    char text[REPLY_TOKEN_CHARS + 1];
    our_token(message, text);
    if (text[0] == '\0') {
        out->door = MAIL_DOOR_BARE;
        out->player_id = mail_join_player_of(message->from, err);
        return out->player_id >= 0;
    }
    reply_token token;
    char why[256];
    if (!reply_token_read(text, clock_now(), &token, why, sizeof why))
        return refused(out, "%s%s", why, "");
    memcpy(out->token_id, token.id, sizeof out->token_id);
    char spender[1001];
    if (!store_mail_tokens_spent_by(conn, token.id, spender, sizeof spender,
                                    err))
        return false;
    if (spender[0] != '\0' && strcmp(spender, key) != 0)
        return refused(out,
                       "this reply address was already used by an earlier "
                       "mail (each one works once); answer the latest mail "
                       "from the service%s%s",
                       "", "");
    char address[256];
    long long player_id;
    if (!address_of(conn, &token, address, sizeof address, &player_id, err))
        return false;
    if (address[0] == '\0' || strcasecmp(address, message->from) != 0)
        return refused(out,
                       "this mail comes from %s, which is not the address "
                       "the reply address was made for; answer from the "
                       "address the service writes to%s",
                       message->from, "");
    out->player_id = player_id;
    switch (token.kind) {
    case REPLY_TOKEN_SEAT:
        out->door = MAIL_DOOR_SEAT;
        out->match_id = token.match_id;
        out->seat = token.seat;
        break;
    case REPLY_TOKEN_ACCOUNT:
        out->door = MAIL_DOOR_ACCOUNT;
        break;
    case REPLY_TOKEN_INVITATION:
        out->door = MAIL_DOOR_INVITATION;
        out->invitation_id = token.subject;
        out->match_id = token.match_id;
        break;
    case REPLY_TOKEN_CONFIRMATION:
        out->door = MAIL_DOOR_CONFIRMATION;
        out->confirmation_id = token.subject;
        break;
    }
    return true;
}

bool mail_sender_spend(mail_sender *sender, const char *key, apierr *err)
{
    if (sender->door == MAIL_DOOR_REFUSED || sender->token_id[0] == '\0')
        return true;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    if (!store_mail_tokens_spend(conn, sender->token_id, key, err))
        return false;
    char spender[1001];
    if (!store_mail_tokens_spent_by(conn, sender->token_id, spender,
                                    sizeof spender, err))
        return false;
    if (strcmp(spender, key) != 0)
        refused(sender,
                "this reply address was used by another mail a moment ago "
                "(each one works once); answer the latest mail from the "
                "service%s%s",
                "", "");
    return true;
}
