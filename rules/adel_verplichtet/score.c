/* score.c: standings and the winner. The score is the pawn's space; the
 * tie-break is the most valuable final collection (size, then oldest). */
#include "av_internal.h"

#include <stdio.h>
#include <string.h>

static bool better(const av_state *s, int a, int b, bool over)
{
    if (s->lord[a].pawn != s->lord[b].pawn)
        return s->lord[a].pawn > s->lord[b].pawn;
    return over && av_set_value(s->lord[a].final_set) >
                       av_set_value(s->lord[b].final_set);
}

/* The year of the oldest card of set, or 0 for none. */
static int oldest_year(av_cards set)
{
    int oldest = 0;
    for (int card = 0; card < AV_CARDS; card++) {
        if ((set >> card & 1) && (oldest == 0 || av_card_year(card) < oldest))
            oldest = av_card_year(card);
    }
    return oldest;
}

/* Once over: for each pawn space shared by Lords whose final collections
 * told them apart, the rule and each one's collection ("Tied at 41: …"),
 * or NULL when no tie-break separated anyone. */
static json_t *tie_break(const av_state *s)
{
    char text[1024] = "";
    size_t len = 0;
    for (int a = 0; a < s->seats; a++) {
        bool first_of_space = true;
        bool separated = false;
        for (int b = 0; b < s->seats; b++) {
            if (b == a || s->lord[b].pawn != s->lord[a].pawn)
                continue;
            if (b < a)
                first_of_space = false;
            if (av_set_value(s->lord[b].final_set) !=
                av_set_value(s->lord[a].final_set))
                separated = true;
        }
        if (!first_of_space || !separated)
            continue;
        len += (size_t)snprintf(
            text + len, sizeof text - len,
            "%sTied at %d: the most valuable final collection wins (more "
            "cards, then the oldest card):",
            len > 0 ? " " : "", s->lord[a].pawn);
        const char *sep = "";
        for (int b = a; b < s->seats; b++) {
            if (s->lord[b].pawn != s->lord[a].pawn)
                continue;
            int cards = __builtin_popcountll(s->lord[b].final_set);
            if (cards == 0)
                len += (size_t)snprintf(text + len, sizeof text - len,
                                        "%s seat %d showed none", sep, b);
            else
                len += (size_t)snprintf(
                    text + len, sizeof text - len,
                    "%s seat %d showed %d card%s (oldest %d)", sep, b, cards,
                    cards == 1 ? "" : "s", oldest_year(s->lord[b].final_set));
            sep = ",";
        }
        len += (size_t)snprintf(text + len, sizeof text - len, ".");
    }
    return len > 0 ? json_string(text) : NULL;
}

json_t *av_result(const rules_state *state)
{
    const av_state *s = (const av_state *)state;
    bool over = s->phase == AV_PHASE_OVER;
    int order[AV_MAX_PLAYERS];
    for (int i = 0; i < s->seats; i++)
        order[i] = i;
    for (int a = 1; a < s->seats; a++) {
        for (int b = a; b > 0 && better(s, order[b], order[b - 1], over); b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    }
    json_t *scores = json_array();
    json_t *detail = json_array();
    for (int i = 0; i < s->seats; i++) {
        json_array_append_new(scores, json_integer(s->lord[i].pawn));
        json_array_append_new(
            detail,
            json_pack("{s:i,s:o,s:I}", "pawn", s->lord[i].pawn, "final_set",
                      av_cards_json(s->lord[i].final_set), "final_value",
                      (json_int_t)av_set_value(s->lord[i].final_set)));
    }
    json_t *ranking = json_array();
    json_t *place = NULL;
    for (int k = 0; k < s->seats; k++) {
        if (place == NULL || better(s, order[k - 1], order[k], over)) {
            place = json_array();
            json_array_append_new(ranking, place);
        }
        json_array_append_new(place, json_integer(order[k]));
    }
    json_t *result = json_pack("{s:b,s:o,s:o,s:o}", "over", over, "scores",
                               scores, "ranking", ranking, "detail", detail);
    if (over) {
        json_object_set_new(result, "reason",
                            json_string("A pawn reached the dinner table, "
                                        "and the final exhibition was held: "
                                        "the furthest pawn wins."));
        json_t *tied = tie_break(s);
        if (tied != NULL)
            json_object_set_new(result, "tie_break", tied);
    }
    return result;
}
