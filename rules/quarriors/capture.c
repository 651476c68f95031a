/* capture.c: phase 4: capturing dice from the Wilds (and casting Victory
 * Spell) until the captures run out or the player ends the turn. */
#include "qq_turn.h"

#include <string.h>

qq_move_result qq_capture_move(qq_state *st, const char *type,
                               const json_t *action, rules_error *err)
{
    if (strcmp(type, "end") == 0) {
        qq_end_turn(st);
        return QQ_MOVE_APPLIED;
    }
    if (strcmp(type, "cast") == 0) {
        int d;
        if (!qq_die_arg(st, action, "die", &d, err))
            return QQ_MOVE_REFUSED;
        return qq_applied_if(qq_cast_spell(st, st->turn, d, action, err));
    }
    if (strcmp(type, "capture") != 0)
        return qq_refuse(err, "in phase 4 you may capture a die or end "
                              "your turn");
    int slot = qq_slot_by_card(st, action);
    if (slot < 0)
        return qq_refuse(err, "that card is not in the Wilds");
    if (st->captures_left <= 0)
        return qq_refuse(err, "you have no capture left this turn");
    if (qq_slot_dice(st, slot) == 0)
        return qq_refuse(err, "no dice are left on that card");
    if (!qq_pay(st, qq_capture_cost(st, slot), err))
        return QQ_MOVE_REFUSED;
    qq_take_from_wilds(st, slot);
    st->captures_left--;
    qq_check_end(st);
    if (st->phase != QQ_P_OVER && st->captures_left == 0)
        qq_end_turn(st);
    return QQ_MOVE_APPLIED;
}
