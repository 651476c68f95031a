/* Reliability: a player who lets a deadline pass is shown so in the
 * lobby and on their page, and a match that asks for reliable players
 * refuses them in words; the forfeit that ended the match ranks them
 * last in the ratings. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "lobby_scene.h"

#define HOUR 3600

static json_t *player_page(const e2e_server *s, const e2e_player *p)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/players/%s/ratings", p->id);
    return lobby_get(s, path);
}

Test(lobby_reliability, a_missed_deadline_shows_and_keeps_out_of_strict_matches,
     .timeout = 90)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player ann, ben, cid;
    lobby_register(&s, "Ann", &ann);
    lobby_register(&s, "Ben", &ben);
    lobby_register(&s, "Cid", &cid);
    char first[32];
    lobby_create(&s, &ann,
                 "{\"game\":\"artifact_stack\",\"seats\":2,\"open\":true,"
                 "\"deadline\":{\"turn_hours\":1,\"action\":\"forfeit\"}}",
                 first);
    e2e_response r = lobby_join(&s, first, &ben);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", first);
    json_t *match = lobby_get(&s, path);
    int late = (int)json_integer_value(json_array_get(
        json_object_get(json_object_get(match, "pending"), "seats"), 0));
    json_decref(match);
    const e2e_player *sleeper = late == 0 ? &ann : &ben;
    const e2e_player *waiting = late == 0 ? &ben : &ann;

    /* The seat on turn lets its hour pass: it forfeits. */
    lobby_clock_advance(2 * HOUR);
    lobby_wait_status(&s, first, "finished");

    json_t *page = player_page(&s, sleeper);
    cr_expect(json_is_number(json_object_get(page, "reliability")) &&
                  json_number_value(json_object_get(page, "reliability")) == 0,
              "one turn, missed: %s", json_dumps(page, 0));
    const json_t *game = json_array_get(json_object_get(page, "games"), 0);
    cr_assert_not_null(game, "the forfeit is rated");
    cr_expect_lt(json_number_value(json_object_get(game, "rating")), 1500,
                 "the forfeiting seat ranks last");
    json_decref(page);
    page = player_page(&s, waiting);
    cr_expect(json_is_null(json_object_get(page, "reliability")),
              "no turn of theirs came: %s", json_dumps(page, 0));
    game = json_array_get(json_object_get(page, "games"), 0);
    cr_assert_not_null(game);
    cr_expect_gt(json_number_value(json_object_get(game, "rating")), 1500);
    cr_expect_eq(json_integer_value(json_object_get(game, "wins")), 1);
    json_decref(page);

    /* Cid wants players who take four turns in five in time. */
    char strict[32];
    lobby_create(&s, &cid,
                 "{\"game\":\"antiquity_quest\",\"seats\":3,\"open\":true,"
                 "\"min_reliability\":0.8}",
                 strict);
    r = lobby_join(&s, strict, sleeper);
    cr_expect_eq(r.status, 403, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "unreliable");
    const char *message = json_string_value(
        json_object_get(json_object_get(r.json, "error"), "message"));
    cr_expect(message != NULL &&
                  strstr(message, "at least 80% of their turns before the "
                                  "deadline") != NULL &&
                  strstr(message, "you took 0% (0 of 1 turns in time)") != NULL,
              "%s", message ? message : r.body);
    e2e_response_free(&r);
    /* Someone with no turn behind them yet may join. */
    r = lobby_join(&s, strict, waiting);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);

    /* The lobby shows the sleeper's record beside the match they open. */
    char theirs[32];
    lobby_create(&s, sleeper,
                 "{\"game\":\"antiquity_quest\",\"seats\":2,\"open\":true}",
                 theirs);
    json_t *list = lobby_get(&s, "/v1/matches?status=forming");
    const json_t *row = lobby_row(json_object_get(list, "matches"), theirs);
    cr_assert_not_null(row);
    const json_t *creator = json_object_get(row, "creator");
    cr_expect(json_is_number(json_object_get(creator, "reliability")) &&
                  json_number_value(json_object_get(creator, "reliability")) ==
                      0,
              "%s", json_dumps(row, 0));
    json_decref(list);
    cr_assert_eq(e2e_stop(&s), 0);
}
