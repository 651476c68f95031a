/* say_cmd.c: pbem say. */
#include "player_cmd.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_client.h"
#include "player_config.h"

static int usage(bool help)
{
    fputs("usage: pbem say MATCH [--to SEAT] TEXT…\n"
          "Writes TEXT (the words after MATCH, joined by spaces) to everyone\n"
          "at MATCH's table, or with --to to the player at SEAT alone.\n"
          "pbem messages MATCH reads what was said.\n",
          help ? stdout : stderr);
    return help ? PLAYER_OK : PLAYER_USAGE;
}

int say_cmd_main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(true);
    if (argc < 3 || argv[1][0] == '-')
        return usage(false);
    int first = 2;
    long to = -1;
    if (strcmp(argv[2], "--to") == 0) {
        char *end = NULL;
        to = argc > 3 ? strtol(argv[3], &end, 10) : -1;
        if (argc < 5 || *argv[3] == '\0' || *end != '\0' || to < 0) {
            fprintf(stderr, "pbem: --to takes a seat number (0, 1, …) and "
                            "the text follows it.\n");
            return PLAYER_USAGE;
        }
        first = 4;
    }
    size_t size = 1;
    for (int i = first; i < argc; i++)
        size += strlen(argv[i]) + 1;
    char *text = calloc(1, size);
    if (text == NULL)
        abort();
    for (int i = first; i < argc; i++) {
        if (i > first)
            strcat(text, " ");
        strcat(text, argv[i]);
    }
    char path[96];
    if (!player_match_path(path, sizeof path, argv[1], "/messages")) {
        free(text);
        return PLAYER_USAGE;
    }
    json_t *body = json_pack("{s:s}", "text", text);
    free(text);
    if (body == NULL) {
        fprintf(stderr, "pbem: the text is not UTF-8.\n");
        return PLAYER_USAGE;
    }
    if (to >= 0)
        json_object_set_new(body, "to", json_integer(to));
    char *raw = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    client_response r;
    if (code == PLAYER_OK)
        code = player_call(&s, "POST", path, raw, &r);
    if (code == PLAYER_OK) {
        const json_t *message = json_object_get(r.json, "message");
        const json_t *to_name = json_object_get(message, "to_name");
        if (json_is_string(to_name))
            printf(
                "Said to %s alone (message %lld).\n",
                json_string_value(to_name),
                (long long)json_integer_value(json_object_get(message, "id")));
        else
            printf(
                "Said to everyone at the table (message %lld).\n",
                (long long)json_integer_value(json_object_get(message, "id")));
        client_response_free(&r);
    }
    free(raw);
    player_close(&s);
    return code;
}
