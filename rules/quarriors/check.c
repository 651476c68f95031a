/* check.c: the invariants of a Quarriors state. Play keeps them; a
 * position edited by hand (qq_load) must keep them too. Each broken one
 * is named in a sentence that names the die by its number and card, as
 * the snapshot writes it. */
#include "qq_names.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* "die 27 (deathdealer)" or "die 96 (quest die of exqualibur)". */
static const char *die_label(const qq_state *st, int d, char *buf,
                             size_t size)
{
    const qq_die *x = &st->dice[d];
    char name[QQ_NAME_SIZE];
    if (x->quest_die)
        snprintf(buf, size, "die %d (quest die of %s)", d, qq_notation_id(
            qq_quests[st->quest_slots[x->slot].type].id, name));
    else
        snprintf(buf, size, "die %d (%s)", d, qq_notation_id(
            qq_cards[st->slots[x->slot].card].id, name));
    return buf;
}

/* The Wilds as setup deals them: one card of each class (two Defender of
 * the Pale cannot sit next to each other), every card with all its dice;
 * two dice for each quest card. */
static bool check_cards(const qq_state *st, rules_error *err)
{
    int dice_of_slot[QQ_MAX_SLOTS] = {0}, dice_of_quest[QQ_MAX_QUESTS] = {0};
    char name[QQ_NAME_SIZE], other[QQ_NAME_SIZE];
    for (int s = 0; s < st->slot_count; s++) {
        const qq_card_def *c = &qq_cards[st->slots[s].card];
        for (int k = 0; k < s; k++) {
            const qq_card_def *e = &qq_cards[st->slots[k].card];
            if (strcmp(c->klass, e->klass) == 0)
                return rules_fail(err, "the Wilds hold two cards of the "
                                  "class %s (%s and %s); setup deals one "
                                  "card of each class", c->klass,
                                  qq_notation_id(e->id, other),
                                  qq_notation_id(c->id, name));
        }
    }
    for (int q = 0; q < st->quest_count; q++) {
        for (int k = 0; k < q; k++) {
            if (st->quest_slots[k].type == st->quest_slots[q].type)
                return rules_fail(err, "the Quest Area holds %s twice",
                                  qq_quests[st->quest_slots[q].type].name);
        }
    }
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *x = &st->dice[d];
        if (x->quest_die ? x->slot >= st->quest_count
                         : x->slot >= st->slot_count)
            return rules_fail(err, "die %d belongs to no card", d);
        if (x->quest_die)
            dice_of_quest[x->slot]++;
        else
            dice_of_slot[x->slot]++;
    }
    for (int s = 0; s < st->slot_count; s++) {
        int want = qq_card_dice_total(st, st->slots[s].card);
        if (dice_of_slot[s] != want)
            return rules_fail(err, "%s has %d %s in the match, not %d",
                              qq_notation_id(qq_cards[st->slots[s].card].id,
                                             name),
                              dice_of_slot[s],
                              dice_of_slot[s] == 1 ? "die" : "dice", want);
    }
    for (int q = 0; q < st->quest_count; q++) {
        if (dice_of_quest[q] != 2)
            return rules_fail(err, "%s has %d quest %s, not 2",
                              qq_notation_id(
                                  qq_quests[st->quest_slots[q].type].id, name),
                              dice_of_quest[q],
                              dice_of_quest[q] == 1 ? "die" : "dice");
    }
    return true;
}

/* A quest die: on its card, held as a Quartifact or carried; one
 * Quartifact per player. */
static bool check_quest_die(const qq_state *st, int d, int *held,
                            rules_error *err)
{
    const qq_die *x = &st->dice[d];
    char label[80];
    if (x->zone != QQ_Z_QCARD && x->zone != QQ_Z_HELD &&
        x->zone != QQ_Z_ATTACHED)
        return rules_fail(err, "%s is in the %s; a quest die is on its card, "
                          "held or attached", die_label(st, d, label,
                                                        sizeof label),
                          qq_zone_title(x->zone));
    if (x->zone == QQ_Z_QCARD)
        return true;
    if (++held[x->owner] > 1)
        return rules_fail(err, "seat %d holds two Quartifacts", x->owner);
    if (qq_quest_die_faces[x->face].kind != QQ_QR_QUARTIFACT)
        return rules_fail(err, "%s is held without a Quartifact face",
                          die_label(st, d, label, sizeof label));
    return true;
}

