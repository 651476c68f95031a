/* verify_cmd.c: the same verifier as GET /v1/matches/{id}/verify, run on
 * the player's own machine so nobody has to trust the server's word. */
#include "verify_cmd.h"

#include <curl/curl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_cmd.h"
#include "client.h"
#include "json_io.h"
#include "ledger/verify.h"

#define PAGE 500

static int usage(void)
{
    fputs("usage: pbem verify [--url URL] MATCH\n"
          "       pbem verify --file FILE\n"
          "       pbem verify --export EXPORT_FILE\n"
          "URL defaults to $PBEM_URL, else http://127.0.0.1:8080\n",
          stderr);
    return 2;
}

/* The whole public log, page by page; NULL after a message on stderr. */
static json_t *fetch_log(const char *url, const char *match)
{
    client *http = client_new(url);
    json_t *all = json_array();
    for (;;) {
        char path[160], error[256];
        client_response r;
        snprintf(path, sizeof path, "/v1/matches/%s/events?after=%zu&limit=%d",
                 match, json_array_size(all), PAGE);
        if (!client_send(http, "GET", path, NULL, NULL, NULL, &r, error)) {
            fprintf(stderr, "pbem: %s\n", error);
            json_decref(all);
            all = NULL;
            break;
        }
        json_t *events = json_object_get(r.json, "events");
        if (r.status != 200 || !json_is_array(events)) {
            fprintf(stderr, "pbem: the server answered %ld: %s\n", r.status,
                    r.body ? r.body : "");
            client_response_free(&r);
            json_decref(all);
            all = NULL;
            break;
        }
        size_t got = json_array_size(events);
        json_array_extend(all, events);
        client_response_free(&r);
        if (got < PAGE)
            break;
    }
    client_free(http);
    return all;
}

static json_t *read_log(const char *file)
{
    FILE *in = fopen(file, "r");
    if (in == NULL) {
        fprintf(stderr, "pbem: cannot open %s\n", file);
        return NULL;
    }
    json_t *value = json_io_read(in, "the log");
    fclose(in);
    if (json_is_object(value)) {
        json_t *events = json_incref(json_object_get(value, "events"));
        json_decref(value);
        value = events;
    }
    if (!json_is_array(value)) {
        fprintf(stderr, "pbem: %s holds neither an events array nor an "
                        "events answer\n", file);
        json_decref(value);
        return NULL;
    }
    return value;
}

int verify_cmd_main(int argc, char **argv)
{
    const char *url = getenv("PBEM_URL");
    const char *file = NULL, *match = NULL;
    if (argc == 3 && strcmp(argv[1], "--export") == 0)
        return admin_verify_export_file(argv[2]);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--url") == 0 && i + 1 < argc)
            url = argv[++i];
        else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc)
            file = argv[++i];
        else if (argv[i][0] != '-' && match == NULL)
            match = argv[i];
        else
            return usage();
    }
    if ((file == NULL) == (match == NULL))
        return usage();
    if (sodium_init() < 0)
        return 2;
    json_t *log;
    if (file != NULL) {
        log = read_log(file);
    } else {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        log = fetch_log(url ? url : "http://127.0.0.1:8080", match);
    }
    if (log == NULL)
        return 2;
    verify_report report;
    verify_events(log, &report);
    json_t *verdict = verify_report_json(&report);
    json_io_print(stdout, verdict);
    if (!report.ok)
        fprintf(stderr, "pbem: event %lld: %s\n", report.bad_seq, report.reason);
    json_decref(verdict);
    json_decref(log);
    return report.ok ? 0 : 1;
}
