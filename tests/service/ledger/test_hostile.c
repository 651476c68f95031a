/* Fields from strangers: malformed, truncated, huge or odd input is refused
 * with a sentence and never crashes (run this suite with SAN=1 too). */
#include "fixtures.h"

#include <stdio.h>
#include <stdlib.h>

TestSuite(httpsig_hostile, .init = fx_init);

struct bad_case {
    const char *input;
    const char *signature;
    const char *message; /* the exact sentence, or NULL for any */
};

#define GOOD_SIG FX_V2_SIGNATURE
#define SHORT_SIG "sig=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:"

static const struct bad_case bad_cases[] = {
    {NULL, NULL,
     "the request is not signed: it has no Signature-Input and Signature "
     "fields"},
    {FX_V2_INPUT, NULL, "the request has no Signature field"},
    {NULL, GOOD_SIG, "the request has no Signature-Input field"},
    {"", "", "Signature-Input is empty"},
    {"   ", GOOD_SIG, "Signature-Input is empty"},
    {FX_V2_INPUT, "", "Signature has no signature labelled sig"},
    {"sig=(\"@method", GOOD_SIG,
     "Signature-Input is not a valid structured field: an unterminated "
     "string at byte 13"},
    {"sig=(\"@method\"", GOOD_SIG,
     "Signature-Input is not a valid structured field: an inner list not "
     "closed by ) at byte 14"},
    {"sig=(", GOOD_SIG,
     "Signature-Input is not a valid structured field: a missing value at "
     "byte 5"},
    {"sig=(\"@method\");created=", GOOD_SIG, NULL},
    {"sig=(\"@method\");keyid=\"abc", GOOD_SIG, NULL},
    {"sig=(\"@method\");keyid=\"a\\nb\"", GOOD_SIG,
     "Signature-Input is not a valid structured field: a bad escape in a "
     "string at byte 25"},
    {"sig=(\"@me\x01thod\")", GOOD_SIG,
     "Signature-Input is not a valid structured field: a control or "
     "non-ASCII character at byte 9"},
    {"sig=(\"\xc3\xa9\")", GOOD_SIG, NULL},
    {"other=(\"@method\")", GOOD_SIG,
     "Signature has no signature labelled other"},
    {FX_V2_INPUT, "other=:AAAA:", "Signature has no signature labelled sig"},
    {FX_V2_INPUT, "sig=:!!!!:",
     "Signature is not a valid structured field: an unterminated or "
     "non-base64 byte sequence at byte 5"},
    {FX_V2_INPUT, "sig=:AAAA=AAA:", "Signature's sig is not valid base64"},
    {FX_V2_INPUT, "sig=:AAAA", NULL},
    {FX_V2_INPUT, SHORT_SIG,
     "Signature's sig is 32 bytes long; an ed25519 signature is 64"},
    {FX_V2_INPUT,
     "sig=::", "Signature's sig is 0 bytes long; an ed25519 signature is 64"},
    {FX_V2_INPUT, "sig=\"abc\"",
     "Signature's sig is not a byte sequence (:base64:)"},
    {FX_V2_INPUT, "sig", "Signature's sig is not a byte sequence (:base64:)"},
    {FX_V2_INPUT, "sig=(:AAAA:)",
     "Signature's sig is not a byte sequence (:base64:)"},
    {"sig=\"@method\"", GOOD_SIG,
     "Signature-Input's sig is not a list of components"},
    {"sig", GOOD_SIG, "Signature-Input's sig is not a list of components"},
    {"sig=(\"@method\");created=9999999999999999", GOOD_SIG,
     "Signature-Input is not a valid structured field: a number longer than "
     "15 digits at byte 39"},
    {"sig=(\"@method\");created=\"1\"", GOOD_SIG,
     "the created parameter must be an integer, not a string"},
    {"sig=(\"@method\");created=1.5", GOOD_SIG,
     "the created parameter must be an integer, not a decimal"},
    {"sig=(\"@method\");created=1.", GOOD_SIG, NULL},
    {"sig=(\"@method\");keyid=123", GOOD_SIG,
     "the keyid parameter must be a string, not an integer"},
    {"sig=(\"@method\");nonce", GOOD_SIG,
     "the nonce parameter must be a string, not a boolean"},
    {"sig=(\"@method\");created=1;created=2", GOOD_SIG,
     "Signature-Input names the parameter created twice"},
    {"sig=(\"content-digest\";sf)", GOOD_SIG,
     "Signature-Input gives component 1 the parameter ;sf, which is not "
     "supported"},
    {"sig=(method)", GOOD_SIG,
     "Signature-Input lists a token where a component name (a string) "
     "belongs"},
    {"sig=(@method)", GOOD_SIG, NULL},
    {"sig=(\"@Method\")", GOOD_SIG,
     "\"@Method\" is not a lower-case field name or derived component name"},
    {"sig=(\"\")", GOOD_SIG,
     "\"\" is not a lower-case field name or derived component name"},
    {"sig=(\"@\")", GOOD_SIG, NULL},
    {"sig=(\"a b\")", GOOD_SIG, NULL},
    {"sig=(\"@method\" \"@method\")", GOOD_SIG,
     "the signature covers @method twice"},
    {"sig=(\"@signature-params\")", GOOD_SIG,
     "the signature may not cover @signature-params"},
    {"sig=(), sig=()", GOOD_SIG, "Signature-Input names the label sig twice"},
    {"sig=(), ", GOOD_SIG,
     "Signature-Input is not a valid structured field: a comma after the "
     "last member at byte 7"},
    {"sig=() other=()", GOOD_SIG, NULL},
    {"sig=()  ;created=1", GOOD_SIG, NULL},
    {"Sig=()", GOOD_SIG,
     "Signature-Input is not a valid structured field: expected a lower-case "
     "key at byte 0"},
    {"sig=((\"a\"))", GOOD_SIG, NULL},
    {"sig=?2", GOOD_SIG, NULL},
    {"sig=(\"@method\");created=-", GOOD_SIG, NULL},
    {",sig=()", GOOD_SIG, NULL},
    {"sig=()\x01", GOOD_SIG, NULL},
    {"=()", GOOD_SIG, NULL},
};

