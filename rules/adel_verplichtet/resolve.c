/* resolve.c: the turn's phases once every sealed choice is in: the
 * auction house, the castle (exhibits, thieves, detectives, prison), the
 * end of the turn and the final exhibition. */
#include "av_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void av_log(av_state *s, const char *fmt, ...)
{
    if (s->log_count >= AV_LOG_LINES)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(s->log[s->log_count], AV_LOG_WIDTH, fmt, args);
    va_end(args);
    s->log_count++;
}

static void clear_turn_record(av_state *s)
{
    s->log_count = 0;
    memset(s->log, 0, sizeof s->log);
    for (int i = 0; i < s->seats; i++) {
        s->lord[i].play = (av_play){AV_CARD_NONE, 0};
        s->lord[i].robbed = 0;
    }
}

static void open_decision(av_state *s, av_phase phase)
{
    s->phase = phase;
    for (int i = 0; i < s->seats; i++) {
        s->lord[i].chosen = false;
        s->lord[i].sealed_location = AV_LOC_NONE;
        s->lord[i].sealed_play = (av_play){AV_CARD_NONE, 0};
        s->lord[i].sealed_set = 0;
    }
}

void av_begin_turn(av_state *s)
{
    s->turn++;
    if (s->variant == AV_VARIANT_COMBINED) {
        open_decision(s, AV_PHASE_PLAN);
        return;
    }
    if (s->variant == AV_VARIANT_ALTERNATE) {
        /* RULING: both Lords are at the same place each turn: the auction
         * house on odd turns, a castle on even turns. */
        av_location here = s->turn % 2 == 1 ? AV_LOC_AUCTION : AV_LOC_CASTLE;
        for (int i = 0; i < s->seats; i++)
            s->lord[i].location = here;
        open_decision(s, AV_PHASE_ACTION);
        return;
    }
    open_decision(s, AV_PHASE_LOCATION);
}

bool av_thief_free(const av_state *s, int sack)
{
    for (int c = 0; c < s->seats; c++) {
        if (s->prison[c] == sack)
            return false;
    }
    return true;
}

bool av_holds_check(const av_state *s, int seat, int value)
{
    int check = av_check_by_value(value, s->seats);
    return check >= 0 && s->check_holder[check] == seat;
}

static bool has_any_check(const av_state *s, int seat)
{
    for (int c = 0; c < s->seats * AV_CHECKS_PER_LORD; c++) {
        if (s->check_holder[c] == seat)
            return true;
    }
    return false;
}

static bool has_free_thief(const av_state *s, int seat)
{
    return av_thief_free(s, av_thief_sack(seat, 0)) ||
           av_thief_free(s, av_thief_sack(seat, 1));
}

/* RULING: a Lord may only go to the auction house when he holds a check
 * or a free thief to play there (a castle always admits his detective). */
bool av_location_allowed(const av_state *s, int seat, av_location location,
                         rules_error *err)
{
    if (location == AV_LOC_AUCTION && !has_any_check(s, seat) &&
        !has_free_thief(s, seat))
        return rules_fail(err, "you may only go to the auction house with a "
                               "check or a free thief to play there");
    return true;
}

bool av_play_allowed(const av_state *s, int seat, av_location location,
                     av_play play, rules_error *err)
{
    switch (play.card) {
    case AV_CARD_CHECK:
        if (location != AV_LOC_AUCTION)
            return rules_fail(err, "checks can only be played at the "
                                   "auction house");
        if (!av_holds_check(s, seat, play.value))
            return rules_fail(err, "you do not hold a check of %d",
                              play.value);
        return true;
    case AV_CARD_THIEF:
        /* "play thief" names the lowest free thief; with none free it names
         * nobody, and the reason is the prison, not the missing number. */
        if (play.value == 0 && !has_free_thief(s, seat))
            return rules_fail(err, "both your thieves (%d and %d) are in "
                                   "prison",
                              av_thief_sack(seat, 0), av_thief_sack(seat, 1));
        if (play.value < 1 || play.value > AV_MAX_SACK ||
            av_thief_owner(play.value) != seat)
            return rules_fail(err, "name one of your own thieves by his "
                                   "sack number (%d or %d)",
                              av_thief_sack(seat, 0), av_thief_sack(seat, 1));
        if (!av_thief_free(s, play.value))
            return rules_fail(err, "your thief %d is in prison", play.value);
        return true;
    case AV_CARD_DETECTIVE:
        if (location != AV_LOC_CASTLE)
            return rules_fail(err, "detectives can only be played at a "
                                   "castle");
        return true;
    case AV_CARD_EXHIBIT:
        if (location != AV_LOC_CASTLE)
            return rules_fail(err, "exhibits can only be played at a castle");
        if (!av_hand_has_set(s->lord[seat].hand))
            return rules_fail(err, "to play an exhibit you need a set of at "
                                   "least three collection cards");
        return true;
    case AV_CARD_NOTHING:
        if (location != AV_LOC_AUCTION || has_any_check(s, seat) ||
            has_free_thief(s, seat))
            return rules_fail(err, "you may only play nothing at the auction "
                                   "house with no check and no free thief");
        return true;
    default:
        return rules_fail(err, "play an action card");
    }
}

