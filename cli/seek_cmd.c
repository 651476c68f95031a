/* seek_cmd.c: pbem seek, quick match. */
#include "player_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_client.h"

static int usage(FILE *out)
{
    fputs("usage: pbem seek GAME --seats N [--turn-hours H] [--expires-hours "
          "H]\n       pbem seek --list\n       pbem seek --withdraw SEEK\n"
          "Waits for a quick match: as soon as others ask for the same game, "
          "seat\ncount and turn deadline, near your rating, the server starts "
          "a rated\nmatch for you all. --list shows your seeks; --withdraw "
          "stops one.\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* A whole number argument from 1 to max, or -1. */
static long number(const char *text, long max)
{
    char *end = NULL;
    long n = strtol(text, &end, 10);
    return end != text && *end == '\0' && n >= 1 && n <= max ? n : -1;
}

static void print_seek(const json_t *seek)
{
    const json_t *match = json_object_get(seek, "match");
    printf("%s  %s  %lld seats  %lld h turns  %s%s%s\n",
           player_text(json_object_get(seek, "id")),
           player_text(json_object_get(seek, "game")),
           (long long)json_integer_value(json_object_get(seek, "seats")),
           (long long)json_integer_value(json_object_get(seek, "turn_hours")),
           player_text(json_object_get(seek, "status")),
           json_is_string(match) ? " " : "",
           json_is_string(match) ? json_string_value(match) : "");
}

int seek_cmd_main(int argc, char **argv)
{
    const char *game = NULL, *withdraw = NULL;
    long seats = -1, turn = 24, expires = 72;
    bool list = false;
    for (int i = 1; i < argc; i++) {
        bool more = i + 1 < argc;
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        if (strcmp(argv[i], "--seats") == 0 && more)
            seats = number(argv[++i], 16);
        else if (strcmp(argv[i], "--turn-hours") == 0 && more)
            turn = number(argv[++i], 8760);
        else if (strcmp(argv[i], "--expires-hours") == 0 && more)
            expires = number(argv[++i], 720);
        else if (strcmp(argv[i], "--list") == 0)
            list = true;
        else if (strcmp(argv[i], "--withdraw") == 0 && more)
            withdraw = argv[++i];
        else if (argv[i][0] != '-' && game == NULL)
            game = argv[i];
        else
            return usage(stderr);
    }
    bool asking = game != NULL;
    if (asking + list + (withdraw != NULL) != 1 ||
        (asking && (seats < 0 || turn < 0 || expires < 0)) ||
        (withdraw != NULL &&
         strspn(withdraw, "s_0123456789") != strlen(withdraw)))
        return usage(stderr);
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    if (code != PLAYER_OK)
        return code;
    client_response r;
    if (list) {
        code = player_call(&s, "GET", "/v1/seeks", NULL, &r);
        if (code == PLAYER_OK) {
            size_t i;
            const json_t *seek;
            json_array_foreach(json_object_get(r.json, "seeks"), i, seek)
            {
                print_seek(seek);
            }
            if (json_array_size(json_object_get(r.json, "seeks")) == 0)
                puts("You have no seek.");
            client_response_free(&r);
        }
    } else if (withdraw != NULL) {
        char path[96];
        snprintf(path, sizeof path, "/v1/seeks/%s", withdraw);
        code = player_call(&s, "DELETE", path, NULL, &r);
        if (code == PLAYER_OK) {
            printf("Withdrawn: %s no longer waits.\n", withdraw);
            client_response_free(&r);
        }
    } else {
        json_t *request =
            json_pack("{s:s,s:i,s:i,s:i}", "game", game, "seats", (int)seats,
                      "turn_hours", (int)turn, "expires_hours", (int)expires);
        char *body = json_dumps(request, JSON_COMPACT);
        json_decref(request);
        code = player_call(&s, "POST", "/v1/seeks", body, &r);
        free(body);
        if (code == PLAYER_OK) {
            const json_t *match = json_object_get(r.json, "match");
            const json_t *seek = json_object_get(r.json, "seek");
            if (json_is_string(match))
                printf("Matched: %s has started; see it with pbem view %s\n",
                       json_string_value(match), json_string_value(match));
            else
                printf("Waiting as %s until %s; pbem seek --list shows when "
                       "it is matched.\n",
                       player_text(json_object_get(seek, "id")),
                       player_text(json_object_get(seek, "expires_at")));
            client_response_free(&r);
        }
    }
    player_close(&s);
    return code;
}
