/* check.c: every invariant of an Artifact Stack state, for the harness
 * after each move and for load after reading a hand-edited position: each
 * card of the six stacks in play in exactly one place, silver conserved,
 * bonus sets well formed, peeks only at face-down temple cards, the task
 * consistent with the seat on turn. */
#include "artifact_stack_internal.h"

static bool check_sets(const as_state *s, rules_error *err)
{
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->set[c] < 0)
            continue;
        int leader = s->set[c];
        if (!s->flipped[c] || s->place[c] != AS_TABLEAU)
            return rules_fail(err, "%s is in a bonus set but not flipped in a "
                                   "tableau", as_card_name(c));
        if (leader > c || as_card_stack(leader) != as_card_stack(c) ||
            s->owner[leader] != s->owner[c] || s->set[leader] != leader)
            return rules_fail(err, "%s's set is inconsistent",
                              as_card_name(c));
        if (leader != c)
            continue;
        int n = 0;
        char letters[3] = {0};
        for (int m = c; m < AS_CARDS; m++) {
            if (s->set[m] == c) {
                if (n < 3)
                    letters[n] = as_data.china_letter[as_card_number(m) - 1];
                n++;
            }
        }
        int stack = as_card_stack(c);
        if (!as_data.stack_flips[stack] || n < 2 ||
            (stack != AS_STATUES && n > 3))
            return rules_fail(err, "the set of %s has %d cards",
                              as_card_name(c), n);
        if (stack == AS_CHINA && n == 2 && letters[0] != letters[1])
            return rules_fail(err, "China pair of %s mixes letters",
                              as_card_name(c));
        if (stack == AS_CHINA && n == 3 &&
            !((letters[0] == letters[1] && letters[1] == letters[2]) ||
              (letters[0] != letters[1] && letters[1] != letters[2] &&
               letters[0] != letters[2])))
            return rules_fail(err, "China set of %s is neither one letter nor "
                                   "A+B+C", as_card_name(c));
    }
    return true;
}

static bool check_cards(const as_state *s, rules_error *err)
{
    int count[6] = {0};
    int in_temple = 0;
    for (int i = 0; i < AS_TEMPLE; i++) {
        int c = s->temple[i];
        if (c == AS_NO_CARD)
            continue;
        if (c < 0 || c >= AS_CARDS || s->place[c] != AS_IN_TEMPLE)
            return rules_fail(err, "temple slot %d is inconsistent", i);
        in_temple++;
    }
    for (int i = 0; i < s->stock_count; i++) {
        if (s->place[s->stock[i]] != AS_STOCK)
            return rules_fail(err, "stock entry %d is inconsistent", i);
    }
    for (int c = 0; c < AS_CARDS; c++) {
        int place = s->place[c];
        if (place < AS_OUT || place > AS_BOX)
            return rules_fail(err, "%s has no place", as_card_name(c));
        if ((place == AS_OUT) == s->in_play[as_card_stack(c)])
            return rules_fail(err, "%s is %s play", as_card_name(c),
                              place == AS_OUT ? "missing from" : "wrongly in");
        count[place]++;
        if ((place == AS_TABLEAU) != (s->owner[c] >= 0 &&
                                      s->owner[c] < s->seats))
            return rules_fail(err, "%s has a wrong owner", as_card_name(c));
        if (s->flipped[c] && place != AS_TABLEAU)
            return rules_fail(err, "%s is flipped outside a tableau",
                              as_card_name(c));
        int stack = as_card_stack(c);
        if (place == AS_TABLEAU && stack == AS_CURSES && !s->flipped[c])
            return rules_fail(err, "%s was not resolved", as_card_name(c));
        if (s->flipped[c] && s->set[c] < 0 && stack != AS_CURSES &&
            stack != AS_TREASURES)
            return rules_fail(err, "%s is flipped without a bonus",
                              as_card_name(c));
        if (s->flipped[c] && s->set[c] >= 0 && !as_data.stack_flips[stack])
            return rules_fail(err, "%s has no bonus set", as_card_name(c));
        for (int p = 0; p < RULES_MAX_SEATS; p++) {
            if (s->peeked[p][c] &&
                (p >= s->seats || place != AS_IN_TEMPLE ||
                 !as_data.covered[as_card_number(c) - 1]))
                return rules_fail(err, "seat %d peeked at %s, which is not "
                                       "face down in the temple", p,
                                  as_card_name(c));
        }
    }
    /* The match ends only when the turn that emptied the second temple
     * ends (as_end_turn). */
    if (s->over && (s->round != 2 || in_temple != 0))
        return rules_fail(err, "the match is over only once the second "
                               "temple is empty");
    if (count[AS_IN_TEMPLE] != in_temple || count[AS_STOCK] != s->stock_count)
        return rules_fail(err, "a card is listed twice in the temple or stock");
    int in_play = AS_CARDS - count[AS_OUT];
    if (in_play != AS_CARDS_IN_PLAY)
        return rules_fail(err, "%d cards in play, not %d", in_play,
                          AS_CARDS_IN_PLAY);
    int second = AS_CARDS_IN_PLAY - AS_TEMPLE;
    if (s->round == 1 && (s->stock_count != second || count[AS_REMOVED] != 0))
        return rules_fail(err, "round 1 needs %d cards waiting for round 2",
                          second);
    if (s->round == 2 && (s->stock_count != 0 ||
                          count[AS_REMOVED] != second - AS_TEMPLE))
        return rules_fail(err, "round 2 leaves exactly %d cards out",
                          second - AS_TEMPLE);
    return check_sets(s, err);
}

