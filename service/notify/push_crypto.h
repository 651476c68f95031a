/* push_crypto.h: the cryptography of Web Push, with OpenSSL's libcrypto
 * for P-256 (libsodium has none) and libsodium for HMAC-SHA-256.
 *
 * A notice to a browser is encrypted for it alone (RFC 8291, in the
 * aes128gcm content coding of RFC 8188): an ephemeral P-256 key agreed
 * with the browser's key (p256dh), mixed with its 16-byte auth secret,
 * gives the AES-128-GCM key and nonce of one record. The body is the
 * coding's header (salt, record size, the ephemeral public key) and that
 * record; the push service carries it without being able to read it.
 *
 * The request to the push service is signed with the service's VAPID key
 * (RFC 8292): "Authorization: vapid t=<JWT>, k=<public key>", an ES256
 * JWT whose audience is the push service's origin, so a push service
 * knows every notice for a subscription comes from who subscribed it. */
#ifndef SERVICE_NOTIFY_PUSH_CRYPTO_H
#define SERVICE_NOTIFY_PUSH_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PUSH_CRYPTO_KEY_BYTES 65    /* an uncompressed P-256 point */
#define PUSH_CRYPTO_SECRET_BYTES 32 /* a P-256 private scalar */
#define PUSH_CRYPTO_AUTH_BYTES 16
#define PUSH_CRYPTO_SALT_BYTES 16
/* The coding's header: salt, record size, key id length, the key. */
#define PUSH_CRYPTO_HEADER_BYTES (PUSH_CRYPTO_SALT_BYTES + 4 + 1 + 65)
/* The body of a notice of len bytes: the header, len, the record's
 * delimiter and its tag. Push services take 4096 bytes at most. */
#define PUSH_CRYPTO_BODY_BYTES(len) (PUSH_CRYPTO_HEADER_BYTES + (len) + 1 + 16)
#define PUSH_CRYPTO_PLAIN_MAX (4096 - PUSH_CRYPTO_BODY_BYTES(0))
/* "vapid t=" header.claims.signature ", k=" key, for claims of ordinary
 * size (push_crypto_vapid_header refuses longer ones). */
#define PUSH_CRYPTO_VAPID_MAX 1024

/* Whether key is an uncompressed point on P-256 (a browser's p256dh). */
bool push_crypto_valid_key(const uint8_t key[PUSH_CRYPTO_KEY_BYTES]);

/* The public key of secret into public; false when secret is not a
 * P-256 private scalar (zero, or not below the group's order). */
bool push_crypto_public_key(const uint8_t secret[PUSH_CRYPTO_SECRET_BYTES],
                            uint8_t public_key[PUSH_CRYPTO_KEY_BYTES]);

/* Encrypts plain (len bytes, at most PUSH_CRYPTO_PLAIN_MAX) for the
 * browser whose key is ua_public and auth secret auth, with a new
 * ephemeral key and salt, into body, which holds
 * PUSH_CRYPTO_BODY_BYTES(len) bytes. False when ua_public is not a
 * P-256 point, len is too long, or libcrypto failed. */
bool push_crypto_encrypt(const uint8_t ua_public[PUSH_CRYPTO_KEY_BYTES],
                         const uint8_t auth[PUSH_CRYPTO_AUTH_BYTES],
                         const uint8_t *plain, size_t len, uint8_t *body);

/* push_crypto_encrypt with the sender's ephemeral secret and the salt
 * given, so the result is exactly known (RFC 8291's Appendix A). */
bool push_crypto_encrypt_with(const uint8_t as_secret[PUSH_CRYPTO_SECRET_BYTES],
                              const uint8_t salt[PUSH_CRYPTO_SALT_BYTES],
                              const uint8_t ua_public[PUSH_CRYPTO_KEY_BYTES],
                              const uint8_t auth[PUSH_CRYPTO_AUTH_BYTES],
                              const uint8_t *plain, size_t len, uint8_t *body);

/* The Authorization header's value for a request to a push service at
 * audience (its origin, "https://push.example.net"), signed with the
 * VAPID key secret: "vapid t=<JWT>, k=<base64url public key>", the JWT's
 * claims {"aud", "exp": expires (unix seconds), "sub": subject}. False
 * when it does not fit out (size bytes) or libcrypto failed. */
bool push_crypto_vapid_header(const uint8_t secret[PUSH_CRYPTO_SECRET_BYTES],
                              const char *audience, long long expires,
                              const char *subject, char *out, size_t size);

#endif
