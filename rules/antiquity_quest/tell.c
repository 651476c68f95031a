/* tell.c: what a move did, told to one seat (rules_engine.tell).
 *
 * Cards drawn are named to the drawer only; what is played, picked up
 * from the discard pile or discarded lies face up and is told to all, with
 * what a collection is now worth. A sealed choice of final plays is told
 * to the others once all have chosen. A round's end says its scores:
 * "Round 1 scored: Alice 1250, Bob -300." */
#include "aq_internal.h"
#include "tell_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct story {
    tell_text out;
    const char *const *names;
    int viewer;
} story;

static const char *who(const story *t, int seat)
{
    return tell_text_who(seat, t->viewer, t->names, true);
}

/* " red2 red3 crown": the names of cards. */
static void say_cards(story *t, const uint8_t *cards, int count)
{
    for (int k = 0; k < count; k++)
        tell_text_add(&t->out, " %s",
                      aq_name_text(aq_card_info(cards[k]).name));
}

/* The cards of after's pile not in before's. */
static int cards_gained(const aq_pile *before, const aq_pile *after,
                        uint8_t *out)
{
    int n = 0;
    for (int i = 0; i < after->count; i++) {
        if (aq_pile_find(before, after->card[i]) == AQ_NONE)
            out[n++] = after->card[i];
    }
    return n;
}

/* "(standard red, complete, 500 points)" */
static void say_worth(story *t, const aq_collection *c)
{
    aq_shape shape = aq_shape_of(c->card, c->count);
    aq_grade grade = aq_shape_grade(&shape);
    if (!aq_shape_complete(&shape)) {
        tell_text_add(&t->out, " (%d cards, not complete yet)", c->count);
        return;
    }
    tell_text_add(&t->out, " (%s", aq_grade_text(grade));
    if (shape.suit >= 0)
        tell_text_add(&t->out, " %s", aq_suit_text(shape.suit));
    tell_text_add(&t->out, ", complete, %d points)", aq_shape_value(&shape));
}

/* The collection of after that before did not have, or NULL. */
static const aq_collection *new_collection(const aq_state *before,
                                           const aq_state *after)
{
    for (int i = 0; i < after->collections; i++) {
        if (aq_collection_find_const(before, after->coll[i].id) == NULL)
            return &after->coll[i];
    }
    return NULL;
}

static void tell_draw(story *t, const aq_state *before, const aq_state *after,
                      int actor, const char *what)
{
    uint8_t drawn[AQ_CARDS];
    int n = cards_gained(&before->hand[actor], &after->hand[actor], drawn);
    if (after->round != before->round || after->phase == AQ_PHASE_OVER) {
        tell_text_add(&t->out,
                      "%s could not draw 2 cards: the draw pile ran out.",
                      who(t, actor));
        return;
    }
    tell_text_add(&t->out, "%s%s drew", who(t, actor), what);
    if (actor == t->viewer) {
        say_cards(t, drawn, n);
        tell_text_add(&t->out, ".");
    } else {
        tell_text_add(&t->out, " %d cards.", n);
    }
}

static void tell_collection(story *t, const aq_state *before,
                            const aq_state *after, int actor,
                            const aq_action *a)
{
    if (a->type == AQ_ACT_ADD) {
        const aq_collection *c = aq_collection_find_const(after, a->target);
        tell_text_add(&t->out, "%s added", who(t, actor));
        for (int k = 0; k < a->names; k++)
            tell_text_add(&t->out, " %s", aq_name_text(a->name[k]));
        tell_text_add(&t->out, " to collection %d", a->target);
        if (c != NULL)
            say_worth(t, c);
        tell_text_add(&t->out, ".");
        return;
    }
    const aq_collection *c = new_collection(before, after);
    if (c == NULL)
        return;
    if (a->type == AQ_ACT_PICKUP)
        tell_text_add(&t->out,
                      "%s picked up the discard pile (%d cards), starting",
                      who(t, actor), before->discard.count);
    else
        tell_text_add(&t->out, "%s started", who(t, actor));
    tell_text_add(&t->out, " collection %d:", c->id);
    say_cards(t, c->card, c->count);
    say_worth(t, c);
    tell_text_add(&t->out, ".");
}

static void tell_discard(story *t, const aq_state *before, int actor,
                         const aq_action *a)
{
    if (a->name[0] == AQ_NAME_TESS)
        tell_text_add(&t->out,
                      "%s discarded Tess, who took the discard pile (%d cards) "
                      "away.",
                      who(t, actor), before->discard.count);
    else
        tell_text_add(&t->out, "%s discarded %s.", who(t, actor),
                      aq_name_text(a->name[0]));
}

