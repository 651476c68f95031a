/* client.h: a pbem API client: HTTP over libcurl, every player request
 * signed per RFC 9421 (ed25519) with an RFC 9530 Content-Digest through
 * httpsig. Used by the pbem command, the benchmarks and the end-to-end
 * tests. One client per thread (it keeps one curl handle, so connections
 * are reused). Call curl_global_init and sodium_init first. */
#ifndef CLIENT_CLIENT_H
#define CLIENT_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct client_key {
    char key_id[64];
    unsigned char public_key[32];
    unsigned char secret_key[64];
} client_key;

typedef struct client_response {
    long status;
    char *body;     /* malloc'd, NUL-terminated; NULL when empty */
    json_t *json;   /* the body parsed, or NULL when it is not JSON */
} client_response;

typedef struct client client;

/* Options of client_send: for hostile tests, and for long answers. */
typedef struct client_send_options {
    int64_t created;                  /* 0: now */
    const char *nonce;                /* NULL: 16 random bytes in hex */
    const char *const *extra_headers; /* NULL-terminated "Name: value" */
    bool tamper_body_after_signing;   /* flips a bit of the sent body */
    const char *content_type;         /* NULL: application/json */
    FILE *body_to;                    /* not NULL: a 2xx answer's body is
                                         written there as it arrives (not
                                         kept), with no time limit while
                                         it keeps coming */
    const char *on_behalf_of;         /* a bot's delegated key acting for
                                         this player ("p_12"): sent as
                                         Pbem-On-Behalf-Of, covered by the
                                         signature */
} client_send_options;

/* A client for base_url ("http://127.0.0.1:8080"). NULL on out of memory.
 * With an https base URL every signature also covers @target-uri (the
 * scheme and host the client meant), as a server behind a TLS proxy
 * (PBEM_PUBLIC_SCHEME=https) checks it. */
client *client_new(const char *base_url);
void client_free(client *c);

/* Trusts the certificate authorities in ca_file (PEM) for https, in place
 * of the system's (a test's own CA); NULL or "": the system's again. */
void client_trust_ca(client *c, const char *ca_file);

/* Sends method path (with query) and body (may be NULL), signed by signer
 * unless it is NULL. False with errbuf (256 bytes) filled when no answer
 * came back (connection refused, timeout); an HTTP error status is an
 * answer, not a failure. */
bool client_send(client *c, const char *method, const char *path,
                 const char *body, const client_key *signer,
                 const client_send_options *options, client_response *out,
                 char *errbuf);

void client_response_free(client_response *response);

struct curl_slist;

/* Appends to *headers the Signature-Input, Signature and Content-Digest
 * that client_send would send for method path body signed by signer, for
 * a caller that sends the request itself (several at once through curl's
 * multi interface). False with errbuf (256 bytes) filled. */
bool client_sign_headers(const char *method, const char *path,
                         const char *body, const client_key *signer,
                         struct curl_slist **headers, char *errbuf);

/* The key id the service gives a public key: "k_" and the hex of its
 * 8-byte BLAKE2b digest (known before registering, which is signed with
 * it). */
void client_key_id(const unsigned char public_key[32], char key_id[64]);

/* A new Ed25519 key pair, with its key id. */
void client_new_key(client_key *key);

/* Registers name (and email, may be NULL) with key's public key, in a
 * request signed by that key; fills key->key_id and player_id (32 bytes).
 * False with errbuf filled. */
bool client_register(client *c, const char *name, const char *email,
                     client_key *key, char *player_id, char *errbuf);

#endif
