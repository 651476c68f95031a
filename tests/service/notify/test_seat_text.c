/* What a person reads of a match (seat_text.h): the legend of the seats,
 * the engine's view_text (or the JSON view of an engine without one yet),
 * and a short list of moves grouped by form, never hundreds of lines. A
 * small stand-in engine feeds it; a real one checks the length. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/seat_text.h"
#include "../../support/notify_scene.h"

/* The stand-in engine: its legal() answers whatever the test sets, its
 * moves are {"type": "x", "text": "…"} and read as their text. */
static json_t *legal_answer;

static json_t *fake_view(const rules_state *state, int seat)
{
    (void)state;
    return json_pack("{s:i}", "seat", seat);
}

static char *fake_view_text(const rules_state *state, int seat)
{
    (void)state;
    char *text = NULL;
    if (asprintf(&text, "Your hand: B5 R7 (seat %d)\n", seat) < 0)
        abort();
    return text;
}

static json_t *fake_legal(const rules_state *state, int seat)
{
    (void)state;
    (void)seat;
    return json_incref(legal_answer);
}

static char *fake_format(const rules_state *state, int seat,
                         const json_t *action)
{
    (void)state;
    (void)seat;
    const char *text = json_string_value(json_object_get(action, "text"));
    return text ? strdup(text) : NULL;
}

static rules_engine fake = {
    .name = "fake",
    .title = "Fake",
    .view = fake_view,
    .view_text = fake_view_text,
    .legal = fake_legal,
    .format_move = fake_format,
};

static store_match three_seats(void)
{
    store_match m;
    memset(&m, 0, sizeof m);
    m.seat_count = 3;
    m.seat_player[0] = 11;
    m.seat_player[2] = 13;
    snprintf(m.seat_name[0], sizeof m.seat_name[0], "Alice");
    snprintf(m.seat_name[2], sizeof m.seat_name[2], "Bob");
    return m;
}

/* legal() answers moves (texts), complete or not, with forms. */
static void set_legal(const char *const *moves, size_t count, bool complete,
                      const char *const *forms)
{
    json_decref(legal_answer);
    json_t *list = json_array(), *form_list = json_array();
    for (size_t i = 0; i < count; i++)
        json_array_append_new(list, json_pack("{s:s,s:s}", "type", "x",
                                              "text", moves[i]));
    for (size_t i = 0; forms && forms[i]; i++)
        json_array_append_new(form_list, json_string(forms[i]));
    legal_answer = json_pack("{s:o,s:b,s:o}", "moves", list, "complete",
                             complete, "forms", form_list);
}

static int lines_of(const char *text)
{
    int n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    return n;
}

Test(seat_text, the_view_opens_with_who_sits_where)
{
    store_match m = three_seats();
    char *text = seat_text_view(&m, &fake, NULL, 0);
    cr_expect_str_eq(text, "seat 0 Alice (you), seat 1 (free), seat 2 Bob\n"
                           "\n"
                           "Your hand: B5 R7 (seat 0)\n");
    free(text);
    text = seat_text_view(&m, &fake, NULL, RULES_SPECTATOR);
    cr_expect_eq(strncmp(text, "seat 0 Alice, seat 1 (free), seat 2 Bob\n", 40),
                 0, "%s", text);
    free(text);
}

Test(seat_text, a_long_legend_wraps_between_seats)
{
    store_match m;
    memset(&m, 0, sizeof m);
    m.seat_count = 8;
    for (int s = 0; s < 8; s++) {
        m.seat_player[s] = 100 + s;
        snprintf(m.seat_name[s], sizeof m.seat_name[s], "Player Number %d", s);
    }
    char *text = seat_text_view(&m, &fake, NULL, 3);
    char *legend_end = strstr(text, "\n\n");
    cr_assert_not_null(legend_end);
    *legend_end = '\0';
    cr_expect_eq(lines_of(text), 2, "%s", text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        cr_expect_leq(strlen(line), 72, "%s", line);
        cr_expect_eq(strncmp(line, "seat ", 5), 0, "a seat split: %s", line);
    }
    free(text);
}

Test(seat_text, a_short_complete_list_is_shown_whole)
{
    static const char *const moves[] = {"draw", "pickup B5 B6", "play B5 B6 B7",
                                        "discard R1"};
    static const char *const forms[] = {"draw", "pickup CARD CARD",
                                        "play CARD CARD CARD…", "discard CARD",
                                        NULL};
    set_legal(moves, 4, true, forms);
    char *text = seat_text_moves(&fake, NULL, 0, legal_answer);
    cr_expect_str_eq(text,
                     "  draw\n  pickup B5 B6\n  play B5 B6 B7\n  discard R1\n");
    free(text);
}

