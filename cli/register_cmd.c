/* register_cmd.c: pbem register. */
#include "player_cmd.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_client.h"
#include "player_config.h"

int register_cmd_main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || argv[1][0] == '-' ||
        (argc == 3 && argv[2][0] == '-')) {
        bool help = argc == 2 && strcmp(argv[1], "--help") == 0;
        fputs("usage: pbem register NAME [EMAIL]\n"
              "Registers your key (pbem keygen) as a new player called NAME;\n"
              "with EMAIL the service mails you when it is your turn.\n",
              help ? stdout : stderr);
        return help ? PLAYER_OK : PLAYER_USAGE;
    }
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_KEY);
    if (code != PLAYER_OK)
        return code;
    /* The registration proves possession: it is signed by the key it
     * registers, under the id the service will give it. */
    client_key_id(s.key.public_key, s.key.key_id);
    char key_b64[64];
    sodium_bin2base64(key_b64, sizeof key_b64, s.key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    json_t *body = json_pack("{s:s,s:s?,s:s}", "name", argv[1], "email",
                             argc == 3 ? argv[2] : NULL, "public_key", key_b64);
    if (body == NULL) {
        fputs("pbem: NAME and EMAIL must be UTF-8 text.\n", stderr);
        player_close(&s);
        return PLAYER_USAGE;
    }
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    client_response r;
    code = player_call(&s, "POST", "/v1/players", text, &r);
    free(text);
    if (code == PLAYER_OK) {
        const char *id = json_string_value(json_object_get(r.json, "id"));
        const char *key_id =
            json_string_value(json_object_get(r.json, "key_id"));
        const char *name = json_string_value(json_object_get(r.json, "name"));
        if (id == NULL || key_id == NULL) {
            fputs("pbem: the server's answer has no player id.\n", stderr);
            code = PLAYER_REFUSED;
        } else if (!player_config_save_player(id, key_id,
                                              name ? name : argv[1])) {
            code = PLAYER_REFUSED;
        } else {
            printf("Registered as %s: player %s, key %s.\n",
                   name ? name : argv[1], id, key_id);
            const char *pending = json_string_value(
                json_object_get(r.json, "email_pending"));
            /* The address counts only once its owner opened the link: say
             * so, or the player waits for turn mails that never come. */
            if (pending != NULL)
                printf("A link went to %s: open it to receive your turns "
                       "by mail there.\n",
                       pending);
        }
        client_response_free(&r);
    }
    player_close(&s);
    return code;
}
