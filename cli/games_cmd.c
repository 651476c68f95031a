/* games_cmd.c: pbem games. */
#include "player_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_client.h"

/* "rounds (integer 1-3, default 1)" */
static void print_option(const char *name, const json_t *option)
{
    const char *type = json_string_value(json_object_get(option, "type"));
    char *fallback = json_dumps(json_object_get(option, "default"),
                                JSON_ENCODE_ANY | JSON_COMPACT);
    printf("%s (%s", name, type ? type : "?");
    const json_t *choices = json_object_get(option, "enum");
    const json_t *min = json_object_get(option, "minimum");
    const json_t *max = json_object_get(option, "maximum");
    if (json_is_array(choices)) {
        size_t i;
        const json_t *choice;
        json_array_foreach(choices, i, choice)
        {
            printf("%s%s", i ? "|" : " ", player_text(choice));
        }
    } else if (json_is_integer(min) && json_is_integer(max)) {
        printf(" %lld-%lld", (long long)json_integer_value(min),
               (long long)json_integer_value(max));
    }
    printf(", default %s)", fallback ? fallback : "?");
    free(fallback);
}

/* Prints a text the server sent, without the control characters a
 * hostile server could use to rewrite the terminal (newlines kept). */
static void print_plain(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p == '\n' || *p >= 0x20)
            putchar(*p == 0x7f ? '?' : *p);
}

/* pbem games GAME: one game's rules in short. */
static int show_rules(player_session *s, const char *game)
{
    if (game[0] == '\0' ||
        strspn(game, "abcdefghijklmnopqrstuvwxyz_") != strlen(game)) {
        fprintf(stderr, "pbem: \"%s\" is not a game's name; pbem games "
                        "lists them.\n",
                game);
        return PLAYER_USAGE;
    }
    char path[128];
    snprintf(path, sizeof path, "/v1/games/%s", game);
    client_response r;
    int code = player_call(s, "GET", path, NULL, &r);
    if (code != PLAYER_OK)
        return code;
    print_plain(player_text(json_object_get(r.json, "summary")));
    client_response_free(&r);
    return PLAYER_OK;
}

int games_cmd_main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        bool help = strcmp(argv[1], "--help") == 0;
        fputs("usage: pbem games [GAME]\nLists the games the server runs, "
              "their seats and options\n(pass options to pbem new as "
              "--option NAME=VALUE); with GAME, prints\nthat game's rules "
              "in short, with its move notation.\n",
              help ? stdout : stderr);
        return help ? PLAYER_OK : PLAYER_USAGE;
    }
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_NOTHING);
    if (code == PLAYER_OK && argc == 2) {
        code = show_rules(&s, argv[1]);
        player_close(&s);
        return code;
    }
    client_response r;
    if (code == PLAYER_OK)
        code = player_call(&s, "GET", "/v1/games", NULL, &r);
    if (code != PLAYER_OK) {
        player_close(&s);
        return code;
    }
    size_t i;
    const json_t *game;
    json_array_foreach(json_object_get(r.json, "games"), i, game)
    {
        printf(
            "%-22s %s, %lld-%lld players",
            player_text(json_object_get(game, "name")),
            player_text(json_object_get(game, "title")),
            (long long)json_integer_value(json_object_get(game, "min_seats")),
            (long long)json_integer_value(json_object_get(game, "max_seats")));
        const char *name;
        const json_t *option;
        bool first = true;
        json_object_foreach(json_object_get(game, "options"), name, option)
        {
            fputs(first ? "; options: " : ", ", stdout);
            first = false;
            print_option(name, option);
        }
        putchar('\n');
    }
    fputs("pbem games GAME prints a game's rules in short.\n", stdout);
    client_response_free(&r);
    player_close(&s);
    return PLAYER_OK;
}