/* Each die in one place that fits what it shows and carries. */
static bool check_die(const qq_state *st, int d, int *held, rules_error *err)
{
    const qq_die *x = &st->dice[d];
    char buf[80];
    /* the die's name, written only for the sentence of a failure */
#define DIE_NAME die_label(st, d, buf, sizeof buf)
    if (x->zone < 0 || x->zone >= QQ_Z_COUNT)
        return rules_fail(err, "%s is in no place", DIE_NAME);
    if (x->quest_die) {
        if (!check_quest_die(st, d, held, err))
            return false;
    } else if (x->zone == QQ_Z_QCARD || x->zone == QQ_Z_HELD) {
        return rules_fail(err, "%s is in the %s, where only quest dice go",
                          DIE_NAME, qq_zone_title(x->zone));
    }
    bool owned = x->zone != QQ_Z_WILDS && x->zone != QQ_Z_QCARD;
    if (owned != (x->owner >= 0 && x->owner < st->seats))
        return rules_fail(err, "%s: owner %d does not fit the %s", DIE_NAME,
                          x->owner, qq_zone_title(x->zone));
    bool rolled = x->zone == QQ_Z_ACTIVE || x->zone == QQ_Z_READY ||
                  x->zone == QQ_Z_QUEST || x->zone == QQ_Z_ATTACHED ||
                  x->zone == QQ_Z_HELD || x->zone == QQ_Z_SPENT;
    if (rolled != (x->face >= 0) || x->face > 5)
        return rules_fail(err, "%s in the %s %s a face", DIE_NAME,
                          qq_zone_title(x->zone), rolled ? "lacks" : "keeps");
    if ((x->zone == QQ_Z_QUEST) != (x->quest >= 0) ||
        x->quest >= st->quest_count)
        return rules_fail(err, "%s: only a die in the Quest Area is at a "
                          "quest, and it is at one", DIE_NAME);
    if (x->copy_card >= 0 &&
        ((x->zone != QQ_Z_READY && x->zone != QQ_Z_QUEST) ||
         qq_cards[st->slots[x->slot].card].power != QQ_POW_STRONG_OOZE ||
         x->copy_face < 0 || x->copy_face > 5 ||
         !(qq_dice[qq_cards[x->copy_card].die].faces[x->copy_face].flags &
           QQ_FACE_CREATURE)))
        return rules_fail(err, "%s copies a creature, but only a Strong "
                          "Primordial Ooze in play copies one", DIE_NAME);
    if ((x->zone == QQ_Z_ATTACHED) != (x->host >= 0) ||
        x->host >= st->dice_count)
        return rules_fail(err, "%s: only an attached die is on a creature, "
                          "and it is on one", DIE_NAME);
    if (x->zone == QQ_Z_ATTACHED) {
        const qq_die *h = &st->dice[x->host];
        if ((h->zone != QQ_Z_READY && h->zone != QQ_Z_QUEST) ||
            h->owner != x->owner)
            return rules_fail(err, "%s is attached to die %d, which is not "
                              "its owner's creature in play", DIE_NAME,
                              x->host);
    }
    if (x->zone == QQ_Z_QUEST && !(qq_face_of(st, d)->flags &
                                   QQ_FACE_CREATURE))
        return rules_fail(err, "%s quests without a creature face", DIE_NAME);
#undef DIE_NAME
    return true;
}

/* A quest challenge's orders of defenders: a seat is asked for one only
 * with two or more creatures in the challenge; a sealed order lists them
 * all, each once; while the phase lasts someone has still to choose. */
