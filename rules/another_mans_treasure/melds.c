/* melds.c: sets, suited runs and suited pairs: their shape, what may be
 * added to them, what a wild in them stands for, and a bounded search for
 * ways to lay a collection pattern from a hand. */
#include "amt_internal.h"

#include <string.h>

bool amt_meld_shape(int kind, const int16_t *cards, int count, int *colour,
                    int *number, rules_error *err)
{
    int first = -1;
    for (int i = 0; i < count; i++) {
        if (!amt_card_get(cards[i]).wild) {
            first = i;
            break;
        }
    }
    if (count < 1 || first < 0)
        return rules_fail(err, "a %s needs at least one numbered card to "
                               "say what its wilds stand for",
                          amt_kind_name(kind));
    amt_card f = amt_card_get(cards[first]);
    int low = f.number - first;
    if (kind == AMT_RUN && (low < 1 || low + count - 1 > AMT_MAX_NUMBER))
        return rules_fail(err, "a suited run goes from 1 to 11 at most");
    for (int i = 0; i < count; i++) {
        amt_card c = amt_card_get(cards[i]);
        int want = kind == AMT_RUN ? low + i : f.number;
        if (c.wild) {
            if (!amt_wild_covers(c.wild_type, want))
                return rules_fail(err, "a wild may only stand for a number "
                                       "within the range in its corner");
            continue;
        }
        if (c.number != want)
            return rules_fail(err, kind == AMT_RUN
                                       ? "a suited run needs consecutive "
                                         "numbers in order"
                                       : "a %s needs cards of the same number",
                              amt_kind_name(kind));
        if (kind != AMT_SET && c.colour != f.colour)
            return rules_fail(err, "a suited %s needs cards of one colour",
                              amt_kind_name(kind));
    }
    *colour = kind == AMT_SET ? -1 : f.colour;
    *number = kind == AMT_RUN ? low : f.number;
    return true;
}

bool amt_meld_accepts(const amt_meld *meld, int card, bool at_low)
{
    amt_card c = amt_card_get(card);
    int want = meld->number;
    if (meld->kind == AMT_RUN) {
        want = at_low ? meld->number - 1 : meld->number + meld->count;
        if (want < 1 || want > AMT_MAX_NUMBER)
            return false;
    }
    if (c.wild)
        return amt_wild_covers(c.wild_type, want);
    if (c.number != want)
        return false;
    return meld->kind == AMT_SET || c.colour == meld->colour;
}

void amt_meld_wild_as(const amt_meld *meld, int i, int *colour, int *number)
{
    *colour = meld->colour;
    *number = meld->kind == AMT_RUN ? meld->number + i : meld->number;
}

int amt_meld_wild_for(const amt_meld *meld, int card, int wild_type)
{
    amt_card c = amt_card_get(card);
    if (c.wild)
        return -1;
    for (int i = 0; i < meld->count; i++) {
        amt_card w = amt_card_get(meld->cards[i]);
        if (!w.wild || (wild_type >= 0 && w.wild_type != wild_type))
            continue;
        int colour, number;
        amt_meld_wild_as(meld, i, &colour, &number);
        if (number == c.number && (colour < 0 || colour == c.colour))
            return i;
    }
    return -1;
}

/* ---- the search ---- */

#define MAX_COPIES 4
#define SEARCH_BUDGET 1500

typedef struct search {
    int nat_count[AMT_COLOURS][AMT_MAX_NUMBER + 1];
    int16_t nat[AMT_COLOURS][AMT_MAX_NUMBER + 1][MAX_COPIES];
    int wild_count[AMT_WILD_TYPES];
    int16_t wild[AMT_WILD_TYPES][3];
    int melds;
    const int *kinds;
    const int *sizes;
    amt_play current;
    amt_play *out;
    int found;
    int max;
    int nodes;
} search;

/* Wild types to try for a number, narrow (cheap) ranges first. */
static int wild_order(int number, int order[AMT_WILD_TYPES])
{
    int n = 0;
    if (amt_wild_covers(AMT_W16, number))
        order[n++] = AMT_W16;
    if (amt_wild_covers(AMT_W611, number))
        order[n++] = AMT_W611;
    order[n++] = AMT_W111;
    return n;
}

static int take_wild(search *s, int number)
{
    int order[AMT_WILD_TYPES];
    int n = wild_order(number, order);
    for (int i = 0; i < n; i++) {
        int t = order[i];
        if (s->wild_count[t] > 0)
            return s->wild[t][--s->wild_count[t]];
    }
    return -1;
}

static void put_back(search *s, int id)
{
    amt_card c = amt_card_get(id);
    if (c.wild)
        s->wild[c.wild_type][s->wild_count[c.wild_type]++] = (int16_t)id;
    else
        s->nat[c.colour][c.number][s->nat_count[c.colour][c.number]++] =
            (int16_t)id;
}

static int wilds_covering(const search *s, int number)
{
    int total = 0;
    for (int t = 0; t < AMT_WILD_TYPES; t++) {
        if (amt_wild_covers(t, number))
            total += s->wild_count[t];
    }
    return total;
}

static void dfs(search *s, int level, int min_key);

