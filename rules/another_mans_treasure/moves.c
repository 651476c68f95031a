/* moves.c: who acts (pending), applying actions and listing legal moves.
 *
 * A turn: DRAW (draw from the pile or take the top discard), PLAY (lay a
 * collection pattern once per round, add cards to melds once laid), then a
 * discard. Each discard opens the "Can I have it?" window on the discard
 * pile's top: every seat but the next player may claim or pass; the next
 * player's own draw or take closes it (see README, Rulings). */
#include "amt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers on hands and the table ---- */

static void hand_add(amt_player *p, int id)
{
    int i = p->hand_count++;
    while (i > 0 && p->hand[i - 1] > id) {
        p->hand[i] = p->hand[i - 1];
        i--;
    }
    p->hand[i] = (int16_t)id;
}

static void hand_remove(amt_player *p, int id)
{
    for (int i = 0; i < p->hand_count; i++) {
        if (p->hand[i] == id) {
            memmove(p->hand + i, p->hand + i + 1,
                    (size_t)(p->hand_count - i - 1) * sizeof p->hand[0]);
            p->hand_count--;
            return;
        }
    }
}

/* The first card in hand called name (canonical), or -1. */
static int hand_find(const amt_player *p, const char *name)
{
    char have[AMT_NAME_LEN];
    for (int i = 0; i < p->hand_count; i++) {
        amt_card_name(p->hand[i], have);
        if (strcmp(have, name) == 0)
            return p->hand[i];
    }
    return -1;
}

int amt_meld_index(const amt_state *s, int owner, int n)
{
    for (int i = 0; i < s->meld_count; i++) {
        if (s->melds[i].owner == owner && n-- == 0)
            return i;
    }
    return -1;
}

bool amt_partial_end(const amt_state *s)
{
    return !s->progressive || s->classic_end;
}

/* Patterns seat may still mark this round. */
static int open_patterns(const amt_state *s, int seat, int ids[AMT_PATTERNS])
{
    int all[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, all);
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (!(s->players[seat].used & (1u << all[i])))
            ids[count++] = all[i];
    }
    return count;
}

static bool pattern_open(const amt_state *s, int seat, int pattern)
{
    int ids[AMT_PATTERNS];
    int n = open_patterns(s, seat, ids);
    for (int i = 0; i < n; i++) {
        if (ids[i] == pattern)
            return true;
    }
    return false;
}

/* The wild type called name (canonical), or -1 for a numbered card. */
static int wild_type_named(const char *name)
{
    for (int id = AMT_NUMBERED; id < AMT_CARDS; id++) {
        char have[AMT_NAME_LEN];
        amt_card_name(id, have);
        if (strcmp(have, name) == 0)
            return amt_card_get(id).wild_type;
    }
    return -1;
}

static const char *action_type(const json_t *action)
{
    return json_string_value(json_object_get(action, "type"));
}

/* Reads a canonical card name from key of action. */
static bool read_card(const json_t *value, char name[AMT_NAME_LEN],
                      rules_error *err)
{
    const char *text = json_string_value(value);
    if (text == NULL || !amt_name_canonical(text, name))
        return rules_fail(err, "name a card like R3, Y5s (a smiley 5), "
                               "W1-6, W6-11 or W1-11");
    return true;
}

/* ---- pending ---- */

void amt_pending(const rules_state *state, rules_pending *out)
{
    const amt_state *s = (const amt_state *)state;
    memset(out, 0, sizeof *out);
    switch (s->phase) {
    case AMT_PHASE_OVER:
        return;
    case AMT_PHASE_ENDPLAY:
        out->wait = RULES_WAIT_SIMULTANEOUS;
        for (int p = 0; p < s->seats; p++) {
            if (s->players[p].end == AMT_END_WAITING)
                out->seats |= 1u << p;
        }
        snprintf(out->decision, sizeof out->decision, "r%d-endplay",
                 s->round + 1);
        snprintf(out->prompt, sizeof out->prompt,
                 "lay cards from hand for a collection pattern or pass, "
                 "now that the round is over");
        return;
    case AMT_PHASE_PLAY:
        out->wait = RULES_WAIT_ONE;
        out->seats = 1u << s->turn;
        snprintf(out->prompt, sizeof out->prompt,
                 s->players[s->turn].laid
                     ? "add cards to melds, then discard a card"
                     : "lay down a collection pattern if possible, then "
                       "discard a card");
        return;
    case AMT_PHASE_DRAW:
        out->seats = 1u << s->turn;
        if (s->window) {
            for (int p = 0; p < s->seats; p++) {
                if (p != s->turn && s->players[p].claim == AMT_CLAIM_NONE)
                    out->seats |= 1u << p;
            }
        }
        out->wait = rules_seat_count(out->seats) > 1 ? RULES_WAIT_ANY_ORDER
                                                     : RULES_WAIT_ONE;
        snprintf(out->prompt, sizeof out->prompt,
                 out->wait == RULES_WAIT_ONE
                     ? "draw a card or take the top discard"
                     : "draw or take the top discard (the next player), or "
                       "claim it (\"Can I have it?\") or pass (the others)");
        return;
    }
}

