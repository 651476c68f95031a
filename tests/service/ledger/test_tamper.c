/* Changing anything the signature covers breaks it: the body (through
 * Content-Digest), the path, the method, a covered header, the signature
 * itself, any parameter; and another key does not verify it. */
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>

TestSuite(httpsig_tamper, .init = fx_init);

/* Parses the fields and verifies them over req with the test key. */
static bool check(const char *input, const char *signature,
                  const httpsig_request *req, httpsig_error *err)
{
    unsigned char pk[32];
    fx_public_key(pk);
    httpsig_signature sig;
    return httpsig_parse(input, signature, NULL, &sig, err) &&
           httpsig_verify(&sig, req, pk, err);
}

/* Runs the whole service check, policy included, 60 s after creation. */
static bool check_all(const char *input, const char *signature,
                      const httpsig_request *req, httpsig_error *err)
{
    unsigned char pk[32];
    fx_public_key(pk);
    httpsig_signature sig;
    return httpsig_parse(input, signature, NULL, &sig, err) &&
           httpsig_check_policy(&sig, req, FX_V2_CREATED + 60, 300, err) &&
           httpsig_verify(&sig, req, pk, err);
}

Test(httpsig_tamper, a_flipped_body_byte_fails_the_content_digest)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    char body[] = FX_V2_BODY;
    body[30] ^= 1;
    req.body = (const unsigned char *)body;
    httpsig_error err = {{0}};
    cr_assert(check(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err),
              "the signature covers the digest, not the body itself");
    cr_assert_not(check_all(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err));
    cr_assert_str_eq(err.message,
                     "the body does not match its Content-Digest (sha-256)");
}

Test(httpsig_tamper, a_flipped_path_byte_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    req.target = "/v1/matches/m_43/turns";
    httpsig_error err = {{0}};
    cr_assert_not(check(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err));
    cr_assert_str_eq(err.message, "the signature does not match the request "
                                  "and the key player-key-1");
}

Test(httpsig_tamper, a_path_that_only_decodes_the_same_fails)
{
    /* @path is the raw path: m%5F42 decodes to m_42, but was not signed. */
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    req.target = "/v1/matches/m%5F42/turns";
    httpsig_error err = {{0}};
    cr_assert_not(check(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err));
}

Test(httpsig_tamper, a_changed_method_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    req.method = "PUT";
    httpsig_error err = {{0}};
    cr_assert_not(check(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err));
    req.method = "post";
    cr_assert_not(check(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err));
}

Test(httpsig_tamper, a_changed_covered_header_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector1(&h);
    fx_set(&h, "content-type", "text/plain");
    httpsig_error err = {{0}};
    cr_assert_not(check(FX_V1_INPUT, FX_V1_SIGNATURE, &req, &err));
}

Test(httpsig_tamper, a_replaced_content_digest_fails_both_ways)
{
    /* An attacker who swaps body and digest together breaks the signature;
     * one who swaps only the body breaks the digest. */
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    const char *other = "{\"match_id\":\"m_42\",\"turn\":7,\"move\":\"e2e3\"}";
    char *digest =
        httpsig_content_digest((const unsigned char *)other, strlen(other));
    fx_set(&h, "content-digest", digest);
    req.body = (const unsigned char *)other;
    req.body_len = strlen(other);
    httpsig_error err = {{0}};
    cr_assert_not(check_all(FX_V2_INPUT, FX_V2_SIGNATURE, &req, &err));
    cr_assert_str_eq(err.message, "the signature does not match the request "
                                  "and the key player-key-1");
    free(digest);
}

Test(httpsig_tamper, a_flipped_signature_bit_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    unsigned char pk[32];
    fx_public_key(pk);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, FX_V2_SIGNATURE, NULL, &sig, &err));
    for (size_t i = 0; i < sizeof sig.signature; i += 7) {
        httpsig_signature bad = sig;
        bad.signature[i] ^= 0x10;
        cr_assert_not(httpsig_verify(&bad, &req, pk, &err), "byte %zu", i);
    }
}

