/* triggers.c: the scoring powers that give their owner a choice
 * (Deathdealer, Strong Devotee, Strong Witching Hag, Strong Questing
 * Wizard, Shaping Incantation), asked one by one in die order. */
#include "qq_turn.h"

#include <string.h>

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
void qq_next_trigger(qq_state *st)
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
    qq_after_scoring(st);
}

qq_move_result qq_trigger_move(qq_state *st, const char *type,
                               const json_t *action, rules_error *err)
{
    int d = st->trigger, e;
    int p = st->trigger_pow[d];
    int seat = st->turn;
    if (strcmp(type, "pass") == 0) {
        st->trigger_pow[d] = QQ_POW_NONE;
        qq_next_trigger(st);
        return QQ_MOVE_APPLIED;
    }
    if (p == QQ_POW_DEATHDEALER && strcmp(type, "exchange") == 0) {
        if (!qq_die_arg(st, action, "die", &e, err))
            return QQ_MOVE_REFUSED;
        qq_die *x = &st->dice[e];
        if (x->zone != QQ_Z_USED || x->owner < 0 || x->owner == seat)
            return qq_refuse(err, "Deathdealer is exchanged for a die of "
                                  "another player's Used Pile");
        st->dice[d].owner = x->owner;
        x->owner = (int8_t)seat;
        st->cull_mark[d] = 0;
    } else if (p == QQ_POW_STRONG_DEVOTEE && strcmp(type, "capture") == 0) {
        int slot = qq_slot_by_card(st, action);
        if (slot < 0 || !devotee_ok(st, slot))
            return qq_refuse(err, "Strong Devotee captures a spell die "
                                  "costing 4 or less");
        qq_take_from_wilds(st, slot);
        for (e = st->dice_count - 1; e >= 0; e--) {
            if (st->dice[e].owner == seat && st->dice[e].zone == QQ_Z_USED &&
                st->dice[e].slot == slot && !st->dice[e].quest_die) {
                st->dice[e].zone = QQ_Z_BAG;   /* into the bag */
                break;
            }
        }
    } else if (p == QQ_POW_STRONG_WITCHING_HAG &&
               strcmp(type, "recall") == 0) {
        if (!qq_die_arg(st, action, "die", &e, err))
            return QQ_MOVE_REFUSED;
        if (e == d || st->dice[e].owner != seat ||
            st->dice[e].zone != QQ_Z_USED || !qq_is_creature_die(st, e))
            return qq_refuse(err, "Strong Witching Hag takes another "
                                  "creature die from your Used Pile");
        st->dice[e].zone = QQ_Z_ACTIVE;
        st->dice[e].face = (int8_t)qq_roll(st);
        st->cull_mark[e] = 0;
    } else if (p == QQ_POW_STRONG_QUESTING_WIZARD &&
               strcmp(type, "cull") == 0) {
        if (!qq_die_arg(st, action, "die", &e, err))
            return QQ_MOVE_REFUSED;
        if (!wizard_spell(st, e))
            return qq_refuse(err, "Strong Questing Wizard culls your spell "
                                  "dice from the Active Pool or Ready "
                                  "Area");
        qq_die *x = &st->dice[e];
        x->zone = QQ_Z_WILDS;
        x->owner = -1;
        x->face = -1;
        x->host = -1;
        x->flags = 0;
        st->cull_mark[e] = 0;
        qq_add_glory(st, seat, &st->players[seat].glory_scoring, 1);
        if (trigger_has_option(st, d))
            return QQ_MOVE_APPLIED;   /* cull more or pass */
    } else if (p == QQ_POW_SHAPING_INCANTATION &&
               strcmp(type, "trade") == 0) {
        if (!qq_die_arg(st, action, "die", &e, err))
            return QQ_MOVE_REFUSED;
        int slot = qq_slot_by_card(st, action);
        if (slot < 0 || !trade_ok(st, e, slot))
            return qq_refuse(err, "Shaping Incantation culls a die of your "
                                  "Used Pile for a Quarry die costing at "
                                  "most 3 more");
        st->dice[e].zone = QQ_Z_WILDS;
        st->dice[e].owner = -1;
        st->dice[e].flags = 0;
        st->cull_mark[e] = 0;
        qq_take_from_wilds(st, slot);
    } else {
        return qq_refuse(err, "use the scoring power of die %d or pass", d);
    }
    st->trigger_pow[d] = QQ_POW_NONE;
    qq_next_trigger(st);
    return QQ_MOVE_APPLIED;
}
