/* Quick match: seeks of the same kind form a match and start it; a seek
 * of another kind, a withdrawn or an expired one does not; nobody is
 * seated twice. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* The match p's seek seek_ref was matched into, once it is (20 s at most,
 * reading p's seeks every 50 ms: the service pairs waiting seeks by
 * itself); fails the test saying so otherwise. Into match (32 bytes). */
static void wait_matched(const e2e_server *s, const e2e_player *p,
                         const char *seek_ref, char match[32])
{
    for (int i = 0; i < 400; i++) {
        json_t *mine = my_seeks(s, p);
        size_t at;
        const json_t *row;
        json_array_foreach(mine, at, row)
        {
            const char *id = json_string_value(json_object_get(row, "id"));
            const char *m = json_string_value(json_object_get(row, "match"));
            if (id != NULL && strcmp(id, seek_ref) == 0 && m != NULL) {
                snprintf(match, 32, "%s", m);
                json_decref(mine);
                return;
            }
        }
        json_decref(mine);
        usleep(50 * 1000);
    }
    cr_assert_fail("%s's seek %s found no match within 20 s", p->name,
                   seek_ref);
}

/* The names in match ref's seats, in seat order, joined by spaces. */
static void seat_names(const e2e_server *s, const char *ref, char *out,
                       size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", ref);
    json_t *m = lobby_get(s, path);
    out[0] = '\0';
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(m, "seats"), i, seat)
    {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", i ? " " : "",
                 json_string_value(json_object_get(seat, "name")) ?: "-");
    }
    json_decref(m);
}

Test(lobby_seeks, seekers_400_points_apart_meet_once_the_window_has_widened,
     .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player ann, ben;
    lobby_register(&s, "Ann", &ann);
    lobby_register(&s, "Ben", &ben);
    lobby_set_rating(&ann, "antiquity_quest", 1500);
    lobby_set_rating(&ben, "antiquity_quest", 1900);
    json_t *anns = seek(&s, &ann, QUEST_24);
    json_t *bens = seek(&s, &ben, QUEST_24);
    cr_expect(json_is_null(json_object_get(bens, "match")),
              "400 points apart, paired at once: the window is 150 then");
    json_decref(bens);
    /* Four hours on, Ann's seek reaches 350 points around Ben's rating:
     * Ben asking again still finds nobody. */
    lobby_clock_advance(4 * HOUR);
    bens = seek(&s, &ben, QUEST_24);
    cr_expect(json_is_null(json_object_get(bens, "match")),
              "paired 400 points apart with a window of 350");
    cr_expect_str_eq(seek_status(bens), "waiting");
    /* Six hours on, 450: the service pairs them by itself, though nobody
     * asks again, and each sees the match among their seeks. */
    lobby_clock_advance(2 * HOUR);
    char match[32], bens_match[32], names[64];
    wait_matched(&s, &ann, seek_id(anns), match);
    wait_matched(&s, &ben, seek_id(bens), bens_match);
    cr_expect_str_eq(bens_match, match);
    seat_names(&s, match, names, sizeof names);
    cr_expect_str_eq(names, "Ann Ben", "the longest waiting has seat 0");
    cr_expect_str_eq(lobby_wait_status(&s, match, "active"), "active");
    json_decref(anns);
    json_decref(bens);
    cr_assert_eq(e2e_stop(&s), 0);
}

#define QUEST3_48 "{\"game\":\"antiquity_quest\",\"seats\":3,\"turn_hours\":48}"

