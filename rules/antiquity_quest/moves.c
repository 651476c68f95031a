/* moves.c: judging a move against the rules (aq_move_check, which never
 * changes the state) and carrying it out (aq_move_apply). Rulebook
 * sections: "On your turn", "The discard pile", "Collections", "Adding to
 * other players' collections", "Additional character abilities". The
 * revoked-visas final plays are in final.c. */
#include "aq_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared checks ------------------------------------------------------ */

static bool holds_kind(const aq_pile *hand, aq_kind kind)
{
    for (int i = 0; i < hand->count; i++) {
        if (aq_card_info(hand->card[i]).kind == kind)
            return true;
    }
    return false;
}

/* The one card of hand left when ids are taken out (hand has one more
 * card than ids), or AQ_NONE. */
static int card_left(const aq_pile *hand, const uint8_t *ids, int n)
{
    for (int i = 0; i < hand->count; i++) {
        bool taken = false;
        for (int k = 0; k < n; k++)
            taken = taken || hand->card[i] == ids[k];
        if (!taken)
            return hand->card[i];
    }
    return AQ_NONE;
}

/* Whether card, the one card a move leaves in hand, completes the side's
 * last needed collection when added to one of its 4-card collections
 * (rulebook: the last card may be played "if, by playing your last card,
 * you complete your 5th collection"). changed is the side's collection the
 * move starts or adds to, as it will be after the move (id 0 when new), or
 * NULL. */
static bool lone_card_completes(const aq_state *s, int side,
                                int completed_after,
                                const aq_collection *changed, int card)
{
    uint8_t id = (uint8_t)card;
    if (completed_after != aq_needed(s) - 1)
        return false;
    if (changed != NULL && changed->count == 4 &&
        aq_add_ok(changed, &id, 1, NULL))
        return true;
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        if (c->side == side && c->count == 4 &&
            (changed == NULL || c->id != changed->id) &&
            aq_add_ok(c, &id, 1, NULL))
            return true;
    }
    return false;
}

/* The side's collection base (NULL: a new one) with ids added, into out. */
static void collection_after(aq_collection *out, const aq_collection *base,
                             int side, const uint8_t *ids, int n)
{
    memset(out, 0, sizeof *out);
    if (base != NULL)
        *out = *base;
    out->side = side;
    for (int k = 0; k < n && out->count < AQ_COLLECTION_CARDS; k++)
        out->card[out->count++] = ids[k];
}

/* The last-cache-card rule (rulebook "Note" under Phase 3): once the cache
 * is picked up, the hand may only be emptied with five completed
 * collections (seven in pairs). RULING: for the same reason a play may not
 * leave a single card other than Remington while fewer are completed, as
 * it could then neither be played nor discarded; unless, as the rulebook
 * allows, playing that card completes the last needed collection.
 * changed: see lone_card_completes. */
static bool last_card_ok(const aq_state *s, int seat, int hand_after,
                         int completed_after, int last_card,
                         const aq_collection *changed, rules_error *err)
{
    int side = aq_side_of(s, seat);
    int need = aq_needed(s);
    if (!s->cache_taken[side] || completed_after >= need)
        return true;
    if (hand_after == 0)
        return rules_fail(err, "the last card from your cache can only be "
                               "played once you have completed %d "
                               "collections", need);
    if (hand_after == 1 && s->phase != AQ_PHASE_FINAL &&
        aq_card_info(last_card).kind != AQ_REMINGTON &&
        !lone_card_completes(s, side, completed_after, changed, last_card))
        return rules_fail(err, "you may not keep a single last card before "
                               "completing %d collections, since it could "
                               "then neither be played nor discarded", need);
    return true;
}

/* Whether cards may be added to coll (rulebook "Adding to your
 * collections"). */
/* A completed Standard or Perfect collection takes no more cards. */
static bool shape_closed(const aq_shape *shape)
{
    return aq_shape_complete(shape) && aq_shape_grade(shape) != AQ_GRADE_MIXED;
}

