/* main_phase.c: phase 2: summoning, readying, using and casting,
 * re-rolling and drawing, attaching a Quartifact; it ends with the choice
 * of phase 3: attack, go on a quest or challenge one. */
#include "qq_turn.h"

#include <string.h>

/* Strong Primordial Ooze d may copy target: a creature in an opponent's
 * Ready Area. */
static bool copy_target(const qq_state *st, int d, int target)
{
    const qq_die *x = &st->dice[target];
    return x->owner >= 0 && x->owner != st->dice[d].owner &&
           x->zone == QQ_Z_READY && qq_shows(st, target, QQ_FACE_CREATURE) &&
           !qq_shielded(st, target, st->dice[d].owner, QQ_SRC_CREATURE);
}

static bool any_copy_target(const qq_state *st, int d)
{
    for (int t = 0; t < st->dice_count; t++) {
        if (copy_target(st, d, t))
            return true;
    }
    return false;
}

/* The copy: the target's card and face (a copy of a copy copies what it
 * copies); attached spells are not copied. */
static void set_copy(qq_state *st, int d, int target)
{
    const qq_die *x = &st->dice[target];
    int card = x->copy_card >= 0 ? x->copy_card : st->slots[x->slot].card;
    int face = x->copy_card >= 0 ? x->copy_face : x->face;
    st->dice[d].copy_card = (int8_t)card;
    st->dice[d].copy_face = (int8_t)face;
}

/* The band in action goes on quest or into a challenge, and the rest of
 * the Ready Area attacks (attack: all of it). */
static qq_move_result start_fight(qq_state *st, const char *type,
                                  const json_t *action, rules_error *err)
{
    int16_t band[QQ_MAX_BAND];
    if (strcmp(type, "attack") == 0) {
        qq_attack_with_the_rest(st);
        return QQ_MOVE_APPLIED;
    }
    if (!st->quests)
        return qq_refuse(err, "this match is played without the quests");
    int q = qq_quest_by_name(st, action);
    if (q < 0)
        return qq_refuse(err, "that quest is not in the Quest Area");
    int n = qq_dice_list(st, action, band, err);
    if (n < 0)
        return QQ_MOVE_REFUSED;
    for (int i = 1; i < n; i++) {
        if (band[i] < band[i - 1])
            return qq_refuse(err, "name the band's dice in increasing "
                                  "order");
    }
    for (int i = 0; i < n; i++) {
        int d = band[i];
        if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
            !qq_shows(st, d, QQ_FACE_CREATURE))
            return qq_refuse(err, "die %d is not a creature in your Ready "
                                  "Area", d);
        if (qq_power(st, d) == QQ_POW_ASSISTANT_REROLL)
            return qq_refuse(err, "Assistants never go questing; they stay "
                                  "in the Ready Area");
    }
    int owner = qq_quest_owner(st, q);
    bool challenge = strcmp(type, "challenge") == 0;
    if (!challenge && owner >= 0)
        return qq_refuse(err, "you can only start a quest that is empty");
    if (challenge && (owner < 0 || owner == st->turn))
        return qq_refuse(err, "you can only challenge a quest an opponent's "
                              "creatures are on");
    for (int i = 0; i < n; i++) {
        qq_die *die = &st->dice[band[i]];
        die->zone = QQ_Z_QUEST;
        die->quest = (int8_t)q;
        if (challenge)
            die->flags |= QQ_F_CHALLENGER;
    }
    if (!challenge) {
        qq_attack_with_the_rest(st);
        return QQ_MOVE_APPLIED;
    }
    /* The challenge: first the reactions of both sides, then each side
     * orders its own defenders. */
    st->challenge_quest = q;
    st->phase = QQ_P_CHALLENGE;
    if (!qq_open_window(st, (1u << owner) | (1u << st->turn), owner,
                        QQ_R_CHALLENGE))
        qq_challenge_orders(st);
    return QQ_MOVE_APPLIED;
}

/* A Strong Primordial Ooze being summoned: the creature named by "copy"
 * (target), or -1 when it has none to copy; false, with the sentence in
 * err, when the copy is wrong or left out while one could be made. */
