/* spells.c: spells cast from the Ready Area (standard, Victory Spell,
 * reactions) and immediate spells used from the Active Pool. */
#include "qq_turn.h"

/* Death Spell: may t be its victim in its owner's Ready Area? */
static bool death_spell_victim(const qq_state *st, int t, int seat)
{
    const qq_die *x = &st->dice[t];
    return x->owner >= 0 && x->owner != seat && x->zone == QQ_Z_READY &&
           qq_shows(st, t, QQ_FACE_CREATURE) && qq_defense(st, t) <= 6 &&
           !qq_shielded(st, t, seat, QQ_SRC_SPELL);
}

/* Shaping Charm: the face one level higher on the die of d (the last such
 * face of the die), or -1. */
static int face_one_higher(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    int card = die->copy_card >= 0 ? die->copy_card
                                   : st->slots[die->slot].card;
    const qq_face *faces = qq_dice[qq_cards[card].die].faces;
    int want = qq_level(st, d) + 1, found = -1;
    for (int f = 0; f < 6; f++) {
        if ((faces[f].flags & QQ_FACE_CREATURE) && faces[f].level == want)
            found = f;
    }
    return found;
}

static bool death_spell(qq_state *st, int seat, const json_t *action,
                        rules_error *err)
{
    int16_t list[QQ_MAX_BAND];
    int n;
    if (json_object_get(action, "targets") != NULL) {
        json_t *tmp = json_pack("{s:O}", "dice",
                                json_object_get(action, "targets"));
        n = qq_dice_list(st, tmp, list, err);
        json_decref(tmp);
    } else {
        int t;
        if (!qq_die_arg(st, action, "target", &t, err))
            return rules_fail(err, "Death Spell names one creature of each "
                                   "opponent");
        list[0] = (int16_t)t;
        n = 1;
    }
    if (n < 0)
        return false;
    if (json_object_get(action, "targets") != NULL && n < 2)
        return rules_fail(err, "name a single victim as the target");
    uint32_t hit = 0;
    for (int i = 0; i < n; i++) {
        int t = list[i];
        if (!death_spell_victim(st, t, seat))
            return rules_fail(err, "Death Spell destroys an opponent's "
                                   "creature of defense 6 or less in his "
                                   "Ready Area");
        if (hit & (1u << st->dice[t].owner))
            return rules_fail(err, "Death Spell destroys one creature per "
                                   "opponent");
        hit |= 1u << st->dice[t].owner;
        if (i > 0 && list[i] < list[i - 1])
            return rules_fail(err, "name the victims in increasing order");
    }
    for (int t = 0; t < st->dice_count; t++) {
        if (death_spell_victim(st, t, seat) &&
            !(hit & (1u << st->dice[t].owner)))
            return rules_fail(err, "Death Spell destroys one creature in "
                                   "each opponent's Ready Area that has one "
                                   "of defense 6 or less");
    }
    for (int i = 0; i < n; i++)
        qq_destroy(st, list[i], seat);
    return true;
}

/* Casts spell d of seat: standard spells in phase 2 (Victory Spell in
 * phase 4, after the attacks), reaction spells in a reaction window. */
