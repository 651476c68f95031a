/* view.c: what one Lord (or a spectator) may see. Hands of collection
 * cards and every sealed choice stay with their owner; everything else
 * (pawns, checks, thieves, prison, face-up cards, revealed cards) is
 * public, as it is across the real table. */
#include "av_internal.h"

static json_t *where_json(int pawn)
{
    if (pawn <= 0)
        return json_string("club room");
    if (pawn >= AV_DINNER_TABLE)
        return json_string("dinner table");
    return json_string(av_castles[av_castle_at(pawn)].name);
}

static json_t *play_json(const av_play *play)
{
    if (play->card == AV_CARD_NONE)
        return json_null();
    av_move m = {.type = AV_MOVE_PLAY, .play = *play};
    return av_move_encode(&m);
}

static json_t *lord_json(const av_state *s, int i, bool sealed_open)
{
    const av_lord *l = &s->lord[i];
    json_t *checks = json_array();
    for (int c = 0; c < s->seats * AV_CHECKS_PER_LORD; c++) {
        if (s->check_holder[c] == i)
            json_array_append_new(checks, json_integer(av_check_value(c)));
    }
    json_t *thieves = json_array();
    for (int k = 0; k < 2; k++) {
        int sack = av_thief_sack(i, k);
        if (av_thief_free(s, sack))
            json_array_append_new(thieves, json_integer(sack));
    }
    json_t *lord = json_pack(
        "{s:i,s:i,s:o,s:i,s:o,s:o,s:o,s:o,s:o}", "seat", i, "pawn", l->pawn,
        "at", where_json(l->pawn), "hand_count",
        __builtin_popcountll(l->hand), "checks", checks, "free_thieves",
        thieves, "location",
        l->location ? json_string(av_location_name(l->location)) : json_null(),
        "play", play_json(&l->play), "display", av_cards_json(l->display));
    if (sealed_open)
        json_object_set_new(lord, "chosen", json_boolean(l->chosen));
    if (s->phase == AV_PHASE_OVER)
        json_object_set_new(lord, "final_set", av_cards_json(l->final_set));
    return lord;
}

json_t *av_view(const rules_state *state, int seat)
{
    const av_state *s = (const av_state *)state;
    rules_pending p;
    av_pending(state, &p);
    bool sealed_open = p.wait == RULES_WAIT_SIMULTANEOUS;
    json_t *lords = json_array();
    for (int i = 0; i < s->seats; i++)
        json_array_append_new(lords, lord_json(s, i, sealed_open));
    json_t *piles = json_array();
    for (int k = 0; k < 2; k++) {
        json_t *face_up = json_null();
        if (s->pile_count[k] > 0) {
            char name[4];
            av_card_name(s->pile[k][s->pile_count[k] - 1], name);
            json_decref(face_up);
            face_up = json_string(name);
        }
        json_array_append_new(piles, json_pack("{s:o,s:i}", "face_up",
                                               face_up, "count",
                                               s->pile_count[k]));
    }
    json_t *prison = json_array();
    for (int c = 0; c < s->seats; c++)
        json_array_append_new(prison, s->prison[c] ? json_integer(s->prison[c])
                                                   : json_null());
    json_t *log = json_array();
    for (int i = 0; i < s->log_count; i++)
        json_array_append_new(log, json_string(s->log[i]));
    json_t *view = json_pack(
        "{s:s,s:i,s:i,s:s,s:s,s:s,s:o,s:o,s:o,s:o}", "game",
        "adel_verplichtet", "seat", seat, "turn", s->turn, "phase",
        av_phase_name(s->phase), "variant", av_variant_name(s->variant),
        "prompt", p.prompt, "lords", lords, "auction_piles", piles,
        "prison", prison, "log", log);
    if (seat >= 0 && seat < s->seats) {
        const av_lord *l = &s->lord[seat];
        json_t *you = json_pack("{s:o}", "hand", av_cards_json(l->hand));
        if (sealed_open && l->chosen) {
            av_move m = av_sealed_move(s, seat);
            json_object_set_new(you, "sealed_choice", av_move_encode(&m));
        }
        json_object_set_new(view, "you", you);
    }
    return view;
}