static bool ooze_copy_arg(const qq_state *st, int d, const json_t *action,
                          int *target, rules_error *err)
{
    if (json_object_get(action, "copy") != NULL) {
        if (!qq_die_arg(st, action, "copy", target, err))
            return false;
        if (!copy_target(st, d, *target))
            return rules_fail(err, "copy a creature in an opponent's Ready "
                                   "Area");
    } else if (any_copy_target(st, d)) {
        return rules_fail(err, "a Strong Primordial Ooze copies a "
                               "creature of an opponent's Ready Area "
                               "when it can: summon DIE CREATURE");
    }
    return true;
}

/* Mighty Warrior of the Quay, summoned: every Warrior of the Quay of the
 * other players falls (then their owners may react). */
static void rival_warriors_fall(qq_state *st)
{
    bool fell = false;
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *x = &st->dice[e];
        if (x->owner < 0 || x->owner == st->turn ||
            x->zone != QQ_Z_READY ||
            !qq_shows(st, e, QQ_FACE_CREATURE) ||
            strcmp(qq_card_of(st, e)->klass, "Warrior of the Quay") ||
            qq_shielded(st, e, st->turn, QQ_SRC_CREATURE))
            continue;
        qq_destroy(st, e, st->turn);
        fell = true;
    }
    if (fell)
        qq_post_window(st, (st->turn + 1) % st->seats, QQ_R_MAIN);
}

/* summon DIE [COPY]: a creature of the Active Pool, paid for, goes to
 * the Ready Area; its powers on summoning act. */
static qq_move_result summon_move(qq_state *st, const json_t *action,
                                  rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_own_active(st, d, err))
        return QQ_MOVE_REFUSED;
    if (!qq_shows(st, d, QQ_FACE_CREATURE))
        return qq_refuse(err, "only a die showing a creature can be "
                              "summoned");
    int p = qq_power(st, d);
    if (p != QQ_POW_STRONG_OOZE && json_object_get(action, "copy"))
        return qq_refuse(err, "only a Strong Primordial Ooze copies a "
                              "creature");
    if (p == QQ_POW_MIGHTY_WARRIOR_QUAY && st->warrior_summoned)
        return qq_refuse(err, "you may summon at most one Warrior of "
                              "the Quay per turn");
    int target = -1;
    if (p == QQ_POW_STRONG_OOZE && !ooze_copy_arg(st, d, action, &target, err))
        return QQ_MOVE_REFUSED;
    if (!qq_pay(st, qq_summon_cost(st, d), err))
        return QQ_MOVE_REFUSED;
    st->dice[d].zone = QQ_Z_READY;
    st->dice[d].flags |= QQ_F_SUMMONED;
    if (p == QQ_POW_SQUIRE)
        st->captures_left++;
    if (p == QQ_POW_SCAVENGING_GOBLIN &&
        qq_face_of(st, d)->burst == 1)
        st->quiddity += 1;
    if (target >= 0)
        set_copy(st, d, target);
    if (p == QQ_POW_MIGHTY_WARRIOR_QUAY) {
        st->warrior_summoned = 1;
        rival_warriors_fall(st);
    }
    return QQ_MOVE_APPLIED;
}

/* copy DIE TARGET: a Strong Primordial Ooze in the Ready Area changes
 * its copy, once per turn. */
static qq_move_result copy_move(qq_state *st, const json_t *action,
                                rules_error *err)
{
    int d, target;
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_die_arg(st, action, "target", &target, err))
        return QQ_MOVE_REFUSED;
    if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
        !qq_shows(st, d, QQ_FACE_CREATURE) ||
        qq_cards[st->slots[st->dice[d].slot].card].power !=
            QQ_POW_STRONG_OOZE)
        return qq_refuse(err, "die %d is not a Strong Primordial Ooze in "
                              "your Ready Area", d);
    if (st->dice[d].flags & QQ_F_COPIED)
        return qq_refuse(err, "a Strong Primordial Ooze changes its "
                              "copy once per turn");
    if (!copy_target(st, d, target))
        return qq_refuse(err, "copy a creature in an opponent's Ready "
                              "Area");
    set_copy(st, d, target);
    st->dice[d].flags |= QQ_F_COPIED;
    return QQ_MOVE_APPLIED;
}

