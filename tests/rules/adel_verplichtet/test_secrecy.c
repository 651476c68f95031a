/* Secrecy: walking random matches, no other seat's view and no spectator
 * view ever names a Lord's dealt cards he has not shown, nor a face-down
 * auction card; and while a sealed decision is open, what one Lord chose
 * changes nothing in anybody else's view. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <string.h>

#include "../harness.h"
#include "av_fixture.h"

#define ALTERNATIVES 3

static char *view_text(const rules_state *state, int seat)
{
    json_t *view = av_engine.view(state, seat);
    char *text = rules_sorted_json(view);
    json_decref(view);
    return text;
}

static bool names_card(const char *text, int card)
{
    char quoted[8], name[4];
    av_card_name(card, name);
    snprintf(quoted, sizeof quoted, "\"%s\"", name);
    return strstr(text, quoted) != NULL;
}

static void check_hidden_cards(const av_state *s, const av_cards dealt[],
                               av_cards shown, const char *where)
{
    av_cards face_down = 0;
    for (int k = 0; k < 2; k++) {
        for (int j = 0; j + 1 < s->pile_count[k]; j++)
            face_down |= (av_cards)1 << s->pile[k][j];
    }
    for (int viewer = RULES_SPECTATOR; viewer < s->seats; viewer++) {
        char *text = view_text((const rules_state *)s, viewer);
        for (int owner = 0; owner < s->seats; owner++) {
            if (owner == viewer)
                continue;
            av_cards hidden = dealt[owner] & s->lord[owner].hand & ~shown;
            for (int c = 0; c < AV_CARDS; c++) {
                cr_assert(!((hidden >> c & 1) && names_card(text, c)),
                          "%s: view %d shows Lord %d's hidden card %d",
                          where, viewer, owner, c);
            }
        }
        for (int c = 0; c < AV_CARDS; c++) {
            cr_assert(!((face_down >> c & 1) && names_card(text, c)),
                      "%s: view %d shows face-down card %d", where, viewer, c);
        }
        free(text);
    }
}

/* Applies up to ALTERNATIVES different legal choices of seat on copies and
 * checks that every other seat's view, and the spectator's, is the same. */
static void check_sealed(const av_state *s, int seat, const json_t *moves,
                         const char *where)
{
    size_t count = json_array_size(moves);
    if (count < 2)
        return;
    char *first[RULES_MAX_SEATS + 1] = {0};
    for (size_t m = 0; m < count && m < ALTERNATIVES; m++) {
        rules_state *copy = av_engine.clone((const rules_state *)s);
        rules_error err = {{0}};
        cr_assert(av_engine.apply(copy, seat, json_array_get(moves, m), &err),
                  "%s: %s", where, err.message);
        for (int viewer = RULES_SPECTATOR; viewer < s->seats; viewer++) {
            if (viewer == seat)
                continue;
            char *text = view_text(copy, viewer);
            if (m == 0) {
                first[viewer + 1] = text;
                continue;
            }
            cr_assert_str_eq(text, first[viewer + 1],
                             "%s: view %d tells Lord %d's sealed choices "
                             "apart", where, viewer, seat);
            free(text);
        }
        av_engine.destroy(copy);
    }
    for (int v = 0; v <= RULES_MAX_SEATS; v++)
        free(first[v]);
}

static void walk(int seats, const char *options, uint64_t n)
{
    av_state *s = fixture_new_seeded(seats, options, n);
    av_cards dealt[AV_MAX_PLAYERS] = {0};
    for (int i = 0; i < seats; i++)
        dealt[i] = s->lord[i].hand;
    av_cards shown = 0;
    rules_rng rng; /* the moves chosen: the same on every run */
    harness_moves_rng(n, &rng);
    char where[96];
    for (int moves = 0;; moves++) {
        snprintf(where, sizeof where, "walk %llu (%d seats) move %d",
                 (unsigned long long)n, seats, moves);
        rules_pending p;
        av_engine.pending((rules_state *)s, &p);
        if (p.wait == RULES_WAIT_NOBODY)
            break;
        cr_assert_lt(moves, 4000, "%s: no end", where);
        int candidates[RULES_MAX_SEATS], k = 0;
        for (int i = 0; i < seats; i++) {
            if (p.seats >> i & 1)
                candidates[k++] = i;
        }
        int seat = candidates[rules_rng_below(&rng, (uint32_t)k)];
        json_t *legal = av_engine.legal((rules_state *)s, seat);
        json_t *list = json_object_get(legal, "moves");
        if (p.wait == RULES_WAIT_SIMULTANEOUS && k > 1)
            check_sealed(s, seat, list, where);
        json_t *action = json_array_get(
            list, rules_rng_below(&rng, (uint32_t)json_array_size(list)));
        rules_error err = {{0}};
        cr_assert(av_engine.apply((rules_state *)s, seat, action, &err),
                  "%s: %s", where, err.message);
        json_decref(legal);
        for (int i = 0; i < seats; i++)
            shown |= s->lord[i].display | s->lord[i].final_set;
        check_hidden_cards(s, dealt, shown, where);
    }
    av_engine.destroy((rules_state *)s);
}

Test(av_secrecy, no_view_shows_hidden_cards_or_sealed_choices)
{
    cr_assert(sodium_init() >= 0);
    for (int seats = 2; seats <= 5; seats++) {
        for (uint64_t n = 0; n < 6; n++)
            walk(seats, NULL, 900 + 10 * (uint64_t)seats + n);
    }
    for (uint64_t n = 0; n < 4; n++)
        walk(2, "{\"two_player_variant\": \"combined\"}", 990 + n);
}