/* ---- the round's end ---- */

/* Puts a new meld after owner's last one: melds stay grouped by owner,
 * so the table reads (and saves) player by player. */
static void place_meld(amt_state *s, int seat, int kind, const int16_t *cards,
                       int count)
{
    int at = s->meld_count;
    while (at > 0 && s->melds[at - 1].owner > seat)
        at--;
    memmove(s->melds + at + 1, s->melds + at,
            (size_t)(s->meld_count - at) * sizeof s->melds[0]);
    s->meld_count++;
    amt_meld *m = &s->melds[at];
    memset(m, 0, sizeof *m);
    m->owner = seat;
    m->kind = kind;
    m->count = count;
    for (int i = 0; i < count; i++) {
        m->cards[i] = cards[i];
        m->by[i] = (int8_t)seat;
    }
    amt_meld_shape(kind, m->cards, count, &m->colour, &m->number, NULL);
}

/* Puts play's melds on the table (its cards already out of the hand) and
 * marks its pattern. */
static void lay_play(amt_state *s, int seat, const amt_play *play)
{
    for (int i = 0; i < play->melds; i++)
        place_meld(s, seat, play->kind[i], play->cards[i], play->count[i]);
    amt_player *p = &s->players[seat];
    p->laid = true;
    p->used |= 1u << play->mark;
    if (play->melds == amt_pattern_get(play->mark)->melds)
        p->completed++;
}

static void finish_round(amt_state *s)
{
    for (int p = 0; p < s->seats; p++) {
        int points = amt_round_points(s, p);
        s->players[p].round_score[s->round] = points;
        s->players[p].total += points;
    }
    if (s->round + 1 >= amt_rounds(s->progressive)) {
        s->phase = AMT_PHASE_OVER;
        s->window = false;
        for (int p = 0; p < s->seats; p++)
            s->players[p].end = AMT_END_NONE;
        return;
    }
    s->round++;
    amt_deal_round(s);
}

static void end_round(amt_state *s)
{
    s->window = false;
    s->phase = AMT_PHASE_ENDPLAY;
    bool anyone = false;
    for (int p = 0; p < s->seats; p++) {
        amt_player *pl = &s->players[p];
        int ids[AMT_PATTERNS];
        pl->claim = AMT_CLAIM_NONE;
        pl->end = AMT_END_NONE;
        if (!pl->laid && pl->hand_count > 0 && open_patterns(s, p, ids) > 0) {
            pl->end = AMT_END_WAITING;
            anyone = true;
        }
    }
    if (!anyone)
        finish_round(s);
}

static void resolve_end_plays(amt_state *s)
{
    for (int p = 0; p < s->seats; p++) {
        amt_player *pl = &s->players[p];
        if (pl->end != AMT_END_PLAYED)
            continue;
        for (int i = 0; i < pl->end_play.melds; i++) {
            for (int k = 0; k < pl->end_play.count[i]; k++)
                hand_remove(pl, pl->end_play.cards[i][k]);
        }
        lay_play(s, p, &pl->end_play);
    }
    for (int p = 0; p < s->seats; p++) {
        s->players[p].end = AMT_END_NONE;
        memset(&s->players[p].end_play, 0, sizeof s->players[p].end_play);
    }
    finish_round(s);
}

/* ---- drawing and the claim window ---- */

static int draw_top(amt_state *s)
{
    return s->draw[--s->draw_count];
}

static void close_window(amt_state *s)
{
    s->window = false;
    for (int p = 0; p < s->seats; p++)
        s->players[p].claim = AMT_CLAIM_NONE;
}

/* "Can I have it?" is settled before the next player's turn begins (the
 * claim comes "before the next player draws a card"): the first claimer
 * clockwise from the next player (the discarder last) takes the discard
 * and, as a player taking it out of turn, the top card of the draw pile
 * as its penalty card. */
