/* Many fast random matches through the engine (check() after every move,
 * text and snapshot round trips at every round's start), and the secrecy
 * walk: no view or view_text shows a card held in another seat's hand or
 * the draw pile. The harness
 * suite (test_random.c) runs its full checks on fewer matches, since a
 * random Another Man's Treasure match is thousands of moves long. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "support.h"

typedef void (*position_hook)(const amt_state *s);

static void round_trip(const amt_state *s)
{
    json_t *snap = amt_engine.save((const rules_state *)s);
    rules_error err = {{0}};
    rules_state *back = amt_engine.load(snap, &err);
    cr_assert_not_null(back, "load(save()) failed: %s", err.message);
    json_t *again = amt_engine.save(back);
    cr_assert(json_equal(snap, again), "load(save()) differs");
    json_decref(again);
    json_decref(snap);
    amt_engine.destroy(back);
}

static void play_match(int seats, const char *options, uint64_t n,
                       position_hook hook, long *moves_out)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(n, seed);
    json_t *opts = options != NULL ? json_loads(options, 0, NULL) : NULL;
    rules_error err = {{0}};
    rules_state *state = amt_engine.setup(opts, seats, seed, &err);
    json_decref(opts);
    cr_assert_not_null(state, "%s", err.message);
    amt_state *s = (amt_state *)state;
    int round = -1;
    long moves = 0;
    rules_rng rng; /* the moves chosen: the same on every run */
    harness_moves_rng(n, &rng);
    for (;;) {
        rules_pending p;
        amt_engine.pending(state, &p);
        if (p.wait == RULES_WAIT_NOBODY)
            break;
        cr_assert_lt(moves, 60000, "seed %llu: no end", (unsigned long long)n);
        if (s->round != round) {
            round = s->round;
            round_trip(s);
        }
        int candidates[RULES_MAX_SEATS], count = 0;
        for (int i = 0; i < seats; i++) {
            if (p.seats & (1u << i))
                candidates[count++] = i;
        }
        int seat = candidates[rules_rng_below(&rng, (uint32_t)count)];
        json_t *legal = amt_engine.legal(state, seat);
        json_t *list = json_object_get(legal, "moves");
        cr_assert_gt(json_array_size(list), 0);
        json_t *action = json_array_get(
            list, rules_rng_below(&rng, (uint32_t)json_array_size(list)));
        char *text = amt_engine.format_move(state, seat, action);
        json_t *parsed = amt_engine.parse_move(state, seat, text, &err);
        cr_assert(parsed != NULL && json_equal(parsed, action),
                  "\"%s\" does not round-trip", text);
        json_decref(parsed);
        free(text);
        cr_assert(amt_engine.apply(state, seat, action, &err),
                  "seed %llu move %ld rejected: %s", (unsigned long long)n,
                  moves, err.message);
        cr_assert(amt_engine.check(state, &err), "seed %llu move %ld: %s",
                  (unsigned long long)n, moves, err.message);
        json_decref(legal);
        if (hook != NULL)
            hook(s);
        moves++;
    }
    json_t *result = amt_engine.result(state);
    cr_assert(json_is_true(json_object_get(result, "over")));
    json_decref(result);
    *moves_out += moves;
    amt_engine.destroy(state);
}

static const char *const option_sets[] = {
    NULL, "{\"game\":\"progressive\"}",
    "{\"game\":\"progressive\",\"classic_end_of_round\":true}"};

Test(amt_many, many_random_matches_end_and_keep_every_invariant,
     .timeout = 400)
{
    cr_assert(sodium_init() >= 0);
    long moves = 0;
    int matches = 0;
    for (int o = 0; o < 3; o++) {
        for (int seats = 2; seats <= 6; seats++) {
            int count = (o == 0 ? 24 : 12) / AMT_TEST_SLOWDOWN *
                        harness_soak_factor();
            for (int i = 0; i < count; i++) {
                play_match(seats, option_sets[o],
                           7000000u + 10000u * (unsigned)o +
                               100u * (unsigned)seats + (unsigned)i,
                           NULL, &moves);
                matches++;
            }
        }
    }
    cr_log_info("%d matches, %ld moves", matches, moves);
}

/* Copies of a card are alike and views name cards, so secrecy is a
 * count: a view names each card exactly as often as the places that seat
 * may see hold it (the discard pile's top, the table, and for a seat its
 * own hand and sealed play). A card of another hand or of the draw pile
 * would raise a count. Counts are by the name's first id. */
