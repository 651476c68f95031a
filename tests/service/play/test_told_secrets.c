/* No door tells one seat's hidden card to another: the toy engine's add
 * draws a card that its tell names to the drawer only ("You added 1 and
 * drew opal17."). After such a move, the card is searched for in what every
 * door shows the other seat and the public: the events list, the match
 * stream, the other seat's view and its turn mail's "since your last
 * turn". The drawer's own view names it, so the search can fail. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/notify_outbox.h"
#include "play/append.h"
#include "play/describe.h"
#include "play/matches.h"
#include "store/db.h"
#include "store/matches.h"
#include "store/migrate.h"
#include "store/players.h"
#include "store/store.h"
#include "streams/stream_feed.h"
#include "toy_table.h"

/* The seat whose turn it is. */
static int turn_of(const rules_state *state)
{
    rules_pending pending;
    toy_engine.pending(state, &pending);
    cr_assert_eq(pending.wait, RULES_WAIT_ONE);
    return __builtin_ctz(pending.seats);
}

/* seat adds 1 (drawing a card) and the move is appended; returns the
 * card's name (malloc'd). */
static char *add_one(PGconn *conn, store_match *match, rules_state *state,
                     int seat)
{
    json_t *action = json_pack("{s:s,s:i}", "type", "add", "n", 1);
    rules_state *before = toy_engine.clone(state);
    rules_error rerr = {{0}};
    cr_assert(toy_engine.apply(state, seat, action, &rerr), "%s", rerr.message);
    json_t *move = json_pack("{s:s,s:i,s:{s:O,s:s}}", "kind", "move", "seat",
                             seat, "data", "action", action, "text", "add 1");
    toy_table_append(conn, match, before, state, NULL, &move, 1);
    toy_engine.destroy(before);
    json_decref(action);
    json_t *view = toy_engine.view(state, seat);
    char *card = strdup(json_string_value(json_object_get(view, "card")));
    json_decref(view);
    return card;
}

static void expect_untold(const char *door, const char *text, const char *card)
{
    cr_assert_not_null(text, "%s: nothing", door);
    cr_expect_null(strstr(text, card), "%s names the drawer's card %s: %s",
                   door, card, text);
    cr_expect_not_null(strstr(text, "drew a card"),
                       "%s does not tell the draw: %s", door, text);
}

Test(told_secrets, no_door_names_a_card_drawn_by_another_seat, .timeout = 60)
{
    PGconn *conn = toy_table_database();
    store_match match;
    rules_state *state = toy_table_match(conn, &match);
    int drawer = turn_of(state);
    int other = 1 - drawer;
    char *card = add_one(conn, &match, state, drawer);
    apierr err;

    /* The public events list. */
    json_t *events = matches_events(match.match_id, 0, 100, &err);
    cr_assert_not_null(events, "%s", err.message);
    char *text = json_dumps(events, 0);
    expect_untold("GET …/events", text, card);
    free(text);
    json_t *move = json_array_get(json_object_get(events, "events"), 4);
    char expected[64];
    snprintf(expected, sizeof expected, "%s added 1 and drew a card.",
             match.seat_name[drawer]);
    cr_expect_str_eq(json_string_value(json_object_get(move, "text")),
                     expected);
    json_decref(events);

    /* The match stream. */
    stream_feed *feed =
        stream_feed_open(STREAMS_MATCH, match.match_id, 0, true, &err);
    cr_assert_not_null(feed, "%s", err.message);
    bool more;
    cr_assert(stream_feed_read(feed, 0, &more, &err), "%s", err.message);
    size_t len;
    expect_untold("the match stream", stream_feed_output(feed, &len), card);
    stream_feed_free(feed);

    /* The other seat's view, and the drawer's, which names it. */
    json_t *view = describe_seat_view(&match, &toy_engine, state, other, &err);
    cr_assert_not_null(view, "%s", err.message);
    text = json_dumps(json_object_get(view, "log"), 0);
    expect_untold("the other seat's log", text, card);
    free(text);
    cr_expect_eq(json_integer_value(json_object_get(view, "since_seq")), 0);
    json_decref(view);
    view = describe_seat_view(&match, &toy_engine, state, drawer, &err);
    cr_assert_not_null(view, "%s", err.message);
    json_t *last = json_array_get(json_object_get(view, "log"), 4);
    snprintf(expected, sizeof expected, "You added 1 and drew %s.", card);
    cr_expect_str_eq(json_string_value(json_object_get(last, "text")),
                     expected);
    cr_expect_eq(json_integer_value(json_object_get(view, "since_seq")), 5,
                 "the drawer's last action is event 5");
    json_decref(view);

    /* The other seat's turn mail. */
    json_t *payload = notify_outbox_turn_payload(conn, &match, &toy_engine,
                                                 state, other, &err);
    cr_assert_not_null(payload, "%s", err.message);
    text = json_dumps(json_object_get(payload, "changes"), 0);
    expect_untold("the turn mail's changes", text, card);
    free(text);
    json_decref(payload);

    free(card);
    toy_engine.destroy(state);
    store_match_free(&match);
}

