/* check.c: the invariants every state keeps (rules.h "check"): each of
 * the 217 cards in exactly one place, every collection a valid one, the
 * running played-card points and totals equal to the recomputed ones, and
 * the round's flow consistent with who went out. Each sentence names the
 * place by its field in the position (README "Position"), so it reads
 * the same after a load as during play. */
#include "aq_internal.h"

#include <stdio.h>
#include <string.h>

/* The places a card can be in, numbered for check_cards: the three
 * piles, then the hands, the caches and the collections. */
enum { DRAW, DISCARD, CHARACTER, HANDS };

/* The field that place number is, for a sentence. */
static void place_name(const aq_state *s, int place, char out[32])
{
    static const char *const piles[] = {"draw_pile", "discard_pile",
                                        "character_pile"};
    if (place < HANDS)
        snprintf(out, 32, "%s", piles[place]);
    else if (place < HANDS + s->seats)
        snprintf(out, 32, "hands[%d]", place - HANDS);
    else if (place < HANDS + s->seats + s->sides)
        snprintf(out, 32, "sides[%d].cache", place - HANDS - s->seats);
    else
        snprintf(out, 32, "collection %d",
                 s->coll[place - HANDS - s->seats - s->sides].id);
}

/* Marks the cards of place in seen[] (place + 1; 0 is nowhere), failing on
 * a card already seen elsewhere. */
static bool count_place(const aq_state *s, uint8_t *seen, const uint8_t *cards,
                        int count, int place, rules_error *err)
{
    for (int i = 0; i < count; i++) {
        if (seen[cards[i]] != 0) {
            char here[32];
            char there[32];
            place_name(s, place, here);
            place_name(s, seen[cards[i]] - 1, there);
            return rules_fail(err, "%s: %s is also in %s", here,
                              aq_card_token(cards[i]), there);
        }
        seen[cards[i]] = (uint8_t)(place + 1);
    }
    return true;
}

static bool in_card_order(const aq_pile *pile)
{
    for (int i = 1; i < pile->count; i++) {
        if (pile->card[i - 1] >= pile->card[i])
            return false;
    }
    return true;
}

static bool check_cards(const aq_state *s, rules_error *err)
{
    uint8_t seen[AQ_CARDS] = {0};
    const aq_pile *piles[] = {&s->draw, &s->discard, &s->character};
    for (int p = DRAW; p <= CHARACTER; p++) {
        if (!count_place(s, seen, piles[p]->card, piles[p]->count, p, err))
            return false;
    }
    for (int seat = 0; seat < s->seats; seat++) {
        if (!count_place(s, seen, s->hand[seat].card, s->hand[seat].count,
                         HANDS + seat, err))
            return false;
        if (!in_card_order(&s->hand[seat]))
            return rules_fail(err, "hands[%d]: not kept in card order", seat);
    }
    for (int side = 0; side < s->sides; side++) {
        if (!count_place(s, seen, s->cache[side].card, s->cache[side].count,
                         HANDS + s->seats + side, err))
            return false;
        if (!in_card_order(&s->cache[side]))
            return rules_fail(err, "sides[%d].cache: not kept in card order",
                              side);
        if (s->cache_taken[side] && s->cache[side].count > 0)
            return rules_fail(err,
                              "sides[%d].cache_taken: true, but the "
                              "cache still holds %d cards",
                              side, s->cache[side].count);
    }
    for (int i = 0; i < s->collections; i++) {
        if (!count_place(s, seen, s->coll[i].card, s->coll[i].count,
                         HANDS + s->seats + s->sides + i, err))
            return false;
    }
    for (int id = 0; id < AQ_CARDS; id++) {
        if (seen[id] == 0)
            return rules_fail(err,
                              "%s is in no place: each of the 217 cards "
                              "must be somewhere (the draw pile holds "
                              "the rest)",
                              aq_card_token(id));
    }
    return true;
}

