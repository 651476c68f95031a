/* The "Can I have it?" window of Another Man's Treasure is the rules' own
 * clock (claim_window_hours, rules.h window): in every match, with or
 * without deadline options, the service passes for each seat other than
 * the next player that has not answered when the window's hours are up.
 * The next player keeps its ordinary turn clock, the next player's draw
 * closes the window early, and a window is never the match's deadline
 * action (a pass, even under forfeit). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

#define GAME "another_mans_treasure"

static void seat_players(e2e_server *s, e2e_player *p, int seats)
{
    static const char *const names[] = {"Robert", "Eliza", "Nigel", "Ada"};
    scene_env();
    memset(s, 0, sizeof *s);
    e2e_start(s);
    for (int i = 0; i < seats; i++)
        e2e_register(s, names[i], &p[i]);
}

/* Bit s set: seat s must act now. */
static unsigned pending_seats(const json_t *view)
{
    unsigned seats = 0;
    size_t i;
    json_t *seat;
    json_array_foreach(
        json_object_get(json_object_get(view, "pending"), "seats"), i, seat)
        seats |= 1u << json_integer_value(seat);
    return seats;
}

static const char *pending_wait(const json_t *view)
{
    return json_string_value(
        json_object_get(json_object_get(view, "pending"), "wait"));
}

/* A player in the engine's public view (borrowed). */
static json_t *player_of(const json_t *view, int seat)
{
    return json_array_get(
        json_object_get(json_object_get(view, "view"), "players"),
        (size_t)seat);
}

static const char *claim_of(const json_t *view, int seat)
{
    json_t *claim = json_object_get(player_of(view, seat), "claim");
    return claim ? json_string_value(claim) : "(none)";
}

static long long hand_count(const json_t *view, int seat)
{
    return json_integer_value(
        json_object_get(player_of(view, seat), "hand_count"));
}

/* p plays action (JSON text) at the match's head; it must be accepted. */
static void act(const e2e_server *s, const char *match, const e2e_player *p,
                const char *action)
{
    json_t *view = scene_public(s, match);
    long long head = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_decref(view);
    char path[96], body[256];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    snprintf(body, sizeof body, "{\"seq\":%lld,\"action\":%s}", head, action);
    e2e_response r = e2e_call(s, "POST", path, body, p);
    cr_assert_eq(r.status, 200, "%s: %ld %s", action, r.status, r.body);
    e2e_response_free(&r);
}

/* The turn of p: draw, then discard the first card legal() offers, which
 * opens the claim window. */
static void draw_and_discard(const e2e_server *s, const char *match,
                             const e2e_player *p)
{
    act(s, match, p, "{\"type\":\"draw\"}");
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, p);
    cr_assert_eq(r.status, 200, "%s", r.body);
    json_t *discard = NULL;
    size_t i;
    json_t *move;
    json_array_foreach(
        json_object_get(json_object_get(r.json, "legal"), "moves"), i, move)
    {
        const char *type = json_string_value(json_object_get(move, "type"));
        if (discard == NULL && strcmp(type, "discard") == 0)
            discard = move;
    }
    cr_assert_not_null(discard, "no discard offered: %s", r.body);
    char *text = json_dumps(discard, JSON_COMPACT);
    e2e_response_free(&r);
    act(s, match, p, text);
    free(text);
}

/* The seats of the match's timeout events (a bit each). */
static unsigned timeout_seats(const json_t *timeouts)
{
    unsigned seats = 0;
    size_t i;
    json_t *event;
    json_array_foreach(timeouts, i, event) seats |=
        1u << json_integer_value(json_object_get(event, "seat"));
    return seats;
}

/* Every timeout is a window's pass, due at due_at. */
static void expect_window_passes(const json_t *timeouts, long long due_at)
{
    size_t i;
    json_t *event;
    json_array_foreach(timeouts, i, event)
    {
        json_t *data = json_object_get(event, "data");
        cr_assert_str_eq(
            json_string_value(json_object_get(data, "waiting_for")), "window");
        cr_assert_str_eq(json_string_value(json_object_get(data, "action")),
                         "pass");
        cr_assert_eq(scene_time(json_object_get(data, "due_at")), due_at);
        json_t *moves = json_object_get(data, "moves");
        cr_assert_eq(json_array_size(moves), 1);
        cr_assert_str_eq(
            json_string_value(json_object_get(
                json_object_get(json_array_get(moves, 0), "action"), "type")),
            "pass");
    }
}

