/* new_cmd.c: pbem new. */
#include "player_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "player_client.h"

static int usage(FILE *out)
{
    fputs("usage: pbem new GAME --seats N [--open] [--option NAME=VALUE]...\n"
          "Creates a match of GAME (see pbem games) for N seats; you take "
          "seat 0.\nEach VALUE is read as the option's type: a number, "
          "true/false, or text.\n--open lists it for anyone to join (pbem "
          "list) and rates it.\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* The option's value typed as the game declares it, or NULL after a
 * sentence. New reference. */
static json_t *typed_value(const char *game, const char *name,
                           const json_t *declared, const char *text)
{
    const char *type = json_string_value(json_object_get(declared, "type"));
    if (type != NULL && strcmp(type, "integer") == 0) {
        char *end = NULL;
        errno = 0;
        long long n = strtoll(text, &end, 10);
        if (end != text && *end == '\0' && errno == 0)
            return json_integer(n);
        fprintf(stderr,
                "pbem: option %s of %s is a whole number, not \"%s\".\n", name,
                game, text);
        return NULL;
    }
    if (type != NULL && strcmp(type, "boolean") == 0) {
        if (strcasecmp(text, "true") == 0 || strcasecmp(text, "yes") == 0 ||
            strcmp(text, "1") == 0)
            return json_true();
        if (strcasecmp(text, "false") == 0 || strcasecmp(text, "no") == 0 ||
            strcmp(text, "0") == 0)
            return json_false();
        fprintf(stderr, "pbem: option %s of %s is true or false, not \"%s\".\n",
                name, game, text);
        return NULL;
    }
    json_t *value = json_string(text);
    if (value == NULL)
        fprintf(stderr, "pbem: option %s must be UTF-8 text.\n", name);
    return value;
}

/* The game called name in GET /v1/games's answer, borrowed, or NULL. */
static const json_t *find_game(const json_t *games, const char *name)
{
    size_t i;
    const json_t *game;
    json_array_foreach(json_object_get(games, "games"), i, game)
    {
        const char *its = player_text(json_object_get(game, "name"));
        if (its != NULL && strcmp(its, name) == 0)
            return game;
    }
    return NULL;
}

/* Fills options from the NAME=VALUE texts; an exit code. */
static int read_options(const json_t *game, const char *game_name, char **texts,
                        int count, json_t *options)
{
    const json_t *declared = json_object_get(game, "options");
    for (int i = 0; i < count; i++) {
        char *eq = strchr(texts[i], '=');
        if (eq == NULL || eq == texts[i]) {
            fprintf(stderr, "pbem: --option takes NAME=VALUE, not \"%s\".\n",
                    texts[i]);
            return PLAYER_USAGE;
        }
        *eq = '\0';
        const json_t *option = json_object_get(declared, texts[i]);
        if (option == NULL) {
            fprintf(stderr,
                    "pbem: %s has no option called %s (pbem games "
                    "lists its options).\n",
                    game_name, texts[i]);
            return PLAYER_USAGE;
        }
        json_t *value = typed_value(game_name, texts[i], option, eq + 1);
        if (value == NULL)
            return PLAYER_USAGE;
        json_object_set_new(options, texts[i], value);
    }
    return PLAYER_OK;
}

int new_cmd_main(int argc, char **argv)
{
    const char *game_name = NULL;
    long seats = 0;
    char *option_texts[32];
    int option_count = 0;
    bool open = false;
    for (int i = 1; i < argc; i++) {
        bool more = i + 1 < argc;
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        if (strcmp(argv[i], "--seats") == 0 && more) {
            char *end = NULL;
            seats = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || seats < 1 || seats > 64)
                return usage(stderr);
        } else if (strcmp(argv[i], "--open") == 0) {
            open = true; /* listed for anyone to join: pbem list */
        } else if (strcmp(argv[i], "--option") == 0 && more &&
                   option_count < 32)
            option_texts[option_count++] = argv[++i];
        else if (argv[i][0] != '-' && game_name == NULL)
            game_name = argv[i];
        else
            return usage(stderr);
    }
    if (game_name == NULL || seats == 0)
        return usage(stderr);
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    if (code != PLAYER_OK)
        return code;
    client_response games, r;
    code = player_call(&s, "GET", "/v1/games", NULL, &games);
    if (code != PLAYER_OK) {
        player_close(&s);
        return code;
    }
    const json_t *game = find_game(games.json, game_name);
    json_t *options = json_object();
    if (game == NULL) {
        fprintf(stderr,
                "pbem: the server has no game called %s (pbem games "
                "lists them).\n",
                game_name);
        code = PLAYER_USAGE;
    } else {
        code =
            read_options(game, game_name, option_texts, option_count, options);
    }
    char *body = NULL;
    if (code == PLAYER_OK) {
        json_t *request = json_pack("{s:s,s:i,s:O}", "game", game_name, "seats",
                                    (int)seats, "options", options);
        if (open)
            json_object_set_new(request, "open", json_true());
        body = json_dumps(request, JSON_COMPACT);
        json_decref(request);
        code = player_call(&s, "POST", "/v1/matches", body, &r);
    }
    if (code == PLAYER_OK) {
        const json_t *match = json_object_get(r.json, "match");
        const char *id = json_string_value(json_object_get(match, "id"));
        printf("Created %s: %s for %ld seats; you have seat %lld.\n",
               id ? id : "?", player_text(json_object_get(game, "title")),
               seats,
               (long long)json_integer_value(json_object_get(r.json, "seat")));
        if (seats > 1)
            printf("The others join with: pbem join %s\n", id ? id : "?");
        client_response_free(&r);
    }
    free(body);
    json_decref(options);
    client_response_free(&games);
    player_close(&s);
    return code;
}
