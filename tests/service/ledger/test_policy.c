/* The service's rules on top of a valid signature: what must be covered,
 * how fresh it must be, the algorithm, the nonce, the digest. */
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>

TestSuite(httpsig_policy, .init = fx_init);

static httpsig_signature parse(const char *input)
{
    /* Any 64-byte signature will do: policy does not look at it. */
    char signature[256];
    snprintf(signature, sizeof signature, "%.*s=%s", (int)strcspn(input, "="),
             input, FX_V2_SIGNATURE + strlen("sig="));
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(input, signature, NULL, &sig, &err), "%s",
              err.message);
    return sig;
}

Test(httpsig_policy, created_twelve_minutes_ago_is_too_old)
{
    httpsig_signature sig = parse(FX_V2_INPUT);
    httpsig_error err = {{0}};
    cr_assert_not(
        httpsig_check_created(&sig, FX_V2_CREATED + 12 * 60, 300, &err));
    cr_assert_str_eq(err.message, "the signature was created 12 minutes ago; "
                                  "the limit is 5 minutes");
}

Test(httpsig_policy, created_one_second_past_the_window_is_too_old)
{
    httpsig_signature sig = parse(FX_V2_INPUT);
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_created(&sig, FX_V2_CREATED + 300, 300, &err));
    cr_assert_not(httpsig_check_created(&sig, FX_V2_CREATED + 301, 300, &err));
    cr_assert_str_eq(err.message, "the signature was created 301 seconds "
                                  "ago; the limit is 5 minutes");
}

Test(httpsig_policy, created_in_the_future_beyond_the_window_fails)
{
    httpsig_signature sig = parse(FX_V2_INPUT);
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_created(&sig, FX_V2_CREATED - 300, 300, &err));
    cr_assert_not(httpsig_check_created(&sig, FX_V2_CREATED - 3600, 300, &err));
    cr_assert_str_eq(err.message, "the signature was created 60 minutes in "
                                  "the future; the limit is 5 minutes");
}

Test(httpsig_policy, a_signature_without_created_fails)
{
    httpsig_signature sig = parse("sig=(\"@method\");keyid=\"k\";nonce=\"n\"");
    httpsig_error err = {{0}};
    cr_assert_not(httpsig_check_created(&sig, FX_V2_CREATED, 300, &err));
    cr_assert_str_eq(err.message, "the signature has no created time");
}

Test(httpsig_policy, an_expired_signature_fails)
{
    httpsig_signature sig =
        parse("sig=(\"@method\");created=1700000000;expires=1700000030");
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_created(&sig, FX_V2_CREATED + 30, 300, &err));
    cr_assert_not(httpsig_check_created(&sig, FX_V2_CREATED + 90, 300, &err));
    cr_assert_str_eq(err.message, "the signature expired 1 minute ago");
}

Test(httpsig_policy, alg_must_be_ed25519_when_given)
{
    httpsig_error err = {{0}};
    httpsig_signature sig = parse(FX_V2_INPUT);
    cr_assert(httpsig_check_alg(&sig, &err));
    sig = parse(FX_V1_INPUT); /* no alg: the key decides */
    cr_assert(httpsig_check_alg(&sig, &err));
    sig = parse("sig=(\"@method\");created=1;alg=\"hmac-sha256\"");
    cr_assert_not(httpsig_check_alg(&sig, &err));
    cr_assert_str_eq(err.message, "the signature's algorithm must be ed25519");
}

Test(httpsig_policy, a_nonce_is_required)
{
    httpsig_error err = {{0}};
    httpsig_signature sig = parse(FX_V2_INPUT);
    cr_assert(httpsig_check_nonce(&sig, &err));
    sig = parse(FX_V1_INPUT);
    cr_assert_not(httpsig_check_nonce(&sig, &err));
    cr_assert_str_eq(err.message, "the signature has no nonce");
    sig = parse("sig=(\"@method\");nonce=\"\"");
    cr_assert_not(httpsig_check_nonce(&sig, &err));
}

Test(httpsig_policy, a_body_requires_content_digest_to_be_covered)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    httpsig_signature sig =
        parse("sig=(\"@method\" \"@path\");created=1700000000;"
              "keyid=\"player-key-1\";alg=\"ed25519\";nonce=\"n-7f3a9c\"");
    httpsig_error err = {{0}};
    cr_assert_not(httpsig_check_policy(&sig, &req, FX_V2_CREATED, 300, &err));
    cr_assert_str_eq(err.message, "the signature does not cover "
                                  "content-digest");
    /* Without a body the same signature is enough. */
    req.body = NULL;
    req.body_len = 0;
    h.count = 0;
    cr_assert(httpsig_check_policy(&sig, &req, FX_V2_CREATED, 300, &err), "%s",
              err.message);
}