static long long current_window_rows(void)
{
    return scene_sql_number("SELECT count(*) FROM deadlines"
                            " WHERE kind = 'window' AND closed_at IS NULL");
}

static const char *waiting_for(const json_t *view, int seat)
{
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    return waiting ? json_string_value(json_object_get(waiting, "for"))
                   : "(none)";
}

static long long waiting_time(const json_t *view, int seat, const char *key)
{
    json_t *waiting = json_object_get(scene_clock_of(view, seat), "waiting");
    cr_assert_not_null(waiting, "seat %d waits for nothing", seat);
    return scene_time(json_object_get(waiting, key));
}

Test(claim_window, closes_after_claim_window_hours_without_match_deadlines,
     .timeout = 90)
{
    e2e_server s;
    e2e_player p[4];
    seat_players(&s, p, 4);
    char match[32];
    scene_match(&s, p, 4, GAME, NULL, match);
    json_t *view = scene_public(&s, match);
    cr_assert_null(json_object_get(view, "deadline"), "no deadline options");
    cr_assert_eq(pending_seats(view), 1u << 0, "seat 0 starts round 1");
    json_decref(view);

    /* Seat 0 discards: seat 1 is next, the other three may claim. */
    draw_and_discard(&s, match, &p[0]);
    view = scene_public(&s, match);
    cr_assert_str_eq(pending_wait(view), "any_order");
    cr_assert_eq(pending_seats(view), 0xFu);
    long long claimer_hand = hand_count(view, 2);
    /* The view shows when the window closes, deadline options or not. */
    json_t *waiting = json_object_get(scene_clock_of(view, 3), "waiting");
    cr_assert_str_eq(json_string_value(json_object_get(waiting, "for")),
                     "window");
    cr_assert_eq(scene_time(json_object_get(waiting, "due_at")),
                 T0 + 12 * HOUR);
    cr_assert_null(json_object_get(scene_clock_of(view, 1), "waiting"),
                   "the next player has no clock without deadline options");
    json_decref(view);
    cr_assert_eq(current_window_rows(), 3);

    /* Seat 2 claims within the window; the others keep silent. */
    scene_clock(T0 + 1 * HOUR);
    act(&s, match, &p[2], "{\"type\":\"claim\"}");
    cr_assert_eq(current_window_rows(), 2, "seat 2 answered");

    /* An hour before the window's 12 hours are up nothing happens. */
    scene_clock(T0 + 11 * HOUR);
    scene_worker_passes(&s, 2);
    json_t *timeouts = scene_events(&s, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 0, "the window is still open");
    json_decref(timeouts);

    /* At 12 hours the service passes for seats 0 and 3. */
    scene_clock(T0 + 12 * HOUR);
    timeouts = scene_wait_events(&s, match, "timeout", 2, 20);
    cr_assert_eq(json_array_size(timeouts), 2);
    cr_assert_eq(timeout_seats(timeouts), (1u << 0) | (1u << 3));
    expect_window_passes(timeouts, T0 + 12 * HOUR);
    json_decref(timeouts);
    cr_assert_eq(current_window_rows(), 0);
    view = scene_public(&s, match);
    cr_assert_str_eq(pending_wait(view), "one");
    cr_assert_eq(pending_seats(view), 1u << 1, "only the next player");
    cr_assert_str_eq(claim_of(view, 2), "claim", "the claim stands");
    cr_assert_str_eq(claim_of(view, 0), "pass");
    cr_assert_str_eq(claim_of(view, 3), "pass");
    json_decref(view);

    /* The next player draws: seat 2 gets the discard and a penalty card. */
    act(&s, match, &p[1], "{\"type\":\"draw\"}");
    view = scene_public(&s, match);
    cr_assert_eq(hand_count(view, 2), claimer_hand + 2);
    json_decref(view);

    /* The passes are in the hash-chained record. */
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/verify", match);
    e2e_response r = e2e_call(&s, "GET", path, NULL, NULL);
    cr_assert(json_is_true(json_object_get(r.json, "ok")), "%s", r.body);
    e2e_response_free(&r);
    stop_server(&s);
}

