/* httpsig.h: signed requests. RFC 9421 HTTP Message Signatures with
 * alg="ed25519" and RFC 9530 Content-Digest, checked with libsodium.
 *
 * A server checks a request in steps, so it can find the key in between:
 *
 *   httpsig_signature sig;
 *   httpsig_error err;
 *   if (!httpsig_parse(sig_input, sig_header, NULL, &sig, &err) ||
 *       !httpsig_check_policy(&sig, &req, now, 300, &err))
 *       return 401 with err.message;
 *   public_key = look up sig.keyid;                (and remember sig.nonce)
 *   if (!httpsig_verify(&sig, &req, public_key, &err))
 *       return 401 with err.message;
 *
 * A client (tests, the pbem command) calls httpsig_sign.
 *
 * Call sodium_init() once before using it. Nothing here reads a clock,
 * keeps global state or prints anything; every function is safe to call
 * from several threads at once. Errors come back as one sentence a person
 * can read, never containing key material. Out of memory aborts with
 * file:line. */
#ifndef SERVICE_LEDGER_HTTPSIG_H
#define SERVICE_LEDGER_HTTPSIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HTTPSIG_PUBLIC_KEY_BYTES 32
#define HTTPSIG_SECRET_KEY_BYTES 64 /* libsodium's: seed then public key */
#define HTTPSIG_SIGNATURE_BYTES 64
/* Limits on what a client may send; longer input is an error. */
#define HTTPSIG_FIELD_MAX                                                      \
    8192                          /* a Signature-Input, Signature or           \
                                     Content-Digest field value */
#define HTTPSIG_COMPONENTS_MAX 32 /* covered components in one signature */
#define HTTPSIG_NAME_MAX 64       /* a component name or a label */
#define HTTPSIG_PARAM_MAX 256     /* keyid, nonce, alg */

/* The one error channel: a sentence such as "the signature does not cover
 * content-digest" or "the signature was created 12 minutes ago; the limit is
 * 5". Every failing call fills it; a caller may pass NULL to ignore it. */
typedef struct httpsig_error {
    char message[256];
} httpsig_error;

/* Returns the value of the request header named `name` (lower case), or NULL
 * when the request does not have it. Several field lines of one name are
 * returned joined with ", ". The string must live until the call that used
 * the callback returns. */
typedef const char *(*httpsig_header_fn)(void *ctx, const char *name);

/* A request as it arrived, borrowed for the duration of a call. */
typedef struct httpsig_request {
    const char *method;        /* "POST", as on the request line */
    const char *target;        /* the raw request target, still percent-encoded,
                                  e.g. "/v1/matches/m%2042/view?after=3"; the
                                  module splits path and query itself */
    const char *scheme;        /* "http" or "https"; NULL when unknown (then
                                  @scheme and @target-uri cannot be covered) */
    const char *authority;     /* the Host header value, e.g. "example.com";
                                  NULL when unknown */
    httpsig_header_fn header;  /* may be NULL: then no header is found */
    void *header_ctx;          /* passed to header */
    const unsigned char *body; /* the raw body; NULL when there is none */
    size_t body_len;
} httpsig_request;

/* One signature, as httpsig_parse found it. Plain data: copy it freely. */
typedef struct httpsig_signature {
    char label[HTTPSIG_NAME_MAX + 1];
    size_t component_count;
    char components[HTTPSIG_COMPONENTS_MAX][HTTPSIG_NAME_MAX + 1];
    bool has_created;
    int64_t created;
    bool has_expires;
    int64_t expires;
    bool has_keyid;
    char keyid[HTTPSIG_PARAM_MAX + 1];
    bool has_alg;
    char alg[HTTPSIG_PARAM_MAX + 1];
    bool has_nonce;
    char nonce[HTTPSIG_PARAM_MAX + 1];
    /* The inner list and its parameters exactly as in Signature-Input: the
     * value of the "@signature-params" line of the signature base. */
    char params[HTTPSIG_FIELD_MAX + 1];
    unsigned char signature[HTTPSIG_SIGNATURE_BYTES];
} httpsig_signature;

/* The header values httpsig_sign produces; the caller owns the strings and
 * frees them with httpsig_headers_free. content_digest is NULL when the
 * request has no body. */
typedef struct httpsig_headers {
    char *signature_input;
    char *signature;
    char *content_digest;
} httpsig_headers;

