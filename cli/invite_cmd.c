/* invite_cmd.c: pbem invite. */
#include "invite_cmd.h"

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_client.h"

static int usage(void)
{
    fputs("usage: pbem invite MATCH EMAIL NAME --key FILE [--url URL]\n"
          "Mails EMAIL an invitation to take a free seat of MATCH under "
          "NAME;\nthey accept by answering it with the word join.\n"
          "FILE holds your Ed25519 seed in base64 (the key you registered).\n"
          "URL defaults to $PBEM_URL, else http://127.0.0.1:8080\n",
          stderr);
    return 2;
}

int invite_cmd_main(int argc, char **argv)
{
    const char *url = getenv("PBEM_URL"), *key_file = NULL;
    const char *args[3] = {0};
    int count = 0;
    for (int i = 1; i < argc; i++) {
        bool more = i + 1 < argc;
        if (strcmp(argv[i], "--url") == 0 && more)
            url = argv[++i];
        else if (strcmp(argv[i], "--key") == 0 && more)
            key_file = argv[++i];
        else if (argv[i][0] != '-' && count < 3)
            args[count++] = argv[i];
        else
            return usage();
    }
    if (count != 3 || key_file == NULL)
        return usage();
    client_key key;
    if (sodium_init() < 0 || !admin_client_key(key_file, &key))
        return 2;
    /* A player's key is known by the id the service gives it. */
    client_key_id(key.public_key, key.key_id);
    char path[160];
    if (snprintf(path, sizeof path, "/v1/matches/") >= (int)sizeof path ||
        !admin_client_escape(path, sizeof path, args[0]) ||
        strlen(path) + sizeof "/invitations" > sizeof path)
        return usage();
    strcat(path, "/invitations");
    json_t *body = json_pack("{s:s,s:s}", "email", args[1], "name", args[2]);
    if (body == NULL) {
        fputs("pbem: EMAIL and NAME must be UTF-8 text\n", stderr);
        return 2;
    }
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int code = admin_client_call(url, "POST", path, text, &key, false);
    free(text);
    sodium_memzero(&key, sizeof key);
    return code;
}
