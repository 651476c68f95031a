/* play.c: the turn of Quarriors with the quest rules: scoring and quest
 * completion, drawing and rolling, summoning, spells, attacks, quest
 * challenges, capturing, and the end of the match. Every function here
 * works on a scratch copy: qq_apply_move may fail half way and the engine
 * then throws the copy away (engine.c). */
#include "qq_internal.h"

#include <stdio.h>
#include <string.h>

static bool shows(const qq_state *st, int d, uint8_t flag)
{
    const qq_face *face = qq_face_of(st, d);
    return face != NULL && (face->flags & flag);
}

static int power(const qq_state *st, int d)
{
    const qq_card_def *card = qq_card_of(st, d);
    return card == NULL ? QQ_POW_NONE : card->power;
}

/* Creatures of seat in its Ready Area with power pow. */
static int ready_power_count(const qq_state *st, int seat, int pow)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            shows(st, d, QQ_FACE_CREATURE) && power(st, d) == pow)
            n++;
    }
    return n;
}

static bool has_ready_power(const qq_state *st, int seat, int pow)
{
    return ready_power_count(st, seat, pow) > 0;
}

static int roll(qq_state *st)
{
    return (int)rules_rng_below(&st->rng, 6);
}

static void return_quest_die(qq_state *st, int e)
{
    qq_die *die = &st->dice[e];
    die->zone = QQ_Z_QCARD;
    die->owner = -1;
    die->host = -1;
    die->face = -1;
}

/* The die goes to its owner's Used Pile; what it carried leaves with it:
 * attached spells to their owner's Used Pile, a Quartifact back to its
 * quest card. */
static void leave_play(qq_state *st, int d)
{
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].zone != QQ_Z_ATTACHED || st->dice[e].host != d)
            continue;
        if (st->dice[e].quest_die) {
            return_quest_die(st, e);
        } else {
            st->dice[e].zone = QQ_Z_USED;
            st->dice[e].host = -1;
            st->dice[e].face = -1;
        }
    }
    qq_die *die = &st->dice[d];
    die->zone = QQ_Z_USED;
    die->face = -1;
    die->quest = -1;
    die->host = -1;
    die->flags = 0;
    die->copy_card = -1;   /* a Strong Primordial Ooze forgets its copy */
    die->copy_face = -1;
}

/* Draws n dice from seat's bag into the Active Pool and rolls them; an
 * empty bag is refilled from the Used Pile (not the Spent Pile). */
static void draw(qq_state *st, int seat, int n)
{
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int d = 0; d < st->dice_count; d++)
            count += st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_BAG;
        if (count == 0) {
            for (int d = 0; d < st->dice_count; d++) {
                if (st->dice[d].owner == seat &&
                    st->dice[d].zone == QQ_Z_USED) {
                    st->dice[d].zone = QQ_Z_BAG;
                    count++;
                }
            }
        }
        if (count == 0)
            return;   /* RULING: nothing left to draw; draw fewer */
        int k = (int)rules_rng_below(&st->rng, (uint32_t)count);
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_BAG &&
                k-- == 0) {
                st->dice[d].zone = QQ_Z_ACTIVE;
                st->dice[d].face = (int8_t)roll(st);
                break;
            }
        }
    }
}

/* Pays cost from the pool and then from quiddity dice in the Active Pool,
 * largest first; change stays in the pool. */
static bool pay(qq_state *st, int cost, rules_error *err)
{
    if (qq_quiddity_available(st) < cost)
        return rules_fail(err, "you have %d quiddity and this costs %d",
                          qq_quiddity_available(st), cost);
    while (st->quiddity < cost) {
        int best = -1, value = 0;
        for (int d = 0; d < st->dice_count; d++) {
            const qq_die *die = &st->dice[d];
            if (die->owner != st->turn || die->zone != QQ_Z_ACTIVE)
                continue;
            const qq_face *face = qq_face_of(st, d);
            if (face->q > value && face->draw == 0 &&
                !(face->flags & QQ_FACE_REROLL)) {
                best = d;
                value = face->q;
            }
        }
        /* qq_quiddity_available counts the same dice, so one is found. */
        if (best < 0)
            return rules_fail(err, "no quiddity die is left to pay with");
        st->dice[best].zone = QQ_Z_SPENT;
        st->quiddity += value;
    }
    st->quiddity -= cost;
    return true;
}

void qq_check_end(qq_state *st)
{
    if (st->phase == QQ_P_OVER)
        return;
    for (int s = 0; s < st->seats; s++) {
        if (st->players[s].glory >= st->goal)
            st->phase = QQ_P_OVER;
    }
    if (qq_empty_creature_cards(st) >= 4)
        st->phase = QQ_P_OVER;
}

/* ---- phase 1: scoring and quest completion ---- */

static void after_cull(qq_state *st);
static void begin_main(qq_state *st);

static int score_glory(const qq_state *st, int d, int scoring)
{
    const qq_face *face = qq_face_of(st, d);
    int glory = qq_card_of(st, d)->glory;
    switch (power(st, d)) {
    case QQ_POW_DEFENDER_PALE:
        if (face->burst >= 1)
            glory += scoring - 1;
        break;
    case QQ_POW_MIGHTY_QUAKE_DRAGON:
        if (face->burst == 2)
            glory += 2;
        break;
    case QQ_POW_QUESTING_WIZARD:
        if (face->burst == 2)
            glory += 1;
        break;
    default:
        break;
    }
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].zone == QQ_Z_ATTACHED && st->dice[e].host == d &&
            power(st, e) == QQ_POW_VICTORY_CANTRIP)
            glory += 2;
    }
    return glory;
}

static bool can_cull(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    if (die->owner != st->turn || die->zone != QQ_Z_USED || die->quest_die)
        return false;
    return !st->expert || st->cull_mark[d] != 0;
}

static bool any_cullable(const qq_state *st)
{
    for (int d = 0; d < st->dice_count; d++) {
        if (can_cull(st, d))
            return true;
    }
    return false;
}

static void add_glory(qq_state *st, int seat, int *part, int amount)
{
    *part += amount;
    st->players[seat].glory += amount;
}

static void after_scoring(qq_state *st);
static void next_trigger(qq_state *st);

static void score_ready(qq_state *st);

void qq_start_turn(qq_state *st)
{
    int seat = st->turn;
    st->turn_number++;
    st->quiddity = 0;
    st->captures_left = 1;
    st->capture_discount = 0;
    st->attack_bonus = 0;
    st->culls_left = 0;
    st->quest_done = -1;
    st->quest_band = 0;
    st->quest_band_left = 0;
    st->special_cost = 0;
    st->defender = -1;
    st->damage = 0;
    st->attack_todo = 0;
    st->challenge_quest = -1;
    st->scored = 0;
    st->victims = 0;
    st->life_spell = 0;
    st->life_charm = 0;
    st->kept_attack = 0;
    st->combat_kills = 0;
    st->warrior_summoned = 0;
    st->react_seat = -1;
    st->react_mask = 0;
    st->react_passed = 0;
    st->react_resume = 0;
    st->trigger = -1;
    memset(st->cull_mark, 0, sizeof st->cull_mark);
    memset(st->cull_glory, 0, sizeof st->cull_glory);
    memset(st->trigger_pow, 0, sizeof st->trigger_pow);
    for (int d = 0; d < st->dice_count; d++)
        st->dice[d].flags = 0;

    /* COMPLETING A QUEST: with creatures scoring in the Ready Area and a
     * band on a quest, the player decides which comes first. */
    bool ready = false, questing = false;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            shows(st, d, QQ_FACE_CREATURE))
            ready = true;
    }
    for (int q = 0; q < st->quest_count; q++)
        questing = questing || qq_quest_owner(st, q) == seat;
    if (ready && questing) {
        st->phase = QQ_P_FIRST;
        return;
    }
    score_ready(st);
}

/* Creatures in the Ready Area score; then their scoring powers ask. */
static void score_ready(qq_state *st)
{
    int seat = st->turn;
    qq_player *me = &st->players[seat];
    int scoring = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            shows(st, d, QQ_FACE_CREATURE))
            scoring++;
    }
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner != seat || st->dice[d].zone != QQ_Z_READY ||
            !shows(st, d, QQ_FACE_CREATURE))
            continue;
        int glory = score_glory(st, d, scoring);
        if (st->expert) {
            st->cull_mark[d] = 1;
            st->cull_glory[d] = (int8_t)glory;
        } else {
            add_glory(st, seat, &me->glory_scoring, glory);
        }
        int p = power(st, d);
        int burst = qq_face_of(st, d)->burst;
        if (p == QQ_POW_MIGHTY_QUESTING_WIZARD) {
            st->capture_discount += 2;
            st->captures_left++;
        }
        /* Scoring powers that ask their owner wait in trigger_pow. */
        int trig = QQ_POW_NONE;
        if (p == QQ_POW_DEATHDEALER || p == QQ_POW_STRONG_WITCHING_HAG ||
            p == QQ_POW_STRONG_QUESTING_WIZARD ||
            (p == QQ_POW_STRONG_DEVOTEE && burst == 1))
            trig = p;
        for (int e = 0; e < st->dice_count; e++) {
            if (st->dice[e].zone != QQ_Z_ATTACHED || st->dice[e].host != d ||
                st->dice[e].quest_die)
                continue;
            if (power(st, e) == QQ_POW_SHAPING_INCANTATION)
                st->trigger_pow[e] = QQ_POW_SHAPING_INCANTATION;
            if (p == QQ_POW_STRONG_QUESTING_WIZARD)
                st->dice[e].flags |= QQ_F_FROM_WIZARD;
        }
        leave_play(st, d);   /* attached spells keep QQ_F_FROM_WIZARD */
        st->trigger_pow[d] = (int8_t)trig;
        /* Strong Defender of the Pale: draw 1 (*) or 2 (**) dice. */
        if (p == QQ_POW_STRONG_DEFENDER_PALE && burst > 0)
            draw(st, seat, burst);
        st->culls_left++;
        st->scored++;
    }
    next_trigger(st);
}

