/* score.c: glory so far and the final ranking (most glory first; equal
 * glory shares a place: the rulebooks name no tie-break, so the result
 * never carries one), and once over, why the match ended. */
#include "qq_internal.h"

#include <stdio.h>

/* The rule that ended the match (qq_check_end): a seat at the glory goal,
 * else four empty creature cards of the Wilds. */
static json_t *end_reason(const qq_state *st)
{
    char text[160];
    for (int s = 0; s < st->seats; s++) {
        if (st->players[s].glory >= st->goal) {
            snprintf(text, sizeof text,
                     "The match ended because seat %d reached the glory "
                     "goal of %d.",
                     s, st->goal);
            return json_string(text);
        }
    }
    snprintf(text, sizeof text,
             "The match ended because four Wild piles were empty: no dice "
             "are left on %d creature cards of the Wilds, and nobody "
             "reached the glory goal of %d.",
             qq_empty_creature_cards(st), st->goal);
    return json_string(text);
}

json_t *qq_result(const qq_state *st)
{
    json_t *scores = json_array();
    json_t *detail = json_array();
    int best = 0;
    for (int s = 0; s < st->seats; s++) {
        const qq_player *p = &st->players[s];
        json_array_append_new(scores, json_integer(p->glory));
        json_array_append_new(detail, json_pack(
            "{s:i,s:i,s:i,s:i}", "scoring", p->glory_scoring, "quests",
            p->glory_quest, "challenges", p->glory_challenge, "spells",
            p->glory_spell));
        if (p->glory > best)
            best = p->glory;
    }
    json_t *ranking = json_array();
    for (int g = best; g >= 0; g--) {
        json_t *place = json_array();
        for (int s = 0; s < st->seats; s++) {
            if (st->players[s].glory == g)
                json_array_append_new(place, json_integer(s));
        }
        if (json_array_size(place) > 0)
            json_array_append(ranking, place);
        json_decref(place);
    }
    json_t *result = json_pack(
        "{s:b,s:o,s:o,s:{s:o,s:i,s:i}}", "over", st->phase == QQ_P_OVER,
        "scores", scores, "ranking", ranking, "detail", "glory", detail,
        "goal", st->goal, "empty_creature_cards",
        qq_empty_creature_cards(st));
    if (st->phase == QQ_P_OVER)
        json_object_set_new(result, "reason", end_reason(st));
    return result;
}
