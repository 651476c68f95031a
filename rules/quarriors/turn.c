/* turn.c: a turn begins (its counters cleared, the Ready Area scores or
 * the quest is completed first), phase 2 begins with six dice drawn, the
 * turn ends and passes to the next seat; glory is added and the end of
 * the match is checked. */
#include "qq_turn.h"

#include <string.h>

/* Glory goes to the player and to one of its sources (part), so that the
 * glory stays the sum of its sources (qq_check). */
void qq_add_glory(qq_state *st, int seat, int *part, int amount)
{
    *part += amount;
    st->players[seat].glory += amount;
}

/* The match is over when a player reaches the goal or four creature cards
 * of the Wilds are empty. */
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

void qq_clear_turn(qq_state *st)
{
    st->quiddity = 0;
    st->captures_left = 1;
    st->capture_discount = 0;
    st->attack_bonus = 0;
    st->culls_left = 0;
    st->quest_done = -1;
    st->quest_band_left = 0;
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
    for (int s = 0; s < RULES_MAX_SEATS; s++)
        st->chosen[s] = -1;
}

void qq_start_turn(qq_state *st)
{
    int seat = st->turn;
    st->turn_number++;
    qq_clear_turn(st);

    /* COMPLETING A QUEST: with creatures scoring in the Ready Area and a
     * band on a quest, the player decides which comes first. */
    bool ready = false, questing = false;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            qq_shows(st, d, QQ_FACE_CREATURE))
            ready = true;
    }
    for (int q = 0; q < st->quest_count; q++)
        questing = questing || qq_quest_owner(st, q) == seat;
    if (ready && questing) {
        st->phase = QQ_P_FIRST;
        return;
    }
    qq_score_ready(st);
}

void qq_begin_main(qq_state *st)
{
    qq_draw(st, st->turn, 6);
    st->phase = QQ_P_MAIN;
}

void qq_end_turn(qq_state *st)
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
