/* stats.c: what a die is worth right now: its face, level, attack,
 * defense, summoning and capture cost, with the card powers that change
 * them. */
#include "qq_internal.h"

#include <stddef.h>

/* The card of die d; a Strong Primordial Ooze that copies a creature is
 * that creature's card (with its glory and powers) while it copies. */
const qq_card_def *qq_card_of(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    if (die->quest_die)
        return NULL;
    if (die->copy_card >= 0)
        return &qq_cards[die->copy_card];
    return &qq_cards[st->slots[die->slot].card];
}

const qq_face *qq_face_of(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    if (die->quest_die || die->face < 0)
        return NULL;
    if (die->copy_card >= 0)
        return &qq_dice[qq_cards[die->copy_card].die].faces[die->copy_face];
    return &qq_dice[qq_card_of(st, d)->die].faces[die->face];
}

/* A creature die: a die with at least one creature face (Assistant and
 * Squire included). */
bool qq_is_creature_die(const qq_state *st, int d)
{
    const qq_card_def *card = qq_card_of(st, d);
    if (card == NULL)
        return false;
    for (int f = 0; f < 6; f++) {
        if (qq_dice[card->die].faces[f].flags & QQ_FACE_CREATURE)
            return true;
    }
    return false;
}

static bool shows_creature(const qq_state *st, int d)
{
    const qq_face *face = qq_face_of(st, d);
    return face != NULL && (face->flags & QQ_FACE_CREATURE);
}

static int power(const qq_state *st, int d)
{
    const qq_card_def *card = qq_card_of(st, d);
    return card == NULL ? QQ_POW_NONE : card->power;
}

int qq_power(const qq_state *st, int d)
{
    return power(st, d);
}

/* Whether die d shows a face with flag (QQ_FACE_). */
bool qq_shows(const qq_state *st, int d, uint8_t flag)
{
    const qq_face *face = qq_face_of(st, d);
    return face != NULL && (face->flags & flag);
}

/* Creatures of seat in its Ready Area with power pow. */
int qq_ready_power_count(const qq_state *st, int seat, int pow)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            qq_shows(st, d, QQ_FACE_CREATURE) && qq_power(st, d) == pow)
            n++;
    }
    return n;
}

bool qq_has_ready_power(const qq_state *st, int seat, int pow)
{
    return qq_ready_power_count(st, seat, pow) > 0;
}

/* Immunity and the like: is creature target protected from an effect of
 * by_seat coming from source (QQ_SRC_)? A player's own effects always
 * reach his own creatures; damage is never an effect. */
bool qq_shielded(const qq_state *st, int target, int by_seat, int source)
{
    const qq_die *die = &st->dice[target];
    if (die->quest_die || die->owner < 0 || die->owner == by_seat)
        return false;
    if (qq_card_immune(st->slots[die->slot].card))
        return true;
    const qq_face *face = qq_face_of(st, target);
    /* Mighty Devotee (* face): opponents' spells cannot target it. */
    return source == QQ_SRC_SPELL && face != NULL && face->burst == 1 &&
           (face->flags & QQ_FACE_CREATURE) &&
           power(st, target) == QQ_POW_MIGHTY_DEVOTEE;
}

/* Basic Quiddity dice of seat in its Used Pile, Active Pool and Spent
 * Pile (Primordial Ooze). */
int qq_basic_quiddity_in_play(const qq_state *st, int seat)
{
    int n = 0;
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *x = &st->dice[e];
        if (x->owner == seat && !x->quest_die &&
            qq_cards[st->slots[x->slot].card].power == QQ_POW_NONE &&
            qq_cards[st->slots[x->slot].card].kind == QQ_KIND_BASIC &&
            (x->zone == QQ_Z_USED || x->zone == QQ_Z_ACTIVE ||
             x->zone == QQ_Z_SPENT))
            n++;
    }
    return n;
}

/* A Mighty Devotee (* face) among the creatures fighting d: the spells
 * attached to d are ignored. */
