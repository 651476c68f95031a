/* cards.c: the 217-card deck, its names and its point values. This is the
 * engine's one data table; its provenance (shared/rules/CLARIFICATIONS.md):
 *   FACT     150 numbered antiquities (6 suits x values 1-5 x 5 copies),
 *            18 wilds (3 per suit), 35 treasures (7 of each of 5 types),
 *            8 Remington, 6 Tess = 217 cards; the 3 blank cards are unused.
 *   DEFAULT  suit names yellow, green, red, orange, blue, purple and
 *            treasure names crown, chalice, scepter, mask, amulet.
 *   FACT     (rulebook "Scoring") 25 points per antiquity and 50 per
 *            treasure played; -25/-50/-100 per antiquity/treasure/character
 *            left in hand or cache.
 *
 * Card ids: 0..149 numbered antiquities (suit*25 + (value-1)*5 + copy),
 * 150..167 wilds (150 + suit*3 + copy), 168..202 treasures (168 + type*7 +
 * copy), 203..210 Remington, 211..216 Tess. */
#include "aq_internal.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* DEFAULT (CLARIFICATIONS.md): the suit names, in suit order. */
static const char *const suit_names[AQ_SUITS] = {
    "yellow", "green", "red", "orange", "blue", "purple",
};

/* Name index order: each suit's 1..5 then W, the treasures, the
 * characters. DEFAULT names as above. */
static const char *const card_names[AQ_NAMES] = {
    "yellow1", "yellow2", "yellow3", "yellow4", "yellow5", "yellowW",
    "green1",  "green2",  "green3",  "green4",  "green5",  "greenW",
    "red1",    "red2",    "red3",    "red4",    "red5",    "redW",
    "orange1", "orange2", "orange3", "orange4", "orange5", "orangeW",
    "blue1",   "blue2",   "blue3",   "blue4",   "blue5",   "blueW",
    "purple1", "purple2", "purple3", "purple4", "purple5", "purpleW",
    "crown",   "chalice", "scepter", "mask",    "amulet",
    "remington", "tess",
};

/* Every card's token, by id (the layout above). */
static const char *const card_tokens[AQ_CARDS] = {
    "yellow1.1", "yellow1.2", "yellow1.3", "yellow1.4", "yellow1.5",
    "yellow2.1", "yellow2.2", "yellow2.3", "yellow2.4", "yellow2.5",
    "yellow3.1", "yellow3.2", "yellow3.3", "yellow3.4", "yellow3.5",
    "yellow4.1", "yellow4.2", "yellow4.3", "yellow4.4", "yellow4.5",
    "yellow5.1", "yellow5.2", "yellow5.3", "yellow5.4", "yellow5.5",
    "green1.1", "green1.2", "green1.3", "green1.4", "green1.5", "green2.1",
    "green2.2", "green2.3", "green2.4", "green2.5", "green3.1", "green3.2",
    "green3.3", "green3.4", "green3.5", "green4.1", "green4.2", "green4.3",
    "green4.4", "green4.5", "green5.1", "green5.2", "green5.3", "green5.4",
    "green5.5", "red1.1", "red1.2", "red1.3", "red1.4", "red1.5", "red2.1",
    "red2.2", "red2.3", "red2.4", "red2.5", "red3.1", "red3.2", "red3.3",
    "red3.4", "red3.5", "red4.1", "red4.2", "red4.3", "red4.4", "red4.5",
    "red5.1", "red5.2", "red5.3", "red5.4", "red5.5", "orange1.1",
    "orange1.2", "orange1.3", "orange1.4", "orange1.5", "orange2.1",
    "orange2.2", "orange2.3", "orange2.4", "orange2.5", "orange3.1",
    "orange3.2", "orange3.3", "orange3.4", "orange3.5", "orange4.1",
    "orange4.2", "orange4.3", "orange4.4", "orange4.5", "orange5.1",
    "orange5.2", "orange5.3", "orange5.4", "orange5.5", "blue1.1", "blue1.2",
    "blue1.3", "blue1.4", "blue1.5", "blue2.1", "blue2.2", "blue2.3",
    "blue2.4", "blue2.5", "blue3.1", "blue3.2", "blue3.3", "blue3.4",
    "blue3.5", "blue4.1", "blue4.2", "blue4.3", "blue4.4", "blue4.5",
    "blue5.1", "blue5.2", "blue5.3", "blue5.4", "blue5.5", "purple1.1",
    "purple1.2", "purple1.3", "purple1.4", "purple1.5", "purple2.1",
    "purple2.2", "purple2.3", "purple2.4", "purple2.5", "purple3.1",
    "purple3.2", "purple3.3", "purple3.4", "purple3.5", "purple4.1",
    "purple4.2", "purple4.3", "purple4.4", "purple4.5", "purple5.1",
    "purple5.2", "purple5.3", "purple5.4", "purple5.5", "yellowW.1",
    "yellowW.2", "yellowW.3", "greenW.1", "greenW.2", "greenW.3", "redW.1",
    "redW.2", "redW.3", "orangeW.1", "orangeW.2", "orangeW.3", "blueW.1",
    "blueW.2", "blueW.3", "purpleW.1", "purpleW.2", "purpleW.3", "crown.1",
    "crown.2", "crown.3", "crown.4", "crown.5", "crown.6", "crown.7",
    "chalice.1", "chalice.2", "chalice.3", "chalice.4", "chalice.5",
    "chalice.6", "chalice.7", "scepter.1", "scepter.2", "scepter.3",
    "scepter.4", "scepter.5", "scepter.6", "scepter.7", "mask.1", "mask.2",
    "mask.3", "mask.4", "mask.5", "mask.6", "mask.7", "amulet.1", "amulet.2",
    "amulet.3", "amulet.4", "amulet.5", "amulet.6", "amulet.7", "remington.1",
    "remington.2", "remington.3", "remington.4", "remington.5", "remington.6",
    "remington.7", "remington.8", "tess.1", "tess.2", "tess.3", "tess.4",
    "tess.5", "tess.6",
};

