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

static bool has_ready_power(const qq_state *st, int seat, int pow)
{
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            shows(st, d, QQ_FACE_CREATURE) && power(st, d) == pow)
            return true;
    }
    return false;
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

void qq_start_turn(qq_state *st)
{
    int seat = st->turn;
    qq_player *me = &st->players[seat];
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
    memset(st->cull_mark, 0, sizeof st->cull_mark);
    memset(st->cull_glory, 0, sizeof st->cull_glory);
    for (int d = 0; d < st->dice_count; d++)
        st->dice[d].flags = 0;

    /* Creatures in the Ready Area score. */
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
        if (power(st, d) == QQ_POW_MIGHTY_QUESTING_WIZARD) {
            st->capture_discount += 2;
            st->captures_left++;
        }
        leave_play(st, d);
        st->culls_left++;
    }

    /* The band on a quest completes it or comes home in shame. */
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

/* d is destroyed by seat killer's creatures. */
static void destroy(qq_state *st, int d, int killer)
{
    leave_play(st, d);
    if (killer >= 0 && has_ready_power(st, killer, QQ_POW_WITCHING_HAG))
        st->quiddity += 1;
}

static void apply_defend(qq_state *st, int d)
{
    int defense = qq_defense(st, d);
    if (st->damage >= defense) {
        destroy(st, d, st->turn);
        st->damage -= defense;
    } else {
        st->damage = 0;  /* the creature survives; the rest is lost */
    }
}

static void next_attack(qq_state *st);

static void continue_defense(qq_state *st)
{
    while (st->phase == QQ_P_DEFEND) {
        int left = creature_count(st, st->defender, QQ_Z_READY, -1);
        if (st->damage <= 0 || left == 0) {
            next_attack(st);
            return;
        }
        if (left > 1)
            return;
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].owner == st->defender &&
                st->dice[d].zone == QQ_Z_READY &&
                shows(st, d, QQ_FACE_CREATURE)) {
                apply_defend(st, d);
                break;
            }
        }
    }
}

static int attack_total(const qq_state *st, int target)
{
    bool strong_dragon = has_ready_power(st, target,
                                         QQ_POW_STRONG_QUAKE_DRAGON);
    bool mighty_hag = has_ready_power(st, target, QQ_POW_MIGHTY_WITCHING_HAG);
    int total = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner != st->turn || die->zone != QQ_Z_READY ||
            !shows(st, d, QQ_FACE_CREATURE))
            continue;
        if (strong_dragon && qq_level(st, d) <= 2)
            continue;
        int attack = qq_attack(st, d, target);
        if (mighty_hag && attack > 3)
            attack = 3;
        total += attack;
    }
    return total;
}

