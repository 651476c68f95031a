/* keygen_cmd.c: pbem keygen. */
#include "player_cmd.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "player_client.h"
#include "player_config.h"

int keygen_cmd_main(int argc, char **argv)
{
    bool force = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--force") == 0)
            force = true;
        else {
            fputs("usage: pbem keygen [--force]\n"
                  "Makes your Ed25519 key in $XDG_CONFIG_HOME/pbem (else "
                  "~/.config/pbem);\n--force replaces a key already there.\n",
                  strcmp(argv[i], "--help") == 0 ? stdout : stderr);
            return strcmp(argv[i], "--help") == 0 ? PLAYER_OK : PLAYER_USAGE;
        }
    }
    if (sodium_init() < 0) {
        fputs("pbem: libsodium could not start.\n", stderr);
        return PLAYER_REFUSED;
    }
    client_key key;
    if (!player_config_new_key(force, &key))
        return PLAYER_REFUSED;
    char dir[4096];
    player_config_dir(dir, sizeof dir);
    printf("Your key is in %s/key (key id %s). Next: pbem register NAME "
           "[EMAIL].\n",
           dir, key.key_id);
    sodium_memzero(&key, sizeof key);
    return PLAYER_OK;
}
