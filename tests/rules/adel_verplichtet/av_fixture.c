/* av_fixture.c: hand-made positions for the named tests. */
#include "av_fixture.h"

#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"

av_state *fixture_new(int seats, const char *options_json)
{
    return fixture_new_seeded(seats, options_json, 42);
}

av_state *fixture_new_seeded(int seats, const char *options_json,
                             uint64_t n)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(n, seed);
    json_t *options = NULL;
    if (options_json != NULL) {
        json_error_t jerr;
        options = json_loads(options_json, 0, &jerr);
        cr_assert_not_null(options);
    }
    rules_error err = {{0}};
    rules_state *state = av_engine.setup(options, seats, seed, &err);
    json_decref(options);
    cr_assert_not_null(state, "setup: %s", err.message);
    return (av_state *)state;
}

av_cards fixture_cards(const char *cards)
{
    av_cards mask = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", cards);
    for (char *w = strtok(copy, " "); w != NULL; w = strtok(NULL, " ")) {
        int card = av_card_parse(w);
        cr_assert(card >= 0, "bad card %s", w);
        mask |= (av_cards)1 << card;
    }
    return mask;
}

static void remove_card(av_state *s, int card)
{
    for (int i = 0; i < s->seats; i++)
        s->lord[i].hand &= ~((av_cards)1 << card);
    for (int k = 0; k < 2; k++) {
        int n = 0;
        for (int j = 0; j < s->pile_count[k]; j++) {
            if (s->pile[k][j] != card)
                s->pile[k][n++] = s->pile[k][j];
        }
        s->pile_count[k] = n;
    }
}

void fixture_give(av_state *s, int seat, const char *cards, bool empty_first)
{
    if (empty_first) {
        for (int c = 0; c < AV_CARDS; c++) {
            if (s->lord[seat].hand >> c & 1) {
                s->lord[seat].hand &= ~((av_cards)1 << c);
                /* under the face-up card, so the offer stays the same */
                int *pile = s->pile[0];
                int n = s->pile_count[0]++;
                pile[n] = n > 0 ? pile[n - 1] : c;
                if (n > 0)
                    pile[n - 1] = c;
            }
        }
    }
    av_cards mask = fixture_cards(cards);
    for (int c = 0; c < AV_CARDS; c++) {
        if (mask >> c & 1) {
            remove_card(s, c);
            s->lord[seat].hand |= (av_cards)1 << c;
        }
    }
    rules_error err = {{0}};
    cr_assert(av_engine.check((rules_state *)s, &err), "fixture: %s",
              err.message);
}

void fixture_all(av_state *s, const char *const moves[])
{
    for (int i = 0; i < s->seats; i++) {
        if (moves[i] != NULL)
            harness_apply_text(&av_engine, (rules_state *)s, i, moves[i]);
    }
}

const char *fixture_decision(const av_state *s)
{
    static _Thread_local rules_pending p;
    av_engine.pending((const rules_state *)s, &p);
    return p.decision;
}