const char *aq_name_text(int name)
{
    return name >= 0 && name < AQ_NAMES ? card_names[name] : "?";
}

/* The suit whose name is the first len characters of text
 * (case-insensitive), or AQ_NONE. The suits' first letters differ, so
 * one comparison decides. */
static int suit_prefix(const char *text, size_t len)
{
    int first = tolower((unsigned char)text[0]);
    for (int s = 0; s < AQ_SUITS; s++) {
        if (suit_names[s][0] == first && strlen(suit_names[s]) == len &&
            strncasecmp(text, suit_names[s], len) == 0)
            return s;
    }
    return AQ_NONE;
}

/* aq_name_parse of the len characters at text. Read by the card's shape
 * rather than by scanning all 43 names: an antiquity is a suit name and
 * one of 1-5 or W, anything else is one of the seven treasure and
 * character names. Loading a snapshot parses 217 of these, and a view's
 * text about a hundred. */
static int name_parse(const char *text, size_t len)
{
    if (len < 2 || len > 9)
        return AQ_NONE;
    char last = (char)tolower((unsigned char)text[len - 1]);
    if ((last >= '1' && last <= '5') || last == 'w') {
        int suit = suit_prefix(text, len - 1);
        if (suit != AQ_NONE)
            return suit * 6 + (last == 'w' ? 5 : last - '1');
    }
    int first = tolower((unsigned char)text[0]);
    for (int n = AQ_NAME_TREASURE; n < AQ_NAMES; n++) {
        if (card_names[n][0] == first && strlen(card_names[n]) == len &&
            strncasecmp(text, card_names[n], len) == 0)
            return n;
    }
    return AQ_NONE;
}

int aq_name_parse(const char *text)
{
    return name_parse(text, strlen(text));
}

int aq_name_first_id(int name)
{
    if (name < AQ_NAME_TREASURE) {
        int suit = name / 6;
        int value = name % 6 + 1;
        return value == 6 ? AQ_WILD_BASE + suit * 3 : suit * 25 + (value - 1) * 5;
    }
    if (name < AQ_NAME_REMINGTON)
        return AQ_TREASURE_BASE + (name - AQ_NAME_TREASURE) * 7;
    return name == AQ_NAME_REMINGTON ? AQ_REMINGTON_BASE : AQ_TESS_BASE;
}

int aq_name_copies(int name)
{
    if (name < AQ_NAME_TREASURE)
        return name % 6 == 5 ? 3 : 5;
    if (name < AQ_NAME_REMINGTON)
        return 7;
    return name == AQ_NAME_REMINGTON ? 8 : 6;
}

const char *aq_card_token(int id)
{
    return id >= 0 && id < AQ_CARDS ? card_tokens[id] : "?";
}

int aq_card_parse(const char *word, int *name)
{
    const char *dot = strchr(word, '.');
    size_t len = dot != NULL ? (size_t)(dot - word) : strlen(word);
    if (len == 0 || len >= 16)
        return AQ_CARD_UNKNOWN;
    *name = name_parse(word, len);
    if (*name == AQ_NONE)
        return AQ_CARD_UNKNOWN;
    if (dot == NULL)
        return AQ_CARD_ANY_COPY;
    if (dot[1] < '1' || dot[1] > '9' || dot[2] != '\0' ||
        dot[1] - '1' >= aq_name_copies(*name))
        return AQ_CARD_UNKNOWN;
    return aq_name_first_id(*name) + (dot[1] - '1');
}

int aq_token_parse(const char *token)
{
    int name;
    int id = aq_card_parse(token, &name);
    return id >= 0 ? id : AQ_NONE;
}

int aq_cards_in_notation_order(const uint8_t *sorted, int count,
                                uint8_t *out)
{
    /* In id order the wilds of every suit follow all numbered cards; in
     * the notation's they follow their own suit's 1-5. */
    int numbered = 0;
    int wild = 0;
    while (wild < count && sorted[wild] < AQ_WILD_BASE)
        wild++;
    int rest = wild;
    while (rest < count && sorted[rest] < AQ_TREASURE_BASE)
        rest++;
    int n = 0;
    for (int suit = 0; suit < AQ_SUITS; suit++) {
        while (numbered < wild && sorted[numbered] < (suit + 1) * 25)
            out[n++] = sorted[numbered++];
        while (wild < rest && sorted[wild] < AQ_WILD_BASE + (suit + 1) * 3)
            out[n++] = sorted[wild++];
    }
    while (rest < count)
        out[n++] = sorted[rest++];
    return n;
}

const char *aq_suit_text(int suit)
{
    return suit >= 0 && suit < AQ_SUITS ? suit_names[suit] : "?";
}

int aq_suit_parse(const char *text)
{
    for (int s = 0; s < AQ_SUITS; s++) {
        if (strcasecmp(text, suit_names[s]) == 0)
            return s;
    }
    return AQ_NONE;
}

int aq_card_played_points(int id)
{
    aq_card c = aq_card_info(id);
    return c.kind == AQ_TREASURE ? 50 : c.kind == AQ_ANTIQUITY ? 25 : 0;
}

int aq_card_penalty(int id)
{
    aq_card c = aq_card_info(id);
    return c.kind == AQ_ANTIQUITY ? 25 : c.kind == AQ_TREASURE ? 50 : 100;
}
