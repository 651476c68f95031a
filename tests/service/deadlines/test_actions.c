/* What happens at a deadline, action by action: forfeit ends the match
 * (after a restart of the only service: the rows remember), notify_admins
 * leaves the game alone and tells the admins once, skip passes where the
 * rules let it, and a time bank is drawn down before anything fires. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

static int pending_seat(const json_t *view)
{
    json_t *seats = json_object_get(json_object_get(view, "pending"), "seats");
    return json_array_size(seats)
               ? (int)json_integer_value(json_array_get(seats, 0))
               : -1;
}

static void two_players(e2e_server *s, e2e_player p[2], const char *deadline,
                        char match[32])
{
    scene_env();
    memset(s, 0, sizeof *s);
    e2e_start(s);
    e2e_register(s, "Robert", &p[0]);
    e2e_register(s, "Eliza", &p[1]);
    scene_match(s, p, 2, "artifact_stack", deadline, match);
}

/* Plays p's whole turn: done when it may, else take a free card, else
 * the first move listed, until p has nothing left to do. */
static void play_turn(const e2e_server *s, const char *match,
                      const e2e_player *p)
{
    char view[96], moves[96];
    snprintf(view, sizeof view, "/v1/matches/%s/view", match);
    snprintf(moves, sizeof moves, "/v1/matches/%s/moves", match);
    for (int n = 0; n < 100; n++) {
        e2e_response r = e2e_call(s, "GET", view, NULL, p);
        cr_assert_eq(r.status, 200, "%s", r.body);
        json_t *legal =
            json_object_get(json_object_get(r.json, "legal"), "moves");
        if (json_array_size(legal) == 0) {
            e2e_response_free(&r);
            return;
        }
        json_t *move = json_array_get(legal, 0);
        size_t i;
        json_t *m;
        json_array_foreach(legal, i, m)
        {
            const char *type = json_string_value(json_object_get(m, "type"));
            if (strcmp(type, "done") == 0 ||
                (strcmp(type, "take") == 0 &&
                 strcmp(json_string_value(json_object_get(move, "type")),
                        "done") != 0))
                move = m;
        }
        long long head = json_integer_value(
            json_object_get(json_object_get(r.json, "head"), "seq"));
        json_t *body =
            json_pack("{s:I,s:O}", "seq", (json_int_t)head, "action", move);
        e2e_response_free(&r);
        char *text = json_dumps(body, JSON_COMPACT);
        r = e2e_call(s, "POST", moves, text, p);
        cr_assert_eq(r.status, 200, "%s", r.body);
        e2e_response_free(&r);
        free(text);
        json_decref(body);
    }
    cr_assert_fail("the turn did not end within 100 moves");
}

Test(actions, forfeit_ends_the_match_even_across_a_restart, .timeout = 90)
{
    e2e_server s;
    e2e_player p[2];
    char match[32];
    two_players(&s, p, "{\"turn_hours\":24,\"action\":\"forfeit\"}", match);
    json_t *view = scene_public(&s, match);
    int seat = pending_seat(view);
    json_decref(view);

    /* No process runs while the deadline passes. */
    stop_server(&s);
    scene_clock(T0 + 25 * HOUR);
    e2e_start(&s);
    json_t *finished = scene_wait_events(&s, match, "finished", 1, 20);
    cr_assert_eq(json_array_size(finished), 1);
    json_t *forfeited = scene_events(&s, match, "forfeited");
    cr_assert_eq(json_array_size(forfeited), 1);
    cr_assert_eq(json_integer_value(
                     json_object_get(json_array_get(forfeited, 0), "seat")),
                 seat);
    json_t *result = json_object_get(
        json_object_get(json_array_get(finished, 0), "data"), "result");
    json_t *expected_ranking = json_pack("[[i],[i]]", 1 - seat, seat);
    cr_assert(json_equal(json_object_get(result, "ranking"), expected_ranking),
              "the forfeiting seat is last");
    cr_assert(json_is_true(json_object_get(result, "over")));
    json_decref(expected_ranking);
    json_decref(forfeited);
    json_decref(finished);
    json_t *timeouts = scene_events(&s, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 1);
    json_decref(timeouts);

    /* Everyone sees a finished match: nobody to act, the recorded result,
     * no moves, no clocks running. */
    view = scene_public(&s, match);
    cr_assert_str_eq(json_string_value(json_object_get(view, "status")),
                     "finished");
    cr_assert_eq(pending_seat(view), -1);
    cr_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(view, "pending"), "wait")),
                     "nobody");
    json_t *shown =
        json_object_get(json_object_get(view, "result"), "forfeited");
    cr_assert_eq(json_integer_value(json_array_get(shown, 0)), seat);
    for (int s2 = 0; s2 < 2; s2++)
        cr_assert_null(json_object_get(scene_clock_of(view, s2), "waiting"));
    json_decref(view);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    e2e_response r = e2e_call(&s, "GET", path, NULL, &p[seat]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_assert_eq(json_array_size(json_object_get(
                     json_object_get(r.json, "legal"), "moves")),
                 0);
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    r = e2e_call(&s, "POST", path, "{\"seq\":1,\"move\":\"done\"}", &p[seat]);
    cr_assert_eq(r.status, 409, "%s", r.body);
    e2e_response_free(&r);

    /* Anyone can check it: the seed is out and the forfeit result replays. */
    snprintf(path, sizeof path, "/v1/matches/%s/verify", match);
    r = e2e_call(&s, "GET", path, NULL, NULL);
    cr_assert(json_is_true(json_object_get(r.json, "ok")), "%s", r.body);
    cr_assert(json_is_true(json_object_get(r.json, "replayed")), "%s", r.body);
    e2e_response_free(&r);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE closed_at IS NULL"),
                 0);
    stop_server(&s);
}

