/* challenge.c: a quest challenge: both bands fight at once, each side
 * ordering its own defenders in secret when the order can matter; then
 * the challenger takes over the emptied quest or leaves. */
#include "qq_turn.h"

#include <string.h>

static void resolve_challenge(qq_state *st);

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
        if (qq_power(st, band[i]) == QQ_POW_MIGHTY_DEATHDEALER)
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

/* After the reactions of a challenge: each side orders its own defenders
 * in secret when the order can matter. */
void qq_challenge_orders(qq_state *st)
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
            qq_destroy(st, mine[i], quester);
    }
    for (int i = 0; i < nt; i++) {
        if (dead[theirs[i]])
            qq_destroy(st, theirs[i], me);
    }
    if (killed > 0)
        st->victims |= 1u << quester;
    qq_add_glory(st, me, &st->players[me].glory_challenge, killed);
    qq_post_window(st, quester, QQ_R_AFTER_CHALLENGE);
}

/* After the challenge and its reactions: take over or go home. */
void qq_challenge_after(qq_state *st)
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
            qq_leave_play(st, mine[i]);
        st->challenge_quest = -1;
        qq_attack_with_the_rest(st);
        return;
    }
    st->phase = QQ_P_TAKEOVER;
}

qq_move_result qq_challenge_move(qq_state *st, int seat, const char *type,
                                 const json_t *action, rules_error *err)
{
    if (strcmp(type, "defend") != 0)
        return qq_refuse(err, "in a quest challenge each side orders its own "
                              "defenders: defend DIE DIE ...");
    int16_t list[QQ_MAX_BAND], band[QQ_MAX_BAND];
    int n = qq_dice_list(st, action, list, err);
    if (n < 0)
        return QQ_MOVE_REFUSED;
    int q = st->challenge_quest;
    int nb = fight_side(st, seat, q, seat == st->turn, band);
    if (n != nb)
        return qq_refuse(err, "order all %d of your creatures in the "
                              "challenge", nb);
    for (int i = 0; i < n; i++) {
        bool found = false;
        for (int k = 0; k < nb; k++)
            found = found || band[k] == list[i];
        if (!found)
            return qq_refuse(err, "die %d is not one of your creatures in "
                                  "the challenge", list[i]);
    }
    memcpy(st->order[seat], list, sizeof list[0] * (size_t)n);
    st->order_len[seat] = n;
    st->chosen[seat] = 1;
    for (int s = 0; s < st->seats; s++) {
        if (st->chosen[s] == 0)
            return QQ_MOVE_APPLIED;
    }
    resolve_challenge(st);
    return QQ_MOVE_APPLIED;
}

qq_move_result qq_takeover_move(qq_state *st, const char *type,
                                rules_error *err)
{
    bool take = strcmp(type, "take") == 0;
    if (!take && strcmp(type, "leave") != 0)
        return qq_refuse(err, "you wiped out the questers: take over the "
                              "quest or leave");
    for (int d = 0; d < st->dice_count; d++) {
        qq_die *die = &st->dice[d];
        if (die->zone != QQ_Z_QUEST || !(die->flags & QQ_F_CHALLENGER))
            continue;
        if (take)
            die->flags &= (uint8_t)~QQ_F_CHALLENGER;
        else
            qq_leave_play(st, d);
    }
    st->challenge_quest = -1;
    qq_attack_with_the_rest(st);
    return QQ_MOVE_APPLIED;
}