/* Attacks the next opponent still to be attacked, in seat order. */
static void next_attack(qq_state *st)
{
    for (int k = 1; k < st->seats; k++) {
        int t = (st->turn + k) % st->seats;
        if (!(st->attack_todo & (1u << t)))
            continue;
        st->attack_todo &= ~(1u << t);
        /* Quake Dragon: the level-1 creatures of the defender are
         * destroyed before defenders are chosen. */
        if (has_ready_power(st, st->turn, QQ_POW_QUAKE_DRAGON)) {
            for (int d = 0; d < st->dice_count; d++) {
                if (st->dice[d].owner == t && st->dice[d].zone == QQ_Z_READY &&
                    shows(st, d, QQ_FACE_CREATURE) && qq_level(st, d) == 1)
                    destroy(st, d, st->turn);
            }
        }
        int damage = attack_total(st, t);
        if (damage <= 0 || creature_count(st, t, QQ_Z_READY, -1) == 0)
            continue;
        st->defender = t;
        st->damage = damage;
        st->phase = QQ_P_DEFEND;
        continue_defense(st);
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
            if (s != st->turn && creature_count(st, s, QQ_Z_READY, -1) > 0)
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

/* Which of band (in order) fall to damage; marks them in dead. */
static void take_damage(const qq_state *st, const int16_t *band, int n,
                        int damage, bool *dead)
{
    for (int i = 0; i < n && damage > 0; i++) {
        int defense = qq_defense(st, band[i]);
        if (damage >= defense) {
            dead[band[i]] = true;
            damage -= defense;
        } else {
            damage = 0;
        }
    }
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
    take_damage(st, theirs, nt, my_attack, dead);
    take_damage(st, mine, nm, their_attack, dead);
    int killed = 0, questers_left = 0, mine_left = 0;
    for (int i = 0; i < nt; i++) {
        if (dead[theirs[i]])
            killed++;
        else
            questers_left++;
    }
    for (int i = 0; i < nm; i++)
        mine_left += !dead[mine[i]];
    for (int d = 0; d < st->dice_count; d++) {
        if (dead[d])
            leave_play(st, d);
    }
    add_glory(st, me, &st->players[me].glory_challenge, killed);
    for (int s = 0; s < st->seats; s++)
        st->chosen[s] = -1;
    qq_check_end(st);
    if (st->phase == QQ_P_OVER)
        return;
    if (questers_left > 0 || mine_left == 0) {
        for (int i = 0; i < nm; i++) {
            if (!dead[mine[i]])
                leave_play(st, mine[i]);
        }
        st->challenge_quest = -1;
        attack_with_the_rest(st);
        return;
    }
    st->phase = QQ_P_TAKEOVER;
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

static bool cast_spell(qq_state *st, int d, const json_t *action,
                       rules_error *err)
{
    if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_READY ||
        !shows(st, d, QQ_FACE_SPELL))
        return rules_fail(err, "die %d is not a spell in your Ready Area", d);
    const qq_face *face = qq_face_of(st, d);
    int t = -1;
    int p = power(st, d);
    bool needs_target = p == QQ_POW_DEATH_CHARM || p == QQ_POW_LIFE_CANTRIP ||
                        p == QQ_POW_VICTORY_CANTRIP ||
                        p == QQ_POW_DEATH_INCANTATION ||
                        p == QQ_POW_SHAPING_SPELL;
    if (needs_target) {
        if (!die_arg(st, action, "target", &t, err))
            return rules_fail(err, "this spell needs a target die");
    } else if (json_object_get(action, "target") != NULL) {
        return rules_fail(err, "this spell takes no target");
    }
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
        add_glory(st, st->turn, &st->players[st->turn].glory_spell, 3);
        break;
    case QQ_POW_DEATH_CHARM:
    case QQ_POW_LIFE_CANTRIP:
    case QQ_POW_VICTORY_CANTRIP:
        if (p == QQ_POW_DEATH_CHARM && face->burst < 1)
            return rules_fail(err, "Death Charm needs a * or ** face");
        if (st->dice[t].owner != st->turn || st->dice[t].zone != QQ_Z_READY ||
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
        if (face->burst == 1 && qq_level(st, t) > 2)
            return rules_fail(err, "on a * face Death Incantation only "
                                   "destroys a creature of level 2 or less");
        destroy(st, t, st->turn);
        break;
    case QQ_POW_SHAPING_SPELL:
        if (t == d || st->dice[t].zone != QQ_Z_READY ||
            !shows(st, t, QQ_FACE_SPELL))
            return rules_fail(err, "Shaping Spell destroys another spell die "
                                   "in a Ready Area");
        leave_play(st, t);
        break;
    default:
        return rules_fail(err, "this spell has no power the engine can cast");
    }
    leave_play(st, d);
    return true;
}

static bool use_immediate(qq_state *st, int d, rules_error *err)
{
    if (!own_active(st, d, err))
        return false;
    if (!shows(st, d, QQ_FACE_SPELL))
        return rules_fail(err, "die %d does not show a spell", d);
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
    /* The challenge: each side orders its own defenders in secret when
     * the order can matter. */
    st->challenge_quest = q;
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
        return true;
    }
    st->phase = QQ_P_CHALLENGE;
    return true;
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
        if (!pay(st, qq_summon_cost(st, d), err))
            return false;
        st->dice[d].zone = QQ_Z_READY;
        st->dice[d].flags |= QQ_F_SUMMONED;
        if (power(st, d) == QQ_POW_SQUIRE)
            st->captures_left++;
        if (power(st, d) == QQ_POW_SCAVENGING_GOBLIN &&
            qq_face_of(st, d)->burst == 1)
            st->quiddity += 1;
        return true;
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
        return use_immediate(st, d, err);
    }
    if (strcmp(type, "cast") == 0) {
        if (!die_arg(st, action, "die", &d, err))
            return false;
        return cast_spell(st, d, action, err);
    }
    if (strcmp(type, "reroll") == 0) {
        if (!die_arg(st, action, "die", &d, err) || !own_active(st, d, err))
            return false;
        const qq_face *face = qq_face_of(st, d);
        if (!(face->flags & (QQ_FACE_REROLL | QQ_FACE_EITHER_REROLL)))
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
        int draws = face->draw;
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
    out->seats = 1u << (st->phase == QQ_P_DEFEND ? st->defender : st->turn);
}

bool qq_apply_move(qq_state *st, int seat, const json_t *action,
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
        apply_defend(st, d);
        continue_defense(st);
        return true;
    }
    case QQ_P_CHALLENGE:
        return challenge_move(st, seat, type, action, err);
    case QQ_P_TAKEOVER:
        return takeover_move(st, type, err);
    case QQ_P_CAPTURE:
        return capture_move(st, type, action, err);
    default:
        return rules_fail(err, "the match is over");
    }
}
