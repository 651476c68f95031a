/* support.c: position building for the engine's own tests. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"

amt_state *amt_test_new(int seats, const char *options)
{
    uint8_t seed[RULES_SEED_BYTES] = {7, 7, 7};
    json_t *opts = options != NULL ? json_loads(options, 0, NULL) : NULL;
    rules_error err = {{0}};
    rules_state *s = amt_engine.setup(opts, seats, seed, &err);
    json_decref(opts);
    cr_assert_not_null(s, "setup failed: %s", err.message);
    return (amt_state *)s;
}

static int take_named(bool *free_card, const char *name)
{
    for (int id = 0; id < AMT_CARDS; id++) {
        char have[AMT_NAME_LEN];
        amt_card_name(id, have);
        if (free_card[id] && strcmp(have, name) == 0) {
            free_card[id] = false;
            return id;
        }
    }
    cr_assert_fail("no free card called %s", name);
    return -1;
}

static void sorted_add(amt_player *p, int id)
{
    int i = p->hand_count++;
    while (i > 0 && p->hand[i - 1] > id) {
        p->hand[i] = p->hand[i - 1];
        i--;
    }
    p->hand[i] = (int16_t)id;
}

void amt_test_deal(amt_state *s, const char *const *hands,
                   const char *discard_top, const char *draw_top, int turn)
{
    bool free_card[AMT_CARDS];
    for (int i = 0; i < AMT_CARDS; i++)
        free_card[i] = true;
    s->meld_count = 0;
    for (int p = 0; p < s->seats; p++) {
        amt_player *pl = &s->players[p];
        pl->hand_count = 0;
        pl->laid = false;
        pl->claim = AMT_CLAIM_NONE;
        pl->end = AMT_END_NONE;
        char buf[512];
        snprintf(buf, sizeof buf, "%s", hands[p]);
        char *save = NULL;
        for (char *w = strtok_r(buf, " ", &save); w != NULL;
             w = strtok_r(NULL, " ", &save))
            sorted_add(pl, take_named(free_card, w));
    }
    s->discard_count = 1;
    s->discard[0] = (int16_t)take_named(free_card, discard_top);
    int top = draw_top != NULL ? take_named(free_card, draw_top) : -1;
    s->draw_count = 0;
    for (int id = 0; id < AMT_CARDS; id++) {
        if (free_card[id])
            s->draw[s->draw_count++] = (int16_t)id;
    }
    if (top >= 0)
        s->draw[s->draw_count++] = (int16_t)top;
    s->turn = turn;
    s->phase = AMT_PHASE_DRAW;
    s->window = false;
    rules_error err = {{0}};
    cr_assert(amt_engine.check((rules_state *)s, &err), "dealt position: %s",
              err.message);
}

void amt_test_stack_draw(amt_state *s, const char *names)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", names);
    char *words[16];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w != NULL && n < 16;
         w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    for (int k = n - 1; k >= 0; k--) {
        int at = -1;
        for (int i = 0; i < s->draw_count && at < 0; i++) {
            char have[AMT_NAME_LEN];
            amt_card_name(s->draw[i], have);
            if (strcmp(have, words[k]) == 0)
                at = i;
        }
        cr_assert_geq(at, 0, "%s is not in the draw pile", words[k]);
        int16_t id = s->draw[at];
        memmove(s->draw + at, s->draw + at + 1,
                (size_t)(s->draw_count - at - 1) * sizeof s->draw[0]);
        s->draw[s->draw_count - 1] = id;
    }
}

void amt_test_trim_draw(amt_state *s, int keep)
{
    int moved = s->draw_count - keep;
    cr_assert_geq(moved, 0);
    /* the discard pile's cards move up; the draw pile's bottom goes under */
    memmove(s->discard + moved, s->discard,
            (size_t)s->discard_count * sizeof s->discard[0]);
    memcpy(s->discard, s->draw, (size_t)moved * sizeof s->draw[0]);
    s->discard_count += moved;
    memmove(s->draw, s->draw + moved, (size_t)keep * sizeof s->draw[0]);
    s->draw_count = keep;
    rules_error err = {{0}};
    cr_assert(amt_engine.check((rules_state *)s, &err), "%s", err.message);
}

void amt_test_do(amt_state *s, int seat, const char *text)
{
    harness_apply_text(&amt_engine, (rules_state *)s, seat, text);
}

void amt_test_reject(amt_state *s, int seat, const char *text,
                     const char *words)
{
    harness_reject_text(&amt_engine, (rules_state *)s, seat, text, words);
}

bool amt_test_holds(const amt_state *s, int seat, const char *name)
{
    for (int i = 0; i < s->players[seat].hand_count; i++) {
        char have[AMT_NAME_LEN];
        amt_card_name(s->players[seat].hand[i], have);
        if (strcmp(have, name) == 0)
            return true;
    }
    return false;
}

char *amt_test_view_json(const amt_state *s, int seat)
{
    json_t *view = amt_engine.view((const rules_state *)s, seat);
    char *text = rules_sorted_json(view);
    json_decref(view);
    return text;
}