void av_reveal_locations(av_state *s)
{
    clear_turn_record(s);
    for (int i = 0; i < s->seats; i++) {
        s->lord[i].location = s->lord[i].sealed_location;
        av_log(s, "turn %d: Lord %d goes to the %s", s->turn, i,
               s->lord[i].location == AV_LOC_CASTLE ? "castle"
                                                     : "auction house");
    }
    open_decision(s, AV_PHASE_ACTION);
}

/* Whether line is one that av_reveal_locations or log_play wrote. */
static bool reveal_line(const char *line)
{
    int end = 0;
    sscanf(line, "turn %*d: Lord %*d goes to the %n", &end);
    if (end == 0)
        sscanf(line, "Lord %*d plays %n", &end);
    if (end == 0)
        sscanf(line, "Lord %*d has nothing to play %n", &end);
    return end > 0;
}

int av_log_reveal_lines(const av_state *s)
{
    int lines = 0;
    while (lines < s->log_count && lines < 2 * s->seats &&
           reveal_line(s->log[lines]))
        lines++;
    return lines;
}

static void log_play(av_state *s, int seat)
{
    const av_play *p = &s->lord[seat].play;
    const char *where = s->lord[seat].location == AV_LOC_CASTLE
                            ? "castle" : "auction house";
    switch (p->card) {
    case AV_CARD_CHECK:
        av_log(s, "Lord %d plays a check of %d at the %s", seat, p->value,
               where);
        break;
    case AV_CARD_THIEF:
        av_log(s, "Lord %d plays thief %d at the %s", seat, p->value, where);
        break;
    case AV_CARD_DETECTIVE:
        av_log(s, "Lord %d plays his detective at the castle", seat);
        break;
    case AV_CARD_EXHIBIT:
        av_log(s, "Lord %d plays his exhibit card at the castle", seat);
        break;
    default:
        av_log(s, "Lord %d has nothing to play at the %s", seat, where);
        break;
    }
}

static int offers(const av_state *s)
{
    return (s->pile_count[0] > 0) + (s->pile_count[1] > 0);
}

static void start_castle(av_state *s);

static void take_card(av_state *s, int seat, int card)
{
    for (int p = 0; p < 2; p++) {
        if (s->pile_count[p] > 0 && s->pile[p][s->pile_count[p] - 1] == card)
            s->pile_count[p]--;
    }
    s->lord[seat].hand |= (av_cards)1 << card;
    char name[4];
    av_card_name(card, name);
    av_log(s, "Lord %d buys %s", seat, name);
}

static void resolve_auction(av_state *s)
{
    int winner = -1, best = 0, thieves = 0, thief = -1;
    for (int i = 0; i < s->seats; i++) {
        const av_lord *l = &s->lord[i];
        if (l->location != AV_LOC_AUCTION)
            continue;
        if (l->play.card == AV_CARD_CHECK && l->play.value > best) {
            best = l->play.value;
            winner = i;
        }
        if (l->play.card == AV_CARD_THIEF) {
            thieves++;
            thief = i;
        }
    }
    if (winner < 0) {
        if (thieves > 0)
            av_log(s, "no check was played: the thieves at the auction house "
                      "find nothing");
        start_castle(s);
        return;
    }
    if (offers(s) == 0) {
        /* RULING: with no collection card left at the auction house nothing
         * is bought and every check goes back to its owner. */
        av_log(s, "the auction house is empty: the checks go back");
        start_castle(s);
        return;
    }
    int check = av_check_by_value(best, s->seats);
    if (thieves == 1) {
        s->check_holder[check] = thief;
        av_log(s, "thief %d steals the check of %d from the register",
               s->lord[thief].play.value, best);
    } else {
        s->check_holder[check] = AV_CHECK_GONE;
        if (thieves > 1)
            av_log(s, "%d thieves get in each other's way; the check of %d "
                      "leaves the game", thieves, best);
        else
            av_log(s, "the check of %d leaves the game", best);
    }
    if (offers(s) == 2) {
        s->phase = AV_PHASE_TAKE;
        s->auction_winner = winner;
        return;
    }
    int p = s->pile_count[0] > 0 ? 0 : 1;
    take_card(s, winner, s->pile[p][s->pile_count[p] - 1]);
    start_castle(s);
}