bool aq_collection_closed(const aq_collection *coll)
{
    aq_shape shape = aq_shape_of(coll->card, coll->count);
    return shape_closed(&shape);
}

bool aq_add_ok(const aq_collection *coll, const uint8_t *ids, int n,
                   rules_error *err)
{
    aq_shape before = aq_shape_of(coll->card, coll->count);
    if (shape_closed(&before))
        return rules_fail(err, "collection %d is a completed %s collection "
                               "and takes no more cards", coll->id,
                          aq_grade_text(aq_shape_grade(&before)));
    uint8_t all[AQ_CARDS];
    memcpy(all, coll->card, (size_t)coll->count);
    memcpy(all + coll->count, ids, (size_t)n);
    aq_shape after = aq_shape_of(all, coll->count + n);
    if (before.antiquities == 0 && after.antiquities > 0)
        return rules_fail(err, "antiquities may not be added to a Treasure "
                               "collection");
    if (after.size > AQ_COLLECTION_CARDS)
        return rules_fail(err, "a collection holds at most %d cards",
                          AQ_COLLECTION_CARDS);
    return aq_shape_valid(&after, err);
}

static bool started(const aq_state *s, int side)
{
    return s->started_turn[side] != AQ_NONE;
}

/* ---- per-move checks ----------------------------------------------------- */

static bool check_pickup(const aq_state *s, int seat, const aq_action *a,
                         rules_error *err)
{
    int side = aq_side_of(s, seat);
    if (!started(s, side) || s->started_turn[side] >= s->turn_no)
        return rules_fail(err, "you may only pick up the discard pile after "
                               "starting a collection on an earlier turn");
    if (s->discard.count == 0)
        return rules_fail(err, "the discard pile is empty");
    aq_card top = aq_card_info(s->discard.card[s->discard.count - 1]);
    if (a->names < 2 || a->names > 4)
        return rules_fail(err, "to pick up the discard pile reveal 2 to 4 "
                               "cards of the top card's civilization");
    for (int i = 0; i < a->names; i++) {
        aq_card c = aq_card_info(aq_name_first_id(a->name[i]));
        if (c.kind == AQ_TREASURE)
            return rules_fail(err, "you may not use a treasure card to pick "
                                   "up the discard pile");
        if (c.kind != AQ_ANTIQUITY || top.kind != AQ_ANTIQUITY ||
            c.suit != top.suit)
            return rules_fail(err, "to pick up the discard pile the revealed "
                                   "cards must be antiquities of the top "
                                   "card's civilization");
    }
    uint8_t ids[5];
    if (!aq_pile_pick(&s->hand[seat], a->name, a->names, ids, err))
        return false;
    int kept = s->hand[seat].count - a->names;
    int hand_after = kept + s->discard.count - 1;
    int completed = aq_completed_count(s, side) + (a->names + 1 >= 5);
    int last = kept == 1 ? card_left(&s->hand[seat], ids, a->names)
                         : s->discard.card[0];
    ids[a->names] = s->discard.card[s->discard.count - 1];
    aq_collection started_now;
    collection_after(&started_now, NULL, side, ids, a->names + 1);
    return last_card_ok(s, seat, hand_after, completed, last, &started_now,
                        err);
}

bool aq_new_collection_ok(const aq_state *s, const uint8_t *ids, int n,
                                 rules_error *err)
{
    aq_shape shape = aq_shape_of(ids, n);
    if (!aq_shape_valid(&shape, err))
        return false;
    if (n > AQ_COLLECTION_CARDS || s->collections >= AQ_MAX_COLLECTIONS)
        return rules_fail(err, "a collection holds at most %d cards",
                          AQ_COLLECTION_CARDS);
    return true;
}