static void count_card(const char *text, int counts[AMT_CARDS])
{
    int first, copies;
    char canonical[AMT_NAME_LEN];
    if (amt_card_named(text, &first, &copies) &&
        amt_name_canonical(text, canonical) && strcmp(text, canonical) == 0)
        counts[first]++;
}

static void count_ids(const int16_t *ids, int n, int counts[AMT_CARDS])
{
    for (int i = 0; i < n; i++) {
        char name[AMT_NAME_LEN];
        amt_card_name(ids[i], name);
        count_card(name, counts);
    }
}

/* Every string naming a card, but what a wild stands for ("as"). */
static void count_view(const json_t *v, const char *key, int counts[AMT_CARDS])
{
    if (json_is_string(v) && strcmp(key, "as") != 0) {
        count_card(json_string_value(v), counts);
    } else if (json_is_array(v)) {
        size_t i;
        const json_t *item;
        json_array_foreach(v, i, item)
            count_view(item, key, counts);
    } else if (json_is_object(v)) {
        const char *k;
        const json_t *item;
        json_object_foreach((json_t *)v, k, item)
            count_view(item, k, counts);
    }
}

/* The cards view seat v may see, counted. */
static void visible(const amt_state *s, int v, int counts[AMT_CARDS])
{
    memset(counts, 0, AMT_CARDS * sizeof counts[0]);
    if (s->discard_count > 0)
        count_ids(&s->discard[s->discard_count - 1], 1, counts);
    for (int m = 0; m < s->meld_count; m++)
        count_ids(s->melds[m].cards, s->melds[m].count, counts);
    if (v < 0)
        return;
    const amt_player *me = &s->players[v];
    count_ids(me->hand, me->hand_count, counts);
    if (me->end == AMT_END_PLAYED) {
        for (int m = 0; m < me->end_play.melds; m++)
            count_ids(me->end_play.cards[m], me->end_play.count[m], counts);
    }
}

/* The text names only cards the seat may see (each at least once more
 * there: the text may name the discard's top card twice). */
static void text_names_only(const char *text, const int allowed[AMT_CARDS],
                            int v)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%s", text);
    bool after_as = false;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \n,.;:()\"", &save); w != NULL;
         w = strtok_r(NULL, " \n,.;:()\"", &save)) {
        int counts[AMT_CARDS] = {0};
        if (!after_as)
            count_card(w, counts);
        /* Checked here, and asserted only when it fails: Criterion's
         * count of passed assertions (a locked add each) was four fifths
         * of this test's time over millions of them. */
        for (int c = 0; c < AMT_CARDS; c++)
            if (counts[c] > 0 && allowed[c] == 0)
                cr_assert_fail("view_text %d names %s, which it may not "
                               "see:\n%s",
                               v, w, text);
        after_as = strcmp(w, "as") == 0;
    }
}

static void no_leaks(const amt_state *s)
{
    for (int v = -1; v < s->seats; v++) {
        int allowed[AMT_CARDS], shown[AMT_CARDS] = {0};
        visible(s, v, allowed);
        json_t *view = amt_engine.view((const rules_state *)s, v);
        count_view(view, "", shown);
        for (int c = 0; c < AMT_CARDS; c++) {
            if (shown[c] == allowed[c])
                continue; /* as above: asserted only when it fails */
            char name[AMT_NAME_LEN];
            amt_card_name(c, name);
            cr_assert_fail("view %d names %s %d times, but it may see %d", v,
                           name, shown[c], allowed[c]);
        }
        /* a seat that has not sealed a play sees no sealed play */
        bool sealed = v >= 0 && s->players[v].end == AMT_END_PLAYED;
        cr_assert_eq(json_object_get(view, "my_end_play") != NULL, sealed,
                     "view %d", v);
        json_decref(view);
        char *text = amt_engine.view_text((const rules_state *)s, v);
        text_names_only(text, allowed, v);
        free(text);
    }
}

Test(amt_secrecy, no_view_shows_another_seats_hand_or_the_draw_pile,
     .timeout = 400)
{
    cr_assert(sodium_init() >= 0);
    long moves = 0;
    for (int o = 0; o < 3; o++) {
        for (int seats = 2; seats <= 6; seats += 2 * AMT_TEST_SLOWDOWN)
            play_match(seats, option_sets[o],
                       9000000u + 100u * (unsigned)o + (unsigned)seats,
                       no_leaks, &moves);
    }
}
