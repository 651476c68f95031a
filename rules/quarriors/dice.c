/* dice.c: where the dice go: rolled, drawn from the bag, paid with,
 * leaving play with what they carry, captured from the Wilds. */
#include "qq_turn.h"

int qq_roll(qq_state *st)
{
    return (int)rules_rng_below(&st->rng, 6);
}

void qq_return_quest_die(qq_state *st, int e)
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
void qq_leave_play(qq_state *st, int d)
{
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].zone != QQ_Z_ATTACHED || st->dice[e].host != d)
            continue;
        if (st->dice[e].quest_die) {
            qq_return_quest_die(st, e);
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
void qq_draw(qq_state *st, int seat, int n)
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
                st->dice[d].face = (int8_t)qq_roll(st);
                break;
            }
        }
    }
}

/* Pays cost from the pool and then from quiddity dice in the Active Pool,
 * largest first; change stays in the pool. */
bool qq_pay(qq_state *st, int cost, rules_error *err)
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

bool qq_take_from_wilds(qq_state *st, int slot)
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