/* The band on a quest completes it or comes home in shame (its glory and
 * quest die come after the culls). */
static void complete_quests(qq_state *st)
{
    int seat = st->turn;
    for (int q = 0; q < st->quest_count; q++) {
        if (qq_quest_owner(st, q) != seat)
            continue;
        int levels = 0, band = 0;
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].zone == QQ_Z_QUEST && st->dice[d].quest == q) {
                levels += qq_level(st, d);
                band++;
            }
        }
        bool success = levels >= qq_quests[st->quest_slots[q].type].level;
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].zone != QQ_Z_QUEST || st->dice[d].quest != q)
                continue;
            if (success && st->expert)
                st->cull_mark[d] = 2;
            leave_play(st, d);
        }
        if (success) {
            st->quest_done = q;
            st->quest_band = band;
            st->quest_band_left = band;
            st->culls_left += band;
        }
    }
}

/* After scoring: the quests (unless done first), then culls. */
static void after_scoring(qq_state *st)
{
    st->trigger = -1;
    complete_quests(st);
    qq_check_end(st);
    if (st->phase == QQ_P_OVER)
        return;
    if (st->culls_left > 0 && any_cullable(st)) {
        st->phase = QQ_P_CULL;
        return;
    }
    after_cull(st);
}

static void roll_quest_die(qq_state *st, int e)
{
    int seat = st->turn;
    int q = st->dice[e].slot;
    int face = roll(st);
    const qq_quest_face *r = &qq_quest_die_faces[face];
    if (st->dice[e].zone == QQ_Z_ATTACHED || st->dice[e].zone == QQ_Z_HELD)
        return_quest_die(st, e);   /* seized from its holder */
    switch (r->kind) {
    case QQ_QR_QUIDDITY:
        st->quiddity += r->amount;
        break;
    case QQ_QR_DICE:
        draw(st, seat, r->amount);
        break;
    case QQ_QR_SPECIAL:
        st->special_cost = qq_quest_special_cost(st->quest_slots[q].type);
        st->phase = QQ_P_SPECIAL;
        return;
    default: {
        /* A Quartifact: a player never holds two. */
        int old = qq_held_quartifact(st, seat);
        if (old >= 0)
            return_quest_die(st, old);
        st->dice[e].zone = QQ_Z_HELD;
        st->dice[e].owner = (int8_t)seat;
        st->dice[e].face = (int8_t)face;
        break;
    }
    }
    begin_main(st);
}

/* Seats (other than the completer) holding a die of quest q. */
static uint32_t quest_die_holders(const qq_state *st, int q)
{
    uint32_t mask = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->quest_die && die->slot == q && die->owner >= 0 &&
            die->owner != st->turn)
            mask |= 1u << die->owner;
    }
    return mask;
}

static int quest_die_of(const qq_state *st, int q, int seat)
{
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->quest_die && die->slot == q && die->owner == seat &&
            (seat >= 0 || die->zone == QQ_Z_QCARD))
            return d;
    }
    return -1;
}

static void after_cull(qq_state *st)
{
    int q = st->quest_done;
    if (q < 0) {
        begin_main(st);
        return;
    }
    /* Expert Rules: quest glory only when every successful creature was
     * culled. */
    if (!st->expert || st->quest_band_left == 0)
        add_glory(st, st->turn, &st->players[st->turn].glory_quest,
                  qq_quests[st->quest_slots[q].type].glory);
    qq_check_end(st);
    if (st->phase == QQ_P_OVER)
        return;
    int e = quest_die_of(st, q, -1);
    if (e >= 0) {
        roll_quest_die(st, e);
        return;
    }
    uint32_t holders = quest_die_holders(st, q);
    if (rules_seat_count(holders) > 1) {
        st->phase = QQ_P_SEIZE;
        return;
    }
    for (int s = 0; s < st->seats; s++) {
        if (holders & (1u << s)) {
            roll_quest_die(st, quest_die_of(st, q, s));
            return;
        }
    }
    /* RULING: the completer himself holds the other die and none is left:
     * he rolls the one he holds. */
    roll_quest_die(st, quest_die_of(st, q, st->turn));
}

static void begin_main(qq_state *st)
{
    draw(st, st->turn, 6);
    st->phase = QQ_P_MAIN;
}

static void end_turn(qq_state *st)
{
    for (int d = 0; d < st->dice_count; d++) {
        qq_die *die = &st->dice[d];
        if (die->owner == st->turn &&
            (die->zone == QQ_Z_ACTIVE || die->zone == QQ_Z_SPENT)) {
            die->zone = QQ_Z_USED;
            die->face = -1;
        }
    }
    st->quiddity = 0;
    st->turn = (st->turn + 1) % st->seats;
    qq_start_turn(st);
}

/* ---- phase 3: attacks and challenges ---- */

static int creature_count(const qq_state *st, int seat, int zone, int quest)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner == seat && die->zone == zone &&
            (quest < 0 || die->quest == quest) &&
            shows(st, d, QQ_FACE_CREATURE))
            n++;
    }
    return n;
}

/* Strong Deathdealer: whenever its player destroys a creature, it scores
 * at once; its attack stays in the turn's attack total (kept_attack). */
static void deathdealers_score(qq_state *st, int killer)
{
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].owner != killer || st->dice[e].zone != QQ_Z_READY ||
            !shows(st, e, QQ_FACE_CREATURE) ||
            power(st, e) != QQ_POW_STRONG_DEATHDEALER)
            continue;
        if (killer == st->turn)
            st->kept_attack += qq_attack(st, e, -1);
        add_glory(st, killer, &st->players[killer].glory_scoring,
                  score_glory(st, e, 1));
        if (killer == st->turn)
            st->scored++;
        leave_play(st, e);
    }
}

/* Mighty Ghostly Spirit: its set-aside dice are rolled when their player
 * destroys a creature: a creature face enters the Ready Area. */
static void ghosts_return(qq_state *st, int killer)
{
    for (int e = 0; e < st->dice_count; e++) {
        qq_die *x = &st->dice[e];
        if (x->owner != killer || x->zone != QQ_Z_ASIDE)
            continue;
        x->face = (int8_t)roll(st);
        if (shows(st, e, QQ_FACE_CREATURE)) {
            x->zone = QQ_Z_READY;
            x->flags = QQ_F_SHIELDED;
        } else {
            x->zone = QQ_Z_USED;
            x->face = -1;
        }
    }
}

/* d is destroyed by seat killer (-1: by no one). It leaves play to the
 * Used Pile, or where its powers send it, and is marked as fallen for the
 * reaction window. */
static void destroy(qq_state *st, int d, int killer)
{
    int owner = st->dice[d].owner;
    int p = power(st, d);
    int face = st->dice[d].face;
    int burst = qq_face_of(st, d)->burst;
    leave_play(st, d);
    qq_die *die = &st->dice[d];
    die->last_face = (int8_t)face;
    if (p == QQ_POW_MIGHTY_GHOSTLY_SPIRIT) {
        die->zone = QQ_Z_ASIDE;
    } else {
        if (p == QQ_POW_STRONG_GHOSTLY_SPIRIT ||
            (st->life_charm & (1u << owner))) {
            /* to the Active Pool, still showing its face */
            die->zone = QQ_Z_ACTIVE;
            die->face = (int8_t)face;
        }
        die->flags |= QQ_F_FELL;
    }
    if (p == QQ_POW_MIGHTY_SCAVENGING_GOBLIN && burst == 1)
        draw(st, owner, 2);
    if (killer < 0)
        return;
    st->combat_kills++;
    /* Witching Hag: 1 quiddity from each one in the Ready Area. */
    if (killer == st->turn)
        st->quiddity += ready_power_count(st, killer, QQ_POW_WITCHING_HAG);
    deathdealers_score(st, killer);
    ghosts_return(st, killer);
}

/* Creatures of seat in its Ready Area that may still take damage. */
static int defenders_left(const qq_state *st, int seat)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner == seat && die->zone == QQ_Z_READY &&
            !(die->flags & QQ_F_SHIELDED) && shows(st, d, QQ_FACE_CREATURE))
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
        has_ready_power(st, target, QQ_POW_STRONG_QUAKE_DRAGON))
        return 0;
    int attack = qq_attack(st, d, target);
    if (!immune && attack > 3 &&
        has_ready_power(st, target, QQ_POW_MIGHTY_WITCHING_HAG))
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
            shows(st, e, QQ_FACE_CREATURE) &&
            power(st, e) == QQ_POW_MIGHTY_DEATHDEALER)
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
        destroy(st, d, st->turn);
        st->victims |= 1u << st->defender;
        st->damage -= defense;
        if (first)
            st->damage += bonus;
    } else {
        st->damage = 0;  /* the creature survives; the rest is lost */
    }
}

