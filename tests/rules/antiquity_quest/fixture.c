/* fixture.c: see fixture.h. */
#include "fixture.h"

#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "antiquity_quest/antiquity_quest.h"

aq_state *fx_new(int seats, const char *options, aq_phase phase)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(42, seed);
    json_t *opts = options ? json_loads(options, 0, NULL) : NULL;
    rules_error err = {{0}};
    aq_state *s = (aq_state *)aq_engine.setup(opts, seats, seed, &err);
    json_decref(opts);
    cr_assert_not_null(s, "setup: %s", err.message);
    for (int seat = 0; seat < s->seats; seat++) {
        while (s->hand[seat].count > 0)
            aq_pile_push(&s->draw, aq_pile_pop(&s->hand[seat]));
    }
    for (int side = 0; side < s->sides; side++) {
        while (s->cache[side].count > 0)
            aq_pile_push(&s->draw, aq_pile_pop(&s->cache[side]));
    }
    s->turn_no = 5;
    s->phase = phase;
    return s;
}

static int take_named(aq_state *s, const char *name)
{
    int n = aq_name_parse(name);
    cr_assert(n != AQ_NONE, "fixture: no card %s", name);
    for (int i = 0; i < s->draw.count; i++) {
        if (aq_card_info(s->draw.card[i]).name == n) {
            int id = s->draw.card[i];
            aq_pile_remove_at(&s->draw, i);
            return id;
        }
    }
    cr_assert_fail("fixture: no %s left in the draw pile", name);
    return AQ_NONE;
}

/* Calls place(s, where, id) for each name in names. */
static void each_name(aq_state *s, const char *names,
                      void (*place)(aq_state *, int, int), int where)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", names);
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        place(s, where, take_named(s, w));
}

static void to_hand(aq_state *s, int seat, int id)
{
    aq_pile_insert_sorted(&s->hand[seat], id);
}

static void to_cache(aq_state *s, int side, int id)
{
    aq_pile_insert_sorted(&s->cache[side], id);
}

static void to_discard(aq_state *s, int unused, int id)
{
    (void)unused;
    aq_pile_push(&s->discard, id);
}

static void to_collection(aq_state *s, int index, int id)
{
    aq_collection *c = &s->coll[index];
    c->card[c->count++] = (uint8_t)id;
    s->played_points[c->side] += aq_card_played_points(id);
}

void fx_hand(aq_state *s, int seat, const char *names)
{
    each_name(s, names, to_hand, seat);
}

void fx_cache(aq_state *s, int side, const char *names)
{
    each_name(s, names, to_cache, side);
}

void fx_discard(aq_state *s, const char *names)
{
    each_name(s, names, to_discard, 0);
}

int fx_collection(aq_state *s, int side, const char *names)
{
    aq_collection *c = &s->coll[s->collections];
    memset(c, 0, sizeof *c);
    c->id = s->next_id++;
    c->side = side;
    s->collections++;
    each_name(s, names, to_collection, s->collections - 1);
    if (s->started_turn[side] == AQ_NONE)
        s->started_turn[side] = 1;
    return c->id;
}

void fx_cache_taken(aq_state *s, int side)
{
    s->cache_taken[side] = true;
}

char *fx_view_json(const aq_state *s, int seat)
{
    json_t *view = aq_engine.view((const rules_state *)s, seat);
    char *text = rules_sorted_json(view);
    json_decref(view);
    return text;
}

json_t *fx_collection_view(const aq_state *s, int id)
{
    const aq_collection *c = aq_collection_find_const(s, id);
    cr_assert_not_null(c, "no collection %d", id);
    return aq_collection_json(c);
}
