/* Interoperability: tests/node/sign-request.mjs signs with the npm package
 * http-message-signatures (an implementation independent of this one); the
 * C module must verify what it signs, and, Ed25519 being deterministic,
 * produce the very same header values for the same request. */
#include "fixtures.h"

#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

TestSuite(httpsig_interop, .init = fx_init, .timeout = 60);

#define SIGNER "tests/node/sign-request.mjs"
#define NODE_PACKAGE "tests/node/node_modules/http-message-signatures"

/* The repository root: the working folder when the suite is run from there,
 * else five folders above the binary (build/tests/service/ledger/suite). */
static void repo_root(char root[PATH_MAX])
{
    if (access(SIGNER, R_OK) == 0) {
        cr_assert_not_null(getcwd(root, PATH_MAX));
        return;
    }
    ssize_t n = readlink("/proc/self/exe", root, PATH_MAX - 1);
    cr_assert_gt(n, 0, "cannot find the suite's own path");
    root[n] = '\0';
    for (int i = 0; i < 5; i++) {
        char *parent = dirname(root);
        memmove(root, parent, strlen(parent) + 1);
    }
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/" SIGNER, root);
    cr_assert_eq(access(path, R_OK), 0,
                 "cannot find " SIGNER "; run the suite from the repository "
                 "root");
}

/* Runs the Node signer on `input` and returns its "headers" object (new
 * reference). */
static json_t *node_sign(json_t *input)
{
    char root[PATH_MAX];
    repo_root(root);
    char package[PATH_MAX + 64];
    snprintf(package, sizeof package, "%s/" NODE_PACKAGE, root);
    cr_assert_eq(access(package, R_OK), 0,
                 "the npm package http-message-signatures is missing: run "
                 "`npm ci` in tests/node");

    char *json = json_dumps(input, JSON_COMPACT);
    cr_assert_not_null(json);
    /* Single-quote the argument for the shell; a quote becomes '\''. */
    size_t cap = strlen(json) * 4 + strlen(root) * 4 + 128;
    char *command = malloc(cap);
    cr_assert_not_null(command);
    size_t len =
        (size_t)snprintf(command, cap, "cd '%s' && node " SIGNER " '", root);
    for (const char *c = json; *c != '\0'; c++) {
        if (*c == '\'')
            len += (size_t)snprintf(command + len, cap - len, "'\\''");
        else
            command[len++] = *c;
    }
    snprintf(command + len, cap - len, "'");
    free(json);

    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe, "cannot run node");
    char output[8192];
    size_t got = fread(output, 1, sizeof output - 1, pipe);
    output[got] = '\0';
    int status = pclose(pipe);
    cr_assert_eq(status, 0,
                 "node " SIGNER " failed (status %d); is node installed and "
                 "`npm ci` done in tests/node? command: %s",
                 status, command);
    free(command);

    json_error_t error;
    json_t *out = json_loads(output, 0, &error);
    cr_assert_not_null(out, "the signer printed no JSON: %s", output);
    json_t *headers = json_object_get(out, "headers");
    cr_assert(json_is_object(headers), "no headers in: %s", output);
    json_incref(headers);
    json_decref(out);
    return headers;
}

static const char *header_or_null(json_t *headers, const char *name)
{
    return json_string_value(json_object_get(headers, name));
}

struct interop_case {
    const char *method;
    const char *scheme;
    const char *authority;
    const char *target;
    const char *body;              /* NULL: no body */
    const char *const *components; /* NULL: the signer's default */
    size_t count;
    const char *content_type; /* a header to sign, or NULL */
};

/* Signs the case in Node with a fresh key, verifies it here, and signs it
 * here too to compare the header values. */