static void settle_claim(amt_state *s, int next)
{
    for (int k = 1; k < s->seats; k++) {
        int p = (next + k) % s->seats;
        if (s->players[p].claim != AMT_CLAIM_CLAIMED)
            continue;
        hand_add(&s->players[p], s->discard[--s->discard_count]);
        /* The window only opens on a draw pile holding a card. */
        hand_add(&s->players[p], draw_top(s));
        return;
    }
}

static bool act_draw(amt_state *s, int seat)
{
    if (s->window)
        settle_claim(s, seat);
    close_window(s);
    /* RULING: when the penalty card was the draw pile's last, the next
     * player finds the pile empty and the round ends at once, as it does
     * when a discard empties the pile (README, Rulings). */
    if (s->draw_count == 0) {
        end_round(s);
        return true;
    }
    hand_add(&s->players[seat], draw_top(s));
    s->phase = AMT_PHASE_PLAY;
    return true;
}

static bool act_take(amt_state *s, int seat, rules_error *err)
{
    if (s->discard_count == 0)
        return rules_fail(err, "the discard pile is empty, so draw from "
                               "the draw pile");
    hand_add(&s->players[seat], s->discard[--s->discard_count]);
    close_window(s);
    s->phase = AMT_PHASE_PLAY;
    return true;
}

static bool apply_draw_phase(amt_state *s, int seat, const char *type,
                             rules_error *err)
{
    if (seat == s->turn) {
        if (strcmp(type, "draw") == 0)
            return act_draw(s, seat);
        if (strcmp(type, "take") == 0)
            return act_take(s, seat, err);
        if (strcmp(type, "claim") == 0 || strcmp(type, "pass") == 0)
            return rules_fail(err, "the next player answers \"Can I have "
                                   "it?\" by taking the discard (take) or "
                                   "drawing from the pile (draw)");
        return rules_fail(err, "a turn begins with a draw from the draw pile "
                               "or the discard pile");
    }
    if (strcmp(type, "claim") == 0) {
        s->players[seat].claim = AMT_CLAIM_CLAIMED;
        return true;
    }
    if (strcmp(type, "pass") == 0) {
        s->players[seat].claim = AMT_CLAIM_PASSED;
        return true;
    }
    return rules_fail(err, "while the next player has not drawn, others may "
                           "only claim the top discard or pass");
}

/* ---- laying patterns ---- */

/* Counts the wilds in p's hand by type: a pattern play must not leave more
 * wilds of a type in hand than it began with (a swapped wild is played on
 * the turn it is taken). */
static void count_wilds(const amt_player *p, int counts[AMT_WILD_TYPES])
{
    memset(counts, 0, AMT_WILD_TYPES * sizeof counts[0]);
    for (int i = 0; i < p->hand_count; i++) {
        amt_card c = amt_card_get(p->hand[i]);
        if (c.wild)
            counts[c.wild_type]++;
    }
}

/* The table index of the meld that owner and number (JSON integers, as a
 * player names a meld) point at, or -1 when there is no such meld. */
static int meld_named(const amt_state *s, const json_t *jo, const json_t *jm)
{
    json_int_t owner = json_integer_value(jo);
    json_int_t number = json_integer_value(jm);
    if (owner < 0 || owner >= s->seats || number < 0 || number >= AMT_MAX_MELDS)
        return -1;
    return amt_meld_index(s, (int)owner, (int)number);
}

/* Reads the pattern an action marks off into play->mark: one of this
 * round's patterns that seat has not used yet. */
static bool read_mark(const amt_state *s, int seat, const json_t *action,
                      amt_play *play, rules_error *err)
{
    const char *mark = json_string_value(json_object_get(action, "mark"));
    play->mark = mark != NULL ? amt_pattern_find(mark) : -1;
    if (play->mark < 0)
        return rules_fail(err, "name the collection pattern you mark off, "
                               "like 2sets4 or run8");
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    bool in_round = false;
    for (int i = 0; i < n; i++)
        in_round |= ids[i] == play->mark;
    if (!in_round)
        return rules_fail(err, "%s is not a collection pattern of this round",
                          amt_pattern_get(play->mark)->title);
    if (!pattern_open(s, seat, play->mark))
        return rules_fail(err, "each collection pattern may be used only once "
                               "per game, and you have marked off %s",
                          amt_pattern_get(play->mark)->title);
    return true;
}

/* Makes one swap on s: the card named in sw goes from seat's hand into a
 * meld in place of the wild standing for it, which goes to the hand. */
