/* seal.h: the service's secrets, with libsodium. A service key file (32
 * random bytes, mode 0600, outside the database) encrypts what must not be
 * readable from the database, such as each match's secret seed. A match's
 * randomness is derived from that seed and the players' public entropy, and
 * the seed is committed in the match's first event and revealed at its end,
 * so anyone can replay the match and check every shuffle. */
#ifndef SERVICE_LEDGER_SEAL_H
#define SERVICE_LEDGER_SEAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/apierr.h"

#define SEAL_SEED_BYTES 32
#define SEAL_HASH_BYTES 32
/* Ciphertext overhead of seal_encrypt: nonce + authentication tag. */
#define SEAL_OVERHEAD (24 + 16)

/* Loads the key from path, creating it (0600) when the file does not exist.
 * False with err filled when it cannot be read or created. */
bool seal_load_key(const char *path, apierr *err);

/* A fresh random 32-byte match seed. */
void seal_new_seed(uint8_t seed[SEAL_SEED_BYTES]);

/* BLAKE2b-256("pbem/seed-commitment/v1" || seed): published at creation. */
void seal_seed_commitment(const uint8_t seed[SEAL_SEED_BYTES],
                          uint8_t commitment[SEAL_HASH_BYTES]);

/* The seed the rules engine plays with: BLAKE2b-256 over the domain
 * "pbem/match-seed/v1", the secret seed, then each seat's public entropy
 * (32 bytes, zeros when a player gave none) in seat order. */
void seal_match_seed(const uint8_t seed[SEAL_SEED_BYTES],
                     const uint8_t (*entropy)[32], int seats,
                     uint8_t match_seed[SEAL_SEED_BYTES]);

#define SEAL_NONCE_BYTES 32

/* The commitment to a sealed choice, the same formula clients use:
 * BLAKE2b-256("pbem/choice-commitment/v1" 0x00 match_ref 0x00 decision
 *             0x00 seat-in-decimal 0x00 canonical-choice 0x00 nonce)
 * where match_ref is the public id ("m_123"), canonical-choice the action's
 * JSON with sorted keys and no whitespace, and nonce 32 random bytes. */
void seal_choice_commitment(const char *match_ref, const char *decision,
                            int seat, const char *canonical_choice,
                            const uint8_t nonce[SEAL_NONCE_BYTES],
                            uint8_t commitment[SEAL_HASH_BYTES]);

/* Whether choice (an action, borrowed) and nonce open commitment, the
 * seat's commitment to decision in match_ref: seal_choice_commitment over
 * the choice's JSON with sorted keys (rules_sorted_json), compared in
 * constant time. Every check of a reveal (the service's, verify's) is this
 * one. */
bool seal_choice_opens(const char *match_ref, const char *decision, int seat,
                       const json_t *choice,
                       const uint8_t nonce[SEAL_NONCE_BYTES],
                       const uint8_t commitment[SEAL_HASH_BYTES]);

/* A key of len bytes (16 to 64) for one purpose, derived from the service
 * key with crypto_kdf: context names the purpose in exactly 8 characters
 * ("replytok"), so keys for different purposes never coincide and the
 * service key itself is never used twice. */
void seal_derive_key(const char context[8], uint8_t *key, size_t len);

/* Encrypts plain (len bytes) for match_id with XChaCha20-Poly1305, the match
 * id as associated data. out must hold len + SEAL_OVERHEAD bytes. */
void seal_encrypt(long long match_id, const uint8_t *plain, size_t len,
                  uint8_t *out);

/* Inverse of seal_encrypt; false if the ciphertext was altered or belongs to
 * another match. out must hold len - SEAL_OVERHEAD bytes. */
bool seal_decrypt(long long match_id, const uint8_t *sealed, size_t len,
                  uint8_t *out);

/* The token of a player's one-click unsubscribe link (RFC 8058): keyed
 * BLAKE2b-256 of "pbem/unsubscribe/v1" and the player id under a key
 * derived from the service key, in lower-case hex (64 characters + NUL).
 * It never expires; it only ever turns email off. */
#define SEAL_TOKEN_TEXT 65
void seal_unsubscribe_token(long long player_id, char out[SEAL_TOKEN_TEXT]);

/* Whether token is player_id's, compared in constant time. */
bool seal_unsubscribe_check(long long player_id, const char *token);

#endif
