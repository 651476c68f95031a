/* score.c: a side's score for a round (rulebook "Scoring", "End of
 * round", "On assignment"). */
#include "aq_internal.h"

int aq_civilization_bonus(int n)
{
    static const int first_three[4] = {0, 250, 750, 1500};
    return n <= 3 ? first_three[n] : 1500 + 1000 * (n - 3);
}

/* Whether side holds a completed Mixed, Standard and Perfect collection. */
static bool one_of_each(const aq_state *s, int side)
{
    bool has[4] = {false};
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        aq_shape shape = aq_shape_of(c->card, c->count);
        if (c->side == side && aq_shape_complete(&shape))
            has[aq_shape_grade(&shape)] = true;
    }
    return has[AQ_GRADE_MIXED] && has[AQ_GRADE_STANDARD] &&
           has[AQ_GRADE_PERFECT];
}

/* The 500 bonus goes to the side that went out if it has one of each
 * kind, otherwise to every other side that has. RULING: when the round
 * ends because the draw pile ran out, nobody went out and every side with
 * one of each kind earns it. */
static int bonus(const aq_state *s, int side)
{
    if (!one_of_each(s, side))
        return 0;
    if (s->going_out == AQ_NONE)
        return 500;
    int out_side = aq_side_of(s, s->going_out);
    if (side == out_side || !one_of_each(s, out_side))
        return 500;
    return 0;
}

aq_round_score aq_score_side(const aq_state *s, int side)
{
    aq_round_score r = {0};
    int civ_collections = 0;
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        if (c->side != side)
            continue;
        aq_shape shape = aq_shape_of(c->card, c->count);
        r.collections += aq_shape_value(&shape);
        bool civ = false;
        for (int k = 0; k < c->count; k++) {
            r.played += aq_card_played_points(c->card[k]);
            civ = civ || aq_card_info(c->card[k]).suit == s->civ[side];
        }
        if (civ && aq_shape_complete(&shape) && s->civ[side] != AQ_NONE)
            civ_collections++;
    }
    for (int seat = 0; seat < s->seats; seat++) {
        if (aq_side_of(s, seat) != side)
            continue;
        for (int k = 0; k < s->hand[seat].count; k++)
            r.unplayed -= aq_card_penalty(s->hand[seat].card[k]);
    }
    for (int k = 0; k < s->cache[side].count; k++)
        r.unplayed -= aq_card_penalty(s->cache[side].card[k]);
    r.bonus = bonus(s, side);
    if (s->opt.civilization_bonus)
        r.civilization = aq_civilization_bonus(civ_collections);
    r.total = r.bonus + r.collections + r.played + r.unplayed + r.civilization;
    return r;
}

json_t *aq_round_score_json(const aq_round_score *r)
{
    return json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "bonus", r->bonus,
                     "collections", r->collections, "played", r->played,
                     "unplayed", r->unplayed, "civilization", r->civilization,
                     "total", r->total);
}
