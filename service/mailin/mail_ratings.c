/* mail_ratings.c: see mail_ratings.h. */
#include "mailin/mail_ratings.h"

#include <math.h>
#include <string.h>

#include "core/config.h"
#include "mailin/mail_lobby.h"
#include "play/ratings.h"
#include "rules.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/store.h"

static long long integer(const json_t *row, const char *key)
{
    return (long long)json_integer_value(json_object_get(row, key));
}

/* "rating 1662, 3 rated games, 1 win", rounded as the web page rounds. */
static void tell_standing(const json_t *row, FILE *out)
{
    long long games = integer(row, "matches");
    long long wins = integer(row, "wins");
    fprintf(out, "rating %ld, %lld rated game%s, %lld win%s",
            lround(json_number_value(json_object_get(row, "rating"))), games,
            games == 1 ? "" : "s", wins, wins == 1 ? "" : "s");
}

/* lead, then "95% of turns in time" or "no turns yet". */
static void tell_reliability(const char *lead, const json_t *reliability,
                             FILE *out)
{
    if (json_is_number(reliability))
        fprintf(out, "%s%ld%% of turns in time", lead,
                lround(json_number_value(reliability) * 100));
    else
        fprintf(out, "%sno turns yet", lead);
}

/* The asker's standing in game, from their page (borrowed rows), or
 * NULL when they have no rating there. */
static const json_t *game_of(const json_t *page, const char *game)
{
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(page, "games"), i, row)
    {
        const char *name = json_string_value(json_object_get(row, "game"));
        if (name != NULL && strcmp(name, game) == 0)
            return row;
    }
    return NULL;
}

/* The asker's line under a game's list, when they are not in it. */
static bool tell_own(FILE *out, long long player_id, const rules_engine *engine,
                     apierr *err)
{
    char ref[32];
    store_player_ref(player_id, ref);
    json_t *page = ratings_player(ref, err);
    if (page == NULL)
        return false;
    const json_t *mine = game_of(page, engine->name);
    if (mine == NULL) {
        fprintf(out,
                "You have no rating in %s yet: your first rated match of "
                "it gives you one.\n",
                engine->title);
    } else {
        fputs("You: ", out);
        tell_standing(mine, out);
        tell_reliability(", ", json_object_get(page, "reliability"), out);
        fprintf(out, " (not in the top %d).\n", MAIL_RATINGS_TOP);
    }
    json_decref(page);
    return true;
}

static bool show_game(FILE *out, long long player_id,
                      const rules_engine *engine, apierr *err)
{
    json_t *board = ratings_leaderboard(engine->name, MAIL_RATINGS_TOP, err);
    if (board == NULL)
        return false;
    const json_t *rows = json_object_get(board, "ratings");
    char me[32] = "";
    if (player_id > 0)
        store_player_ref(player_id, me);
    bool listed = false;
    if (json_array_size(rows) == 0)
        fprintf(out, "Nobody has finished a rated match of %s yet.\n",
                engine->title);
    else
        fprintf(out,
                "%s standings, the best first (Glicko-2; a newcomer is "
                "1500):\n",
                engine->title);
    size_t i;
    const json_t *row;
    json_array_foreach(rows, i, row)
    {
        const char *player = json_string_value(json_object_get(row, "player"));
        bool mine = player != NULL && strcmp(player, me) == 0;
        listed = listed || mine;
        fprintf(out, "%3lld. %s%s: ", integer(row, "rank"),
                json_string_value(json_object_get(row, "name")),
                mine ? " (you)" : "");
        tell_standing(row, out);
        tell_reliability(", ", json_object_get(row, "reliability"), out);
        fputs("\n", out);
    }
    json_decref(board);
    if (player_id > 0 && !listed && !tell_own(out, player_id, engine, err))
        return false;
    fprintf(out, "On the web: %s/games/%s/standings\n",
            config_text(CONFIG_PUBLIC_URL), engine->name);
    return true;
}

/* "ratings" alone about no match: the asker's line in every game. */
static bool show_own_games(FILE *out, long long player_id, apierr *err)
{
    char ref[32];
    store_player_ref(player_id, ref);
    json_t *page = ratings_player(ref, err);
    if (page == NULL)
        return false;
    const json_t *games = json_object_get(page, "games");
    if (json_array_size(games) == 0)
        fputs("You have no rating yet: your first rated match gives you "
              "one.\n",
              out);
    else
        fputs("Your ratings (Glicko-2; a newcomer is 1500):\n", out);
    size_t i;
    const json_t *row;
    json_array_foreach(games, i, row)
    {
        const rules_engine *engine =
            rules_find(json_string_value(json_object_get(row, "game")));
        fprintf(out, "  %s: ", engine ? engine->title : "?");
        tell_standing(row, out);
        fputs("\n", out);
    }
    tell_reliability("Reliability: ", json_object_get(page, "reliability"),
                     out);
    fprintf(out,
            ".\nWrite \"ratings GAME\" for a game's top %d. Your page on "
            "the web: %s/players/%s\n",
            MAIL_RATINGS_TOP, config_text(CONFIG_PUBLIC_URL), ref);
    json_decref(page);
    return true;
}

/* The game of the match the mail is about. */
static const rules_engine *match_game(long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_match match;
    if (!store_load_match(conn, match_id, &match, err))
        return NULL;
    const rules_engine *engine = rules_find(match.game);
    store_match_free(&match);
    if (engine == NULL)
        apierr_set(err, 404, "unknown_game", "this match's game is gone");
    return engine;
}

bool mail_ratings_show(FILE *out, long long player_id, long long match_id,
                       char *const *words, int count, apierr *err)
{
    const rules_engine *engine = NULL;
    if (count > 0) {
        engine = mail_lobby_game_named(words, count);
        if (engine == NULL)
            return apierr_set(err, 404, "unknown_game",
                              "there is no game called \"%.60s\": write "
                              "ratings and a game the \"games\" command "
                              "lists",
                              words[0]);
    } else if (match_id != 0) {
        engine = match_game(match_id, err);
        if (engine == NULL)
            return false;
    } else if (player_id > 0) {
        return show_own_games(out, player_id, err);
    } else {
        return apierr_set(err, 400, "which_game",
                          "write ratings and the game: ratings "
                          "antiquity_quest (the games command lists them)");
    }
    return show_game(out, player_id, engine, err);
}