static void next_attack(qq_state *st);
static void end_combat(qq_state *st);
static bool open_window(qq_state *st, uint32_t mask, int first, int resume);
static void post_window(qq_state *st, int first, int resume);

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
                shows(st, d, QQ_FACE_CREATURE)) {
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
            !shows(st, d, QQ_FACE_CREATURE))
            continue;
        total += attack_against(st, d, target);
    }
    return total;
}

/* After the reactions before damage: the damage against the defender. */
static void start_damage(qq_state *st)
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
    post_window(st, st->defender, QQ_R_NEXT_ATTACK);
}

/* Attacks the next opponent still to be attacked, in seat order. */
static void next_attack(qq_state *st)
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
        if (has_ready_power(st, st->turn, QQ_POW_QUAKE_DRAGON)) {
            for (int d = 0; d < st->dice_count; d++) {
                if (st->dice[d].owner == t && st->dice[d].zone == QQ_Z_READY &&
                    !(st->dice[d].flags & QQ_F_SHIELDED) &&
                    shows(st, d, QQ_FACE_CREATURE) && qq_level(st, d) == 1 &&
                    !qq_shielded(st, d, st->turn, QQ_SRC_CREATURE)) {
                    destroy(st, d, st->turn);
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
        if (open_window(st, (1u << t) | (1u << st->turn), t, QQ_R_DAMAGE))
            return;
        start_damage(st);
        return;
    }
    st->defender = -1;
    st->damage = 0;
    st->phase = QQ_P_CAPTURE;
}

static void attack_with_the_rest(qq_state *st)
{
    st->attack_todo = 0;
    if (creature_count(st, st->turn, QQ_Z_READY, -1) > 0) {
        for (int s = 0; s < st->seats; s++) {
            if (s != st->turn && defenders_left(st, s) > 0)
                st->attack_todo |= 1u << s;
        }
    }
    next_attack(st);
}

/* Damage in a challenge: each side's order of defenders. */
static int fight_side(const qq_state *st, int seat, int q, bool challenger,
                      int16_t *out)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner == seat && die->zone == QQ_Z_QUEST && die->quest == q &&
            ((die->flags & QQ_F_CHALLENGER) != 0) == challenger)
            out[n++] = (int16_t)d;
    }
    return n;
}

static int side_attack(const qq_state *st, const int16_t *band, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += qq_attack(st, band[i], -1);
    return total;
}

/* Mighty Deathdealers of a band: their attack once more after the first
 * fall (creatures in a challenge are attacking: Quartifacts rulebook,
 * GAME TERMS 3). */
static int side_bonus(const qq_state *st, const int16_t *band, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (power(st, band[i]) == QQ_POW_MIGHTY_DEATHDEALER)
            total += qq_attack(st, band[i], -1);
    }
    return total;
}

/* Which of band (in order) fall to damage; marks them in dead. bonus is
 * added once, after the first fall. */
static void take_damage(const qq_state *st, const int16_t *band, int n,
                        int damage, int bonus, bool *dead)
{
    for (int i = 0; i < n && damage > 0; i++) {
        int defense = qq_defense(st, band[i]);
        if (damage >= defense) {
            dead[band[i]] = true;
            damage -= defense;
            damage += bonus;
            bonus = 0;
        } else {
            damage = 0;
        }
    }
}

static void resolve_challenge(qq_state *st);

/* After the reactions of a challenge: each side orders its own defenders
 * in secret when the order can matter. */
static void challenge_orders(qq_state *st)
{
    int q = st->challenge_quest;
    int owner = qq_quest_owner(st, q);
    int16_t mine[QQ_MAX_BAND], theirs[QQ_MAX_BAND];
    int nm = fight_side(st, st->turn, q, true, mine);
    int nt = fight_side(st, owner, q, false, theirs);
    for (int s = 0; s < st->seats; s++)
        st->chosen[s] = -1;
    if (nm > 1 && side_attack(st, theirs, nt) > 0)
        st->chosen[st->turn] = 0;
    if (nt > 1 && side_attack(st, mine, nm) > 0)
        st->chosen[owner] = 0;
    if (st->chosen[st->turn] < 0 && st->chosen[owner] < 0) {
        resolve_challenge(st);
        return;
    }
    st->phase = QQ_P_CHALLENGE;
}

static void resolve_challenge(qq_state *st)
{
    int q = st->challenge_quest;
    int me = st->turn;
    int16_t mine[QQ_MAX_BAND], theirs[QQ_MAX_BAND];
    int nm = fight_side(st, me, q, true, mine);
    int quester = qq_quest_owner(st, q);
    int nt = fight_side(st, quester, q, false, theirs);
    if (st->chosen[me] == 1)
        memcpy(mine, st->order[me], sizeof mine[0] * (size_t)nm);
    if (st->chosen[quester] == 1)
        memcpy(theirs, st->order[quester], sizeof theirs[0] * (size_t)nt);
    bool dead[QQ_MAX_DICE] = {false};
    /* Simultaneous: both totals and all defenses before anyone falls. */
    int my_attack = side_attack(st, mine, nm);
    int their_attack = side_attack(st, theirs, nt);
    take_damage(st, theirs, nt, my_attack, side_bonus(st, mine, nm), dead);
    take_damage(st, mine, nm, their_attack, side_bonus(st, theirs, nt),
                dead);
    int killed = 0;
    for (int i = 0; i < nt; i++)
        killed += dead[theirs[i]];
    for (int s = 0; s < st->seats; s++)
        st->chosen[s] = -1;
    st->phase = QQ_P_CHALLENGE;  /* until the window or the takeover */
    for (int i = 0; i < nm; i++) {
        if (dead[mine[i]])
            destroy(st, mine[i], quester);
    }
    for (int i = 0; i < nt; i++) {
        if (dead[theirs[i]])
            destroy(st, theirs[i], me);
    }
    if (killed > 0)
        st->victims |= 1u << quester;
    add_glory(st, me, &st->players[me].glory_challenge, killed);
    post_window(st, quester, QQ_R_AFTER_CHALLENGE);
}

/* After the challenge and its reactions: take over or go home. */
static void challenge_after(qq_state *st)
{
    int q = st->challenge_quest;
    int16_t mine[QQ_MAX_BAND], theirs[QQ_MAX_BAND];
    int mine_left = fight_side(st, st->turn, q, true, mine);
    int questers_left = qq_quest_owner(st, q) >= 0
        ? fight_side(st, qq_quest_owner(st, q), q, false, theirs) : 0;
    qq_check_end(st);
    if (st->phase == QQ_P_OVER)
        return;
    if (questers_left > 0 || mine_left == 0) {
        for (int i = 0; i < mine_left; i++)
            leave_play(st, mine[i]);
        st->challenge_quest = -1;
        attack_with_the_rest(st);
        return;
    }
    st->phase = QQ_P_TAKEOVER;
}

/* ---- reaction windows ----
 * Before damage (an attack on one opponent, a challenge) the two sides may
 * cast Life spells; after a combat (or a spell that destroyed creatures)
 * the players whose creatures fell may bring them back (Shaping Cantrip,
 * Ghostly Spirit). The seats are asked in turn, from `first`; the window
 * closes when every seat of the window has passed since the last cast. */

static bool is_reaction(const qq_state *st, int e, int seat)
{
    const qq_die *x = &st->dice[e];
    return x->owner == seat && x->zone == QQ_Z_READY &&
           shows(st, e, QQ_FACE_SPELL) &&
           qq_card_of(st, e)->timing == QQ_TIME_REACTION;
}

static bool basic_quiddity_die(const qq_state *st, int e)
{
    const qq_card_def *c = &qq_cards[st->slots[st->dice[e].slot].card];
    return !st->dice[e].quest_die && c->kind == QQ_KIND_BASIC &&
           c->power == QQ_POW_NONE;
}

static bool post_window_kind(int resume)
{
    return resume == QQ_R_NEXT_ATTACK || resume == QQ_R_AFTER_CHALLENGE ||
           resume == QQ_R_MAIN;
}

/* Whether seat has something to do in the current window. */
static bool can_react(const qq_state *st, int seat)
{
    bool post = post_window_kind(st->react_resume);
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
        int p = power(st, e);
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
    if (post_window_kind(resume))
        clear_fell(st);
    switch (resume) {
    case QQ_R_DAMAGE:
        st->phase = QQ_P_DEFEND;
        start_damage(st);
        break;
    case QQ_R_NEXT_ATTACK:
        st->phase = QQ_P_DEFEND;
        next_attack(st);
        break;
    case QQ_R_CHALLENGE:
        challenge_orders(st);
        break;
    case QQ_R_AFTER_CHALLENGE:
        challenge_after(st);
        break;
    default:
        st->phase = QQ_P_MAIN;
        break;
    }
}

/* Asks the next seat of the window from seat `from` on (inclusive) that
 * has not passed and can react; closes the window when there is none. */
static void ask_from(qq_state *st, int from)
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
static bool open_window(qq_state *st, uint32_t mask, int first, int resume)
{
    st->react_mask = mask;
    st->react_passed = 0;
    st->react_resume = resume;
    for (int s = 0; s < st->seats; s++) {
        if ((mask & (1u << s)) && can_react(st, s)) {
            st->react_seat = first;
            ask_from(st, first);
            return true;
        }
    }
    st->react_mask = 0;
    st->react_resume = 0;
    return false;
}

/* The window after destructions: the owners of fallen creatures. */
static void post_window(qq_state *st, int first, int resume)
{
    uint32_t mask = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].flags & QQ_F_FELL)
            mask |= 1u << st->dice[d].owner;
    }
    if (mask != 0 && open_window(st, mask, first, resume))
        return;
    st->react_resume = resume;
    close_window(st);
}

