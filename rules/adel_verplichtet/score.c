/* score.c: standings and the winner. The score is the pawn's space; the
 * tie-break is the most valuable final collection (size, then oldest). */
#include "av_internal.h"

static bool better(const av_state *s, int a, int b, bool over)
{
    if (s->lord[a].pawn != s->lord[b].pawn)
        return s->lord[a].pawn > s->lord[b].pawn;
    return over && av_set_value(s->lord[a].final_set) >
                       av_set_value(s->lord[b].final_set);
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
            detail, json_pack("{s:i,s:o,s:I}", "pawn", s->lord[i].pawn,
                              "final_set", av_cards_json(s->lord[i].final_set),
                              "final_value",
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
    return json_pack("{s:b,s:o,s:o,s:o}", "over", over, "scores", scores,
                     "ranking", ranking, "detail", detail);
}
