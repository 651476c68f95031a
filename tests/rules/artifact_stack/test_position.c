/* The position form (save and load) as a referee edits it: lists in any
 * order, derived fields left out, errors that name the field and the value,
 * the README's worked example and the rulebook examples in canonical form.
 * Run from the repository root (make does): the examples are read from
 * rules/artifact_stack/examples/. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <string.h>

#include "../harness.h"
#include "fixture.h"

#define EXAMPLES "rules/artifact_stack/examples/"
#define WORKED "stolen_treasure_keeps_its_points"

/* An example position without its "note" (new reference). */
static json_t *example(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, EXAMPLES "%s.json", name);
    json_error_t jerr;
    json_t *position = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    cr_assert_not_null(position, "%s: %s", path, jerr.text);
    json_object_del(position, "note");
    return position;
}

static rules_state *load_ok(const json_t *position)
{
    rules_error err = {{0}};
    rules_state *state = as_engine.load(position, &err);
    cr_assert_not_null(state, "load: %s", err.message);
    return state;
}

/* The canonical bytes save writes for position once loaded. */
static char *resaved(const json_t *position)
{
    rules_state *state = load_ok(position);
    json_t *saved = as_engine.save(state);
    char *bytes = rules_sorted_json(saved);
    json_decref(saved);
    as_engine.destroy(state);
    return bytes;
}

/* Asserts load refuses position with exactly this sentence. */
static void refused(const json_t *position, const char *sentence)
{
    rules_error err = {{0}};
    rules_state *state = as_engine.load(position, &err);
    cr_expect_null(state, "accepted, expected \"%s\"", sentence);
    if (state != NULL)
        as_engine.destroy(state);
    cr_expect_str_eq(err.message, sentence);
}

static json_t *player(json_t *position, size_t seat)
{
    return json_array_get(json_object_get(position, "players"), seat);
}

static void reverse(json_t *list)
{
    size_t n = json_array_size(list);
    for (size_t i = 0; i < n / 2; i++) {
        json_t *a = json_incref(json_array_get(list, i));
        json_t *b = json_incref(json_array_get(list, n - 1 - i));
        json_array_set_new(list, i, b);
        json_array_set_new(list, n - 1 - i, a);
    }
}

/* A position of random play from match n (harness seeds) where wanted()
 * holds; NULL when none of 100 matches reaches one. */
static as_state *played_until(int seats, bool (*wanted)(const as_state *))
{
    for (uint64_t n = 0; n < 100; n++) {
        uint8_t seed[RULES_SEED_BYTES];
        harness_seed(5100000 + n, seed);
        rules_error err = {{0}};
        as_state *s = (as_state *)as_engine.setup(NULL, seats, seed, &err);
        uint32_t pick = (uint32_t)n;
        while (!s->over) {
            if (wanted(s))
                return s;
            json_t *legal = as_engine.legal((rules_state *)s, s->turn);
            json_t *moves = json_object_get(legal, "moves");
            pick = pick * 1103515245u + 12345u;
            json_t *move = json_array_get(moves, (pick >> 8) %
                                                     json_array_size(moves));
            cr_assert(as_engine.apply((rules_state *)s, s->turn, move, &err),
                      "%s", err.message);
            json_decref(legal);
        }
        as_engine.destroy((rules_state *)s);
    }
    return NULL;
}

/* A bonus set, a face-down curse or treasure, a used assistant and a
 * peek all on the table at once. */
static bool rich(const as_state *s)
{
    bool set = false, single = false, used = false, peek = false;
    for (int c = 0; c < AS_CARDS; c++) {
        set = set || s->set[c] >= 0;
        single = single || (s->flipped[c] && s->set[c] < 0);
        for (int p = 0; p < s->seats; p++)
            peek = peek || s->peeked[p][c];
    }
    for (int a = 0; a < AS_ASSISTANTS; a++)
        used = used || s->assistant_used[a];
    return set && single && used && peek;
}

static bool in_round_2(const as_state *s)
{
    return s->round == 2 && !rich(s) && s->task == AS_TASK_NONE;
}

