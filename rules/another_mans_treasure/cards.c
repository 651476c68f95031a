/* cards.c: the card and collection-pattern tables of Another Man's Treasure,
 * with their provenance. Every DEFAULT the engine relies on lives here.
 *
 * Provenance (../shared/rules/CLARIFICATIONS.md, "Another Man's Treasure"):
 *  - DEFAULT colours: blue, red, yellow, green (letters B R Y G).
 *  - RULING: per colour 1x3, 2x2, 3x2, 4..8 x4 each, 9x2, 10x2, 11x3 = 34
 *    cards; 136 numbered cards + 9 wilds (3 each of 1-6, 6-11, 1-11) = 145.
 *  - FACT: smiley cards are one 5, one 6 and one 7 of each colour (here the
 *    first copy of each).
 *  - FACT: a numbered card left in hand scores 5, a 1-6 or 6-11 wild 10, a
 *    1-11 wild 15.
 *  - FACT (rulebook): Classic = 5 rounds of 8 cards with the five Classic
 *    patterns; Progressive = 9 rounds in blocks of 6, 8 and 10 cards with
 *    three patterns each.
 *  - RULING: the Classic score sheet's "1 suited run of 6" is a misprint of
 *    "1 suited run of 8".
 * Card ids: numbered cards colour-major (colour*34 + position among the
 * colour's cards in number order), then wilds 136-138 (1-6), 139-141 (6-11),
 * 142-144 (1-11). */
#include "amt_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* RULING: copies of each number per colour (index = number). */
static const int copies_per_colour[AMT_MAX_NUMBER + 1] = {
    0, 3, 2, 2, 4, 4, 4, 4, 4, 2, 2, 3,
};
#define CARDS_PER_COLOUR 34

/* DEFAULT colours. */
static const char colour_letters[AMT_COLOURS] = {'B', 'R', 'Y', 'G'};

/* FACT: wild ranges and their points. */
static const struct {
    const char *name;
    int low, high, points;
} wild_types[AMT_WILD_TYPES] = {
    {"W1-6", 1, 6, 10},
    {"W6-11", 6, 11, 10},
    {"W1-11", 1, 11, 15},
};

/* FACT: numbered cards score 5 each whatever their number. */
#define NUMBERED_POINTS 5

static const amt_pattern patterns[AMT_PATTERNS] = {
    [AMT_P_2SETS4] = {"2sets4", "2 sets of 4", 2, {AMT_SET, AMT_SET}, {4, 4}},
    [AMT_P_2RUNS4] = {"2runs4", "2 suited runs of 4", 2, {AMT_RUN, AMT_RUN},
                      {4, 4}},
    [AMT_P_SET4RUN4] = {"set4run4", "1 set of 4 and 1 suited run of 4", 2,
                        {AMT_SET, AMT_RUN}, {4, 4}},
    [AMT_P_RUN8] = {"run8", "1 suited run of 8", 1, {AMT_RUN}, {8}},
    [AMT_P_4PAIRS] = {"4pairs", "4 suited pairs", 4,
                      {AMT_PAIR, AMT_PAIR, AMT_PAIR, AMT_PAIR}, {2, 2, 2, 2}},
    [AMT_P_3PAIRS] = {"3pairs", "3 suited pairs", 3,
                      {AMT_PAIR, AMT_PAIR, AMT_PAIR}, {2, 2, 2}},
    [AMT_P_RUN6] = {"run6", "1 suited run of 6", 1, {AMT_RUN}, {6}},
    [AMT_P_2SETS3] = {"2sets3", "2 sets of 3", 2, {AMT_SET, AMT_SET}, {3, 3}},
    [AMT_P_5PAIRS] = {"5pairs", "5 suited pairs", 5,
                      {AMT_PAIR, AMT_PAIR, AMT_PAIR, AMT_PAIR, AMT_PAIR},
                      {2, 2, 2, 2, 2}},
    [AMT_P_2RUNS5] = {"2runs5", "2 suited runs of 5", 2, {AMT_RUN, AMT_RUN},
                      {5, 5}},
    [AMT_P_2SETS5] = {"2sets5", "2 sets of 5", 2, {AMT_SET, AMT_SET}, {5, 5}},
};

/* FACT: the Classic game's five patterns; Progressive blocks of three. */
static const int classic_patterns[] = {
    AMT_P_2SETS4, AMT_P_2RUNS4, AMT_P_SET4RUN4, AMT_P_RUN8, AMT_P_4PAIRS,
};
static const int progressive_patterns[3][3] = {
    {AMT_P_3PAIRS, AMT_P_RUN6, AMT_P_2SETS3},
    {AMT_P_4PAIRS, AMT_P_RUN8, AMT_P_2SETS4},
    {AMT_P_5PAIRS, AMT_P_2RUNS5, AMT_P_2SETS5},
};
#define CLASSIC_ROUNDS 5
#define CLASSIC_HAND 8
#define PROGRESSIVE_ROUNDS 9
#define PROGRESSIVE_BLOCK 3
static const int progressive_hands[3] = {6, 8, 10};

static const char *const kind_names[3] = {"set", "run", "pair"};

amt_card amt_card_get(int id)
{
    amt_card c = {0};
    if (id >= AMT_NUMBERED) {
        c.wild = true;
        c.colour = -1;
        c.wild_type = (id - AMT_NUMBERED) / 3;
        return c;
    }
    c.colour = id / CARDS_PER_COLOUR;
    c.wild_type = -1;
    int pos = id % CARDS_PER_COLOUR;
    for (int n = 1; n <= AMT_MAX_NUMBER; n++) {
        if (pos < copies_per_colour[n]) {
            c.number = n;
            c.smiley = (n >= 5 && n <= 7 && pos == 0);
            return c;
        }
        pos -= copies_per_colour[n];
    }
    return c;
}

