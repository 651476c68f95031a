/* Secrecy: walking random matches, no view but its holder's shows a card
 * in a hand (a partner's included), no view at all shows a cache before it
 * is picked up or the draw pile, and a side's civilization shows only in
 * its own seats' views until the round ends. Cards carry unique tokens
 * ("red2.4") in views and snapshots, so a search cannot be fooled by an
 * identical card in public. */
#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"
#include "fixture.h"

static bool shows(const char *view, int card)
{
    char quoted[20];
    snprintf(quoted, sizeof quoted, "\"%s\"", aq_card_token(card));
    return strstr(view, quoted) != NULL;
}

/* Counts the card names among the words of a text view (exactly as the
 * notation writes them: "Remington" in a sentence is no card). */
static void count_text_names(const char *text, int counts[AQ_NAMES])
{
    memset(counts, 0, sizeof(int) * AQ_NAMES);
    char word[32];
    size_t n = 0;
    for (const char *c = text;; c++) {
        bool letter = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                      (*c >= '0' && *c <= '9');
        if (letter && n < sizeof word - 1) {
            word[n++] = *c;
            continue;
        }
        word[n] = '\0';
        int name = n > 0 ? aq_name_parse(word) : AQ_NONE;
        if (name != AQ_NONE && strcmp(aq_name_text(name), word) == 0)
            counts[name]++;
        n = 0;
        if (*c == '\0')
            return;
    }
}

/* Counts the card names behind every token in a JSON view. */
static void count_view_names(const json_t *v, int counts[AQ_NAMES])
{
    if (json_is_string(v)) {
        int id = aq_token_parse(json_string_value(v));
        if (id != AQ_NONE)
            counts[aq_card_info(id).name]++;
    } else if (json_is_array(v)) {
        size_t i;
        const json_t *item;
        json_array_foreach(v, i, item)
            count_view_names(item, counts);
    } else if (json_is_object(v)) {
        const char *key;
        const json_t *item;
        json_object_foreach((json_t *)v, key, item)
            count_view_names(item, counts);
    }
}

/* The text view names no card more often than the JSON view of the same
 * seat holds it: it shows nothing view() hides. */
static void check_text_within_view(const aq_state *s, int viewer)
{
    char *text = aq_engine.view_text((const rules_state *)s, viewer);
    json_t *view = aq_engine.view((const rules_state *)s, viewer);
    int in_text[AQ_NAMES];
    int in_view[AQ_NAMES] = {0};
    count_text_names(text, in_text);
    count_view_names(view, in_view);
    for (int name = 0; name < AQ_NAMES; name++)
        cr_assert(in_text[name] <= in_view[name],
                  "view_text(%d) names %s %d times, its view %d times:\n%s",
                  viewer, aq_name_text(name), in_text[name], in_view[name],
                  text);
    json_decref(view);
    free(text);
}

static void check_views(const rules_engine *engine, const rules_state *state,
                        int seat, const json_t *action)
{
    (void)engine;
    (void)seat;
    (void)action;
    const aq_state *s = (const aq_state *)state;
    char *views[RULES_MAX_SEATS + 1];
    for (int v = -1; v < s->seats; v++)
        views[v + 1] = fx_view_json(s, v);
    for (int v = -1; v < s->seats; v++) {
        const char *text = views[v + 1];
        for (int holder = 0; holder < s->seats; holder++) {
            if (holder == v)
                continue;
            for (int k = 0; k < s->hand[holder].count; k++)
                cr_assert(!shows(text, s->hand[holder].card[k]),
                          "view %d shows a card of seat %d's hand", v, holder);
        }
        for (int side = 0; side < s->sides; side++) {
            for (int k = 0; k < s->cache[side].count; k++)
                cr_assert(!shows(text, s->cache[side].card[k]),
                          "view %d shows a cached card", v);
        }
        for (int k = 0; k < s->draw.count; k++)
            cr_assert(!shows(text, s->draw.card[k]),
                      "view %d shows a card of the draw pile", v);
        if (s->phase == AQ_PHASE_OVER)
            continue;
        json_t *view = json_loads(text, 0, NULL);
        json_t *sides = json_object_get(view, "sides");
        for (int side = 0; side < s->sides; side++) {
            bool own = v >= 0 && aq_side_of(s, v) == side;
            bool shown = json_object_get(json_array_get(sides, (size_t)side),
                                         "civilization") != NULL;
            cr_assert(!shown || own,
                      "view %d shows side %d's civilization", v, side);
            if (s->opt.civilization_bonus && own)
                cr_assert(shown, "seat %d does not see its civilization", v);
        }
        json_decref(view);
    }
    for (int v = -1; v < s->seats; v++) {
        free(views[v + 1]);
        check_text_within_view(s, v);
    }
}

static void walk(const char *options, int seats, int matches, uint64_t seed)
{
    harness_config cfg = {.engine = &aq_engine, .options_json = options,
                          .seats = seats, .matches = matches,
                          .max_moves = 20000, .first_seed = seed,
                          .after_move = check_views};
    harness_random_play(&cfg, NULL);
}

Test(aq_secrecy, hands_caches_and_draw_pile_stay_hidden, .timeout = 300)
{
    walk(NULL, 3, 4, 11);
    walk("{\"civilization_bonus\": true, \"revoked_visas\": true}", 4, 4, 22);
}

Test(aq_secrecy, partners_do_not_see_each_others_hands, .timeout = 300)
{
    walk("{\"pairs\": true, \"civilization_bonus\": true, "
         "\"revoked_visas\": true}", 6, 3, 33);
}

