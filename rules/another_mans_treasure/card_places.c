/* card_places.c: the cards of a hand-edited position, by name. A position
 * names cards as the notation does ("B5", "Y5s", "W1-6"); the engine keeps
 * ids. Copies of a card are alike, so each name's copies are handed out
 * in id order as they are met, in constant time per card, and every
 * place is remembered to say where the other copies went when a card is
 * placed once too often. */
#include "amt_internal.h"

#include <stdio.h>
#include <string.h>

void amt_places_init(amt_card_places *places)
{
    memset(places, 0, sizeof *places);
}

void amt_place_path(amt_place where, char *out, size_t size)
{
    switch ((amt_pile)where.pile) {
    case AMT_AT_DRAW_PILE:
        snprintf(out, size, "draw_pile[%d]", where.index);
        return;
    case AMT_AT_DISCARD_PILE:
        snprintf(out, size, "discard_pile[%d]", where.index);
        return;
    case AMT_AT_HAND:
        snprintf(out, size, "players[%d].hand[%d]", where.seat, where.index);
        return;
    case AMT_AT_MELD:
        snprintf(out, size, "players[%d].melds[%d].cards[%d]", where.seat,
                 where.meld, where.index);
        return;
    }
    snprintf(out, size, "?");
}

/* "draw_pile[3], players[0].hand[1] and discard_pile[0]": where the
 * copies first .. first+count-1 were placed. */
static void list_places(const amt_card_places *places, int first, int count,
                        char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < count && len < size; i++) {
        char path[48];
        amt_place_path(places->at[first + i], path, sizeof path);
        const char *glue = i == 0 ? "" : i == count - 1 ? " and " : ", ";
        int n = snprintf(out + len, size - len, "%s%s", glue, path);
        if (n < 0)
            return;
        len += (size_t)n;
    }
}

/* Why the card named by value may not be placed at where. */
static bool refuse(const amt_card_places *places, const json_t *value,
                   amt_place where, rules_error *err)
{
    char path[48];
    amt_place_path(where, path, sizeof path);
    const char *name = json_string_value(value);
    if (name == NULL)
        return rules_fail(err, "%s: a card is written by its name, like "
                               "\"R3\", \"Y5s\" (a smiley 5) or \"W1-6\"",
                          path);
    int first, copies;
    if (!amt_card_named(name, &first, &copies)) {
        size_t n = strlen(name);
        bool smiley = n > 1 && (name[n - 1] == 's' || name[n - 1] == 'S');
        return rules_fail(err, "%s: there is no card \"%.24s\"%s", path, name,
                          smiley ? " (only a 5, 6 or 7 has a smiley copy)"
                                 : "");
    }
    char canonical[AMT_NAME_LEN];
    amt_card_name(first, canonical);
    char others[160];
    list_places(places, first, copies, others, sizeof others);
    if (copies == 1)
        return rules_fail(err, "%s: there is only one \"%s\", already in %s",
                          path, canonical, others);
    return rules_fail(err, "%s: there are only %d \"%s\", already in %s",
                      path, copies, canonical, others);
}

bool amt_places_take(amt_card_places *places, const json_t *value,
                     amt_place where, int16_t *id, rules_error *err)
{
    const char *name = json_string_value(value);
    int first, copies;
    if (name == NULL || !amt_card_named(name, &first, &copies) ||
        places->placed[first] >= copies)
        return refuse(places, value, where, err);
    *id = (int16_t)(first + places->placed[first]++);
    places->at[*id] = where;
    places->total++;
    return true;
}

bool amt_places_complete(const amt_card_places *places, rules_error *err)
{
    /* No name is placed more often than it has copies, so a full count
     * means every card is placed. */
    if (places->total == AMT_CARDS)
        return true;
    for (int id = 0; id < AMT_CARDS; id++) {
        char name[AMT_NAME_LEN];
        amt_card_name(id, name);
        int first, copies;
        amt_card_named(name, &first, &copies);
        if (first != id || places->placed[first] == copies)
            continue;
        if (copies == 1)
            return rules_fail(err, "a card is missing: \"%s\" is in no "
                                   "place (each card is in draw_pile, "
                                   "discard_pile, a hand or a meld)",
                              name);
        return rules_fail(err, "a card is missing: only %d of the %d \"%s\" "
                               "have a place (each card is in draw_pile, "
                               "discard_pile, a hand or a meld)",
                          places->placed[first], copies, name);
    }
    return rules_fail(err, "a card is missing");
}