bool qq_cast_spell(qq_state *st, int seat, int d, const json_t *action,
                   rules_error *err)
{
    if (st->dice[d].owner != seat || st->dice[d].zone != QQ_Z_READY ||
        !qq_shows(st, d, QQ_FACE_SPELL))
        return rules_fail(err, "die %d is not a spell in your Ready Area", d);
    const qq_face *face = qq_face_of(st, d);
    int t = -1;
    int p = qq_power(st, d);
    bool reaction = qq_card_of(st, d)->timing == QQ_TIME_REACTION;
    if (st->phase == QQ_P_REACT && !reaction)
        return rules_fail(err, "only reaction spells are cast while "
                               "reacting");
    if (st->phase != QQ_P_REACT && reaction)
        return rules_fail(err, "a reaction spell is cast during an attack "
                               "or a challenge, when you may react");
    if (st->phase == QQ_P_CAPTURE && p != QQ_POW_VICTORY_SPELL)
        return rules_fail(err, "after the attacks only Victory Spell is "
                               "cast");
    if (st->phase == QQ_P_MAIN && p == QQ_POW_VICTORY_SPELL)
        return rules_fail(err, "Victory Spell is cast only after your "
                               "attack phase");
    bool post = qq_post_window_kind(st->react_resume);
    if (st->phase == QQ_P_REACT &&
        (p == QQ_POW_SHAPING_CANTRIP) != post)
        return rules_fail(err, p == QQ_POW_SHAPING_CANTRIP
                          ? "Shaping Cantrip answers a creature destroyed "
                            "in this combat"
                          : "Life spells are cast before the damage");
    bool needs_target = p == QQ_POW_DEATH_CHARM || p == QQ_POW_LIFE_CANTRIP ||
                        p == QQ_POW_VICTORY_CANTRIP ||
                        p == QQ_POW_DEATH_INCANTATION ||
                        p == QQ_POW_SHAPING_SPELL ||
                        p == QQ_POW_SHAPING_INCANTATION ||
                        p == QQ_POW_LIFE_INCANTATION ||
                        p == QQ_POW_SHAPING_CANTRIP;
    if (p == QQ_POW_DEATH_SPELL) {
        /* target or targets: checked by death_spell */
    } else if (needs_target) {
        if (!qq_die_arg(st, action, "target", &t, err))
            return rules_fail(err, "this spell needs a target die");
    } else if (json_object_get(action, "target") != NULL) {
        return rules_fail(err, "this spell takes no target");
    }
    if (p != QQ_POW_DEATH_SPELL && json_object_get(action, "targets") != NULL)
        return rules_fail(err, "this spell takes at most one target");
    bool destroys = false;
    switch (p) {
    case QQ_POW_DEATH_CANTRIP:
        if (face->burst < 1)
            return rules_fail(err, "Death Cantrip needs a * or ** face");
        st->attack_bonus += face->burst >= 2 ? 3 : 2;
        break;
    case QQ_POW_GROWTH_CHARM:
        st->quiddity += 3;
        break;
    case QQ_POW_VICTORY_INCANTATION:
        qq_add_glory(st, seat, &st->players[seat].glory_spell, 3);
        break;
    case QQ_POW_VICTORY_CHARM:
        if (st->scored < 2)
            return rules_fail(err, "Victory Charm needs 2 or more of your "
                                   "creatures to have scored this turn");
        qq_add_glory(st, seat, &st->players[seat].glory_spell, st->scored);
        break;
    case QQ_POW_VICTORY_SPELL:
        qq_add_glory(st, seat, &st->players[seat].glory_spell,
                     rules_seat_count(st->victims));
        break;
    case QQ_POW_SHAPING_CHARM:
        for (int e = 0; e < st->dice_count; e++) {
            if (st->dice[e].owner != seat || st->dice[e].zone != QQ_Z_READY ||
                !qq_shows(st, e, QQ_FACE_CREATURE))
                continue;
            int f = face_one_higher(st, e);
            if (f < 0)
                continue;
            if (st->dice[e].copy_card >= 0)
                st->dice[e].copy_face = (int8_t)f;
            else
                st->dice[e].face = (int8_t)f;
        }
        break;
    case QQ_POW_DEATH_CHARM:
    case QQ_POW_LIFE_CANTRIP:
    case QQ_POW_VICTORY_CANTRIP:
    case QQ_POW_SHAPING_INCANTATION:
        if (p == QQ_POW_DEATH_CHARM && face->burst < 1)
            return rules_fail(err, "Death Charm needs a * or ** face");
        if (st->dice[t].owner != seat || st->dice[t].zone != QQ_Z_READY ||
            !qq_shows(st, t, QQ_FACE_CREATURE))
            return rules_fail(err, "attach a spell to a creature in your "
                                   "Ready Area");
        st->dice[d].zone = QQ_Z_ATTACHED;
        st->dice[d].host = (int16_t)t;
        return true;
    case QQ_POW_DEATH_INCANTATION:
        if (face->burst < 1)
            return rules_fail(err, "Death Incantation needs a * or ** face");
        if (st->dice[t].zone != QQ_Z_READY ||
            !qq_shows(st, t, QQ_FACE_CREATURE))
            return rules_fail(err, "Death Incantation destroys a creature in "
                                   "a Ready Area");
        if (qq_shielded(st, t, seat, QQ_SRC_SPELL))
            return rules_fail(err, "that creature is protected from your "
                                   "spells");
        if (face->burst == 1 && qq_level(st, t) > 2)
            return rules_fail(err, "on a * face Death Incantation only "
                                   "destroys a creature of level 2 or less");
        qq_destroy(st, t, seat);
        destroys = true;
        break;
    case QQ_POW_DEATH_SPELL:
        if (face->burst < 1)
            return rules_fail(err, "Death Spell needs a * or ** face");
        if (!death_spell(st, seat, action, err))
            return false;
        destroys = true;
        break;
    case QQ_POW_SHAPING_SPELL:
        if (t == d || st->dice[t].zone != QQ_Z_READY ||
            !qq_shows(st, t, QQ_FACE_SPELL))
            return rules_fail(err, "Shaping Spell destroys another spell die "
                                   "in a Ready Area");
        qq_leave_play(st, t);
        break;
    case QQ_POW_LIFE_CHARM:
        st->life_charm |= 1u << seat;
        break;
    case QQ_POW_LIFE_SPELL:
        st->life_spell |= 1u << seat;
        break;
    case QQ_POW_LIFE_INCANTATION:
        if ((st->dice[t].zone != QQ_Z_READY &&
             st->dice[t].zone != QQ_Z_QUEST) ||
            !qq_shows(st, t, QQ_FACE_CREATURE))
            return rules_fail(err, "Life Incantation sets the attack of a "
                                   "creature in play to 0");
        if (qq_shielded(st, t, seat, QQ_SRC_SPELL))
            return rules_fail(err, "that creature is protected from your "
                                   "spells");
        st->dice[t].flags |= QQ_F_NO_ATTACK;
        break;
    case QQ_POW_SHAPING_CANTRIP:
        if (st->dice[t].owner != seat || !(st->dice[t].flags & QQ_F_FELL) ||
            (st->dice[t].zone != QQ_Z_USED &&
             st->dice[t].zone != QQ_Z_ACTIVE))
            return rules_fail(err, "Shaping Cantrip brings back one of your "
                                   "creatures just destroyed");
        qq_come_back(st, t);
        break;
    default:
        return rules_fail(err, "this spell has no power the engine can cast");
    }
    qq_leave_play(st, d);
    if (st->phase == QQ_P_REACT) {
        st->react_passed = 0;
        qq_ask_from(st, (seat + 1) % st->seats);
    } else if (destroys) {
        qq_post_window(st, (seat + 1) % st->seats, QQ_R_MAIN);
    }
    return true;
}

