/* replay.c */
#include "ledger/replay.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool replay_fail(replay_error *err, long long seq, const char *fmt, ...)
{
    err->seq = seq;
    va_list args;
    va_start(args, fmt);
    vsnprintf(err->reason, sizeof err->reason, fmt, args);
    va_end(args);
    return false;
}

static const char *kind_of(const json_t *event)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    return kind ? kind : "";
}

/* The match as it stands after one counting event. */
typedef struct point {
    size_t index;       /* of the event in the log */
    bool started;       /* a `started` event counts at or before it */
    long long decision; /* seq of the first commitment of a sealed
                           decision still in progress, else 0 */
} point;

/* The counting events, as a stack a rewind pops. */
typedef struct history {
    point *stack;
    size_t depth;
    long long *position; /* per event: its place on the stack, or -1 */
    long long ended;     /* seq of `finished` or `aborted`, else 0 */
} history;

static void history_init(history *h, size_t events)
{
    h->stack = calloc(events + 1, sizeof *h->stack);
    h->position = calloc(events + 1, sizeof *h->position);
    h->depth = 0;
    h->ended = 0;
    if (h->stack == NULL || h->position == NULL)
        abort();
}

static void history_free(history *h)
{
    free(h->stack);
    free(h->position);
}

/* Whether the match may go back to event to_seq, given the first
 * `before` events (to_seq must be one of them, and not the last). */
static bool target_ok(const history *h, size_t before, long long to_seq,
                      long long seq, replay_error *err)
{
    if (to_seq < 1 || to_seq >= (long long)before)
        return replay_fail(err, seq,
                           "event %lld is not before the match's last event "
                           "(%zu): there is nothing to rewind",
                           to_seq, before);
    long long at = h->position[to_seq - 1];
    if (at < 0)
        return replay_fail(err, seq,
                           "event %lld no longer counts (an earlier rewind "
                           "undid it): rewind only along the match as it "
                           "stands",
                           to_seq);
    const point *p = &h->stack[at];
    if (!p->started)
        return replay_fail(err, seq,
                           "event %lld comes before the match started: a "
                           "rewind cannot unseat players; abort the match "
                           "instead",
                           to_seq);
    if (p->decision != 0)
        return replay_fail(err, seq,
                           "event %lld falls inside a sealed decision (first "
                           "commitment at event %lld): rewind to before that "
                           "commitment or to the decision's result",
                           to_seq, p->decision);
    return true;
}

static bool history_push(history *h, const json_t *event, size_t index,
                         replay_error *err)
{
    long long seq = (long long)index + 1;
    const char *kind = kind_of(event);
    if (h->ended != 0 && strcmp(kind, "imported") != 0)
        return replay_fail(err, seq,
                           "event %lld comes after the match ended at event "
                           "%lld",
                           seq, h->ended);
    point next = h->depth ? h->stack[h->depth - 1] : (point){0};
    if (strcmp(kind, "rewound") == 0) {
        const json_t *to =
            json_object_get(json_object_get(event, "data"), "to_seq");
        if (!json_is_integer(to))
            return replay_fail(err, seq, "event %lld rewinds to no event", seq);
        long long to_seq = (long long)json_integer_value(to);
        if (!target_ok(h, index, to_seq, seq, err)) {
            char why[sizeof err->reason];
            snprintf(why, sizeof why, "%s", err->reason);
            return replay_fail(err, seq, "event %lld: %s", seq, why);
        }
        size_t keep = (size_t)h->position[to_seq - 1] + 1;
        for (size_t d = keep; d < h->depth; d++)
            h->position[h->stack[d].index] = -1;
        h->depth = keep;
        next = h->stack[keep - 1];
    } else if (strcmp(kind, "started") == 0) {
        next.started = true;
    } else if (strcmp(kind, "committed") == 0 ||
               strcmp(kind, "revealed") == 0 ||
               strcmp(kind, "voided") == 0) {
        if (next.decision == 0)
            next.decision = seq;
    } else if (strcmp(kind, "decided") == 0) {
        next.decision = 0;
    } else if (strcmp(kind, "finished") == 0 || strcmp(kind, "aborted") == 0) {
        h->ended = seq;
    }
    next.index = index;
    h->position[index] = (long long)h->depth;
    h->stack[h->depth++] = next;
    return true;
}