/* Writes a numbered card's name ("B10", "Y5s") without printf: names
 * are written for every card of every snapshot. */
static void numbered_name(int colour, int number, bool smiley,
                          char out[AMT_NAME_LEN])
{
    int n = 0;
    out[n++] = colour_letters[colour];
    if (number >= 10)
        out[n++] = (char)('0' + number / 10);
    out[n++] = (char)('0' + number % 10);
    if (smiley)
        out[n++] = 's';
    out[n] = '\0';
}

void amt_card_name(int id, char out[AMT_NAME_LEN])
{
    amt_card c = amt_card_get(id);
    if (c.wild)
        snprintf(out, AMT_NAME_LEN, "%s", wild_types[c.wild_type].name);
    else
        numbered_name(c.colour, c.number, c.smiley, out);
}

bool amt_wild_covers(int wild_type, int number)
{
    return number >= wild_types[wild_type].low &&
           number <= wild_types[wild_type].high;
}

int amt_card_points(int id)
{
    amt_card c = amt_card_get(id);
    return c.wild ? wild_types[c.wild_type].points : NUMBERED_POINTS;
}

char amt_colour_letter(int colour)
{
    return colour_letters[colour];
}

int amt_colour_from_letter(char letter)
{
    for (int i = 0; i < AMT_COLOURS; i++) {
        if (toupper((unsigned char)letter) == colour_letters[i])
            return i;
    }
    return -1;
}

/* A card name's parts ("y5S": colour 2, number 5, smiley), any case;
 * a wild has *wild_type >= 0. False when text names no card. */
static bool parse_name(const char *text, int *colour, int *number,
                       bool *smiley, int *wild_type)
{
    *wild_type = -1;
    if (text[0] == 'W' || text[0] == 'w') {
        for (int t = 0; t < AMT_WILD_TYPES; t++) {
            if (strcasecmp(text, wild_types[t].name) == 0) {
                *wild_type = t;
                return true;
            }
        }
        return false;
    }
    *colour = amt_colour_from_letter(text[0]);
    if (*colour < 0 || !isdigit((unsigned char)text[1]))
        return false;
    *number = 0;
    const char *p = text + 1;
    while (isdigit((unsigned char)*p) && *number < 100)
        *number = *number * 10 + (*p++ - '0');
    *smiley = *p == 's' || *p == 'S';
    if (*smiley)
        p++;
    if (*p != '\0' || *number < 1 || *number > AMT_MAX_NUMBER)
        return false;
    /* FACT: only a 5, 6 or 7 has a smiley copy */
    return !*smiley || (*number >= 5 && *number <= 7);
}

bool amt_name_canonical(const char *text, char out[AMT_NAME_LEN])
{
    int colour, number, wild_type;
    bool smiley;
    if (!parse_name(text, &colour, &number, &smiley, &wild_type))
        return false;
    if (wild_type >= 0)
        snprintf(out, AMT_NAME_LEN, "%s", wild_types[wild_type].name);
    else
        numbered_name(colour, number, smiley, out);
    return true;
}

/* Id of the first copy of number in colour: cards are colour-major and,
 * inside a colour, in number order. */
static int first_id(int colour, int number)
{
    int id = colour * CARDS_PER_COLOUR;
    for (int n = 1; n < number; n++)
        id += copies_per_colour[n];
    return id;
}

bool amt_card_named(const char *text, int *first, int *copies)
{
    int colour, number, wild_type;
    bool smiley;
    if (!parse_name(text, &colour, &number, &smiley, &wild_type))
        return false;
    if (wild_type >= 0) {
        *first = AMT_NUMBERED + 3 * wild_type;
        *copies = 3;
        return true;
    }
    *first = first_id(colour, number);
    *copies = copies_per_colour[number];
    if (number >= 5 && number <= 7) {
        /* FACT: the first copy of a 5, 6 and 7 is the smiley card. */
        if (smiley) {
            *copies = 1;
        } else {
            *first += 1;
            *copies -= 1;
        }
    }
    return true;
}

const amt_pattern *amt_pattern_get(int id)
{
    return &patterns[id];
}

int amt_pattern_find(const char *name)
{
    for (int i = 0; i < AMT_PATTERNS; i++) {
        if (strcasecmp(name, patterns[i].name) == 0)
            return i;
    }
    return -1;
}

const char *amt_kind_name(int kind)
{
    return kind_names[kind];
}

int amt_kind_find(const char *name)
{
    for (int i = 0; i < 3; i++) {
        if (strcasecmp(name, kind_names[i]) == 0)
            return i;
    }
    return -1;
}

int amt_rounds(bool progressive)
{
    return progressive ? PROGRESSIVE_ROUNDS : CLASSIC_ROUNDS;
}

int amt_hand_size(bool progressive, int round)
{
    return progressive ? progressive_hands[round / PROGRESSIVE_BLOCK]
                       : CLASSIC_HAND;
}

int amt_round_patterns(bool progressive, int round, int ids[AMT_PATTERNS])
{
    if (!progressive) {
        int n = (int)(sizeof classic_patterns / sizeof classic_patterns[0]);
        memcpy(ids, classic_patterns, sizeof classic_patterns);
        return n;
    }
    memcpy(ids, progressive_patterns[round / PROGRESSIVE_BLOCK],
           sizeof progressive_patterns[0]);
    return PROGRESSIVE_BLOCK;
}
