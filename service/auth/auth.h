/* auth.h: who sent a request. A player's request is signed per RFC 9421
 * (Ed25519) with an RFC 9530 Content-Digest over its body; auth checks the
 * signature policy (httpsig), finds the key, verifies, and says which player
 * it is. Any failure is a 401 with a sentence saying what to fix. */
#ifndef SERVICE_AUTH_AUTH_H
#define SERVICE_AUTH_AUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/apierr.h"
#include "ledger/httpsig.h"
#include "auth/caller.h"

/* Signatures older or newer than this are refused. */
#define AUTH_WINDOW_SECONDS 300

/* The signature of req, parsed and within policy (httpsig_check_policy
 * over AUTH_WINDOW_SECONDS); false with err filled (401) otherwise. Not
 * yet verified: the key is the caller's to find. */
bool auth_signature(const httpsig_request *req, int64_t now,
                    httpsig_signature *sig, apierr *err);

/* Fills *who (its signature member is a new reference the caller releases
 * with auth_caller_free) or returns false with err filled (401). */
bool auth_player(const httpsig_request *req, int64_t now, caller *who,
                 apierr *err);
void auth_caller_free(caller *who);

/* A registration proves it holds the key it registers: it is signed like
 * any player's request, by that key, with the key id the key will get
 * (store_key_id). Fills *who as auth_player does (player_id 0) or returns
 * false with err filled (401). */
bool auth_new_key(const httpsig_request *req, int64_t now,
                  const uint8_t public_key[32], caller *who, apierr *err);

/* Adding a key to an account (POST /v1/players/me/keys) is signed either
 * by one of the player's keys (auth_player) or, like a registration, by
 * the key it adds (auth_new_key; the account then comes from a sign-in
 * link's token). Which one the signature's keyid says: *by_new_key tells.
 * Fills *who as those do, or returns false with err filled (401). */
bool auth_enrolment(const httpsig_request *req, int64_t now,
                    const uint8_t public_key[32], caller *who,
                    bool *by_new_key, apierr *err);

/* Forgets what this process remembers of key_id, so that a key revoked
 * here is refused from the next request on. Other pbemd processes keep
 * their copy for at most AUTH_KEY_CACHE_SECONDS. */
#define AUTH_KEY_CACHE_SECONDS 60
void auth_forget_key(const char *key_id);

/* Fills who's key id, nonce, request digest and signature material (kept
 * in the events the request makes) from a request whose signature sig has
 * been verified. */
void auth_fill_caller(const httpsig_request *req, const httpsig_signature *sig,
                      caller *who);

#endif