static void check_case(const struct interop_case *c)
{
    unsigned char pk[32], sk[64], seed[32];
    crypto_sign_keypair(pk, sk);
    crypto_sign_ed25519_sk_to_seed(seed, sk);
    char seed_hex[65];
    sodium_bin2hex(seed_hex, sizeof seed_hex, seed, sizeof seed);
    sodium_memzero(seed, sizeof seed);
    char url[512];
    snprintf(url, sizeof url, "%s://%s%s", c->scheme, c->authority, c->target);
    int64_t created = (int64_t)time(NULL);
    char nonce[33];
    unsigned char nonce_bytes[16];
    randombytes_buf(nonce_bytes, sizeof nonce_bytes);
    sodium_bin2hex(nonce, sizeof nonce, nonce_bytes, sizeof nonce_bytes);

    json_t *input =
        json_pack("{s:s, s:s, s:s, s:s, s:I, s:s}", "seed_hex", seed_hex,
                  "keyid", "interop-key", "method", c->method, "url", url,
                  "created", (json_int_t)created, "nonce", nonce);
    cr_assert_not_null(input);
    if (c->body != NULL)
        json_object_set_new(input, "body", json_string(c->body));
    if (c->components != NULL) {
        json_t *list = json_array();
        for (size_t i = 0; i < c->count; i++)
            json_array_append_new(list, json_string(c->components[i]));
        json_object_set_new(input, "components", list);
    }
    if (c->content_type != NULL)
        json_object_set_new(
            input, "headers",
            json_pack("{s:s}", "content-type", c->content_type));
    json_t *headers = node_sign(input);
    json_decref(input);

    const char *digest = header_or_null(headers, "content-digest");
    const char *sig_input = header_or_null(headers, "signature-input");
    const char *signature = header_or_null(headers, "signature");
    cr_assert_not_null(sig_input);
    cr_assert_not_null(signature);
    cr_assert_eq(digest != NULL, c->body != NULL);

    struct fx_headers h = {0};
    if (digest != NULL)
        fx_set(&h, "content-digest", digest);
    if (c->content_type != NULL)
        fx_set(&h, "content-type", c->content_type);
    httpsig_request req = {
        .method = c->method,
        .target = c->target,
        .scheme = c->scheme,
        .authority = c->authority,
        .header = fx_lookup,
        .header_ctx = &h,
        .body = (const unsigned char *)c->body,
        .body_len = c->body ? strlen(c->body) : 0,
    };
    httpsig_signature sig;
    httpsig_error err = {{0}};
    cr_assert(httpsig_parse(sig_input, signature, NULL, &sig, &err),
              "%s (Signature-Input: %s)", err.message, sig_input);
    cr_assert(httpsig_check_policy(&sig, &req, created + 1, 300, &err),
              "%s (Signature-Input: %s)", err.message, sig_input);
    cr_assert(httpsig_verify(&sig, &req, pk, &err), "%s (Signature-Input: %s)",
              err.message, sig_input);
    cr_assert_str_eq(sig.keyid, "interop-key");
    cr_assert_str_eq(sig.nonce, nonce);

    /* The same request signed here gives the same bytes. */
    const char *names[HTTPSIG_COMPONENTS_MAX];
    for (size_t i = 0; i < sig.component_count; i++)
        names[i] = sig.components[i];
    httpsig_headers mine;
    cr_assert(httpsig_sign(&req, names, sig.component_count, "interop-key",
                           nonce, created, NULL, sk, &mine, &err),
              "%s", err.message);
    cr_assert_str_eq(mine.signature_input, sig_input);
    cr_assert_str_eq(mine.signature, signature);
    if (digest != NULL)
        cr_assert_str_eq(mine.content_digest, digest);
    httpsig_headers_free(&mine);
    json_decref(headers);
    sodium_memzero(sk, sizeof sk);
}

Test(httpsig_interop, node_signed_move_with_a_body_verifies)
{
    struct interop_case c = {
        .method = "POST",
        .scheme = "http",
        .authority = "127.0.0.1:8080",
        .target = "/v1/matches/m_42/moves",
        .body = "{\"seq\":7,\"action\":{\"play\":\"Tess\"},\"note\":\"caf\xc3"
                "\xa9 'quoted'\"}",
    };
    check_case(&c);
}

Test(httpsig_interop, node_signed_get_without_a_body_verifies)
{
    struct interop_case c = {
        .method = "GET",
        .scheme = "http",
        .authority = "127.0.0.1:8080",
        .target = "/v1/matches/m_42/view",
    };
    check_case(&c);
}

Test(httpsig_interop, node_signed_percent_encoded_path_and_query_verify)
{
    struct interop_case c = {
        .method = "GET",
        .scheme = "http",
        .authority = "127.0.0.1:8080",
        .target = "/v1/matches/m%2042%2Fx/events?after=3&who=%C3%A9l%C3%A8ve",
    };
    check_case(&c);
}

Test(httpsig_interop, node_signed_target_uri_authority_and_headers_verify)
{
    static const char *const components[] = {
        "@method", "@target-uri",  "@authority",    "@scheme",
        "@query",  "content-type", "content-digest"};
    struct interop_case c = {
        .method = "POST",
        .scheme = "https",
        .authority = "play.example.org",
        .target = "/v1/matches/m%2042/join?seat=2",
        .body = "{}",
        .components = components,
        .count = sizeof components / sizeof components[0],
        .content_type = "application/json",
    };
    check_case(&c);
}