Test(httpsig_policy, a_query_requires_query_to_be_covered)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    req.target = FX_V2_TARGET "?after=3";
    httpsig_signature sig = parse(FX_V2_INPUT);
    httpsig_error err = {{0}};
    cr_assert_not(httpsig_check_policy(&sig, &req, FX_V2_CREATED, 300, &err));
    cr_assert_str_eq(err.message, "the signature does not cover @query");
}

Test(httpsig_policy, target_uri_covers_path_and_query)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    req.target = FX_V2_TARGET "?after=3";
    httpsig_signature sig =
        parse("sig=(\"@method\" \"@target-uri\" \"content-digest\");"
              "created=1700000000;nonce=\"n\"");
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_policy(&sig, &req, FX_V2_CREATED, 300, &err), "%s",
              err.message);
    const char *required[] = {"@method", "@path", "@query", "content-digest"};
    cr_assert(httpsig_check_covers(&sig, required, 4, &err), "%s", err.message);
    const char *more[] = {"@authority"};
    cr_assert_not(httpsig_check_covers(&sig, more, 1, &err));
    cr_assert_str_eq(err.message, "the signature does not cover @authority");
}

Test(httpsig_policy, the_method_must_be_covered)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    httpsig_signature sig = parse(
        "sig=(\"@path\" \"content-digest\");created=1700000000;nonce=\"n\"");
    httpsig_error err = {{0}};
    cr_assert_not(httpsig_check_policy(&sig, &req, FX_V2_CREATED, 300, &err));
    cr_assert_str_eq(err.message, "the signature does not cover @method");
}

Test(httpsig_policy, a_body_without_content_digest_fails)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    h.count = 0;
    httpsig_error err = {{0}};
    cr_assert_not(
        httpsig_check_content_digest(NULL, req.body, req.body_len, &err));
    cr_assert_str_eq(err.message,
                     "the request has a body but no Content-Digest");
    /* no body, no digest: fine */
    cr_assert(httpsig_check_content_digest(NULL, NULL, 0, &err));
}

Test(httpsig_policy, sha512_content_digest_is_accepted)
{
    const char *body = "{\"seq\":3,\"action\":\"pass\"}";
    unsigned char hash[crypto_hash_sha512_BYTES];
    crypto_hash_sha512(hash, (const unsigned char *)body, strlen(body));
    char b64[sodium_base64_ENCODED_LEN(crypto_hash_sha512_BYTES,
                                       sodium_base64_VARIANT_ORIGINAL)];
    sodium_bin2base64(b64, sizeof b64, hash, sizeof hash,
                      sodium_base64_VARIANT_ORIGINAL);
    char field[256];
    snprintf(field, sizeof field, "sha-512=:%s:", b64);
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_content_digest(field, (const unsigned char *)body,
                                           strlen(body), &err),
              "%s", err.message);
}

Test(httpsig_policy, unknown_digest_algorithms_are_ignored_but_not_enough)
{
    const unsigned char *body = (const unsigned char *)FX_V2_BODY;
    size_t len = strlen(FX_V2_BODY);
    httpsig_error err = {{0}};
    cr_assert(httpsig_check_content_digest("md5=:AAAA:, " FX_V2_DIGEST, body,
                                           len, &err),
              "%s", err.message);
    cr_assert_not(httpsig_check_content_digest("md5=:AAAA:", body, len, &err));
    cr_assert_str_eq(err.message,
                     "Content-Digest has no sha-256 or sha-512 digest");
    cr_assert_not(
        httpsig_check_content_digest("sha-256=\"abc\"", body, len, &err));
    cr_assert_str_eq(err.message, "Content-Digest's sha-256 is not a byte "
                                  "sequence (:base64:)");
}

Test(httpsig_policy, an_empty_body_may_carry_a_digest)
{
    char *digest = httpsig_content_digest(NULL, 0);
    httpsig_error err = {{0}};
    cr_assert_str_eq(digest,
                     "sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:");
    cr_assert(httpsig_check_content_digest(digest, NULL, 0, &err));
    free(digest);
}