Test(as_position, lists_in_any_order_load_to_the_same_position)
{
    as_state *s = played_until(3, rich);
    cr_assert_not_null(s, "random play never reached a rich position");
    json_t *saved = as_engine.save((rules_state *)s);
    char *canonical = rules_sorted_json(saved);
    static const char *const lists[] = {"cards", "sets", "face_down",
                                        "assistants", "used", "peeked"};
    for (size_t p = 0; p < 3; p++) {
        for (size_t k = 0; k < sizeof lists / sizeof lists[0]; k++)
            reverse(json_object_get(player(saved, p), lists[k]));
        size_t i;
        json_t *set;
        json_array_foreach(json_object_get(player(saved, p), "sets"), i, set)
            reverse(set);
    }
    reverse(json_object_get(saved, "stacks"));
    reverse(json_object_get(saved, "box"));
    /* the temple's places written bottom first instead of top first */
    json_t *temple = json_object_get(saved, "temple");
    json_t *upside_down = json_object();
    const char *keys[AS_TEMPLE];
    size_t n = 0;
    const char *at;
    json_t *card;
    json_object_foreach(temple, at, card)
        keys[n++] = at;
    while (n > 0) {
        n--;
        json_object_set(upside_down, keys[n], json_object_get(temple, keys[n]));
    }
    json_object_set_new(saved, "temple", upside_down);
    char *again = resaved(saved);
    cr_expect_str_eq(again, canonical);
    free(again);
    free(canonical);
    json_decref(saved);
    as_engine.destroy((rules_state *)s);
}

Test(as_position, fields_that_follow_from_the_rest_may_be_left_out)
{
    as_state *s = played_until(4, in_round_2);
    cr_assert_not_null(s, "random play never reached round 2");
    json_t *saved = as_engine.save((rules_state *)s);
    char *canonical = rules_sorted_json(saved);
    cr_assert_eq(json_array_size(json_object_get(saved, "removed")), 2);
    json_object_del(saved, "removed"); /* the 2 cards found nowhere else */
    json_object_del(saved, "stacks");  /* those of the cards */
    json_object_del(saved, "task");    /* none */
    json_object_del(saved, "stock");   /* empty in round 2 */
    if (!s->over)
        json_object_del(saved, "over");
    for (size_t p = 0; p < 4; p++) {
        json_t *seat = player(saved, p);
        if (s->skip[p] == 0)
            json_object_del(seat, "actions_lost");
        const char *key;
        json_t *value;
        void *tmp;
        json_object_foreach_safe(seat, tmp, key, value) {
            if (json_is_array(value) && json_array_size(value) == 0)
                json_object_del(seat, key);
        }
    }
    char *again = resaved(saved);
    cr_expect_str_eq(again, canonical);
    free(again);

    /* and when given, they must agree */
    json_object_set_new(saved, "seats", json_integer(4));
    json_object_set_new(saved, "bank", json_integer(s->bank));
    json_t *pool = json_array();
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] == AS_POOL)
            json_array_append_new(pool,
                                  json_string(as_data.assistants[a].name));
    }
    json_object_set_new(saved, "pool", pool);
    again = resaved(saved);
    cr_expect_str_eq(again, canonical);
    free(again);
    json_object_set_new(saved, "seats", json_integer(3));
    refused(saved, "seats: 3, but players lists 4 (or leave seats out)");
    free(canonical);
    json_decref(saved);
    as_engine.destroy((rules_state *)s);
}

/* ---- a referee's mistakes, each named by field and value ---------------- */

static void append(json_t *position, size_t seat, const char *list,
                   const char *card)
{
    json_array_append_new(json_object_get(player(position, seat), list),
                          json_string(card));
}

Test(as_position, an_unknown_card_is_named_with_its_field)
{
    json_t *position = example(WORKED);
    append(position, 1, "cards", "coins10");
    refused(position, "players[1].cards[2]: there is no card \"coins10\"");
    json_decref(position);
}

Test(as_position, a_card_in_two_places_names_both)
{
    json_t *position = example(WORKED);
    append(position, 1, "cards", "weapons5");
    refused(position, "players[1].cards[2]: weapons5 is in two places (also "
                      "at temple.0.3.0)");
    json_decref(position);
}

Test(as_position, a_missing_card_is_named)
{
    json_t *position = example(WORKED);
    json_object_del(json_object_get(position, "temple"), "1.0.0");
    refused(position, "coins9 is nowhere: each card of the stacks in play is "
                      "in the temple, the stock, removed, the box, or a "
                      "player's cards, sets or face_down");
    json_decref(position);
}