Test(lobby_seeks, a_seek_sits_once_and_only_in_the_match_it_asked_for,
     .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player ann, ben, cid, dot;
    lobby_register(&s, "Ann", &ann);
    lobby_register(&s, "Ben", &ben);
    lobby_register(&s, "Cid", &cid);
    lobby_register(&s, "Dot", &dot);
    lobby_set_rating(&ann, "antiquity_quest", 1450);
    lobby_set_rating(&ben, "antiquity_quest", 1620);
    lobby_set_rating(&cid, "antiquity_quest", 1500);
    lobby_set_rating(&dot, "antiquity_quest", 1530);
    /* Ann asks twice, and for a 2-seat match of 48 h too: two seeks of
     * hers, and still one seat in any match. */
    json_t *anns = seek(&s, &ann, QUEST3_48);
    json_t *again = seek(&s, &ann, QUEST3_48);
    cr_expect_str_eq(seek_id(again), seek_id(anns));
    json_decref(again);
    json_t *pair = seek(&s, &ann,
                        "{\"game\":\"antiquity_quest\",\"seats\":2,"
                        "\"turn_hours\":48}");
    cr_expect(json_is_null(json_object_get(pair, "match")));
    json_t *bens = seek(&s, &ben, QUEST3_48);
    cr_expect(json_is_null(json_object_get(bens, "match")),
              "a 3-seat match of two players");
    json_decref(bens);
    /* Cid asks for 24 h turns: within the window, not what they asked. */
    json_t *cids = seek(&s, &cid,
                        "{\"game\":\"antiquity_quest\",\"seats\":3,"
                        "\"turn_hours\":24}");
    cr_expect(json_is_null(json_object_get(cids, "match")),
              "24 h turns paired with 48 h ones");
    json_decref(cids);
    json_t *dots = seek(&s, &dot, QUEST3_48);
    const char *match = json_string_value(json_object_get(dots, "match"));
    cr_assert_not_null(match, "Dot's seek completes Ann's and Ben's table");
    char names[64], path[64];
    seat_names(&s, match, names, sizeof names);
    cr_expect_str_eq(names, "Ann Ben Dot");
    /* The match is what they asked for: three seats, 48 h turns, and the
     * game's own options, as a match made without any has them. */
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    json_t *m = lobby_get(&s, path);
    cr_expect_eq(json_integer_value(json_object_get(m, "seat_count")), 3);
    cr_expect_eq(json_integer_value(json_object_get(
                     json_object_get(m, "deadline"), "turn_hours")),
                 48, "%s", json_dumps(json_object_get(m, "deadline"), 0));
    char plain_ref[32];
    lobby_create(&s, &cid, "{\"game\":\"antiquity_quest\",\"seats\":3}",
                 plain_ref);
    snprintf(path, sizeof path, "/v1/matches/%s", plain_ref);
    json_t *plain = lobby_get(&s, path);
    cr_expect(json_equal(json_object_get(m, "options"),
                         json_object_get(plain, "options")),
              "options nobody asked for: %s",
              json_dumps(json_object_get(m, "options"), 0));
    json_decref(plain);
    json_decref(m);
    /* Ann's other seek, and Cid's, wait on. */
    json_t *mine = my_seeks(&s, &ann);
    const json_t *row;
    size_t i;
    json_array_foreach(mine, i, row)
    {
        const char *id = json_string_value(json_object_get(row, "id"));
        cr_expect_str_eq(json_string_value(json_object_get(row, "status")),
                         strcmp(id, seek_id(pair)) == 0 ? "waiting" : "matched",
                         "%s", id);
    }
    json_decref(mine);
    json_decref(pair);
    json_decref(anns);
    json_decref(dots);
    cr_assert_eq(e2e_stop(&s), 0);
}

/* The matches p sits in, as GET /v1/players/me/matches lists them. */
static size_t matches_of(const e2e_server *s, const e2e_player *p)
{
    e2e_response r = e2e_call(s, "GET", "/v1/players/me/matches", NULL, p);
    cr_assert_eq(r.status, 200, "%s", r.body);
    size_t n = json_array_size(json_object_get(r.json, "matches"));
    e2e_response_free(&r);
    return n;
}

Test(lobby_seeks, seekers_whose_names_look_alike_are_never_half_seated,
     .timeout = 60)
{
    e2e_server s;
    lobby_start(&s);
    e2e_player ann, fake, ben;
    lobby_register(&s, "Ann", &ann);
    /* A Cyrillic А: no two names of one match may look alike. */
    lobby_register(&s, "\xd0\x90nn", &fake);
    lobby_register(&s, "Ben", &ben);
    json_t *anns = seek(&s, &ann, QUEST_24);
    json_t *fakes = seek(&s, &fake, QUEST_24);
    cr_expect(json_is_null(json_object_get(fakes, "match")),
              "Ann and \"\xd0\x90nn\" seated together");
    cr_expect_str_eq(seek_status(fakes), "waiting");
    cr_expect_eq(matches_of(&s, &ann), 0,
                 "a match was made for Ann that nobody else could join");
    cr_expect_eq(matches_of(&s, &fake), 0);
    /* The next seeker meets Ann; the look-alike waits on. */
    json_t *bens = seek(&s, &ben, QUEST_24);
    const char *match = json_string_value(json_object_get(bens, "match"));
    cr_assert_not_null(match, "Ben's seek did not find Ann's");
    char names[64];
    seat_names(&s, match, names, sizeof names);
    cr_expect_str_eq(names, "Ann Ben");
    cr_expect_eq(matches_of(&s, &ann), 1);
    json_t *mine = my_seeks(&s, &fake);
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(mine, 0), "status")),
        "waiting");
    json_decref(mine);
    json_decref(anns);
    json_decref(fakes);
    json_decref(bens);
    cr_assert_eq(e2e_stop(&s), 0);
}
