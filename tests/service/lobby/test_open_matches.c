/* Open matches: a stranger finds a match in the lobby and takes its free
 * seat; the last seat starts it and it leaves the listing; invite-only
 * matches are never listed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby_scene.h"

#define LISTING "/v1/matches?status=forming&game=antiquity_quest"

static json_t *listing(const e2e_server *s, const char *path)
{
    json_t *answer = lobby_get(s, path);
    json_t *matches = json_incref(json_object_get(answer, "matches"));
    json_decref(answer);
    cr_assert(json_is_array(matches));
    return matches;
}

Test(lobby_open, a_stranger_finds_the_match_and_the_last_seat_starts_it,
     .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player alice, bob, carol;
    lobby_register(&s, "Alice", &alice);
    lobby_register(&s, "Bob", &bob);
    lobby_register(&s, "Carol", &carol);
    char open[32], hidden[32];
    lobby_create(&s, &alice,
                 "{\"game\":\"antiquity_quest\",\"seats\":3,\"open\":true,"
                 "\"deadline\":{\"turn_hours\":24}}",
                 open);
    lobby_create(&s, &alice, "{\"game\":\"antiquity_quest\",\"seats\":2}",
                 hidden);

    /* Bob knows nobody: the lobby shows him Alice's open match. */
    json_t *list = listing(&s, LISTING);
    const json_t *row = lobby_row(list, open);
    cr_assert_not_null(row, "%s is not listed", open);
    cr_expect_null(lobby_row(list, hidden), "an invite-only match is listed");
    cr_expect_str_eq(json_string_value(json_object_get(row, "game")),
                     "antiquity_quest");
    cr_expect_str_eq(json_string_value(json_object_get(row, "title")),
                     "Antiquity Quest");
    cr_expect_eq(json_integer_value(json_object_get(row, "seats")), 3);
    cr_expect_eq(json_integer_value(json_object_get(row, "seats_taken")), 1);
    cr_expect(json_is_true(json_object_get(row, "rated")),
              "an open match is rated unless it says otherwise");
    cr_expect_eq(json_integer_value(json_object_get(
                     json_object_get(row, "deadline"), "turn_hours")),
                 24);
    const json_t *creator = json_object_get(row, "creator");
    cr_expect_str_eq(json_string_value(json_object_get(creator, "name")),
                     "Alice");
    cr_expect_str_eq(json_string_value(json_object_get(creator, "player")),
                     alice.id);
    cr_expect(json_is_null(json_object_get(creator, "rating")),
              "Alice has no rating yet");
    cr_expect(json_is_object(json_object_get(row, "options")));
    /* Nothing private: no address anywhere in the listing. */
    char *text = json_dumps(list, 0);
    cr_expect_null(strstr(text, "@"), "%s", text);
    free(text);
    json_decref(list);

    e2e_response r = lobby_join(&s, open, &bob);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    list = listing(&s, LISTING);
    row = lobby_row(list, open);
    cr_assert_not_null(row);
    cr_expect_eq(json_integer_value(json_object_get(row, "seats_taken")), 2);
    json_decref(list);

    /* Carol takes the last seat: the match starts, as any join does, and
     * leaves the lobby. */
    r = lobby_join(&s, open, &carol);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(r.json, "match"), "status")),
                     "active");
    e2e_response_free(&r);
    list = listing(&s, LISTING);
    cr_expect_null(lobby_row(list, open), "a started match is still listed");
    json_decref(list);
    list = listing(&s, "/v1/matches");
    cr_expect_eq(json_array_size(list), 0);
    json_decref(list);
    cr_assert_eq(e2e_stop(&s), 0);
}

Test(lobby_open, the_listing_filters_by_game_and_refuses_what_it_cannot_list,
     .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player alice;
    lobby_register(&s, "Alice", &alice);
    char quest[32], stack[32];
    lobby_create(&s, &alice,
                 "{\"game\":\"antiquity_quest\",\"seats\":2,\"open\":true,"
                 "\"rated\":false,\"min_reliability\":0.8}",
                 quest);
    lobby_create(&s, &alice,
                 "{\"game\":\"artifact_stack\",\"seats\":2,\"open\":true}",
                 stack);
    json_t *list = listing(&s, LISTING);
    cr_expect_eq(json_array_size(list), 1);
    const json_t *row = lobby_row(list, quest);
    cr_assert_not_null(row);
    cr_expect(json_is_false(json_object_get(row, "rated")));
    cr_expect(json_is_null(json_object_get(row, "deadline")));
    cr_expect(fabs(json_number_value(json_object_get(row, "min_reliability")) -
                   0.8) < 1e-6);
    json_decref(list);
    list = listing(&s, "/v1/matches?status=forming");
    cr_expect_eq(json_array_size(list), 2);
    cr_expect_not_null(lobby_row(list, stack));
    json_decref(list);

    struct {
        const char *path;
        long status;
        const char *code;
    } refused[] = {
        {"/v1/matches?status=active", 400, "bad_query"},
        {"/v1/matches?game=chess", 400, "unknown_game"},
        {"/v1/matches?limit=0", 400, "bad_query"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        e2e_response r = e2e_call(&s, "GET", refused[i].path, NULL, NULL);
        cr_expect_eq(r.status, refused[i].status, "%s: %s", refused[i].path,
                     r.body);
        cr_expect_str_eq(e2e_error_code(&r), refused[i].code, "%s",
                         refused[i].path);
        e2e_response_free(&r);
    }
    /* Bad settings are refused with the member's meaning. */
    const char *bad[] = {
        "{\"game\":\"antiquity_quest\",\"seats\":2,\"open\":\"yes\"}",
        "{\"game\":\"antiquity_quest\",\"seats\":2,\"min_reliability\":1.5}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        e2e_response r = e2e_call(&s, "POST", "/v1/matches", bad[i], &alice);
        cr_expect_eq(r.status, 400, "%s: %s", bad[i], r.body);
        cr_expect_str_eq(e2e_error_code(&r), "bad_lobby", "%s", bad[i]);
        e2e_response_free(&r);
    }
    cr_assert_eq(e2e_stop(&s), 0);
}