Test(as_position, a_bad_task_name_lists_the_tasks)
{
    json_t *position = example(WORKED);
    json_object_set_new(position, "task", json_pack("{s:s}", "kind", "keep"));
    refused(position, "task.kind: there is no task \"keep\" (none, treasure, "
                      "steal, recruit, give, discard)");
    json_decref(position);
}

Test(as_position, a_treasure_task_names_a_treasure_of_the_seat_on_turn)
{
    json_t *position = example(WORKED);
    json_object_set_new(position, "task",
                        json_pack("{s:s,s:s}", "kind", "treasure", "card",
                                  "treasures8"));
    refused(position, "task.card: treasures8 is not a treasure face up in the "
                      "cards of seat 1, on turn");
    json_decref(position);
}

Test(as_position, a_bad_place_explains_the_places)
{
    json_t *position = example(WORKED);
    json_t *temple = json_object_get(position, "temple");
    json_object_del(temple, "1.0.0");
    json_object_set_new(temple, "0.5.0", json_string("coins9"));
    refused(position, "temple: there is no place \"0.5.0\" (layer.column.row; "
                      "layer 0 is 5x3, 1 is 4x2, 2 is 3x1)");
    json_decref(position);
}

Test(as_position, the_old_slot_list_is_refused_by_name)
{
    json_t *position = example(WORKED);
    json_object_set_new(position, "temple", json_pack("[n,s]", "coins9"));
    refused(position, "temple: [null,\"coins9\"] is not an object of places "
                      "like {\"0.3.1\": \"coins4\"}");
    json_decref(position);
}

Test(as_position, a_misspelt_field_is_not_ignored)
{
    json_t *position = example(WORKED);
    json_object_set_new(player(position, 0), "flipped", json_array());
    refused(position, "players[0]: there is no field \"flipped\" (silver, "
                      "actions_lost, cards, sets, face_down, assistants, "
                      "used, peeked)");
    json_decref(position);
}

Test(as_position, silver_from_nowhere_is_refused)
{
    json_t *position = example(WORKED);
    json_object_set_new(position, "bank", json_integer(99));
    refused(position, "bank: 99 silver, but the 40 silver less the players' 4 "
                      "leaves 36 (or leave bank out)");
    json_object_set_new(position, "bank", json_string("36"));
    refused(position, "bank: \"36\" is not a whole number from 0 to 1000000");
    json_object_set_new(position, "bank", json_integer(36));
    rules_state *state = load_ok(position);
    as_engine.destroy(state);
    json_object_set_new(player(position, 0), "silver", json_integer(39));
    json_object_set_new(player(position, 1), "silver", json_integer(2));
    json_object_del(position, "bank");
    refused(position, "players: they hold 41 silver, more than the 40 in the "
                      "game");
    json_decref(position);
}

Test(as_position, a_card_of_a_stack_not_in_play_is_refused)
{
    json_t *position = example(WORKED);
    append(position, 0, "face_down", "curses3");
    refused(position, "players[0].face_down[0]: curses3, but curses are not "
                      "in this match's stacks");
    json_decref(position);
}

Test(as_position, the_stock_keeps_the_28_cards_of_round_2)
{
    json_t *position = example(WORKED);
    json_t *stock = json_object_get(position, "stock");
    json_t *last = json_incref(json_array_get(stock, 27));
    json_array_remove(stock, 27);
    json_array_append_new(json_object_get(position, "box"), last);
    refused(position, "stock: 27 cards, but in round 1 it holds the 28 of "
                      "round 2, in deal order");
    json_decref(position);
}