static bool swap_wild(amt_state *s, int seat, const json_t *sw,
                      rules_error *err)
{
    amt_player *me = &s->players[seat];
    const json_t *jo = json_object_get(sw, "owner");
    const json_t *jm = json_object_get(sw, "meld");
    char name[AMT_NAME_LEN];
    if (!json_is_integer(jo) || !json_is_integer(jm))
        return rules_fail(err, "a swap names a meld by its owner and number");
    if (!read_card(json_object_get(sw, "card"), name, err))
        return false;
    int mi = meld_named(s, jo, jm);
    if (mi < 0)
        return rules_fail(err, "there is no such meld on the table");
    int card = hand_find(me, name);
    if (card < 0)
        return rules_fail(err, "you do not hold %s", name);
    /* Which wild to take, when the meld has several standing for the card
     * (a set's or a pair's): any of them may be used. */
    int wild_type = -1;
    char wild_name[AMT_NAME_LEN] = "wild";
    const json_t *jw = json_object_get(sw, "wild");
    if (jw != NULL) {
        if (!read_card(jw, wild_name, err))
            return false;
        wild_type = wild_type_named(wild_name);
        if (wild_type < 0)
            return rules_fail(err, "name the wild you take, like W1-6, "
                                   "W6-11 or W1-11");
    }
    amt_meld *m = &s->melds[mi];
    int at = amt_meld_wild_for(m, card, wild_type);
    if (at < 0)
        return rules_fail(err, "you may swap a played wild only for the "
                               "exact card it stands for, and no %s in that "
                               "meld stands for %s",
                          wild_name, name);
    int wild = m->cards[at];
    m->cards[at] = (int16_t)card;
    m->by[at] = (int8_t)seat;
    hand_remove(me, card);
    hand_add(me, wild);
    return true;
}

/* Makes the swaps an action lists, if it lists any, in order. */
static bool swap_wilds(amt_state *s, int seat, const json_t *action,
                       bool end_of_round, rules_error *err)
{
    const json_t *swaps = json_object_get(action, "swaps");
    if (swaps == NULL)
        return true;
    if (end_of_round)
        return rules_fail(err, "the end of the round is not a full turn: "
                               "no wilds may be swapped");
    if (!json_is_array(swaps) || json_array_size(swaps) == 0)
        return rules_fail(err, "swaps must be a list of wild swaps");
    size_t i;
    const json_t *sw;
    json_array_foreach(swaps, i, sw) {
        if (!swap_wild(s, seat, sw, err))
            return false;
    }
    return true;
}

/* Reads the melds an action lists into play, taking their cards out of
 * seat's hand; each must be a set, run or pair as the rules shape them. */
static bool take_melds(amt_state *s, int seat, const json_t *action,
                       amt_play *play, rules_error *err)
{
    amt_player *me = &s->players[seat];
    const json_t *melds = json_object_get(action, "melds");
    if (!json_is_array(melds) || json_array_size(melds) == 0 ||
        json_array_size(melds) > AMT_MAX_PATTERN_MELDS)
        return rules_fail(err, "a pattern lists its melds, like "
                               "set:B4,R4,Y4,G4");
    size_t i;
    const json_t *meld;
    json_array_foreach(melds, i, meld) {
        const char *kind_name =
            json_string_value(json_object_get(meld, "kind"));
        int kind = amt_kind_find(kind_name != NULL ? kind_name : "");
        const json_t *cards = json_object_get(meld, "cards");
        if (kind < 0 || !json_is_array(cards) || json_array_size(cards) == 0 ||
            json_array_size(cards) > AMT_MAX_NUMBER)
            return rules_fail(err, "each meld is a set, run or pair of cards");
        size_t k;
        const json_t *jc;
        json_array_foreach(cards, k, jc) {
            char name[AMT_NAME_LEN];
            if (!read_card(jc, name, err))
                return false;
            int card = hand_find(me, name);
            if (card < 0)
                return rules_fail(err, "you do not hold %s for that pattern",
                                  name);
            hand_remove(me, card);
            play->cards[i][k] = (int16_t)card;
        }
        play->kind[i] = kind;
        play->count[i] = (int)json_array_size(cards);
        int colour, number;
        if (!amt_meld_shape(kind, play->cards[i], play->count[i], &colour,
                            &number, err))
            return false;
    }
    play->melds = (int)json_array_size(melds);
    return true;
}

/* The melds must be the pattern's (all of them, or at the round's end with
 * partial plays allowed, some of them), each exactly its size. */
