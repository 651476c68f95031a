/* list_cmd.c: pbem list, the lobby's open matches. */
#include "player_cmd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "player_client.h"

static int usage(FILE *out)
{
    fputs("usage: pbem list [GAME]\n"
          "The open matches waiting for players, the newest first (of GAME "
          "only,\nwhen given): seats taken, turn deadline, whether it is "
          "rated, and its\ncreator's rating and share of turns taken in "
          "time. pbem join MATCH\ntakes a seat.\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* "m_12  Antiquity Quest  1/3 seats  24 h turns  rated  by Alice (rating
 * 1523, 95% in time)" */
static void print_row(const json_t *row)
{
    const json_t *creator = json_object_get(row, "creator");
    const json_t *deadline = json_object_get(row, "deadline");
    const json_t *rating = json_object_get(creator, "rating");
    const json_t *reliability = json_object_get(creator, "reliability");
    printf("%s  %s  %lld/%lld seats  ", player_text(json_object_get(row, "id")),
           player_text(json_object_get(row, "title")),
           (long long)json_integer_value(json_object_get(row, "seats_taken")),
           (long long)json_integer_value(json_object_get(row, "seats")));
    if (json_is_object(deadline))
        printf("%lld h turns  ", (long long)json_integer_value(
                                     json_object_get(deadline, "turn_hours")));
    else
        fputs("no deadlines  ", stdout);
    fputs(json_is_true(json_object_get(row, "rated")) ? "rated" : "unrated",
          stdout);
    printf("  by %s (", player_text(json_object_get(creator, "name")));
    if (json_is_number(rating))
        printf("rating %ld", lround(json_number_value(rating)));
    else
        fputs("not rated yet", stdout);
    if (json_is_number(reliability))
        printf(", %ld%% in time", lround(json_number_value(reliability) * 100));
    fputs(")\n", stdout);
}

int list_cmd_main(int argc, char **argv)
{
    const char *game = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        if (argv[i][0] == '-' || game != NULL)
            return usage(stderr);
        game = argv[i];
    }
    if (game != NULL &&
        (game[0] == '\0' ||
         strspn(game, "abcdefghijklmnopqrstuvwxyz_") != strlen(game))) {
        fprintf(stderr,
                "pbem: \"%s\" is not a game's name; pbem games lists them.\n",
                game);
        return PLAYER_USAGE;
    }
    char path[128];
    snprintf(path, sizeof path, "/v1/matches?status=forming%s%s",
             game ? "&game=" : "", game ? game : "");
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_NOTHING);
    if (code != PLAYER_OK)
        return code;
    client_response r;
    code = player_call(&s, "GET", path, NULL, &r);
    if (code == PLAYER_OK) {
        const json_t *matches = json_object_get(r.json, "matches");
        size_t i;
        const json_t *row;
        json_array_foreach(matches, i, row)
        {
            print_row(row);
        }
        if (json_array_size(matches) == 0)
            puts("No open match is waiting for players. Open one with: pbem "
                 "new GAME --seats N --open");
        else
            puts("Take a seat with: pbem join MATCH");
        client_response_free(&r);
    }
    player_close(&s);
    return code;
}