/* A sealed final play is visible to its maker and to nobody else. */
Test(aq_secrecy, sealed_final_plays)
{
    aq_state *s = fx_new(3, "{\"revoked_visas\": true}", AQ_PHASE_PLAY);
    for (int i = 0; i < 4; i++)
        fx_collection(s, 0, i % 2 ? "red1 red2 red3 red4 red5"
                                  : "blue1 blue2 blue3 blue4 blue5");
    int last = fx_collection(s, 0, "green1 green2 green3 green4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "green5");
    fx_hand(s, 1, "yellow1 yellow2 yellow3 crown");
    fx_hand(s, 2, "orange1 orange2");
    char text[32];
    snprintf(text, sizeof text, "add %d green5", last);
    harness_apply_text(&aq_engine, (rules_state *)s, 0, text);
    rules_pending p;
    aq_engine.pending((rules_state *)s, &p);
    cr_assert_eq(p.wait, RULES_WAIT_SIMULTANEOUS);
    cr_assert_eq(p.seats, 6u);
    cr_assert_str_eq(p.decision, "r1-final-plays");
    harness_apply_text(&aq_engine, (rules_state *)s, 1,
                       "final play yellow1 yellow2 yellow3");
    cr_assert_eq(s->collections, 5, "sealed: nothing is played yet");
    char *mine = fx_view_json(s, 1);
    char *theirs = fx_view_json(s, 2);
    char *public = fx_view_json(s, -1);
    cr_expect_not_null(strstr(mine, "final_plays"));
    cr_expect_null(strstr(theirs, "final_plays"));
    cr_expect_null(strstr(public, "final_plays"));
    free(mine);
    free(theirs);
    free(public);
    harness_reject_text(&aq_engine, (rules_state *)s, 1, "final",
                        "already made");
    harness_apply_text(&aq_engine, (rules_state *)s, 2, "final");
    cr_assert_eq(s->phase, AQ_PHASE_OVER);
    cr_assert_eq(s->collections, 6);
    cr_expect_eq(s->score[0][1].played, 75);
    cr_expect_eq(s->score[0][1].unplayed, -50);
    cr_expect_eq(s->score[0][2].unplayed, -50);
    aq_engine.destroy((rules_state *)s);
}

/* General ruling: the discard pile may be reviewed on your turn only;
 * everyone sees its top card. */
Test(aq_secrecy, discard_pile_is_reviewed_on_your_turn_only)
{
    aq_state *s = fx_new(3, NULL, AQ_PHASE_DRAW);
    fx_discard(s, "red1 crown green4");
    fx_hand(s, 0, "blue1");
    char *mine = fx_view_json(s, 0);
    char *other = fx_view_json(s, 1);
    char *public = fx_view_json(s, -1);
    int below = s->discard.card[1];
    cr_expect(shows(mine, below));
    cr_expect(!shows(other, below));
    cr_expect(!shows(public, below));
    cr_expect(shows(public, s->discard.card[2]), "the top card is public");
    free(mine);
    free(other);
    free(public);
    aq_engine.destroy((rules_state *)s);
}

/* Revoked visas in pairs: "players take turns" making their final plays,
 * and "you may review the cards in the discard pile at any time on your
 * turn", so the seat on turn sees the whole pile and nobody else does. */
Test(aq_secrecy, discard_pile_is_reviewed_on_a_final_turn_in_pairs)
{
    aq_state *s = fx_new(4, "{\"pairs\": true, \"revoked_visas\": true}",
                         AQ_PHASE_PLAY);
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "red1 red2 red3 red4 red5");
    fx_collection(s, 0, "crown chalice scepter mask amulet");
    int last = fx_collection(s, 0, "blue1 blue2 blue3 blue4");
    fx_cache_taken(s, 0);
    fx_hand(s, 0, "blue5");
    fx_hand(s, 1, "yellow1 yellow2 yellow3");
    fx_hand(s, 2, "green1");
    fx_hand(s, 3, "orange1");
    fx_discard(s, "purple1 crown purple4");
    char text[32];
    snprintf(text, sizeof text, "add %d blue5", last);
    harness_apply_text(&aq_engine, (rules_state *)s, 0, text);
    cr_assert_eq(s->phase, AQ_PHASE_FINAL);
    cr_assert_eq(s->turn, 1, "seat 1 takes the first final turn");
    int below = s->discard.card[1];
    char *mine = fx_view_json(s, 1);
    char *other = fx_view_json(s, 2);
    cr_expect(shows(mine, below), "the seat on its final turn reviews the "
                                  "discard pile");
    cr_expect(!shows(other, below));
    free(mine);
    free(other);
    aq_engine.destroy((rules_state *)s);
}

/* The draw phase lists every legal move: the draw and each pickup. */
Test(aq_legal, draw_phase_lists_draw_and_every_pickup)
{
    aq_state *s = fx_new(2, NULL, AQ_PHASE_DRAW);
    fx_collection(s, 0, "blue1 blue2 blue3");
    fx_discard(s, "green4");
    fx_hand(s, 0, "green1 green1 greenW crown");
    json_t *legal = aq_engine.legal((rules_state *)s, 0);
    cr_expect(json_is_true(json_object_get(legal, "complete")));
    /* draw; pickups {1,1} {1,W} {1,1,W} */
    cr_expect_eq(json_array_size(json_object_get(legal, "moves")), 4);
    json_decref(legal);
    legal = aq_engine.legal((rules_state *)s, 1);
    cr_expect_eq(json_array_size(json_object_get(legal, "moves")), 0);
    json_decref(legal);
    aq_engine.destroy((rules_state *)s);
}