static bool check_play(const aq_state *s, int seat, const aq_action *a,
                       rules_error *err)
{
    uint8_t ids[AQ_CARDS];
    if (!aq_pile_pick(&s->hand[seat], a->name, a->names, ids, err) ||
        !aq_new_collection_ok(s, ids, a->names, err))
        return false;
    aq_shape shape = aq_shape_of(ids, a->names);
    int side = aq_side_of(s, seat);
    int completed = aq_completed_count(s, side) + aq_shape_complete(&shape);
    aq_collection started_now;
    collection_after(&started_now, NULL, side, ids, a->names);
    return last_card_ok(s, seat, s->hand[seat].count - a->names, completed,
                        card_left(&s->hand[seat], ids, a->names),
                        &started_now, err);
}

static bool check_add(const aq_state *s, int seat, const aq_action *a,
                      rules_error *err)
{
    int side = aq_side_of(s, seat);
    const aq_collection *coll = aq_collection_find_const(s, a->target);
    if (coll == NULL)
        return rules_fail(err, "there is no collection %d", a->target);
    bool complete_before = coll->count >= 5;
    if (coll->side != side) {
        if (!started(s, side))
            return rules_fail(err, "you may only add to rivals' collections "
                                   "once you have started a collection");
        if (complete_before)
            return rules_fail(err, "you may only add to a rival's incomplete "
                                   "collections");
    }
    uint8_t ids[AQ_CARDS];
    if (!aq_pile_pick(&s->hand[seat], a->name, a->names, ids, err) ||
        !aq_add_ok(coll, ids, a->names, err))
        return false;
    int completed = aq_completed_count(s, side) +
                    (coll->side == side && !complete_before &&
                     coll->count + a->names >= 5);
    aq_collection grown;
    collection_after(&grown, coll, side, ids, a->names);
    return last_card_ok(s, seat, s->hand[seat].count - a->names, completed,
                        card_left(&s->hand[seat], ids, a->names),
                        coll->side == side ? &grown : NULL, err);
}

static int first_of_kind(const aq_pile *hand, aq_kind kind)
{
    for (int i = 0; i < hand->count; i++) {
        if (aq_card_info(hand->card[i]).kind == kind)
            return hand->card[i];
    }
    return AQ_NONE;
}

/* A character card played from hand: the hand after it must still obey
 * the last-card rule. */
static bool check_character_play(const aq_state *s, int seat, aq_kind kind,
                                 rules_error *err)
{
    uint8_t id = (uint8_t)first_of_kind(&s->hand[seat], kind);
    return last_card_ok(s, seat, s->hand[seat].count - 1,
                        aq_completed_count(s, aq_side_of(s, seat)),
                        card_left(&s->hand[seat], &id, 1), NULL, err);
}

static bool same_kind(const aq_collection *a, const aq_collection *b)
{
    aq_shape sa = aq_shape_of(a->card, a->count);
    aq_shape sb = aq_shape_of(b->card, b->count);
    return aq_shape_grade(&sa) == aq_shape_grade(&sb) &&
           (sa.antiquities > 0) == (sb.antiquities > 0);
}

static bool check_reassign(const aq_state *s, int seat, const aq_action *a,
                           rules_error *err)
{
    if (!s->opt.remington_reassigned)
        return rules_fail(err, "Remington's reassigned ability is not used "
                               "in this match");
    if (!holds_kind(&s->hand[seat], AQ_REMINGTON))
        return rules_fail(err, "you hold no Remington card");
    int side = aq_side_of(s, seat);
    const aq_collection *give = aq_collection_find_const(s, a->target);
    const aq_collection *take = aq_collection_find_const(s, a->take);
    if (give == NULL || give->side != side || give->count < 5 ||
        aq_shape_of(give->card, give->count).antiquities == 0)
        return rules_fail(err, "Remington reassigns one of your own completed "
                               "Antiquity or Mixed collections");
    if (take == NULL || take->side == side || take->count < 5 ||
        !same_kind(give, take))
        return rules_fail(err, "Remington swaps only for a rival's completed "
                               "collection of the same kind");
    return check_character_play(s, seat, AQ_REMINGTON, err);
}