static bool check_melds_fit(const amt_state *s, const amt_play *play,
                            bool end_of_round, rules_error *err)
{
    const amt_pattern *pat = amt_pattern_get(play->mark);
    bool taken[AMT_MAX_PATTERN_MELDS] = {false};
    for (int m = 0; m < play->melds; m++) {
        bool matched = false;
        for (int q = 0; q < pat->melds && !matched; q++) {
            if (!taken[q] && pat->kind[q] == play->kind[m] &&
                pat->size[q] == play->count[m]) {
                taken[q] = matched = true;
            }
        }
        if (!matched)
            return rules_fail(err, "%s is made of exactly %s; you may not "
                                   "play more cards than the pattern states",
                              pat->title, pat->title);
    }
    if (play->melds < pat->melds && (!end_of_round || !amt_partial_end(s)))
        return rules_fail(err, "collection patterns may only be played when "
                               "they are complete");
    return true;
}

/* Reads a pattern action for seat and checks it against the rules,
 * working on s (swaps made, cards taken out of the hand): the caller
 * passes a scratch copy when it must not keep those changes. */
static bool read_pattern(amt_state *s, int seat, const json_t *action,
                         bool end_of_round, amt_play *play, rules_error *err)
{
    memset(play, 0, sizeof *play);
    if (!read_mark(s, seat, action, play, err))
        return false;
    int before[AMT_WILD_TYPES];
    count_wilds(&s->players[seat], before);
    if (!swap_wilds(s, seat, action, end_of_round, err) ||
        !take_melds(s, seat, action, play, err) ||
        !check_melds_fit(s, play, end_of_round, err))
        return false;
    int after[AMT_WILD_TYPES];
    count_wilds(&s->players[seat], after);
    for (int t = 0; t < AMT_WILD_TYPES; t++) {
        if (after[t] > before[t])
            return rules_fail(err, "a swapped wild must be played with your "
                                   "collection pattern on the same turn");
    }
    return true;
}

static void after_hand_change(amt_state *s, int seat)
{
    if (s->players[seat].hand_count == 0) {
        end_round(s);
    }
}

static bool act_pattern(amt_state *s, int seat, const json_t *action,
                        rules_error *err)
{
    if (s->players[seat].laid)
        return rules_fail(err, "you may lay down only one collection pattern "
                               "per round; add to melds instead");
    amt_play play;
    if (!read_pattern(s, seat, action, false, &play, err))
        return false;
    lay_play(s, seat, &play);
    after_hand_change(s, seat);
    return true;
}

static bool act_add(amt_state *s, int seat, const json_t *action,
                    rules_error *err)
{
    amt_player *me = &s->players[seat];
    if (!me->laid)
        return rules_fail(err, "you may add to melds only after laying down "
                               "your own collection pattern");
    const json_t *jo = json_object_get(action, "owner");
    const json_t *jm = json_object_get(action, "meld");
    if (!json_is_integer(jo) || !json_is_integer(jm))
        return rules_fail(err, "an add names a meld by its owner and number");
    int mi = meld_named(s, jo, jm);
    if (mi < 0)
        return rules_fail(err, "there is no such meld on the table");
    char name[AMT_NAME_LEN];
    if (!read_card(json_object_get(action, "card"), name, err))
        return false;
    int card = hand_find(me, name);
    if (card < 0)
        return rules_fail(err, "you do not hold %s", name);
    amt_meld *m = &s->melds[mi];
    bool wild = amt_card_get(card).wild;
    const json_t *jend = json_object_get(action, "end");
    bool at_low;
    if (m->kind == AMT_RUN && wild) {
        const char *end = json_string_value(jend);
        if (end == NULL || (strcmp(end, "low") != 0 &&
                            strcmp(end, "high") != 0))
            return rules_fail(err, "say which end of the run the wild goes "
                                   "to: low or high");
        at_low = strcmp(end, "low") == 0;
    } else {
        if (jend != NULL)
            return rules_fail(err, "only a wild added to a run names an end");
        at_low = m->kind == AMT_RUN && amt_meld_accepts(m, card, true);
    }
    if (!amt_meld_accepts(m, card, at_low))
        return rules_fail(err, m->kind == AMT_SET
                                   ? "only cards of the set's number join a set"
                               : m->kind == AMT_PAIR
                                   ? "only cards of the pair's colour and "
                                     "number join a pair"
                                   : "cards join a suited run only at its "
                                     "beginning or end, in its colour");
    if (m->count >= AMT_MELD_CARDS)
        return rules_fail(err, "that meld is full");
    if (at_low) {
        memmove(m->cards + 1, m->cards, (size_t)m->count * sizeof m->cards[0]);
        memmove(m->by + 1, m->by, (size_t)m->count * sizeof m->by[0]);
        m->cards[0] = (int16_t)card;
        m->by[0] = (int8_t)seat;
        m->number--;
    } else {
        m->cards[m->count] = (int16_t)card;
        m->by[m->count] = (int8_t)seat;
    }
    m->count++;
    hand_remove(me, card);
    after_hand_change(s, seat);
    return true;
}

