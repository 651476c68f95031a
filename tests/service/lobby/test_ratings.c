/* Ratings: strangers who met in the lobby finish a rated match and see
 * their ratings move as Glicko-2 moves them, the match rated as the
 * pairwise results of its final ranking; an unrated match moves
 * nothing. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/glicko2.h"
#include "lobby_scene.h"

#define MAX_MOVES 3000

/* Seats t's players (registered by name) in a new match of game created
 * open by seat 0 with the extra create members (JSON text after a comma,
 * or ""), found by the others in the lobby and joined there. */
static void meet_in_the_lobby(e2e_table *t, const char *game, int seats,
                              const char *extra)
{
    static const char *names[] = {"Ann", "Ben", "Cid", "Dot"};
    t->seats = seats;
    for (int i = 0; i < seats; i++)
        lobby_register(&t->server, names[i], &t->players[i]);
    char body[256], path[128];
    snprintf(body, sizeof body,
             "{\"game\":\"%s\",\"seats\":%d,\"open\":true%s}", game, seats,
             extra);
    lobby_create(&t->server, &t->players[0], body, t->match);
    snprintf(path, sizeof path, "/v1/matches?status=forming&game=%s", game);
    for (int i = 1; i < seats; i++) {
        json_t *list = lobby_get(&t->server, path);
        cr_assert_not_null(
            lobby_row(json_object_get(list, "matches"), t->match),
            "%s is not in the lobby", t->match);
        json_decref(list);
        e2e_response r = lobby_join(&t->server, t->match, &t->players[i]);
        cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
        e2e_response_free(&r);
    }
}

/* The final result's ranking, as each seat's place (1 best). */
static void places(const e2e_table *t, int *place)
{
    json_t *events = e2e_all_events(t);
    const json_t *last = json_array_get(events, json_array_size(events) - 1);
    cr_assert_str_eq(json_string_value(json_object_get(last, "kind")),
                     "finished");
    const json_t *ranking = json_object_get(
        json_object_get(json_object_get(last, "data"), "result"), "ranking");
    size_t i, j;
    const json_t *tier, *seat;
    int next = 1;
    json_array_foreach(ranking, i, tier)
    {
        json_array_foreach(tier, j, seat) place[json_integer_value(seat)] =
            next;
        next += (int)json_array_size(tier);
    }
    json_decref(events);
}

static const json_t *leader_row(const json_t *board, const char *player)
{
    size_t i;
    const json_t *row;
    json_array_foreach(
        json_object_get(board, "ratings"), i,
        row) if (strcmp(json_string_value(json_object_get(row, "player")),
                        player) == 0) return row;
    return NULL;
}

