/* scoring.c: phase 1: the creatures of the Ready Area score, a band on a
 * quest completes it or comes home, and the player culls a die for each
 * creature that scored or quested. */
#include "qq_turn.h"

#include <string.h>

/* The glory creature d earns when it scores; scoring is how many of its
 * player's creatures score with it (Defender of the Pale counts them). */
int qq_score_glory(const qq_state *st, int d, int scoring)
{
    const qq_face *face = qq_face_of(st, d);
    int glory = qq_card_of(st, d)->glory;
    switch (qq_power(st, d)) {
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
            qq_power(st, e) == QQ_POW_VICTORY_CANTRIP)
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

/* Creatures in the Ready Area score; then their scoring powers ask. */
void qq_score_ready(qq_state *st)
{
    int seat = st->turn;
    qq_player *me = &st->players[seat];
    int scoring = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
            qq_shows(st, d, QQ_FACE_CREATURE))
            scoring++;
    }
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner != seat || st->dice[d].zone != QQ_Z_READY ||
            !qq_shows(st, d, QQ_FACE_CREATURE))
            continue;
        int glory = qq_score_glory(st, d, scoring);
        if (st->expert) {
            st->cull_mark[d] = 1;
            st->cull_glory[d] = (int8_t)glory;
        } else {
            qq_add_glory(st, seat, &me->glory_scoring, glory);
        }
        int p = qq_power(st, d);
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
            if (qq_power(st, e) == QQ_POW_SHAPING_INCANTATION)
                st->trigger_pow[e] = QQ_POW_SHAPING_INCANTATION;
            if (p == QQ_POW_STRONG_QUESTING_WIZARD)
                st->dice[e].flags |= QQ_F_FROM_WIZARD;
        }
        qq_leave_play(st, d);   /* attached spells keep QQ_F_FROM_WIZARD */
        st->trigger_pow[d] = (int8_t)trig;
        /* Strong Defender of the Pale: draw 1 (*) or 2 (**) dice. */
        if (p == QQ_POW_STRONG_DEFENDER_PALE && burst > 0)
            qq_draw(st, seat, burst);
        st->culls_left++;
        st->scored++;
    }
    qq_next_trigger(st);
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
            qq_leave_play(st, d);
        }
        if (success) {
            st->quest_done = q;
            st->quest_band_left = band;
            st->culls_left += band;
        }
    }
}

/* After scoring: the quests (unless done first), then culls. */
void qq_after_scoring(qq_state *st)
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
    qq_after_cull(st);
}

qq_move_result qq_cull_move(qq_state *st, const char *type,
                            const json_t *action, rules_error *err)
{
    if (strcmp(type, "done") == 0) {
        qq_after_cull(st);
        return QQ_MOVE_APPLIED;
    }
    if (strcmp(type, "cull") != 0)
        return qq_refuse(err, "cull a die for each creature that scored "
                              "or quested, or say done");
    int d;
    if (!qq_die_arg(st, action, "die", &d, err))
        return QQ_MOVE_REFUSED;
    if (!can_cull(st, d))
        return qq_refuse(err, st->expert
                         ? "under the Expert Rules you may only cull the "
                           "dice that scored"
                         : "you may only cull a die from your Used Pile");
    st->dice[d].zone = QQ_Z_WILDS;
    st->dice[d].owner = -1;
    if (st->expert) {
        qq_player *me = &st->players[st->turn];
        if (st->cull_mark[d] == 1)
            qq_add_glory(st, st->turn, &me->glory_scoring, st->cull_glory[d]);
        else
            st->quest_band_left--;
        st->cull_mark[d] = 0;
    }
    st->culls_left--;
    qq_check_end(st);
    if (st->phase == QQ_P_OVER)
        return QQ_MOVE_APPLIED;
    if (st->culls_left == 0 || !any_cullable(st))
        qq_after_cull(st);
    return QQ_MOVE_APPLIED;
}

/* QQ_P_FIRST: the Ready Area scores first, or the quest is completed
 * first (its band then is in the Used Pile while the scoring powers
 * act). */
qq_move_result qq_first_move(qq_state *st, const char *type,
                             const json_t *action, rules_error *err)
{
    const char *what = json_string_value(json_object_get(action, "do"));
    if (strcmp(type, "first") != 0 || what == NULL ||
        (strcmp(what, "score") != 0 && strcmp(what, "quest") != 0))
        return qq_refuse(err, "creatures score and a quest is completed: "
                              "say which comes first (first score or "
                              "first quest)");
    if (strcmp(what, "quest") == 0)
        complete_quests(st);
    qq_score_ready(st);
    return QQ_MOVE_APPLIED;
}
