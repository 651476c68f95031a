/* arguments.c: a move's arguments (dice, cards, quests) read and checked,
 * with a sentence for the player when one is wrong; qq_refuse, the
 * handlers' way of saying no. */
#include "qq_turn.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The same sentence rules_fail would write; rules.h has no va_list form
 * to hand the arguments on to. */
qq_move_result qq_refuse(rules_error *err, const char *fmt, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
    }
    return QQ_MOVE_REFUSED;
}

bool qq_die_arg(const qq_state *st, const json_t *action, const char *key,
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

bool qq_own_active(const qq_state *st, int d, rules_error *err)
{
    if (st->dice[d].owner != st->turn || st->dice[d].zone != QQ_Z_ACTIVE)
        return rules_fail(err, "die %d is not in your Active Pool", d);
    return true;
}

/* Reads "dice": a non-empty list of distinct dice numbers. */
int qq_dice_list(const qq_state *st, const json_t *action, int16_t *out,
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

int qq_slot_by_card(const qq_state *st, const json_t *action)
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

int qq_quest_by_name(const qq_state *st, const json_t *action)
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
