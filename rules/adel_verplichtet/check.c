/* check.c: every invariant of the game, named by the position's field
 * (README.md, "Position") so that a referee whose hand-edited position is
 * refused by load knows what to change. */
#include "av_internal.h"

#include <string.h>

static bool check_cards(const av_state *s, rules_error *err)
{
    av_cards seen = 0, twice = 0;
    for (int i = 0; i < AV_MAX_PLAYERS; i++) {
        const av_lord *l = &s->lord[i];
        if (i >= s->seats) {
            if (l->hand | l->display)
                return rules_fail(err, "a Lord beyond seat %d holds cards",
                                  s->seats - 1);
            continue;
        }
        twice |= (l->hand & l->display) | (seen & (l->hand | l->display));
        seen |= l->hand | l->display;
    }
    for (int k = 0; k < 2; k++) {
        if (s->pile_count[k] < 0 || s->pile_count[k] > AV_CARDS)
            return rules_fail(err, "auction_piles[%d]: %d cards", k,
                              s->pile_count[k]);
        for (int j = 0; j < s->pile_count[k]; j++) {
            int card = s->pile[k][j];
            if (card < 0 || card >= AV_CARDS)
                return rules_fail(err, "auction_piles[%d] holds card "
                                       "number %d", k, card);
            twice |= seen & (av_cards)1 << card;
            seen |= (av_cards)1 << card;
        }
    }
    av_cards all = ((av_cards)1 << AV_CARDS) - 1;
    if (twice == 0 && seen == all)
        return true;
    if (seen & ~all)
        return rules_fail(err, "a hand or display holds a card beyond F7");
    int card = __builtin_ctzll(twice ? twice : ~seen & all);
    char name[4];
    av_card_name(card, name);
    if (twice)
        return rules_fail(err, "card %s is in two places", name);
    return rules_fail(err, "card %s is missing: each of the 45 cards is in "
                           "one hand, display or auction pile", name);
}

static bool check_checks_and_thieves(const av_state *s, rules_error *err)
{
    for (int c = 0; c < AV_MAX_CHECKS; c++) {
        int h = s->check_holder[c];
        if (c >= s->seats * AV_CHECKS_PER_LORD ? h != AV_CHECK_GONE
                                               : (h < AV_CHECK_GONE ||
                                                  h >= s->seats))
            return rules_fail(err, "check %d has no valid holder",
                              av_check_value(c));
    }
    bool empty_seen = false;
    for (int c = 0; c < AV_MAX_PLAYERS; c++) {
        int sack = s->prison[c];
        if (c >= s->seats) {
            if (sack != 0)
                return rules_fail(err, "prison: %d cells for %d Lords",
                                  c + 1, s->seats);
            continue;
        }
        if (sack == 0) {
            empty_seen = true;
            continue;
        }
        if (empty_seen)
            return rules_fail(err, "prison: cells fill from cell #1 on");
        if (sack < 1 || sack > AV_MAX_SACK ||
            av_thief_owner(sack) >= s->seats)
            return rules_fail(err, "prison[%d]: there is no thief %d", c,
                              sack);
        for (int d = 0; d < c; d++) {
            if (s->prison[d] == sack)
                return rules_fail(err, "prison[%d]: thief %d is also in "
                                       "cell #%d", c, sack, d + 1);
        }
    }
    return true;
}

/* A revealed action card is a card of this Lord's. */
static bool check_play(const av_state *s, int seat, rules_error *err)
{
    const av_play *play = &s->lord[seat].play;
    if (play->card == AV_CARD_THIEF &&
        (play->value < 1 || play->value > AV_MAX_SACK ||
         av_thief_owner(play->value) != seat))
        return rules_fail(err, "lords[%d].play: thief %d is not seat %d's",
                          seat, play->value, seat);
    if (play->card == AV_CARD_CHECK &&
        av_check_by_value(play->value, s->seats) < 0)
        return rules_fail(err, "lords[%d].play: there is no check of %d",
                          seat, play->value);
    if (play->card != AV_CARD_NONE && s->lord[seat].location == AV_LOC_NONE)
        return rules_fail(err, "lords[%d].play: a card played without a "
                               "location", seat);
    return true;
}

/* A sealed choice is one the rules allowed when it was made; nothing it
 * depends on changes until the decision is complete. */
static bool check_sealed(const av_state *s, int seat, rules_error *err)
{
    const av_lord *l = &s->lord[seat];
    if (!l->chosen) {
        if (l->sealed_location || l->sealed_play.card || l->sealed_set)
            return rules_fail(err, "lords[%d].sealed: a choice never made",
                              seat);
        return true;
    }
    if (!av_takes_part(s, seat))
        return rules_fail(err, "lords[%d].sealed: seat %d has no choice to "
                               "make in the %s phase", seat, seat,
                          av_phase_name(s->phase));
    av_move m = av_sealed_move(s, seat);
    char text[AV_MOVE_TEXT];
    av_move_text(&m, text);
    rules_error why = {{0}};
    if (!av_move_allowed(s, seat, &m, &why))
        return rules_fail(err, "lords[%d].sealed: \"%s\" breaks a rule: %s",
                          seat, text, why.message);
    return true;
}

