/* fixtures.h: the vectors of ../shared/vectors/rfc9421.md, copied here so the
 * suite does not read files, and a small header table for requests. */
#ifndef TESTS_SERVICE_LEDGER_FIXTURES_H
#define TESTS_SERVICE_LEDGER_FIXTURES_H

#include "ledger/httpsig.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

/* The RFC's test-key-ed25519. */
#define FX_SEED_HEX                                                            \
    "9f8362f87a484a954e6e740c5b4c0e84229139a20aa8ab56ff66586f6a7d29c5"
#define FX_PUBLIC_KEY_B64 "JrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs="

/* Vector 1: RFC 9421 appendix B.2.6. */
#define FX_V1_INPUT                                                            \
    "sig-b26=(\"date\" \"@method\" \"@path\" \"@authority\" "                  \
    "\"content-type\" \"content-length\");created=1618884473;"                 \
    "keyid=\"test-key-ed25519\""
#define FX_V1_SIGNATURE                                                        \
    "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPi" \
    "u4A0w6vuQv5lIp5WPpBKRCw==:"
#define FX_V1_BASE                                                             \
    "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n"                                \
    "\"@method\": POST\n"                                                      \
    "\"@path\": /foo\n"                                                        \
    "\"@authority\": example.com\n"                                            \
    "\"content-type\": application/json\n"                                     \
    "\"content-length\": 18\n"                                                 \
    "\"@signature-params\": (\"date\" \"@method\" \"@path\" \"@authority\" "   \
    "\"content-type\" \"content-length\");created=1618884473;"                 \
    "keyid=\"test-key-ed25519\""
/* The body of the RFC's test request, and its digests from RFC 9421 B.2
 * (sha-512) and RFC 9530 (sha-256). */
#define FX_V1_BODY "{\"hello\": \"world\"}"
#define FX_V1_SHA512                                                           \
    "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7B" \
    "NNyealdVLvRwEmTHWXvJwew==:"
#define FX_V1_SHA256 "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"

/* Vector 2: a turn submission with a body. */
#define FX_V2_TARGET "/v1/matches/m_42/turns"
#define FX_V2_BODY "{\"match_id\":\"m_42\",\"turn\":7,\"move\":\"e2e4\"}"
#define FX_V2_DIGEST "sha-256=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=:"
#define FX_V2_INPUT                                                            \
    "sig=(\"@method\" \"@path\" \"content-digest\");created=1700000000;"       \
    "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9c\""
#define FX_V2_SIGNATURE                                                        \
    "sig=:"                                                                    \
    "LLkR1LDjwjXEhhVWZZIpATnJNjdxKbEx7v4GOE0t2Epi3KNdkG5E0TRjMkU89JhgrzlM"     \
    "rJVuYpSzDtrPuQ0fDg==:"
#define FX_V2_BASE                                                             \
    "\"@method\": POST\n"                                                      \
    "\"@path\": /v1/matches/m_42/turns\n"                                      \
    "\"content-digest\": "                                                     \
    "sha-256=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=:\n"                 \
    "\"@signature-params\": (\"@method\" \"@path\" \"content-digest\");"       \
    "created=1700000000;keyid=\"player-key-1\";alg=\"ed25519\";"               \
    "nonce=\"n-7f3a9c\""
#define FX_V2_CREATED 1700000000

/* Request headers as a table the lookup callback searches. */
struct fx_headers {
    size_t count;
    const char *name[16];
    const char *value[16];
};

static inline const char *fx_lookup(void *ctx, const char *name)
{
    const struct fx_headers *h = ctx;
    for (size_t i = 0; i < h->count; i++)
        if (strcmp(h->name[i], name) == 0)
            return h->value[i];
    return NULL;
}

static inline void fx_set(struct fx_headers *h, const char *name,
                          const char *value)
{
    for (size_t i = 0; i < h->count; i++)
        if (strcmp(h->name[i], name) == 0) {
            h->value[i] = value;
            return;
        }
    cr_assert_lt(h->count, 16);
    h->name[h->count] = name;
    h->value[h->count] = value;
    h->count++;
}

static inline void fx_init(void)
{
    cr_assert_geq(sodium_init(), 0, "sodium_init failed");
}

static inline void fx_keypair(unsigned char pk[32], unsigned char sk[64])
{
    unsigned char seed[32];
    size_t len = 0;
    cr_assert_eq(sodium_hex2bin(seed, sizeof seed, FX_SEED_HEX,
                                strlen(FX_SEED_HEX), NULL, &len, NULL),
                 0);
    cr_assert_eq(len, 32);
    cr_assert_eq(crypto_sign_seed_keypair(pk, sk, seed), 0);
}

static inline void fx_public_key(unsigned char pk[32])
{
    size_t len = 0;
    cr_assert_eq(sodium_base642bin(pk, 32, FX_PUBLIC_KEY_B64,
                                   strlen(FX_PUBLIC_KEY_B64), NULL, &len, NULL,
                                   sodium_base64_VARIANT_ORIGINAL),
                 0);
    cr_assert_eq(len, 32);
}

/* RFC 9421's test request, POST /foo to example.com. */
static inline httpsig_request fx_vector1(struct fx_headers *h)
{
    memset(h, 0, sizeof *h);
    fx_set(h, "date", "Tue, 20 Apr 2021 02:07:55 GMT");
    fx_set(h, "content-type", "application/json");
    fx_set(h, "content-length", "18");
    fx_set(h, "content-digest", FX_V1_SHA512);
    return (httpsig_request){
        .method = "POST",
        .target = "/foo?param=Value&Pet=dog",
        .scheme = "https",
        .authority = "example.com",
        .header = fx_lookup,
        .header_ctx = h,
        .body = (const unsigned char *)FX_V1_BODY,
        .body_len = strlen(FX_V1_BODY),
    };
}

/* The turn submission of vector 2. */
static inline httpsig_request fx_vector2(struct fx_headers *h)
{
    memset(h, 0, sizeof *h);
    fx_set(h, "content-digest", FX_V2_DIGEST);
    fx_set(h, "content-type", "application/json");
    return (httpsig_request){
        .method = "POST",
        .target = FX_V2_TARGET,
        .scheme = "http",
        .authority = "127.0.0.1:8080",
        .header = fx_lookup,
        .header_ctx = h,
        .body = (const unsigned char *)FX_V2_BODY,
        .body_len = strlen(FX_V2_BODY),
    };
}

#endif
