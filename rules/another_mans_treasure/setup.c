/* setup.c: match options, a new match and the deal of each round. */
#include "amt_internal.h"

#include <stdlib.h>
#include <string.h>

/* DEFAULT: 2-6 players (six reference cards). */

json_t *amt_describe_options(void)
{
    return json_pack(
        "{s:{s:s,s:s,s:[s,s],s:s},s:{s:s,s:b,s:s},s:{s:s,s:i,s:i,s:i,s:s}}",
        "game", "type", "string", "default", "classic", "enum", "classic",
        "progressive", "description",
        "classic: 5 rounds of 8 cards; progressive: 9 rounds of 6, 8 and 10 "
        "cards with the smiley bonus",
        "classic_end_of_round", "type", "boolean", "default", 0,
        "description",
        "progressive only: players who did not go out may lay partial "
        "patterns at the round's end, as in the Classic game",
        "claim_window_hours", "type", "integer", "default",
        AMT_WINDOW_HOURS_DEFAULT, "minimum", 0, "maximum",
        AMT_WINDOW_HOURS_MAX, "description",
        "how long the \"Can I have it?\" window after a discard waits for "
        "claims; at the deadline the service passes for every seat other "
        "than the next player that has not answered");
}

static void sort_hand(amt_player *p)
{
    for (int i = 1; i < p->hand_count; i++) {
        int16_t v = p->hand[i];
        int j = i - 1;
        while (j >= 0 && p->hand[j] > v) {
            p->hand[j + 1] = p->hand[j];
            j--;
        }
        p->hand[j + 1] = v;
    }
}

void amt_deal_round(amt_state *s)
{
    int16_t deck[AMT_CARDS];
    for (int i = 0; i < AMT_CARDS; i++)
        deck[i] = (int16_t)i;
    rules_rng_shuffle(&s->rng, deck, AMT_CARDS, sizeof deck[0]);
    int next = 0;
    int size = amt_hand_size(s->progressive, s->round);
    for (int p = 0; p < s->seats; p++) {
        amt_player *pl = &s->players[p];
        pl->hand_count = size;
        memcpy(pl->hand, deck + next, (size_t)size * sizeof deck[0]);
        next += size;
        sort_hand(pl);
        pl->laid = false;
        pl->claim = AMT_CLAIM_NONE;
        pl->end = AMT_END_NONE;
        memset(&pl->end_play, 0, sizeof pl->end_play);
    }
    s->discard_count = 1;
    s->discard[0] = deck[next++];
    s->draw_count = AMT_CARDS - next;
    /* The draw pile's top is its last element: keep deck order so the
     * next card dealt would be the top. */
    for (int i = 0; i < s->draw_count; i++)
        s->draw[i] = deck[AMT_CARDS - 1 - i];
    s->meld_count = 0;
    s->window = false;
    /* RULING: the deal passes clockwise each round, so the player to the
     * left of the new dealer (seat round mod seats) starts. */
    s->turn = s->round % s->seats;
    s->phase = AMT_PHASE_DRAW;
}

rules_state *amt_setup(const json_t *options, int seats,
                       const uint8_t seed[RULES_SEED_BYTES], rules_error *err)
{
    json_t *declared = amt_describe_options();
    json_t *resolved = rules_resolve_options(declared, options, err);
    json_decref(declared);
    if (resolved == NULL)
        return NULL;
    const char *game =
        json_string_value(json_object_get(resolved, "game"));
    bool progressive = strcmp(game, "progressive") == 0;
    bool classic_end =
        json_is_true(json_object_get(resolved, "classic_end_of_round"));
    int hours = (int)json_integer_value(
        json_object_get(resolved, "claim_window_hours"));
    json_decref(resolved);
    if (seats < AMT_MIN_SEATS || seats > AMT_MAX_SEATS) {
        rules_fail(err, "Another Man's Treasure is for 2 to 6 players");
        return NULL;
    }
    if (classic_end && !progressive) {
        rules_fail(err, "classic_end_of_round is an option of the "
                        "progressive game only");
        return NULL;
    }
    amt_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    s->progressive = progressive;
    s->classic_end = classic_end;
    s->window_hours = hours;
    s->seats = seats;
    rules_rng_init(&s->rng, seed);
    s->round = 0;
    amt_deal_round(s);
    return (rules_state *)s;
}