static void admin_key(e2e_player *admin)
{
    cr_assert(sodium_init() >= 0);
    memset(admin, 0, sizeof *admin);
    client_new_key(&admin->key);
    snprintf(admin->key.key_id, sizeof admin->key.key_id, "admin");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv("PBEM_ADMIN_KEY", b64, 1);
}

Test(actions, notify_admins_tells_the_admins_once_and_changes_nothing,
     .timeout = 90)
{
    e2e_player admin;
    scene_env();
    admin_key(&admin);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[2];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    char match[32];
    scene_match(&s, p, 2, "artifact_stack",
                "{\"turn_hours\":24,\"action\":\"notify_admins\"}", match);
    json_t *view = scene_public(&s, match);
    int seat = pending_seat(view);
    json_decref(view);

    scene_clock(T0 + 25 * HOUR);
    json_t *timeouts = scene_wait_events(&s, match, "timeout", 1, 20);
    cr_assert_eq(json_array_size(timeouts), 1);
    json_t *data = json_object_get(json_array_get(timeouts, 0), "data");
    cr_assert_str_eq(json_string_value(json_object_get(data, "action")),
                     "notify_admins");
    cr_assert_null(json_object_get(data, "moves"), "the game is not changed");
    json_decref(timeouts);

    /* Without an admin address the notice waits in the dead letters. */
    json_t *notice = NULL;
    for (int i = 0; i < 200 && notice == NULL; i++) {
        e2e_response r = e2e_call(
            &s, "GET", "/v1/admin/notifications?status=dead", NULL, &admin);
        cr_assert_eq(r.status, 200, "%s", r.body);
        size_t k;
        json_t *n;
        json_array_foreach(json_object_get(r.json, "notifications"), k, n)
        {
            if (strcmp(json_string_value(json_object_get(n, "channel")),
                       "admins") == 0)
                notice = json_incref(n);
        }
        e2e_response_free(&r);
        if (notice == NULL)
            pause_ms(50);
    }
    cr_assert_not_null(notice, "no admin notice among the dead letters");
    cr_assert_str_eq(json_string_value(json_object_get(notice, "reason")),
                     "deadline_admins");
    cr_assert_str_eq(json_string_value(json_object_get(notice, "match")),
                     match);
    json_decref(notice);

    /* The seat still has its turn; the deadline does not fire again. */
    view = scene_public(&s, match);
    cr_assert_eq(pending_seat(view), seat);
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    cr_assert(json_is_true(json_object_get(waiting, "fired")));
    json_decref(view);
    scene_clock(T0 + 200 * HOUR);
    scene_worker_passes(&s, 3);
    timeouts = scene_events(&s, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 1, "told once");
    json_decref(timeouts);

    /* When the seat plays at last, its clock stops and the next one starts. */
    play_turn(&s, match, &p[seat]);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE outcome = 'notify_admins'"
                                  " AND closed_at IS NOT NULL"),
                 1);
    view = scene_public(&s, match);
    cr_assert_eq(pending_seat(view), 1 - seat);
    waiting = json_object_get(scene_clock_of(view, 1 - seat), "waiting");
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 224 * HOUR);
    cr_assert(json_is_false(json_object_get(waiting, "fired")));
    json_decref(view);
    stop_server(&s);
}