Test(httpsig_tamper, a_changed_parameter_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    const char *inputs[] = {
        /* created + 1 */
        "sig=(\"@method\" \"@path\" \"content-digest\");created=1700000001;"
        "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9c\"",
        /* another nonce */
        "sig=(\"@method\" \"@path\" \"content-digest\");created=1700000000;"
        "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9d\"",
        /* another keyid */
        "sig=(\"@method\" \"@path\" \"content-digest\");created=1700000000;"
        "keyid=\"player-key-2\";alg=\"ed25519\";nonce=\"n-7f3a9c\"",
        /* parameters in another order */
        "sig=(\"@method\" \"@path\" \"content-digest\");created=1700000000;"
        "alg=\"ed25519\";keyid=\"player-key-1\";nonce=\"n-7f3a9c\"",
        /* components in another order */
        "sig=(\"@path\" \"@method\" \"content-digest\");created=1700000000;"
        "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9c\"",
        /* a component dropped */
        "sig=(\"@method\" \"@path\");created=1700000000;"
        "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9c\"",
        /* an extra parameter */
        "sig=(\"@method\" \"@path\" \"content-digest\");created=1700000000;"
        "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9c\";tag=\"x\"",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        httpsig_error err = {{0}};
        cr_assert_not(check(inputs[i], FX_V2_SIGNATURE, &req, &err),
                      "input %zu verified", i);
        cr_assert_str_neq(err.message, "");
    }
}

Test(httpsig_tamper, every_single_byte_change_of_the_fields_fails)
{
    /* Replace each byte of each field by each of a few others: the parse or
     * the verification must fail, and nothing may crash. */
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    const char replacements[] = {' ',  '"',    '(',    ')', ';', '=',
                                 ':',  ',',    'A',    'a', '0', '\\',
                                 '\t', '\x7f', '\xff', '*'};
    for (int field = 0; field < 2; field++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s",
                 field == 0 ? FX_V2_INPUT : FX_V2_SIGNATURE);
        size_t len = strlen(buf);
        for (size_t i = 0; i < len; i++) {
            char saved = buf[i];
            for (size_t r = 0; r < sizeof replacements; r++) {
                if (replacements[r] == saved)
                    continue;
                buf[i] = replacements[r];
                httpsig_error err = {{0}};
                bool ok = field == 0 ? check(buf, FX_V2_SIGNATURE, &req, &err)
                                     : check(FX_V2_INPUT, buf, &req, &err);
                cr_assert_not(ok, "field %d byte %zu -> %#x verified", field, i,
                              (unsigned char)replacements[r]);
                cr_assert_str_neq(err.message, "");
            }
            buf[i] = saved;
        }
    }
}

Test(httpsig_tamper, a_wrong_key_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    unsigned char pk[32], sk[64];
    crypto_sign_keypair(pk, sk);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, FX_V2_SIGNATURE, NULL, &sig, &err));
    cr_assert_not(httpsig_verify(&sig, &req, pk, &err));
    cr_assert_str_eq(err.message, "the signature does not match the request "
                                  "and the key player-key-1");
}

Test(httpsig_tamper, a_bad_content_digest_is_detected)
{
    const unsigned char *body = (const unsigned char *)FX_V2_BODY;
    size_t len = strlen(FX_V2_BODY);
    httpsig_error err = {{0}};
    /* the digest of another body */
    cr_assert_not(httpsig_check_content_digest(FX_V1_SHA256, body, len, &err));
    cr_assert_str_eq(err.message,
                     "the body does not match its Content-Digest (sha-256)");
    /* a sha-256 digest filed under sha-512 */
    cr_assert_not(httpsig_check_content_digest(
        "sha-512=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=:", body, len,
        &err));
    cr_assert_str_eq(err.message,
                     "the body does not match its Content-Digest (sha-512)");
    /* one right digest does not excuse a wrong one */
    cr_assert_not(httpsig_check_content_digest(FX_V2_DIGEST ", " FX_V1_SHA512,
                                               body, len, &err));
    /* the body one byte shorter */
    cr_assert_not(
        httpsig_check_content_digest(FX_V2_DIGEST, body, len - 1, &err));
}

Test(httpsig_tamper,
     the_authority_is_compared_case_insensitively_without_default_port)
{
    struct fx_headers h;
    httpsig_request req = fx_vector1(&h);
    httpsig_error err = {{0}};
    req.authority = "EXAMPLE.com:443";
    cr_assert(check(FX_V1_INPUT, FX_V1_SIGNATURE, &req, &err), "%s",
              err.message);
    req.authority = "example.com:8443";
    cr_assert_not(check(FX_V1_INPUT, FX_V1_SIGNATURE, &req, &err));
    req.authority = "example.org";
    cr_assert_not(check(FX_V1_INPUT, FX_V1_SIGNATURE, &req, &err));
}
