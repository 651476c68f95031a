/* delegate.c */
#include "auth/delegate.h"

#include <stdio.h>
#include <string.h>

#include "auth/auth.h"
#include "core/clock.h"
#include "store/db.h"
#include "store/delegate_grants.h"
#include "store/store.h"

/* A player rarely grants one key more than a few times (a grant renewed,
 * one revoked); the newest of these decide. */
#define GRANTS_PER_KEY 8

static const char *scope_word(unsigned scope)
{
    return scope == STORE_GRANT_VIEW   ? "view"
           : scope == STORE_GRANT_MOVE ? "move"
                                       : "join";
}

static bool covers_match(const store_grant *grant, long long match_id)
{
    if (grant->all_matches || match_id == 0)
        return true;
    if (match_id == AUTH_DELEGATE_EVERY_MATCH)
        return false;
    for (int i = 0; i < grant->match_count; i++)
        if (grant->match_ids[i] == match_id)
            return true;
    return false;
}

/* Whether grant allows this request now; false with err filled (403)
 * saying why not. */
static bool grant_allows(const store_grant *grant, unsigned scope,
                         long long match_id, long long now, apierr *err)
{
    char ref[32], when[32];
    store_grant_ref(grant->delegate_id, ref);
    if (grant->revoked != 0) {
        clock_format(grant->revoked, when);
        return apierr_set(err, 403, "delegate_revoked",
                          "grant %s of this key was revoked at %s; the "
                          "player must grant the key again",
                          ref, when);
    }
    if (grant->expires <= now) {
        clock_format(grant->expires, when);
        return apierr_set(err, 403, "delegate_expired",
                          "grant %s of this key expired at %s; the player "
                          "must grant the key again",
                          ref, when);
    }
    if (!(grant->scope & scope))
        return apierr_set(err, 403, "delegate_scope",
                          "grant %s does not allow this key to %s; its scope "
                          "is%s%s%s",
                          ref, scope_word(scope),
                          grant->scope & STORE_GRANT_VIEW ? " view" : "",
                          grant->scope & STORE_GRANT_MOVE ? " move" : "",
                          grant->scope & STORE_GRANT_JOIN ? " join" : "");
    if (!covers_match(grant, match_id) &&
        match_id == AUTH_DELEGATE_EVERY_MATCH)
        return apierr_set(err, 403, "delegate_match",
                          "grant %s names some matches only, and this "
                          "stream shows all of the player's; follow each "
                          "granted match with GET /v1/matches/{id}/stream, "
                          "or ask the player for a grant of \"all\" matches",
                          ref);
    if (!covers_match(grant, match_id)) {
        char match[32];
        store_match_ref(match_id, match);
        return apierr_set(err, 403, "delegate_match",
                          "grant %s does not cover match %s; it names "
                          "other matches",
                          ref, match);
    }
    return true;
}

bool auth_delegate(const httpsig_request *req, int64_t now, unsigned scope,
                   long long match_id, caller *who, apierr *err)
{
    memset(who, 0, sizeof *who);
    const char *named = req->header(req->header_ctx, AUTH_ON_BEHALF_OF);
    long long player_id = store_parse_player_ref(named);
    if (player_id == 0)
        return apierr_set(err, 400, "bad_on_behalf_of",
                          "Pbem-On-Behalf-Of must name one player id, such "
                          "as p_12");
    httpsig_signature sig;
    if (!auth_signature(req, now, &sig, err))
        return false;
    static const char *const header[] = {AUTH_ON_BEHALF_OF};
    httpsig_error herr = {{0}};
    if (!httpsig_check_covers(&sig, header, 1, &herr))
        return apierr_set(err, 401, "on_behalf_of_unsigned",
                          "the signature must cover the Pbem-On-Behalf-Of "
                          "header: add \"%s\" to the components of "
                          "Signature-Input",
                          AUTH_ON_BEHALF_OF);
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    store_grant grants[GRANTS_PER_KEY];
    int count = store_grants_of_key(conn, sig.keyid, player_id, grants,
                                    GRANTS_PER_KEY, err);
    if (count < 0)
        return false;
    if (count == 0)
        return apierr_set(err, 401, "unknown_delegate",
                          "key %s is not a delegate of %s: the player grants "
                          "it with POST /v1/players/me/delegates",
                          sig.keyid, named);
    /* Every grant of one key id holds the same public key. */
    if (!httpsig_verify(&sig, req, grants[0].public_key, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    if (scope == 0)
        return apierr_set(err, 403, "delegate_not_allowed",
                          "a delegate key may only view a match, move and "
                          "join; sign this request with the player's own "
                          "key");
    const store_grant *granted =
        auth_delegate_pick(grants, count, scope, match_id, clock_now(), err);
    if (granted == NULL)
        return false;
    auth_fill_caller(req, &sig, who);
    who->player_id = player_id;
    who->delegate_id = granted->delegate_id;
    json_object_set_new(who->signature, "on_behalf_of", json_string(named));
    return true;
}

const store_grant *auth_delegate_pick(const store_grant *grants, int count,
                                      unsigned scope, long long match_id,
                                      long long now, apierr *err)
{
    for (int i = 0; i < count; i++) {
        apierr ignored;
        if (grant_allows(&grants[i], scope, match_id, now, &ignored))
            return &grants[i];
    }
    /* The newest grant says why none allows it. */
    grant_allows(&grants[0], scope, match_id, now, err);
    return NULL;
}

json_t *auth_delegate_json(const caller *who)
{
    if (who == NULL || who->delegate_id == 0)
        return NULL;
    char player[32], grant[32];
    store_player_ref(who->player_id, player);
    store_grant_ref(who->delegate_id, grant);
    return json_pack("{s:s,s:s,s:s}", "player", player, "key_id", who->key_id,
                     "grant", grant);
}
