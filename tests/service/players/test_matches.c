/* A player's matches and a finished match's replay on the real pbemd: the
 * list puts the matches where it is the player's turn first (a sealed
 * decision's commitment counts), filters by status; a finished match
 * steps back to any event with every seat's view as that seat saw it then;
 * and a "your turn" mail's Play link opens the seat's web page. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "players_scene.h"

#define MAX_MOVES 2000

static json_t *my_matches(const e2e_server *s, const e2e_player *p,
                          const char *query)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/players/me/matches%s", query);
    e2e_response r = e2e_call(s, "GET", path, NULL, p);
    cr_assert_eq(r.status, 200, "%s: %ld %s", path, r.status, r.body);
    json_t *list = json_incref(json_object_get(r.json, "matches"));
    e2e_response_free(&r);
    return list;
}

static const json_t *row_of(const json_t *list, const char *match)
{
    size_t i;
    const json_t *row;
    json_array_foreach(list, i, row)
        if (strcmp(scene_member(row, "match_id"), match) == 0)
            return row;
    return NULL;
}

static bool your_turn(const e2e_table *t, int seat)
{
    json_t *list = my_matches(&t->server, &t->players[seat], "");
    const json_t *row = row_of(list, t->match);
    cr_assert_not_null(row, "%s is not in seat %d's list", t->match, seat);
    bool yes = json_is_true(json_object_get(row, "your_turn"));
    json_decref(list);
    return yes;
}

static char *open_match(const e2e_table *t, int seats)
{
    static char ref[32];
    char body[96];
    snprintf(body, sizeof body, "{\"game\":\"artifact_stack\",\"seats\":%d}",
             seats);
    e2e_response r =
        e2e_call(&t->server, "POST", "/v1/matches", body, &t->players[0]);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    snprintf(ref, sizeof ref, "%s",
             scene_member(json_object_get(r.json, "match"), "id"));
    e2e_response_free(&r);
    return ref;
}

Test(my_matches, your_turn_first_then_the_latest, .timeout = 90)
{
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_table t;
    e2e_sit_down(&t, "artifact_stack", 2, NULL);
    char open[32];
    snprintf(open, sizeof open, "%s", open_match(&t, 3));
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    long long head =
        json_integer_value(json_object_get(json_object_get(match, "head"),
                                           "seq"));
    json_decref(match);
    cr_assert_geq(seat, 0);
    int other = 1 - seat;

    json_t *list = my_matches(&t.server, &t.players[seat], "");
    const json_t *first = json_array_get(list, 0);
    cr_expect_str_eq(scene_member(first, "match_id"), t.match);
    cr_expect_str_eq(scene_member(first, "game"), "artifact_stack");
    cr_expect_str_eq(scene_member(first, "status"), "active");
    cr_expect_eq(json_integer_value(json_object_get(first, "seat")), seat);
    cr_expect(json_is_true(json_object_get(first, "your_turn")));
    cr_expect_eq(json_integer_value(json_object_get(first, "head_seq")), head);
    const char *updated = scene_member(first, "updated_at");
    cr_expect_eq(strlen(updated), 20, "%s", updated);
    json_t *seats = json_object_get(first, "seats");
    cr_assert_eq(json_array_size(seats), 2);
    cr_expect_str_eq(scene_member(json_array_get(seats, 0), "name"), "Robert");
    cr_expect_str_eq(scene_member(json_array_get(seats, 1), "name"), "Eliza");
    json_decref(list);
    cr_expect_not(your_turn(&t, other));

    /* Robert's open match comes after the match where it is his turn, or
     * first (the latest change) when it is not. */
    list = my_matches(&t.server, &t.players[0], "");
    cr_assert_eq(json_array_size(list), 2);
    const json_t *row = row_of(list, open);
    cr_assert_not_null(row);
    cr_expect_str_eq(scene_member(row, "status"), "open");
    cr_expect(json_is_false(json_object_get(row, "your_turn")));
    cr_expect_eq(json_array_size(json_object_get(row, "seats")), 1);
    cr_expect_str_eq(scene_member(json_array_get(list, 0), "match_id"),
                     seat == 0 ? t.match : open);
    json_decref(list);

    list = my_matches(&t.server, &t.players[0], "?status=open");
    cr_expect_eq(json_array_size(list), 1);
    cr_expect_str_eq(scene_member(json_array_get(list, 0), "match_id"), open);
    json_decref(list);
    list = my_matches(&t.server, &t.players[1], "?status=finished");
    cr_expect_eq(json_array_size(list), 0);
    json_decref(list);
    e2e_response r = e2e_call(&t.server, "GET",
                              "/v1/players/me/matches?status=won", NULL,
                              &t.players[0]);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "bad_status");
    e2e_response_free(&r);

    /* A move hands the turn over. */
    cr_assert(e2e_play_one(&t));
    match = e2e_get(&t, "", NULL);
    int next = e2e_first_pending_seat(match);
    json_decref(match);
    cr_expect_eq(your_turn(&t, next), true);
    cr_expect_eq(your_turn(&t, 1 - next), false);
    cr_expect_eq(e2e_stop(&t.server), 0, "pbemd did not stop cleanly");
}