/* turn DIE: a Portal showing a draw is turned to 1 quiddity when
 * nothing but Portals is left to draw. */
static qq_move_result turn_move(qq_state *st, const json_t *action,
                                rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_own_active(st, d, err))
        return QQ_MOVE_REFUSED;
    if (qq_power(st, d) != QQ_POW_PORTAL || qq_face_of(st, d)->draw == 0)
        return qq_refuse(err, "only a Portal showing a draw is turned");
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].owner == st->turn &&
            (st->dice[e].zone == QQ_Z_BAG ||
             st->dice[e].zone == QQ_Z_USED) &&
            qq_power(st, e) != QQ_POW_PORTAL)
            return qq_refuse(err, "a Portal is turned to 1 quiddity only "
                                  "when nothing but Portals is left to "
                                  "draw");
    }
    const qq_face *faces = qq_dice[qq_card_of(st, d)->die].faces;
    for (int f = 0; f < 6; f++) {
        if (faces[f].q == 1 && faces[f].draw == 0 && faces[f].flags == 0) {
            st->dice[d].face = (int8_t)f;
            return QQ_MOVE_APPLIED;
        }
    }
    return qq_refuse(err, "this Portal has no 1-quiddity face");
}

/* ready DIE: a spell of the Active Pool goes to the Ready Area. */
static qq_move_result ready_move(qq_state *st, const json_t *action,
                                 rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_own_active(st, d, err))
        return QQ_MOVE_REFUSED;
    if (!qq_shows(st, d, QQ_FACE_SPELL))
        return qq_refuse(err, "only a die showing a spell can be "
                              "readied");
    if (qq_card_of(st, d)->timing == QQ_TIME_IMMEDIATE)
        return qq_refuse(err, "an immediate spell is used when rolled, "
                              "never readied");
    st->dice[d].zone = QQ_Z_READY;
    st->dice[d].flags |= QQ_F_SUMMONED;
    return QQ_MOVE_APPLIED;
}

/* use DIE: an immediate spell of the Active Pool. */
static qq_move_result use_move(qq_state *st, const json_t *action,
                               rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err))
        return QQ_MOVE_REFUSED;
    return qq_applied_if(qq_use_immediate(st, d, action, err));
}

/* cast DIE: a standard spell of the Ready Area. */
static qq_move_result cast_move(qq_state *st, const json_t *action,
                                rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err))
        return QQ_MOVE_REFUSED;
    return qq_applied_if(qq_cast_spell(st, st->turn, d, action, err));
}

/* reroll DIE [OTHER]: a die showing a re-roll is rolled again (an
 * Assistant with another die), drawing what its face says. */
static qq_move_result reroll_move(qq_state *st, const json_t *action,
                                  rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_own_active(st, d, err))
        return QQ_MOVE_REFUSED;
    const qq_face *face = qq_face_of(st, d);
    /* Questing Wizard (* quiddity face): instead of the quiddity, draw
     * and roll one more die and roll this one again. */
    bool wizard = qq_power(st, d) == QQ_POW_QUESTING_WIZARD &&
                  face->burst == 1 && !(face->flags & QQ_FACE_CREATURE);
    if (!(face->flags & (QQ_FACE_REROLL | QQ_FACE_EITHER_REROLL)) &&
        !wizard)
        return qq_refuse(err, "die %d does not show a re-roll", d);
    int other = -1;
    if (json_object_get(action, "other") != NULL) {
        if (qq_power(st, d) != QQ_POW_ASSISTANT_REROLL)
            return qq_refuse(err, "only the Assistant re-rolls another "
                                  "die with itself");
        if (!qq_die_arg(st, action, "other", &other, err) ||
            !qq_own_active(st, other, err))
            return QQ_MOVE_REFUSED;
        if (other == d)
            return qq_refuse(err, "the other die must be another die");
    }
    int draws = wizard ? 1 : face->draw;
    st->dice[d].face = (int8_t)qq_roll(st);
    if (other >= 0)
        st->dice[other].face = (int8_t)qq_roll(st);
    if (draws > 0)
        qq_draw(st, st->turn, draws);
    return QQ_MOVE_APPLIED;
}

/* draw DIE: a die showing a draw-and-roll is spent for its quiddity
 * and the dice it draws. */