static bool check_orders(const qq_state *st, rules_error *err)
{
    int waiting = 0;
    for (int s = 0; s < st->seats; s++) {
        if (st->chosen[s] < 0)
            continue;
        if (st->phase != QQ_P_CHALLENGE)
            return rules_fail(err, "seat %d has a defense order outside a "
                              "quest challenge", s);
        int band = 0;
        for (int d = 0; d < st->dice_count; d++) {
            const qq_die *x = &st->dice[d];
            band += x->owner == s && x->zone == QQ_Z_QUEST &&
                    x->quest == st->challenge_quest &&
                    ((x->flags & QQ_F_CHALLENGER) != 0) == (s == st->turn);
        }
        if (band < 2)
            return rules_fail(err, "seat %d is asked to order its defenders "
                              "but has %d creature%s in the challenge", s,
                              band, band == 1 ? "" : "s");
        if (st->chosen[s] == 0) {
            waiting++;
            continue;
        }
        bool listed[QQ_MAX_DICE] = {false};
        for (int i = 0; i < st->order_len[s]; i++) {
            int d = st->order[s][i];
            const qq_die *x = &st->dice[d];
            if (listed[d] || x->owner != s || x->zone != QQ_Z_QUEST ||
                x->quest != st->challenge_quest)
                return rules_fail(err, "seat %d's defense order names die "
                                  "%d, not one of its creatures in the "
                                  "challenge", s, d);
            listed[d] = true;
        }
        if (st->order_len[s] != band)
            return rules_fail(err, "seat %d's defense order lists %d of its "
                              "%d creatures in the challenge", s,
                              st->order_len[s], band);
    }
    if (st->phase == QQ_P_CHALLENGE && waiting == 0)
        return rules_fail(err, "a quest challenge with no seat still to "
                          "order its defenders (defense_order null)");
    return true;
}

/* The turn's phase has what it needs. */
static bool check_phase(const qq_state *st, rules_error *err)
{
    if (st->quiddity < 0 || st->culls_left < 0 || st->captures_left < 0)
        return rules_fail(err, "a negative count");
    if (st->phase == QQ_P_CHALLENGE && st->challenge_quest < 0)
        return rules_fail(err, "a challenge without a quest");
    if (st->phase == QQ_P_SPECIAL && st->quest_done < 0)
        return rules_fail(err, "a \"?\" reward without a quest completed "
                          "this turn (turn.quest_done)");
    if (st->phase == QQ_P_DEFEND && st->defender < 0)
        return rules_fail(err, "a defense without a defender "
                          "(turn.defender)");
    if (st->phase == QQ_P_REACT &&
        (st->react_seat < 0 || !(st->react_mask & (1u << st->react_seat))))
        return rules_fail(err, "a reaction window without a seat to ask");
    if (st->phase == QQ_P_TRIGGER &&
        (st->trigger < 0 || st->trigger_pow[st->trigger] == QQ_POW_NONE))
        return rules_fail(err, "a scoring power without its die");
    return check_orders(st, err);
}

bool qq_check(const qq_state *st, rules_error *err)
{
    int held[RULES_MAX_SEATS] = {0};
    if (!check_cards(st, err))
        return false;
    for (int d = 0; d < st->dice_count; d++) {
        if (!check_die(st, d, held, err))
            return false;
    }
    for (int s = 0; s < st->seats; s++) {
        const qq_player *p = &st->players[s];
        if (p->glory != p->glory_scoring + p->glory_quest +
                            p->glory_challenge + p->glory_spell)
            return rules_fail(err, "seat %d's glory differs from its "
                                   "sources", s);
    }
    const qq_quest_roll *r = &st->last_roll;
    if (r->die >= 0 && (r->die >= st->dice_count ||
                        !st->dice[r->die].quest_die || r->face < 0 ||
                        r->face > 5 || r->seat < 0 || r->seat >= st->seats))
        return rules_fail(err, "the last quest roll names no quest die");
    return check_phase(st, err);
}
