/* score.c: round scores, totals and the final ranking. */
#include "amt_internal.h"

#include <stdio.h>
#include <string.h>

/* FACT: Progressive smiley bonus: -10 for each smiley card in the playing
 * area, +10 for each stuck in hand. RULING: a smiley in the playing area
 * counts for the player who played it there. */
#define SMILEY_POINTS 10

int amt_round_points(const amt_state *s, int seat)
{
    const amt_player *p = &s->players[seat];
    int points = 0;
    for (int i = 0; i < p->hand_count; i++) {
        points += amt_card_points(p->hand[i]);
        if (s->progressive && amt_card_get(p->hand[i]).smiley)
            points += SMILEY_POINTS;
    }
    if (!s->progressive)
        return points;
    for (int m = 0; m < s->meld_count; m++) {
        const amt_meld *meld = &s->melds[m];
        for (int i = 0; i < meld->count; i++) {
            if (meld->by[i] == seat && amt_card_get(meld->cards[i]).smiley)
                points -= SMILEY_POINTS;
        }
    }
    return points;
}

/* Whether seat a places strictly before seat b: lowest total, then most
 * completed collection patterns (the rulebook's tie-break). */
static bool better(const amt_state *s, int a, int b)
{
    const amt_player *pa = &s->players[a];
    const amt_player *pb = &s->players[b];
    if (pa->total != pb->total)
        return pa->total < pb->total;
    return pa->completed > pb->completed;
}

/* Whether seats sharing seat a's total (a the first of them) differ in
 * completed patterns: the tie-break separated them. */
static bool tie_separated(const amt_state *s, int a)
{
    for (int b = 0; b < s->seats; b++) {
        if (b == a || s->players[b].total != s->players[a].total)
            continue;
        if (b < a)
            return false; /* told with the first seat of that total */
        if (s->players[b].completed != s->players[a].completed)
            return true;
    }
    return false;
}

/* Once over: the tie-break sentence when equal totals were separated by
 * completed patterns ("Tied at 45: seat 1 completed 3 collection patterns,
 * seat 2 completed 2; more completed places higher."), or NULL. */
static json_t *tie_break(const amt_state *s)
{
    char text[512] = "";
    size_t len = 0;
    for (int a = 0; a < s->seats; a++) {
        if (!tie_separated(s, a))
            continue;
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%sTied at %d:", len > 0 ? " " : "",
                                s->players[a].total);
        const char *sep = "";
        for (int b = a; b < s->seats; b++) {
            if (s->players[b].total != s->players[a].total)
                continue;
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    "%s seat %d completed %d", sep, b,
                                    s->players[b].completed);
            sep = ",";
        }
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " collection patterns; more completed "
                                "places higher.");
    }
    return len > 0 ? json_string(text) : NULL;
}

json_t *amt_result(const rules_state *state)
{
    const amt_state *s = (const amt_state *)state;
    json_t *scores = json_array();
    json_t *rounds = json_array();
    json_t *completed = json_array();
    json_t *marked = json_array();
    for (int p = 0; p < s->seats; p++) {
        const amt_player *pl = &s->players[p];
        json_array_append_new(scores, json_integer(pl->total));
        json_t *mine = json_array();
        int played =
            s->phase == AMT_PHASE_OVER ? amt_rounds(s->progressive) : s->round;
        for (int r = 0; r < played; r++)
            json_array_append_new(mine, json_integer(pl->round_score[r]));
        json_array_append_new(rounds, mine);
        json_array_append_new(completed, json_integer(pl->completed));
        json_t *names = json_array();
        for (int q = 0; q < AMT_PATTERNS; q++) {
            if (pl->used & (1u << q))
                json_array_append_new(names,
                                      json_string(amt_pattern_get(q)->name));
        }
        json_array_append_new(marked, names);
    }
    /* Places: a seat's place is the number of seats better than it. */
    json_t *ranking = json_array();
    for (int place = 0; place < s->seats; place++) {
        json_t *group = json_array();
        for (int p = 0; p < s->seats; p++) {
            int ahead = 0;
            for (int q = 0; q < s->seats; q++)
                ahead += better(s, q, p);
            if (ahead == place)
                json_array_append_new(group, json_integer(p));
        }
        if (json_array_size(group) > 0)
            json_array_append(ranking, group);
        json_decref(group);
    }
    json_t *result = json_pack(
        "{s:b,s:o,s:o,s:{s:o,s:o,s:o,s:s}}", "over", s->phase == AMT_PHASE_OVER,
        "scores", scores, "ranking", ranking, "detail", "round_scores", rounds,
        "completed_patterns", completed, "marked", marked, "tie_breaker",
        "completed_patterns (not points: among equal totals, more completed "
        "patterns place higher)");
    if (s->phase == AMT_PHASE_OVER) {
        char reason[96];
        snprintf(reason, sizeof reason,
                 "All %d rounds were played; the lowest total wins.",
                 amt_rounds(s->progressive));
        json_object_set_new(result, "reason", json_string(reason));
        json_t *tied = tie_break(s);
        if (tied != NULL)
            json_object_set_new(result, "tie_break", tied);
    }
    return result;
}
