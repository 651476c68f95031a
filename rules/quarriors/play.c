/* play.c: a move is handed to the handler of the phase the turn is in,
 * and every move outside a fight is followed by the Primordial Ooze
 * check. The phases themselves are in the files qq_turn.h lists. Every
 * function of the turn works on a scratch copy: qq_apply_move may fail
 * half way and the engine then throws the copy away (engine.c). */
#include "qq_turn.h"

#include <stdio.h>
#include <string.h>

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
            qq_shows(st, d, QQ_FACE_CREATURE) &&
            qq_power(st, d) == QQ_POW_OOZE &&
            qq_basic_quiddity_in_play(st, x->owner) == 0) {
            qq_destroy(st, d, -1);
            st->dice[d].flags &= (uint8_t)~QQ_F_FELL;
        }
    }
}

void qq_pending(const qq_state *st, rules_pending *out)
{
    memset(out, 0, sizeof *out);
    static const char *const prompts[] = {
        [QQ_P_CULL] = "cull a die for each creature that scored, or say done",
        [QQ_P_SEIZE] = "seize the quest die from a player who holds one",
        [QQ_P_SPECIAL] = "capture a die for free as the quest's reward, or pass",
        [QQ_P_MAIN] = "summon, ready or use dice, then attack or quest",
        [QQ_P_DEFEND] = "choose the creature that takes the damage",
        [QQ_P_CHALLENGE] = "order the defenders in the quest challenge",
        [QQ_P_TAKEOVER] = "take over the quest, or leave",
        [QQ_P_CAPTURE] = "capture a die from the Wilds, or end the turn",
        [QQ_P_REACT] = "cast a reaction spell (or revive), or pass",
        [QQ_P_TRIGGER] = "use the power of a creature that scored, or pass",
        [QQ_P_FIRST] = "score the creatures or complete the quest first",
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

/* The handler of the phase the turn is in plays the move. */
static qq_move_result play_in_phase(qq_state *st, int seat, const char *type,
                                    const json_t *action, rules_error *err)
{
    switch (st->phase) {
    case QQ_P_CULL:
        return qq_cull_move(st, type, action, err);
    case QQ_P_SEIZE:
        return qq_seize_move(st, type, action, err);
    case QQ_P_SPECIAL:
        return qq_special_move(st, type, action, err);
    case QQ_P_MAIN: {
        qq_move_result result = qq_main_move(st, type, action, err);
        if (result != QQ_MOVE_NOT_HANDLED)
            return result;
        /* capture or end with no creature to fight: phase 2 gave way to
         * phase 4, which plays the move. */
        return qq_capture_move(st, type, action, err);
    }
    case QQ_P_DEFEND:
        return qq_defend_move(st, seat, type, action, err);
    case QQ_P_CHALLENGE:
        return qq_challenge_move(st, seat, type, action, err);
    case QQ_P_TAKEOVER:
        return qq_takeover_move(st, type, err);
    case QQ_P_REACT:
        return qq_react_move(st, seat, type, action, err);
    case QQ_P_TRIGGER:
        return qq_trigger_move(st, type, action, err);
    case QQ_P_FIRST:
        return qq_first_move(st, type, action, err);
    case QQ_P_CAPTURE:
        return qq_capture_move(st, type, action, err);
    default:
        return qq_refuse(err, "the match is over");
    }
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
    if (play_in_phase(st, seat, type, action, err) != QQ_MOVE_APPLIED)
        return false;
    ooze_check(st);
    return true;
}