/* A fallen creature comes back to its Ready Area showing the face it had;
 * it cannot be damaged again this turn. */
static void come_back(qq_state *st, int d)
{
    qq_die *die = &st->dice[d];
    die->zone = QQ_Z_READY;
    die->face = die->last_face;
    die->flags = QQ_F_SHIELDED;
}

/* ---- validation helpers ---- */

static bool die_arg(const qq_state *st, const json_t *action, const char *key,
                    int *out, rules_error *err)
{
    const json_t *v = json_object_get(action, key);
    if (!json_is_integer(v))
        return rules_fail(err, "name a die by its number");
    json_int_t d = json_integer_value(v);
    if (d < 0 || d >= st->dice_count)
        return rules_fail(err, "there is no die %lld", (long long)d);
    *out = (int)d;
    return true;
}

static bool own_active(const qq_state *st, int d, rules_error *err)
{
    if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_ACTIVE)
        return rules_fail(err, "die %d is not in your Active Pool", d);
    return true;
}

/* Reads "dice": a non-empty list of distinct dice numbers. */
static int dice_list(const qq_state *st, const json_t *action, int16_t *out,
                     rules_error *err)
{
    const json_t *list = json_object_get(action, "dice");
    if (!json_is_array(list) || json_array_size(list) == 0 ||
        json_array_size(list) > QQ_MAX_BAND) {
        rules_fail(err, "name the dice by their numbers");
        return -1;
    }
    int n = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= st->dice_count) {
            rules_fail(err, "there is no such die");
            return -1;
        }
        int d = (int)json_integer_value(v);
        for (int k = 0; k < n; k++) {
            if (out[k] == d) {
                rules_fail(err, "die %d is named twice", d);
                return -1;
            }
        }
        out[n++] = (int16_t)d;
    }
    return n;
}

static int slot_by_card(const qq_state *st, const json_t *action)
{
    const char *id = json_string_value(json_object_get(action, "card"));
    if (id == NULL)
        return -1;
    for (int s = 0; s < st->slot_count; s++) {
        if (strcmp(qq_cards[st->slots[s].card].id, id) == 0)
            return s;
    }
    return -1;
}

static int quest_by_name(const qq_state *st, const json_t *action)
{
    const char *id = json_string_value(json_object_get(action, "quest"));
    if (id == NULL)
        return -1;
    for (int q = 0; q < st->quest_count; q++) {
        if (strcmp(qq_quests[st->quest_slots[q].type].id, id) == 0)
            return q;
    }
    return -1;
}

static bool take_from_wilds(qq_state *st, int slot)
{
    for (int d = 0; d < st->dice_count; d++) {
        if (!st->dice[d].quest_die && st->dice[d].slot == slot &&
            st->dice[d].zone == QQ_Z_WILDS) {
            st->dice[d].zone = QQ_Z_USED;
            st->dice[d].owner = (int8_t)st->turn;
            return true;
        }
    }
    return false;
}

/* ---- the moves of each phase ---- */

static bool cull_move(qq_state *st, const char *type, const json_t *action,
                      rules_error *err)
{
    if (strcmp(type, "done") == 0) {
        after_cull(st);
        return true;
    }
    if (strcmp(type, "cull") != 0)
        return rules_fail(err, "cull a die for each creature that scored "
                               "or quested, or say done");
    int d;
    if (!die_arg(st, action, "die", &d, err))
        return false;
    if (!can_cull(st, d))
        return rules_fail(err, st->expert
                          ? "under the Expert Rules you may only cull the "
                            "dice that scored"
                          : "you may only cull a die from your Used Pile");
    st->dice[d].zone = QQ_Z_WILDS;
    st->dice[d].owner = -1;
    if (st->expert) {
        qq_player *me = &st->players[st->turn];
        if (st->cull_mark[d] == 1)
            add_glory(st, st->turn, &me->glory_scoring, st->cull_glory[d]);
        else
            st->quest_band_left--;
        st->cull_mark[d] = 0;
    }
    st->culls_left--;
    qq_check_end(st);
    if (st->phase == QQ_P_OVER)
        return true;
    if (st->culls_left == 0 || !any_cullable(st))
        after_cull(st);
    return true;
}

static bool special_move(qq_state *st, const char *type, const json_t *action,
                         rules_error *err)
{
    if (strcmp(type, "pass") != 0) {
        if (strcmp(type, "capture") != 0)
            return rules_fail(err, "the quest reward is a free capture: "
                                   "capture a card or pass");
        int slot = slot_by_card(st, action);
        if (slot < 0)
            return rules_fail(err, "that card is not in the Wilds");
        if (qq_slot_dice(st, slot) == 0)
            return rules_fail(err, "no dice are left on that card");
        if (qq_cards[st->slots[slot].card].cost > st->special_cost)
            return rules_fail(err, "the quest reward captures a die costing "
                                   "at most %d", st->special_cost);
        take_from_wilds(st, slot);
    }
    begin_main(st);
    return true;
}

static bool seize_move(qq_state *st, const char *type, const json_t *action,
                       rules_error *err)
{
    if (strcmp(type, "seize") != 0)
        return rules_fail(err, "both quest dice are held: seize one from a "
                               "player");
    const json_t *v = json_object_get(action, "seat");
    int q = st->quest_done;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) >= st->seats ||
        !(quest_die_holders(st, q) & (1u << json_integer_value(v))))
        return rules_fail(err, "you may only seize a quest die from a player "
                               "who holds one of this quest");
    roll_quest_die(st, quest_die_of(st, q, (int)json_integer_value(v)));
    return true;
}

/* Death Spell: may t be its victim in its owner's Ready Area? */
static bool death_spell_victim(const qq_state *st, int t, int seat)
{
    const qq_die *x = &st->dice[t];
    return x->owner >= 0 && x->owner != seat && x->zone == QQ_Z_READY &&
           shows(st, t, QQ_FACE_CREATURE) && qq_defense(st, t) <= 6 &&
           !qq_shielded(st, t, seat, QQ_SRC_SPELL);
}

/* Shaping Charm: the face one level higher on the die of d (the last such
 * face of the die), or -1. */
static int face_one_higher(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    int card = die->copy_card >= 0 ? die->copy_card
                                   : st->slots[die->slot].card;
    const qq_face *faces = qq_dice[qq_cards[card].die].faces;
    int want = qq_level(st, d) + 1, found = -1;
    for (int f = 0; f < 6; f++) {
        if ((faces[f].flags & QQ_FACE_CREATURE) && faces[f].level == want)
            found = f;
    }
    return found;
}

static bool death_spell(qq_state *st, int seat, const json_t *action,
                        rules_error *err)
{
    int16_t list[QQ_MAX_BAND];
    int n;
    if (json_object_get(action, "targets") != NULL) {
        json_t *tmp = json_pack("{s:O}", "dice",
                                json_object_get(action, "targets"));
        n = dice_list(st, tmp, list, err);
        json_decref(tmp);
    } else {
        int t;
        if (!die_arg(st, action, "target", &t, err))
            return rules_fail(err, "Death Spell names one creature of each "
                                   "opponent");
        list[0] = (int16_t)t;
        n = 1;
    }
    if (n < 0)
        return false;
    if (json_object_get(action, "targets") != NULL && n < 2)
        return rules_fail(err, "name a single victim as the target");
    uint32_t hit = 0;
    for (int i = 0; i < n; i++) {
        int t = list[i];
        if (!death_spell_victim(st, t, seat))
            return rules_fail(err, "Death Spell destroys an opponent's "
                                   "creature of defense 6 or less in his "
                                   "Ready Area");
        if (hit & (1u << st->dice[t].owner))
            return rules_fail(err, "Death Spell destroys one creature per "
                                   "opponent");
        hit |= 1u << st->dice[t].owner;
        if (i > 0 && list[i] < list[i - 1])
            return rules_fail(err, "name the victims in increasing order");
    }
    for (int t = 0; t < st->dice_count; t++) {
        if (death_spell_victim(st, t, seat) &&
            !(hit & (1u << st->dice[t].owner)))
            return rules_fail(err, "Death Spell destroys one creature in "
                                   "each opponent's Ready Area that has one "
                                   "of defense 6 or less");
    }
    for (int i = 0; i < n; i++)
        destroy(st, list[i], seat);
    return true;
}

/* Casts spell d of seat: standard spells in phase 2 (Victory Spell in
 * phase 4, after the attacks), reaction spells in a reaction window. */