Test(my_matches, a_pending_commitment_is_your_turn, .timeout = 90)
{
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    cr_assert_str_eq(scene_member(json_object_get(match, "pending"), "wait"),
                     "simultaneous");
    json_decref(match);
    for (int s = 0; s < 3; s++)
        cr_expect(your_turn(&t, s), "seat %d", s);

    /* Seat 0 chooses (sealed by the server): the others still must. */
    json_t *view = e2e_get(&t, "/view", &t.players[0]);
    long long seq = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_t *action = json_array_get(
        json_object_get(json_object_get(view, "legal"), "moves"), 0);
    cr_assert_not_null(action);
    e2e_response r = e2e_post_move(&t, 0, seq, action);
    cr_assert_lt(r.status, 300, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    json_decref(view);
    cr_expect_not(your_turn(&t, 0));
    cr_expect(your_turn(&t, 1));
    cr_expect(your_turn(&t, 2));
    cr_expect_eq(e2e_stop(&t.server), 0, "pbemd did not stop cleanly");
}

static json_t *replay(const e2e_table *t, const char *query, long status)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/matches/%s/replay%s", t->match, query);
    e2e_response r = e2e_call(&t->server, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, status, "%s: %ld %s", path, r.status, r.body);
    json_t *json = json_incref(r.json);
    e2e_response_free(&r);
    return json;
}

