/* client.c */
#include "client.h"

#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ledger/httpsig.h"

struct client {
    CURL *curl;
    char base_url[200];
    char authority[200]; /* the base URL's host[:port], for @target-uri */
    bool https;
    char ca_file[256]; /* "" : the system's CAs */
};

client *client_new(const char *base_url)
{
    client *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->curl = curl_easy_init();
    snprintf(c->base_url, sizeof c->base_url, "%s", base_url);
    const char *host = strstr(base_url, "://");
    c->https = strncmp(base_url, "https://", 8) == 0;
    if (host != NULL) {
        host += 3;
        snprintf(c->authority, sizeof c->authority, "%.*s",
                 (int)strcspn(host, "/?#"), host);
    }
    return c;
}

void client_trust_ca(client *c, const char *ca_file)
{
    snprintf(c->ca_file, sizeof c->ca_file, "%s", ca_file ? ca_file : "");
}

void client_free(client *c)
{
    if (c == NULL)
        return;
    curl_easy_cleanup(c->curl);
    free(c);
}

/* The body as it arrives: collected in memory (its length kept, so a
 * large body costs linear time), or written to a stream. */
typedef struct sink {
    char **body;
    size_t len;
    FILE *to;
    CURL *curl;
} sink;

static size_t collect(char *data, size_t size, size_t count, void *user)
{
    sink *s = user;
    size_t n = size * count;
    long status = 0;
    /* Only a success goes to the stream; an error is kept to be read. */
    if (s->to != NULL &&
        curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &status) ==
            CURLE_OK &&
        status >= 200 && status < 300)
        return fwrite(data, 1, n, s->to);
    char *grown = realloc(*s->body, s->len + n + 1);
    if (grown == NULL)
        abort();
    memcpy(grown + s->len, data, n);
    s->len += n;
    grown[s->len] = '\0';
    *s->body = grown;
    return n;
}

/* The headers a signature covers besides the derived components: only
 * Pbem-On-Behalf-Of (content-digest is computed by httpsig_sign). */
static const char *covered_header(void *ctx, const char *name)
{
    return strcmp(name, "pbem-on-behalf-of") == 0 ? ctx : NULL;
}

/* Adds Signature-Input, Signature and Content-Digest for the request.
 * over_tls names the server's host[:port] when the request goes over TLS:
 * the signature then covers @target-uri too, so it holds only for the
 * server the client meant (a proxy that forwards it elsewhere, or a
 * server that does not know it sits behind TLS, refuses it). NULL: plain
 * HTTP, @path alone. */
static bool sign(const char *method, const char *path, const char *body,
                 const client_key *signer, const client_send_options *options,
                 const char *over_tls, struct curl_slist **headers,
                 char *errbuf)
{
    char random_nonce[33];
    const char *nonce = options ? options->nonce : NULL;
    if (nonce == NULL) {
        uint8_t bytes[16];
        randombytes_buf(bytes, sizeof bytes);
        sodium_bin2hex(random_nonce, sizeof random_nonce, bytes, sizeof bytes);
        nonce = random_nonce;
    }
    int64_t created = options && options->created ? options->created
                                                  : (int64_t)time(NULL);
    const char *components[6] = {"@method", "@path"};
    size_t count = 2;
    if (over_tls != NULL)
        components[count++] = "@target-uri";
    if (strchr(path, '?') != NULL)
        components[count++] = "@query";
    if (body != NULL)
        components[count++] = "content-digest";
    const char *on_behalf_of = options ? options->on_behalf_of : NULL;
    if (on_behalf_of != NULL)
        components[count++] = "pbem-on-behalf-of";
    httpsig_request req = {.method = method,
                           .target = path,
                           .scheme = over_tls != NULL ? "https" : "http",
                           .authority = over_tls,
                           .header = on_behalf_of ? covered_header : NULL,
                           .header_ctx = (void *)on_behalf_of,
                           .body = (const unsigned char *)body,
                           .body_len = body ? strlen(body) : 0};
    httpsig_headers signed_headers;
    httpsig_error err;
    if (!httpsig_sign(&req, components, count, signer->key_id, nonce, created,
                      NULL, signer->secret_key, &signed_headers, &err)) {
        snprintf(errbuf, 256, "cannot sign: %.200s", err.message);
        return false;
    }
    char *line = NULL;
    if (asprintf(&line, "Signature-Input: %s", signed_headers.signature_input) < 0)
        abort();
    *headers = curl_slist_append(*headers, line);
    free(line);
    if (asprintf(&line, "Signature: %s", signed_headers.signature) < 0)
        abort();
    *headers = curl_slist_append(*headers, line);
    free(line);
    if (signed_headers.content_digest != NULL) {
        if (asprintf(&line, "Content-Digest: %s",
                     signed_headers.content_digest) < 0)
            abort();
        *headers = curl_slist_append(*headers, line);
        free(line);
    }
    httpsig_headers_free(&signed_headers);
    if (on_behalf_of != NULL) {
        if (asprintf(&line, "Pbem-On-Behalf-Of: %s", on_behalf_of) < 0)
            abort();
        *headers = curl_slist_append(*headers, line);
        free(line);
    }
    return true;
}

