/* destroy.c: a creature is destroyed: where it goes, and the powers its
 * fall sets off (Ghostly Spirits, Scavenging Goblin, Witching Hag,
 * Strong Deathdealer). */
#include "qq_turn.h"

/* Strong Deathdealer: whenever its player destroys a creature, it scores
 * at once; its attack stays in the turn's attack total (kept_attack). */
static void deathdealers_score(qq_state *st, int killer)
{
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].owner != killer || st->dice[e].zone != QQ_Z_READY ||
            !qq_shows(st, e, QQ_FACE_CREATURE) ||
            qq_power(st, e) != QQ_POW_STRONG_DEATHDEALER)
            continue;
        if (killer == st->turn)
            st->kept_attack += qq_attack(st, e, -1);
        qq_add_glory(st, killer, &st->players[killer].glory_scoring,
                     qq_score_glory(st, e, 1));
        if (killer == st->turn)
            st->scored++;
        qq_leave_play(st, e);
    }
}

/* Mighty Ghostly Spirit: its set-aside dice are rolled when their player
 * destroys a creature: a creature face enters the Ready Area. */
static void ghosts_return(qq_state *st, int killer)
{
    for (int e = 0; e < st->dice_count; e++) {
        qq_die *x = &st->dice[e];
        if (x->owner != killer || x->zone != QQ_Z_ASIDE)
            continue;
        x->face = (int8_t)qq_roll(st);
        if (qq_shows(st, e, QQ_FACE_CREATURE)) {
            x->zone = QQ_Z_READY;
            x->flags = QQ_F_SHIELDED;
        } else {
            x->zone = QQ_Z_USED;
            x->face = -1;
        }
    }
}

/* d is destroyed by seat killer (-1: by no one). It leaves play to the
 * Used Pile, or where its powers send it, and is marked as fallen for the
 * reaction window. */
void qq_destroy(qq_state *st, int d, int killer)
{
    int owner = st->dice[d].owner;
    int p = qq_power(st, d);
    int face = st->dice[d].face;
    int burst = qq_face_of(st, d)->burst;
    qq_leave_play(st, d);
    qq_die *die = &st->dice[d];
    die->last_face = (int8_t)face;
    if (p == QQ_POW_MIGHTY_GHOSTLY_SPIRIT) {
        die->zone = QQ_Z_ASIDE;
    } else {
        if (p == QQ_POW_STRONG_GHOSTLY_SPIRIT ||
            (st->life_charm & (1u << owner))) {
            /* to the Active Pool, still showing its face */
            die->zone = QQ_Z_ACTIVE;
            die->face = (int8_t)face;
        }
        die->flags |= QQ_F_FELL;
    }
    if (p == QQ_POW_MIGHTY_SCAVENGING_GOBLIN && burst == 1)
        qq_draw(st, owner, 2);
    if (killer < 0)
        return;
    st->combat_kills++;
    /* Witching Hag: 1 quiddity from each one in the Ready Area. */
    if (killer == st->turn)
        st->quiddity += qq_ready_power_count(st, killer, QQ_POW_WITCHING_HAG);
    deathdealers_score(st, killer);
    ghosts_return(st, killer);
}
