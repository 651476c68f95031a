/* join_cmd.c: pbem join. */
#include "player_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "player_client.h"

static int usage(FILE *out)
{
    fputs("usage: pbem join MATCH [--seat S]\n"
          "Takes the next free seat of MATCH. The server seats players in "
          "order;\nwith --seat S pbem joins only when S is that seat.\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* The first seat of match without a player, or -1. */
static long first_free_seat(const json_t *match)
{
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(match, "seats"), i, seat)
    {
        if (json_is_null(json_object_get(seat, "player")))
            return (long)json_integer_value(json_object_get(seat, "seat"));
    }
    long count = (long)json_integer_value(json_object_get(match, "seat_count"));
    long taken = (long)json_array_size(json_object_get(match, "seats"));
    return taken < count ? taken : -1;
}

int join_cmd_main(int argc, char **argv)
{
    const char *match = NULL;
    long wanted = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        if (strcmp(argv[i], "--seat") == 0 && i + 1 < argc) {
            char *end = NULL;
            wanted = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || wanted < 0)
                return usage(stderr);
        } else if (argv[i][0] != '-' && match == NULL)
            match = argv[i];
        else
            return usage(stderr);
    }
    char path[128], join_path[128];
    if (match == NULL)
        return usage(stderr);
    if (!player_match_path(path, sizeof path, match, "") ||
        !player_match_path(join_path, sizeof join_path, match, "/join"))
        return PLAYER_USAGE;
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    if (code != PLAYER_OK)
        return code;
    client_response r;
    if (wanted >= 0) {
        code = player_call(&s, "GET", path, NULL, &r);
        if (code == PLAYER_OK) {
            long free_seat = first_free_seat(r.json);
            if (free_seat != wanted) {
                if (free_seat < 0)
                    fprintf(stderr, "pbem: %s has no free seat.\n", match);
                else
                    fprintf(stderr,
                            "pbem: seat %ld of %s is not the one the "
                            "server gives next: that is seat %ld.\n",
                            wanted, match, free_seat);
                code = PLAYER_REFUSED;
            }
            client_response_free(&r);
        }
    }
    if (code == PLAYER_OK)
        code = player_call(&s, "POST", join_path, "{}", &r);
    if (code == PLAYER_OK) {
        const json_t *m = json_object_get(r.json, "match");
        const char *status = json_string_value(json_object_get(m, "status"));
        printf("You have seat %lld of %s; the match is %s.\n",
               (long long)json_integer_value(json_object_get(r.json, "seat")),
               match,
               status && strcmp(status, "active") == 0
                   ? "on: see it with pbem view"
                   : "waiting for more players");
        client_response_free(&r);
    }
    player_close(&s);
    return code;
}