Test(httpsig_hostile, malformed_fields_are_refused_with_a_sentence)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const struct bad_case *c = &bad_cases[i];
        httpsig_signature sig;
        httpsig_error err = {{0}};
        bool ok = httpsig_parse(c->input, c->signature, NULL, &sig, &err);
        cr_assert_not(ok, "case %zu (%s) parsed", i,
                      c->input ? c->input : "NULL");
        cr_assert_str_neq(err.message, "", "case %zu has no sentence", i);
        if (c->message != NULL)
            cr_assert_str_eq(err.message, c->message, "case %zu", i);
    }
}

Test(httpsig_hostile, a_megabyte_field_is_refused_by_its_length)
{
    size_t n = 1 << 20;
    char *huge = malloc(n + 1);
    cr_assert_not_null(huge);
    memset(huge, 'a', n);
    huge[n] = '\0';
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert_not(httpsig_parse(huge, GOOD_SIG, NULL, &sig, &err));
    cr_assert_str_eq(err.message, "Signature-Input is longer than 8192 bytes");
    cr_assert_not(httpsig_parse(FX_V2_INPUT, huge, NULL, &sig, &err));
    cr_assert_str_eq(err.message, "Signature is longer than 8192 bytes");
    cr_assert_not(httpsig_check_content_digest(huge, NULL, 0, &err));
    cr_assert_str_eq(err.message, "Content-Digest is longer than 8192 bytes");
    /* the same size of open parentheses, strings and byte sequences */
    const char *fills[] = {"(", "\"", ":", "sig=(", "a=1,", ";", " "};
    for (size_t f = 0; f < sizeof fills / sizeof fills[0]; f++) {
        size_t step = strlen(fills[f]);
        for (size_t i = 0; i + step <= n; i += step)
            memcpy(huge + i, fills[f], step);
        cr_assert_not(httpsig_parse(huge, GOOD_SIG, NULL, &sig, &err));
    }
    free(huge);
}

