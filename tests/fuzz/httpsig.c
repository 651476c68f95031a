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
 * runs on it: the signature base, the policy and the Ed25519 check. */
#include <sodium.h>

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

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The RFC's test-key-ed25519: a real key, so a valid signature can
     * be seeded and reach the end of httpsig_verify. */
    static const unsigned char public_key[HTTPSIG_PUBLIC_KEY_BYTES] = {
        0x26, 0xb4, 0x0b, 0x8f, 0x93, 0xff, 0xf3, 0xd8, 0x97, 0x11, 0x2f,
        0x7e, 0xbc, 0x58, 0x2b, 0x23, 0x2d, 0xbd, 0x72, 0x51, 0x7d, 0x08,
        0x2f, 0xe8, 0x3c, 0xfb, 0x30, 0xdd, 0xce, 0x43, 0xd1, 0xbb};
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

    httpsig_signature sig;
    if (httpsig_parse(input, signature, NULL, &sig, &err)) {
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
        free(httpsig_signature_base(&sig, &req, &err));
        httpsig_check_policy(&sig, &req, sig.has_created ? sig.created : 0,
                             300, &err);
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