bool as_check(const rules_state *state, rules_error *err)
{
    const as_state *s = (const as_state *)state;
    if (s->seats < as_data.min_seats || s->seats > as_data.max_seats)
        return rules_fail(err, "%d seats", s->seats);
    if (s->round < 1 || s->round > 2 || s->turn < 0 || s->turn >= s->seats ||
        s->first < 0 || s->first >= s->seats || s->actions < 0)
        return rules_fail(err, "round, turn, first player or actions out of "
                               "range");
    int stacks = 0;
    for (int k = 0; k < AS_STACKS; k++)
        stacks += s->in_play[k];
    if (stacks != AS_STACKS_IN_PLAY)
        return rules_fail(err, "%d stacks in play, not %d", stacks,
                          AS_STACKS_IN_PLAY);
    int silver = s->bank;
    if (s->bank < 0)
        return rules_fail(err, "the bank is negative");
    for (int p = 0; p < s->seats; p++) {
        if (s->silver[p] < 0 || s->skip[p] < 0)
            return rules_fail(err, "seat %d has negative silver or skips", p);
        silver += s->silver[p];
    }
    if (silver != as_data.silver_total)
        return rules_fail(err, "%d silver in the game, not %d", silver,
                          as_data.silver_total);
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        int owner = s->assistant_owner[a];
        bool used_stack = s->in_play[as_data.assistants[a].stack];
        if (owner < AS_UNUSED_STACK || owner >= s->seats ||
            (owner == AS_UNUSED_STACK) == used_stack)
            return rules_fail(err, "the %s is in the wrong place",
                              as_data.assistants[a].name);
        if (s->assistant_used[a] && owner < 0)
            return rules_fail(err, "the %s is used but nobody's",
                              as_data.assistants[a].name);
    }
    if (!check_cards(s, err))
        return false;
    if (s->task < AS_TASK_NONE || s->task > AS_TASK_DISCARD ||
        (s->task == AS_TASK_NONE) != (s->task_count == 0) ||
        (s->over && s->task != AS_TASK_NONE))
        return rules_fail(err, "the pending task is inconsistent");
    if ((s->task == AS_TASK_TREASURE) != (s->task_card != AS_NO_CARD))
        return rules_fail(err, "the treasure task has no treasure");
    if (s->task == AS_TASK_TREASURE &&
        (as_card_stack(s->task_card) != AS_TREASURES ||
         s->place[s->task_card] != AS_TABLEAU ||
         s->owner[s->task_card] != s->turn || s->flipped[s->task_card]))
        return rules_fail(err, "the treasure waiting for a choice is not "
                               "face up with the seat on turn");
    return true;
}
