/* moves.c: who must act (pending), whether a move is allowed (apply) and
 * every move that is (legal). What happens after a complete decision is in
 * resolve.c. */
#include "av_internal.h"

#include <stdio.h>
#include <string.h>

#define AV_SET_CAP 64

bool av_takes_part(const av_state *s, int seat)
{
    switch (s->phase) {
    case AV_PHASE_LOCATION:
    case AV_PHASE_ACTION:
    case AV_PHASE_PLAN:
    case AV_PHASE_FINAL:
        return true;
    case AV_PHASE_EXHIBIT:
        return s->lord[seat].location == AV_LOC_CASTLE &&
               s->lord[seat].play.card == AV_CARD_EXHIBIT;
    default:
        return false;
    }
}

void av_pending(const rules_state *state, rules_pending *out)
{
    const av_state *s = (const av_state *)state;
    memset(out, 0, sizeof *out);
    switch (s->phase) {
    case AV_PHASE_OVER:
        return;
    case AV_PHASE_TAKE:
        out->wait = RULES_WAIT_ONE;
        out->seats = 1u << s->auction_winner;
        snprintf(out->prompt, sizeof out->prompt,
                 "take one of the face-up collection cards");
        return;
    case AV_PHASE_STEAL:
        out->wait = RULES_WAIT_ONE;
        out->seats = 1u << av_current_thief(s);
        snprintf(out->prompt, sizeof out->prompt,
                 "steal one card from each exhibit");
        return;
    default:
        break;
    }
    out->wait = RULES_WAIT_SIMULTANEOUS;
    for (int i = 0; i < s->seats; i++) {
        if (av_takes_part(s, i) && !s->lord[i].chosen)
            out->seats |= 1u << i;
    }
    const char *prompt = "";
    switch (s->phase) {
    case AV_PHASE_LOCATION:
        snprintf(out->decision, sizeof out->decision, "t%d-location", s->turn);
        prompt = "choose a location (go castle or go auction)";
        break;
    case AV_PHASE_ACTION:
        snprintf(out->decision, sizeof out->decision, "t%d-action", s->turn);
        prompt = "choose the action card to play at the chosen location";
        break;
    case AV_PHASE_PLAN:
        snprintf(out->decision, sizeof out->decision, "t%d-plan", s->turn);
        prompt = "choose a location and an action card together";
        break;
    case AV_PHASE_EXHIBIT:
        snprintf(out->decision, sizeof out->decision, "t%d-exhibit", s->turn);
        prompt = "choose the set to exhibit";
        break;
    default:
        snprintf(out->decision, sizeof out->decision, "final-exhibit");
        prompt = "choose a set for the final exhibition";
        break;
    }
    snprintf(out->prompt, sizeof out->prompt, "%s", prompt);
}

static bool all_chosen(const av_state *s)
{
    for (int i = 0; i < s->seats; i++) {
        if (av_takes_part(s, i) && !s->lord[i].chosen)
            return false;
    }
    return true;
}

static bool wrong_type(const av_move *m, av_move_type want, const char *what,
                       rules_error *err)
{
    if (m->type != want)
        return !rules_fail(err, "now is the time to %s", what);
    return false;
}

static bool in_exhibit(const av_state *s, int thief, int card)
{
    for (int e = 0; e < s->seats; e++) {
        if ((s->lord[e].display >> card & 1) && !(s->lord[thief].robbed >> e & 1))
            return true;
    }
    return false;
}

static bool face_up(const av_state *s, int card)
{
    for (int p = 0; p < 2; p++) {
        if (s->pile_count[p] > 0 && s->pile[p][s->pile_count[p] - 1] == card)
            return true;
    }
    return false;
}