static bool cast_spell(qq_state *st, int seat, int d, const json_t *action,
                       rules_error *err)
{
    if (st->dice[d].owner != seat || st->dice[d].zone != QQ_Z_READY ||
        !shows(st, d, QQ_FACE_SPELL))
        return rules_fail(err, "die %d is not a spell in your Ready Area", d);
    const qq_face *face = qq_face_of(st, d);
    int t = -1;
    int p = power(st, d);
    bool reaction = qq_card_of(st, d)->timing == QQ_TIME_REACTION;
    if (st->phase == QQ_P_REACT && !reaction)
        return rules_fail(err, "only reaction spells are cast while "
                               "reacting");
    if (st->phase != QQ_P_REACT && reaction)
        return rules_fail(err, "a reaction spell is cast during an attack "
                               "or a challenge, when you may react");
    if (st->phase == QQ_P_CAPTURE && p != QQ_POW_VICTORY_SPELL)
        return rules_fail(err, "after the attacks only Victory Spell is "
                               "cast");
    if (st->phase == QQ_P_MAIN && p == QQ_POW_VICTORY_SPELL)
        return rules_fail(err, "Victory Spell is cast only after your "
                               "attack phase");
    bool post = post_window_kind(st->react_resume);
    if (st->phase == QQ_P_REACT &&
        (p == QQ_POW_SHAPING_CANTRIP) != post)
        return rules_fail(err, p == QQ_POW_SHAPING_CANTRIP
                          ? "Shaping Cantrip answers a creature destroyed "
                            "in this combat"
                          : "Life spells are cast before the damage");
    bool needs_target = p == QQ_POW_DEATH_CHARM || p == QQ_POW_LIFE_CANTRIP ||
                        p == QQ_POW_VICTORY_CANTRIP ||
                        p == QQ_POW_DEATH_INCANTATION ||
                        p == QQ_POW_SHAPING_SPELL ||
                        p == QQ_POW_SHAPING_INCANTATION ||
                        p == QQ_POW_LIFE_INCANTATION ||
                        p == QQ_POW_SHAPING_CANTRIP;
    if (p == QQ_POW_DEATH_SPELL) {
        /* target or targets: checked by death_spell */
    } else if (needs_target) {
        if (!die_arg(st, action, "target", &t, err))
            return rules_fail(err, "this spell needs a target die");
    } else if (json_object_get(action, "target") != NULL) {
        return rules_fail(err, "this spell takes no target");
    }
    if (p != QQ_POW_DEATH_SPELL && json_object_get(action, "targets") != NULL)
        return rules_fail(err, "this spell takes at most one target");
    bool destroys = false;
    switch (p) {
    case QQ_POW_DEATH_CANTRIP:
        if (face->burst < 1)
            return rules_fail(err, "Death Cantrip needs a * or ** face");
        st->attack_bonus += face->burst >= 2 ? 3 : 2;
        break;
    case QQ_POW_GROWTH_CHARM:
        st->quiddity += 3;
        break;
    case QQ_POW_VICTORY_INCANTATION:
        add_glory(st, seat, &st->players[seat].glory_spell, 3);
        break;
    case QQ_POW_VICTORY_CHARM:
        if (st->scored < 2)
            return rules_fail(err, "Victory Charm needs 2 or more of your "
                                   "creatures to have scored this turn");
        add_glory(st, seat, &st->players[seat].glory_spell, st->scored);
        break;
    case QQ_POW_VICTORY_SPELL:
        add_glory(st, seat, &st->players[seat].glory_spell,
                  rules_seat_count(st->victims));
        break;
    case QQ_POW_SHAPING_CHARM:
        for (int e = 0; e < st->dice_count; e++) {
            if (st->dice[e].owner != seat || st->dice[e].zone != QQ_Z_READY ||
                !shows(st, e, QQ_FACE_CREATURE))
                continue;
            int f = face_one_higher(st, e);
            if (f < 0)
                continue;
            if (st->dice[e].copy_card >= 0)
                st->dice[e].copy_face = (int8_t)f;
            else
                st->dice[e].face = (int8_t)f;
        }
        break;
    case QQ_POW_DEATH_CHARM:
    case QQ_POW_LIFE_CANTRIP:
    case QQ_POW_VICTORY_CANTRIP:
    case QQ_POW_SHAPING_INCANTATION:
        if (p == QQ_POW_DEATH_CHARM && face->burst < 1)
            return rules_fail(err, "Death Charm needs a * or ** face");
        if (st->dice[t].owner != seat || st->dice[t].zone != QQ_Z_READY ||
            !shows(st, t, QQ_FACE_CREATURE))
            return rules_fail(err, "attach a spell to a creature in your "
                                   "Ready Area");
        st->dice[d].zone = QQ_Z_ATTACHED;
        st->dice[d].host = (int16_t)t;
        return true;
    case QQ_POW_DEATH_INCANTATION:
        if (face->burst < 1)
            return rules_fail(err, "Death Incantation needs a * or ** face");
        if (st->dice[t].zone != QQ_Z_READY || !shows(st, t, QQ_FACE_CREATURE))
            return rules_fail(err, "Death Incantation destroys a creature in "
                                   "a Ready Area");
        if (qq_shielded(st, t, seat, QQ_SRC_SPELL))
            return rules_fail(err, "that creature is protected from your "
                                   "spells");
        if (face->burst == 1 && qq_level(st, t) > 2)
            return rules_fail(err, "on a * face Death Incantation only "
                                   "destroys a creature of level 2 or less");
        destroy(st, t, seat);
        destroys = true;
        break;
    case QQ_POW_DEATH_SPELL:
        if (face->burst < 1)
            return rules_fail(err, "Death Spell needs a * or ** face");
        if (!death_spell(st, seat, action, err))
            return false;
        destroys = true;
        break;
    case QQ_POW_SHAPING_SPELL:
        if (t == d || st->dice[t].zone != QQ_Z_READY ||
            !shows(st, t, QQ_FACE_SPELL))
            return rules_fail(err, "Shaping Spell destroys another spell die "
                                   "in a Ready Area");
        leave_play(st, t);
        break;
    case QQ_POW_LIFE_CHARM:
        st->life_charm |= 1u << seat;
        break;
    case QQ_POW_LIFE_SPELL:
        st->life_spell |= 1u << seat;
        break;
    case QQ_POW_LIFE_INCANTATION:
        if ((st->dice[t].zone != QQ_Z_READY &&
             st->dice[t].zone != QQ_Z_QUEST) ||
            !shows(st, t, QQ_FACE_CREATURE))
            return rules_fail(err, "Life Incantation sets the attack of a "
                                   "creature in play to 0");
        if (qq_shielded(st, t, seat, QQ_SRC_SPELL))
            return rules_fail(err, "that creature is protected from your "
                                   "spells");
        st->dice[t].flags |= QQ_F_NO_ATTACK;
        break;
    case QQ_POW_SHAPING_CANTRIP:
        if (st->dice[t].owner != seat || !(st->dice[t].flags & QQ_F_FELL) ||
            (st->dice[t].zone != QQ_Z_USED &&
             st->dice[t].zone != QQ_Z_ACTIVE))
            return rules_fail(err, "Shaping Cantrip brings back one of your "
                                   "creatures just destroyed");
        come_back(st, t);
        break;
    default:
        return rules_fail(err, "this spell has no power the engine can cast");
    }
    leave_play(st, d);
    if (st->phase == QQ_P_REACT) {
        st->react_passed = 0;
        ask_from(st, (seat + 1) % st->seats);
    } else if (destroys) {
        post_window(st, (seat + 1) % st->seats, QQ_R_MAIN);
    }
    return true;
}

static bool react_move(qq_state *st, int seat, const char *type,
                       const json_t *action, rules_error *err)
{
    int d, q;
    if (strcmp(type, "pass") == 0) {
        st->react_passed |= 1u << seat;
        ask_from(st, (seat + 1) % st->seats);
        return true;
    }
    if (strcmp(type, "cast") == 0) {
        if (!die_arg(st, action, "die", &d, err))
            return false;
        return cast_spell(st, seat, d, action, err);
    }
    if (strcmp(type, "revive") != 0)
        return rules_fail(err, "you may react: cast a reaction spell, "
                               "revive a Ghostly Spirit, or pass");
    if (!die_arg(st, action, "die", &d, err) ||
        !die_arg(st, action, "cull", &q, err))
        return false;
    if (!post_window_kind(st->react_resume))
        return rules_fail(err, "a Ghostly Spirit comes back after the "
                               "combat");
    if (st->dice[d].owner != seat || !(st->dice[d].flags & QQ_F_FELL) ||
        st->dice[d].zone != QQ_Z_USED ||
        qq_cards[st->slots[st->dice[d].slot].card].power !=
            QQ_POW_GHOSTLY_SPIRIT)
        return rules_fail(err, "die %d is not your Ghostly Spirit just "
                               "destroyed", d);
    if (st->dice[q].owner != seat || st->dice[q].zone != QQ_Z_USED ||
        !basic_quiddity_die(st, q))
        return rules_fail(err, "cull a Basic Quiddity die from your Used "
                               "Pile");
    st->dice[q].zone = QQ_Z_WILDS;
    st->dice[q].owner = -1;
    st->dice[q].flags = 0;
    come_back(st, d);
    st->react_passed = 0;
    ask_from(st, (seat + 1) % st->seats);
    return true;
}

/* Growth Incantation: 2 quiddity and re-roll up to 2 other own dice. */
static bool growth_incantation(qq_state *st, int d, const json_t *action,
                               rules_error *err)
{
    int16_t list[QQ_MAX_BAND];
    int n = 0;
    if (json_object_get(action, "dice") != NULL) {
        n = dice_list(st, action, list, err);
        if (n < 0)
            return false;
        if (n > 2)
            return rules_fail(err, "Growth Incantation re-rolls up to 2 "
                                   "dice");
        for (int i = 0; i < n; i++) {
            if (list[i] == d || !own_active(st, list[i], err))
                return rules_fail(err, "re-roll other dice of your Active "
                                       "Pool");
            if (i > 0 && list[i] < list[i - 1])
                return rules_fail(err, "name the dice in increasing order");
        }
    }
    st->dice[d].zone = QQ_Z_SPENT;
    st->quiddity += 2;
    for (int i = 0; i < n; i++)
        st->dice[list[i]].face = (int8_t)roll(st);
    return true;
}