void av_finish_take(av_state *s, int card)
{
    take_card(s, s->auction_winner, card);
    s->auction_winner = -1;
    start_castle(s);
}

void av_reveal_actions(av_state *s)
{
    if (s->variant != AV_VARIANT_NONE)
        clear_turn_record(s);
    for (int i = 0; i < s->seats; i++) {
        if (s->variant == AV_VARIANT_COMBINED)
            s->lord[i].location = s->lord[i].sealed_location;
        s->lord[i].play = s->lord[i].sealed_play;
        if (s->variant == AV_VARIANT_COMBINED)
            av_log(s, "turn %d: Lord %d goes to the %s", s->turn, i,
                   s->lord[i].location == AV_LOC_CASTLE ? "castle"
                                                         : "auction house");
        log_play(s, i);
    }
    open_decision(s, AV_PHASE_ACTION);
    s->phase = AV_PHASE_ACTION;
    resolve_auction(s);
}

static bool at_castle_with(const av_state *s, int seat, av_card card)
{
    return s->lord[seat].location == AV_LOC_CASTLE &&
           s->lord[seat].play.card == card;
}

static void finish_castle(av_state *s);

static void start_castle(av_state *s)
{
    bool exhibitors = false;
    for (int i = 0; i < s->seats; i++)
        exhibitors |= at_castle_with(s, i, AV_CARD_EXHIBIT);
    if (exhibitors) {
        open_decision(s, AV_PHASE_EXHIBIT);
        return;
    }
    finish_castle(s);
}

/* The castle thief who picks next: highest sack number first, each taking
 * one card from every exhibit that still has cards. -1 when none. */
int av_current_thief(const av_state *s)
{
    for (int sack = AV_MAX_SACK; sack >= 1; sack--) {
        int seat = av_thief_owner(sack);
        if (seat >= s->seats || !at_castle_with(s, seat, AV_CARD_THIEF) ||
            s->lord[seat].play.value != sack)
            continue;
        for (int e = 0; e < s->seats; e++) {
            if (s->lord[e].display != 0 && !(s->lord[seat].robbed >> e & 1))
                return seat;
        }
    }
    return -1;
}