Test(claim_window,
     the_next_player_keeps_its_turn_clock_the_others_get_the_window,
     .timeout = 90)
{
    e2e_server s;
    e2e_player p[3];
    seat_players(&s, p, 3);
    char match[32];
    /* Under forfeit: had the window been the match's deadline, the match
     * would end when it closes. */
    scene_match_options(&s, p, 3, GAME, "{\"claim_window_hours\":2}",
                        "{\"turn_hours\":24,\"reminder_hours\":12,"
                        "\"action\":\"forfeit\"}",
                        match);
    scene_clock(T0 + 1 * HOUR);
    draw_and_discard(&s, match, &p[0]);

    json_t *view = scene_public(&s, match);
    cr_assert_str_eq(waiting_for(view, 1), "turn");
    cr_assert_eq(waiting_time(view, 1, "since"), T0 + 1 * HOUR);
    cr_assert_eq(waiting_time(view, 1, "due_at"), T0 + 25 * HOUR);
    cr_assert_eq(waiting_time(view, 1, "reminder_at"), T0 + 13 * HOUR);
    int window_seats[] = {0, 2};
    for (int i = 0; i < 2; i++) {
        int seat = window_seats[i];
        cr_assert_str_eq(waiting_for(view, seat), "window", "seat %d", seat);
        cr_assert_eq(waiting_time(view, seat, "since"), T0 + 1 * HOUR);
        cr_assert_eq(waiting_time(view, seat, "due_at"), T0 + 3 * HOUR);
        cr_assert_eq(waiting_time(view, seat, "grace_until"), T0 + 3 * HOUR);
        cr_assert_eq(waiting_time(view, seat, "fires_at"), T0 + 3 * HOUR);
        json_t *waiting =
            json_object_get(scene_clock_of(view, seat), "waiting");
        cr_assert_null(json_object_get(waiting, "reminder_at"),
                       "a window has no reminder");
    }
    json_decref(view);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE closed_at IS NULL"),
                 3, "one clock per seat, none twice");

    /* The window's 2 hours are up: seats 0 and 2 pass, nobody forfeits. */
    scene_clock(T0 + 3 * HOUR);
    json_t *timeouts = scene_wait_events(&s, match, "timeout", 2, 20);
    cr_assert_eq(json_array_size(timeouts), 2);
    cr_assert_eq(timeout_seats(timeouts), (1u << 0) | (1u << 2));
    expect_window_passes(timeouts, T0 + 3 * HOUR);
    json_decref(timeouts);
    json_t *forfeited = scene_events(&s, match, "forfeited");
    cr_assert_eq(json_array_size(forfeited), 0);
    json_decref(forfeited);

    /* Seat 1's turn clock runs on from where it started. */
    view = scene_public(&s, match);
    cr_assert_str_eq(json_string_value(json_object_get(view, "status")),
                     "active");
    cr_assert_eq(pending_seats(view), 1u << 1);
    cr_assert_str_eq(waiting_for(view, 1), "turn");
    cr_assert_eq(waiting_time(view, 1, "since"), T0 + 1 * HOUR);
    cr_assert_eq(waiting_time(view, 1, "due_at"), T0 + 25 * HOUR);
    cr_assert_str_eq(waiting_for(view, 0), "(none)");
    cr_assert_str_eq(waiting_for(view, 2), "(none)");
    json_decref(view);
    stop_server(&s);
}

Test(claim_window, the_next_players_draw_closes_it_early, .timeout = 90)
{
    e2e_server s;
    e2e_player p[3];
    seat_players(&s, p, 3);
    char match[32];
    scene_match_options(&s, p, 3, GAME, "{\"claim_window_hours\":2}", NULL,
                        match);
    draw_and_discard(&s, match, &p[0]);
    cr_assert_eq(current_window_rows(), 2);

    scene_clock(T0 + 1 * HOUR);
    act(&s, match, &p[1], "{\"type\":\"draw\"}");
    cr_assert_eq(current_window_rows(), 0);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE kind = 'window'"
                                  " AND outcome = 'acted'"),
                 2, "closed by the draw");

    /* Long after the window would have closed, nothing fires. */
    scene_clock(T0 + 10 * HOUR);
    scene_worker_passes(&s, 2);
    json_t *timeouts = scene_events(&s, match, "timeout");
    cr_assert_eq(json_array_size(timeouts), 0);
    json_decref(timeouts);
    json_t *view = scene_public(&s, match);
    cr_assert_str_eq(pending_wait(view), "one");
    cr_assert_eq(pending_seats(view), 1u << 1, "seat 1 plays on");
    json_decref(view);
    stop_server(&s);
}