static bool check_lost_shipment(const aq_state *s, int seat, const aq_action *a,
                                rules_error *err)
{
    if (!s->opt.tess_lost_shipment)
        return rules_fail(err, "Tess's lost shipment ability is not used in "
                               "this match");
    if (!holds_kind(&s->hand[seat], AQ_TESS))
        return rules_fail(err, "you hold no Tess card");
    const aq_collection *coll = aq_collection_find_const(s, a->target);
    if (coll == NULL || coll->side == aq_side_of(s, seat) || coll->count >= 5 ||
        aq_shape_of(coll->card, coll->count).antiquities == 0)
        return rules_fail(err, "a lost shipment takes only a rival's "
                               "incomplete Antiquity or Mixed collection");
    return check_character_play(s, seat, AQ_TESS, err);
}

static bool check_discard(const aq_state *s, int seat, const aq_action *a,
                          rules_error *err)
{
    aq_card c = aq_card_info(aq_name_first_id(a->name[0]));
    if (c.kind == AQ_REMINGTON)
        return rules_fail(err, "Remington cards cannot be discarded");
    uint8_t id;
    if (!aq_pile_pick(&s->hand[seat], a->name, 1, &id, err))
        return false;
    int side = aq_side_of(s, seat);
    if (s->hand[seat].count == 1 && s->cache_taken[side] &&
        aq_completed_count(s, side) < aq_needed(s))
        return rules_fail(err, "the last card from your cache can only be "
                               "discarded once you have completed %d "
                               "collections", aq_needed(s));
    return true;
}

/* ---- carrying moves out --------------------------------------------------- */

void aq_hand_take(aq_state *s, int seat, const uint8_t *ids, int n)
{
    for (int k = 0; k < n; k++)
        aq_pile_remove_at(&s->hand[seat], aq_pile_find(&s->hand[seat], ids[k]));
}

static void mark_started(aq_state *s, int side)
{
    if (s->started_turn[side] == AQ_NONE)
        s->started_turn[side] = s->turn_no;
}

int aq_collection_new(aq_state *s, int side, const uint8_t *ids, int n)
{
    aq_collection *c = &s->coll[s->collections++];
    memset(c, 0, sizeof *c);
    c->id = s->next_id++;
    c->side = side;
    for (int k = 0; k < n; k++) {
        c->card[c->count++] = ids[k];
        s->played_points[side] += aq_card_played_points(ids[k]);
    }
    mark_started(s, side);
    return c->id;
}

void aq_collection_add(aq_state *s, aq_collection *c, const uint8_t *ids, int n)
{
    for (int k = 0; k < n; k++) {
        c->card[c->count++] = ids[k];
        s->played_points[c->side] += aq_card_played_points(ids[k]);
    }
}

static void play_character(aq_state *s, int seat, aq_kind kind)
{
    uint8_t id = (uint8_t)first_of_kind(&s->hand[seat], kind);
    aq_hand_take(s, seat, &id, 1);
    aq_pile_push(&s->character, id);
}

/* After a play: an empty hand picks up the cache, or goes out. */
static void after_play(aq_state *s, int seat)
{
    int side = aq_side_of(s, seat);
    if (s->hand[seat].count > 0 || s->phase == AQ_PHASE_FINAL)
        return;
    if (!s->cache_taken[side]) {
        while (s->cache[side].count > 0)
            aq_pile_insert_sorted(&s->hand[seat], aq_pile_pop(&s->cache[side]));
        s->cache_taken[side] = true;
        return;
    }
    aq_end_turn(s, true);
}

