/* view_cmd.c: pbem view. */
#include "player_cmd.h"

#include <stdio.h>
#include <string.h>

#include "player_client.h"
#include "player_config.h"
#include "seat_view.h"

int view_cmd_main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        bool help = argc == 2 && strcmp(argv[1], "--help") == 0;
        fputs("usage: pbem view MATCH\n"
              "Shows what your seat of MATCH sees, your moves, and the seq;\n"
              "pbem move plays at that seq.\n",
              help ? stdout : stderr);
        return help ? PLAYER_OK : PLAYER_USAGE;
    }
    if (!player_config_match_id_ok(argv[1])) {
        fprintf(stderr, "pbem: \"%.60s\" is not a match id (like m_12).\n",
                argv[1]);
        return PLAYER_USAGE;
    }
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    client_response r;
    if (code == PLAYER_OK)
        code = seat_view_fetch(&s, argv[1], &r);
    if (code == PLAYER_OK) {
        seat_view_print(stdout, argv[1], r.json);
        if (!player_config_remember(argv[1], seat_view_seq(r.json)))
            code = PLAYER_REFUSED;
        client_response_free(&r);
    }
    player_close(&s);
    return code;
}
