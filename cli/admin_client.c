/* admin_client.c */
#include "admin_client.h"

#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *admin_client_slurp(const char *file, size_t *len)
{
    FILE *in = fopen(file, "rb");
    if (in == NULL) {
        fprintf(stderr, "pbem: cannot open %s\n", file);
        return NULL;
    }
    size_t cap = 65536, used = 0;
    char *text = malloc(cap);
    size_t got;
    while (text != NULL &&
           (got = fread(text + used, 1, cap - used - 1, in)) > 0) {
        used += got;
        if (cap - used < 2) {
            char *grown = realloc(text, cap *= 2);
            if (grown == NULL)
                free(text);
            text = grown;
        }
    }
    fclose(in);
    if (text == NULL)
        abort();
    text[used] = '\0';
    *len = used;
    return text;
}

bool admin_client_key(const char *file, client_key *key)
{
    size_t len = 0;
    char *text = admin_client_slurp(file, &len);
    if (text == NULL)
        return false;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
                       text[len - 1] == ' '))
        text[--len] = '\0';
    unsigned char seed[crypto_sign_SEEDBYTES];
    size_t seed_len = 0;
    bool ok = sodium_base642bin(seed, sizeof seed, text, len, NULL, &seed_len,
                                NULL, sodium_base64_VARIANT_ORIGINAL) == 0 &&
              seed_len == sizeof seed;
    sodium_memzero(text, len);
    free(text);
    if (!ok) {
        fprintf(stderr, "pbem: %s does not hold a base64 Ed25519 seed\n", file);
        return false;
    }
    memset(key, 0, sizeof *key);
    crypto_sign_seed_keypair(key->public_key, key->secret_key, seed);
    sodium_memzero(seed, sizeof seed);
    snprintf(key->key_id, sizeof key->key_id, "admin");
    return true;
}

int admin_client_call(const char *url, const char *method, const char *path,
                      const char *body, const client_key *key, bool stream)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    client *http = client_new(url ? url : "http://127.0.0.1:8080");
    client_response r;
    char error[256];
    int code = 0;
    client_send_options options = {.body_to = stream ? stdout : NULL};
    if (!client_send(http, method, path, body, key, &options, &r, error)) {
        fprintf(stderr, "pbem: %s\n", error);
        client_free(http);
        return 1;
    }
    if (r.status >= 200 && r.status < 300) {
        fputs(r.body ? r.body : "", stdout);
        if (r.body && r.json != NULL)
            fputc('\n', stdout);
    } else {
        fprintf(stderr, "pbem: the server answered %ld: %s\n", r.status,
                r.body ? r.body : "");
        code = 1;
    }
    client_response_free(&r);
    client_free(http);
    return code;
}

bool admin_client_escape(char *out, size_t size, const char *text)
{
    size_t used = strlen(out);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        bool plain = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
                     (*c >= '0' && *c <= '9') || strchr("-._~:", *c) != NULL;
        int n = plain ? snprintf(out + used, size - used, "%c", *c)
                      : snprintf(out + used, size - used, "%%%02X", *c);
        if (n < 0 || (size_t)n >= size - used)
            return false;
        used += (size_t)n;
    }
    return true;
}
