/* attack.c: phase 3 against the opponents: each in seat order takes the
 * total attack of the active player's Ready Area, and chooses which of
 * his creatures takes the damage. */
#include "qq_turn.h"

#include <string.h>

static void end_combat(qq_state *st);

static int creature_count(const qq_state *st, int seat, int zone, int quest)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner == seat && die->zone == zone &&
            (quest < 0 || die->quest == quest) &&
            qq_shows(st, d, QQ_FACE_CREATURE))
            n++;
    }
    return n;
}

/* Creatures of seat in its Ready Area that may still take damage. */
static int defenders_left(const qq_state *st, int seat)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner == seat && die->zone == QQ_Z_READY &&
            !(die->flags & QQ_F_SHIELDED) && qq_shows(st, d, QQ_FACE_CREATURE))
            n++;
    }
    return n;
}

/* Attack of the active player's creature d against seat target: a
 * Strong Quake Dragon of the target keeps creatures of level 2 or less
 * from attacking him, a Mighty Witching Hag counts an attack above 3 as
 * 3 (neither reaches an immune creature). */
static int attack_against(const qq_state *st, int d, int target)
{
    bool immune = qq_shielded(st, d, target, QQ_SRC_CREATURE);
    if (!immune && qq_level(st, d) <= 2 &&
        qq_has_ready_power(st, target, QQ_POW_STRONG_QUAKE_DRAGON))
        return 0;
    int attack = qq_attack(st, d, target);
    if (!immune && attack > 3 &&
        qq_has_ready_power(st, target, QQ_POW_MIGHTY_WITCHING_HAG))
        attack = 3;
    return attack;
}

/* Mighty Deathdealer: the first creature to fall in the attack on an
 * opponent adds its attack (as it attacks that opponent) once more. */
static int mighty_deathdealer_bonus(const qq_state *st, int target)
{
    int n = 0;
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].owner == st->turn && st->dice[e].zone == QQ_Z_READY &&
            qq_shows(st, e, QQ_FACE_CREATURE) &&
            qq_power(st, e) == QQ_POW_MIGHTY_DEATHDEALER)
            n += attack_against(st, e, target);
    }
    return n;
}

static void apply_defend(qq_state *st, int d)
{
    int defense = qq_defense(st, d);
    if (st->damage >= defense) {
        int first = st->combat_kills == 0;
        int bonus = mighty_deathdealer_bonus(st, st->defender);
        qq_destroy(st, d, st->turn);
        st->victims |= 1u << st->defender;
        st->damage -= defense;
        if (first)
            st->damage += bonus;
    } else {
        st->damage = 0;  /* the creature survives; the rest is lost */
    }
}

static void continue_defense(qq_state *st)
{
    while (st->phase == QQ_P_DEFEND) {
        int left = defenders_left(st, st->defender);
        if (st->damage <= 0 || left == 0) {
            end_combat(st);
            return;
        }
        if (left > 1)
            return;
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].owner == st->defender &&
                st->dice[d].zone == QQ_Z_READY &&
                !(st->dice[d].flags & QQ_F_SHIELDED) &&
                qq_shows(st, d, QQ_FACE_CREATURE)) {
                apply_defend(st, d);
                break;
            }
        }
    }
}

static int attack_total(const qq_state *st, int target)
{
    int total = st->kept_attack;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner != st->turn || die->zone != QQ_Z_READY ||
            !qq_shows(st, d, QQ_FACE_CREATURE))
            continue;
        total += attack_against(st, d, target);
    }
    return total;
}

/* After the reactions before damage: the damage against the defender. */
void qq_start_damage(qq_state *st)
{
    int t = st->defender;
    st->damage = attack_total(st, t);
    st->phase = QQ_P_DEFEND;
    continue_defense(st);
}

/* The combat against one opponent is over: the fallen may come back
 * (reaction window), then the next opponent is attacked. */
static void end_combat(qq_state *st)
{
    st->damage = 0;
    qq_post_window(st, st->defender, QQ_R_NEXT_ATTACK);
}

/* Attacks the next opponent still to be attacked, in seat order. */
void qq_next_attack(qq_state *st)
{
    for (int k = 1; k < st->seats; k++) {
        int t = (st->turn + k) % st->seats;
        if (!(st->attack_todo & (1u << t)))
            continue;
        st->attack_todo &= ~(1u << t);
        st->combat_kills = 0;
        st->defender = t;
        /* Quake Dragon: the level-1 creatures of the defender are
         * destroyed before defenders are chosen. */
        if (qq_has_ready_power(st, st->turn, QQ_POW_QUAKE_DRAGON)) {
            for (int d = 0; d < st->dice_count; d++) {
                if (st->dice[d].owner == t && st->dice[d].zone == QQ_Z_READY &&
                    !(st->dice[d].flags & QQ_F_SHIELDED) &&
                    qq_shows(st, d, QQ_FACE_CREATURE) &&
                    qq_level(st, d) == 1 &&
                    !qq_shielded(st, d, st->turn, QQ_SRC_CREATURE)) {
                    qq_destroy(st, d, st->turn);
                    st->victims |= 1u << t;
                }
            }
        }
        /* RULING: Mighty Deathdealer's "first creature falls" counts the
         * falls to damage, not Quake Dragon's. */
        st->combat_kills = 0;
        if (attack_total(st, t) <= 0 || defenders_left(st, t) == 0) {
            end_combat(st);
            return;
        }
        st->phase = QQ_P_DEFEND;
        if (qq_open_window(st, (1u << t) | (1u << st->turn), t, QQ_R_DAMAGE))
            return;
        qq_start_damage(st);
        return;
    }
    st->defender = -1;
    st->damage = 0;
    st->phase = QQ_P_CAPTURE;
}

void qq_attack_with_the_rest(qq_state *st)
{
    st->attack_todo = 0;
    if (creature_count(st, st->turn, QQ_Z_READY, -1) > 0) {
        for (int s = 0; s < st->seats; s++) {
            if (s != st->turn && defenders_left(st, s) > 0)
                st->attack_todo |= 1u << s;
        }
    }
    qq_next_attack(st);
}

/* QQ_P_DEFEND: the defender names the creature that takes the damage
 * (when only one can, continue_defense chose it). */
qq_move_result qq_defend_move(qq_state *st, int seat, const char *type,
                              const json_t *action, rules_error *err)
{
    if (strcmp(type, "defend") != 0)
        return qq_refuse(err, "choose which creature takes the damage: "
                              "defend DIE");
    int16_t list[QQ_MAX_BAND];
    int n = qq_dice_list(st, action, list, err);
    if (n < 0)
        return QQ_MOVE_REFUSED;
    if (n != 1)
        return qq_refuse(err, "against an attack you choose one "
                              "defender at a time");
    int d = list[0];
    if (st->dice[d].owner != seat || st->dice[d].zone != QQ_Z_READY ||
        !qq_shows(st, d, QQ_FACE_CREATURE))
        return qq_refuse(err, "die %d is not a creature in your Ready "
                              "Area", d);
    if (st->dice[d].flags & QQ_F_SHIELDED)
        return qq_refuse(err, "die %d came back this turn and cannot "
                              "be damaged again", d);
    apply_defend(st, d);
    continue_defense(st);
    return QQ_MOVE_APPLIED;
}
