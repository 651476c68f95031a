/* engine.c: the rules_engine table of Quarriors with the Quartifacts
 * quests. Every move is applied to a scratch copy first, so a rejected
 * move leaves the state exactly as it was. */
#include "quarriors.h"
#include "qq_internal.h"

#include <stdlib.h>
#include <string.h>

static rules_state *engine_setup(const json_t *options, int seats,
                                 const uint8_t seed[RULES_SEED_BYTES],
                                 rules_error *err)
{
    return (rules_state *)qq_setup(options, seats, seed, err);
}

static rules_state *engine_clone(const rules_state *state)
{
    qq_state *copy = malloc(sizeof *copy);
    if (copy == NULL)
        abort();
    memcpy(copy, state, sizeof *copy);
    return (rules_state *)copy;
}

static void engine_destroy(rules_state *state)
{
    free(state);
}

static void engine_pending(const rules_state *state, rules_pending *out)
{
    qq_pending((const qq_state *)state, out);
}

static bool engine_apply(rules_state *state, int seat, const json_t *action,
                         rules_error *err)
{
    qq_state *st = (qq_state *)state;
    qq_state *scratch = malloc(sizeof *scratch);
    if (scratch == NULL)
        abort();
    memcpy(scratch, st, sizeof *scratch);
    bool ok = qq_apply_move(scratch, seat, action, err);
    if (ok) {
        qq_check_end(scratch);
        memcpy(st, scratch, sizeof *st);
    }
    free(scratch);
    return ok;
}

static json_t *engine_view(const rules_state *state, int seat)
{
    return qq_view((const qq_state *)state, seat);
}

static json_t *engine_legal(const rules_state *state, int seat)
{
    bool complete;
    json_t *moves = qq_legal_moves((const qq_state *)state, seat, &complete);
    return json_pack("{s:o,s:b,s:o}", "moves", moves, "complete", complete,
                     "forms", qq_legal_forms(moves));
}

static char *engine_format(const rules_state *state, int seat,
                           const json_t *action)
{
    (void)state;
    (void)seat;
    return qq_format(action);
}

static json_t *engine_parse(const rules_state *state, int seat,
                            const char *text, rules_error *err)
{
    (void)state;
    (void)seat;
    return qq_parse(text, err);
}

static char *engine_view_text(const rules_state *state, int seat)
{
    return qq_view_text((const qq_state *)state, seat);
}

static json_t *engine_result(const rules_state *state)
{
    return qq_result((const qq_state *)state);
}

static char *engine_tell(const rules_state *before, const rules_state *after,
                         int actor, const json_t *action, int viewer,
                         const char *const *names)
{
    return qq_tell((const qq_state *)before, (const qq_state *)after, actor,
                   action, viewer, names);
}

static json_t *engine_save(const rules_state *state)
{
    return qq_save((const qq_state *)state);
}

static rules_state *engine_load(const json_t *snapshot, rules_error *err)
{
    return (rules_state *)qq_load(snapshot, err);
}

static bool engine_check(const rules_state *state, rules_error *err)
{
    return qq_check((const qq_state *)state, err);
}

const rules_engine qq_engine = {
    .name = "quarriors",
    .title = "Quarriors! with Quartifacts",
    .version = 3,
    .min_seats = 2,
    .max_seats = 4,
    .describe_options = qq_options,
    .setup = engine_setup,
    .clone = engine_clone,
    .destroy = engine_destroy,
    .pending = engine_pending,
    .apply = engine_apply,
    .view = engine_view,
    .legal = engine_legal,
    .format_move = engine_format,
    .parse_move = engine_parse,
    .view_text = engine_view_text,
    .result = engine_result,
    .save = engine_save,
    .load = engine_load,
    .check = engine_check,
    .default_move = qq_default_move,
    .tell = engine_tell,
};
