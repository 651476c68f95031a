/* ratings_cmd.c: pbem ratings, a game's standings or a player's ratings,
 * in the words the mail door's "ratings" answers with. */
#include "player_cmd.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "player_client.h"
#include "player_config.h"

/* How many of a game's standings are printed, as by mail. */
#define RATINGS_TOP 10

static int usage(FILE *out)
{
    fputs("usage: pbem ratings [GAME] [--player PLAYER]\n"
          "With GAME: the game's 10 best rated players (Glicko-2), each with "
          "rating,\nrated games, wins and share of turns taken in time, then "
          "your line (or\nPLAYER's, p_1234). Without GAME: your ratings (or "
          "PLAYER's) in every game\nplayed rated.\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* "rating 1662, 3 rated games, 1 win" */
static void print_standing(const json_t *row)
{
    long long games = json_integer_value(json_object_get(row, "matches"));
    long long wins = json_integer_value(json_object_get(row, "wins"));
    printf("rating %ld, %lld rated game%s, %lld win%s",
           lround(json_number_value(json_object_get(row, "rating"))), games,
           games == 1 ? "" : "s", wins, wins == 1 ? "" : "s");
}

/* lead, then "95% of turns in time" or "no turns yet" */
static void print_reliability(const char *lead, const json_t *reliability)
{
    if (json_is_number(reliability))
        printf("%s%ld%% of turns in time", lead,
               lround(json_number_value(reliability) * 100));
    else
        printf("%sno turns yet", lead);
}

/* The row of page's "games" for game, or NULL. Borrowed. */
static const json_t *game_row(const json_t *page, const char *game)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(page, "games"), i, row)
    {
        if (strcmp(player_text(json_object_get(row, "game")), game) == 0)
            return row;
    }
    return NULL;
}

/* The line of who (mine: the person at the terminal) under a game's top,
 * when they are not in it. */
static void print_own(const json_t *page, const char *game, const char *title,
                      bool mine)
{
    const char *name = player_text(json_object_get(page, "name"));
    const json_t *row = game_row(page, game);
    if (row == NULL) {
        if (mine)
            printf("You have no rating in %s yet: your first rated match of "
                   "it gives you one.\n",
                   title);
        else
            printf("%s has no rating in %s yet.\n", name, title);
        return;
    }
    printf("%s: ", mine ? "You" : name);
    print_standing(row);
    print_reliability(", ", json_object_get(page, "reliability"));
    printf(" (not in the top %d).\n", RATINGS_TOP);
}

static int show_game(player_session *s, const char *game, const char *player,
                     bool mine)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/ratings?limit=%d", game,
             RATINGS_TOP);
    client_response board;
    int code = player_call(s, "GET", path, NULL, &board);
    if (code != PLAYER_OK)
        return code;
    const char *title = player_text(json_object_get(board.json, "title"));
    const json_t *rows = json_object_get(board.json, "ratings");
    if (json_array_size(rows) == 0)
        printf("Nobody has finished a rated match of %s yet.\n", title);
    else
        printf("%s standings, the best first (Glicko-2; a newcomer is "
               "1500):\n",
               title);
    bool listed = false;
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row)
    {
        bool them =
            player != NULL &&
            strcmp(player_text(json_object_get(row, "player")), player) == 0;
        listed = listed || them;
        printf("%3lld. %s%s: ",
               (long long)json_integer_value(json_object_get(row, "rank")),
               player_text(json_object_get(row, "name")),
               them && mine ? " (you)" : "");
        print_standing(row);
        print_reliability(", ", json_object_get(row, "reliability"));
        putchar('\n');
    }
    if (player != NULL && !listed) {
        snprintf(path, sizeof path, "/v1/players/%s/ratings", player);
        client_response page;
        code = player_call(s, "GET", path, NULL, &page);
        if (code == PLAYER_OK) {
            print_own(page.json, game, title, mine);
            client_response_free(&page);
        }
    }
    client_response_free(&board);
    return code;
}

/* Every game the player has played rated, titled as the server titles
 * them. */
static int show_player(player_session *s, const char *player, bool mine)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/players/%s/ratings", player);
    client_response page, games;
    int code = player_call(s, "GET", path, NULL, &page);
    if (code != PLAYER_OK)
        return code;
    code = player_call(s, "GET", "/v1/games", NULL, &games);
    if (code != PLAYER_OK) {
        client_response_free(&page);
        return code;
    }
    const char *name = player_text(json_object_get(page.json, "name"));
    const json_t *rows = json_object_get(page.json, "games");
    if (json_array_size(rows) == 0)
        printf("%s no rating yet.\n", mine ? "You have" : name);
    else if (mine)
        puts("Your ratings (Glicko-2; a newcomer is 1500):");
    else
        printf("%s's ratings (Glicko-2; a newcomer is 1500):\n", name);
    size_t i, j;
    const json_t *row, *g;
    json_array_foreach(rows, i, row)
    {
        const char *game = player_text(json_object_get(row, "game"));
        const char *title = game;
        json_array_foreach(json_object_get(games.json, "games"), j, g)
        {
            if (strcmp(player_text(json_object_get(g, "name")), game) == 0)
                title = player_text(json_object_get(g, "title"));
        }
        printf("  %s: ", title);
        print_standing(row);
        putchar('\n');
    }
    print_reliability("Reliability: ",
                      json_object_get(page.json, "reliability"));
    puts(".");
    client_response_free(&games);
    client_response_free(&page);
    return PLAYER_OK;
}

/* Whether text is spelled as an id of kind ("p_" and digits). */
static bool player_id_like(const char *text)
{
    return strncmp(text, "p_", 2) == 0 && text[2] != '\0' &&
           strlen(text) < 32 &&
           strspn(text + 2, "0123456789") == strlen(text + 2);
}

int ratings_cmd_main(int argc, char **argv)
{
    const char *game = NULL, *player = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        if (strcmp(argv[i], "--player") == 0 && i + 1 < argc && !player)
            player = argv[++i];
        else if (argv[i][0] == '-' || game != NULL)
            return usage(stderr);
        else
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
    if (player != NULL && !player_id_like(player)) {
        fprintf(stderr, "pbem: \"%s\" is not a player id (p_1234).\n", player);
        return PLAYER_USAGE;
    }
    char me[64];
    bool mine = false;
    if (player == NULL && player_config_player_id(me, sizeof me)) {
        player = me;
        mine = true;
    }
    if (game == NULL && player == NULL) {
        fputs("pbem: you are not registered here: name a GAME, or a player "
              "with --player p_1234.\n",
              stderr);
        return PLAYER_USAGE;
    }
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_NOTHING);
    if (code != PLAYER_OK)
        return code;
    code = game != NULL ? show_game(&s, game, player, mine)
                        : show_player(&s, player, mine);
    player_close(&s);
    return code;
}
