/* flow.c: who acts, the end of a turn, going out and the end of a round
 * (rulebook "End of round", "End of game", "Revoked visas"). */
#include "aq_internal.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const phase_names[] = {"draw", "play", "final", "over"};

const char *aq_phase_text(aq_phase phase)
{
    return phase >= AQ_PHASE_DRAW && phase <= AQ_PHASE_OVER
               ? phase_names[phase]
               : "?";
}

int aq_phase_parse(const char *text)
{
    for (int p = AQ_PHASE_DRAW; p <= AQ_PHASE_OVER; p++) {
        if (strcasecmp(text, phase_names[p]) == 0)
            return p;
    }
    return AQ_NONE;
}

/* Final turns go clockwise from the seat after the one that went out, so
 * the seats still owed one are those from the seat on turn up to it; the
 * sealed final plays are owed by every other seat that has not chosen. */
uint32_t aq_final_left_derived(const aq_state *s)
{
    if (s->going_out == AQ_NONE || s->phase == AQ_PHASE_OVER)
        return 0;
    uint32_t left = 0;
    if (s->phase == AQ_PHASE_FINAL && !s->opt.pairs) {
        for (int seat = 0; seat < s->seats; seat++) {
            if (seat != s->going_out && !s->choice[seat].made)
                left |= 1u << seat;
        }
        return left;
    }
    int seat = s->turn;
    for (int n = 0; n < s->seats && seat != s->going_out; n++) {
        left |= 1u << seat;
        seat = (seat + 1) % s->seats;
    }
    return left;
}

void aq_pending(const aq_state *s, rules_pending *out)
{
    memset(out, 0, sizeof *out);
    switch (s->phase) {
    case AQ_PHASE_OVER:
        out->wait = RULES_WAIT_NOBODY;
        return;
    case AQ_PHASE_FINAL:
        if (!s->opt.pairs) {
            out->wait = RULES_WAIT_SIMULTANEOUS;
            out->seats = s->final_left;
            snprintf(out->decision, sizeof out->decision, "r%d-final-plays",
                     s->round);
            snprintf(out->prompt, sizeof out->prompt,
                     "make final plays into one's own collections, now "
                     "that a player has gone out");
            return;
        }
        out->wait = RULES_WAIT_ONE;
        out->seats = 1u << s->turn;
        snprintf(out->prompt, sizeof out->prompt,
                 "make final plays into one's own collections, now that "
                 "a player has gone out");
        return;
    case AQ_PHASE_DRAW:
        out->wait = RULES_WAIT_ONE;
        out->seats = 1u << s->turn;
        snprintf(out->prompt, sizeof out->prompt,
                 "draw 2 cards or pick up the discard pile");
        return;
    case AQ_PHASE_PLAY:
        out->wait = RULES_WAIT_ONE;
        out->seats = 1u << s->turn;
        snprintf(out->prompt, sizeof out->prompt,
                 "play cards, then discard to end the turn");
        return;
    }
}

/* Hands the turn to the next seat (clockwise from the seat on turn) still
 * owed a final turn, or ends the round. */
static void next_final_turn(aq_state *s)
{
    if (s->final_left == 0) {
        aq_end_round(s);
        return;
    }
    int seat = s->turn;
    do
        seat = (seat + 1) % s->seats;
    while (!(s->final_left & (1u << seat)));
    s->turn = seat;
    s->turn_no++;
    s->phase = s->opt.revoked_visas ? AQ_PHASE_FINAL : AQ_PHASE_DRAW;
}

void aq_end_turn(aq_state *s, bool went_out)
{
    int seat = s->turn;
    if (s->going_out == AQ_NONE && went_out) {
        /* The first player out triggers the end of the round: every other
         * player has one final turn, or (revoked visas) final plays. */
        s->going_out = seat;
        s->final_left = ((1u << s->seats) - 1) & ~(1u << seat);
        if (s->opt.revoked_visas && !s->opt.pairs) {
            s->phase = AQ_PHASE_FINAL;
            return;
        }
        next_final_turn(s);
        return;
    }
    if (s->going_out != AQ_NONE) {
        s->final_left &= ~(1u << seat);
        next_final_turn(s);
        return;
    }
    s->turn = (seat + 1) % s->seats;
    s->turn_no++;
    s->phase = AQ_PHASE_DRAW;
}

void aq_end_round(aq_state *s)
{
    int r = s->round - 1;
    for (int side = 0; side < s->sides; side++) {
        s->score[r][side] = aq_score_side(s, side);
        s->total[side] += s->score[r][side].total;
        s->round_civ[r][side] = s->civ[side];
    }
    s->round_going_out[r] = s->going_out;
    s->rounds_done = s->round;
    s->final_left = 0;
    memset(s->choice, 0, sizeof s->choice);
    if (s->round >= s->opt.rounds) {
        s->phase = AQ_PHASE_OVER;
        return;
    }
    /* The lowest score so far starts the next round. RULING: ties go to
     * the lowest seat; in pairs the partnership's first seat starts. */
    int first = 0;
    for (int side = 1; side < s->sides; side++) {
        if (s->total[side] < s->total[first])
            first = side;
    }
    s->round++;
    aq_deal_round(s, first);
}