Test(claim_window, a_window_due_with_a_forfeit_passes_and_does_not_forfeit,
     .timeout = 90)
{
    e2e_server s;
    e2e_player p[3];
    seat_players(&s, p, 3);
    char match[32];
    scene_match_options(
        &s, p, 3, GAME, "{\"claim_window_hours\":2}",
        "{\"turn_hours\":1,\"reminder_hours\":0,\"action\":\"forfeit\"}",
        match);
    draw_and_discard(&s, match, &p[0]);

    /* Seat 1's turn (due at 1 h) and the window (2 h) have both come:
     * the turn forfeits seat 1 alone; the window's seats are no part of
     * it. */
    scene_clock(T0 + 3 * HOUR);
    json_t *finished = scene_wait_events(&s, match, "finished", 1, 20);
    cr_assert_eq(json_array_size(finished), 1);
    json_decref(finished);
    json_t *forfeited = scene_events(&s, match, "forfeited");
    cr_assert_eq(json_array_size(forfeited), 1);
    cr_assert_eq(timeout_seats(forfeited), 1u << 1);
    json_decref(forfeited);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE kind = 'window'"
                                  " AND outcome = 'forfeit'"),
                 0);
    cr_assert_eq(scene_sql_number("SELECT count(*) FROM deadlines"
                                  " WHERE closed_at IS NULL"),
                 0);
    stop_server(&s);
}

Test(claim_window, a_window_opened_in_the_same_step_gets_a_fresh_clock,
     .timeout = 90)
{
    e2e_server s;
    e2e_player p[3];
    seat_players(&s, p, 3);
    char match[32];
    scene_match(&s, p, 3, GAME,
                "{\"turn_hours\":1,\"reminder_hours\":0,"
                "\"action\":\"default_move\"}",
                match);
    draw_and_discard(&s, match, &p[0]);
    json_t *view = scene_public(&s, match);
    cr_assert_eq(waiting_time(view, 0, "due_at"), T0 + 12 * HOUR);
    json_decref(view);

    /* Seat 1 lets its turn pass: the engine draws (closing seat 0's
     * window), discards (opening the next) and passes on its own discard,
     * in one step. Seat 0 waits in a new window from now. */
    scene_clock(T0 + 2 * HOUR);
    json_t *timeouts = scene_wait_events(&s, match, "timeout", 1, 20);
    cr_assert_eq(json_array_size(timeouts), 1);
    cr_assert_eq(timeout_seats(timeouts), 1u << 1);
    json_decref(timeouts);
    view = scene_public(&s, match);
    cr_assert_eq(pending_seats(view), (1u << 0) | (1u << 2));
    cr_assert_str_eq(waiting_for(view, 0), "window");
    cr_assert_eq(waiting_time(view, 0, "since"), T0 + 2 * HOUR);
    cr_assert_eq(waiting_time(view, 0, "due_at"), T0 + 14 * HOUR);
    cr_assert_str_eq(waiting_for(view, 2), "turn");
    cr_assert_eq(waiting_time(view, 2, "due_at"), T0 + 3 * HOUR);
    json_decref(view);
    stop_server(&s);
}

Test(claim_window, zero_hours_closes_it_at_once, .timeout = 90)
{
    e2e_server s;
    e2e_player p[3];
    seat_players(&s, p, 3);
    char match[32];
    scene_match_options(&s, p, 3, GAME, "{\"claim_window_hours\":0}", NULL,
                        match);
    draw_and_discard(&s, match, &p[0]);

    /* The clock does not move: the worker passes for seats 0 and 2. */
    json_t *timeouts = scene_wait_events(&s, match, "timeout", 2, 20);
    cr_assert_eq(json_array_size(timeouts), 2);
    cr_assert_eq(timeout_seats(timeouts), (1u << 0) | (1u << 2));
    expect_window_passes(timeouts, T0);
    json_decref(timeouts);
    json_t *view = scene_public(&s, match);
    cr_assert_str_eq(pending_wait(view), "one");
    cr_assert_eq(pending_seats(view), 1u << 1);
    json_decref(view);
    stop_server(&s);
}