static bool history_build(history *h, const json_t *events, replay_error *err)
{
    history_init(h, json_array_size(events));
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        if (!history_push(h, event, i, err))
            return false;
    }
    return true;
}

bool replay_history(const json_t *events, bool *counts, replay_error *err)
{
    history h;
    bool ok = history_build(&h, events, err);
    size_t n = json_array_size(events);
    for (size_t i = 0; i < n; i++)
        counts[i] = ok && h.position[i] >= 0;
    history_free(&h);
    return ok;
}

bool replay_rewind_target(const json_t *events, long long to_seq,
                          replay_error *err)
{
    history h;
    bool ok = history_build(&h, events, err);
    if (ok && h.ended != 0)
        ok = replay_fail(err, to_seq,
                         "the match ended at event %lld and revealed its seed "
                         "there, so players could foresee every shuffle after "
                         "a rewind",
                         h.ended);
    if (ok)
        ok = target_ok(&h, json_array_size(events), to_seq, to_seq, err);
    history_free(&h);
    return ok;
}

uint32_t replay_open_decision(const json_t *events, const bool *counts,
                              char decision[64])
{
    uint32_t seats = 0;
    decision[0] = '\0';
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = kind_of(event);
        if (!counts[i])
            continue;
        if (strcmp(kind, "decided") == 0) {
            seats = 0;
            decision[0] = '\0';
        } else if (strcmp(kind, "committed") == 0) {
            json_int_t seat =
                json_integer_value(json_object_get(event, "seat"));
            const char *id = json_string_value(
                json_object_get(json_object_get(event, "data"), "decision"));
            if (seat >= 0 && seat < 32)
                seats |= 1u << seat;
            snprintf(decision, 64, "%s", id ? id : "");
        }
    }
    return seats;
}

static bool apply_one(const rules_engine *engine, rules_state *state, int seat,
                      const json_t *action, long long seq, replay_error *err)
{
    rules_error rerr = {{0}};
    if (engine->apply(state, seat, action, &rerr))
        return true;
    return replay_fail(err, seq, "event %lld does not replay: %s", seq,
                       rerr.message);
}

/* A text move's request must have asked for the recorded action. */
static bool text_matches(const rules_engine *engine, const rules_state *state,
                         int seat, const json_t *data, long long seq,
                         replay_error *err)
{
    const char *body = json_string_value(
        json_object_get(json_object_get(data, "request"), "body"));
    if (body == NULL)
        return true;
    json_t *asked = json_loads(body, 0, NULL);
    const char *text = json_string_value(json_object_get(asked, "move"));
    bool ok = true;
    if (text != NULL) {
        rules_error rerr = {{0}};
        json_t *parsed = engine->parse_move(state, seat, text, &rerr);
        if (parsed == NULL ||
            !json_equal(parsed, json_object_get(data, "action")))
            ok = replay_fail(err, seq,
                             "event %lld's signed request asked for \"%s\", "
                             "which is not the recorded move",
                             seq, text);
        json_decref(parsed);
    }
    json_decref(asked);
    return ok;
}

bool replay_apply(const rules_engine *engine, rules_state *state,
                  const json_t *event, bool check_request, replay_error *err)
{
    const char *kind = kind_of(event);
    const json_t *data = json_object_get(event, "data");
    long long seq =
        (long long)json_integer_value(json_object_get(event, "seq"));
    if (strcmp(kind, "move") == 0) {
        int seat = (int)json_integer_value(json_object_get(event, "seat"));
        if (check_request && !text_matches(engine, state, seat, data, seq, err))
            return false;
        return apply_one(engine, state, seat, json_object_get(data, "action"),
                         seq, err);
    }
    if (strcmp(kind, "timeout") == 0) {
        /* The moves a deadline made for its seat (deadlines). */
        int seat = (int)json_integer_value(json_object_get(event, "seat"));
        size_t i;
        const json_t *move;
        json_array_foreach(json_object_get(data, "moves"), i, move) {
            if (!apply_one(engine, state, seat, json_object_get(move, "action"),
                           seq, err))
                return false;
        }
    }
    if (strcmp(kind, "decided") == 0) {
        size_t i;
        const json_t *choice;
        json_array_foreach(json_object_get(data, "choices"), i, choice) {
            if (!apply_one(
                    engine, state,
                    (int)json_integer_value(json_object_get(choice, "seat")),
                    json_object_get(choice, "action"), seq, err))
                return false;
        }
    }
    return true;
}