static bool use_immediate(qq_state *st, int d, const json_t *action,
                          rules_error *err)
{
    if (!own_active(st, d, err))
        return false;
    if (!shows(st, d, QQ_FACE_SPELL))
        return rules_fail(err, "die %d does not show a spell", d);
    if (power(st, d) != QQ_POW_GROWTH_INCANTATION &&
        json_object_get(action, "dice") != NULL)
        return rules_fail(err, "only Growth Incantation re-rolls dice");
    switch (power(st, d)) {
    case QQ_POW_GROWTH_CANTRIP:
        st->dice[d].zone = QQ_Z_SPENT;
        st->quiddity += 2;
        st->captures_left++;
        return true;
    case QQ_POW_GROWTH_SPELL:
        st->dice[d].zone = QQ_Z_SPENT;
        st->quiddity += 2;
        draw(st, st->turn, 1);
        return true;
    case QQ_POW_GROWTH_INCANTATION:
        return growth_incantation(st, d, action, err);
    default:
        return rules_fail(err, "only immediate spells are used from the "
                               "Active Pool");
    }
}

static bool fight_move(qq_state *st, const char *type, const json_t *action,
                       rules_error *err)
{
    int16_t band[QQ_MAX_BAND];
    if (strcmp(type, "attack") == 0) {
        attack_with_the_rest(st);
        return true;
    }
    if (!st->quests)
        return rules_fail(err, "this match is played without the quests");
    int q = quest_by_name(st, action);
    if (q < 0)
        return rules_fail(err, "that quest is not in the Quest Area");
    int n = dice_list(st, action, band, err);
    if (n < 0)
        return false;
    for (int i = 1; i < n; i++) {
        if (band[i] < band[i - 1])
            return rules_fail(err, "name the band's dice in increasing "
                                   "order");
    }
    for (int i = 0; i < n; i++) {
        int d = band[i];
        if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
            !shows(st, d, QQ_FACE_CREATURE))
            return rules_fail(err, "die %d is not a creature in your Ready "
                                   "Area", d);
        if (power(st, d) == QQ_POW_ASSISTANT_REROLL)
            return rules_fail(err, "Assistants never go questing; they stay "
                                   "in the Ready Area");
    }
    int owner = qq_quest_owner(st, q);
    bool challenge = strcmp(type, "challenge") == 0;
    if (!challenge && owner >= 0)
        return rules_fail(err, "you can only start a quest that is empty");
    if (challenge && (owner < 0 || owner == st->turn))
        return rules_fail(err, "you can only challenge a quest an opponent's "
                               "creatures are on");
    for (int i = 0; i < n; i++) {
        qq_die *die = &st->dice[band[i]];
        die->zone = QQ_Z_QUEST;
        die->quest = (int8_t)q;
        if (challenge)
            die->flags |= QQ_F_CHALLENGER;
    }
    if (!challenge) {
        attack_with_the_rest(st);
        return true;
    }
    /* The challenge: first the reactions of both sides, then each side
     * orders its own defenders. */
    st->challenge_quest = q;
    st->phase = QQ_P_CHALLENGE;
    if (!open_window(st, (1u << owner) | (1u << st->turn), owner,
                     QQ_R_CHALLENGE))
        challenge_orders(st);
    return true;
}

/* Strong Primordial Ooze d may copy target: a creature in an opponent's
 * Ready Area. */
static bool copy_target(const qq_state *st, int d, int target)
{
    const qq_die *x = &st->dice[target];
    return x->owner >= 0 && x->owner != st->dice[d].owner &&
           x->zone == QQ_Z_READY && shows(st, target, QQ_FACE_CREATURE) &&
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

static bool main_move(qq_state *st, const char *type, const json_t *action,
                      rules_error *err)
{
    int d;
    if (strcmp(type, "attack") == 0 || strcmp(type, "quest") == 0 ||
        strcmp(type, "challenge") == 0) {
        if (!qq_must_fight(st))
            return rules_fail(err, "you have no creature in your Ready Area "
                                   "to attack or quest with");
        return fight_move(st, type, action, err);
    }
    if (strcmp(type, "capture") == 0 || strcmp(type, "end") == 0) {
        if (qq_must_fight(st))
            return rules_fail(err, "your creatures in the Ready Area attack "
                                   "(or quest) before you capture (phase 3 "
                                   "comes before phase 4)");
        st->phase = QQ_P_CAPTURE;
        return false;  /* handled by the capture phase: see qq_apply_move */
    }
    if (strcmp(type, "summon") == 0) {
        if (!die_arg(st, action, "die", &d, err) || !own_active(st, d, err))
            return false;
        if (!shows(st, d, QQ_FACE_CREATURE))
            return rules_fail(err, "only a die showing a creature can be "
                                   "summoned");
        int p = power(st, d);
        if (p != QQ_POW_STRONG_OOZE && json_object_get(action, "copy"))
            return rules_fail(err, "only a Strong Primordial Ooze copies a "
                                   "creature");
        if (p == QQ_POW_MIGHTY_WARRIOR_QUAY && st->warrior_summoned)
            return rules_fail(err, "you may summon at most one Warrior of "
                                   "the Quay per turn");
        int target = -1;
        if (p == QQ_POW_STRONG_OOZE) {
            if (json_object_get(action, "copy") != NULL) {
                if (!die_arg(st, action, "copy", &target, err))
                    return false;
                if (!copy_target(st, d, target))
                    return rules_fail(err, "copy a creature in an "
                                           "opponent's Ready Area");
            } else if (any_copy_target(st, d)) {
                return rules_fail(err, "a Strong Primordial Ooze copies a "
                                       "creature of an opponent's Ready Area "
                                       "when it can: summon DIE CREATURE");
            }
        }
        if (!pay(st, qq_summon_cost(st, d), err))
            return false;
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
            /* every Warrior of the Quay of the other players falls */
            bool fell = false;
            for (int e = 0; e < st->dice_count; e++) {
                const qq_die *x = &st->dice[e];
                if (x->owner < 0 || x->owner == st->turn ||
                    x->zone != QQ_Z_READY || !shows(st, e, QQ_FACE_CREATURE) ||
                    strcmp(qq_card_of(st, e)->klass, "Warrior of the Quay") ||
                    qq_shielded(st, e, st->turn, QQ_SRC_CREATURE))
                    continue;
                destroy(st, e, st->turn);
                fell = true;
            }
            if (fell)
                post_window(st, (st->turn + 1) % st->seats, QQ_R_MAIN);
        }
        return true;
    }
    if (strcmp(type, "copy") == 0) {
        int target;
        if (!die_arg(st, action, "die", &d, err) ||
            !die_arg(st, action, "target", &target, err))
            return false;
        if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
            !shows(st, d, QQ_FACE_CREATURE) ||
            qq_cards[st->slots[st->dice[d].slot].card].power !=
                QQ_POW_STRONG_OOZE)
            return rules_fail(err, "die %d is not a Strong Primordial Ooze in "
                                   "your Ready Area", d);
        if (st->dice[d].flags & QQ_F_COPIED)
            return rules_fail(err, "a Strong Primordial Ooze changes its "
                                   "copy once per turn");
        if (!copy_target(st, d, target))
            return rules_fail(err, "copy a creature in an opponent's Ready "
                                   "Area");
        set_copy(st, d, target);
        st->dice[d].flags |= QQ_F_COPIED;
        return true;
    }
    if (strcmp(type, "turn") == 0) {
        if (!die_arg(st, action, "die", &d, err) || !own_active(st, d, err))
            return false;
        if (power(st, d) != QQ_POW_PORTAL || qq_face_of(st, d)->draw == 0)
            return rules_fail(err, "only a Portal showing a draw is turned");
        for (int e = 0; e < st->dice_count; e++) {
            if (st->dice[e].owner == st->turn &&
                (st->dice[e].zone == QQ_Z_BAG ||
                 st->dice[e].zone == QQ_Z_USED) &&
                power(st, e) != QQ_POW_PORTAL)
                return rules_fail(err, "a Portal is turned to 1 quiddity only "
                                       "when nothing but Portals is left to "
                                       "draw");
        }
        const qq_face *faces = qq_dice[qq_card_of(st, d)->die].faces;
        for (int f = 0; f < 6; f++) {
            if (faces[f].q == 1 && faces[f].draw == 0 && faces[f].flags == 0) {
                st->dice[d].face = (int8_t)f;
                return true;
            }
        }
        return rules_fail(err, "this Portal has no 1-quiddity face");
    }
    if (strcmp(type, "ready") == 0) {
        if (!die_arg(st, action, "die", &d, err) || !own_active(st, d, err))
            return false;
        if (!shows(st, d, QQ_FACE_SPELL))
            return rules_fail(err, "only a die showing a spell can be "
                                   "readied");
        if (qq_card_of(st, d)->timing == QQ_TIME_IMMEDIATE)
            return rules_fail(err, "an immediate spell is used when rolled, "
                                   "never readied");
        st->dice[d].zone = QQ_Z_READY;
        st->dice[d].flags |= QQ_F_SUMMONED;
        return true;
    }
    if (strcmp(type, "use") == 0) {
        if (!die_arg(st, action, "die", &d, err))
            return false;
        return use_immediate(st, d, action, err);
    }
    if (strcmp(type, "cast") == 0) {
        if (!die_arg(st, action, "die", &d, err))
            return false;
        return cast_spell(st, st->turn, d, action, err);
    }
    if (strcmp(type, "reroll") == 0) {
        if (!die_arg(st, action, "die", &d, err) || !own_active(st, d, err))
            return false;
        const qq_face *face = qq_face_of(st, d);
        /* Questing Wizard (* quiddity face): instead of the quiddity, draw
         * and roll one more die and roll this one again. */
        bool wizard = power(st, d) == QQ_POW_QUESTING_WIZARD &&
                      face->burst == 1 && !(face->flags & QQ_FACE_CREATURE);
        if (!(face->flags & (QQ_FACE_REROLL | QQ_FACE_EITHER_REROLL)) &&
            !wizard)
            return rules_fail(err, "die %d does not show a re-roll", d);
        int other = -1;
        if (json_object_get(action, "other") != NULL) {
            if (power(st, d) != QQ_POW_ASSISTANT_REROLL)
                return rules_fail(err, "only the Assistant re-rolls another "
                                       "die with itself");
            if (!die_arg(st, action, "other", &other, err) ||
                !own_active(st, other, err))
                return false;
            if (other == d)
                return rules_fail(err, "the other die must be another die");
        }
        int draws = wizard ? 1 : face->draw;
        st->dice[d].face = (int8_t)roll(st);
        if (other >= 0)
            st->dice[other].face = (int8_t)roll(st);
        if (draws > 0)
            draw(st, st->turn, draws);
        return true;
    }
    if (strcmp(type, "draw") == 0) {
        if (!die_arg(st, action, "die", &d, err) || !own_active(st, d, err))
            return false;
        const qq_face *face = qq_face_of(st, d);
        /* Mighty Questing Wizard (* quiddity face): spent for 2 dice
         * instead of its quiddity. */
        if (power(st, d) == QQ_POW_MIGHTY_QUESTING_WIZARD &&
            face->burst == 1 && !(face->flags & QQ_FACE_CREATURE)) {
            st->dice[d].zone = QQ_Z_SPENT;
            draw(st, st->turn, 2);
            return true;
        }
        if (face->draw == 0 || (face->flags & QQ_FACE_REROLL))
            return rules_fail(err, "die %d does not show a draw-and-roll", d);
        /* The die is spent before drawing, so a refill does not take it. */
        st->dice[d].zone = QQ_Z_SPENT;
        st->quiddity += face->q;
        draw(st, st->turn, face->draw);
        return true;
    }
    if (strcmp(type, "attach") == 0) {
        if (!die_arg(st, action, "die", &d, err))
            return false;
        int e = qq_held_quartifact(st, st->turn);
        if (e < 0 || st->dice[e].zone != QQ_Z_HELD)
            return rules_fail(err, "you hold no Quartifact to attach");
        if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
            !shows(st, d, QQ_FACE_CREATURE) ||
            !(st->dice[d].flags & QQ_F_SUMMONED))
            return rules_fail(err, "a Quartifact is attached to a creature "
                                   "you summoned this turn");
        st->dice[e].zone = QQ_Z_ATTACHED;
        st->dice[e].host = (int16_t)d;
        return true;
    }
    return rules_fail(err, "in phase 2 you may summon, ready, use, cast, "
                           "reroll, draw, attach, then attack, quest start "
                           "or challenge (or capture / end with no "
                           "creatures)");
}