static bool devotee_against(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *x = &st->dice[e];
        const qq_face *face = qq_face_of(st, e);
        if (x->owner == die->owner || face == NULL || face->burst != 1 ||
            !(face->flags & QQ_FACE_CREATURE) ||
            power(st, e) != QQ_POW_MIGHTY_DEVOTEE)
            continue;
        /* an attack: the devotee attacks from the active player's Ready
         * Area against the defender's Ready Area */
        if (die->zone == QQ_Z_READY && x->zone == QQ_Z_READY &&
            x->owner == st->turn && die->owner == st->defender)
            return true;
        /* a challenge: both bands attack each other */
        if (die->zone == QQ_Z_QUEST && x->zone == QQ_Z_QUEST &&
            st->challenge_quest >= 0 && die->quest == st->challenge_quest &&
            x->quest == die->quest)
            return true;
    }
    return false;
}
/* Creatures of seat in its Ready Area. */
static int ready_creatures(const qq_state *st, int seat)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            shows_creature(st, d))
            n++;
    }
    return n;
}

int qq_level(const qq_state *st, int d)
{
    const qq_face *face = qq_face_of(st, d);
    return face == NULL ? 0 : face->level;
}

/* Bonus from what is attached to d: spells and a Quartifact. */
static void attached_bonus(const qq_state *st, int d, int *attack,
                           int *defense)
{
    bool ignore_spells = devotee_against(st, d);
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *a = &st->dice[e];
        if (a->zone != QQ_Z_ATTACHED || a->host != d)
            continue;
        if (ignore_spells && !a->quest_die)
            continue;
        if (a->quest_die) {
            /* Immunity covers Quartifact powers, but never against the
             * carrier's own player (the DEFAULT power is none). */
            if (qq_shielded(st, d, a->owner, QQ_SRC_QUARTIFACT))
                continue;
            int bonus = qq_quartifact_bonus(st->quest_slots[a->slot].type);
            *attack += bonus;
            *defense += bonus;
            continue;
        }
        const qq_face *face = qq_face_of(st, e);
        int burst = face == NULL ? 0 : face->burst;
        switch (power(st, e)) {
        case QQ_POW_DEATH_CHARM:
            *attack += burst >= 2 ? 5 : 3;
            *defense += burst >= 2 ? 5 : 3;
            break;
        case QQ_POW_LIFE_CANTRIP:
            *defense += 4;
            break;
        default:
            break;
        }
    }
}

/* Base attack and defense of the face, with the card's own powers. */
static void base_stats(const qq_state *st, int d, int *attack, int *defense)
{
    const qq_face *face = qq_face_of(st, d);
    const qq_die *die = &st->dice[d];
    *attack = face->attack;
    *defense = face->defense;
    int p = power(st, d);
    if (face->flags & QQ_FACE_STATS_FROM_CARD) {
        int n = 0;
        if (p == QQ_POW_OOZE) {
            n = qq_basic_quiddity_in_play(st, die->owner);
            *attack = *defense = n;
        } else if (p == QQ_POW_MIGHTY_OOZE) {
            for (int s = 0; s < st->seats; s++)
                n += ready_creatures(st, s);
            *attack = *defense = n;
        } else {
            /* Strong Primordial Ooze with nothing copied (a copy uses the
             * copied card's face and power above). */
            *attack = 0;
            *defense = 5;
        }
    }
    switch (p) {
    case QQ_POW_DEVOTEE:
        if (face->burst == 1)
            *defense += 2;
        break;
    case QQ_POW_MIGHTY_DEVOTEE:
        if (face->burst == 1)
            *defense += 3;
        break;
    case QQ_POW_MIGHTY_QUAKE_DRAGON:
        *defense += face->burst == 1 ? 1 : face->burst == 2 ? 2 : 0;
        break;
    case QQ_POW_QUESTING_WIZARD:
        if (face->burst == 2)
            *defense += 1;
        break;
    case QQ_POW_STRONG_SCAVENGING_GOBLIN:
        /* +1 per other creature in the Ready Area, wherever it is itself
         * (a questing goblin counts them all) */
        if (face->burst == 1)
            *defense += ready_creatures(st, die->owner) -
                        (die->zone == QQ_Z_READY);
        break;
    default:
        break;
    }
    /* Strong Warrior of the Quay: +1/+1 to the other creatures of its
     * Ready Area. */
    if (die->zone == QQ_Z_READY) {
        for (int e = 0; e < st->dice_count; e++) {
            if (e != d && st->dice[e].owner == die->owner &&
                st->dice[e].zone == QQ_Z_READY && shows_creature(st, e) &&
                power(st, e) == QQ_POW_STRONG_WARRIOR_QUAY) {
                *attack += 1;
                *defense += 1;
            }
        }
    }
    attached_bonus(st, d, attack, defense);
}

