/* repair_cmd.c: pbem admin rewind|replace|abort. */
#include "repair_cmd.h"

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_client.h"

static int usage(void)
{
    fputs("usage: pbem admin rewind  --key FILE [--url URL] MATCH SEQ "
          "--reason TEXT\n"
          "       pbem admin replace --key FILE [--url URL] MATCH SEAT PLAYER "
          "--reason TEXT\n"
          "       pbem admin abort   --key FILE [--url URL] MATCH --reason "
          "TEXT\n"
          "FILE holds the admin's Ed25519 seed in base64 (keyid \"admin\").\n"
          "URL defaults to $PBEM_URL, else http://127.0.0.1:8080\n",
          stderr);
    return 2;
}

/* A whole decimal number, or -1. */
static long long number(const char *text)
{
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    return *text != '\0' && *end == '\0' && value >= 0 ? value : -1;
}

int repair_cmd_main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *action = argv[1];
    int wanted = strcmp(action, "rewind") == 0    ? 2
                 : strcmp(action, "replace") == 0 ? 3
                 : strcmp(action, "abort") == 0   ? 1
                                                  : 0;
    if (wanted == 0)
        return usage();
    const char *url = getenv("PBEM_URL"), *key_file = NULL, *reason = NULL;
    const char *args[3] = {0};
    int count = 0;
    for (int i = 2; i < argc; i++) {
        bool more = i + 1 < argc;
        if (strcmp(argv[i], "--url") == 0 && more)
            url = argv[++i];
        else if (strcmp(argv[i], "--key") == 0 && more)
            key_file = argv[++i];
        else if (strcmp(argv[i], "--reason") == 0 && more)
            reason = argv[++i];
        else if (argv[i][0] != '-' && count < wanted)
            args[count++] = argv[i];
        else
            return usage();
    }
    if (key_file == NULL || reason == NULL || count != wanted)
        return usage();
    char path[256];
    json_t *body = NULL;
    if (wanted == 2 && number(args[1]) >= 1) {
        snprintf(path, sizeof path, "/v1/admin/matches/%s/rewind", args[0]);
        body = json_pack("{s:I,s:s}", "to_seq", (json_int_t)number(args[1]),
                         "reason", reason);
    } else if (wanted == 3 && number(args[1]) >= 0) {
        snprintf(path, sizeof path, "/v1/admin/matches/%s/seats/%lld/replace",
                 args[0], number(args[1]));
        body = json_pack("{s:s,s:s}", "player", args[2], "reason", reason);
    } else if (wanted == 1) {
        snprintf(path, sizeof path, "/v1/admin/matches/%s/abort", args[0]);
        body = json_pack("{s:s}", "reason", reason);
    }
    if (body == NULL)
        return usage();
    client_key key;
    if (sodium_init() < 0 || !admin_client_key(key_file, &key)) {
        json_decref(body);
        return 2;
    }
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int code = admin_client_call(url, "POST", path, text, &key, false);
    sodium_memzero(&key, sizeof key);
    free(text);
    return code;
}
