/* save.c: the complete state as the position a referee reads and edits
 * (README.md, "Position"): cards, checks, thieves, phases and moves by the
 * notation's names, every list in one canonical order, and nothing that
 * load.c derives from the rest. */
#include "av_internal.h"

#include <string.h>

/* The check values held by holder (a seat or AV_CHECK_GONE), lowest
 * first. */
static json_t *checks_json(const av_state *s, int holder)
{
    int values[AV_MAX_CHECKS], count = 0;
    for (int c = 0; c < s->seats * AV_CHECKS_PER_LORD; c++) {
        if (s->check_holder[c] != holder)
            continue;
        int value = av_check_value(c), k = count++;
        for (; k > 0 && values[k - 1] > value; k--)
            values[k] = values[k - 1];
        values[k] = value;
    }
    json_t *array = json_array();
    for (int k = 0; k < count; k++)
        json_array_append_new(array, json_integer(values[k]));
    return array;
}

static json_t *location_json(av_location location)
{
    return location ? json_string(av_location_name(location)) : json_null();
}

/* The revealed action card as the words after "play": "thief 6". */
static json_t *play_json(const av_play *play)
{
    if (play->card == AV_CARD_NONE)
        return json_null();
    av_move m = {.type = AV_MOVE_PLAY, .play = *play};
    char text[AV_MOVE_TEXT];
    av_move_text(&m, text);
    return json_string(text + strlen("play "));
}

static json_t *sealed_json(const av_state *s, int seat)
{
    if (!s->lord[seat].chosen)
        return json_null();
    av_move m = av_sealed_move(s, seat);
    char text[AV_MOVE_TEXT];
    av_move_text(&m, text);
    return json_string(text);
}

static json_t *lord_json(const av_state *s, int seat)
{
    const av_lord *l = &s->lord[seat];
    json_t *robbed = json_array();
    for (int e = 0; e < s->seats; e++) {
        if (l->robbed >> e & 1)
            json_array_append_new(robbed, json_integer(e));
    }
    return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "pawn",
                     l->pawn, "hand", av_cards_json(l->hand), "checks",
                     checks_json(s, seat), "location",
                     location_json(l->location), "play", play_json(&l->play),
                     "sealed", sealed_json(s, seat), "display",
                     av_cards_json(l->display), "robbed", robbed,
                     "final_set", av_cards_json(l->final_set));
}

json_t *av_save(const rules_state *state)
{
    const av_state *s = (const av_state *)state;
    json_t *lords = json_array();
    for (int i = 0; i < s->seats; i++)
        json_array_append_new(lords, lord_json(s, i));
    /* top first: the face-up card, then the ones it covers */
    json_t *piles = json_array();
    for (int k = 0; k < 2; k++) {
        json_t *pile = json_array();
        for (int j = s->pile_count[k] - 1; j >= 0; j--) {
            char name[4];
            av_card_name(s->pile[k][j], name);
            json_array_append_new(pile, json_string(name));
        }
        json_array_append_new(piles, pile);
    }
    json_t *prison = json_array();
    for (int c = 0; c < s->seats && s->prison[c] != 0; c++)
        json_array_append_new(prison, json_integer(s->prison[c]));
    json_t *log = json_array();
    for (int i = 0; i < s->log_count; i++)
        json_array_append_new(log, json_string(s->log[i]));
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    return json_pack(
        "{s:s,s:i,s:i,s:s,s:i,s:s,s:o,s:o,s:o,s:o,s:o,s:{s:s,s:I}}", "game",
        "adel_verplichtet", "version", AV_VERSION, "seats", s->seats,
        "variant", av_variant_name(s->variant), "turn", s->turn, "phase",
        av_phase_name(s->phase), "lords", lords, "auction_piles", piles,
        "checks_out_of_play", checks_json(s, AV_CHECK_GONE), "prison",
        prison, "log", log, "rng", "seed", seed, "counter",
        (json_int_t)s->rng.counter);
}
