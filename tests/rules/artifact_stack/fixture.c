/* fixture.c: see fixture.h. */
#include "fixture.h"

#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"

as_state *fx_new(int seats, const char *stacks)
{
    uint8_t seed[RULES_SEED_BYTES] = {7};
    json_t *options = json_pack("{s:s}", "stacks", stacks);
    rules_error err = {{0}};
    rules_state *state = as_engine.setup(options, seats, seed, &err);
    json_decref(options);
    cr_assert_not_null(state, "setup: %s", err.message);
    as_state *s = (as_state *)state;
    s->first = 0;
    s->turn = 0;
    return s;
}

static int card_of(const char *name)
{
    int card = as_card_by_name(name);
    cr_assert_neq(card, AS_NO_CARD, "no card %s", name);
    return card;
}

static int slot_of(const char *at)
{
    int slot = as_slot_parse(at);
    cr_assert_geq(slot, 0, "no slot %s", at);
    return slot;
}

/* Swaps two cards' places (temple slot, stock entry, place, owner). */
static void swap_cards(as_state *s, int a, int b)
{
    for (int i = 0; i < AS_TEMPLE; i++) {
        if (s->temple[i] == a)
            s->temple[i] = b;
        else if (s->temple[i] == b)
            s->temple[i] = a;
    }
    for (int i = 0; i < s->stock_count; i++) {
        if (s->stock[i] == a)
            s->stock[i] = b;
        else if (s->stock[i] == b)
            s->stock[i] = a;
    }
    int8_t place = s->place[a], owner = s->owner[a];
    bool flipped = s->flipped[a];
    s->place[a] = s->place[b];
    s->owner[a] = s->owner[b];
    s->flipped[a] = s->flipped[b];
    s->place[b] = place;
    s->owner[b] = owner;
    s->flipped[b] = flipped;
}

void fx_give(as_state *s, int seat, const char *name)
{
    int card = card_of(name);
    if (s->place[card] == AS_STOCK) {
        /* trade places with any temple card so the stock keeps its size */
        for (int i = 0; i < AS_TEMPLE; i++) {
            if (s->temple[i] != AS_NO_CARD) {
                swap_cards(s, card, s->temple[i]);
                break;
            }
        }
    }
    for (int i = 0; i < AS_TEMPLE; i++) {
        if (s->temple[i] == card)
            s->temple[i] = AS_NO_CARD;
    }
    for (int p = 0; p < RULES_MAX_SEATS; p++)
        s->peeked[p][card] = false;
    s->place[card] = AS_TABLEAU;
    s->owner[card] = (int8_t)seat;
    s->flipped[card] = as_card_stack(card) == AS_CURSES;
}

void fx_place(as_state *s, const char *at, const char *name)
{
    int card = card_of(name);
    int slot = slot_of(at);
    int there = s->temple[slot];
    if (there == card)
        return;
    if (there != AS_NO_CARD) {
        swap_cards(s, card, there);
        return;
    }
    if (s->place[card] == AS_STOCK) {
        /* into the temple first, so the stock keeps its size */
        for (int i = 0; i < AS_TEMPLE; i++) {
            if (s->temple[i] != AS_NO_CARD) {
                swap_cards(s, card, s->temple[i]);
                break;
            }
        }
    }
    cr_assert(s->place[card] == AS_IN_TEMPLE || s->place[card] == AS_BOX,
              "fx_place: %s must be in the temple or the box", name);
    for (int i = 0; i < AS_TEMPLE; i++) {
        if (s->temple[i] == card)
            s->temple[i] = AS_NO_CARD;
    }
    s->temple[slot] = card;
    s->place[card] = AS_IN_TEMPLE;
    s->owner[card] = -1;
}

void fx_keep_only(as_state *s, const char *const *positions)
{
    for (int i = 0; i < AS_TEMPLE; i++) {
        bool keep = false;
        for (const char *const *p = positions; *p != NULL; p++)
            keep = keep || slot_of(*p) == i;
        if (keep || s->temple[i] == AS_NO_CARD)
            continue;
        s->place[s->temple[i]] = AS_BOX;
        s->temple[i] = AS_NO_CARD;
    }
}

const char *fx_at(const as_state *s, const char *at)
{
    int card = s->temple[slot_of(at)];
    return card == AS_NO_CARD ? NULL : as_card_name(card);
}

void fx_check(const as_state *s)
{
    rules_error err = {{0}};
    cr_assert(as_engine.check((const rules_state *)s, &err), "check: %s",
              err.message);
}

void fx_do(as_state *s, int seat, const char *text)
{
    fx_check(s);
    harness_apply_text(&as_engine, (rules_state *)s, seat, text);
}

void fx_reject(as_state *s, int seat, const char *text, const char *words)
{
    harness_reject_text(&as_engine, (rules_state *)s, seat, text, words);
}

as_state *fx_small_table(void)
{
    static const char *const top_and_one_below[] = {"2.0.0", "2.1.0", "2.2.0",
                                                    "1.1.0", NULL};
    as_state *s = fx_new(2, "statues,coins,weapons,relics,china,treasures");
    fx_give(s, 0, "weapons1");
    fx_give(s, 0, "weapons2");
    fx_give(s, 1, "relics4");
    fx_give(s, 1, "china1");
    fx_place(s, "2.0.0", "coins4");
    fx_place(s, "2.1.0", "china8");
    fx_place(s, "2.2.0", "treasures3");
    fx_place(s, "1.1.0", "statues5");
    fx_keep_only(s, top_and_one_below);
    return s;
}
