/* chat_link_cmd.c: pbem chat-link. */
#include "player_cmd.h"

#include <stdio.h>
#include <string.h>

#include "player_client.h"

static int usage(FILE *out)
{
    fputs("usage: pbem chat-link\n"
          "Prints a one-time code that links a Discord or Slack account to "
          "your\nplayer: type /pbem link CODE where the pbem app is "
          "installed, within\n30 minutes. The link is one of your grants "
          "(revoke it on the page).\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

int chat_link_cmd_main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(stdout);
    if (argc != 1)
        return usage(stderr);
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    if (code != PLAYER_OK)
        return code;
    client_response r;
    code = player_call(&s, "POST", "/v1/players/me/chat-links", NULL, &r);
    if (code == PLAYER_OK) {
        printf("%s\nIn the chat: /pbem link %s (works once, until %s)\n",
               player_text(json_object_get(r.json, "code")),
               player_text(json_object_get(r.json, "code")),
               player_text(json_object_get(r.json, "expires")));
        client_response_free(&r);
    }
    player_close(&s);
    return code;
}
