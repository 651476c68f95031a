/* collection.c: what a set of cards is as a collection (rulebook
 * "Collections"): Mixed, Standard or Perfect, antiquity or treasure, and its
 * value once complete.
 *   RULING (CLARIFICATIONS.md): a wild is never a duplicate, so a Perfect
 *   collection may hold several wilds; the kind is recomputed from the
 *   cards whenever a card is added.
 *   RULING (CLARIFICATIONS.md): Mixed collections may exceed 5 cards;
 *   Standard and Perfect collections are exactly 5 when complete. */
#include "aq_internal.h"

#define AQ_SEVERAL_SUITS (-2)

aq_shape aq_shape_of(const uint8_t *cards, int count)
{
    aq_shape shape = {.size = count, .suit = AQ_NONE};
    int seen_value[AQ_SUITS + 1] = {0};  /* bit per antiquity value */
    int seen_treasure = 0;
    for (int i = 0; i < count; i++) {
        aq_card c = aq_card_info(cards[i]);
        if (c.kind == AQ_ANTIQUITY) {
            shape.antiquities++;
            if (shape.suit == AQ_NONE)
                shape.suit = c.suit;
            else if (shape.suit != c.suit)
                shape.suit = AQ_SEVERAL_SUITS;
            if (c.value != 0) {
                if (seen_value[c.suit] & (1 << c.value))
                    shape.duplicate = true;
                seen_value[c.suit] |= 1 << c.value;
            }
        } else if (c.kind == AQ_TREASURE) {
            shape.treasures++;
            if (seen_treasure & (1 << c.value))
                shape.duplicate = true;
            seen_treasure |= 1 << c.value;
        } else {
            shape.characters++;
        }
    }
    return shape;
}

bool aq_shape_valid(const aq_shape *shape, rules_error *err)
{
    if (shape->characters > 0)
        return rules_fail(err, "Remington and Tess cards are never part of "
                               "a collection");
    if (shape->suit == AQ_SEVERAL_SUITS)
        return rules_fail(err, "the antiquities in a collection must all be "
                               "of the same civilization");
    if (shape->size < 3)
        return rules_fail(err, "a collection needs at least 3 cards");
    if ((shape->antiquities == 0 || shape->treasures == 0) && shape->size > 5)
        return rules_fail(err, "only Mixed collections may exceed 5 cards");
    return true;
}

bool aq_shape_complete(const aq_shape *shape)
{
    return shape->size >= 5;
}

aq_grade aq_shape_grade(const aq_shape *shape)
{
    if (shape->antiquities > 0 && shape->treasures > 0)
        return AQ_GRADE_MIXED;
    return shape->duplicate ? AQ_GRADE_STANDARD : AQ_GRADE_PERFECT;
}

int aq_shape_value(const aq_shape *shape)
{
    if (!aq_shape_complete(shape))
        return 0;
    bool treasure = shape->antiquities == 0;
    switch (aq_shape_grade(shape)) {
    case AQ_GRADE_MIXED:
        return 250;
    case AQ_GRADE_STANDARD:
        return treasure ? 750 : 500;
    case AQ_GRADE_PERFECT:
        return treasure ? 1500 : 1000;
    default:
        return 0;
    }
}

const char *aq_grade_text(aq_grade grade)
{
    switch (grade) {
    case AQ_GRADE_MIXED:
        return "mixed";
    case AQ_GRADE_STANDARD:
        return "standard";
    case AQ_GRADE_PERFECT:
        return "perfect";
    default:
        return "invalid";
    }
}