bool client_send(client *c, const char *method, const char *path,
                 const char *body, const client_key *signer,
                 const client_send_options *options, client_response *out,
                 char *errbuf)
{
    memset(out, 0, sizeof *out);
    char url[1200];
    snprintf(url, sizeof url, "%s%s", c->base_url, path);
    CURL *curl = c->curl;
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    if (c->ca_file[0] != '\0')
        curl_easy_setopt(curl, CURLOPT_CAINFO, c->ca_file);
    struct curl_slist *headers = NULL;
    char content_type[128];
    snprintf(content_type, sizeof content_type, "Content-Type: %s",
             options && options->content_type ? options->content_type
                                              : "application/json");
    headers = curl_slist_append(headers, content_type);
    /* A body past the server's usual 64 KiB cap waits for "100 Continue":
     * a server that refuses it at its headers (413) closes the connection,
     * and a body already on its way would meet a reset that can swallow
     * the refusal ("Failed sending data to the peer" in place of 413,
     * which pbem mail-in would take for a reason to try again). */
    headers = curl_slist_append(headers, body != NULL && strlen(body) > 65536
                                             ? "Expect: 100-continue"
                                             : "Expect:");
    char *sent_body = body ? strdup(body) : NULL;
    if (signer != NULL &&
        !sign(method, path, body, signer, options,
              c->https ? c->authority : NULL, &headers, errbuf)) {
        curl_slist_free_all(headers);
        free(sent_body);
        return false;
    }
    if (options && options->tamper_body_after_signing && sent_body &&
        strlen(sent_body) > 2)
        sent_body[strlen(sent_body) - 2] ^= 1;
    for (int i = 0; options && options->extra_headers &&
                    options->extra_headers[i];
         i++)
        headers = curl_slist_append(headers, options->extra_headers[i]);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (sent_body != NULL) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, sent_body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)strlen(sent_body));
    }
    sink into = {.body = &out->body,
                 .to = options ? options->body_to : NULL,
                 .curl = curl};
    if (into.to != NULL) {
        /* A long download (an export) is cut off only when it stalls. */
        curl_easy_setopt(curl, CURLOPT_TIMEOUT, 0L);
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 30L);
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &into);
    CURLcode rc = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    free(sent_body);
    if (rc != CURLE_OK) {
        snprintf(errbuf, 256, "%.10s %.160s: %.80s", method, url,
                 curl_easy_strerror(rc));
        client_response_free(out);
        return false;
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    if (out->body != NULL)
        out->json = json_loads(out->body, 0, NULL);
    return true;
}

bool client_sign_headers(const char *method, const char *path,
                         const char *body, const client_key *signer,
                         struct curl_slist **headers, char *errbuf)
{
    return sign(method, path, body, signer, NULL, NULL, headers, errbuf);
}

void client_response_free(client_response *response)
{
    json_decref(response->json);
    free(response->body);
    response->json = NULL;
    response->body = NULL;
}

void client_key_id(const unsigned char public_key[32], char key_id[64])
{
    unsigned char digest[8];
    char hex[2 * sizeof digest + 1];
    crypto_generichash(digest, sizeof digest, public_key, 32, NULL, 0);
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    snprintf(key_id, 64, "k_%s", hex);
}

void client_new_key(client_key *key)
{
    memset(key, 0, sizeof *key);
    crypto_sign_keypair(key->public_key, key->secret_key);
    client_key_id(key->public_key, key->key_id);
}

bool client_register(client *c, const char *name, const char *email,
                     client_key *key, char *player_id, char *errbuf)
{
    char key_b64[64];
    sodium_bin2base64(key_b64, sizeof key_b64, key->public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    json_t *body = json_pack("{s:s,s:s?,s:s}", "name", name, "email", email,
                             "public_key", key_b64);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    client_response r;
    /* The registration proves possession: it is signed by the key. */
    client_key_id(key->public_key, key->key_id);
    bool ok = client_send(c, "POST", "/v1/players", text, key, NULL, &r, errbuf);
    free(text);
    if (ok && r.status != 201) {
        snprintf(errbuf, 256, "registration refused (%ld): %s", r.status,
                 r.body ? r.body : "");
        ok = false;
    }
    if (ok) {
        snprintf(key->key_id, sizeof key->key_id, "%s",
                 json_string_value(json_object_get(r.json, "key_id")));
        snprintf(player_id, 32, "%s",
                 json_string_value(json_object_get(r.json, "id")));
    }
    client_response_free(&r);
    return ok;
}
