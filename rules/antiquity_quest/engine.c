/* engine.c: the rules_engine table of Antiquity Quest, tying the engine's
 * files together behind rules.h. */
#include "antiquity_quest.h"
#include "aq_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bump when a change would replay an event log differently. */
#define AQ_ENGINE_VERSION 1

static rules_state *aq_setup(const json_t *options, int seats,
                             const uint8_t seed[RULES_SEED_BYTES],
                             rules_error *err)
{
    json_t *declared = aq_describe_options();
    json_t *resolved = rules_resolve_options(declared, options, err);
    json_decref(declared);
    if (resolved == NULL)
        return NULL;
    aq_options opt;
    bool ok = aq_options_read(resolved, seats, &opt, err);
    json_decref(resolved);
    if (!ok)
        return NULL;
    aq_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    s->opt = opt;
    s->seats = seats;
    s->sides = opt.pairs ? seats / 2 : seats;
    rules_rng_init(&s->rng, seed);
    s->round = 1;
    /* General ruling: the player left of the dealer, seat 0, starts. */
    aq_deal_round(s, 0);
    return (rules_state *)s;
}

static rules_state *aq_clone(const rules_state *state)
{
    aq_state *copy = malloc(sizeof *copy);
    if (copy == NULL)
        abort();
    memcpy(copy, state, sizeof *copy);
    return (rules_state *)copy;
}

static void aq_destroy(rules_state *state)
{
    free(state);
}

static void pending_entry(const rules_state *state, rules_pending *out)
{
    aq_pending(aq_const_of(state), out);
}

static bool aq_apply(rules_state *state, int seat, const json_t *action,
                     rules_error *err)
{
    aq_state *s = aq_of(state);
    rules_pending p;
    aq_pending(s, &p);
    if (seat < 0 || seat >= s->seats || !(p.seats & (1u << seat))) {
        if (s->phase == AQ_PHASE_FINAL && seat >= 0 && seat < s->seats &&
            s->choice[seat].made)
            return rules_fail(err, "you have already made your final plays");
        return rules_fail(err, "it is not your turn");
    }
    aq_action a;
    if (!aq_action_decode(action, &a, err) || !aq_move_check(s, seat, &a, err))
        return false;
    aq_move_apply(s, seat, &a);
    return true;
}

static json_t *view_entry(const rules_state *state, int seat)
{
    return aq_view(aq_const_of(state), seat);
}

static char *view_text_entry(const rules_state *state, int seat)
{
    return aq_view_text(aq_const_of(state), seat);
}

static char *view_text_of_view_entry(const rules_state *state, int seat,
                                     const json_t *view)
{
    return aq_view_text_of(aq_const_of(state), seat, view);
}

static json_t *legal_entry(const rules_state *state, int seat)
{
    return aq_legal(aq_const_of(state), seat);
}

static char *format_entry(const rules_state *state, int seat,
                          const json_t *action)
{
    (void)state;
    (void)seat;
    return aq_format(action);
}

static json_t *parse_entry(const rules_state *state, int seat,
                           const char *text, rules_error *err)
{
    (void)state;
    (void)seat;
    return aq_parse(text, err);
}

/* Scores are the completed rounds' totals (the round in progress holds
 * hidden hands); partners share their side's score and place. The
 * rulebook names no tie-break: equal totals share a place. */
static json_t *aq_result(const rules_state *state)
{
    const aq_state *s = aq_const_of(state);
    json_t *scores = json_array();
    for (int seat = 0; seat < s->seats; seat++)
        json_array_append_new(scores, json_integer(s->total[aq_side_of(s, seat)]));
    json_t *ranking = json_array();
    bool placed[RULES_MAX_SEATS] = {false};
    for (int n = 0; n < s->seats;) {
        int best = AQ_NONE;
        for (int seat = 0; seat < s->seats; seat++) {
            int t = s->total[aq_side_of(s, seat)];
            if (!placed[seat] &&
                (best == AQ_NONE || t > s->total[aq_side_of(s, best)]))
                best = seat;
        }
        json_t *place = json_array();
        int t = s->total[aq_side_of(s, best)];
        for (int seat = 0; seat < s->seats; seat++) {
            if (!placed[seat] && s->total[aq_side_of(s, seat)] == t) {
                placed[seat] = true;
                json_array_append_new(place, json_integer(seat));
                n++;
            }
        }
        json_array_append_new(ranking, place);
    }
    json_t *detail = json_pack("{s:o,s:o}", "rounds", aq_rounds_json(s),
                               "totals", aq_totals_json(s));
    json_t *result =
        json_pack("{s:b,s:o,s:o,s:o}", "over", s->phase == AQ_PHASE_OVER,
                  "scores", scores, "ranking", ranking, "detail", detail);
    if (s->phase == AQ_PHASE_OVER) {
        /* No tie_break: the rulebook names none, equal totals share. */
        char reason[160];
        int out = s->round_going_out[s->rounds_done - 1];
        char ended[64] = "the draw pile ran out";
        if (out != AQ_NONE)
            snprintf(ended, sizeof ended, "seat %d went out", out);
        if (s->opt.rounds == 1)
            snprintf(reason, sizeof reason,
                     "The only round ended when %s; the highest total wins.",
                     ended);
        else
            snprintf(reason, sizeof reason,
                     "The last of %d rounds ended when %s; the highest total "
                     "wins.",
                     s->opt.rounds, ended);
        json_object_set_new(result, "reason", json_string(reason));
    }
    return result;
}

static json_t *save_entry(const rules_state *state)
{
    return aq_save(aq_const_of(state));
}

static rules_state *load_entry(const json_t *snapshot, rules_error *err)
{
    return (rules_state *)aq_load(snapshot, err);
}

static bool check_entry(const rules_state *state, rules_error *err)
{
    return aq_check(aq_const_of(state), err);
}

const rules_engine aq_engine = {
    .name = "antiquity_quest",
    .title = "Antiquity Quest",
    .version = AQ_ENGINE_VERSION,
    .min_seats = 2,
    .max_seats = 8,
    .describe_options = aq_describe_options,
    .setup = aq_setup,
    .clone = aq_clone,
    .destroy = aq_destroy,
    .pending = pending_entry,
    .apply = aq_apply,
    .view = view_entry,
    .legal = legal_entry,
    .format_move = format_entry,
    .parse_move = parse_entry,
    .view_text = view_text_entry,
    .view_text_of_view = view_text_of_view_entry,
    .result = aq_result,
    .save = save_entry,
    .load = load_entry,
    .check = check_entry,
    .default_move = aq_default_move,
    .tell = aq_tell,
};