/* Orders the given sets best first; returns how many are non-empty. */
static int rank_sets(const av_cards *sets, int seats, int order[])
{
    int n = 0;
    for (int i = 0; i < seats; i++) {
        if (sets[i] != 0)
            order[n++] = i;
    }
    for (int a = 1; a < n; a++) {
        for (int b = a; b > 0 && av_set_value(sets[order[b]]) >
                                     av_set_value(sets[order[b - 1]]); b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    }
    return n;
}

int av_leading_pawn(const av_state *s)
{
    int lead = 0;
    for (int i = 0; i < s->seats; i++) {
        if (s->lord[i].pawn > lead)
            lead = s->lord[i].pawn;
    }
    return lead;
}

static void log_set(av_state *s, int seat, const char *what, av_cards set)
{
    char text[AV_LOG_WIDTH] = "";
    size_t len = 0;
    for (int i = 0; i < AV_CARDS && len + 4 < sizeof text; i++) {
        if (set >> i & 1) {
            char name[4];
            av_card_name(i, name);
            len += (size_t)snprintf(text + len, sizeof text - len, " %s", name);
        }
    }
    av_log(s, "Lord %d %s:%s", seat, what, text);
}

void av_reveal_exhibits(av_state *s)
{
    av_cards sets[AV_MAX_PLAYERS] = {0};
    for (int i = 0; i < s->seats; i++) {
        if (!at_castle_with(s, i, AV_CARD_EXHIBIT))
            continue;
        av_lord *l = &s->lord[i];
        l->display = l->sealed_set;
        l->hand &= ~l->sealed_set;
        sets[i] = l->display;
        log_set(s, i, "exhibits", l->display);
    }
    int order[AV_MAX_PLAYERS];
    int n = rank_sets(sets, s->seats, order);
    const av_castle *octagon =
        &av_castles[av_octagon_castle(av_leading_pawn(s))];
    s->lord[order[0]].pawn += octagon->first;
    av_log(s, "Lord %d shows the best exhibit and advances %d (octagon of %s)",
           order[0], octagon->first, octagon->name);
    if (n > 1) {
        s->lord[order[1]].pawn += octagon->second;
        av_log(s, "Lord %d shows the second-best exhibit and advances %d",
               order[1], octagon->second);
    }
    open_decision(s, AV_PHASE_STEAL);
    if (av_current_thief(s) < 0)
        finish_castle(s);
}

void av_finish_steal(av_state *s, int thief_seat, int card)
{
    av_cards bit = (av_cards)1 << card;
    for (int e = 0; e < s->seats; e++) {
        if (s->lord[e].display & bit) {
            s->lord[e].display &= ~bit;
            s->lord[thief_seat].robbed |= 1u << e;
            s->lord[thief_seat].hand |= bit;
            char name[4];
            av_card_name(card, name);
            av_log(s, "thief %d steals %s from Lord %d's exhibit",
                   s->lord[thief_seat].play.value, name, e);
        }
    }
    if (av_current_thief(s) < 0)
        finish_castle(s);
}

/* A caught thief enters cell #1 and pushes every prisoner one cell on; the
 * one pushed past the last cell (one cell per player) goes free. */
static void imprison(av_state *s, int sack)
{
    int freed = s->prison[s->seats - 1];
    for (int c = s->seats - 1; c > 0; c--)
        s->prison[c] = s->prison[c - 1];
    s->prison[0] = sack;
    av_log(s, "thief %d is caught and enters cell #1", sack);
    if (freed != 0)
        av_log(s, "thief %d is released and returns to Lord %d", freed,
               av_thief_owner(freed));
}

/* RULING: standing is the dense ranking of the pawns (1, 2, 3, 3, 4),
 * leader first, taken after the exhibits and before any detective moves. */
static int standing(const av_state *s, int seat)
{
    int rank = 1;
    for (int p = s->lord[seat].pawn + 1; p <= av_leading_pawn(s); p++) {
        for (int i = 0; i < s->seats; i++) {
            if (s->lord[i].pawn == p) {
                rank++;
                break;
            }
        }
    }
    return rank;
}

static void end_turn(av_state *s)
{
    for (int i = 0; i < s->seats; i++) {
        if (s->lord[i].pawn >= AV_DINNER_TABLE) {
            av_log(s, "a pawn has reached the dinner table: the final "
                      "exhibition follows");
            open_decision(s, AV_PHASE_FINAL);
            return;
        }
    }
    av_begin_turn(s);
}

static void finish_castle(av_state *s)
{
    bool detective = false;
    int thieves = 0;
    for (int i = 0; i < s->seats; i++) {
        detective |= at_castle_with(s, i, AV_CARD_DETECTIVE);
        thieves += at_castle_with(s, i, AV_CARD_THIEF);
    }
    if (detective && thieves > 0) {
        for (int sack = 1; sack <= AV_MAX_SACK; sack++) {
            int seat = av_thief_owner(sack);
            if (seat < s->seats && at_castle_with(s, seat, AV_CARD_THIEF) &&
                s->lord[seat].play.value == sack)
                imprison(s, sack);
        }
        /* RULING: a detective advances only when he caught thieves. */
        int advance[AV_MAX_PLAYERS] = {0};
        for (int i = 0; i < s->seats; i++) {
            if (at_castle_with(s, i, AV_CARD_DETECTIVE))
                advance[i] = standing(s, i);
        }
        for (int i = 0; i < s->seats; i++) {
            if (advance[i] > 0) {
                s->lord[i].pawn += advance[i];
                av_log(s, "Lord %d's detective advances him %d", i,
                       advance[i]);
            }
        }
    }
    /* The exhibits go home; who robbed whom is told by the log now, so
     * the snapshot carries "robbed" only while thieves steal. */
    for (int i = 0; i < s->seats; i++) {
        s->lord[i].hand |= s->lord[i].display;
        s->lord[i].display = 0;
        s->lord[i].robbed = 0;
    }
    end_turn(s);
}

void av_reveal_final(av_state *s)
{
    av_cards sets[AV_MAX_PLAYERS] = {0};
    for (int i = 0; i < s->seats; i++) {
        s->lord[i].final_set = s->lord[i].sealed_set;
        sets[i] = s->lord[i].final_set;
        if (sets[i] != 0)
            log_set(s, i, "shows in the final exhibition", sets[i]);
        else
            av_log(s, "Lord %d has no set for the final exhibition", i);
    }
    int order[AV_MAX_PLAYERS];
    int n = rank_sets(sets, s->seats, order);
    if (n > 0) {
        s->lord[order[0]].pawn += 8;
        av_log(s, "Lord %d shows the best final collection and advances 8",
               order[0]);
    }
    if (n > 1) {
        s->lord[order[1]].pawn += 4;
        av_log(s, "Lord %d shows the second-best final collection and "
                  "advances 4", order[1]);
    }
    open_decision(s, AV_PHASE_OVER);
}
