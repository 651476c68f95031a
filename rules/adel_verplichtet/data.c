/* data.c: the game's data tables, each with its provenance in
 * ../shared/rules/CLARIFICATIONS.md (FACT, DEFAULT or RULING). Replace a
 * DEFAULT table here, and only here, when the publisher's data is known. */
#include "av_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* DEFAULT board: 12 side castles of 2 spaces and 4 corner castles of 3
 * spaces (corners at the 1st, 5th, 9th and 13th castle) make track spaces
 * 1..36 after the club room (0); 37 and beyond are the dinner table.
 * FACT: each octagon holds the advance for the best and second-best
 * exhibit; Culloden Castle (C4) is 3/2. CLARIFICATIONS.md calls the
 * castles C1..C16; they are shown as "castle N" so that no castle name can
 * be mistaken for a collection card (C1..C8). */
const av_castle av_castles[AV_CASTLES] = {
    {"castle 1", 3, 4, 2}, {"castle 2", 2, 4, 2}, {"castle 3", 2, 4, 2},
    {"castle 4 (Culloden)", 2, 3, 2},
    {"castle 5", 3, 3, 2}, {"castle 6", 2, 3, 2}, {"castle 7", 2, 3, 1},
    {"castle 8", 2, 3, 1}, {"castle 9", 3, 2, 1}, {"castle 10", 2, 2, 1},
    {"castle 11", 2, 2, 1}, {"castle 12", 2, 2, 1}, {"castle 13", 3, 2, 1},
    {"castle 14", 2, 2, 1}, {"castle 15", 2, 1, 1}, {"castle 16", 2, 1, 1},
};

int av_castle_at(int pawn)
{
    int last = 0;
    for (int c = 0; c < AV_CASTLES; c++) {
        last += av_castles[c].spaces;
        if (pawn >= 1 && pawn <= last)
            return c;
    }
    return -1;
}

/* RULING: a leader still in the club room uses the first castle's octagon;
 * a leader at the dinner table (the rest of the last turn) the last's. */
int av_octagon_castle(int pawn)
{
    if (pawn < 1)
        return 0;
    if (pawn > AV_TRACK_SPACES)
        return AV_CASTLES - 1;
    return av_castle_at(pawn);
}

/* DEFAULT collection cards: A 8, B 8, C 8, D 7, E 7, F 7, numbered
 * i = 0..44 in that order; card i was made in 1620 + 8 * ((7 i) mod 45). */
static const int series_first[AV_SERIES + 1] = {0, 8, 16, 24, 31, 38, 45};

int av_card_series(int card)
{
    for (int l = 0; l < AV_SERIES; l++) {
        if (card < series_first[l + 1])
            return l;
    }
    return AV_SERIES - 1;
}

int av_card_year(int card)
{
    return 1620 + 8 * ((7 * card) % AV_CARDS);
}

void av_card_name(int card, char out[4])
{
    int l = av_card_series(card);
    out[0] = (char)('A' + l);
    out[1] = (char)('1' + (card - series_first[l]) % 9);
    out[2] = '\0';
}

int av_card_parse(const char *name)
{
    if (name == NULL || name[0] == '\0')
        return -1;
    int l = toupper((unsigned char)name[0]) - 'A';
    if (l < 0 || l >= AV_SERIES)
        return -1;
    const char *digits = name + 1;
    if (strlen(digits) != 1 || !isdigit((unsigned char)digits[0]))
        return -1;
    int n = digits[0] - '0';
    if (n < 1 || n > series_first[l + 1] - series_first[l])
        return -1;
    return series_first[l] + n - 1;
}

/* DEFAULT checks: seat s holds 8000+100s, 11000+100s, 14000-100s and
 * 17000-100s (all 20 distinct, each Lord's four sum to 50,000). */
int av_check_value(int check)
{
    int s = check / AV_CHECKS_PER_LORD;
    switch (check % AV_CHECKS_PER_LORD) {
    case 0:
        return 8000 + 100 * s;
    case 1:
        return 11000 + 100 * s;
    case 2:
        return 14000 - 100 * s;
    default:
        return 17000 - 100 * s;
    }
}

int av_check_by_value(int value, int seats)
{
    for (int c = 0; c < seats * AV_CHECKS_PER_LORD; c++) {
        if (av_check_value(c) == value)
            return c;
    }
    return -1;
}

/* DEFAULT thieves: seat s's sacks are numbered s+1 and s+6. */
int av_thief_owner(int sack)
{
    return (sack - 1) % AV_MAX_PLAYERS;
}

int av_thief_sack(int seat, int k)
{
    return seat + 1 + k * AV_MAX_PLAYERS;
}
