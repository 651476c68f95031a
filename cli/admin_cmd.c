/* admin_cmd.c: pbem export, pbem import, pbem verify --export. */
#include "admin_cmd.h"

#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "export_check.h"
#include "json_io.h"

static int usage(void)
{
    fputs("usage: pbem export --key FILE [--url URL] MATCH\n"
          "       pbem export --key FILE [--url URL] --status "
          "open|active|finished|all\n"
          "       pbem import --key FILE [--url URL] EXPORT_FILE\n"
          "       pbem verify --export EXPORT_FILE\n"
          "FILE holds the admin's Ed25519 seed in base64 (keyid \"admin\").\n"
          "URL defaults to $PBEM_URL, else http://127.0.0.1:8080\n",
          stderr);
    return 2;
}

/* The whole file, NUL-terminated; NULL after a message. */
static char *slurp(const char *file, size_t *len)
{
    FILE *in = fopen(file, "rb");
    if (in == NULL) {
        fprintf(stderr, "pbem: cannot open %s\n", file);
        return NULL;
    }
    size_t cap = 65536, used = 0;
    char *text = malloc(cap);
    size_t got;
    while (text != NULL && (got = fread(text + used, 1, cap - used - 1, in)) > 0) {
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

static bool load_admin_key(const char *file, client_key *key)
{
    size_t len = 0;
    char *text = slurp(file, &len);
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

static int call(const char *url, const char *method, const char *path,
                const char *body, const client_key *key)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    client *http = client_new(url ? url : "http://127.0.0.1:8080");
    client_response r;
    char error[256];
    int code = 0;
    if (!client_send(http, method, path, body, key, NULL, &r, error)) {
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

static int parse(int argc, char **argv, const char **url, client_key *key,
                 const char **status, const char **arg)
{
    const char *key_file = NULL;
    *url = getenv("PBEM_URL");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--url") == 0 && i + 1 < argc)
            *url = argv[++i];
        else if (strcmp(argv[i], "--key") == 0 && i + 1 < argc)
            key_file = argv[++i];
        else if (status != NULL && strcmp(argv[i], "--status") == 0 &&
                 i + 1 < argc)
            *status = argv[++i];
        else if (argv[i][0] != '-' && *arg == NULL)
            *arg = argv[i];
        else
            return usage();
    }
    if (key_file == NULL)
        return usage();
    if (sodium_init() < 0 || !load_admin_key(key_file, key))
        return 2;
    return 0;
}

int export_cmd_main(int argc, char **argv)
{
    const char *url, *status = NULL, *match = NULL;
    client_key key;
    int bad = parse(argc, argv, &url, &key, &status, &match);
    if (bad)
        return bad;
    if ((status == NULL) == (match == NULL))
        return usage();
    char path[160];
    if (match != NULL)
        snprintf(path, sizeof path, "/v1/admin/matches/%s/export", match);
    else if (strcmp(status, "all") == 0)
        snprintf(path, sizeof path, "/v1/admin/export");
    else
        snprintf(path, sizeof path, "/v1/admin/export?status=%s", status);
    int code = call(url, "GET", path, NULL, &key);
    sodium_memzero(&key, sizeof key);
    return code;
}

int import_cmd_main(int argc, char **argv)
{
    const char *url, *file = NULL;
    client_key key;
    int bad = parse(argc, argv, &url, &key, NULL, &file);
    if (bad)
        return bad;
    if (file == NULL)
        return usage();
    size_t len = 0;
    char *text = slurp(file, &len);
    if (text == NULL)
        return 2;
    int code = call(url, "POST", "/v1/admin/matches/import", text, &key);
    sodium_memzero(&key, sizeof key);
    free(text);
    return code;
}

int admin_verify_export_file(const char *file)
{
    if (sodium_init() < 0)
        return 2;
    size_t len = 0;
    char *text = slurp(file, &len);
    if (text == NULL)
        return 2;
    export_match *matches = NULL;
    verify_report report;
    int count = export_parse(text, len, &matches, &report);
    free(text);
    if (count <= 0) {
        fprintf(stderr, "pbem: %s: %s\n", file,
                count < 0 ? report.reason : "no export header line");
        return count < 0 ? 1 : 2;
    }
    int code = 0;
    for (int i = 0; i < count; i++) {
        export_check(&matches[i], &report);
        json_t *verdict = verify_report_json(&report);
        json_object_set(verdict, "match",
                        json_object_get(matches[i].header, "match"));
        json_io_print(stdout, verdict);
        json_decref(verdict);
        if (!report.ok) {
            fprintf(stderr, "pbem: %s: event %lld: %s\n",
                    json_string_value(
                        json_object_get(matches[i].header, "match")),
                    report.bad_seq, report.reason);
            code = 1;
        }
    }
    export_matches_free(matches, count);
    return code;
}
