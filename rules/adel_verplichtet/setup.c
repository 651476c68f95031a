/* setup.c: the match options, a new match, copies. */
#include "av_internal.h"

#include <stdlib.h>
#include <string.h>

json_t *av_describe_options(void)
{
    return json_pack(
        "{s:{s:s,s:s,s:[s,s,s],s:s}}", "two_player_variant", "type",
        "string", "default", "none", "enum", "none", "combined", "alternate",
        "description",
        "two players only: \"combined\" plays location and action card in "
        "one sealed choice; \"alternate\" sends both Lords to the auction "
        "house on odd turns and to a castle on even turns");
}

static void *checked_calloc(size_t size)
{
    void *p = calloc(1, size);
    if (p == NULL)
        abort();
    return p;
}

rules_state *av_setup(const json_t *options, int seats,
                      const uint8_t seed[RULES_SEED_BYTES], rules_error *err)
{
    json_t *declared = av_describe_options();
    json_t *resolved = rules_resolve_options(declared, options, err);
    json_decref(declared);
    if (resolved == NULL)
        return NULL;
    const char *variant = json_string_value(
        json_object_get(resolved, "two_player_variant"));
    av_variant chosen = AV_VARIANT_NONE;
    if (strcmp(variant, "combined") == 0)
        chosen = AV_VARIANT_COMBINED;
    else if (strcmp(variant, "alternate") == 0)
        chosen = AV_VARIANT_ALTERNATE;
    json_decref(resolved);
    if (seats < AV_MIN_PLAYERS || seats > AV_MAX_PLAYERS) {
        rules_fail(err, "Adel Verplichtet is for 2 to 5 Lords");
        return NULL;
    }
    if (chosen != AV_VARIANT_NONE && seats != 2) {
        rules_fail(err, "the two-player variants are for exactly 2 Lords");
        return NULL;
    }

    av_state *s = checked_calloc(sizeof *s);
    s->seats = seats;
    s->variant = chosen;
    s->auction_winner = -1;
    rules_rng_init(&s->rng, seed);
    int deck[AV_CARDS];
    for (int i = 0; i < AV_CARDS; i++)
        deck[i] = i;
    rules_rng_shuffle(&s->rng, deck, AV_CARDS, sizeof deck[0]);
    int next = 0;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < seats; i++)
            s->lord[i].hand |= (av_cards)1 << deck[next++];
    }
    int rest = AV_CARDS - next;
    int first = (rest + 1) / 2;
    for (int k = 0; k < rest; k++) {
        int p = k < first ? 0 : 1;
        s->pile[p][s->pile_count[p]++] = deck[next++];
    }
    for (int c = 0; c < AV_MAX_CHECKS; c++)
        s->check_holder[c] = c < seats * AV_CHECKS_PER_LORD
                                 ? c / AV_CHECKS_PER_LORD : AV_CHECK_GONE;
    av_begin_turn(s);
    return (rules_state *)s;
}

rules_state *av_clone(const rules_state *state)
{
    av_state *copy = checked_calloc(sizeof *copy);
    memcpy(copy, state, sizeof *copy);
    return (rules_state *)copy;
}

void av_destroy(rules_state *state)
{
    free(state);
}
