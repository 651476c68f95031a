/* test_json_text.c: every answer's text (core/json_text.h) is what
 * json_dumps(value, JSON_COMPACT) writes, byte for byte: the seat views
 * and move listings of whole games in every engine, and the strings and
 * numbers at the edges of JSON. Pure: no server, no database. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json_text.h"
#include "rng.h"
#include "rules.h"

/* Fails the test unless both writers agree on value, where jansson
 * writes a text at all. */
static void expect_same_text(const json_t *value, const char *what)
{
    char *theirs = json_dumps(value, JSON_COMPACT);
    char *ours = json_text_compact(value);
    cr_assert_not_null(theirs, "%s: jansson wrote nothing", what);
    cr_assert_not_null(ours, "%s: nothing written", what);
    cr_assert_str_eq(ours, theirs, "%s", what);
    free(theirs);
    free(ours);
}

/* Plays a few games of each engine at random; at every step, checks each
 * seat's view and move listing and the result. */
Test(json_text, seat_views_and_move_listings_of_every_engine)
{
    int checked = 0;
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        const rules_engine *engine = *e;
        for (int game = 0; game < 3; game++) {
            int seats = engine->min_seats +
                        game % (engine->max_seats - engine->min_seats + 1);
            uint8_t seed[RULES_SEED_BYTES] = {(uint8_t)game, 7};
            rules_rng rng;
            rules_rng_init(&rng, seed);
            rules_error err;
            rules_state *state = engine->setup(NULL, seats, seed, &err);
            cr_assert_not_null(state, "%s: %s", engine->name, err.message);
            for (int step = 0; step < 150; step++) {
                rules_pending pending;
                engine->pending(state, &pending);
                int mover = -1;
                for (int seat = RULES_SPECTATOR; seat < seats; seat++) {
                    char what[96];
                    snprintf(what, sizeof what, "%s game %d step %d seat %d",
                             engine->name, game, step, seat);
                    json_t *view = engine->view(state, seat);
                    expect_same_text(view, what);
                    json_decref(view);
                    if (seat < 0)
                        continue;
                    json_t *legal = engine->legal(state, seat);
                    expect_same_text(legal, what);
                    json_decref(legal);
                    checked += 2;
                    if (mover < 0 && (pending.seats & (1u << seat)))
                        mover = seat;
                }
                json_t *result = engine->result(state);
                expect_same_text(result, engine->name);
                json_decref(result);
                if (pending.wait == RULES_WAIT_NOBODY || mover < 0)
                    break;
                json_t *legal = engine->legal(state, mover);
                json_t *moves = json_object_get(legal, "moves");
                size_t count = json_array_size(moves);
                cr_assert_gt(count, 0, "%s: seat %d has no move", engine->name,
                             mover);
                json_t *move = json_array_get(
                    moves, rules_rng_below(&rng, (uint32_t)count));
                cr_assert(engine->apply(state, mover, move, &err), "%s: %s",
                          engine->name, err.message);
                json_decref(legal);
            }
            engine->destroy(state);
        }
    }
    cr_expect_gt(checked, 1000);
}

Test(json_text, strings_are_escaped_as_jansson_escapes_them)
{
    static const char *const strings[] = {
        "",
        "plain",
        "a \"quoted\" word",
        "back\\slash and /slash",
        "tab\there, new\nline, return\r, form\ffeed, back\bspace",
        "\x01\x02\x1f\x7f",
        "caf\xc3\xa9, \xe2\x82\xac, \xf0\x9f\x82\xa1", /* é, €, a card */
        "ends in an escape\n",
    };
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
        json_t *value = json_pack("{s:s,s:[s]}", strings[i], strings[i], "list",
                                  strings[i]);
        cr_assert_not_null(value);
        expect_same_text(value, strings[i]);
        json_decref(value);
    }
    /* A NUL inside a string or a key. */
    json_t *value = json_array();
    json_array_append_new(value, json_stringn("a\0b", 3));
    json_t *object = json_object();
    json_object_setn_new(object, "k\0ey", 4, json_true());
    json_array_append_new(value, object);
    expect_same_text(value, "NUL");
    json_decref(value);
}

Test(json_text, a_string_that_is_not_utf8_is_refused_as_jansson_refuses_it)
{
    static const char *const broken[] = {
        "\x80",             /* a continuation byte alone */
        "\xc0\xaf",         /* an overlong '/' */
        "\xe0\x80\xaf",     /* another */
        "\xed\xa0\x80",     /* a surrogate */
        "\xf4\x90\x80\x80", /* past U+10FFFF */
        "\xe2\x82",         /* cut short */
        "ok \xff",
    };
    for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
        json_t *value = json_array();
        json_array_append_new(value, json_string_nocheck(broken[i]));
        char *theirs = json_dumps(value, JSON_COMPACT);
        char *ours = json_text_compact(value);
        cr_expect_null(theirs, "case %zu", i);
        cr_expect_null(ours, "case %zu", i);
        free(theirs);
        free(ours);
        json_decref(value);
    }
}

Test(json_text, numbers_and_the_other_values)
{
    json_t *value =
        json_pack("{s:I,s:I,s:I,s:I,s:f,s:f,s:f,s:b,s:b,s:n,s:[],s:{}}", "zero",
                  (json_int_t)0, "negative", (json_int_t)-42, "least",
                  (json_int_t)INT64_MIN, "most", (json_int_t)INT64_MAX, "half",
                  0.5, "third", 1.0 / 3.0, "big", 1e300, "yes", 1, "no", 0,
                  "nothing", "empty list", "empty object");
    cr_assert_not_null(value);
    expect_same_text(value, "numbers");
    json_decref(value);
}

Test(json_text, only_an_object_or_an_array_is_a_text)
{
    json_t *bare = json_string("bare");
    cr_expect_null(json_text_compact(bare));
    cr_expect_null(json_dumps(bare, JSON_COMPACT));
    json_decref(bare);
    cr_expect_null(json_text_compact(NULL));
}

Test(json_text, a_deep_value_is_written_the_same)
{
    json_t *value = json_array();
    json_t *inner = value;
    for (int depth = 0; depth < 200; depth++) {
        json_t *next = json_object();
        json_array_append_new(inner, next);
        json_t *list = json_array();
        json_object_set_new(next, "d", list);
        inner = list;
    }
    expect_same_text(value, "200 deep");
    json_decref(value);
}
