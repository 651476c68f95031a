/* push_crypto.c: see push_crypto.h. */
#include "notify/push_crypto.h"

#include <jansson.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RFC 8188's record size: the one record of a notice fits in it. */
#define RECORD_SIZE 4096

bool push_crypto_public_key(const uint8_t secret[PUSH_CRYPTO_SECRET_BYTES],
                            uint8_t public_key[PUSH_CRYPTO_KEY_BYTES])
{
    EC_GROUP *group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BIGNUM *d = BN_bin2bn(secret, PUSH_CRYPTO_SECRET_BYTES, NULL);
    EC_POINT *point = group ? EC_POINT_new(group) : NULL;
    bool ok = point != NULL && d != NULL && !BN_is_zero(d) &&
              BN_cmp(d, EC_GROUP_get0_order(group)) < 0 &&
              EC_POINT_mul(group, point, d, NULL, NULL, NULL) == 1 &&
              EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED,
                                 public_key, PUSH_CRYPTO_KEY_BYTES,
                                 NULL) == PUSH_CRYPTO_KEY_BYTES;
    EC_POINT_free(point);
    BN_clear_free(d);
    EC_GROUP_free(group);
    return ok;
}

/* A P-256 key from its public point and, when secret is not NULL, its
 * private scalar; NULL when the point is not on the curve. */
static EVP_PKEY *make_key(const uint8_t *secret,
                          const uint8_t public_key[PUSH_CRYPTO_KEY_BYTES])
{
    if (public_key[0] != 0x04)
        return NULL;
    OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
    BIGNUM *d =
        secret ? BN_bin2bn(secret, PUSH_CRYPTO_SECRET_BYTES, NULL) : NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL, *check = NULL;
    EVP_PKEY *key = NULL;
    if (build == NULL || (secret != NULL && d == NULL) ||
        OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME,
                                        "prime256v1", 0) != 1 ||
        OSSL_PARAM_BLD_push_octet_string(build, OSSL_PKEY_PARAM_PUB_KEY,
                                         public_key,
                                         PUSH_CRYPTO_KEY_BYTES) != 1 ||
        (d != NULL &&
         OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_PRIV_KEY, d) != 1))
        goto fail;
    params = OSSL_PARAM_BLD_to_param(build);
    ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (params == NULL || ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1 ||
        EVP_PKEY_fromdata(ctx, &key,
                          secret ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                          params) != 1)
        goto fail;
    /* A browser's key is hostile until it is a point on the curve. */
    check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
    if (check == NULL || EVP_PKEY_public_check(check) != 1) {
        EVP_PKEY_free(key);
        key = NULL;
    }
fail:
    EVP_PKEY_CTX_free(check);
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    BN_clear_free(d);
    OSSL_PARAM_BLD_free(build);
    return key;
}

bool push_crypto_valid_key(const uint8_t key[PUSH_CRYPTO_KEY_BYTES])
{
    EVP_PKEY *k = make_key(NULL, key);
    EVP_PKEY_free(k);
    return k != NULL;
}

/* HMAC-SHA-256(key, a || b || c), any part may be empty: the extract and
 * the one-block expand of HKDF are both this. */
static void hmac(const uint8_t *key, size_t key_len, const void *a,
                 size_t a_len, const void *b, size_t b_len, const void *c,
                 size_t c_len, uint8_t out[32])
{
    crypto_auth_hmacsha256_state state;
    crypto_auth_hmacsha256_init(&state, key, key_len);
    crypto_auth_hmacsha256_update(&state, a, a_len);
    crypto_auth_hmacsha256_update(&state, b, b_len);
    crypto_auth_hmacsha256_update(&state, c, c_len);
    crypto_auth_hmacsha256_final(&state, out);
}

/* HKDF-Expand(prk, info, len) for len <= 32: the first block. */
static void expand(const uint8_t prk[32], const char *info, size_t info_len,
                   uint8_t *out, size_t len)
{
    static const uint8_t one = 1;
    uint8_t block[32];
    hmac(prk, 32, info, info_len, &one, 1, NULL, 0, block);
    memcpy(out, block, len);
    sodium_memzero(block, sizeof block);
}