static void apply_pickup(aq_state *s, int seat, const aq_action *a)
{
    uint8_t ids[5];
    aq_pile_pick(&s->hand[seat], a->name, a->names, ids, NULL);
    aq_hand_take(s, seat, ids, a->names);
    ids[a->names] = (uint8_t)aq_pile_pop(&s->discard);
    aq_collection_new(s, aq_side_of(s, seat), ids, a->names + 1);
    while (s->discard.count > 0)
        aq_pile_insert_sorted(&s->hand[seat], aq_pile_pop(&s->discard));
    s->phase = AQ_PHASE_PLAY;
    after_play(s, seat);
}

static void apply_remington(aq_state *s, int seat)
{
    play_character(s, seat, AQ_REMINGTON);
    /* RULING: when the draw pile cannot supply the 2 cards, the round ends
     * at once and is scored as it stands. */
    if (s->draw.count < 2) {
        aq_end_round(s);
        return;
    }
    for (int k = 0; k < 2; k++)
        aq_pile_insert_sorted(&s->hand[seat], aq_pile_pop(&s->draw));
}

static void apply_reassign(aq_state *s, int seat, const aq_action *a)
{
    aq_collection *give = aq_collection_find(s, a->target);
    aq_collection *take = aq_collection_find(s, a->take);
    int mine = give->side;
    int theirs = take->side;
    for (int k = 0; k < give->count; k++) {
        int p = aq_card_played_points(give->card[k]);
        s->played_points[mine] -= p;
        s->played_points[theirs] += p;
    }
    for (int k = 0; k < take->count; k++) {
        int p = aq_card_played_points(take->card[k]);
        s->played_points[theirs] -= p;
        s->played_points[mine] += p;
    }
    give->side = theirs;
    take->side = mine;
    play_character(s, seat, AQ_REMINGTON);
    after_play(s, seat);
}

static void apply_lost_shipment(aq_state *s, int seat, const aq_action *a)
{
    int i = 0;
    while (s->coll[i].id != a->target)
        i++;
    aq_collection *c = &s->coll[i];
    for (int k = 0; k < c->count; k++) {
        s->played_points[c->side] -= aq_card_played_points(c->card[k]);
        aq_pile_push(&s->character, c->card[k]);
    }
    memmove(&s->coll[i], &s->coll[i + 1],
            sizeof s->coll[0] * (size_t)(s->collections - i - 1));
    s->collections--;
    play_character(s, seat, AQ_TESS);
    after_play(s, seat);
}

static void apply_discard(aq_state *s, int seat, const aq_action *a)
{
    uint8_t id;
    aq_pile_pick(&s->hand[seat], a->name, 1, &id, NULL);
    aq_hand_take(s, seat, &id, 1);
    if (aq_card_info(id).kind == AQ_TESS) {
        /* Tess steals the whole discard pile to the character pile and
         * lies on top of it. */
        for (int k = 0; k < s->discard.count; k++)
            aq_pile_push(&s->character, s->discard.card[k]);
        s->discard.count = 0;
        aq_pile_push(&s->character, id);
    } else {
        aq_pile_push(&s->discard, id);
    }
    int side = aq_side_of(s, seat);
    if (s->hand[seat].count == 0 && !s->cache_taken[side]) {
        /* Discarding the last card picks up the cache, to be played from
         * the next turn on. */
        while (s->cache[side].count > 0)
            aq_pile_insert_sorted(&s->hand[seat], aq_pile_pop(&s->cache[side]));
        s->cache_taken[side] = true;
        aq_end_turn(s, false);
        return;
    }
    aq_end_turn(s, s->hand[seat].count == 0);
}

/* ---- the two entry points ------------------------------------------------------ */

static const char *phase_hint(const aq_state *s)
{
    switch (s->phase) {
    case AQ_PHASE_DRAW:
        return "your turn starts by drawing 2 cards or picking up the discard "
               "pile";
    case AQ_PHASE_PLAY:
        return "you have drawn already: play cards, then end your turn with a "
               "discard";
    case AQ_PHASE_FINAL:
        return "after a player went out you may only make your final plays";
    default:
        return "the match is over";
    }
}

