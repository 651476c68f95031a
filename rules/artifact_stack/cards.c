/* cards.c: every DEFAULT of Artifact Stack in one table.
 *
 * Provenance: the publisher's card list is not known to us. Everything below
 * comes from ../shared/rules/CLARIFICATIONS.md, section "Artifact Stack"
 * (marked DEFAULT there), and from the rulebook (artifact-stack.nl.md) for
 * the numbers it prints: 40 silver, 2 each, 4 star cards of 3 VP, the
 * 5x3 / 4x2 / 3x1 temple, the bonus sizes and set values. Where the
 * clarifications give a list without an order (which China card carries
 * which letter, which monster is which card number, which assistant belongs
 * to which stack), the order chosen here is our own DEFAULT and is named in
 * the README. Replace this file with a publisher-accurate table and nothing
 * else needs to change.
 */
#include "artifact_stack_internal.h"

#include <string.h>

#define NINE(s) s "1", s "2", s "3", s "4", s "5", s "6", s "7", s "8", s "9"

static const char *const card_names[AS_CARDS] = {
    NINE("statues"),  NINE("coins"),   NINE("weapons"), NINE("manuscripts"),
    NINE("jewelry"),  NINE("relics"),  NINE("curses"),  NINE("china"),
    NINE("monsters"), NINE("treasures"),
};

const as_table as_data = {
    .stack_names = {"statues", "coins", "weapons", "manuscripts", "jewelry",
                    "relics", "curses", "china", "monsters", "treasures"},
    /* rulebook: coins 2 VP; weapons, manuscripts, jewelry, relics, a lone
     * China card 1 VP; curse & blessing 0 */
    .stack_vp = {0, 2, 1, 1, 1, 1, 0, 1, 0, 0},
    .stack_flips = {true, true, true, true, true, false, false, true, false,
                    false},
    /* DEFAULT: cards 1-3 of every stack carry a star, 7-9 are covered */
    .star = {true, true, true, false, false, false, false, false, false},
    .covered = {false, false, false, false, false, false, true, true, true},
    /* DEFAULT: 3 A, 3 B, 3 C (order ours) */
    .china_letter = {'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'},
    /* DEFAULT: 2 vampire, 2 mummy, 1 vampire mummy, 2 cross, 2 coffin
     * (order ours) */
    .monster = {AS_VAMPIRE, AS_MUMMY, AS_CROSS, AS_COFFIN, AS_VAMPIRE_MUMMY,
                AS_VAMPIRE, AS_MUMMY, AS_CROSS, AS_COFFIN},
    /* DEFAULT: 2,2,3,3,3,4,4,5,5 VP or 1 silver per 2 VP rounded down */
    .treasure_vp = {2, 2, 3, 3, 3, 4, 4, 5, 5},
    .treasure_cash_per_vp = 2,
    /* DEFAULT: curse & blessing effects, in the clarifications' order */
    .fate = {AS_FATE_GAIN2, AS_FATE_GAIN1, AS_FATE_EXTRA_ACTION,
             AS_FATE_ASSISTANT, AS_FATE_LOSE1, AS_FATE_LOSE2, AS_FATE_GIVE,
             AS_FATE_LOSE_ACTION, AS_FATE_DISCARD},
    .fate_text = {"gain 2 silver", "gain 1 silver", "take a free extra action",
                  "take 1 assistant", "lose 1 silver", "lose 2 silver",
                  "give one face-up card to the next player",
                  "lose your next action",
                  "discard one face-up card to the box"},
    /* DEFAULT: 12 assistants, 1-2 per stack; names and stacks ours */
    .assistants = {
        {"sculptor", AS_STATUES, AS_ABILITY_POINTS},
        {"banker", AS_COINS, AS_ABILITY_SILVER},
        {"thief", AS_WEAPONS, AS_ABILITY_STEAL},
        {"scribe", AS_MANUSCRIPTS, AS_ABILITY_EXTRA_ACTION},
        {"jeweler", AS_JEWELRY, AS_ABILITY_SILVER},
        {"digger", AS_RELICS, AS_ABILITY_FREE_DIG},
        {"guide", AS_RELICS, AS_ABILITY_EXTRA_ACTION},
        {"seer", AS_CURSES, AS_ABILITY_FREE_PEEK},
        {"porter", AS_CHINA, AS_ABILITY_POINTS},
        {"hunter", AS_MONSTERS, AS_ABILITY_STEAL},
        {"excavator", AS_TREASURES, AS_ABILITY_FREE_DIG},
        {"cartographer", AS_TREASURES, AS_ABILITY_FREE_PEEK},
    },
    .ability_text = {"dig out one card for free",
                     "peek at any face-down card for free",
                     "take one extra action", "steal a face-up card",
                     "gain 2 silver", "+2 VP at game end"},
    .ability_vp = {0, 0, 0, 0, 0, 2},
    .assistant_vp = 1,
    .ability_silver = 2,
    /* DEFAULT geometry: 5x3, 4x2, 3x1 */
    .layer_cols = {5, 4, 3},
    .layer_rows = {3, 2, 1},
    .silver_total = 40,
    .start_silver = 2,
    .star_card_vp = 3,
    .star_cards = 4,
    .relic_bonus = 3,
    .china_pair_vp = 4,
    .china_triple_vp = 8,
    .china_abc_vp = 10,
    .combo_vp_pair = 5,
    .combo_vp_vampire_mummy = 4,
    .monster_loose_vp = -1,
    .cross_vp = -1,
    .coffin_vp = 2,
    .bonus_of_2 = 1,
    .bonus_of_3 = 2,
    .min_seats = 2,
    .max_seats = 4,
};