/* Attack of creature d against seat target (-1: in a quest challenge). */
int qq_attack(const qq_state *st, int d, int target)
{
    int attack, defense;
    base_stats(st, d, &attack, &defense);
    const qq_die *die = &st->dice[d];
    if (die->flags & QQ_F_NO_ATTACK)
        return 0;
    if (die->zone == QQ_Z_READY && die->owner == st->turn)
        attack += st->attack_bonus;
    if (target >= 0 && power(st, d) == QQ_POW_WARRIOR_QUAY &&
        ready_creatures(st, target) == 1)
        attack += 3;
    return attack < 0 ? 0 : attack;
}

int qq_defense(const qq_state *st, int d)
{
    int attack, defense;
    base_stats(st, d, &attack, &defense);
    if (st->dice[d].zone == QQ_Z_READY &&
        (st->life_spell & (1u << st->dice[d].owner)))
        defense += 4;
    return defense < 0 ? 0 : defense;
}

/* Level plus the Mighty Defender of the Pale surcharges of the opponents;
 * never below zero (Quartifacts rulebook). */
int qq_summon_cost(const qq_state *st, int d)
{
    int cost = qq_level(st, d);
    int seat = st->dice[d].owner;
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *x = &st->dice[e];
        if (x->owner != seat && x->owner >= 0 && x->zone == QQ_Z_READY &&
            shows_creature(st, e) &&
            power(st, e) == QQ_POW_MIGHTY_DEFENDER_PALE)
            cost += qq_face_of(st, e)->burst;
    }
    return cost < 0 ? 0 : cost;
}

/* Quiddity the active player can still pay: the pool plus the quiddity
 * dice (and quiddity-or-re-roll dice) in the Active Pool. */
int qq_quiddity_available(const qq_state *st)
{
    int n = st->quiddity;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner != st->turn || die->zone != QQ_Z_ACTIVE)
            continue;
        const qq_face *face = qq_face_of(st, d);
        if (face->q > 0 && face->draw == 0 && !(face->flags & QQ_FACE_REROLL))
            n += face->q;
    }
    return n;
}

int qq_slot_dice(const qq_state *st, int slot)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (!st->dice[d].quest_die && st->dice[d].slot == slot &&
            st->dice[d].zone == QQ_Z_WILDS)
            n++;
    }
    return n;
}

int qq_capture_cost(const qq_state *st, int slot)
{
    int cost = qq_cards[st->slots[slot].card].cost - st->capture_discount;
    return cost < 0 ? 0 : cost;
}

/* The most a quest's "?" free capture may cost: it is the reward of the
 * quest completed this turn (QQ_P_SPECIAL follows from it). */
int qq_free_capture_limit(const qq_state *st)
{
    if (st->quest_done < 0)
        return 0;
    return qq_quest_special_cost(st->quest_slots[st->quest_done].type);
}

/* The seat whose creatures pursue quest q (not challengers), or -1. */
int qq_quest_owner(const qq_state *st, int q)
{
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->zone == QQ_Z_QUEST && die->quest == q &&
            !(die->flags & QQ_F_CHALLENGER))
            return die->owner;
    }
    return -1;
}

/* The quest die seat holds or carries on a creature, or -1. */
int qq_held_quartifact(const qq_state *st, int seat)
{
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->quest_die && die->owner == seat &&
            (die->zone == QQ_Z_HELD || die->zone == QQ_Z_ATTACHED))
            return d;
    }
    return -1;
}

int qq_empty_creature_cards(const qq_state *st)
{
    int n = 0;
    for (int s = 0; s < st->slot_count; s++) {
        if (qq_cards[st->slots[s].card].kind == QQ_KIND_CREATURE &&
            qq_slot_dice(st, s) == 0)
            n++;
    }
    return n;
}

/* Phase 3 comes before capturing: a player with creatures in the Ready
 * Area must attack (or send them questing) first. */
bool qq_must_fight(const qq_state *st)
{
    return st->phase == QQ_P_MAIN && ready_creatures(st, st->turn) > 0;
}
