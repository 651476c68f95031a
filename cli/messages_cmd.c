/* messages_cmd.c: pbem messages. */
#include "player_cmd.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_client.h"
#include "player_config.h"

/* One message as a line: "#3 Eliza to you: text" (continuation lines
 * indented under it). */
static void print_message(const json_t *m)
{
    const json_t *to = json_object_get(m, "to_name");
    printf("#%lld %s%s%s: ",
           (long long)json_integer_value(json_object_get(m, "id")),
           player_text(json_object_get(m, "from_name")),
           json_is_string(to) ? " to " : "",
           json_is_string(to) ? json_string_value(to) : "");
    for (const char *p = player_text(json_object_get(m, "text")); *p; p++) {
        putchar(*p);
        if (*p == '\n')
            fputs("    ", stdout);
    }
    putchar('\n');
}

int messages_cmd_main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        bool help = argc == 2 && strcmp(argv[1], "--help") == 0;
        fputs("usage: pbem messages MATCH\n"
              "Prints what was said at MATCH's table that you may read: the\n"
              "messages to everyone, and those to or from you alone.\n",
              help ? stdout : stderr);
        return help ? PLAYER_OK : PLAYER_USAGE;
    }
    char path[128];
    if (!player_match_path(path, sizeof path, argv[1], "/messages"))
        return PLAYER_USAGE;
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    long long after = 0;
    int printed = 0;
    /* Page by page, until a page comes back short. */
    while (code == PLAYER_OK) {
        char page[160];
        snprintf(page, sizeof page, "%s?after=%lld", path, after);
        client_response r;
        code = player_call(&s, "GET", page, NULL, &r);
        if (code != PLAYER_OK)
            break;
        const json_t *list = json_object_get(r.json, "messages");
        size_t i;
        const json_t *m;
        json_array_foreach(list, i, m)
        {
            print_message(m);
            printed++;
        }
        long long last =
            (long long)json_integer_value(json_object_get(r.json, "last"));
        bool more = json_array_size(list) > 0 && last > after;
        after = last;
        client_response_free(&r);
        if (!more)
            break;
    }
    if (code == PLAYER_OK && printed == 0)
        printf("Nothing has been said at this table yet.\n");
    player_close(&s);
    return code;
}
