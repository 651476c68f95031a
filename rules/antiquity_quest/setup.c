/* setup.c: match options and the deal of each round (rulebook "Setup",
 * "Playing in pairs", "On assignment"). */
#include "aq_internal.h"

#include <string.h>

json_t *aq_describe_options(void)
{
    return json_pack(
        "{s:{s:s,s:i,s:i,s:i,s:s},"
        " s:{s:s,s:b,s:s}, s:{s:s,s:b,s:s}, s:{s:s,s:b,s:s},"
        " s:{s:s,s:b,s:s}, s:{s:s,s:b,s:s}}",
        "rounds", "type", "integer", "default", 1, "minimum", 1, "maximum", 3,
        "description", "a single round (1) or a full game of three rounds (3)",
        "civilization_bonus", "type", "boolean", "default", 0, "description",
        "advanced: each side is secretly assigned a civilization and scores "
        "250/500/750/1000 for completed collections holding it",
        "remington_reassigned", "type", "boolean", "default", 0,
        "description", "advanced: Remington may instead swap a completed "
        "Antiquity or Mixed collection for a rival's of the same kind",
        "tess_lost_shipment", "type", "boolean", "default", 0, "description",
        "advanced: Tess may instead be played on a rival's incomplete "
        "Antiquity or Mixed collection to remove it",
        "revoked_visas", "type", "boolean", "default", 0, "description",
        "advanced: after a player goes out the others may only play cards "
        "into their own collections (simultaneously; in turn in pairs)",
        "pairs", "type", "boolean", "default", 0, "description",
        "play in partnerships of two seated opposite (4, 6 or 8 players)");
}

bool aq_options_read(const json_t *resolved, int seats, aq_options *opt,
                     rules_error *err)
{
    memset(opt, 0, sizeof *opt);
    opt->rounds = (int)json_integer_value(json_object_get(resolved, "rounds"));
    opt->civilization_bonus =
        json_is_true(json_object_get(resolved, "civilization_bonus"));
    opt->remington_reassigned =
        json_is_true(json_object_get(resolved, "remington_reassigned"));
    opt->tess_lost_shipment =
        json_is_true(json_object_get(resolved, "tess_lost_shipment"));
    opt->revoked_visas = json_is_true(json_object_get(resolved, "revoked_visas"));
    opt->pairs = json_is_true(json_object_get(resolved, "pairs"));
    if (opt->rounds != 1 && opt->rounds != 3)
        return rules_fail(err, "the rulebook offers a single round or three "
                               "rounds, not %d", opt->rounds);
    if (opt->pairs && (seats < 4 || seats > 8 || seats % 2 != 0))
        return rules_fail(err, "playing in pairs needs 4, 6 or 8 players");
    if (!opt->pairs && (seats < 2 || seats > 6))
        return rules_fail(err, "Antiquity Quest is for 2 to 6 players (up to "
                               "8 when playing in pairs)");
    return true;
}

json_t *aq_options_json(const aq_options *opt)
{
    return json_pack("{s:i,s:b,s:b,s:b,s:b,s:b}", "rounds", opt->rounds,
                     "civilization_bonus", opt->civilization_bonus,
                     "remington_reassigned", opt->remington_reassigned,
                     "tess_lost_shipment", opt->tess_lost_shipment,
                     "revoked_visas", opt->revoked_visas, "pairs", opt->pairs);
}

/* Every round starts from the whole deck: shuffle, then deal two piles of
 * 10 to each player (hand and cache), or in pairs three piles of 10 to each
 * partnership (two hands and the joint cache). */
void aq_deal_round(aq_state *s, int first)
{
    uint8_t deck[AQ_CARDS];
    for (int i = 0; i < AQ_CARDS; i++)
        deck[i] = (uint8_t)i;
    rules_rng_shuffle(&s->rng, deck, AQ_CARDS, 1);

    memset(&s->draw, 0, sizeof s->draw);
    memset(&s->discard, 0, sizeof s->discard);
    memset(&s->character, 0, sizeof s->character);
    memset(s->hand, 0, sizeof s->hand);
    memset(s->cache, 0, sizeof s->cache);
    memset(s->choice, 0, sizeof s->choice);
    s->collections = 0;
    s->next_id = 1;
    for (int i = 0; i < AQ_CARDS; i++)
        aq_pile_push(&s->draw, deck[i]);
    for (int seat = 0; seat < s->seats; seat++) {
        for (int k = 0; k < AQ_HAND_SIZE; k++)
            aq_pile_insert_sorted(&s->hand[seat], aq_pile_pop(&s->draw));
    }
    for (int side = 0; side < s->sides; side++) {
        for (int k = 0; k < AQ_HAND_SIZE; k++)
            aq_pile_insert_sorted(&s->cache[side], aq_pile_pop(&s->draw));
        s->cache_taken[side] = false;
        s->started_turn[side] = AQ_NONE;
        s->played_points[side] = 0;
        s->civ[side] = AQ_NONE;
    }
    /* On assignment: each side draws a distinct civilization in secret
     * from the six player aids. */
    if (s->opt.civilization_bonus) {
        int aids[AQ_SUITS];
        for (int i = 0; i < AQ_SUITS; i++)
            aids[i] = i;
        rules_rng_shuffle(&s->rng, aids, AQ_SUITS, sizeof aids[0]);
        for (int side = 0; side < s->sides; side++)
            s->civ[side] = aids[side];
    }
    s->first = first;
    s->turn = first;
    s->turn_no = 1;
    s->phase = AQ_PHASE_DRAW;
    s->going_out = AQ_NONE;
    s->final_left = 0;
}