bool av_move_allowed(const av_state *s, int seat, const av_move *m,
                     rules_error *err)
{
    const av_lord *l = &s->lord[seat];
    switch (s->phase) {
    case AV_PHASE_LOCATION:
        if (wrong_type(m, AV_MOVE_GO, "choose a location (go castle or go "
                                      "auction)", err))
            return false;
        return av_location_allowed(s, seat, m->location, err);
    case AV_PHASE_ACTION:
        if (wrong_type(m, AV_MOVE_PLAY, "play an action card", err))
            return false;
        if (m->location != AV_LOC_NONE)
            return rules_fail(err, "your location is already chosen: play "
                                   "only the action card");
        return av_play_allowed(s, seat, l->location, m->play, err);
    case AV_PHASE_PLAN:
        if (wrong_type(m, AV_MOVE_PLAY, "choose a location and an action "
                                        "card (go castle play detective)",
                       err))
            return false;
        if (m->location == AV_LOC_NONE)
            return rules_fail(err, "in the combined variant you choose your "
                                   "location together with your action card");
        return av_location_allowed(s, seat, m->location, err) &&
               av_play_allowed(s, seat, m->location, m->play, err);
    case AV_PHASE_TAKE:
        if (wrong_type(m, AV_MOVE_TAKE, "take a face-up card", err))
            return false;
        if (!face_up(s, m->card))
            return rules_fail(err, "the auction winner takes one of the "
                                   "face-up collection cards");
        return true;
    case AV_PHASE_EXHIBIT:
    case AV_PHASE_FINAL:
        if (wrong_type(m, AV_MOVE_EXHIBIT, "choose the set you exhibit", err))
            return false;
        if ((m->set & ~l->hand) != 0)
            return rules_fail(err, "you can only exhibit collection cards "
                                   "from your own hand");
        if (m->set == 0 && s->phase == AV_PHASE_FINAL &&
            !av_hand_has_set(l->hand))
            return true;
        if (!av_set_valid(m->set))
            return rules_fail(err, "an exhibit is one set of at least three "
                                   "cards whose letters are equal or "
                                   "adjacent with no gap");
        if (s->phase == AV_PHASE_FINAL && m->set != av_best_set(l->hand))
            return rules_fail(err, "in the final exhibition every Lord "
                                   "shows his largest and most valuable set");
        return true;
    case AV_PHASE_STEAL:
        if (wrong_type(m, AV_MOVE_STEAL, "steal a card from an exhibit", err))
            return false;
        if (!in_exhibit(s, seat, m->card))
            return rules_fail(err, "a thief steals one card from each "
                                   "displayed exhibit he has not yet robbed");
        return true;
    default:
        return rules_fail(err, "the game is over");
    }
}

av_move av_sealed_move(const av_state *s, int seat)
{
    const av_lord *l = &s->lord[seat];
    av_move m = {0};
    switch (s->phase) {
    case AV_PHASE_LOCATION:
        m.type = AV_MOVE_GO;
        m.location = l->sealed_location;
        break;
    case AV_PHASE_ACTION:
    case AV_PHASE_PLAN:
        m.type = AV_MOVE_PLAY;
        m.location = l->sealed_location;
        m.play = l->sealed_play;
        break;
    default:
        m.type = AV_MOVE_EXHIBIT;
        m.set = l->sealed_set;
        break;
    }
    return m;
}

bool av_apply(rules_state *state, int seat, const json_t *action,
              rules_error *err)
{
    av_state *s = (av_state *)state;
    rules_pending p;
    av_pending(state, &p);
    if (seat < 0 || seat >= s->seats || !(p.seats >> seat & 1))
        return rules_fail(err, s->phase == AV_PHASE_OVER
                                   ? "the game is over"
                                   : "it is not your turn to act");
    av_move m;
    if (!av_move_decode(action, &m, err) ||
        !av_move_allowed(s, seat, &m, err))
        return false;
    av_lord *l = &s->lord[seat];
    switch (s->phase) {
    case AV_PHASE_TAKE:
        av_finish_take(s, m.card);
        return true;
    case AV_PHASE_STEAL:
        av_finish_steal(s, seat, m.card);
        return true;
    default:
        break;
    }
    l->chosen = true;
    l->sealed_location = m.location;
    l->sealed_play = m.play;
    l->sealed_set = m.set;
    if (!all_chosen(s))
        return true;
    switch (s->phase) {
    case AV_PHASE_LOCATION:
        av_reveal_locations(s);
        break;
    case AV_PHASE_ACTION:
    case AV_PHASE_PLAN:
        av_reveal_actions(s);
        break;
    case AV_PHASE_EXHIBIT:
        av_reveal_exhibits(s);
        break;
    default:
        av_reveal_final(s);
        break;
    }
    return true;
}