Test(lobby_ratings, a_rated_match_moves_each_rating_by_its_pairwise_results,
     .timeout = 120)
{
    e2e_table t;
    memset(&t, 0, sizeof t);
    lobby_start(&t.server);
    meet_in_the_lobby(&t, "artifact_stack", 3, "");
    lobby_play_to_the_end(&t, MAX_MOVES);
    int place[3];
    places(&t, place);

    json_t *board = lobby_get(&t.server, "/v1/games/artifact_stack/ratings");
    cr_expect_str_eq(json_string_value(json_object_get(board, "title")),
                     "Artifact Stack");
    cr_assert_eq(json_array_size(json_object_get(board, "ratings")), 3, "%s",
                 json_dumps(board, 0));
    double last = 1e9;
    for (int s = 0; s < 3; s++) {
        /* Everyone was a newcomer: each seat's games are its pairwise
         * results against two newcomers. */
        glicko2_game games[2];
        int n = 0;
        for (int o = 0; o < 3; o++)
            if (o != s)
                games[n++] = (glicko2_game){GLICKO2_NEWCOMER,
                                            place[s] < place[o]    ? 1.0
                                            : place[s] == place[o] ? 0.5
                                                                   : 0.0};
        glicko2_rating expected =
            glicko2_update(GLICKO2_NEWCOMER, games, 2, GLICKO2_TAU);
        const json_t *row = leader_row(board, t.players[s].id);
        cr_assert_not_null(row, "seat %d is not on the leaderboard", s);
        double rating = json_number_value(json_object_get(row, "rating"));
        cr_expect(fabs(rating - expected.rating) < 1e-6,
                  "seat %d (place %d): %.4f, Glicko-2 says %.4f", s, place[s],
                  rating, expected.rating);
        cr_expect(fabs(json_number_value(json_object_get(row, "deviation")) -
                       expected.deviation) < 1e-6);
        cr_expect_eq(json_integer_value(json_object_get(row, "matches")), 1);
        cr_expect_eq(json_integer_value(json_object_get(row, "wins")),
                     place[s] == 1 ? 1 : 0);
        if (place[s] == 1)
            cr_expect_gt(rating, 1500, "a winner's rating rises");
        if (place[s] == 3)
            cr_expect_lt(rating, 1500, "the last's rating falls");
    }
    /* Best first. */
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(board, "ratings"), i, row)
    {
        double rating = json_number_value(json_object_get(row, "rating"));
        cr_expect_leq(rating, last);
        cr_expect_eq(json_integer_value(json_object_get(row, "rank")),
                     (json_int_t)i + 1);
        last = rating;
    }

    /* The player's page: the game, the change this match made, no
     * address. */
    char path[96];
    snprintf(path, sizeof path, "/v1/players/%s/ratings", t.players[0].id);
    json_t *page = lobby_get(&t.server, path);
    cr_expect_str_eq(json_string_value(json_object_get(page, "name")), "Ann");
    const json_t *game = json_array_get(json_object_get(page, "games"), 0);
    cr_assert_not_null(game);
    cr_expect_str_eq(json_string_value(json_object_get(game, "game")),
                     "artifact_stack");
    const json_t *change = json_array_get(json_object_get(game, "history"), 0);
    cr_assert_not_null(change);
    cr_expect_str_eq(json_string_value(json_object_get(change, "match")),
                     t.match);
    cr_expect_eq(json_integer_value(json_object_get(change, "place")),
                 place[0]);
    cr_expect_eq(json_number_value(json_object_get(change, "before")), 1500);
    char *text = json_dumps(page, 0);
    cr_expect_null(strstr(text, "@"), "%s", text);
    free(text);
    json_decref(page);

    /* The lobby now shows Ann's rating beside her next match. */
    char next[32];
    lobby_create(&t.server, &t.players[0],
                 "{\"game\":\"artifact_stack\",\"seats\":2,\"open\":true}",
                 next);
    json_t *list = lobby_get(&t.server, "/v1/matches?game=artifact_stack");
    const json_t *listed = lobby_row(json_object_get(list, "matches"), next);
    cr_assert_not_null(listed);
    cr_expect(fabs(json_number_value(json_object_get(
                       json_object_get(listed, "creator"), "rating")) -
                   json_number_value(json_object_get(
                       leader_row(board, t.players[0].id), "rating"))) < 1e-6);
    json_decref(list);
    json_decref(board);
    cr_assert_eq(e2e_stop(&t.server), 0);
}

