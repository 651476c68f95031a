/* piles.c: moving cards between piles, and finding collections. */
#include "aq_internal.h"

#include <string.h>

void aq_pile_push(aq_pile *pile, int card)
{
    pile->card[pile->count++] = (uint8_t)card;
}

int aq_pile_pop(aq_pile *pile)
{
    return pile->card[--pile->count];
}

void aq_pile_remove_at(aq_pile *pile, int i)
{
    memmove(&pile->card[i], &pile->card[i + 1],
            (size_t)(pile->count - i - 1));
    pile->count--;
}

int aq_pile_find(const aq_pile *pile, int card)
{
    for (int i = 0; i < pile->count; i++) {
        if (pile->card[i] == card)
            return i;
    }
    return AQ_NONE;
}

void aq_pile_insert_sorted(aq_pile *pile, int card)
{
    int i = pile->count;
    while (i > 0 && pile->card[i - 1] > card) {
        pile->card[i] = pile->card[i - 1];
        i--;
    }
    pile->card[i] = (uint8_t)card;
    pile->count++;
}

void aq_pile_name_counts(const aq_pile *pile, int counts[AQ_NAMES])
{
    memset(counts, 0, sizeof(int) * AQ_NAMES);
    for (int i = 0; i < pile->count; i++)
        counts[aq_card_info(pile->card[i]).name]++;
}

bool aq_pile_pick(const aq_pile *pile, const int *names, int count,
                  uint8_t *ids, rules_error *err)
{
    bool used[AQ_CARDS] = {false};
    for (int k = 0; k < count; k++) {
        int best = AQ_NONE;
        for (int i = 0; i < pile->count; i++) {
            int id = pile->card[i];
            if (!used[id] && aq_card_info(id).name == names[k] &&
                (best == AQ_NONE || id < best))
                best = id;
        }
        if (best == AQ_NONE)
            return rules_fail(err, "you do not hold enough %s cards for "
                                   "that move", aq_name_text(names[k]));
        used[best] = true;
        ids[k] = (uint8_t)best;
    }
    return true;
}

aq_collection *aq_collection_find(aq_state *s, int id)
{
    for (int i = 0; i < s->collections; i++) {
        if (s->coll[i].id == id)
            return &s->coll[i];
    }
    return NULL;
}

const aq_collection *aq_collection_find_const(const aq_state *s, int id)
{
    for (int i = 0; i < s->collections; i++) {
        if (s->coll[i].id == id)
            return &s->coll[i];
    }
    return NULL;
}

int aq_completed_count(const aq_state *s, int side)
{
    int n = 0;
    for (int i = 0; i < s->collections; i++) {
        if (s->coll[i].side == side && s->coll[i].count >= 5)
            n++;
    }
    return n;
}
