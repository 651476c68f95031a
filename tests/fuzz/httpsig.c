/* httpsig.c: fuzzes the RFC 9421 / RFC 9530 field parsers
 * (ledger/httpsig.h) with what a hostile client controls.
 *
 * Input, one field per line:
 *   Signature-Input value
 *   Signature value
 *   Content-Digest value
 *   the raw request target ("/v1/matches/m_1/moves?x=1")
 *   the body (the rest, any bytes)
 * A parsed signature is then taken through every later step the server
 * runs on it: the signature base, the policy and the Ed25519 check.
 *
 * The same input also plays the client: the target and body are signed
 * with httpsig_sign (keyid from the Content-Digest line, nonce from the
 * Signature line, any bytes but empty), and what the client signs the
 * server must accept: the headers parse, pass the policy and verify. */
#include <sodium.h>
#include <stdio.h>

#include "fuzz.h"
#include "ledger/httpsig.h"

typedef struct fields {
    const char *content_digest;
} fields;

/* Headers a signature may cover: the Content-Digest of the input, and two
 * of RFC 9421's own example fields. */
static const char *header_of(void *ctx, const char *name)
{
    const fields *f = ctx;
    if (strcmp(name, "content-digest") == 0)
        return f->content_digest;
    if (strcmp(name, "date") == 0)
        return "Tue, 20 Apr 2021 02:07:55 GMT";
    if (strcmp(name, "content-type") == 0)
        return "application/json";
    return NULL;
}

/* The RFC's test-key-ed25519 (vectors/rfc9421.md), from its seed. */
static unsigned char secret_key[HTTPSIG_SECRET_KEY_BYTES];
static unsigned char public_key[HTTPSIG_PUBLIC_KEY_BYTES];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const unsigned char seed[32] = {
        0x9f, 0x83, 0x62, 0xf8, 0x7a, 0x48, 0x4a, 0x95, 0x4e, 0x6e, 0x74,
        0x0c, 0x5b, 0x4c, 0x0e, 0x84, 0x22, 0x91, 0x39, 0xa2, 0x0a, 0xa8,
        0xab, 0x56, 0xff, 0x66, 0x58, 0x6f, 0x6a, 0x7d, 0x29, 0xc5};
    if (sodium_init() < 0 ||
        crypto_sign_seed_keypair(public_key, secret_key, seed) != 0)
        abort();
    return 0;
}

/* Signs req as a client would and checks the server accepts it. */
static void sign_and_accept(const httpsig_request *req, const char *keyid,
                            const char *nonce)
{
    const char *components[] = {"@method", "@path", "content-digest", "@query"};
    /* The policy asks for a nonce: a client that gives none is refused,
     * and rightly. */
    if (nonce[0] == '\0')
        return;
    size_t count = req->body != NULL ? 3 : 2;
    if (strchr(req->target, '?') != NULL)
        components[count++] = "@query";
    httpsig_headers headers;
    httpsig_error err;
    const int64_t created = 1700000000;
    if (!httpsig_sign(req, components, count, keyid, nonce, created, NULL,
                      secret_key, &headers, &err))
        return;
    fields signed_fields = {.content_digest = headers.content_digest};
    httpsig_request received = *req;
    received.header_ctx = &signed_fields;
    httpsig_signature sig;
    if (!httpsig_parse(headers.signature_input, headers.signature, NULL, &sig,
                       &err) ||
        !httpsig_check_policy(&sig, &received, created, 300, &err) ||
        !httpsig_verify(&sig, &received, public_key, &err)) {
        fprintf(stderr, "signed, then refused: %s\n", err.message);
        abort();
    }
    httpsig_headers_free(&headers);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *rest = text;
    const char *input = fuzz_line(&rest);
    const char *signature = fuzz_line(&rest);
    fields f = {.content_digest = fuzz_line(&rest)};
    const char *target = fuzz_line(&rest);
    const unsigned char *body = (const unsigned char *)rest;
    size_t body_len = size - (size_t)(rest - text);

    httpsig_error err;
    httpsig_check_content_digest(f.content_digest, body, body_len, &err);
    httpsig_check_content_digest(NULL, body, body_len, &err);

    httpsig_request req = {
        .method = "POST",
        .target = target,
        .scheme = "https",
        .authority = "example.com",
        .header = header_of,
        .header_ctx = &f,
        .body = body_len > 0 ? body : NULL,
        .body_len = body_len,
    };
    sign_and_accept(&req, f.content_digest, signature);
    httpsig_signature sig;
    if (httpsig_parse(input, signature, NULL, &sig, &err)) {
        free(httpsig_signature_base(&sig, &req, &err));
        httpsig_check_policy(&sig, &req, sig.has_created ? sig.created : 0, 300,
                             &err);
        httpsig_verify(&sig, &req, public_key, &err);
        static const char *const required[] = {"@method", "@path",
                                               "content-digest"};
        httpsig_check_covers(&sig, required, 3, &err);
        httpsig_check_created(&sig, 1700000000, 300, &err);
    }
    /* The label-selecting form the service uses for a named signature. */
    httpsig_parse(input, signature, "sig", &sig, &err);
    free(text);
    return 0;
}
