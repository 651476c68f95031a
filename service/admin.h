/* admin.h: the service's administrators. An admin signs requests exactly
 * like a player (RFC 9421, ed25519, Content-Digest) with keyid "admin" and
 * the key whose public half is configured as PBEM_ADMIN_KEY (standard
 * base64 of the 32-byte Ed25519 public key). Without PBEM_ADMIN_KEY the
 * admin API answers 403. */
#ifndef SERVICE_ADMIN_H
#define SERVICE_ADMIN_H

#include <stdbool.h>
#include <stdint.h>

#include "apierr.h"
#include "httpsig.h"

/* True when req is signed by the admin key; false with err filled (401,
 * or 403 when no admin key is configured). */
bool admin_check(const httpsig_request *req, int64_t now, apierr *err);

#endif
