/* admin.h: the service's administrators. An admin signs requests exactly
 * like a player (RFC 9421, ed25519, Content-Digest) with keyid "admin" and
 * the key whose public half is configured as PBEM_ADMIN_KEY (standard
 * base64 of the 32-byte Ed25519 public key). Without PBEM_ADMIN_KEY the
 * admin API answers 403.
 *
 * Admin signatures are single-use, like a player's: a state-changing
 * request retried with the same nonce gets its first answer back and is
 * never applied twice, and any other reuse of a nonce is refused (401). */
#ifndef SERVICE_AUTH_ADMIN_H
#define SERVICE_AUTH_ADMIN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "ledger/httpsig.h"
#include "auth/caller.h"

/* True when req is signed by the admin key, with *who filled (key id
 * "admin", nonce, request digest, signature material; release with
 * auth_caller_free); false with err filled (401, or 403 when no admin key
 * is configured). */
bool admin_check(const httpsig_request *req, int64_t now, caller *who,
                 apierr *err);

/* The same for the mail server's pipe (`pbem mail-in`, POST
 * /v1/mail/inbound): keyid "mail", the key PBEM_MAIL_INBOUND_KEY names
 * (403 without one). It may hand in mail and nothing else. */
bool admin_check_mail(const httpsig_request *req, int64_t now, caller *who,
                      apierr *err);

/* Whether req's signature headers claim keyid "admin" (well-formed
 * Signature-Input and Signature naming it) while PBEM_ADMIN_KEY holds a
 * key. A look at the headers alone, for the server to decide before the
 * body arrives whether a body larger than everyone's cap is worth reading:
 * the signature covers the body's digest, so only admin_check, once the
 * body is in, says whether the admin really signed it. */
bool admin_claimed(const httpsig_request *req);

/* The same for keyid "mail" and PBEM_MAIL_INBOUND_KEY. */
bool admin_claimed_mail(const httpsig_request *req);

/* The configured admin public key in base64 (PBEM_ADMIN_KEY), recorded in
 * the events admins make so anyone can check who signed them. */
const char *admin_public_key(void);

/* Spends the nonce of a request that changes nothing (an export): false
 * with err filled (401 "nonce_reused") when it was used before. */
bool admin_spend_nonce(const caller *who, apierr *err);

#endif
