/* check.c: the engine's invariants (rules.h check), named by the position
 * fields a referee sees (README, "Position"). */
#include "amt_internal.h"

#include <stdio.h>

static bool check_sealed_play(const amt_player *pl, int p, rules_error *err)
{
    /* the sealed cards are distinct and still in the hand */
    int8_t seen[AMT_CARDS] = {0};
    for (int m = 0; m < pl->end_play.melds; m++) {
        for (int k = 0; k < pl->end_play.count[m]; k++) {
            int id = pl->end_play.cards[m][k];
            bool held = false;
            for (int h = 0; h < pl->hand_count && !held; h++)
                held = pl->hand[h] == id;
            if (!held || seen[id]++)
                return rules_fail(err, "players[%d].end_play: uses a card "
                                       "that is not in the hand",
                                  p);
        }
    }
    return true;
}

static bool check_player(const amt_state *s, int p, rules_error *err)
{
    const amt_player *pl = &s->players[p];
    for (int i = 1; i < pl->hand_count; i++) {
        if (pl->hand[i - 1] >= pl->hand[i])
            return rules_fail(err, "players[%d].hand: not kept sorted", p);
    }
    if (pl->used >> AMT_PATTERNS)
        return rules_fail(err, "players[%d].marked: an unknown pattern", p);
    if (pl->completed < 0 || pl->completed > __builtin_popcount(pl->used))
        return rules_fail(err, "players[%d].completed: more complete "
                               "patterns than marked",
                          p);
    int sum = 0;
    int played = s->phase == AMT_PHASE_OVER ? s->round + 1 : s->round;
    for (int r = 0; r < amt_rounds(s->progressive); r++) {
        if (r >= played && pl->round_score[r] != 0)
            return rules_fail(err, "players[%d].round_scores: a score for "
                                   "round %d, not played yet",
                              p, r + 1);
        sum += pl->round_score[r];
    }
    if (sum != pl->total)
        return rules_fail(err, "players[%d]: the total %d is not the sum %d "
                               "of the round scores",
                          p, pl->total, sum);
    if (pl->claim != AMT_CLAIM_NONE &&
        (!s->window || p == s->turn || s->phase != AMT_PHASE_DRAW))
        return rules_fail(err, "claim_window: seat %d answered outside a "
                               "claim window",
                          p);
    if (pl->end != AMT_END_NONE && s->phase != AMT_PHASE_ENDPLAY)
        return rules_fail(err, "players[%d].end_play: a choice outside the "
                               "round's end",
                          p);
    if (pl->end == AMT_END_PLAYED && !check_sealed_play(pl, p, err))
        return false;
    bool has = false;
    for (int m = 0; m < s->meld_count && !has; m++)
        has = s->melds[m].owner == p;
    if (has != pl->laid)
        return rules_fail(err, "players[%d].melds: %s", p,
                          has ? "melds without a pattern laid"
                              : "a pattern laid without melds");
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    uint32_t this_round = 0;
    for (int i = 0; i < n; i++)
        this_round |= 1u << ids[i];
    if (pl->laid && !(pl->used & this_round))
        return rules_fail(err, "players[%d].marked: melds on the table, but "
                               "no pattern of this round marked",
                          p);
    /* a seat that plays its last card ends the round at once */
    if (pl->hand_count == 0 &&
        (s->phase == AMT_PHASE_DRAW || s->phase == AMT_PHASE_PLAY))
        return rules_fail(err, "players[%d].hand: empty during a turn (a "
                               "seat that plays its last card ends the "
                               "round)",
                          p);
    return true;
}

/* Each card in exactly one place. */
static bool check_cards(const amt_state *s, rules_error *err)
{
    int where[AMT_CARDS] = {0};
    for (int i = 0; i < s->draw_count; i++)
        where[s->draw[i]]++;
    for (int i = 0; i < s->discard_count; i++)
        where[s->discard[i]]++;
    for (int p = 0; p < s->seats; p++) {
        for (int i = 0; i < s->players[p].hand_count; i++)
            where[s->players[p].hand[i]]++;
    }
    for (int m = 0; m < s->meld_count; m++) {
        for (int i = 0; i < s->melds[m].count; i++)
            where[s->melds[m].cards[i]]++;
    }
    for (int c = 0; c < AMT_CARDS; c++) {
        if (where[c] != 1) {
            char name[AMT_NAME_LEN];
            amt_card_name(c, name);
            return rules_fail(err, "a card %s (id %d) is in %d places", name,
                              c, where[c]);
        }
    }
    return true;
}

static bool check_melds(const amt_state *s, rules_error *err)
{
    for (int m = 0; m < s->meld_count; m++) {
        const amt_meld *meld = &s->melds[m];
        if (meld->owner < 0 || meld->owner >= s->seats ||
            (m > 0 && s->melds[m - 1].owner > meld->owner))
            return rules_fail(err, "the table's melds are not grouped by "
                                   "player");
        int colour, number;
        if (!amt_meld_shape(meld->kind, meld->cards, meld->count, &colour,
                            &number, err))
            return false;
        if (colour != meld->colour || number != meld->number)
            return rules_fail(err, "meld %d's colour or number is stale", m);
    }
    return true;
}

bool amt_check(const rules_state *state, rules_error *err)
{
    const amt_state *s = (const amt_state *)state;
    if (s->seats < AMT_MIN_SEATS || s->seats > AMT_MAX_SEATS ||
        s->turn < 0 || s->turn >= s->seats || s->round < 0 ||
        s->round >= amt_rounds(s->progressive))
        return rules_fail(err, "seats, turn or round out of range");
    if (s->classic_end && !s->progressive)
        return rules_fail(err, "classic_end_of_round: an option of "
                               "the progressive game only");
    if (!check_cards(s, err) || !check_melds(s, err))
        return false;
    if (s->window && s->phase != AMT_PHASE_DRAW)
        return rules_fail(err, "claim_window: open outside the draw phase");
    if (s->phase == AMT_PHASE_DRAW &&
        (s->draw_count == 0 || s->discard_count == 0))
        return rules_fail(err, "phase \"draw\": a turn begins with cards in "
                               "both draw_pile and discard_pile");
    bool waiting = false;
    for (int p = 0; p < s->seats; p++) {
        if (!check_player(s, p, err))
            return false;
        waiting |= s->players[p].end == AMT_END_WAITING;
    }
    if (s->phase == AMT_PHASE_ENDPLAY && !waiting)
        return rules_fail(err, "phase \"endplay\": nobody is left to choose "
                               "at the round's end (once all have chosen, "
                               "the round is scored)");
    return true;
}