/* Parses the Signature-Input and Signature field values (RFC 8941
 * dictionaries) and fills *out with the signature labelled `label`, or the
 * first one in Signature-Input when label is NULL. Checks syntax only:
 * the Signature member must be a 64-byte byte sequence, Signature-Input's an
 * inner list of lower-case component names without parameters. Returns
 * false and fills *err for a missing, over-long or malformed field or a
 * missing label; *out is then unspecified. */
bool httpsig_parse(const char *signature_input, const char *signature,
                   const char *label, httpsig_signature *out,
                   httpsig_error *err);

/* Builds the RFC 9421 signature base of *sig over *req: one line
 * "name": value per covered component, then the "@signature-params" line,
 * joined by LF with no LF at the end. Supports @method, @target-uri,
 * @authority, @scheme, @request-target, @path, @query and header fields.
 * Returns a string the caller frees, or NULL with *err filled when a
 * component cannot be derived (a header the request does not have, an
 * unsupported component, a value with control characters). */
char *httpsig_signature_base(const httpsig_signature *sig,
                             const httpsig_request *req, httpsig_error *err);

/* Checks sig->signature over the signature base of *req with an Ed25519
 * public key (crypto_sign_verify_detached). Returns true when it is valid;
 * false with *err filled otherwise. Does not check the policy (coverage,
 * time, nonce) nor that Content-Digest matches the body: see below. */
bool httpsig_verify(const httpsig_signature *sig, const httpsig_request *req,
                    const unsigned char public_key[HTTPSIG_PUBLIC_KEY_BYTES],
                    httpsig_error *err);

/* Policy checks, each false with *err filled when it fails. */

/* Every name in required[0..count) is covered. "@path" and "@query" also
 * count as covered when "@target-uri" or "@request-target" is. */
bool httpsig_check_covers(const httpsig_signature *sig,
                          const char *const *required, size_t count,
                          httpsig_error *err);

/* `created` is present and at most window_seconds away from now (before or
 * after), and `expires`, when present, is not before now. now is unix
 * seconds from the caller's clock. */
bool httpsig_check_created(const httpsig_signature *sig, int64_t now,
                           int64_t window_seconds, httpsig_error *err);

/* alg, when present, is "ed25519". */
bool httpsig_check_alg(const httpsig_signature *sig, httpsig_error *err);

/* A non-empty nonce is present (whether it was seen before is the caller's
 * business). */
bool httpsig_check_nonce(const httpsig_signature *sig, httpsig_error *err);

/* Checks the Content-Digest field value (RFC 9530; NULL when absent) against
 * the body: every sha-256 and sha-512 member must match, compared in
 * constant time, and at least one must be present. A body of one or more
 * bytes without Content-Digest is an error; no body and no field is fine. */
bool httpsig_check_content_digest(const char *content_digest,
                                  const unsigned char *body, size_t body_len,
                                  httpsig_error *err);

/* The service's policy for a player's request, in one call: alg is ed25519
 * if given; a nonce is present; created is within window_seconds of now;
 * the signature covers @method, @path (or @target-uri), @query when the
 * target has a query, and content-digest when the body has one or more
 * bytes; the request's content-digest header (looked up through
 * req->header) matches the body. */
bool httpsig_check_policy(const httpsig_signature *sig,
                          const httpsig_request *req, int64_t now,
                          int64_t window_seconds, httpsig_error *err);

/* Signs *req with a libsodium Ed25519 secret key (64 bytes, from
 * crypto_sign_keypair or crypto_sign_seed_keypair), covering
 * components[0..count) with parameters created, keyid, alg="ed25519" and
 * nonce, in that order, under `label` ("sig" when NULL). When req->body is
 * not NULL it computes Content-Digest (sha-256) and uses that value for the
 * content-digest component, so req->header need not supply it. Fills *out
 * (free with httpsig_headers_free) and returns true; on failure returns false
 * with *err filled and *out all NULL. */
bool httpsig_sign(const httpsig_request *req, const char *const *components,
                  size_t count, const char *keyid, const char *nonce,
                  int64_t created, const char *label,
                  const unsigned char secret_key[HTTPSIG_SECRET_KEY_BYTES],
                  httpsig_headers *out, httpsig_error *err);

/* Frees the strings of *headers and sets them to NULL; NULL is fine. */
void httpsig_headers_free(httpsig_headers *headers);

/* Computes the Content-Digest field value "sha-256=:<base64>:" of a body.
 * Returns a string the caller frees. */
char *httpsig_content_digest(const unsigned char *body, size_t body_len);

#endif