/* Records the meld just built at level and goes deeper, then undoes. */
static void descend(search *s, int level, int key, int16_t *cards, int count)
{
    s->current.kind[level] = s->kinds[level];
    s->current.count[level] = count;
    memcpy(s->current.cards[level], cards, (size_t)count * sizeof cards[0]);
    bool same_next = level + 1 < s->melds &&
                     s->kinds[level + 1] == s->kinds[level] &&
                     s->sizes[level + 1] == s->sizes[level];
    dfs(s, level + 1, same_next ? key : 0);
}

static void undo(search *s, int16_t *cards, int count)
{
    for (int i = count - 1; i >= 0; i--)
        put_back(s, cards[i]);
}

static void try_sets(search *s, int level, int min_key, int size)
{
    for (int n = min_key > 1 ? min_key : 1; n <= AMT_MAX_NUMBER; n++) {
        int naturals = 0;
        for (int c = 0; c < AMT_COLOURS; c++)
            naturals += s->nat_count[c][n];
        int wilds = wilds_covering(s, n);
        if (naturals == 0 || naturals + wilds < size)
            continue;
        int most = naturals < size ? naturals : size;
        int least = size - wilds > 1 ? size - wilds : 1;
        for (int m = most; m >= least; m--) {
            if (s->found >= s->max || s->nodes > SEARCH_BUDGET)
                return;
            int16_t cards[AMT_MAX_NUMBER];
            int count = 0;
            /* one of each colour in turn, so sets show their variety */
            while (count < m) {
                for (int c = 0; c < AMT_COLOURS && count < m; c++) {
                    if (s->nat_count[c][n] > 0)
                        cards[count++] = s->nat[c][n][--s->nat_count[c][n]];
                }
            }
            while (count < size)
                cards[count++] = (int16_t)take_wild(s, n);
            descend(s, level, n, cards, count);
            undo(s, cards, count);
        }
    }
}

static void try_runs(search *s, int level, int min_key, int size)
{
    for (int c = 0; c < AMT_COLOURS; c++) {
        for (int low = 1; low + size - 1 <= AMT_MAX_NUMBER; low++) {
            int key = c * 16 + low;
            if (key < min_key)
                continue;
            if (s->found >= s->max || s->nodes > SEARCH_BUDGET)
                return;
            int16_t cards[AMT_MAX_NUMBER];
            int count = 0;
            int naturals = 0;
            bool ok = true;
            for (int i = 0; i < size && ok; i++) {
                int n = low + i;
                if (s->nat_count[c][n] > 0) {
                    cards[count++] = s->nat[c][n][--s->nat_count[c][n]];
                    naturals++;
                } else {
                    int w = take_wild(s, n);
                    if (w < 0)
                        ok = false;
                    else
                        cards[count++] = (int16_t)w;
                }
            }
            if (ok && naturals > 0)
                descend(s, level, key, cards, count);
            undo(s, cards, count);
        }
    }
}

static void try_pairs(search *s, int level, int min_key)
{
    for (int c = 0; c < AMT_COLOURS; c++) {
        for (int n = 1; n <= AMT_MAX_NUMBER; n++) {
            int key = c * 16 + n;
            if (key < min_key || s->nat_count[c][n] == 0)
                continue;
            if (s->found >= s->max || s->nodes > SEARCH_BUDGET)
                return;
            int16_t cards[2];
            cards[0] = s->nat[c][n][--s->nat_count[c][n]];
            int count = 1;
            if (s->nat_count[c][n] > 0) {
                cards[count++] = s->nat[c][n][--s->nat_count[c][n]];
            } else {
                int w = take_wild(s, n);
                if (w >= 0)
                    cards[count++] = (int16_t)w;
            }
            if (count == 2)
                descend(s, level, key, cards, count);
            undo(s, cards, count);
        }
    }
}

static void dfs(search *s, int level, int min_key)
{
    if (s->found >= s->max || s->nodes++ > SEARCH_BUDGET)
        return;
    if (level == s->melds) {
        s->current.melds = s->melds;
        s->out[s->found++] = s->current;
        return;
    }
    switch (s->kinds[level]) {
    case AMT_SET:
        try_sets(s, level, min_key, s->sizes[level]);
        break;
    case AMT_RUN:
        try_runs(s, level, min_key, s->sizes[level]);
        break;
    default:
        try_pairs(s, level, min_key);
        break;
    }
}

int amt_find_plays(const int16_t *hand, int hand_count, int mark, int melds,
                   const int *kinds, const int *sizes, amt_play *out, int max)
{
    int needed = 0;
    for (int i = 0; i < melds; i++)
        needed += sizes[i];
    if (needed > hand_count || max <= 0)
        return 0;
    search s;
    memset(&s, 0, sizeof s);
    /* fill pools from the highest id down, so the lowest id (the smiley
     * copy) is taken first */
    for (int i = hand_count - 1; i >= 0; i--)
        put_back(&s, hand[i]);
    s.melds = melds;
    s.kinds = kinds;
    s.sizes = sizes;
    s.out = out;
    s.max = max;
    s.current.mark = mark;
    dfs(&s, 0, 0);
    return s.found;
}
