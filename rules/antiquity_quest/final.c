/* final.c: the final plays of the revoked visas rule: after a player goes
 * out the others may only play cards from hand into their own collection
 * area (no rivals, no characters, no cache pick-up). Without pairs this is
 * a sealed simultaneous decision, resolved in seat order once every seat
 * has chosen; in pairs the plays are made in turn. */
#include "aq_internal.h"

#include <stdlib.h>
#include <string.h>

/* Plays the final plays of seat on s, checking each; false with err on the
 * first broken rule. ids receives the cards used, in play order. */
static bool run_final(aq_state *s, int seat, const aq_action *a, uint8_t *ids,
                      rules_error *err)
{
    int side = aq_side_of(s, seat);
    if (!aq_pile_pick(&s->hand[seat], a->name, a->names, ids, err))
        return false;
    for (int p = 0; p < a->plays; p++) {
        const aq_final_play *fp = &a->play[p];
        const uint8_t *cards = ids + fp->first;
        if (fp->target == 0) {
            if (!aq_new_collection_ok(s, cards, fp->count, err))
                return false;
            aq_hand_take(s, seat, cards, fp->count);
            aq_collection_new(s, side, cards, fp->count);
            continue;
        }
        aq_collection *coll = aq_collection_find(s, fp->target);
        if (coll == NULL || coll->side != side)
            return rules_fail(err, "during the final plays you may only add "
                                   "to your own collections");
        if (!aq_add_ok(coll, cards, fp->count, err))
            return false;
        aq_hand_take(s, seat, cards, fp->count);
        aq_collection_add(s, coll, cards, fp->count);
    }
    if (s->cache_taken[side] && s->hand[seat].count == 0 &&
        aq_completed_count(s, side) < aq_needed(s))
        return rules_fail(err, "the last card from your cache can only be "
                               "played once you have completed %d "
                               "collections", aq_needed(s));
    return true;
}

bool aq_final_check(const aq_state *s, int seat, const aq_action *a,
                        rules_error *err)
{
    int first_new = s->next_id;
    for (int p = 0; p < a->plays; p++) {
        if (a->play[p].target >= first_new)
            return rules_fail(err, "final plays may only add to collections "
                                   "that were on the table before them");
    }
    aq_state *scratch = malloc(sizeof *scratch);
    memcpy(scratch, s, sizeof *scratch);
    uint8_t ids[AQ_CARDS];
    bool ok = run_final(scratch, seat, a, ids, err);
    free(scratch);
    return ok;
}

void aq_final_apply(aq_state *s, int seat, const aq_action *a)
{
    if (s->opt.pairs) {
        /* Pairs: the final plays are taken in turn, in the open. */
        uint8_t ids[AQ_CARDS];
        run_final(s, seat, a, ids, NULL);
        aq_end_turn(s, false);
        return;
    }
    aq_final_choice *c = &s->choice[seat];
    memset(c, 0, sizeof *c);
    c->made = true;
    aq_pile_pick(&s->hand[seat], a->name, a->names, c->card, NULL);
    c->cards = a->names;
    c->plays = a->plays;
    memcpy(c->play, a->play, sizeof a->play[0] * (size_t)a->plays);
    s->final_left &= ~(1u << seat);
    if (s->final_left == 0)
        aq_resolve_final(s);
}

void aq_resolve_final(aq_state *s)
{
    for (int seat = 0; seat < s->seats; seat++) {
        aq_final_choice *c = &s->choice[seat];
        if (!c->made)
            continue;
        int side = aq_side_of(s, seat);
        for (int p = 0; p < c->plays; p++) {
            const aq_final_play *fp = &c->play[p];
            const uint8_t *cards = c->card + fp->first;
            aq_hand_take(s, seat, cards, fp->count);
            if (fp->target == 0)
                aq_collection_new(s, side, cards, fp->count);
            else
                aq_collection_add(s, aq_collection_find(s, fp->target),
                                  cards, fp->count);
        }
    }
    memset(s->choice, 0, sizeof s->choice);
    aq_end_round(s);
}