/* Growth Incantation: 2 quiddity and re-roll up to 2 other own dice. */
static bool growth_incantation(qq_state *st, int d, const json_t *action,
                               rules_error *err)
{
    int16_t list[QQ_MAX_BAND];
    int n = 0;
    if (json_object_get(action, "dice") != NULL) {
        n = qq_dice_list(st, action, list, err);
        if (n < 0)
            return false;
        if (n > 2)
            return rules_fail(err, "Growth Incantation re-rolls up to 2 "
                                   "dice");
        for (int i = 0; i < n; i++) {
            if (list[i] == d || !qq_own_active(st, list[i], err))
                return rules_fail(err, "re-roll other dice of your Active "
                                       "Pool");
            if (i > 0 && list[i] < list[i - 1])
                return rules_fail(err, "name the dice in increasing order");
        }
    }
    st->dice[d].zone = QQ_Z_SPENT;
    st->quiddity += 2;
    for (int i = 0; i < n; i++)
        st->dice[list[i]].face = (int8_t)qq_roll(st);
    return true;
}

bool qq_use_immediate(qq_state *st, int d, const json_t *action,
                      rules_error *err)
{
    if (!qq_own_active(st, d, err))
        return false;
    if (!qq_shows(st, d, QQ_FACE_SPELL))
        return rules_fail(err, "die %d does not show a spell", d);
    if (qq_power(st, d) != QQ_POW_GROWTH_INCANTATION &&
        json_object_get(action, "dice") != NULL)
        return rules_fail(err, "only Growth Incantation re-rolls dice");
    switch (qq_power(st, d)) {
    case QQ_POW_GROWTH_CANTRIP:
        st->dice[d].zone = QQ_Z_SPENT;
        st->quiddity += 2;
        st->captures_left++;
        return true;
    case QQ_POW_GROWTH_SPELL:
        st->dice[d].zone = QQ_Z_SPENT;
        st->quiddity += 2;
        qq_draw(st, st->turn, 1);
        return true;
    case QQ_POW_GROWTH_INCANTATION:
        return growth_incantation(st, d, action, err);
    default:
        return rules_fail(err, "only immediate spells are used from the "
                               "Active Pool");
    }
}
