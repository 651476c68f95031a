/* Quick match: seeks of the same kind form a match and start it; a seek
 * of another kind, a withdrawn or an expired one does not; nobody is
 * seated twice. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "lobby_scene.h"

#define HOUR 3600

/* POST /v1/seeks by p; must answer 201; a new reference. */
static json_t *seek(const e2e_server *s, const e2e_player *p, const char *body)
{
    e2e_response r = e2e_call(s, "POST", "/v1/seeks", body, p);
    cr_assert_eq(r.status, 201, "seek %s: %ld %s", body, r.status, r.body);
    json_t *answer = json_incref(r.json);
    e2e_response_free(&r);
    return answer;
}

static const char *seek_id(const json_t *answer)
{
    return json_string_value(
        json_object_get(json_object_get(answer, "seek"), "id"));
}

static const char *seek_status(const json_t *answer)
{
    return json_string_value(
        json_object_get(json_object_get(answer, "seek"), "status"));
}

static json_t *my_seeks(const e2e_server *s, const e2e_player *p)
{
    e2e_response r = e2e_call(s, "GET", "/v1/seeks", NULL, p);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *seeks = json_incref(json_object_get(r.json, "seeks"));
    e2e_response_free(&r);
    return seeks;
}

#define QUEST_24 "{\"game\":\"antiquity_quest\",\"seats\":2,\"turn_hours\":24}"

Test(lobby_seeks, two_seeks_of_one_kind_make_a_match_and_start_it,
     .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player ann, ben, cid;
    lobby_register(&s, "Ann", &ann);
    lobby_register(&s, "Ben", &ben);
    lobby_register(&s, "Cid", &cid);
    json_t *first = seek(&s, &ann, QUEST_24);
    cr_expect_str_eq(seek_status(first), "waiting");
    cr_expect(json_is_null(json_object_get(first, "match")));
    /* Asking again is the same seek: Ann cannot meet herself. */
    json_t *again = seek(&s, &ann, QUEST_24);
    cr_expect_str_eq(seek_id(again), seek_id(first));
    cr_expect(json_is_null(json_object_get(again, "match")));
    json_decref(again);
    /* Other kinds wait on: another deadline, seat count or game. */
    const char *others[] = {
        "{\"game\":\"antiquity_quest\",\"seats\":2,\"turn_hours\":48}",
        "{\"game\":\"antiquity_quest\",\"seats\":3,\"turn_hours\":24}",
        "{\"game\":\"artifact_stack\",\"seats\":2,\"turn_hours\":24}",
    };
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        json_t *other = seek(&s, &ben, others[i]);
        cr_expect(json_is_null(json_object_get(other, "match")), "%s",
                  others[i]);
        json_decref(other);
    }

    json_t *paired = seek(&s, &cid, QUEST_24);
    const char *match = json_string_value(json_object_get(paired, "match"));
    cr_assert_not_null(match, "Cid's seek found Ann's");
    cr_expect_str_eq(seek_status(paired), "matched");
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    json_t *m = lobby_get(&s, path);
    cr_expect_str_eq(json_string_value(json_object_get(m, "status")), "active");
    cr_expect_str_eq(json_string_value(json_object_get(m, "game")),
                     "antiquity_quest");
    const json_t *seats = json_object_get(m, "seats");
    cr_assert_eq(json_array_size(seats), 2);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(seats, 0), "name")),
        "Ann", "the longest waiting creates the match");
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(seats, 1), "name")),
        "Cid");
    json_decref(m);
    /* Ann learns it from her seeks. */
    json_t *mine = my_seeks(&s, &ann);
    const json_t *row = json_array_get(mine, 0);
    cr_expect_str_eq(json_string_value(json_object_get(row, "status")),
                     "matched");
    cr_expect_str_eq(json_string_value(json_object_get(row, "match")), match);
    json_decref(mine);
    /* The match was made with the deadline asked for, not listed in the
     * lobby, and the seeks are spent: Ben's 48 h seek still waits. */
    json_t *list = lobby_get(&s, "/v1/matches?status=forming");
    cr_expect_eq(json_array_size(json_object_get(list, "matches")), 0);
    json_decref(list);
    mine = my_seeks(&s, &ben);
    cr_expect_eq(json_array_size(mine), 3);
    size_t i;
    json_array_foreach(mine, i, row) cr_expect_str_eq(
        json_string_value(json_object_get(row, "status")), "waiting");
    json_decref(mine);
    json_decref(first);
    json_decref(paired);
    cr_assert_eq(e2e_stop(&s), 0);
}

Test(lobby_seeks, a_withdrawn_or_expired_seek_forms_nothing, .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player dan, eve, fay;
    lobby_register(&s, "Dan", &dan);
    lobby_register(&s, "Eve", &eve);
    lobby_register(&s, "Fay", &fay);
    json_t *dans = seek(&s, &dan, QUEST_24);
    char path[64];
    snprintf(path, sizeof path, "/v1/seeks/%s", seek_id(dans));
    /* Only Dan may withdraw his seek. */
    e2e_response r = e2e_call(&s, "DELETE", path, NULL, &eve);
    cr_expect_eq(r.status, 404, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "no_such_seek");
    e2e_response_free(&r);
    r = e2e_call(&s, "DELETE", path, NULL, &dan);
    cr_expect_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    r = e2e_call(&s, "DELETE", path, NULL, &dan);
    cr_expect_eq(r.status, 409, "%s", r.body);
    cr_expect_str_eq(e2e_error_code(&r), "seek_over");
    e2e_response_free(&r);
    json_decref(dans);

    json_t *eves = seek(&s, &eve,
                        "{\"game\":\"antiquity_quest\",\"seats\":2,"
                        "\"turn_hours\":24,\"expires_hours\":1}");
    cr_expect(json_is_null(json_object_get(eves, "match")),
              "Dan's seek was withdrawn");
    json_decref(eves);
    lobby_clock_advance(2 * HOUR);
    json_t *fays = seek(&s, &fay, QUEST_24);
    cr_expect(json_is_null(json_object_get(fays, "match")),
              "Eve's seek expired an hour ago");
    json_decref(fays);
    json_t *mine = my_seeks(&s, &eve);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(mine, 0), "status")),
        "expired");
    json_decref(mine);

    const char *bad[] = {
        "{\"game\":\"chess\",\"seats\":2}",
        "{\"game\":\"antiquity_quest\"}",
        "{\"game\":\"antiquity_quest\",\"seats\":2,\"turn_hours\":0}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = e2e_call(&s, "POST", "/v1/seeks", bad[i], &fay);
        cr_expect_eq(r.status, 400, "%s: %s", bad[i], r.body);
        cr_expect_str_eq(e2e_error_code(&r), "bad_seek", "%s", bad[i]);
        e2e_response_free(&r);
    }
    cr_assert_eq(e2e_stop(&s), 0);
}