Test(lobby_ratings, an_unrated_match_moves_nobody, .timeout = 120)
{
    e2e_table t;
    memset(&t, 0, sizeof t);
    lobby_start(&t.server);
    meet_in_the_lobby(&t, "artifact_stack", 2, ",\"rated\":false");
    lobby_play_to_the_end(&t, MAX_MOVES);
    json_t *board = lobby_get(&t.server, "/v1/games/artifact_stack/ratings");
    cr_expect_eq(json_array_size(json_object_get(board, "ratings")), 0, "%s",
                 json_dumps(board, 0));
    json_decref(board);
    char path[96];
    snprintf(path, sizeof path, "/v1/players/%s/ratings", t.players[1].id);
    json_t *page = lobby_get(&t.server, path);
    cr_expect_eq(json_array_size(json_object_get(page, "games")), 0);
    json_decref(page);

    const char *missing[][2] = {
        {"/v1/games/chess/ratings", "unknown_game"},
        {"/v1/players/p_999999/ratings", "no_such_player"},
        {"/v1/players/bob/ratings", "no_such_player"},
    };
    for (size_t i = 0; i < sizeof missing / sizeof *missing; i++) {
        e2e_response r = e2e_call(&t.server, "GET", missing[i][0], NULL, NULL);
        cr_expect_eq(r.status, 404, "%s: %s", missing[i][0], r.body);
        cr_expect_str_eq(e2e_error_code(&r), missing[i][1]);
        e2e_response_free(&r);
    }
    cr_assert_eq(e2e_stop(&t.server), 0);
}

/* Recomputes the ratings of players[0..3) from the finished matches'
 * public logs, in the order they finished, as docs/lobby.md describes. */
static void replay_rating(glicko2_rating *ratings, const e2e_table *t,
                          const int *who)
{
    int place[2];
    places(t, place);
    glicko2_rating before[2] = {ratings[who[0]], ratings[who[1]]};
    for (int s = 0; s < 2; s++) {
        glicko2_game game = {before[1 - s], place[s] < place[1 - s]    ? 1.0
                                            : place[s] == place[1 - s] ? 0.5
                                                                       : 0.0};
        ratings[who[s]] = glicko2_update(before[s], &game, 1, GLICKO2_TAU);
    }
}

Test(lobby_ratings, the_stored_ratings_are_the_logs_replayed_in_order,
     .timeout = 120)
{
    e2e_table first;
    memset(&first, 0, sizeof first);
    lobby_start(&first.server);
    lobby_register(&first.server, "Ann", &first.players[0]);
    lobby_register(&first.server, "Ben", &first.players[1]);
    lobby_register(&first.server, "Cid", &first.players[2]);
    /* Three rated matches of two among the same three players, one after
     * the other: each starts from the ratings the previous left. */
    static const int pairs[3][2] = {{0, 1}, {1, 2}, {2, 0}};
    glicko2_rating expected[3] = {GLICKO2_NEWCOMER, GLICKO2_NEWCOMER,
                                  GLICKO2_NEWCOMER};
    for (int m = 0; m < 3; m++) {
        e2e_table t;
        memset(&t, 0, sizeof t);
        t.server = first.server;
        t.seats = 2;
        t.players[0] = first.players[pairs[m][0]];
        t.players[1] = first.players[pairs[m][1]];
        lobby_create(&t.server, &t.players[0],
                     "{\"game\":\"artifact_stack\",\"seats\":2,\"open\":true}",
                     t.match);
        e2e_response r = lobby_join(&t.server, t.match, &t.players[1]);
        cr_assert_eq(r.status, 200, "%s", r.body);
        e2e_response_free(&r);
        lobby_play_to_the_end(&t, MAX_MOVES);
        replay_rating(expected, &t, pairs[m]);
    }
    json_t *board =
        lobby_get(&first.server, "/v1/games/artifact_stack/ratings");
    for (int p = 0; p < 3; p++) {
        const json_t *row = leader_row(board, first.players[p].id);
        cr_assert_not_null(row);
        cr_expect(fabs(json_number_value(json_object_get(row, "rating")) -
                       expected[p].rating) < 1e-6,
                  "player %d: stored %.6f, replayed %.6f", p,
                  json_number_value(json_object_get(row, "rating")),
                  expected[p].rating);
        cr_expect(fabs(json_number_value(json_object_get(row, "deviation")) -
                       expected[p].deviation) < 1e-6);
        cr_expect_eq(json_integer_value(json_object_get(row, "matches")), 2);
    }
    json_decref(board);
    cr_assert_eq(e2e_stop(&first.server), 0);
}