Test(seat_text, many_moves_are_grouped_by_form_with_three_examples)
{
    const char *moves[64];
    char buf[64][48];
    int n = 0;
    for (int l = 0; l < 2; l++)
        for (int c = 0; c < 5; c++)
            for (int r = 0; r < 3; r++) {
                snprintf(buf[n], sizeof buf[n], "dig %d.%d.%d", l, c, r);
                moves[n] = buf[n];
                n++;
            }
    moves[n++] = "dig 0.0.0 with hunter";
    moves[n++] = "dig 0.1.0 with hunter";
    moves[n++] = "peek 1.1.1";
    moves[n++] = "done";
    moves[n++] = "wave hands";
    static const char *const forms[] = {
        "take L.C.R", "dig L.C.R", "dig L.C.R with ASSISTANT", "peek L.C.R",
        "keep | done", NULL};
    set_legal(moves, (size_t)n, true, forms);
    char *text = seat_text_moves(&fake, NULL, 0, legal_answer);
    cr_expect_str_eq(text, "  dig L.C.R (30 moves), for example:\n"
                           "    dig 0.0.0\n"
                           "    dig 0.0.1\n"
                           "    dig 0.0.2\n"
                           "  dig L.C.R with ASSISTANT:\n"
                           "    dig 0.0.0 with hunter\n"
                           "    dig 0.1.0 with hunter\n"
                           "  peek L.C.R:\n"
                           "    peek 1.1.1\n"
                           "  keep | done:\n"
                           "    done\n"
                           "  other moves:\n"
                           "    wave hands\n");
    free(text);
}

Test(seat_text, a_sample_says_so)
{
    static const char *const moves[] = {
        "play B1 B2 B3", "play B2 B3 B4", "play B3 B4 B5", "play B4 B5 B6",
        "discard B1",    "discard B2",    "discard B3",    "discard B4",
        "discard B5",    "discard B6",    "add 1 B7",      "add 1 B7 B8",
        "pickup B1 B1"};
    static const char *const forms[] = {"pickup CARD CARD [CARD CARD]",
                                        "play CARD CARD CARD…",
                                        "add COLLECTION CARD…", "discard CARD",
                                        NULL};
    set_legal(moves, 13, false, forms);
    char *text = seat_text_moves(&fake, NULL, 0, legal_answer);
    cr_expect_str_eq(text, "  pickup CARD CARD [CARD CARD], for example:\n"
                           "    pickup B1 B1\n"
                           "  play CARD CARD CARD…, for example:\n"
                           "    play B1 B2 B3\n"
                           "    play B2 B3 B4\n"
                           "    play B3 B4 B5\n"
                           "  add COLLECTION CARD…, for example:\n"
                           "    add 1 B7\n"
                           "    add 1 B7 B8\n"
                           "  discard CARD, for example:\n"
                           "    discard B1\n"
                           "    discard B2\n"
                           "    discard B3\n");
    free(text);
}

Test(seat_text, no_move_is_no_text)
{
    set_legal(NULL, 0, true, NULL);
    char *text = seat_text_moves(&fake, NULL, 0, legal_answer);
    cr_expect_str_eq(text, "");
    free(text);
}

/* A real engine at its widest: the list stays a few lines per form. */
Test(seat_text, a_real_engine_never_lists_hundreds_of_lines)
{
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        const rules_engine *engine = *e;
        uint8_t seed[RULES_SEED_BYTES] = {7};
        rules_error err;
        int seats = engine->min_seats < 2 ? 2 : engine->min_seats;
        rules_state *state = engine->setup(NULL, seats, seed, &err);
        cr_assert_not_null(state, "%s: %s", engine->name, err.message);
        /* A few dozen random moves in, where the choices are many. */
        for (int step = 0; step < 40; step++) {
            rules_pending pending;
            engine->pending(state, &pending);
            if (pending.wait == RULES_WAIT_NOBODY)
                break;
            int seat = __builtin_ctz(pending.seats);
            json_t *legal = engine->legal(state, seat);
            json_t *moves = json_object_get(legal, "moves");
            size_t forms = json_array_size(json_object_get(legal, "forms"));
            char *text = seat_text_moves(engine, state, seat, legal);
            int lines = lines_of(text);
            cr_expect_leq(lines, (int)(forms + 1) * (SEAT_TEXT_EXAMPLES + 1),
                          "%s: %d lines for %zu moves:\n%s", engine->name,
                          lines, json_array_size(moves), text);
            cr_expect_leq(lines, 40, "%s: %d lines", engine->name, lines);
            free(text);
            json_t *move = json_array_get(moves, (size_t)step %
                                                     json_array_size(moves));
            bool applied = move != NULL &&
                           engine->apply(state, seat, move, &err);
            json_decref(legal);
            if (!applied)
                break;
        }
        engine->destroy(state);
    }
}

/* The API's seat view carries the same text (GET .../view "text"). */
Test(seat_text, the_seat_view_answers_it_too, .timeout = 60)
{
    notify_server_env();
    e2e_table t;
    e2e_sit_down(&t, "artifact_stack", 2, NULL);
    json_t *view = e2e_get(&t, "/view", &t.players[1]);
    const char *text = json_string_value(json_object_get(view, "text"));
    cr_assert_not_null(text);
    static const char legend[] = "seat 0 Robert, seat 1 Eliza (you)\n\n";
    cr_expect_eq(strncmp(text, legend, sizeof legend - 1), 0, "%s", text);
    json_decref(view);
    stop_server(&t.server);
}