bool aq_move_check(const aq_state *s, int seat, const aq_action *a,
                   rules_error *err)
{
    bool draw_phase = s->phase == AQ_PHASE_DRAW;
    bool play_phase = s->phase == AQ_PHASE_PLAY;
    switch (a->type) {
    case AQ_ACT_DRAW:
        return draw_phase || rules_fail(err, "%s", phase_hint(s));
    case AQ_ACT_PICKUP:
        if (!draw_phase)
            return rules_fail(err, "%s", phase_hint(s));
        return check_pickup(s, seat, a, err);
    case AQ_ACT_PLAY:
        if (!play_phase)
            return rules_fail(err, "%s", phase_hint(s));
        return check_play(s, seat, a, err);
    case AQ_ACT_ADD:
        if (!play_phase)
            return rules_fail(err, "%s", phase_hint(s));
        return check_add(s, seat, a, err);
    case AQ_ACT_REMINGTON:
        if (!play_phase)
            return rules_fail(err, "%s", phase_hint(s));
        if (!holds_kind(&s->hand[seat], AQ_REMINGTON))
            return rules_fail(err, "you hold no Remington card");
        return true;
    case AQ_ACT_REASSIGN:
        if (!play_phase)
            return rules_fail(err, "%s", phase_hint(s));
        return check_reassign(s, seat, a, err);
    case AQ_ACT_LOST_SHIPMENT:
        if (!play_phase)
            return rules_fail(err, "%s", phase_hint(s));
        return check_lost_shipment(s, seat, a, err);
    case AQ_ACT_DISCARD:
        if (!play_phase)
            return rules_fail(err, "%s", phase_hint(s));
        return check_discard(s, seat, a, err);
    case AQ_ACT_FINAL:
        if (s->phase != AQ_PHASE_FINAL)
            return rules_fail(err, "final plays are only made after a player "
                                   "went out under the revoked visas rule");
        return aq_final_check(s, seat, a, err);
    }
    return rules_fail(err, "that move is not part of Antiquity Quest");
}

void aq_move_apply(aq_state *s, int seat, const aq_action *a)
{
    uint8_t ids[AQ_CARDS];
    switch (a->type) {
    case AQ_ACT_DRAW:
        /* RULING: when the draw pile cannot supply 2 cards the round ends
         * at once and is scored as it stands. */
        if (s->draw.count < 2) {
            aq_end_round(s);
            return;
        }
        for (int k = 0; k < 2; k++)
            aq_pile_insert_sorted(&s->hand[seat], aq_pile_pop(&s->draw));
        s->phase = AQ_PHASE_PLAY;
        return;
    case AQ_ACT_PICKUP:
        apply_pickup(s, seat, a);
        return;
    case AQ_ACT_PLAY:
        aq_pile_pick(&s->hand[seat], a->name, a->names, ids, NULL);
        aq_hand_take(s, seat, ids, a->names);
        aq_collection_new(s, aq_side_of(s, seat), ids, a->names);
        after_play(s, seat);
        return;
    case AQ_ACT_ADD:
        aq_pile_pick(&s->hand[seat], a->name, a->names, ids, NULL);
        aq_hand_take(s, seat, ids, a->names);
        aq_collection_add(s, aq_collection_find(s, a->target), ids, a->names);
        after_play(s, seat);
        return;
    case AQ_ACT_REMINGTON:
        apply_remington(s, seat);
        return;
    case AQ_ACT_REASSIGN:
        apply_reassign(s, seat, a);
        return;
    case AQ_ACT_LOST_SHIPMENT:
        apply_lost_shipment(s, seat, a);
        return;
    case AQ_ACT_DISCARD:
        apply_discard(s, seat, a);
        return;
    case AQ_ACT_FINAL:
        aq_final_apply(s, seat, a);
        return;
    }
}
