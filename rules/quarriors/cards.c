/* cards.c: the DEFAULTs of CLARIFICATIONS.md that are not in
 * quarriors-data.json, and lookups in the data table. The die faces, costs
 * and glory themselves are in cards_data.c, generated from the data file.
 */
#include "qq_internal.h"

#include <stdio.h>
#include <string.h>

/* DEFAULT (CLARIFICATIONS.md): each quest die has 3 Quartifact faces and 3
 * instant faces: +2 quiddity, +1 die drawn and rolled into the Active Pool,
 * and the quest's "?" bonus. Both dice of a quest are the same. */
const qq_quest_face qq_quest_die_faces[6] = {
    {QQ_QR_QUIDDITY, 2},
    {QQ_QR_DICE, 1},
    {QQ_QR_SPECIAL, 0},
    {QQ_QR_QUARTIFACT, 0},
    {QQ_QR_QUARTIFACT, 1},
    {QQ_QR_QUARTIFACT, 2},
};

/* DEFAULT (CLARIFICATIONS.md): the "?" bonus of every quest version is a
 * free capture of one die costing up to the quest's level + 2. */
int qq_quest_special_cost(int quest_type)
{
    return qq_quests[quest_type].level + 2;
}

/* The attack and defense an attached Quartifact gives its carrier. Its
 * powers are "defined on the corresponding Quest Card" and the data file
 * knows none (quartifact_powers_per_version: null), so the DEFAULT for
 * unknown card powers (CLARIFICATIONS.md: "a card whose power is unknown
 * has only its die faces") applies: nothing. A publisher-accurate table
 * replaces this. */
int qq_quartifact_bonus(int quest_type)
{
    (void)quest_type;
    return 0;
}

int qq_card_find(const char *id)
{
    for (int i = 0; i < qq_cards_count; i++) {
        if (strcmp(qq_cards[i].id, id) == 0)
            return i;
    }
    return -1;
}

int qq_quest_find(const char *id)
{
    for (int i = 0; i < qq_quests_count; i++) {
        if (strcmp(qq_quests[i].id, id) == 0)
            return i;
    }
    return -1;
}

/* The name of Quartifact face `which` of a quest die; names the data file
 * does not know are written "<Quest> relic N". */
const char *qq_quartifact_name(int quest_type, int which, char *buf,
                               size_t size)
{
    const qq_quest_def *q = &qq_quests[quest_type];
    if (which < q->quartifact_count)
        return q->quartifacts[which];
    snprintf(buf, size, "%s relic %d", q->name, which + 1);
    return buf;
}

/* Immunity (Quarmageddon keyword; Quartifacts rulebook, GAME TERMS 4):
 * protects a creature from spells, other creatures' abilities and
 * Quartifact powers, never from damage nor from its own player's effects
 * (qq_shielded in stats.c). DEFAULT: the data file knows no card that has
 * it ("unknown": which Quarmageddon creatures have Immunity), so no card of
 * the table is immune; a card added here is protected everywhere. */
bool qq_card_immune(int card)
{
    (void)card;
    return false;
}