static bool act_discard(amt_state *s, int seat, const json_t *action,
                        rules_error *err)
{
    amt_player *me = &s->players[seat];
    char name[AMT_NAME_LEN];
    if (!read_card(json_object_get(action, "card"), name, err))
        return false;
    int card = hand_find(me, name);
    if (card < 0)
        return rules_fail(err, "you do not hold %s", name);
    hand_remove(me, card);
    s->discard[s->discard_count++] = (int16_t)card;
    if (me->hand_count == 0) {
        end_round(s);
        return true;
    }
    /* RULING: a discard that leaves the draw pile empty ends the round. */
    if (s->draw_count == 0) {
        end_round(s);
        return true;
    }
    s->turn = (seat + 1) % s->seats;
    s->phase = AMT_PHASE_DRAW;
    s->window = true;
    for (int p = 0; p < s->seats; p++)
        s->players[p].claim = AMT_CLAIM_NONE;
    return true;
}

bool amt_read_end_play(const amt_state *s, int seat, const json_t *action,
                       amt_play *play, rules_error *err)
{
    amt_state *scratch = malloc(sizeof *scratch);
    if (scratch == NULL)
        abort();
    memcpy(scratch, s, sizeof *scratch);
    bool ok = read_pattern(scratch, seat, action, true, play, err);
    free(scratch);
    return ok;
}

static bool apply_end_phase(amt_state *s, int seat, const char *type,
                            const json_t *action, rules_error *err)
{
    amt_player *me = &s->players[seat];
    if (strcmp(type, "pass") == 0) {
        me->end = AMT_END_PASSED;
    } else if (strcmp(type, "pattern") == 0) {
        amt_play play;
        if (!amt_read_end_play(s, seat, action, &play, err))
            return false;
        me->end_play = play;
        me->end = AMT_END_PLAYED;
    } else {
        return rules_fail(err, "at the round's end you may only lay cards for "
                               "a collection pattern or pass");
    }
    for (int p = 0; p < s->seats; p++) {
        if (s->players[p].end == AMT_END_WAITING)
            return true;
    }
    resolve_end_plays(s);
    return true;
}

static bool dispatch(amt_state *s, int seat, const json_t *action,
                     rules_error *err)
{
    const char *type = action_type(action);
    if (type == NULL)
        return rules_fail(err, "a move is a JSON object with a \"type\"");
    switch (s->phase) {
    case AMT_PHASE_DRAW:
        return apply_draw_phase(s, seat, type, err);
    case AMT_PHASE_PLAY:
        if (strcmp(type, "discard") == 0)
            return act_discard(s, seat, action, err);
        if (strcmp(type, "pattern") == 0)
            return act_pattern(s, seat, action, err);
        if (strcmp(type, "add") == 0)
            return act_add(s, seat, action, err);
        return rules_fail(err, "you have drawn: lay down a pattern, add to "
                               "melds or discard a card");
    case AMT_PHASE_ENDPLAY:
        return apply_end_phase(s, seat, type, action, err);
    default:
        return rules_fail(err, "the game is over");
    }
}

bool amt_apply(rules_state *state, int seat, const json_t *action,
               rules_error *err)
{
    amt_state *s = (amt_state *)state;
    rules_pending pending;
    amt_pending(state, &pending);
    if (pending.wait == RULES_WAIT_NOBODY)
        return rules_fail(err, "the game is over");
    if (seat < 0 || seat >= s->seats || !(pending.seats & (1u << seat)))
        return rules_fail(err, "it is not your turn to act");
    if (!json_is_object(action))
        return rules_fail(err, "a move is a JSON object with a \"type\"");
    /* Work on a copy so a rejected move leaves no trace. */
    amt_state *work = malloc(sizeof *work);
    if (work == NULL)
        abort();
    memcpy(work, s, sizeof *work);
    bool ok = dispatch(work, seat, action, err);
    if (ok)
        memcpy(s, work, sizeof *s);
    free(work);
    return ok;
}

/* ---- legal moves ---- */

#define SAMPLE_PLAYS 3
#define SAMPLE_SWAPS 2