/* The ECDH secret of mine and peer's public point. */
static bool agree(EVP_PKEY *mine, EVP_PKEY *peer, uint8_t secret[32])
{
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_pkey(NULL, mine, NULL);
    size_t len = 32;
    bool ok = ctx != NULL && EVP_PKEY_derive_init(ctx) == 1 &&
              EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
              EVP_PKEY_derive(ctx, secret, &len) == 1 && len == 32;
    EVP_PKEY_CTX_free(ctx);
    return ok;
}

/* AES-128-GCM of plain || 0x02 (the last record's delimiter, RFC 8188)
 * under key and nonce into out, the tag after it. */
static bool seal_record(const uint8_t key[16], const uint8_t nonce[12],
                        const uint8_t *plain, size_t len, uint8_t *out)
{
    static const uint8_t delimiter = 2;
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0, last = 0, more = 0;
    bool ok =
        ctx != NULL &&
        EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) == 1 &&
        (len == 0 || EVP_EncryptUpdate(ctx, out, &n, plain, (int)len) == 1) &&
        EVP_EncryptUpdate(ctx, out + n, &more, &delimiter, 1) == 1 &&
        EVP_EncryptFinal_ex(ctx, out + n + more, &last) == 1 &&
        EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16,
                            out + n + more + last) == 1 &&
        (size_t)(n + more + last) == len + 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

bool push_crypto_encrypt_with(const uint8_t as_secret[PUSH_CRYPTO_SECRET_BYTES],
                              const uint8_t salt[PUSH_CRYPTO_SALT_BYTES],
                              const uint8_t ua_public[PUSH_CRYPTO_KEY_BYTES],
                              const uint8_t auth[PUSH_CRYPTO_AUTH_BYTES],
                              const uint8_t *plain, size_t len, uint8_t *body)
{
    if (len > PUSH_CRYPTO_PLAIN_MAX)
        return false;
    uint8_t as_public[PUSH_CRYPTO_KEY_BYTES];
    if (!push_crypto_public_key(as_secret, as_public))
        return false;
    EVP_PKEY *mine = make_key(as_secret, as_public);
    EVP_PKEY *peer = make_key(NULL, ua_public);
    uint8_t ecdh[32], prk_key[32], ikm[32], prk[32], cek[16], nonce[12];
    bool ok = mine != NULL && peer != NULL && agree(mine, peer, ecdh);
    EVP_PKEY_free(mine);
    EVP_PKEY_free(peer);
    if (ok) {
        /* RFC 8291 section 3.4: the auth secret and both public keys
         * bind the input keying material to this browser. */
        static const char key_info[] = "WebPush: info"; /* and its NUL */
        static const uint8_t one = 1;
        hmac(auth, PUSH_CRYPTO_AUTH_BYTES, ecdh, sizeof ecdh, NULL, 0, NULL, 0,
             prk_key);
        crypto_auth_hmacsha256_state state;
        crypto_auth_hmacsha256_init(&state, prk_key, sizeof prk_key);
        crypto_auth_hmacsha256_update(&state, (const uint8_t *)key_info,
                                      sizeof key_info);
        crypto_auth_hmacsha256_update(&state, ua_public, PUSH_CRYPTO_KEY_BYTES);
        crypto_auth_hmacsha256_update(&state, as_public, PUSH_CRYPTO_KEY_BYTES);
        crypto_auth_hmacsha256_update(&state, &one, 1);
        crypto_auth_hmacsha256_final(&state, ikm);
        /* RFC 8188 section 2.2: the content encryption key and nonce. */
        static const char cek_info[] = "Content-Encoding: aes128gcm";
        static const char nonce_info[] = "Content-Encoding: nonce";
        hmac(salt, PUSH_CRYPTO_SALT_BYTES, ikm, sizeof ikm, NULL, 0, NULL, 0,
             prk);
        expand(prk, cek_info, sizeof cek_info, cek, sizeof cek);
        expand(prk, nonce_info, sizeof nonce_info, nonce, sizeof nonce);
        uint8_t *p = body;
        memcpy(p, salt, PUSH_CRYPTO_SALT_BYTES);
        p += PUSH_CRYPTO_SALT_BYTES;
        *p++ = (RECORD_SIZE >> 24) & 0xff;
        *p++ = (RECORD_SIZE >> 16) & 0xff;
        *p++ = (RECORD_SIZE >> 8) & 0xff;
        *p++ = RECORD_SIZE & 0xff;
        *p++ = PUSH_CRYPTO_KEY_BYTES;
        memcpy(p, as_public, PUSH_CRYPTO_KEY_BYTES);
        p += PUSH_CRYPTO_KEY_BYTES;
        ok = seal_record(cek, nonce, plain, len, p);
    }
    sodium_memzero(ecdh, sizeof ecdh);
    sodium_memzero(prk_key, sizeof prk_key);
    sodium_memzero(ikm, sizeof ikm);
    sodium_memzero(prk, sizeof prk);
    sodium_memzero(cek, sizeof cek);
    return ok;
}