const char *as_card_name(int card)
{
    if (card < 0 || card >= AS_CARDS)
        return "?";
    return card_names[card];
}

/* A name is a stack's name and one digit, so the digit is read and only
 * the ten stack names are compared: load looks up every card of a position
 * this way, and a scan of all 90 names per card would be quadratic. */
int as_card_by_name(const char *name)
{
    size_t len = strlen(name);
    if (len < 2 || name[len - 1] < '1' || name[len - 1] > '9')
        return AS_NO_CARD;
    for (int stack = 0; stack < AS_STACKS; stack++) {
        const char *stack_name = as_data.stack_names[stack];
        if (strlen(stack_name) == len - 1 &&
            memcmp(stack_name, name, len - 1) == 0)
            return stack * AS_PER_STACK + (name[len - 1] - '1');
    }
    return AS_NO_CARD;
}

int as_card_stack(int card)
{
    return card / AS_PER_STACK;
}

int as_card_number(int card)
{
    return card % AS_PER_STACK + 1;
}

int as_stack_by_name(const char *name)
{
    for (int s = 0; s < AS_STACKS; s++) {
        if (strcmp(as_data.stack_names[s], name) == 0)
            return s;
    }
    return -1;
}

int as_assistant_by_name(const char *name)
{
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (strcmp(as_data.assistants[a].name, name) == 0)
            return a;
    }
    return -1;
}

/* Slots: the bottom layer first, row by row, then the middle, then the top. */
static int layer_base(int layer)
{
    int base = 0;
    for (int l = 0; l < layer; l++)
        base += as_data.layer_cols[l] * as_data.layer_rows[l];
    return base;
}

int as_slot_layer(int slot)
{
    for (int l = AS_LAYERS - 1; l >= 0; l--) {
        if (slot >= layer_base(l))
            return l;
    }
    return 0;
}

int as_slot_col(int slot)
{
    int l = as_slot_layer(slot);
    return (slot - layer_base(l)) % as_data.layer_cols[l];
}

int as_slot_row(int slot)
{
    int l = as_slot_layer(slot);
    return (slot - layer_base(l)) / as_data.layer_cols[l];
}

int as_slot_at(int layer, int col, int row)
{
    if (layer < 0 || layer >= AS_LAYERS || col < 0 ||
        col >= as_data.layer_cols[layer] || row < 0 ||
        row >= as_data.layer_rows[layer])
        return -1;
    return layer_base(layer) + row * as_data.layer_cols[layer] + col;
}

/* A card of layer l+1 at (c, r) covers the four cards of layer l at
 * (c..c+1, r..r+1). */
bool as_slot_covers(int upper, int lower)
{
    if (as_slot_layer(upper) != as_slot_layer(lower) + 1)
        return false;
    int dc = as_slot_col(lower) - as_slot_col(upper);
    int dr = as_slot_row(lower) - as_slot_row(upper);
    return dc >= 0 && dc <= 1 && dr >= 0 && dr <= 1;
}
