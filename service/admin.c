/* admin.c */
#include "admin.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"

bool admin_check(const httpsig_request *req, int64_t now, apierr *err)
{
    const char *configured = getenv("PBEM_ADMIN_KEY");
    uint8_t key[HTTPSIG_PUBLIC_KEY_BYTES];
    size_t key_len = 0;
    if (configured == NULL || configured[0] == '\0')
        return apierr_set(err, 403, "admin_disabled",
                          "this service has no admin key (PBEM_ADMIN_KEY)");
    if (sodium_base642bin(key, sizeof key, configured, strlen(configured),
                          NULL, &key_len, NULL,
                          sodium_base64_VARIANT_ORIGINAL) != 0 ||
        key_len != sizeof key)
        return apierr_set(err, 403, "admin_disabled",
                          "PBEM_ADMIN_KEY is not a base64 Ed25519 public key");
    const char *input = req->header(req->header_ctx, "signature-input");
    const char *signature = req->header(req->header_ctx, "signature");
    if (input == NULL || signature == NULL)
        return apierr_set(err, 401, "unsigned",
                          "admin requests must be signed (RFC 9421, ed25519, "
                          "keyid \"admin\")");
    httpsig_signature sig;
    httpsig_error herr = {{0}};
    if (!httpsig_parse(input, signature, NULL, &sig, &herr) ||
        !httpsig_check_policy(&sig, req, now, AUTH_WINDOW_SECONDS, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    if (!sig.has_keyid || strcmp(sig.keyid, "admin") != 0)
        return apierr_set(err, 401, "not_admin",
                          "admin requests are signed with keyid \"admin\"");
    if (!httpsig_verify(&sig, req, key, &herr))
        return apierr_set(err, 401, "bad_signature", "%s", herr.message);
    return true;
}