bool push_crypto_encrypt(const uint8_t ua_public[PUSH_CRYPTO_KEY_BYTES],
                         const uint8_t auth[PUSH_CRYPTO_AUTH_BYTES],
                         const uint8_t *plain, size_t len, uint8_t *body)
{
    uint8_t secret[PUSH_CRYPTO_SECRET_BYTES], public_key[PUSH_CRYPTO_KEY_BYTES],
        salt[PUSH_CRYPTO_SALT_BYTES];
    /* A random 32 bytes is a valid scalar but for about 2^-32 of them. */
    do
        randombytes_buf(secret, sizeof secret);
    while (!push_crypto_public_key(secret, public_key));
    randombytes_buf(salt, sizeof salt);
    bool ok = push_crypto_encrypt_with(secret, salt, ua_public, auth, plain,
                                       len, body);
    sodium_memzero(secret, sizeof secret);
    return ok;
}

/* base64url without padding of len bytes at the end of out; false when it
 * does not fit. */
static bool append_b64(char *out, size_t size, const void *bytes, size_t len)
{
    size_t used = strlen(out);
    size_t need = sodium_base64_ENCODED_LEN(
        len, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    if (used + need > size)
        return false;
    sodium_bin2base64(out + used, size - used, bytes, len,
                      sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return true;
}

/* ES256 over data: r || s, 32 bytes each (JWS, RFC 7518 section 3.4). */
static bool sign_es256(EVP_PKEY *key, const char *data, uint8_t signature[64])
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t der[80];
    size_t der_len = sizeof der;
    bool ok = md != NULL &&
              EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) == 1 &&
              EVP_DigestSign(md, der, &der_len, (const uint8_t *)data,
                             strlen(data)) == 1;
    EVP_MD_CTX_free(md);
    if (!ok)
        return false;
    const uint8_t *p = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
    if (sig == NULL)
        return false;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(sig, &r, &s);
    ok = BN_bn2binpad(r, signature, 32) == 32 &&
         BN_bn2binpad(s, signature + 32, 32) == 32;
    ECDSA_SIG_free(sig);
    return ok;
}

bool push_crypto_vapid_header(const uint8_t secret[PUSH_CRYPTO_SECRET_BYTES],
                              const char *audience, long long expires,
                              const char *subject, char *out, size_t size)
{
    uint8_t public_key[PUSH_CRYPTO_KEY_BYTES];
    if (!push_crypto_public_key(secret, public_key))
        return false;
    static const char header[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
    json_t *claims = json_pack("{s:s,s:I,s:s}", "aud", audience, "exp",
                               (json_int_t)expires, "sub", subject);
    char *claims_text =
        claims ? json_dumps(claims, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(claims);
    if (claims_text == NULL)
        return false;
    char signing[PUSH_CRYPTO_VAPID_MAX] = "";
    bool ok = append_b64(signing, sizeof signing, header, strlen(header)) &&
              strlen(signing) + 1 < sizeof signing;
    if (ok) {
        strcat(signing, ".");
        ok = append_b64(signing, sizeof signing, claims_text,
                        strlen(claims_text));
    }
    free(claims_text);
    EVP_PKEY *key = ok ? make_key(secret, public_key) : NULL;
    uint8_t signature[64];
    ok = key != NULL && sign_es256(key, signing, signature);
    EVP_PKEY_free(key);
    if (!ok)
        return false;
    int n = snprintf(out, size, "vapid t=%s.", signing);
    if (n < 0 || (size_t)n >= size)
        return false;
    if (!append_b64(out, size, signature, sizeof signature) ||
        strlen(out) + 4 >= size)
        return false;
    strcat(out, ", k=");
    return append_b64(out, size, public_key, sizeof public_key);
}