static bool capture_move(qq_state *st, const char *type, const json_t *action,
                         rules_error *err)
{
    if (strcmp(type, "end") == 0) {
        end_turn(st);
        return true;
    }
    if (strcmp(type, "cast") == 0) {
        int d;
        if (!die_arg(st, action, "die", &d, err))
            return false;
        return cast_spell(st, st->turn, d, action, err);
    }
    if (strcmp(type, "capture") != 0)
        return rules_fail(err, "in phase 4 you may capture a die or end "
                               "your turn");
    int slot = slot_by_card(st, action);
    if (slot < 0)
        return rules_fail(err, "that card is not in the Wilds");
    if (st->captures_left <= 0)
        return rules_fail(err, "you have no capture left this turn");
    if (qq_slot_dice(st, slot) == 0)
        return rules_fail(err, "no dice are left on that card");
    if (!pay(st, qq_capture_cost(st, slot), err))
        return false;
    take_from_wilds(st, slot);
    st->captures_left--;
    qq_check_end(st);
    if (st->phase != QQ_P_OVER && st->captures_left == 0)
        end_turn(st);
    return true;
}

/* ---- scoring powers that give their owner a choice ---- */

static bool wizard_spell(const qq_state *st, int e)
{
    const qq_die *x = &st->dice[e];
    if (x->owner != st->turn || x->quest_die ||
        qq_cards[st->slots[x->slot].card].kind != QQ_KIND_SPELL)
        return false;
    return x->zone == QQ_Z_ACTIVE || x->zone == QQ_Z_READY ||
           x->zone == QQ_Z_ATTACHED ||
           (x->zone == QQ_Z_USED && (x->flags & QQ_F_FROM_WIZARD));
}

static bool trade_ok(const qq_state *st, int e, int slot)
{
    const qq_die *x = &st->dice[e];
    if (x->owner != st->turn || x->zone != QQ_Z_USED || x->quest_die)
        return false;
    int left = qq_slot_dice(st, slot) + (x->slot == slot);
    return left > 0 && qq_cards[st->slots[slot].card].cost <=
                           qq_cards[st->slots[x->slot].card].cost + 3;
}

static bool devotee_ok(const qq_state *st, int slot)
{
    const qq_card_def *c = &qq_cards[st->slots[slot].card];
    return c->kind == QQ_KIND_SPELL && c->cost <= 4 &&
           qq_slot_dice(st, slot) > 0;
}

/* Whether the scoring power of d still has something to choose. */
static bool trigger_has_option(const qq_state *st, int d)
{
    int p = st->trigger_pow[d];
    for (int e = 0; e < st->dice_count; e++) {
        const qq_die *x = &st->dice[e];
        switch (p) {
        case QQ_POW_DEATHDEALER:
            if (st->dice[d].owner == st->turn &&
                st->dice[d].zone == QQ_Z_USED && x->zone == QQ_Z_USED &&
                x->owner >= 0 && x->owner != st->turn)
                return true;
            break;
        case QQ_POW_STRONG_WITCHING_HAG:
            if (e != d && x->owner == st->turn && x->zone == QQ_Z_USED &&
                qq_is_creature_die(st, e))
                return true;
            break;
        case QQ_POW_STRONG_QUESTING_WIZARD:
            if (wizard_spell(st, e))
                return true;
            break;
        case QQ_POW_SHAPING_INCANTATION:
            for (int s = 0; s < st->slot_count; s++) {
                if (trade_ok(st, e, s))
                    return true;
            }
            break;
        default:
            break;
        }
    }
    if (p == QQ_POW_STRONG_DEVOTEE) {
        for (int s = 0; s < st->slot_count; s++) {
            if (devotee_ok(st, s))
                return true;
        }
    }
    return false;
}

/* The next scoring power to resolve, in die order; then the quests. */
static void next_trigger(qq_state *st)
{
    for (int d = 0; d < st->dice_count; d++) {
        if (st->trigger_pow[d] == QQ_POW_NONE)
            continue;
        if (trigger_has_option(st, d)) {
            st->trigger = d;
            st->phase = QQ_P_TRIGGER;
            return;
        }
        st->trigger_pow[d] = QQ_POW_NONE;
    }
    for (int d = 0; d < st->dice_count; d++)
        st->dice[d].flags &= (uint8_t)~QQ_F_FROM_WIZARD;
    after_scoring(st);
}

static bool trigger_move(qq_state *st, const char *type, const json_t *action,
                         rules_error *err)
{
    int d = st->trigger, e;
    int p = st->trigger_pow[d];
    int seat = st->turn;
    if (strcmp(type, "pass") == 0) {
        st->trigger_pow[d] = QQ_POW_NONE;
        next_trigger(st);
        return true;
    }
    if (p == QQ_POW_DEATHDEALER && strcmp(type, "exchange") == 0) {
        if (!die_arg(st, action, "die", &e, err))
            return false;
        qq_die *x = &st->dice[e];
        if (x->zone != QQ_Z_USED || x->owner < 0 || x->owner == seat)
            return rules_fail(err, "Deathdealer is exchanged for a die of "
                                   "another player's Used Pile");
        st->dice[d].owner = x->owner;
        x->owner = (int8_t)seat;
        st->cull_mark[d] = 0;
    } else if (p == QQ_POW_STRONG_DEVOTEE && strcmp(type, "capture") == 0) {
        int slot = slot_by_card(st, action);
        if (slot < 0 || !devotee_ok(st, slot))
            return rules_fail(err, "Strong Devotee captures a spell die "
                                   "costing 4 or less");
        take_from_wilds(st, slot);
        for (e = st->dice_count - 1; e >= 0; e--) {
            if (st->dice[e].owner == seat && st->dice[e].zone == QQ_Z_USED &&
                st->dice[e].slot == slot && !st->dice[e].quest_die) {
                st->dice[e].zone = QQ_Z_BAG;   /* into the bag */
                break;
            }
        }
    } else if (p == QQ_POW_STRONG_WITCHING_HAG &&
               strcmp(type, "recall") == 0) {
        if (!die_arg(st, action, "die", &e, err))
            return false;
        if (e == d || st->dice[e].owner != seat ||
            st->dice[e].zone != QQ_Z_USED || !qq_is_creature_die(st, e))
            return rules_fail(err, "Strong Witching Hag takes another "
                                   "creature die from your Used Pile");
        st->dice[e].zone = QQ_Z_ACTIVE;
        st->dice[e].face = (int8_t)roll(st);
        st->cull_mark[e] = 0;
    } else if (p == QQ_POW_STRONG_QUESTING_WIZARD &&
               strcmp(type, "cull") == 0) {
        if (!die_arg(st, action, "die", &e, err))
            return false;
        if (!wizard_spell(st, e))
            return rules_fail(err, "Strong Questing Wizard culls your spell "
                                   "dice from the Active Pool or Ready "
                                   "Area");
        qq_die *x = &st->dice[e];
        x->zone = QQ_Z_WILDS;
        x->owner = -1;
        x->face = -1;
        x->host = -1;
        x->flags = 0;
        st->cull_mark[e] = 0;
        add_glory(st, seat, &st->players[seat].glory_scoring, 1);
        if (trigger_has_option(st, d))
            return true;   /* cull more or pass */
    } else if (p == QQ_POW_SHAPING_INCANTATION &&
               strcmp(type, "trade") == 0) {
        if (!die_arg(st, action, "die", &e, err))
            return false;
        int slot = slot_by_card(st, action);
        if (slot < 0 || !trade_ok(st, e, slot))
            return rules_fail(err, "Shaping Incantation culls a die of your "
                                   "Used Pile for a Quarry die costing at "
                                   "most 3 more");
        st->dice[e].zone = QQ_Z_WILDS;
        st->dice[e].owner = -1;
        st->dice[e].flags = 0;
        st->cull_mark[e] = 0;
        take_from_wilds(st, slot);
    } else {
        return rules_fail(err, "use the scoring power of die %d or pass", d);
    }
    st->trigger_pow[d] = QQ_POW_NONE;
    next_trigger(st);
    return true;
}

