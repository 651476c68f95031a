/* lobby.c: see lobby.h. */
#include "play/lobby.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "deadlines/deadline_settings.h"
#include "rules.h"
#include "store/db.h"
#include "store/reliability.h"
#include "store/store.h"

const rules_engine *lobby_game(const char *name, int status, apierr *err)
{
    const rules_engine *engine = rules_find(name);
    if (engine == NULL)
        apierr_set(err, status, "unknown_game",
                   "there is no game called \"%.60s\" here: GET /v1/games "
                   "lists the games",
                   name);
    return engine;
}

bool lobby_settings_parse(const json_t *body, store_lobby *out, apierr *err)
{
    *out = (store_lobby){.min_reliability = -1};
    const json_t *open = json_object_get(body, "open");
    const json_t *rated = json_object_get(body, "rated");
    const json_t *min = json_object_get(body, "min_reliability");
    if (open != NULL && !json_is_boolean(open))
        return apierr_set(err, 400, "bad_lobby",
                          "\"open\" is true (anyone may take a free seat) "
                          "or false (only those you give the match's id)");
    if (rated != NULL && !json_is_boolean(rated))
        return apierr_set(err, 400, "bad_lobby",
                          "\"rated\" is true (the result moves the players' "
                          "ratings) or false");
    if (min != NULL && !json_is_null(min) &&
        (!json_is_number(min) || json_number_value(min) < 0 ||
         json_number_value(min) > 1))
        return apierr_set(err, 400, "bad_lobby",
                          "\"min_reliability\" is the share of their latest "
                          "turns a joiner must have taken in time, from 0 "
                          "to 1 (0.9: nine in ten)");
    out->open = json_is_true(open);
    out->rated = rated != NULL ? json_is_true(rated) : out->open;
    if (min != NULL && !json_is_null(min))
        out->min_reliability = json_number_value(min);
    return true;
}

json_t *lobby_settings_json(const store_lobby *settings)
{
    json_t *min = settings->min_reliability >= 0
                      ? json_real(settings->min_reliability)
                      : json_null();
    return json_pack("{s:b,s:b,s:o}", "open", settings->open, "rated",
                     settings->rated, "min_reliability", min);
}

/* turns taken in time as a share of turns, or -1 with no turns. */
static double share(int turns, int missed)
{
    return turns > 0 ? (double)(turns - missed) / turns : -1;
}

double lobby_reliability(PGconn *conn, long long player_id, apierr *err)
{
    int turns, missed;
    if (!store_reliability_read(conn, &player_id, 1, LOBBY_RELIABILITY_MATCHES,
                                &turns, &missed, err))
        return -2;
    return share(turns, missed);
}

bool lobby_may_join(PGconn *conn, const store_match *match, long long player_id,
                    apierr *err)
{
    store_lobby lobby;
    bool found;
    if (!store_lobby_load(conn, match->match_id, &lobby, &found, err))
        return false;
    if (!found || lobby.min_reliability < 0)
        return true;
    int turns, missed;
    if (!store_reliability_read(conn, &player_id, 1, LOBBY_RELIABILITY_MATCHES,
                                &turns, &missed, err))
        return false;
    double reliability = share(turns, missed);
    /* Compared in whole percent, as both are shown. */
    if (reliability < 0 ||
        lround(reliability * 100) >= lround(lobby.min_reliability * 100))
        return true;
    return apierr_set(err, 403, "unreliable",
                      "this match asks for players who took at least %ld%% "
                      "of their turns before the deadline; over your latest "
                      "%d matches you took %ld%% (%d of %d turns in time)",
                      lround(lobby.min_reliability * 100),
                      LOBBY_RELIABILITY_MATCHES, lround(reliability * 100),
                      turns - missed, turns);
}

static json_t *number_or_null(double value)
{
    return value >= 0 ? json_real(value) : json_null();
}

static json_t *listed(PGconn *conn, const store_lobby_row *row,
                      double reliability)
{
    const rules_engine *engine = rules_find(row->game);
    char id[32], creator[32];
    store_match_ref(row->match_id, id);
    store_player_ref(row->creator, creator);
    deadline_settings deadline;
    apierr ignored;
    json_t *deadline_json = json_null();
    if (deadline_settings_load(conn, row->match_id, &deadline, &ignored) &&
        deadline.enabled) {
        json_decref(deadline_json);
        deadline_json = deadline_settings_json(&deadline);
    }
    return json_pack(
        "{s:s,s:s,s:s,s:O,s:i,s:i,s:o,s:b,s:o,s:{s:s,s:s,s:o,s:o,s:o},s:s}",
        "id", id, "game", row->game, "title",
        engine ? engine->title : row->game, "options", row->options, "seats",
        row->seat_count, "seats_taken", row->seats_taken, "deadline",
        deadline_json, "rated", row->rated, "min_reliability",
        number_or_null(row->min_reliability), "creator", "player", creator,
        "name", row->creator_name, "rating",
        number_or_null(row->creator_rating), "deviation",
        number_or_null(row->creator_deviation), "reliability",
        number_or_null(reliability), "created_at", row->created_at);
}

json_t *lobby_list(const char *status, const char *game, int limit, apierr *err)
{
    if (status != NULL && strcmp(status, "forming") != 0) {
        apierr_set(err, 400, "bad_query",
                   "the lobby lists the open matches still forming: "
                   "status=forming (your own matches are at "
                   "/v1/players/me/matches)");
        return NULL;
    }
    if (game != NULL && lobby_game(game, 400, err) == NULL)
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_lobby_row *rows;
    int count;
    if (!store_lobby_list(conn, game, limit, &rows, &count, err))
        return NULL;
    long long *creators = calloc((size_t)count + 1, sizeof *creators);
    int *turns = calloc((size_t)count + 1, sizeof *turns);
    int *missed = calloc((size_t)count + 1, sizeof *missed);
    if (creators == NULL || turns == NULL || missed == NULL)
        abort();
    for (int i = 0; i < count; i++)
        creators[i] = rows[i].creator;
    json_t *answer = NULL;
    if (store_reliability_read(conn, creators, count, LOBBY_RELIABILITY_MATCHES,
                               turns, missed, err)) {
        json_t *matches = json_array();
        for (int i = 0; i < count; i++)
            json_array_append_new(
                matches, listed(conn, &rows[i], share(turns[i], missed[i])));
        answer = json_pack("{s:o}", "matches", matches);
    }
    free(creators);
    free(turns);
    free(missed);
    store_lobby_rows_free(rows, count);
    return answer;
}