Test(httpsig_hostile, long_values_within_the_field_limit_are_bounded)
{
    char field[HTTPSIG_FIELD_MAX + 1];
    httpsig_signature sig;
    httpsig_error err = {{0}};
    /* a component name of 8000 characters */
    snprintf(field, sizeof field, "sig=(\"%8000d\")", 7);
    cr_assert_not(httpsig_parse(field, GOOD_SIG, NULL, &sig, &err));
    cr_assert_str_eq(err.message,
                     "a component name is longer than 64 characters");
    /* a keyid of 300 characters */
    snprintf(field, sizeof field, "sig=();keyid=\"%300d\"", 7);
    cr_assert_not(httpsig_parse(field, GOOD_SIG, NULL, &sig, &err));
    cr_assert_str_eq(err.message,
                     "the keyid parameter is longer than 256 characters");
    /* a label of 65 characters */
    snprintf(field, sizeof field, "%065d=()", 0);
    field[0] = 'a';
    cr_assert_not(httpsig_parse(field, GOOD_SIG, NULL, &sig, &err));
    /* 33 components */
    size_t len = (size_t)snprintf(field, sizeof field, "sig=(");
    for (int i = 0; i < 33; i++)
        len +=
            (size_t)snprintf(field + len, sizeof field - len, "\"x-h%d\" ", i);
    snprintf(field + len, sizeof field - len, ")");
    cr_assert_not(httpsig_parse(field, GOOD_SIG, NULL, &sig, &err));
    cr_assert_str_eq(err.message,
                     "the signature covers more than 32 components");
    /* exactly 8192 bytes is still read; 8193 is not */
    memset(field, ' ', HTTPSIG_FIELD_MAX);
    memcpy(field, FX_V2_INPUT, strlen(FX_V2_INPUT));
    field[HTTPSIG_FIELD_MAX] = '\0';
    cr_assert(httpsig_parse(field, GOOD_SIG, NULL, &sig, &err), "%s",
              err.message);
}

Test(httpsig_hostile, a_wrong_signature_length_is_refused)
{
    /* 65 bytes */
    const char *longer = "sig=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                         "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:";
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert_not(httpsig_parse(FX_V2_INPUT, longer, NULL, &sig, &err));
    cr_assert_str_eq(
        err.message,
        "Signature's sig is 65 bytes long; an ed25519 signature is 64");
}

Test(httpsig_hostile, unpadded_base64_signatures_are_accepted)
{
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    unsigned char pk[32];
    fx_public_key(pk);
    char unpadded[128];
    snprintf(unpadded, sizeof unpadded, "%s", FX_V2_SIGNATURE);
    char *pad = strstr(unpadded, "==:");
    cr_assert_not_null(pad);
    memcpy(pad, ":", 2);
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(FX_V2_INPUT, unpadded, NULL, &sig, &err), "%s",
              err.message);
    cr_assert(httpsig_verify(&sig, &req, pk, &err), "%s", err.message);
}

Test(httpsig_hostile, malformed_content_digests_are_refused)
{
    const unsigned char *body = (const unsigned char *)FX_V2_BODY;
    size_t len = strlen(FX_V2_BODY);
    const char *bad[] = {
        "",
        "sha-256",
        "sha-256=",
        "sha-256=:",
        "sha-256=:!!:",
        "sha-256=:AAAA=AAA:",
        "sha-256=(:AAAA:)",
        "sha-256=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=:,",
        "SHA-256=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=:",
        "sha-256=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq=:",
        "sha-256=:eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=AAAA:",
        "sha-256=:AA==:",
        "sha-256=\"eCe92zIA5kmesI1Yuzf8mpbTTQMteLmE5p7lkNmDhq8=\"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        httpsig_error err = {{0}};
        cr_assert_not(httpsig_check_content_digest(bad[i], body, len, &err),
                      "case %zu accepted", i);
        cr_assert_str_neq(err.message, "");
    }
}