Test(as_position, sets_and_peeks_are_checked_by_name)
{
    json_t *position = example(WORKED);
    json_t *temple = json_object_get(position, "temple");
    json_object_del(temple, "1.2.1");   /* china1, an A */
    json_object_del(temple, "0.4.2");   /* china8, a B */
    json_object_set_new(player(position, 1), "sets",
                        json_pack("[[s,s]]", "china8", "china1"));
    refused(position, "players[1].sets[0]: a China set is 2 or 3 of one "
                      "letter or one each of A, B and C, not B+A");
    json_object_set_new(player(position, 1), "sets",
                        json_pack("[[s,s]]", "china8", "weapons1"));
    refused(position, "players[1].sets[0][1]: weapons1 is in two places "
                      "(also at players[1].cards[0])");
    json_decref(position);

    position = example(WORKED);
    append(position, 0, "peeked", "weapons5"); /* face up at 0.3.0 */
    refused(position, "players[0].peeked[0]: weapons5 is not a face-down card "
                      "in the temple");
    json_decref(position);
}

Test(as_position, a_curse_lies_face_down_once_taken)
{
    as_state *s = fx_new(2, "curses,treasures,weapons,statues,china,coins");
    json_t *position = as_engine.save((rules_state *)s);
    json_t *temple = json_object_get(position, "temple");
    const char *at;
    json_t *card;
    const char *curse = NULL;
    json_object_foreach(temple, at, card) {
        if (strncmp(json_string_value(card), "curses", 6) == 0 &&
            json_string_value(card)[6] < '7') {
            curse = json_string_value(card);
            break;
        }
    }
    cr_assert_not_null(curse, "no face-up curse in the temple");
    char name[16], sentence[160];
    snprintf(name, sizeof name, "%s", curse);
    json_object_del(temple, at);
    append(position, 0, "cards", name);
    snprintf(sentence, sizeof sentence, "players[0].cards[0]: %s was resolved "
             "when taken and lies face down: move it to face_down", name);
    refused(position, sentence);
    json_decref(position);
    as_engine.destroy((rules_state *)s);
}

/* ---- the README's worked example and the rulebook examples -------------- */

static int score_of(const rules_state *state, size_t seat, const char *key)
{
    json_t *result = as_engine.result(state);
    json_t *detail = json_array_get(json_object_get(result, "detail"), seat);
    /* the total beside the points, the points by their parts */
    json_t *from = strcmp(key, "total") == 0
                       ? detail
                       : json_object_get(detail, "points");
    int v = (int)json_integer_value(json_object_get(from, key));
    json_decref(result);
    return v;
}

/* README.md, "Worked example: does a stolen treasure keep its points?" */
Test(as_position, worked_example_a_stolen_treasure_keeps_its_points)
{
    json_t *position = example(WORKED);
    rules_state *state = load_ok(position);
    cr_expect_eq(score_of(state, 0, "total"), 7, "the treasure 5 + 2 silver");
    cr_expect_eq(score_of(state, 1, "total"), 7,
                 "2 weapons + 2 silver + 3 for the most stars");
    harness_apply_text(&as_engine, state, 1, "flip weapons 1 2");
    harness_apply_text(&as_engine, state, 1, "steal treasures8");
    const as_state *s = (const as_state *)state;
    cr_expect_eq(s->owner[as_card_by_name("treasures8")], 1);
    cr_expect_eq(score_of(state, 1, "cards"), 2, "the 2 weapons");
    cr_expect_eq(score_of(state, 1, "treasures"), 5, "it keeps its 5 VP");
    cr_expect_eq(score_of(state, 0, "total"), 2);
    cr_expect_eq(score_of(state, 1, "total"), 12);
    cr_expect_eq(s->turn, 1, "seat 1 still has its action");
    cr_expect_eq(s->actions, 1);
    char *text = as_engine.view_text(state, 0);
    cr_expect_not_null(strstr(text, "\nseat 1: 2 silver, 2 stars, 12 points "
                                    "so far.\nseat 1 cards: treasures8 (5 "
                                    "VP); face down: weapons1+weapons2\n"),
                       "README.md shows this text:\n%s", text);
    free(text);
    as_engine.destroy(state);
    json_decref(position);
}

Test(as_position, every_example_is_written_in_the_canonical_form)
{
    DIR *dir = opendir(EXAMPLES);
    cr_assert_not_null(dir, "run from the repository root");
    int files = 0;
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), e->d_name);
        json_t *position = example(name);
        char *written = rules_sorted_json(position);
        char *again = resaved(position);
        cr_expect_str_eq(again, written, "%s is not as save writes it", name);
        free(again);
        free(written);
        json_decref(position);
        files++;
    }
    closedir(dir);
    cr_expect_geq(files, 6);
}
