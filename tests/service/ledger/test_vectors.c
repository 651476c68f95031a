/* The exact vectors of ../shared/vectors/rfc9421.md (copied into
 * fixtures.h): they verify, their signature bases are rebuilt byte for byte,
 * and signing vector 2 again gives the same signature (Ed25519 is
 * deterministic). */
#include "fixtures.h"

#include <stdlib.h>

TestSuite(httpsig_vectors, .init = fx_init);

Test(httpsig_vectors, rfc9421_b26_parses_its_label_components_and_keyid)
{
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V1_INPUT, FX_V1_SIGNATURE, NULL, &sig, &err),
              "%s", err.message);
    cr_assert_str_eq(sig.label, "sig-b26");
    cr_assert_eq(sig.component_count, 6);
    cr_assert_str_eq(sig.components[0], "date");
    cr_assert_str_eq(sig.components[5], "content-length");
    cr_assert(sig.has_created);
    cr_assert_eq(sig.created, 1618884473);
    cr_assert(sig.has_keyid);
    cr_assert_str_eq(sig.keyid, "test-key-ed25519");
    cr_assert(!sig.has_alg);
    cr_assert(!sig.has_nonce);
}

Test(httpsig_vectors, rfc9421_b26_signature_base_is_exact)
{
    struct fx_headers h;
    httpsig_request req = fx_vector1(&h);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V1_INPUT, FX_V1_SIGNATURE, NULL, &sig, &err),
              "%s", err.message);
    char *base = httpsig_signature_base(&sig, &req, &err);
    cr_assert_not_null(base, "%s", err.message);
    cr_assert_str_eq(base, FX_V1_BASE);
    free(base);
}

Test(httpsig_vectors, rfc9421_b26_verifies_with_the_test_key)
{
    struct fx_headers h;
    httpsig_request req = fx_vector1(&h);
    unsigned char pk[32];
    fx_public_key(pk);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(
        httpsig_parse(FX_V1_INPUT, FX_V1_SIGNATURE, "sig-b26", &sig, &err),
        "%s", err.message);
    cr_assert(httpsig_verify(&sig, &req, pk, &err), "%s", err.message);
}

Test(httpsig_vectors, the_seed_gives_the_published_public_key)
{
    unsigned char pk[32], sk[64], published[32];
    fx_keypair(pk, sk);
    fx_public_key(published);
    cr_assert_eq(memcmp(pk, published, 32), 0);
}

Test(httpsig_vectors, turn_submission_parses_its_parameters)
{
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, FX_V2_SIGNATURE, NULL, &sig, &err),
              "%s", err.message);
    cr_assert_str_eq(sig.label, "sig");
    cr_assert_eq(sig.component_count, 3);
    cr_assert_str_eq(sig.components[0], "@method");
    cr_assert_str_eq(sig.components[1], "@path");
    cr_assert_str_eq(sig.components[2], "content-digest");
    cr_assert_eq(sig.created, FX_V2_CREATED);
    cr_assert_str_eq(sig.keyid, "player-key-1");
    cr_assert_str_eq(sig.alg, "ed25519");
    cr_assert_str_eq(sig.nonce, "n-7f3a9c");
    cr_assert_str_eq(sig.params, FX_V2_INPUT + strlen("sig="));
}

Test(httpsig_vectors, turn_submission_signature_base_is_exact)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, FX_V2_SIGNATURE, NULL, &sig, &err),
              "%s", err.message);
    char *base = httpsig_signature_base(&sig, &req, &err);
    cr_assert_not_null(base, "%s", err.message);
    cr_assert_str_eq(base, FX_V2_BASE);
    free(base);
}

Test(httpsig_vectors, turn_submission_verifies_with_the_test_key)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    unsigned char pk[32];
    fx_public_key(pk);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, FX_V2_SIGNATURE, NULL, &sig, &err),
              "%s", err.message);
    cr_assert(httpsig_verify(&sig, &req, pk, &err), "%s", err.message);
}

Test(httpsig_vectors, turn_submission_passes_the_service_policy)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, FX_V2_SIGNATURE, NULL, &sig, &err),
              "%s", err.message);
    cr_assert(httpsig_check_policy(&sig, &req, FX_V2_CREATED + 60, 300, &err),
              "%s", err.message);
}

Test(httpsig_vectors, turn_submission_body_has_the_vectors_content_digest)
{
    char *digest = httpsig_content_digest((const unsigned char *)FX_V2_BODY,
                                          strlen(FX_V2_BODY));
    cr_assert_str_eq(digest, FX_V2_DIGEST);
    free(digest);
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_content_digest(FX_V2_DIGEST,
                                           (const unsigned char *)FX_V2_BODY,
                                           strlen(FX_V2_BODY), &err),
              "%s", err.message);
}

Test(httpsig_vectors, signing_the_turn_submission_reproduces_the_signature)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    h.count = 0; /* the signer computes Content-Digest itself */
    unsigned char pk[32], sk[64];
    fx_keypair(pk, sk);
    const char *components[] = {"@method", "@path", "content-digest"};
    httpsig_headers out;
    httpsig_error err = {{0}};
    cr_assert(httpsig_sign(&req, components, 3, "player-key-1", "n-7f3a9c",
                           FX_V2_CREATED, NULL, sk, &out, &err),
              "%s", err.message);
    cr_assert_str_eq(out.content_digest, FX_V2_DIGEST);
    cr_assert_str_eq(out.signature_input, FX_V2_INPUT);
    cr_assert_str_eq(out.signature, FX_V2_SIGNATURE);
    httpsig_headers_free(&out);
    cr_assert_null(out.signature);
}

Test(httpsig_vectors, rfc9530_sha256_and_rfc9421_sha512_digests_match)
{
    httpsig_error err = {{0}};
    const unsigned char *body = (const unsigned char *)FX_V1_BODY;
    size_t len = strlen(FX_V1_BODY);
    cr_assert(httpsig_check_content_digest(FX_V1_SHA512, body, len, &err), "%s",
              err.message);
    cr_assert(httpsig_check_content_digest(FX_V1_SHA256, body, len, &err), "%s",
              err.message);
    cr_assert(httpsig_check_content_digest(FX_V1_SHA256 ", " FX_V1_SHA512, body,
                                           len, &err),
              "%s", err.message);
}