static void add_distinct_names(const amt_player *p, char names[][AMT_NAME_LEN],
                               int *count, int16_t *ids)
{
    *count = 0;
    for (int i = 0; i < p->hand_count; i++) {
        char name[AMT_NAME_LEN];
        amt_card_name(p->hand[i], name);
        bool seen = false;
        for (int k = 0; k < *count && !seen; k++)
            seen = strcmp(names[k], name) == 0;
        if (!seen) {
            ids[*count] = p->hand[i];
            memcpy(names[(*count)++], name, AMT_NAME_LEN);
        }
    }
}

/* Sample ways to lay pattern (or, with mask, some of its melds). */
static void list_plays(const amt_state *s, int seat, int pattern,
                       unsigned mask, json_t *moves, int max)
{
    const amt_pattern *pat = amt_pattern_get(pattern);
    int kinds[AMT_MAX_PATTERN_MELDS], sizes[AMT_MAX_PATTERN_MELDS];
    int n = 0;
    for (int i = 0; i < pat->melds; i++) {
        if (mask & (1u << i)) {
            kinds[n] = pat->kind[i];
            sizes[n++] = pat->size[i];
        }
    }
    amt_play found[SAMPLE_PLAYS];
    const amt_player *p = &s->players[seat];
    int k = amt_find_plays(p->hand, p->hand_count, pattern, n, kinds, sizes,
                           found, max < SAMPLE_PLAYS ? max : SAMPLE_PLAYS);
    for (int i = 0; i < k; i++)
        json_array_append_new(moves, amt_play_action(&found[i], NULL));
}

/* Whether the hand holds a card of the same name before index h: two
 * copies of a card make the same swaps, listed once. */
static bool same_card_earlier(const amt_player *me, int h)
{
    char name[AMT_NAME_LEN], other[AMT_NAME_LEN];
    amt_card_name(me->hand[h], name);
    for (int i = 0; i < h; i++) {
        amt_card_name(me->hand[i], other);
        if (strcmp(name, other) == 0)
            return true;
    }
    return false;
}

/* Patterns laid with a wild swapped from the table. */
static void list_swap_plays(const amt_state *s, int seat, json_t *moves)
{
    const amt_player *me = &s->players[seat];
    int listed = 0;
    int open[AMT_PATTERNS];
    int n_open = open_patterns(s, seat, open);
    for (int mi = 0; mi < s->meld_count && listed < SAMPLE_SWAPS; mi++) {
        const amt_meld *m = &s->melds[mi];
        for (int h = 0; h < me->hand_count && listed < SAMPLE_SWAPS; h++) {
            int at = amt_meld_wild_for(m, me->hand[h], -1);
            if (at < 0 || same_card_earlier(me, h))
                continue;
            amt_player trial = *me;
            hand_remove(&trial, me->hand[h]);
            hand_add(&trial, m->cards[at]);
            int wild_type = amt_card_get(m->cards[at]).wild_type;
            int before = 0;
            for (int i = 0; i < me->hand_count; i++)
                before += amt_card_get(me->hand[i]).wild_type == wild_type;
            for (int o = 0; o < n_open && listed < SAMPLE_SWAPS; o++) {
                const amt_pattern *pat = amt_pattern_get(open[o]);
                amt_play found[SAMPLE_PLAYS];
                int k = amt_find_plays(trial.hand, trial.hand_count, open[o],
                                       pat->melds, pat->kind, pat->size,
                                       found, SAMPLE_PLAYS);
                for (int f = 0; f < k && listed < SAMPLE_SWAPS; f++) {
                    int used = 0;
                    for (int a = 0; a < found[f].melds; a++) {
                        for (int b = 0; b < found[f].count[a]; b++)
                            used += amt_card_get(found[f].cards[a][b])
                                        .wild_type == wild_type;
                    }
                    /* the swapped wild must be played: at most `before`
                     * wilds of its type may stay in hand */
                    int held = before + 1 - used;
                    if (held > before)
                        continue;
                    int owner = m->owner;
                    int index = 0;
                    for (int q = 0; q < mi; q++)
                        index += s->melds[q].owner == owner;
                    char name[AMT_NAME_LEN];
                    amt_card_name(me->hand[h], name);
                    json_t *swaps = json_pack("[{s:i,s:i,s:s}]", "owner",
                                              owner, "meld", index, "card",
                                              name);
                    json_array_append_new(moves,
                                          amt_play_action(&found[f], swaps));
                    json_decref(swaps);
                    listed++;
                }
            }
        }
    }
}

/* Whether mask picks a canonical sub-multiset of the pattern's melds:
 * of identical melds, the earlier ones are picked first. */