static bool check_collections(const aq_state *s, rules_error *err)
{
    int played[AQ_MAX_SIDES] = {0};
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        aq_shape shape = aq_shape_of(c->card, c->count);
        rules_error why;
        if (!aq_shape_valid(&shape, &why))
            return rules_fail(err, "collection %d: %s", c->id, why.message);
        if (c->side < 0 || c->side >= s->sides)
            return rules_fail(err, "collection %d: there is no side %d", c->id,
                              c->side);
        if (i > 0 && s->coll[i - 1].id >= c->id)
            return rules_fail(err,
                              "collection %d: numbers must rise in "
                              "the order the collections were made",
                              c->id);
        if (c->id >= s->next_id)
            return rules_fail(err,
                              "collection %d: not below next_collection "
                              "%d",
                              c->id, s->next_id);
        for (int k = 0; k < c->count; k++)
            played[c->side] += aq_card_played_points(c->card[k]);
    }
    for (int side = 0; side < s->sides; side++) {
        if (played[side] != s->played_points[side])
            return rules_fail(err,
                              "side %d's running played-card score %d "
                              "is not the recomputed %d",
                              side, s->played_points[side], played[side]);
        if (s->started_turn[side] == AQ_NONE && played[side] > 0)
            return rules_fail(err,
                              "sides[%d].started_turn: null, but the "
                              "side has collections",
                              side);
        int total = 0;
        for (int r = 0; r < s->rounds_done; r++) {
            const aq_round_score *sc = &s->score[r][side];
            if (sc->total != sc->bonus + sc->collections + sc->played +
                                 sc->unplayed + sc->civilization)
                return rules_fail(err,
                                  "side %d's round %d score does not "
                                  "add up",
                                  side, r + 1);
            total += sc->total;
        }
        if (total != s->total[side])
            return rules_fail(err,
                              "side %d's total %d is not the sum of its "
                              "rounds %d",
                              side, s->total[side], total);
    }
    return true;
}

/* A seat's sealed final plays use cards of its own hand, each once, and
 * add only to its side's collections. */
static bool check_choice(const aq_state *s, int seat, rules_error *err)
{
    const aq_final_choice *c = &s->choice[seat];
    if (s->phase != AQ_PHASE_FINAL || s->opt.pairs || seat == s->going_out)
        return rules_fail(err,
                          "final_choices[%d]: sealed final plays are "
                          "made only by the seats that did not go out, "
                          "in the \"final\" phase without pairs",
                          seat);
    bool used[AQ_CARDS] = {false};
    for (int k = 0; k < c->cards; k++) {
        if (aq_pile_find(&s->hand[seat], c->card[k]) == AQ_NONE)
            return rules_fail(err,
                              "final_choices[%d]: %s is not in "
                              "hands[%d]",
                              seat, aq_card_token(c->card[k]), seat);
        if (used[c->card[k]])
            return rules_fail(err, "final_choices[%d]: %s is played twice",
                              seat, aq_card_token(c->card[k]));
        used[c->card[k]] = true;
    }
    for (int p = 0; p < c->plays; p++) {
        int id = c->play[p].target;
        const aq_collection *target = aq_collection_find_const(s, id);
        if (id != 0 && (target == NULL || target->side != aq_side_of(s, seat)))
            return rules_fail(err,
                              "final_choices[%d][%d]: adds to "
                              "collection %d, which is not its side's",
                              seat, p, id);
    }
    return true;
}

static bool check_flow(const aq_state *s, rules_error *err)
{
    bool over = s->phase == AQ_PHASE_OVER;
    if (s->rounds_done != (over ? s->round : s->round - 1))
        return rules_fail(err,
                          "rounds_scored: %d rounds scored in round %d "
                          "(phase \"%s\")",
                          s->rounds_done, s->round, aq_phase_text(s->phase));
    if (s->phase == AQ_PHASE_FINAL && !s->opt.revoked_visas)
        return rules_fail(err, "phase: \"final\" is only played under the "
                               "revoked_visas option");
    if (s->phase == AQ_PHASE_FINAL && s->going_out == AQ_NONE)
        return rules_fail(err, "phase: \"final\" needs going_out, the seat "
                               "that went out");
    if (s->final_left != aq_final_left_derived(s))
        return rules_fail(err, "the seats owed a final turn do not follow "
                               "from going_out and turn");
    if (s->going_out != AQ_NONE && s->final_left == 0 && !over)
        return rules_fail(err,
                          "going_out: seat %d went out, so the seat on "
                          "turn (%d) must be another seat, or the phase "
                          "\"over\"",
                          s->going_out, s->turn);
    for (int seat = 0; seat < s->seats; seat++) {
        if (s->choice[seat].made && !check_choice(s, seat, err))
            return false;
    }
    for (int side = 0; side < s->sides && s->opt.civilization_bonus; side++) {
        if (s->civ[side] == AQ_NONE)
            return rules_fail(err,
                              "sides[%d].civilization: null, but the "
                              "civilization_bonus option assigns one",
                              side);
    }
    return true;
}

bool aq_check(const aq_state *s, rules_error *err)
{
    return check_cards(s, err) && check_collections(s, err) &&
           check_flow(s, err);
}
