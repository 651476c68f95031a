/* Signing, and the derived components: what httpsig_sign writes, httpsig
 * verifies, for every component the module supports. */
#include "fixtures.h"

#include <stdlib.h>

TestSuite(httpsig_sign, .init = fx_init);

static void sign_and_verify(const httpsig_request *req,
                            const char *const *components, size_t count,
                            const char *expected_base)
{
    unsigned char pk[32], sk[64];
    crypto_sign_keypair(pk, sk);
    httpsig_headers out;
    httpsig_error err = {{0}};
    cr_assert(httpsig_sign(req, components, count, "k-1", "nonce-1", 1700000123,
                           "pbem", sk, &out, &err),
              "%s", err.message);
    httpsig_signature sig;
    cr_assert(
        httpsig_parse(out.signature_input, out.signature, "pbem", &sig, &err),
        "%s", err.message);
    char *base = httpsig_signature_base(&sig, req, &err);
    cr_assert_not_null(base, "%s", err.message);
    cr_assert_str_eq(base, expected_base);
    free(base);
    cr_assert(httpsig_verify(&sig, req, pk, &err), "%s", err.message);
    httpsig_headers_free(&out);
}

Test(httpsig_sign, every_derived_component_round_trips)
{
    struct fx_headers h = {0};
    fx_set(&h, "x-list", "  a, b ,c\t");
    httpsig_request req = {
        .method = "GET",
        .target = "/v1/matches/m%2042/events?after=3&q=%7B%7D",
        .scheme = "HTTPS",
        .authority = "Play.Example.org:443",
        .header = fx_lookup,
        .header_ctx = &h,
    };
    const char *components[] = {"@method", "@target-uri",     "@authority",
                                "@scheme", "@request-target", "@path",
                                "@query",  "x-list"};
    sign_and_verify(
        &req, components, 8,
        "\"@method\": GET\n"
        "\"@target-uri\": https://play.example.org"
        "/v1/matches/m%2042/events?after=3&q=%7B%7D\n"
        "\"@authority\": play.example.org\n"
        "\"@scheme\": https\n"
        "\"@request-target\": /v1/matches/m%2042/events?after=3&q=%7B%7D\n"
        "\"@path\": /v1/matches/m%2042/events\n"
        "\"@query\": ?after=3&q=%7B%7D\n"
        "\"x-list\": a, b ,c\n"
        "\"@signature-params\": (\"@method\" \"@target-uri\" \"@authority\" "
        "\"@scheme\" \"@request-target\" \"@path\" \"@query\" \"x-list\");"
        "created=1700000123;keyid=\"k-1\";alg=\"ed25519\";nonce=\"nonce-1\"");
}

Test(httpsig_sign, an_absent_query_is_a_lone_question_mark)
{
    httpsig_request req = {.method = "GET", .target = "/v1/games"};
    const char *components[] = {"@path", "@query"};
    sign_and_verify(&req, components, 2,
                    "\"@path\": /v1/games\n"
                    "\"@query\": ?\n"
                    "\"@signature-params\": (\"@path\" \"@query\");"
                    "created=1700000123;keyid=\"k-1\";alg=\"ed25519\";"
                    "nonce=\"nonce-1\"");
}

Test(httpsig_sign, an_absolute_form_target_gives_its_path_and_query)
{
    httpsig_request req = {.method = "GET",
                           .target = "http://example.com/a%2Fb?x=1"};
    const char *components[] = {"@path", "@query"};
    sign_and_verify(&req, components, 2,
                    "\"@path\": /a%2Fb\n"
                    "\"@query\": ?x=1\n"
                    "\"@signature-params\": (\"@path\" \"@query\");"
                    "created=1700000123;keyid=\"k-1\";alg=\"ed25519\";"
                    "nonce=\"nonce-1\"");
}

Test(httpsig_sign, no_body_gives_no_content_digest)
{
    unsigned char pk[32], sk[64];
    fx_keypair(pk, sk);
    httpsig_request req = {.method = "GET", .target = "/v1/games"};
    const char *components[] = {"@method", "@path"};
    httpsig_headers out;
    httpsig_error err = {{0}};
    cr_assert(
        httpsig_sign(&req, components, 2, NULL, NULL, 5, NULL, sk, &out, &err),
        "%s", err.message);
    cr_assert_null(out.content_digest);
    cr_assert_str_eq(out.signature_input,
                     "sig=(\"@method\" \"@path\");created=5;alg=\"ed25519\"");
    httpsig_headers_free(&out);
}

Test(httpsig_sign, keyid_and_nonce_are_escaped_as_strings)
{
    unsigned char pk[32], sk[64];
    fx_keypair(pk, sk);
    httpsig_request req = {.method = "GET", .target = "/"};
    const char *components[] = {"@method"};
    httpsig_headers out;
    httpsig_error err = {{0}};
    cr_assert(httpsig_sign(&req, components, 1, "a\"b\\c", "n", 5, NULL, sk,
                           &out, &err),
              "%s", err.message);
    httpsig_signature sig;
    cr_assert(
        httpsig_parse(out.signature_input, out.signature, NULL, &sig, &err),
        "%s", err.message);
    cr_assert_str_eq(sig.keyid, "a\"b\\c");
    cr_assert(httpsig_verify(&sig, &req, pk, &err), "%s", err.message);
    httpsig_headers_free(&out);
}

Test(httpsig_sign, bad_arguments_are_refused_with_a_sentence)
{
    unsigned char pk[32], sk[64];
    fx_keypair(pk, sk);
    httpsig_request req = {.method = "GET", .target = "/"};
    httpsig_headers out;
    httpsig_error err = {{0}};
    const char *upper[] = {"Content-Type"};
    cr_assert_not(
        httpsig_sign(&req, upper, 1, "k", "n", 5, NULL, sk, &out, &err));
    cr_assert_str_eq(err.message, "\"Content-Type\" is not a component that "
                                  "can be signed");
    cr_assert_null(out.signature_input);
    const char *method[] = {"@method"};
    cr_assert_not(
        httpsig_sign(&req, method, 1, "k\n", "n", 5, NULL, sk, &out, &err));
    cr_assert_str_eq(err.message, "the keyid may only hold printable ASCII");
    cr_assert_not(
        httpsig_sign(&req, method, 1, "k", "n", 5, "Sig", sk, &out, &err));
    const char *missing[] = {"x-missing"};
    cr_assert_not(
        httpsig_sign(&req, missing, 1, "k", "n", 5, NULL, sk, &out, &err));
    cr_assert_str_eq(err.message, "the signature covers the x-missing header, "
                                  "which the request does not have");
    const char *status[] = {"@status"};
    cr_assert_not(
        httpsig_sign(&req, status, 1, "k", "n", 5, NULL, sk, &out, &err));
    cr_assert_str_eq(err.message, "the signature covers @status, which this "
                                  "service does not support");
    cr_assert_null(out.signature);
}

Test(httpsig_sign, a_second_label_is_found_by_name)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    unsigned char pk[32];
    fx_public_key(pk);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    const char *input = "proxy=(\"@method\");created=1, " FX_V2_INPUT;
    const char *signature =
        FX_V2_SIGNATURE ", proxy=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQ"
                        "CK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:";
    cr_assert(httpsig_parse(input, signature, "sig", &sig, &err), "%s",
              err.message);
    cr_assert(httpsig_verify(&sig, &req, pk, &err), "%s", err.message);
    /* with no label asked for, the first one is taken */
    cr_assert(httpsig_parse(input, signature, NULL, &sig, &err), "%s",
              err.message);
    cr_assert_str_eq(sig.label, "proxy");
}
