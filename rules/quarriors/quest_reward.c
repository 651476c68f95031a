/* quest_reward.c: after the culls, a completed quest's glory and its
 * quest die: taken from the card or seized from a holder and rolled for
 * quiddity, dice, a Quartifact or a free capture ("?"). */
#include "qq_turn.h"

#include <string.h>

/* The completer rolls quest die e (from its card, or seized from its
 * holder) and takes what it shows. */
static void roll_quest_die(qq_state *st, int e)
{
    int seat = st->turn;
    int face = qq_roll(st);
    const qq_quest_face *r = &qq_quest_die_faces[face];
    /* The roll is public: every view shows it until the next one. */
    st->last_roll.die = e;
    st->last_roll.seat = seat;
    st->last_roll.face = face;
    st->last_roll.seized_from = -1;
    if (st->dice[e].zone == QQ_Z_ATTACHED || st->dice[e].zone == QQ_Z_HELD) {
        st->last_roll.seized_from = st->dice[e].owner;
        qq_return_quest_die(st, e);   /* seized from its holder */
    }
    switch (r->kind) {
    case QQ_QR_QUIDDITY:
        st->quiddity += r->amount;
        break;
    case QQ_QR_DICE:
        qq_draw(st, seat, r->amount);
        break;
    case QQ_QR_SPECIAL:
        /* the free capture's limit follows from quest_done
         * (qq_free_capture_limit) */
        st->phase = QQ_P_SPECIAL;
        return;
    default: {
        /* A Quartifact: a player never holds two. */
        int old = qq_held_quartifact(st, seat);
        if (old >= 0)
            qq_return_quest_die(st, old);
        st->dice[e].zone = QQ_Z_HELD;
        st->dice[e].owner = (int8_t)seat;
        st->dice[e].face = (int8_t)face;
        break;
    }
    }
    qq_begin_main(st);
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

void qq_after_cull(qq_state *st)
{
    int q = st->quest_done;
    if (q < 0) {
        qq_begin_main(st);
        return;
    }
    /* Expert Rules: quest glory only when every successful creature was
     * culled. */
    if (!st->expert || st->quest_band_left == 0)
        qq_add_glory(st, st->turn, &st->players[st->turn].glory_quest,
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

qq_move_result qq_seize_move(qq_state *st, const char *type,
                             const json_t *action, rules_error *err)
{
    if (strcmp(type, "seize") != 0)
        return qq_refuse(err, "both quest dice are held: seize one from a "
                              "player");
    const json_t *v = json_object_get(action, "seat");
    int q = st->quest_done;
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) >= st->seats ||
        !(quest_die_holders(st, q) & (1u << json_integer_value(v))))
        return qq_refuse(err, "you may only seize a quest die from a player "
                              "who holds one of this quest");
    roll_quest_die(st, quest_die_of(st, q, (int)json_integer_value(v)));
    return QQ_MOVE_APPLIED;
}

qq_move_result qq_special_move(qq_state *st, const char *type,
                               const json_t *action, rules_error *err)
{
    if (strcmp(type, "pass") != 0) {
        if (strcmp(type, "capture") != 0)
            return qq_refuse(err, "the quest reward is a free capture: "
                                  "capture a card or pass");
        int slot = qq_slot_by_card(st, action);
        if (slot < 0)
            return qq_refuse(err, "that card is not in the Wilds");
        if (qq_slot_dice(st, slot) == 0)
            return qq_refuse(err, "no dice are left on that card");
        int limit = qq_free_capture_limit(st);
        if (qq_cards[st->slots[slot].card].cost > limit)
            return qq_refuse(err, "the quest reward captures a die costing "
                                  "at most %d", limit);
        qq_take_from_wilds(st, slot);
    }
    qq_begin_main(st);
    return QQ_MOVE_APPLIED;
}
