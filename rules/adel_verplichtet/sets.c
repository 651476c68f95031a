/* sets.c: which collection cards form a set, and how sets compare. */
#include "av_internal.h"

static av_cards series_mask(int series)
{
    av_cards mask = 0;
    for (int i = 0; i < AV_CARDS; i++) {
        if (av_card_series(i) == series)
            mask |= (av_cards)1 << i;
    }
    return mask;
}

/* RULING: "same letter and/or adjacent alphabetically to another card"
 * means the letters shown form one unbroken run (AABB, CCD, DEF), so two
 * sets of three (AAA + CCC) can never be shown as one exhibit of six, as
 * the rulebook's "two sets of three" remark requires. At least 3 cards. */
bool av_set_valid(av_cards set)
{
    if (__builtin_popcountll(set) < 3)
        return false;
    int lo = -1, hi = -1;
    for (int l = 0; l < AV_SERIES; l++) {
        if (set & series_mask(l)) {
            if (lo < 0)
                lo = l;
            hi = l;
        }
    }
    for (int l = lo; l <= hi; l++) {
        if (!(set & series_mask(l)))
            return false;
    }
    return true;
}

/* The exhibit with more cards wins; among equal sizes, the one with the
 * oldest object. Years are distinct, so two sets never tie. */
long av_set_value(av_cards set)
{
    if (set == 0)
        return 0;
    int oldest = 9999;
    for (int i = 0; i < AV_CARDS; i++) {
        if ((set >> i & 1) && av_card_year(i) < oldest)
            oldest = av_card_year(i);
    }
    return (long)__builtin_popcountll(set) * 10000 + (9999 - oldest);
}

bool av_hand_has_set(av_cards hand)
{
    bool all;
    av_cards one;
    return av_sets_in(hand, &one, 1, &all) > 0;
}

/* The cards of hand in the letters lo..hi, or 0 if a letter is missing. */
static av_cards run_cards(av_cards hand, int lo, int hi)
{
    av_cards run = 0;
    for (int l = lo; l <= hi; l++) {
        av_cards part = hand & series_mask(l);
        if (part == 0)
            return 0;
        run |= part;
    }
    return run;
}

/* The most valuable set in hand: always every card of one run of letters,
 * since a run's full set is larger than any set drawn from it. */
av_cards av_best_set(av_cards hand)
{
    av_cards best = 0;
    for (int lo = 0; lo < AV_SERIES; lo++) {
        for (int hi = lo; hi < AV_SERIES; hi++) {
            av_cards run = run_cards(hand, lo, hi);
            if (__builtin_popcountll(run) >= 3 &&
                av_set_value(run) > av_set_value(best))
                best = run;
        }
    }
    return best;
}

static bool covers(av_cards sub, int lo, int hi)
{
    for (int l = lo; l <= hi; l++) {
        if (!(sub & series_mask(l)))
            return false;
    }
    return true;
}

int av_sets_in(av_cards hand, av_cards *out, int cap, bool *all)
{
    int n = 0;
    *all = true;
    /* First the largest set of every run, so a sample shows each. */
    for (int lo = 0; lo < AV_SERIES; lo++) {
        for (int hi = lo; hi < AV_SERIES; hi++) {
            av_cards run = run_cards(hand, lo, hi);
            if (run == 0 || __builtin_popcountll(run) < 3)
                continue;
            if (n == cap) {
                *all = false;
                return n;
            }
            out[n++] = run;
        }
    }
    for (int lo = 0; lo < AV_SERIES; lo++) {
        for (int hi = lo; hi < AV_SERIES; hi++) {
            av_cards run = run_cards(hand, lo, hi);
            if (run == 0 || __builtin_popcountll(run) < 3)
                continue;
            for (av_cards sub = (run - 1) & run; sub != 0;
                 sub = (sub - 1) & run) {
                if (__builtin_popcountll(sub) < 3 || !covers(sub, lo, hi))
                    continue;
                if (n == cap) {
                    *all = false;
                    return n;
                }
                out[n++] = sub;
            }
        }
    }
    return n;
}
