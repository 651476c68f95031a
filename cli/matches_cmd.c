/* matches_cmd.c: pbem matches. */
#include "player_cmd.h"

#include <stdio.h>
#include <string.h>

#include "player_client.h"

/* "Alice, Bob" from [{seat, name}]. */
static void print_names(const json_t *seats)
{
    size_t i;
    const json_t *seat;
    json_array_foreach(seats, i, seat)
    {
        const char *name = json_string_value(json_object_get(seat, "name"));
        printf("%s%s", i ? ", " : "", name ? name : "(free)");
    }
}

int matches_cmd_main(int argc, char **argv)
{
    const char *status = NULL;
    if (argc == 3 && strcmp(argv[1], "--status") == 0 &&
        (strcmp(argv[2], "open") == 0 || strcmp(argv[2], "active") == 0 ||
         strcmp(argv[2], "finished") == 0 || strcmp(argv[2], "aborted") == 0))
        status = argv[2];
    else if (argc != 1) {
        bool help = strcmp(argv[1], "--help") == 0;
        fputs("usage: pbem matches [--status open|active|finished|aborted]\n"
              "Lists your matches, those where you must act first: id, game, "
              "status,\nyour seat, whether it is your turn, the seq and the "
              "players.\n",
              help ? stdout : stderr);
        return help ? PLAYER_OK : PLAYER_USAGE;
    }
    char path[80];
    snprintf(path, sizeof path, "/v1/players/me/matches%s%s",
             status ? "?status=" : "", status ? status : "");
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    client_response r;
    if (code == PLAYER_OK)
        code = player_send(&s, "GET", path, NULL, false, &r);
    if (code != PLAYER_OK) {
        player_close(&s);
        return code;
    }
    /* The route names no match, so a 404 means the server lacks it. */
    if (r.status == 404) {
        fprintf(stderr,
                "pbem: the server at %s cannot list your matches "
                "(it has no GET /v1/players/me/matches: update "
                "pbemd).\n",
                s.url);
        code = PLAYER_REFUSED;
    } else if (r.status != 200) {
        code = player_refused(&r);
    } else {
        const json_t *matches = json_object_get(r.json, "matches");
        if (json_array_size(matches) == 0 && status != NULL)
            printf("None of your matches is %s.\n", status);
        else if (json_array_size(matches) == 0)
            puts("You have no matches yet: pbem new GAME --seats N starts "
                 "one.");
        size_t i;
        const json_t *m;
        json_array_foreach(matches, i, m)
        {
            printf(
                "%-22s %-22s %-8s seat %lld  %-10s seq %-5lld ",
                player_text(json_object_get(m, "match_id")),
                player_text(json_object_get(m, "game")),
                player_text(json_object_get(m, "status")),
                (long long)json_integer_value(json_object_get(m, "seat")),
                json_is_true(json_object_get(m, "your_turn")) ? "your turn"
                                                              : "",
                (long long)json_integer_value(json_object_get(m, "head_seq")));
            print_names(json_object_get(m, "seats"));
            putchar('\n');
        }
    }
    client_response_free(&r);
    player_close(&s);
    return code;
}