static void tell_lost(story *t, const aq_state *before, int actor,
                      const aq_action *a)
{
    const aq_collection *c = aq_collection_find_const(before, a->target);
    tell_text_add(&t->out, "%s played Tess: collection %d", who(t, actor),
                  a->target);
    if (c != NULL)
        say_cards(t, c->card, c->count);
    tell_text_add(&t->out, " was lost to the character pile.");
}

/* Sealed final plays: the maker reads them, the others that a choice was
 * made, until the last one resolves them all. */
static void tell_final(story *t, const aq_state *before, const aq_state *after,
                       int actor, const aq_action *a)
{
    rules_pending pending;
    aq_pending(before, &pending);
    bool sealed = pending.wait == RULES_WAIT_SIMULTANEOUS;
    bool resolved =
        after->phase != AQ_PHASE_FINAL || after->round != before->round;
    int cards = 0;
    for (int p = 0; p < a->plays; p++)
        cards += a->play[p].count;
    if (sealed && !resolved) {
        if (actor == t->viewer)
            tell_text_add(
                &t->out,
                "You chose final plays of %d cards; they are made when "
                "all have chosen.",
                cards);
        else
            tell_text_add(&t->out, "%s chose final plays in secret.",
                          t->names[actor]);
        return;
    }
    if (sealed)
        tell_text_add(&t->out, "Every player's final plays were made.");
    else
        tell_text_add(&t->out, "%s made final plays of %d cards.",
                      who(t, actor), cards);
}

/* The going out, the cache taken up and the round's scores. */
static void tell_after(story *t, const aq_state *before, const aq_state *after,
                       int actor)
{
    int side = aq_side_of(before, actor);
    if (after->cache_taken[side] && !before->cache_taken[side] &&
        after->round == before->round)
        tell_text_add(&t->out, " %s took up the cache (%d cards).",
                      who(t, actor), before->cache[side].count);
    if (before->going_out == AQ_NONE && after->round == before->round &&
        after->going_out == actor)
        tell_text_add(&t->out, " %s went out.", who(t, actor));
    if (after->rounds_done == before->rounds_done)
        return;
    int r = before->round - 1;
    tell_text_add(&t->out, " Round %d scored:", before->round);
    for (int s = 0; s < before->sides; s++) {
        tell_text_add(&t->out, "%s", s > 0 ? "," : "");
        for (int seat = 0; seat < before->seats; seat++) {
            if (aq_side_of(before, seat) == s)
                tell_text_add(&t->out, "%s %s", seat == s ? "" : " and",
                              who(t, seat));
        }
        tell_text_add(&t->out, " %d", after->score[r][s].total);
    }
    tell_text_add(&t->out, ".");
    if (after->phase == AQ_PHASE_OVER)
        tell_text_add(&t->out, " The match is over.");
}

char *aq_tell(const rules_state *before_state, const rules_state *after_state,
              int actor, const json_t *action, int viewer,
              const char *const *names)
{
    const aq_state *before = aq_const_of(before_state);
    const aq_state *after = aq_const_of(after_state);
    aq_action a;
    if (!aq_action_decode(action, &a, NULL))
        return NULL;
    story t = {.names = names, .viewer = viewer};
    switch (a.type) {
    case AQ_ACT_DRAW:
        tell_draw(&t, before, after, actor, "");
        break;
    case AQ_ACT_REMINGTON:
        tell_draw(&t, before, after, actor, " played Remington and");
        break;
    case AQ_ACT_PICKUP:
    case AQ_ACT_PLAY:
    case AQ_ACT_ADD:
        tell_collection(&t, before, after, actor, &a);
        break;
    case AQ_ACT_REASSIGN:
        tell_text_add(
            &t.out, "%s played Remington: collections %d and %d changed sides.",
            who(&t, actor), a.target, a.take);
        break;
    case AQ_ACT_LOST_SHIPMENT:
        tell_lost(&t, before, actor, &a);
        break;
    case AQ_ACT_DISCARD:
        tell_discard(&t, before, actor, &a);
        break;
    case AQ_ACT_FINAL:
        tell_final(&t, before, after, actor, &a);
        break;
    }
    tell_after(&t, before, after, actor);
    return tell_text_done(&t.out);
}