static bool canonical_mask(const amt_pattern *pat, unsigned mask)
{
    for (int i = 1; i < pat->melds; i++) {
        bool same = pat->kind[i] == pat->kind[i - 1] &&
                    pat->size[i] == pat->size[i - 1];
        if (same && (mask & (1u << i)) && !(mask & (1u << (i - 1))))
            return false;
    }
    return true;
}

static void list_end_plays(const amt_state *s, int seat, json_t *moves)
{
    json_array_append_new(moves, json_pack("{s:s}", "type", "pass"));
    int open[AMT_PATTERNS];
    int n_open = open_patterns(s, seat, open);
    for (int o = 0; o < n_open; o++) {
        const amt_pattern *pat = amt_pattern_get(open[o]);
        unsigned full = (1u << pat->melds) - 1;
        for (unsigned mask = full; mask > 0; mask--) {
            if (mask != full && !amt_partial_end(s))
                break;
            if (!canonical_mask(pat, mask))
                continue;
            list_plays(s, seat, open[o], mask, moves, 1);
        }
    }
}

static void list_play_phase(const amt_state *s, int seat, json_t *moves,
                            bool *complete)
{
    const amt_player *me = &s->players[seat];
    char names[AMT_CARDS][AMT_NAME_LEN];
    int16_t ids[AMT_CARDS];
    int distinct;
    add_distinct_names(me, names, &distinct, ids);
    for (int i = 0; i < distinct; i++)
        json_array_append_new(moves, json_pack("{s:s,s:s}", "type", "discard",
                                               "card", names[i]));
    if (me->laid) {
        for (int mi = 0; mi < s->meld_count; mi++) {
            const amt_meld *m = &s->melds[mi];
            int index = 0;
            for (int q = 0; q < mi; q++)
                index += s->melds[q].owner == m->owner;
            for (int i = 0; i < distinct; i++) {
                bool wild = amt_card_get(ids[i]).wild;
                if (m->kind == AMT_RUN && wild) {
                    for (int e = 0; e < 2; e++) {
                        if (amt_meld_accepts(m, ids[i], e == 0))
                            json_array_append_new(
                                moves,
                                json_pack("{s:s,s:i,s:i,s:s,s:s}", "type",
                                          "add", "owner", m->owner, "meld",
                                          index, "card", names[i], "end",
                                          e == 0 ? "low" : "high"));
                    }
                } else if (amt_meld_accepts(m, ids[i], true) ||
                           amt_meld_accepts(m, ids[i], false)) {
                    json_array_append_new(
                        moves, json_pack("{s:s,s:i,s:i,s:s}", "type", "add",
                                         "owner", m->owner, "meld", index,
                                         "card", names[i]));
                }
            }
        }
        return;
    }
    int open[AMT_PATTERNS];
    int n_open = open_patterns(s, seat, open);
    if (n_open == 0)
        return;
    /* Patterns are too many to list: a sample, and the list is partial. */
    *complete = false;
    for (int o = 0; o < n_open; o++) {
        const amt_pattern *pat = amt_pattern_get(open[o]);
        list_plays(s, seat, open[o], (1u << pat->melds) - 1, moves, 2);
    }
    list_swap_plays(s, seat, moves);
}

json_t *amt_legal(const rules_state *state, int seat)
{
    const amt_state *s = (const amt_state *)state;
    rules_pending pending;
    amt_pending(state, &pending);
    json_t *moves = json_array();
    bool complete = true;
    if (seat >= 0 && seat < s->seats && (pending.seats & (1u << seat))) {
        switch (s->phase) {
        case AMT_PHASE_DRAW:
            if (seat == s->turn) {
                json_array_append_new(moves, json_pack("{s:s}", "type",
                                                       "draw"));
                if (s->discard_count > 0)
                    json_array_append_new(moves, json_pack("{s:s}", "type",
                                                           "take"));
            } else {
                json_array_append_new(moves, json_pack("{s:s}", "type",
                                                       "claim"));
                json_array_append_new(moves, json_pack("{s:s}", "type",
                                                       "pass"));
            }
            break;
        case AMT_PHASE_PLAY:
            list_play_phase(s, seat, moves, &complete);
            break;
        case AMT_PHASE_ENDPLAY:
            complete = false;
            list_end_plays(s, seat, moves);
            break;
        default:
            break;
        }
    }
    return json_pack("{s:o,s:b,s:[s,s,s,s,s,s,s]}", "moves", moves,
                     "complete", complete, "forms", "draw", "take",
                     "claim | pass", "discard CARD",
                     "pattern MARK KIND:CARD,CARD,... "
                     "[swap:Pn.m:CARD[:WILD]]",
                     "add Pn.m CARD [low|high]", "pass (at the round's end)");
}
