/* admin.c */
#include "auth/admin.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "auth/auth.h"
#include "core/config.h"
#include "store/db.h"
#include "store/request_nonces.h"

const char *admin_public_key(void)
{
    return config_text(CONFIG_ADMIN_KEY);
}

/* A request signed with keyid by the Ed25519 key whose public half is
 * configured (base64) in the environment variable var. */
static bool signed_by_configured(const httpsig_request *req, int64_t now,
                                 const char *keyid, config_var var, caller *who,
                                 apierr *err)
{
    memset(who, 0, sizeof *who);
    const char *variable = config_name(var);
    const char *configured = config_text(var);
    uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES];
    size_t key_len = 0;
    if (configured == NULL || configured[0] == '\0')
        return apierr_set(err, 403, "admin_disabled",
                          "this service has no key for these requests (%s)",
                          variable);
    if (sodium_base642bin(key, sizeof key, configured, strlen(configured), NULL,
                          &key_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len != sizeof key)
        return apierr_set(err, 403, "admin_disabled",
                          "%s is not a base64 Ed25519 public key", variable);
    const char *input = req->header(req->header_ctx, "signature-input");
    const char *signature = req->header(req->header_ctx, "signature");
    if (input == NULL || signature == NULL)
        return apierr_set(err, 401, "unsigned",
                          "these requests must be signed (RFC 9421, ed25519, "
                          "keyid \"%s\")",
                          keyid);
    httpsig_signature sig;
    httpsig_error herr = {{0}};
    if (!httpsig_parse(input, signature, NULL, &sig, &herr) ||
        !httpsig_check_policy(&sig, req, now, AUTH_WINDOW_SECONDS, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    if (!sig.has_keyid || strcmp(sig.keyid, keyid) != 0)
        return apierr_set(err, 401, "not_admin",
                          "these requests are signed with keyid \"%s\"",
                          keyid);
    if (!httpsig_verify(&sig, req, key, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    auth_fill_caller(req, &sig, who);
    return true;
}

/* The configured key of var, decoded into key; false when unset or
 * not a base64 Ed25519 public key. */
static bool configured_key(config_var var,
                           uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES])
{
    const char *configured = config_text(var);
    size_t key_len = 0;
    return configured != NULL && configured[0] != '\0' &&
           sodium_base642bin(key, HTTPSIG_PUBLIC_KEY_BYTES, configured,
                             strlen(configured), NULL, &key_len, NULL,
                             sodium_base64_VARIANT_ORIGINAL) == 0 &&
           key_len == HTTPSIG_PUBLIC_KEY_BYTES;
}

static bool claimed_by(const httpsig_request *req, const char *keyid,
                       config_var var)
{
    uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES];
    if (!configured_key(var, key))
        return false;
    const char *input = req->header(req->header_ctx, "signature-input");
    const char *signature = req->header(req->header_ctx, "signature");
    if (input == NULL || signature == NULL)
        return false;
    httpsig_signature sig;
    httpsig_error herr = {{0}};
    return httpsig_parse(input, signature, NULL, &sig, &herr) &&
           sig.has_keyid && strcmp(sig.keyid, keyid) == 0;
}

bool admin_claimed(const httpsig_request *req)
{
    return claimed_by(req, "admin", CONFIG_ADMIN_KEY);
}

bool admin_claimed_mail(const httpsig_request *req)
{
    return claimed_by(req, "mail", CONFIG_MAIL_INBOUND_KEY);
}

bool admin_check(const httpsig_request *req, int64_t now, caller *who,
                 apierr *err)
{
    return signed_by_configured(req, now, "admin", CONFIG_ADMIN_KEY, who, err);
}

bool admin_check_mail(const httpsig_request *req, int64_t now, caller *who,
                      apierr *err)
{
    return signed_by_configured(req, now, "mail", CONFIG_MAIL_INBOUND_KEY, who,
                                err);
}

bool admin_spend_nonce(const caller *who, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    store_nonce seen = {0};
    int found = store_find_nonce(conn, who->key_id, who->nonce,
                                 who->request_digest, &seen, err);
    free(seen.response);
    if (found < 0)
        return false;
    store_nonce spent = {.status = 200, .response = "{}"};
    if (found == 0 && store_save_nonce(conn, who->key_id, who->nonce,
                                       who->request_digest, &spent, err))
        return true;
    if (found != 0)
        apierr_set(err, 409, "nonce_reused", "used");
    if (strcmp(err->code, "nonce_reused") == 0)
        apierr_set(err, 401, "nonce_reused",
                   "this admin signature was used before: sign each request "
                   "with a new nonce");
    return false;
}