Test(actions, the_time_bank_is_drawn_down_before_the_action, .timeout = 90)
{
    e2e_server s;
    e2e_player p[2];
    char match[32];
    two_players(&s, p,
                "{\"turn_hours\":10,\"grace_hours\":2,\"time_bank_hours\":5,"
                "\"action\":\"default_move\"}",
                match);
    json_t *view = scene_public(&s, match);
    int late = pending_seat(view);
    json_t *waiting = json_object_get(scene_clock_of(view, late), "waiting");
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 10 * HOUR);
    cr_assert_eq(scene_time(json_object_get(waiting, "grace_until")),
                 T0 + 12 * HOUR);
    cr_assert_eq(scene_time(json_object_get(waiting, "fires_at")),
                 T0 + 17 * HOUR);
    cr_assert_eq(json_integer_value(json_object_get(scene_clock_of(view, late),
                                                    "time_bank_seconds")),
                 5 * HOUR);
    json_decref(view);

    /* Seat `late` plays its whole turn 2 h after its grace period: 2 h of
     * its bank are gone. */
    scene_clock(T0 + 14 * HOUR);
    play_turn(&s, match, &p[late]);
    view = scene_public(&s, match);
    int other = pending_seat(view);
    cr_assert_eq(other, 1 - late);
    cr_assert_eq(json_integer_value(json_object_get(scene_clock_of(view, late),
                                                    "time_bank_seconds")),
                 3 * HOUR);
    waiting = json_object_get(scene_clock_of(view, other), "waiting");
    cr_assert_eq(scene_time(json_object_get(waiting, "fires_at")),
                 T0 + (14 + 17) * HOUR);
    json_decref(view);

    /* The other seat does nothing: after due + grace the bank runs out,
     * and only then does the action fire. */
    scene_clock(T0 + 30 * HOUR);
    scene_worker_passes(&s, 2);
    json_t *timeouts = scene_events(&s, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 0, "the bank still runs");
    json_decref(timeouts);
    scene_clock(T0 + 31 * HOUR);
    timeouts = scene_wait_events(&s, match, "timeout", 1, 20);
    cr_assert_eq(json_array_size(timeouts), 1);
    json_t *data = json_object_get(json_array_get(timeouts, 0), "data");
    cr_assert_eq(
        json_integer_value(json_object_get(data, "time_bank_used_seconds")),
        5 * HOUR);
    json_decref(timeouts);
    view = scene_public(&s, match);
    cr_assert_eq(json_integer_value(json_object_get(scene_clock_of(view, other),
                                                    "time_bank_seconds")),
                 0);
    json_decref(view);
    stop_server(&s);
}

/* Another Man's Treasure under skip: the first player's turn is played
 * for it and it passes on its own discard; the seat still to answer the
 * claim window is passed for when the window's own hours are up (12, the
 * default of claim_window_hours), not at the match's turn deadline; the
 * next player's vacation holds its turn clock only. */
static const char *move_type(const json_t *data, size_t i)
{
    return json_string_value(json_object_get(
        json_object_get(json_array_get(json_object_get(data, "moves"), i),
                        "action"),
        "type"));
}

Test(actions, skip_passes_on_a_claim_and_a_vacation_holds_the_next_player,
     .timeout = 90)
{
    scene_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[3];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    e2e_register(&s, "Nigel", &p[2]);
    char match[32];
    scene_match(&s, p, 3, "another_mans_treasure",
                "{\"turn_hours\":24,\"action\":\"skip\"}", match);
    json_t *view = scene_public(&s, match);
    int first = pending_seat(view);
    json_decref(view);
    int next = (first + 1) % 3, third = (first + 2) % 3;

    /* The first player may not pass on its turn: the default move (draw,
     * then discard) stands in, and the event says so; then it may claim
     * its own discard, and passes. */
    scene_clock(T0 + 25 * HOUR);
    json_t *timeouts = scene_wait_events(&s, match, "timeout", 1, 20);
    json_t *data = json_object_get(json_array_get(timeouts, 0), "data");
    cr_assert_not_null(json_object_get(data, "note"));
    cr_assert_str_eq(move_type(data, 0), "draw");
    cr_assert_str_eq(move_type(data, 1), "discard");
    cr_assert_str_eq(move_type(data, 2), "pass");
    json_decref(timeouts);

    /* The claim window: the next player goes on vacation for a day. */
    char body[160];
    snprintf(body, sizeof body,
             "{\"from\":\"2030-01-02T01:00:00Z\",\"until\":\"2030-01-03T01:00:"
             "00Z\"}");
    e2e_response r =
        e2e_call(&s, "POST", "/v1/players/me/vacation", body, &p[next]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    e2e_response_free(&r);
    view = scene_public(&s, match);
    json_t *waiting = json_object_get(scene_clock_of(view, next), "waiting");
    cr_assert_str_eq(json_string_value(json_object_get(waiting, "for")),
                     "turn");
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 73 * HOUR);
    waiting = json_object_get(scene_clock_of(view, third), "waiting");
    cr_assert_str_eq(json_string_value(json_object_get(waiting, "for")),
                     "window");
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 37 * HOUR);
    json_decref(view);

    /* The window closes first: the third seat passes on the discard. */
    scene_clock(T0 + 38 * HOUR);
    timeouts = scene_wait_events(&s, match, "timeout", 2, 20);
    cr_assert_eq(json_array_size(timeouts), 2);
    json_t *pass = json_array_get(timeouts, 1);
    cr_assert_eq(json_integer_value(json_object_get(pass, "seat")), third);
    data = json_object_get(pass, "data");
    cr_assert_null(json_object_get(data, "note"));
    cr_assert_str_eq(json_string_value(json_object_get(data, "waiting_for")),
                     "window");
    cr_assert_str_eq(move_type(data, 0), "pass");
    json_decref(timeouts);
    view = scene_public(&s, match);
    cr_assert_eq(pending_seat(view), next);
    json_decref(view);
    stop_server(&s);
}