Test(replay, a_finished_match_shows_every_seat_at_every_event,
     .timeout = 180)
{
    e2e_table t;
    e2e_sit_down(&t, "artifact_stack", 2, NULL);
    for (int i = 0; i < 6; i++)
        cr_assert(e2e_play_one(&t));
    /* What seat 0 saw at this event, to compare with its replay. */
    json_t *seat_view = e2e_get(&t, "/view", &t.players[0]);
    long long then = json_integer_value(
        json_object_get(json_object_get(seat_view, "head"), "seq"));
    json_t *refused = replay(&t, "?seq=1", 409);
    cr_expect_str_eq(
        scene_member(json_object_get(refused, "error"), "code"),
        "match_not_over");
    json_decref(refused);

    int moves = 0;
    while (e2e_play_one(&t))
        cr_assert_lt(++moves, MAX_MOVES, "no end after %d moves", moves);
    json_t *events = e2e_all_events(&t);
    long long head = (long long)json_array_size(events);

    char query[64];
    snprintf(query, sizeof query, "?seq=%lld", then);
    json_t *step = replay(&t, query, 200);
    cr_expect_str_eq(scene_member(step, "match_id"), t.match);
    cr_expect_eq(json_integer_value(json_object_get(step, "seq")), then);
    cr_expect_eq(json_integer_value(json_object_get(step, "head_seq")), head);
    cr_expect(json_equal(json_object_get(step, "event"),
                         json_array_get(events, (size_t)then - 1)),
              "the event differs from GET /events");
    json_t *views = json_object_get(step, "views");
    cr_assert_eq(json_array_size(views), 2);
    json_t *zero = json_array_get(views, 0);
    cr_expect_eq(json_integer_value(json_object_get(zero, "seat")), 0);
    cr_expect_str_eq(scene_member(zero, "name"), "Robert");
    cr_expect(json_equal(json_object_get(zero, "view"),
                         json_object_get(seat_view, "view")),
              "seat 0's replayed view differs from what it saw then");
    cr_expect(strlen(scene_member(zero, "text")) > 10);
    cr_expect_str_eq(scene_member(json_array_get(views, 1), "name"), "Eliza");
    cr_expect(json_is_object(json_object_get(step, "public")));
    json_decref(step);
    json_decref(seat_view);

    snprintf(query, sizeof query, "?seq=%lld", head);
    step = replay(&t, query, 200);
    cr_expect(json_equal(json_object_get(step, "event"),
                         json_array_get(events, (size_t)head - 1)));
    json_decref(step);

    /* Before anything happened: no event, no views yet. */
    step = replay(&t, "?seq=0", 200);
    cr_expect(json_is_null(json_object_get(step, "event")));
    cr_expect(json_is_null(
        json_object_get(json_array_get(json_object_get(step, "views"), 0),
                        "view")));
    cr_expect(json_is_null(json_object_get(step, "public")));
    json_decref(step);

    snprintf(query, sizeof query, "?seq=%lld", head + 1);
    json_t *missing = replay(&t, query, 404);
    cr_expect_str_eq(
        scene_member(json_object_get(missing, "error"), "code"),
        "no_such_event");
    json_decref(missing);
    const char *bad[] = {"", "?seq=-1", "?seq=abc", "?seq=1x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *no = replay(&t, bad[i], 400);
        json_decref(no);
    }
    e2e_response r = e2e_call(&t.server, "GET",
                              "/v1/matches/m_987654321/replay?seq=0", NULL,
                              NULL);
    cr_expect_eq(r.status, 404);
    e2e_response_free(&r);
    json_decref(events);
    cr_expect_eq(e2e_stop(&t.server), 0, "pbemd did not stop cleanly");
}

Test(mail_link, the_play_link_opens_the_seats_web_page, .timeout = 90)
{
    receiver smtp;
    e2e_server s;
    scene_start(&s, &smtp);
    e2e_player ada, bob;
    scene_register(&s, "Ada", "ada@example.org", &ada);
    scene_register(&s, "Bob", "bob@example.org", &bob);
    e2e_response r = e2e_call(&s, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}",
                              &ada);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    char match[32], path[96];
    snprintf(match, sizeof match, "%s",
             scene_member(json_object_get(r.json, "match"), "id"));
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(&s, "POST", path, "{}", &bob);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);

    json_t *mails = receiver_wait(&smtp, 1, 30);
    cr_assert_geq(json_array_size(mails), 1);
    const char *text = scene_member(json_array_get(mails, 0), "text");
    char link[96];
    snprintf(link, sizeof link, "Play: https://pbem.example/matches/%s\n",
             match);
    cr_expect_not_null(strstr(text, link), "%s", text);
    cr_expect_null(strstr(text, "/view"), "%s", text);
    const char *html = scene_member(json_array_get(mails, 0), "html");
    snprintf(link, sizeof link, "href=\"https://pbem.example/matches/%s\"",
             match);
    cr_expect_not_null(strstr(html, link), "%s", html);
    /* The settings link opens the settings page, not the signed API. */
    cr_expect_not_null(
        strstr(text, "Notification settings: https://pbem.example/settings\n"),
        "%s", text);
    json_decref(mails);
    receiver_stop(&smtp);
    cr_expect_eq(e2e_stop(&s), 0, "pbemd did not stop cleanly");
}