/* Telling never stops an append: a move whose state before cannot be read
 * (here the match's seed cannot be opened) is appended all the same and
 * told by its notation. */
Test(told_secrets, a_move_told_without_its_state_is_told_by_its_notation,
     .timeout = 60)
{
    PGconn *conn = toy_table_database();
    store_match match;
    rules_state *state = toy_table_match(conn, &match);
    int seat = turn_of(state);
    json_t *action = json_pack("{s:s,s:i}", "type", "add", "n", 2);
    rules_error rerr = {{0}};
    cr_assert(toy_engine.apply(state, seat, action, &rerr), "%s", rerr.message);
    json_t *move = json_pack("{s:s,s:i,s:{s:O,s:s}}", "kind", "move", "seat",
                             seat, "data", "action", action, "text", "add 2");
    toy_table_append(conn, &match, NULL, state, NULL, &move, 1);
    json_decref(action);
    apierr err;
    json_t *events = matches_events(match.match_id, 4, 10, &err);
    cr_assert_not_null(events, "%s", err.message);
    char expected[64];
    snprintf(expected, sizeof expected, "%s: add 2.", match.seat_name[seat]);
    cr_expect_str_eq(
        json_string_value(json_object_get(
            json_array_get(json_object_get(events, "events"), 0), "text")),
        expected);
    json_decref(events);
    toy_engine.destroy(state);
    store_match_free(&match);
}

/* A sealed decision is told once every choice is public: each choice as
 * the engine tells it with the decision resolved. */
Test(told_secrets, a_decision_tells_every_choice_once_resolved, .timeout = 60)
{
    PGconn *conn = toy_table_database();
    store_match match;
    rules_state *state = toy_table_match(conn, &match);
    for (int i = 0; i < 3; i++)
        free(add_one(conn, &match, state, turn_of(state)));
    rules_pending pending;
    toy_engine.pending(state, &pending);
    cr_assert_eq(pending.wait, RULES_WAIT_SIMULTANEOUS);
    rules_state *before = toy_engine.clone(state);
    json_t *choices = json_array();
    for (int s = 0; s < 2; s++) {
        json_t *guess = json_pack("{s:s,s:i}", "type", "guess", "n", s);
        rules_error rerr = {{0}};
        cr_assert(toy_engine.apply(state, s, guess, &rerr), "%s", rerr.message);
        json_array_append_new(
            choices, json_pack("{s:i,s:o}", "seat", s, "action", guess));
    }
    json_t *decided =
        json_pack("{s:s,s:{s:s,s:o}}", "kind", "decided", "data", "decision",
                  pending.decision, "choices", choices);
    toy_table_append(conn, &match, before, state, NULL, &decided, 1);
    toy_engine.destroy(before);
    apierr err;
    json_t *events = matches_events(match.match_id, 7, 10, &err);
    cr_assert_not_null(events, "%s", err.message);
    cr_expect_str_eq(
        json_string_value(json_object_get(
            json_array_get(json_object_get(events, "events"), 0), "text")),
        "The secret choices were revealed. Ann guessed even. Bob "
        "guessed odd.");
    json_decref(events);
    json_t *view = describe_seat_view(&match, &toy_engine, state, 1, &err);
    cr_assert_not_null(view, "%s", err.message);
    json_t *log = json_object_get(view, "log");
    cr_expect_str_eq(
        json_string_value(json_object_get(
            json_array_get(log, json_array_size(log) - 1), "text")),
        "The secret choices were revealed. Ann guessed even. You guessed odd.");
    json_decref(view);
    toy_engine.destroy(state);
    store_match_free(&match);
}
