/* admin_cmd.c: pbem export, pbem import, pbem verify --export. */
#include "admin_cmd.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_client.h"
#include "ledger/export_check.h"
#include "json_io.h"

static int usage(void)
{
    fputs("usage: pbem export --key FILE [--url URL] MATCH\n"
          "       pbem export --key FILE [--url URL] --status "
          "open|active|finished|aborted|all\n"
          "                   [--since RFC3339] [--until RFC3339]\n"
          "       pbem import --key FILE [--url URL] [--new-id] EXPORT_FILE\n"
          "       pbem verify --export EXPORT_FILE\n"
          "FILE holds the admin's Ed25519 seed in base64 (keyid \"admin\").\n"
          "URL defaults to $PBEM_URL, else http://127.0.0.1:8080\n",
          stderr);
    return 2;
}

/* The options of export and import; those not given stay NULL/false. */
typedef struct options {
    const char *url, *status, *since, *until, *arg;
    bool new_id;
} options;

static int parse(int argc, char **argv, bool exporting, options *o,
                 client_key *key)
{
    const char *key_file = NULL;
    memset(o, 0, sizeof *o);
    o->url = getenv("PBEM_URL");
    for (int i = 1; i < argc; i++) {
        bool more = i + 1 < argc;
        if (strcmp(argv[i], "--url") == 0 && more)
            o->url = argv[++i];
        else if (strcmp(argv[i], "--key") == 0 && more)
            key_file = argv[++i];
        else if (exporting && strcmp(argv[i], "--status") == 0 && more)
            o->status = argv[++i];
        else if (exporting && strcmp(argv[i], "--since") == 0 && more)
            o->since = argv[++i];
        else if (exporting && strcmp(argv[i], "--until") == 0 && more)
            o->until = argv[++i];
        else if (!exporting && strcmp(argv[i], "--new-id") == 0)
            o->new_id = true;
        else if (argv[i][0] != '-' && o->arg == NULL)
            o->arg = argv[i];
        else
            return usage();
    }
    if (key_file == NULL)
        return usage();
    if (sodium_init() < 0 || !admin_client_key(key_file, key))
        return 2;
    return 0;
}

/* Adds &name=value (percent-encoded) to a query; false when too long. */
static bool add_query(char *path, size_t size, const char *name,
                      const char *value)
{
    if (value == NULL)
        return true;
    size_t used = strlen(path);
    int n = snprintf(path + used, size - used,
                     "%s%s=", strchr(path, '?') ? "&" : "?", name);
    return n > 0 && (size_t)n < size - used &&
           admin_client_escape(path, size, value);
}

int export_cmd_main(int argc, char **argv)
{
    options o;
    client_key key;
    int bad = parse(argc, argv, true, &o, &key);
    if (bad)
        return bad;
    if ((o.status == NULL) == (o.arg == NULL) ||
        (o.arg != NULL && (o.since != NULL || o.until != NULL)))
        return usage();
    char path[512];
    if (o.arg != NULL)
        snprintf(path, sizeof path, "/v1/admin/matches/%s/export", o.arg);
    else
        snprintf(path, sizeof path, "/v1/admin/export");
    if (o.status != NULL && strcmp(o.status, "all") != 0 &&
        !add_query(path, sizeof path, "status", o.status))
        return usage();
    if (!add_query(path, sizeof path, "since", o.since) ||
        !add_query(path, sizeof path, "until", o.until))
        return usage();
    int code = admin_client_call(o.url, "GET", path, NULL, &key, true);
    sodium_memzero(&key, sizeof key);
    return code;
}

int import_cmd_main(int argc, char **argv)
{
    options o;
    client_key key;
    int bad = parse(argc, argv, false, &o, &key);
    if (bad)
        return bad;
    if (o.arg == NULL)
        return usage();
    size_t len = 0;
    char *text = admin_client_slurp(o.arg, &len);
    if (text == NULL)
        return 2;
    int code =
        admin_client_call(o.url, "POST",
                          o.new_id ? "/v1/admin/matches/import?new_id=true"
                                   : "/v1/admin/matches/import",
                          text, &key, false);
    sodium_memzero(&key, sizeof key);
    free(text);
    return code;
}

int admin_verify_export_file(const char *file)
{
    if (sodium_init() < 0)
        return 2;
    size_t len = 0;
    char *text = admin_client_slurp(file, &len);
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