Test(httpsig_hostile, hostile_request_parts_are_refused)
{
    struct fx_headers h;
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse("sig=(\"@method\" \"@path\" \"@authority\" "
                            "\"content-type\");created=1",
                            GOOD_SIG, NULL, &sig, &err));
    httpsig_request req = fx_vector2(&h);
    const char *targets[] = {NULL,    "",     "v1/x", "/a b",
                             "/a\nb", "/a#b", "/\x80"};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        req.target = targets[i];
        char *base = httpsig_signature_base(&sig, &req, &err);
        cr_assert_null(base, "target %zu accepted", i);
        cr_assert_str_neq(err.message, "");
    }
    req = fx_vector2(&h);
    const char *methods[] = {NULL, "", "PO ST", "POST\n"};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        req.method = methods[i];
        cr_assert_null(httpsig_signature_base(&sig, &req, &err));
    }
    req = fx_vector2(&h);
    const char *authorities[] = {NULL, "", "a/b", "a\r\nb", "user@host"};
    for (size_t i = 0; i < sizeof authorities / sizeof authorities[0]; i++) {
        req.authority = authorities[i];
        cr_assert_null(httpsig_signature_base(&sig, &req, &err));
    }
    req = fx_vector2(&h);
    fx_set(&h, "content-type", "text/plain\r\n\"@method\": GET");
    cr_assert_null(httpsig_signature_base(&sig, &req, &err));
    cr_assert_str_eq(err.message,
                     "the content-type header has a control character");
    req.header = NULL;
    cr_assert_null(httpsig_signature_base(&sig, &req, &err));
    cr_assert_str_eq(err.message, "the signature covers the content-type "
                                  "header, which the request does not have");
}

/* Random fields drawn mostly from structured-field punctuation, and random
 * splices of the valid vector: whatever comes back, nothing may crash, and
 * nothing random may verify. */
Test(httpsig_hostile, random_fields_never_crash)
{
    static const char alphabet[] = "sig=(\"@method\" ;:,)*?01-.\\ \tabz:AZ+/"
                                   "\x01\x7f\xff";
    unsigned char seed[randombytes_SEEDBYTES] = {42};
    size_t rounds = 20000;
    size_t bytes_per_round = 400;
    unsigned char *noise = malloc(rounds * bytes_per_round);
    cr_assert_not_null(noise);
    randombytes_buf_deterministic(noise, rounds * bytes_per_round, seed);
    struct fx_headers h;
    httpsig_request req = fx_vector2(&h);
    unsigned char pk[32];
    fx_public_key(pk);
    for (size_t r = 0; r < rounds; r++) {
        const unsigned char *n = noise + r * bytes_per_round;
        char input[256];
        char signature[128];
        size_t len = n[0] % 200;
        if (r % 2 == 0) {
            for (size_t i = 0; i < len; i++)
                input[i] = alphabet[n[1 + i] % (sizeof alphabet - 1)];
            input[len] = '\0';
        } else {
            /* the valid field with a random stretch overwritten */
            snprintf(input, sizeof input, "%s", FX_V2_INPUT);
            size_t at = n[1] % strlen(input);
            size_t k = 1 + n[2] % 4;
            for (size_t i = 0; i < k && input[at + i] != '\0'; i++)
                input[at + i] = alphabet[n[3 + i] % (sizeof alphabet - 1)];
        }
        snprintf(signature, sizeof signature, "%s", FX_V2_SIGNATURE);
        if (r % 3 == 0) {
            size_t at = n[250] % strlen(signature);
            signature[at] = alphabet[n[251] % (sizeof alphabet - 1)];
        }
        httpsig_signature sig;
        httpsig_error err = {{0}};
        if (!httpsig_parse(input, signature, NULL, &sig, &err)) {
            cr_assert_str_neq(err.message, "");
            continue;
        }
        bool same = strcmp(input, FX_V2_INPUT) == 0 &&
                    strcmp(signature, FX_V2_SIGNATURE) == 0;
        if (!same)
            cr_assert_not(httpsig_verify(&sig, &req, pk, &err),
                          "round %zu verified: %s / %s", r, input, signature);
        httpsig_check_policy(&sig, &req, FX_V2_CREATED, 300, &err);
        httpsig_check_content_digest(input, req.body, req.body_len, &err);
    }
    free(noise);
}