static qq_move_result draw_move(qq_state *st, const json_t *action,
                                rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err) ||
        !qq_own_active(st, d, err))
        return QQ_MOVE_REFUSED;
    const qq_face *face = qq_face_of(st, d);
    /* Mighty Questing Wizard (* quiddity face): spent for 2 dice
     * instead of its quiddity. */
    if (qq_power(st, d) == QQ_POW_MIGHTY_QUESTING_WIZARD &&
        face->burst == 1 && !(face->flags & QQ_FACE_CREATURE)) {
        st->dice[d].zone = QQ_Z_SPENT;
        qq_draw(st, st->turn, 2);
        return QQ_MOVE_APPLIED;
    }
    if (face->draw == 0 || (face->flags & QQ_FACE_REROLL))
        return qq_refuse(err, "die %d does not show a draw-and-roll", d);
    /* The die is spent before drawing, so a refill does not take it. */
    st->dice[d].zone = QQ_Z_SPENT;
    st->quiddity += face->q;
    qq_draw(st, st->turn, face->draw);
    return QQ_MOVE_APPLIED;
}

/* attach DIE: the Quartifact held goes onto a creature summoned this
 * turn. */
static qq_move_result attach_move(qq_state *st, const json_t *action,
                                  rules_error *err)
{
    int d;
    if (!qq_die_arg(st, action, "die", &d, err))
        return QQ_MOVE_REFUSED;
    int e = qq_held_quartifact(st, st->turn);
    if (e < 0 || st->dice[e].zone != QQ_Z_HELD)
        return qq_refuse(err, "you hold no Quartifact to attach");
    if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
        !qq_shows(st, d, QQ_FACE_CREATURE) ||
        !(st->dice[d].flags & QQ_F_SUMMONED))
        return qq_refuse(err, "a Quartifact is attached to a creature "
                              "you summoned this turn");
    st->dice[e].zone = QQ_Z_ATTACHED;
    st->dice[e].host = (int16_t)d;
    return QQ_MOVE_APPLIED;
}

/* The moves of phase 2 before the choice of phase 3, by type. */
static const struct main_move {
    const char *type;
    qq_move_result (*play)(qq_state *st, const json_t *action,
                           rules_error *err);
} main_moves[] = {
    {"summon", summon_move},
    {"copy", copy_move},
    {"turn", turn_move},
    {"ready", ready_move},
    {"use", use_move},
    {"cast", cast_move},
    {"reroll", reroll_move},
    {"draw", draw_move},
    {"attach", attach_move},
};

/* attack, quest or challenge: the choice of phase 3, made while a
 * creature stands in the Ready Area. */
static qq_move_result fight_move(qq_state *st, const char *type,
                                 const json_t *action, rules_error *err)
{
    if (!qq_must_fight(st))
        return qq_refuse(err, "you have no creature in your Ready Area "
                              "to attack or quest with");
    return start_fight(st, type, action, err);
}

/* capture or end: phase 4, once no creature is left to fight with. The
 * move itself is phase 4's to play or refuse. */
static qq_move_result leave_for_capture(qq_state *st, rules_error *err)
{
    if (qq_must_fight(st))
        return qq_refuse(err, "your creatures in the Ready Area attack "
                              "(or quest) before you capture (phase 3 "
                              "comes before phase 4)");
    st->phase = QQ_P_CAPTURE;
    return QQ_MOVE_NOT_HANDLED;
}

qq_move_result qq_main_move(qq_state *st, const char *type,
                            const json_t *action, rules_error *err)
{
    if (strcmp(type, "attack") == 0 || strcmp(type, "quest") == 0 ||
        strcmp(type, "challenge") == 0)
        return fight_move(st, type, action, err);
    if (strcmp(type, "capture") == 0 || strcmp(type, "end") == 0)
        return leave_for_capture(st, err);
    for (size_t i = 0; i < sizeof main_moves / sizeof main_moves[0]; i++) {
        if (strcmp(type, main_moves[i].type) == 0)
            return main_moves[i].play(st, action, err);
    }
    return qq_refuse(err, "in phase 2 you may summon, ready, use, cast, "
                          "reroll, draw, attach, then attack, quest start "
                          "or challenge (or capture / end with no "
                          "creatures)");
}
