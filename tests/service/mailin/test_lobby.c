/* The lobby by mail: a stranger who plays only by mail lists the open
 * matches and takes a seat in one that a player of the API opened. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};

/* The mail's prose is broken at 72 columns: the words are read across
 * its line breaks (mail_says). */
static void expect_says(const json_t *mail, const char *text)
{
    cr_expect(mail_says(mail, text), "the mail does not say \"%s\":\n%s",
              text, mail_text(mail));
}

Test(mail_lobby, a_stranger_lists_the_open_matches_and_joins_one,
     .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    /* Robert plays through the API and opens a match to anyone. */
    e2e_player robert;
    e2e_register(&scene.server, "Robert", &robert);
    e2e_response r =
        e2e_call(&scene.server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":2,\"open\":true,"
                 "\"deadline\":{\"turn_hours\":48}}",
                 &robert);
    cr_assert_eq(r.status, 201, "%s", r.body);
    char match[32];
    snprintf(match, sizeof match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);

    /* Dave knows nobody there: he writes "list" to the service. */
    mail_table t;
    memset(&t, 0, sizeof t);
    t.scene = &scene;
    t.seats = 1;
    t.cursor = mail_count(&scene);
    snprintf(t.people[0].address, sizeof t.people[0].address,
             "dave@example.org");
    snprintf(t.people[0].name, sizeof t.people[0].name, "Dave");
    char *raw =
        mail_scene_compose("Dave <dave@example.org>", "pbem@example.org",
                           "games?", NULL, NULL, "list Antiquity Quest", NULL);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    mail_table_wait(&t, 0);
    expect_says(t.people[0].latest, "To go ahead, answer this mail");
    json_t *list = mail_table_answer(&t, 0, "yes");
    expect_says(list, "Open matches waiting for players");
    char line[160];
    snprintf(line, sizeof line,
             "  %s  Antiquity Quest, 1 of 2 seats taken, 48 h turns, rated; "
             "by Robert (not rated yet)",
             match);
    expect_says(list, line);
    expect_says(list, "join m_1234");
    json_decref(list);

    /* A game nobody plays here is refused in words. */
    json_t *refused = mail_table_answer(&t, 0, "list chess");
    expect_says(refused, "Refused: there is no game called \"chess\"");
    json_decref(refused);

    char join[64];
    snprintf(join, sizeof join, "join %s", match);
    json_t *seated = mail_table_answer(&t, 0, join);
    snprintf(line, sizeof line,
             "You have seat 1 in match %s. Every seat is "
             "taken: the match has started.",
             match);
    expect_says(seated, line);
    json_decref(seated);

    /* The match started with Dave in seat 1, and left the lobby. */
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    r = e2e_call(&scene.server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200);
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "status")),
                     "active");
    cr_expect_str_eq(
        json_string_value(json_object_get(
            json_array_get(json_object_get(r.json, "seats"), 1), "name")),
        "Dave");
    e2e_response_free(&r);
    json_t *after = mail_table_answer(&t, 0, "list");
    expect_says(after, "No open match is waiting for players");
    json_decref(after);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(mail_lobby, a_mail_seek_meets_an_api_seek_and_plays_by_mail,
     .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    memset(&t, 0, sizeof t);
    t.scene = &scene;
    t.seats = 1;
    t.cursor = mail_count(&scene);
    snprintf(t.people[0].address, sizeof t.people[0].address,
             "erin@example.org");
    snprintf(t.people[0].name, sizeof t.people[0].name, "Erin");
    char *raw = mail_scene_compose(
        "Erin <erin@example.org>", "pbem@example.org", "a quick match", NULL,
        NULL, "seek antiquity_quest seats=2 turn=1d", NULL);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    mail_table_wait(&t, 0);
    json_t *waiting = mail_table_answer(&t, 0, "yes");
    expect_says(waiting, "You wait for a quick match (seek s_");
    expect_says(waiting, "2 players, 24 h turns");
    json_decref(waiting);
    json_t *bad = mail_table_answer(&t, 0, "seek antiquity_quest colour=red");
    expect_says(bad, "Refused: \"colour=red\" is not one of seats=N");
    json_decref(bad);

    /* Robert, on the API, asks for the same kind of match. */
    e2e_player robert;
    e2e_register(&scene.server, "Robert", &robert);
    size_t from = mail_count(&scene);
    e2e_response r =
        e2e_call(&scene.server, "POST", "/v1/seeks",
                 "{\"game\":\"antiquity_quest\",\"seats\":2,\"turn_hours\":24}",
                 &robert);
    cr_assert_eq(r.status, 201, "%s", r.body);
    const char *made = json_string_value(json_object_get(r.json, "match"));
    cr_assert_not_null(made, "Erin's mailed seek was found: %s", r.body);
    char match[32], path[64];
    snprintf(match, sizeof match, "%s", made);
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    r = e2e_call(&scene.server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200);
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "status")),
                     "active");
    const json_t *seats = json_object_get(r.json, "seats");
    cr_expect_str_eq(
        json_string_value(json_object_get(json_array_get(seats, 0), "name")),
        "Erin", "the seek that waited longest takes seat 0");
    e2e_response_free(&r);
    /* Robert plays while it is his turn (he is seat 1); then Erin's turn
     * comes to her by mail, about the new match. */
    e2e_table api = {.server = scene.server, .seats = 2};
    api.players[1] = robert;
    snprintf(api.match, sizeof api.match, "%s", match);
    for (int moves = 0; moves < 50; moves++) {
        json_t *now = e2e_get(&api, "", NULL);
        int seat = e2e_first_pending_seat(now);
        json_decref(now);
        if (seat != 1)
            break;
        cr_assert(e2e_play_one(&api), "the match ended on Robert's turn");
    }
    json_t *turn = mail_next_to(&scene, "erin@example.org", &from, 20);
    cr_assert_not_null(turn, "no mail came to Erin about %s", match);
    expect_says(turn, match);
    json_decref(turn);
    json_t *gone = mail_table_answer(&t, 0, "unseek");
    expect_says(gone, "You had no seek waiting.");
    json_decref(gone);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
