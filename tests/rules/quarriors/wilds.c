/* wilds.c: cards put into the Wilds of a test position (wilds.h). */
#include "wilds.h"

#include <criterion/criterion.h>
#include <string.h>

void qq_test_put_card(qq_state *st, int slot, const char *id)
{
    int card = qq_card_find(id);
    cr_assert_geq(card, 0, "no card %s", id);
    for (int s = 0; s < st->slot_count; s++) {
        if (s != slot && strcmp(qq_cards[st->slots[s].card].klass,
                                qq_cards[card].klass) == 0)
            st->slots[s].card = st->slots[slot].card;
    }
    st->slots[slot].card = card;
}