static void add(json_t *moves, const av_move *m)
{
    json_array_append_new(moves, av_move_encode(m));
}

static void add_plays(const av_state *s, int seat, av_location where,
                      av_location tag, json_t *moves)
{
    av_move m = {.type = AV_MOVE_PLAY, .location = tag};
    for (int c = 0; c < s->seats * AV_CHECKS_PER_LORD; c++) {
        m.play = (av_play){AV_CARD_CHECK, av_check_value(c)};
        if (av_play_allowed(s, seat, where, m.play, NULL))
            add(moves, &m);
    }
    for (int k = 0; k < 2; k++) {
        m.play = (av_play){AV_CARD_THIEF, av_thief_sack(seat, k)};
        if (av_play_allowed(s, seat, where, m.play, NULL))
            add(moves, &m);
    }
    for (int c = AV_CARD_DETECTIVE; c <= AV_CARD_NOTHING; c++) {
        m.play = (av_play){(av_card)c, 0};
        if (av_play_allowed(s, seat, where, m.play, NULL))
            add(moves, &m);
    }
}

static bool add_sets(av_cards hand, json_t *moves)
{
    static const int cap = AV_SET_CAP;
    av_cards sets[AV_SET_CAP];
    bool all;
    int n = av_sets_in(hand, sets, cap, &all);
    for (int i = 0; i < n; i++) {
        av_move m = {.type = AV_MOVE_EXHIBIT, .set = sets[i]};
        add(moves, &m);
    }
    return all;
}

json_t *av_legal(const rules_state *state, int seat)
{
    const av_state *s = (const av_state *)state;
    rules_pending p;
    av_pending(state, &p);
    json_t *moves = json_array();
    bool complete = true;
    if (seat >= 0 && seat < s->seats && (p.seats >> seat & 1)) {
        const av_lord *l = &s->lord[seat];
        av_move m = {0};
        switch (s->phase) {
        case AV_PHASE_LOCATION:
            m.type = AV_MOVE_GO;
            for (int loc = AV_LOC_AUCTION; loc <= AV_LOC_CASTLE; loc++) {
                m.location = (av_location)loc;
                if (av_location_allowed(s, seat, m.location, NULL))
                    add(moves, &m);
            }
            break;
        case AV_PHASE_ACTION:
            add_plays(s, seat, l->location, AV_LOC_NONE, moves);
            break;
        case AV_PHASE_PLAN:
            for (int loc = AV_LOC_AUCTION; loc <= AV_LOC_CASTLE; loc++) {
                if (av_location_allowed(s, seat, (av_location)loc, NULL))
                    add_plays(s, seat, (av_location)loc, (av_location)loc,
                              moves);
            }
            break;
        case AV_PHASE_TAKE:
            m.type = AV_MOVE_TAKE;
            for (int pile = 0; pile < 2; pile++) {
                if (s->pile_count[pile] == 0)
                    continue;
                m.card = s->pile[pile][s->pile_count[pile] - 1];
                add(moves, &m);
            }
            break;
        case AV_PHASE_EXHIBIT:
            complete = add_sets(l->hand, moves);
            break;
        case AV_PHASE_FINAL:
            m.type = AV_MOVE_EXHIBIT;
            m.set = av_best_set(l->hand);
            add(moves, &m);
            break;
        case AV_PHASE_STEAL:
            m.type = AV_MOVE_STEAL;
            for (int card = 0; card < AV_CARDS; card++) {
                m.card = card;
                if (in_exhibit(s, seat, card))
                    add(moves, &m);
            }
            break;
        default:
            break;
        }
    }
    return json_pack("{s:o,s:b,s:[s,s,s,s,s,s,s,s,s]}", "moves", moves,
                     "complete", complete, "forms", "go castle",
                     "go auction", "play check VALUE", "play thief SACK",
                     "play detective", "play exhibit",
                     "take CARD", "exhibit CARD CARD CARD…", "steal CARD");
}
