/* reactions.c: reaction windows.
 * Before damage (an attack on one opponent, a challenge) the two sides may
 * cast Life spells; after a combat (or a spell that destroyed creatures)
 * the players whose creatures fell may bring them back (Shaping Cantrip,
 * Ghostly Spirit). The seats are asked in turn, from `first`; the window
 * closes when every seat of the window has passed since the last cast. */
#include "qq_turn.h"

#include <string.h>

static bool is_reaction(const qq_state *st, int e, int seat)
{
    const qq_die *x = &st->dice[e];
    return x->owner == seat && x->zone == QQ_Z_READY &&
           qq_shows(st, e, QQ_FACE_SPELL) &&
           qq_card_of(st, e)->timing == QQ_TIME_REACTION;
}

static bool basic_quiddity_die(const qq_state *st, int e)
{
    const qq_card_def *c = &qq_cards[st->slots[st->dice[e].slot].card];
    return !st->dice[e].quest_die && c->kind == QQ_KIND_BASIC &&
           c->power == QQ_POW_NONE;
}

bool qq_post_window_kind(int resume)
{
    return resume == QQ_R_NEXT_ATTACK || resume == QQ_R_AFTER_CHALLENGE ||
           resume == QQ_R_MAIN;
}

/* Whether seat has something to do in the current window. */
static bool can_react(const qq_state *st, int seat)
{
    bool post = qq_post_window_kind(st->react_resume);
    bool fell = false, ghost = false, quiddity = false;
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *x = &st->dice[e];
        if (x->owner != seat)
            continue;
        if (x->flags & QQ_F_FELL) {
            fell = true;
            ghost = ghost || (x->zone == QQ_Z_USED &&
                              qq_cards[st->slots[x->slot].card].power ==
                                  QQ_POW_GHOSTLY_SPIRIT);
        }
        if (x->zone == QQ_Z_USED && basic_quiddity_die(st, e))
            quiddity = true;
    }
    if (post && ghost && quiddity)
        return true;
    for (int e = 0; e < st->dice_count; e++) {
        if (!is_reaction(st, e, seat))
            continue;
        int p = qq_power(st, e);
        if (post ? (p == QQ_POW_SHAPING_CANTRIP && fell)
                 : (p == QQ_POW_LIFE_CHARM || p == QQ_POW_LIFE_SPELL ||
                    p == QQ_POW_LIFE_INCANTATION))
            return true;
    }
    return false;
}

static void clear_fell(qq_state *st)
{
    for (int d = 0; d < st->dice_count; d++)
        st->dice[d].flags &= (uint8_t)~QQ_F_FELL;
}

static void close_window(qq_state *st)
{
    int resume = st->react_resume;
    st->react_seat = -1;
    st->react_mask = 0;
    st->react_passed = 0;
    st->react_resume = 0;
    if (qq_post_window_kind(resume))
        clear_fell(st);
    switch (resume) {
    case QQ_R_DAMAGE:
        st->phase = QQ_P_DEFEND;
        qq_start_damage(st);
        break;
    case QQ_R_NEXT_ATTACK:
        st->phase = QQ_P_DEFEND;
        qq_next_attack(st);
        break;
    case QQ_R_CHALLENGE:
        qq_challenge_orders(st);
        break;
    case QQ_R_AFTER_CHALLENGE:
        qq_challenge_after(st);
        break;
    default:
        st->phase = QQ_P_MAIN;
        break;
    }
}

/* Asks the next seat of the window from seat `from` on (inclusive) that
 * has not passed and can react; closes the window when there is none. */
void qq_ask_from(qq_state *st, int from)
{
    for (int k = 0; k < st->seats; k++) {
        int s = (from + k) % st->seats;
        uint32_t bit = 1u << s;
        if (!(st->react_mask & bit) || (st->react_passed & bit))
            continue;
        if (!can_react(st, s)) {
            st->react_passed |= bit;
            continue;
        }
        st->react_seat = s;
        st->phase = QQ_P_REACT;
        return;
    }
    close_window(st);
}

/* Opens a window; false (nothing changed) when no seat can react. */
bool qq_open_window(qq_state *st, uint32_t mask, int first, int resume)
{
    st->react_mask = mask;
    st->react_passed = 0;
    st->react_resume = resume;
    for (int s = 0; s < st->seats; s++) {
        if ((mask & (1u << s)) && can_react(st, s)) {
            st->react_seat = first;
            qq_ask_from(st, first);
            return true;
        }
    }
    st->react_mask = 0;
    st->react_resume = 0;
    return false;
}

/* The window after destructions: the owners of fallen creatures. */
void qq_post_window(qq_state *st, int first, int resume)
{
    uint32_t mask = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].flags & QQ_F_FELL)
            mask |= 1u << st->dice[d].owner;
    }
    if (mask != 0 && qq_open_window(st, mask, first, resume))
        return;
    st->react_resume = resume;
    close_window(st);
}

/* A fallen creature comes back to its Ready Area showing the face it had;
 * it cannot be damaged again this turn. */
void qq_come_back(qq_state *st, int d)
{
    qq_die *die = &st->dice[d];
    die->zone = QQ_Z_READY;
    die->face = die->last_face;
    die->flags = QQ_F_SHIELDED;
}

qq_move_result qq_react_move(qq_state *st, int seat, const char *type,
                             const json_t *action, rules_error *err)
{
    int d, q;
    if (strcmp(type, "pass") == 0) {
        st->react_passed |= 1u << seat;
        qq_ask_from(st, (seat + 1) % st->seats);
        return QQ_MOVE_APPLIED;
    }
    if (strcmp(type, "cast") == 0) {
        if (!qq_die_arg(st, action, "die", &d, err))
            return QQ_MOVE_REFUSED;
        return qq_applied_if(qq_cast_spell(st, seat, d, action, err));
    }
    if (strcmp(type, "revive") != 0)
        return qq_refuse(err, "you may react: cast a reaction spell, "
                              "revive a Ghostly Spirit, or pass");
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_die_arg(st, action, "cull", &q, err))
        return QQ_MOVE_REFUSED;
    if (!qq_post_window_kind(st->react_resume))
        return qq_refuse(err, "a Ghostly Spirit comes back after the "
                              "combat");
    if (st->dice[d].owner != seat || !(st->dice[d].flags & QQ_F_FELL) ||
        st->dice[d].zone != QQ_Z_USED ||
        qq_cards[st->slots[st->dice[d].slot].card].power !=
            QQ_POW_GHOSTLY_SPIRIT)
        return qq_refuse(err, "die %d is not your Ghostly Spirit just "
                              "destroyed", d);
    if (st->dice[q].owner != seat || st->dice[q].zone != QQ_Z_USED ||
        !basic_quiddity_die(st, q))
        return qq_refuse(err, "cull a Basic Quiddity die from your Used "
                              "Pile");
    st->dice[q].zone = QQ_Z_WILDS;
    st->dice[q].owner = -1;
    st->dice[q].flags = 0;
    qq_come_back(st, d);
    st->react_passed = 0;
    qq_ask_from(st, (seat + 1) % st->seats);
    return QQ_MOVE_APPLIED;
}