static bool exhibitor(const av_lord *l)
{
    return l->location == AV_LOC_CASTLE && l->play.card == AV_CARD_EXHIBIT;
}

static bool castle_thief(const av_lord *l)
{
    return l->location == AV_LOC_CASTLE && l->play.card == AV_CARD_THIEF;
}

static bool check_lord(const av_state *s, int i, rules_error *err)
{
    const av_lord *l = &s->lord[i];
    const char *phase = av_phase_name(s->phase);
    bool revealed_location = s->phase == AV_PHASE_ACTION ||
                             s->phase == AV_PHASE_TAKE ||
                             s->phase == AV_PHASE_EXHIBIT ||
                             s->phase == AV_PHASE_STEAL;
    bool revealed_play = revealed_location && s->phase != AV_PHASE_ACTION;
    if (l->pawn < 0 || l->pawn > AV_PAWN_MAX)
        return rules_fail(err, "lords[%d].pawn: %d is off the board", i,
                          l->pawn);
    if (revealed_location && l->location == AV_LOC_NONE)
        return rules_fail(err, "lords[%d].location: in the %s phase every "
                               "Lord's location is revealed", i, phase);
    if (revealed_play && l->play.card == AV_CARD_NONE)
        return rules_fail(err, "lords[%d].play: in the %s phase every "
                               "Lord's action card is revealed", i, phase);
    if (l->display && (s->phase != AV_PHASE_STEAL || !exhibitor(l)))
        return rules_fail(err, "lords[%d].display: only an exhibitor at the "
                               "castle has cards on display, in the steal "
                               "phase", i);
    if (l->robbed && (s->phase != AV_PHASE_STEAL || !castle_thief(l)))
        return rules_fail(err, "lords[%d].robbed: only a castle thief robs, "
                               "in the steal phase", i);
    if (l->final_set && (s->phase != AV_PHASE_OVER ||
                         (l->final_set & ~l->hand) ||
                         !av_set_valid(l->final_set)))
        return rules_fail(err, "lords[%d].final_set: a set from the Lord's "
                               "hand, once the game is over", i);
    return check_play(s, i, err) && check_sealed(s, i, err);
}

static bool check_phase(const av_state *s, rules_error *err)
{
    bool exhibitors = false;
    for (int i = 0; i < s->seats; i++)
        exhibitors |= exhibitor(&s->lord[i]);
    if (s->phase == AV_PHASE_EXHIBIT && !exhibitors)
        return rules_fail(err, "phase: \"exhibit\" without a Lord who plays "
                               "his exhibit card at the castle");
    if (s->phase == AV_PHASE_STEAL && av_current_thief(s) < 0)
        return rules_fail(err, "phase: \"steal\" without a castle thief and "
                               "an exhibit he has not robbed");
    if ((s->phase == AV_PHASE_TAKE) !=
        (s->auction_winner >= 0 && s->auction_winner < s->seats))
        return rules_fail(err, "phase: the auction winner does not match "
                               "the phase");
    if (s->phase == AV_PHASE_TAKE &&
        (s->pile_count[0] == 0 || s->pile_count[1] == 0))
        return rules_fail(err, "phase: \"take\" needs a card on both "
                               "auction piles (with one, it is taken at "
                               "once)");
    return true;
}

bool av_check(const rules_state *state, rules_error *err)
{
    const av_state *s = (const av_state *)state;
    if (s->seats < AV_MIN_PLAYERS || s->seats > AV_MAX_PLAYERS)
        return rules_fail(err, "seats: %d; the game is for %d to %d Lords",
                          s->seats, AV_MIN_PLAYERS, AV_MAX_PLAYERS);
    if (s->variant != AV_VARIANT_NONE && s->seats != 2)
        return rules_fail(err, "variant: \"%s\" is for 2 Lords, not %d",
                          av_variant_name(s->variant), s->seats);
    /* the two-player variants skip the location decision or merge it */
    bool fits = true;
    if (s->phase == AV_PHASE_LOCATION)
        fits = s->variant == AV_VARIANT_NONE;
    if (s->phase == AV_PHASE_ACTION)
        fits = s->variant != AV_VARIANT_COMBINED;
    if (s->phase == AV_PHASE_PLAN)
        fits = s->variant == AV_VARIANT_COMBINED;
    if (!fits)
        return rules_fail(err, "phase: \"%s\" is not a phase of the "
                               "variant \"%s\"", av_phase_name(s->phase),
                          av_variant_name(s->variant));
    if (s->turn < 1)
        return rules_fail(err, "turn: %d; the first turn is 1", s->turn);
    if (s->log_count < 0 || s->log_count > AV_LOG_LINES)
        return rules_fail(err, "log: %d lines, at most %d", s->log_count,
                          AV_LOG_LINES);
    if (!check_cards(s, err) || !check_checks_and_thieves(s, err))
        return false;
    for (int i = 0; i < s->seats; i++) {
        if (!check_lord(s, i, err))
            return false;
    }
    return check_phase(s, err);
}