/* Primordial Ooze is destroyed when its player has no Basic Quiddity die
 * in play (checked after every move outside a fight). */
static void ooze_check(qq_state *st)
{
    if (st->phase != QQ_P_MAIN && st->phase != QQ_P_CAPTURE &&
        st->phase != QQ_P_CULL && st->phase != QQ_P_TRIGGER &&
        st->phase != QQ_P_SPECIAL && st->phase != QQ_P_SEIZE)
        return;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *x = &st->dice[d];
        if ((x->zone == QQ_Z_READY || x->zone == QQ_Z_QUEST) &&
            shows(st, d, QQ_FACE_CREATURE) &&
            power(st, d) == QQ_POW_OOZE &&
            qq_basic_quiddity_in_play(st, x->owner) == 0) {
            destroy(st, d, -1);
            st->dice[d].flags &= (uint8_t)~QQ_F_FELL;
        }
    }
}

/* QQ_P_FIRST: the Ready Area scores first, or the quest is completed
 * first (its band then is in the Used Pile while the scoring powers
 * act). */
static bool first_move(qq_state *st, const char *type, const json_t *action,
                       rules_error *err)
{
    const char *what = json_string_value(json_object_get(action, "do"));
    if (strcmp(type, "first") != 0 || what == NULL ||
        (strcmp(what, "score") != 0 && strcmp(what, "quest") != 0))
        return rules_fail(err, "creatures score and a quest is completed: "
                               "say which comes first (first score or "
                               "first quest)");
    if (strcmp(what, "quest") == 0)
        complete_quests(st);
    score_ready(st);
    return true;
}

static bool challenge_move(qq_state *st, int seat, const char *type,
                           const json_t *action, rules_error *err)
{
    if (strcmp(type, "defend") != 0)
        return rules_fail(err, "in a quest challenge each side orders its own "
                               "defenders: defend DIE DIE ...");
    int16_t list[QQ_MAX_BAND], band[QQ_MAX_BAND];
    int n = dice_list(st, action, list, err);
    if (n < 0)
        return false;
    int q = st->challenge_quest;
    int nb = fight_side(st, seat, q, seat == st->turn, band);
    if (n != nb)
        return rules_fail(err, "order all %d of your creatures in the "
                               "challenge", nb);
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int k = 0; k < nb; k++)
            found = found || band[k] == list[i];
        if (!found)
            return rules_fail(err, "die %d is not one of your creatures in "
                                   "the challenge", list[i]);
    }
    memcpy(st->order[seat], list, sizeof list[0] * (size_t)n);
    st->order_len[seat] = n;
    st->chosen[seat] = 1;
    for (int s = 0; s < st->seats; s++) {
        if (st->chosen[s] == 0)
            return true;
    }
    resolve_challenge(st);
    return true;
}

static bool takeover_move(qq_state *st, const char *type, rules_error *err)
{
    bool take = strcmp(type, "take") == 0;
    if (!take && strcmp(type, "leave") != 0)
        return rules_fail(err, "you wiped out the questers: take over the "
                               "quest or leave");
    for (int d = 0; d < st->dice_count; d++) {
        qq_die *die = &st->dice[d];
        if (die->zone != QQ_Z_QUEST || !(die->flags & QQ_F_CHALLENGER))
            continue;
        if (take)
            die->flags &= (uint8_t)~QQ_F_CHALLENGER;
        else
            leave_play(st, d);
    }
    st->challenge_quest = -1;
    attack_with_the_rest(st);
    return true;
}

void qq_pending(const qq_state *st, rules_pending *out)
{
    memset(out, 0, sizeof *out);
    static const char *const prompts[] = {
        [QQ_P_CULL] = "cull a die for each creature that scored, or done",
        [QQ_P_SEIZE] = "seize the quest die from a player who holds one",
        [QQ_P_SPECIAL] = "quest reward: capture a die for free, or pass",
        [QQ_P_MAIN] = "summon, ready, use dice; then attack or quest",
        [QQ_P_DEFEND] = "choose the creature that takes the damage",
        [QQ_P_CHALLENGE] = "order your defenders in the quest challenge",
        [QQ_P_TAKEOVER] = "take over the quest, or leave",
        [QQ_P_CAPTURE] = "capture a die from the Wilds, or end your turn",
        [QQ_P_REACT] = "cast a reaction spell (or revive), or pass",
        [QQ_P_TRIGGER] = "use the power of a creature that scored, or pass",
        [QQ_P_FIRST] = "score your creatures or complete your quest first",
    };
    if (st->phase == QQ_P_OVER)
        return;
    snprintf(out->prompt, sizeof out->prompt, "%s", prompts[st->phase]);
    if (st->phase == QQ_P_CHALLENGE) {
        out->wait = RULES_WAIT_SIMULTANEOUS;
        for (int s = 0; s < st->seats; s++) {
            if (st->chosen[s] == 0)
                out->seats |= 1u << s;
        }
        snprintf(out->decision, sizeof out->decision, "t%d-challenge-%s",
                 st->turn_number,
                 qq_quests[st->quest_slots[st->challenge_quest].type].id);
        return;
    }
    out->wait = RULES_WAIT_ONE;
    out->seats = 1u << (st->phase == QQ_P_DEFEND ? st->defender
                        : st->phase == QQ_P_REACT ? st->react_seat
                                                  : st->turn);
}

static bool apply_inner(qq_state *st, int seat, const json_t *action,
                        rules_error *err);

bool qq_apply_move(qq_state *st, int seat, const json_t *action,
                   rules_error *err)
{
    if (!apply_inner(st, seat, action, err))
        return false;
    ooze_check(st);
    return true;
}

static bool apply_inner(qq_state *st, int seat, const json_t *action,
                        rules_error *err)
{
    rules_pending p;
    qq_pending(st, &p);
    if (seat < 0 || seat >= st->seats || !(p.seats & (1u << seat)))
        return rules_fail(err, st->phase == QQ_P_OVER
                          ? "the match is over"
                          : "it is not your turn to act");
    const char *type = json_string_value(json_object_get(action, "type"));
    if (!json_is_object(action) || type == NULL)
        return rules_fail(err, "a move needs a type");
    switch (st->phase) {
    case QQ_P_CULL:
        return cull_move(st, type, action, err);
    case QQ_P_SEIZE:
        return seize_move(st, type, action, err);
    case QQ_P_SPECIAL:
        return special_move(st, type, action, err);
    case QQ_P_MAIN:
        if (main_move(st, type, action, err))
            return true;
        if (st->phase != QQ_P_CAPTURE)
            return false;
        return capture_move(st, type, action, err);
    case QQ_P_DEFEND: {
        if (strcmp(type, "defend") != 0)
            return rules_fail(err, "choose which creature takes the damage: "
                                   "defend DIE");
        int16_t list[QQ_MAX_BAND];
        int n = dice_list(st, action, list, err);
        if (n < 0)
            return false;
        if (n != 1)
            return rules_fail(err, "against an attack you choose one "
                                   "defender at a time");
        int d = list[0];
        if (st->dice[d].owner != seat || st->dice[d].zone != QQ_Z_READY ||
            !shows(st, d, QQ_FACE_CREATURE))
            return rules_fail(err, "die %d is not a creature in your Ready "
                                   "Area", d);
        if (st->dice[d].flags & QQ_F_SHIELDED)
            return rules_fail(err, "die %d came back this turn and cannot "
                                   "be damaged again", d);
        apply_defend(st, d);
        continue_defense(st);
        return true;
    }
    case QQ_P_CHALLENGE:
        return challenge_move(st, seat, type, action, err);
    case QQ_P_TAKEOVER:
        return takeover_move(st, type, err);
    case QQ_P_REACT:
        return react_move(st, seat, type, action, err);
    case QQ_P_TRIGGER:
        return trigger_move(st, type, action, err);
    case QQ_P_FIRST:
        return first_move(st, type, action, err);
    case QQ_P_CAPTURE:
        return capture_move(st, type, action, err);
    default:
        return rules_fail(err, "the match is over");
    }
}
