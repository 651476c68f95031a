/* event_tell.c: see event_tell.h. */
#include "play/event_tell.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sentence being written: a growing malloc'd string. */
typedef struct story {
    char *text;
    size_t len;
} story;

static void say(story *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(story *s, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *more = NULL;
    int n = vasprintf(&more, fmt, args);
    va_end(args);
    if (n < 0)
        abort();
    char *grown = realloc(s->text, s->len + (size_t)n + 1);
    if (grown == NULL)
        abort();
    memcpy(grown + s->len, more, (size_t)n + 1);
    s->text = grown;
    s->len += (size_t)n;
    free(more);
}

/* The story told so far, handed over (never NULL). */
static char *told(story *s)
{
    if (s->text == NULL)
        say(s, "%s", "");
    return s->text;
}

static const char *kind_of(const json_t *event)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    return kind ? kind : "";
}

static const char *data_str(const json_t *event, const char *key)
{
    return json_string_value(
        json_object_get(json_object_get(event, "data"), key));
}

/* Seat seat's name as viewer reads it: "you" for the viewer's own seat
 * (capitalised with cap), else its name, or "seat N" while it has none. */
static void name(story *s, int seat, int viewer, const char *const *names,
                 int seats, bool cap)
{
    if (seat == viewer)
        say(s, "%s", cap ? "You" : "you");
    else if (seat >= 0 && seat < seats && names[seat] != NULL &&
             names[seat][0] != '\0')
        say(s, "%s", names[seat]);
    else
        say(s, "%s %d", cap ? "Seat" : "seat", seat + 1);
}

/* "Ann", "Ann and Bob", "Ann, Bob and you": the seats of place. */
static void names_of(story *s, const json_t *place, int viewer,
                     const char *const *names, int seats, bool cap)
{
    size_t n = json_array_size(place);
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            say(s, "%s", i + 1 == n ? " and " : ", ");
        name(s, (int)json_integer_value(json_array_get(place, i)), viewer,
             names, seats, cap && i == 0);
    }
}

static long long score_of(const json_t *result, int seat)
{
    return (long long)json_integer_value(
        json_array_get(json_object_get(result, "scores"), (size_t)seat));
}

static bool forfeited(const json_t *result, int seat)
{
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(result, "forfeited"), i, s)
    {
        if (json_integer_value(s) == seat)
            return true;
    }
    return false;
}

char *event_tell_result(const json_t *result, int viewer,
                        const char *const *names, int seats)
{
    story s = {0};
    const json_t *ranking = json_object_get(result, "ranking");
    const json_t *first = json_array_get(ranking, 0);
    say(&s, "The match is over: ");
    if (json_array_size(first) == 1) {
        int winner = (int)json_integer_value(json_array_get(first, 0));
        name(&s, winner, viewer, names, seats, true);
        say(&s, " won with %lld", score_of(result, winner));
    } else if (json_array_size(first) > 1) {
        names_of(&s, first, viewer, names, seats, true);
        say(&s, " shared first place with %lld",
            score_of(result,
                     (int)json_integer_value(json_array_get(first, 0))));
    } else {
        say(&s, "nobody won");
    }
    /* The others in the order of their places, with their scores. */
    bool any = false;
    size_t p;
    const json_t *place;
    json_array_foreach(ranking, p, place)
    {
        if (p == 0)
            continue;
        size_t i;
        const json_t *seat;
        json_array_foreach(place, i, seat)
        {
            int at = (int)json_integer_value(seat);
            say(&s, "%s", any ? ", " : "; ");
            name(&s, at, viewer, names, seats, false);
            say(&s, " %lld%s", score_of(result, at),
                forfeited(result, at) ? " (forfeited)" : "");
            any = true;
        }
    }
    say(&s, ".");
    /* The rules say "seat 1"; people read names. */
    const char *reason = json_string_value(json_object_get(result, "reason"));
    if (reason != NULL && reason[0] != '\0') {
        char *named = rules_name_seats(reason, names, seats);
        say(&s, " %s", named);
        free(named);
    }
    const char *tie = json_string_value(json_object_get(result, "tie_break"));
    if (tie != NULL && tie[0] != '\0') {
        char *named = rules_name_seats(tie, names, seats);
        say(&s, " Tie-break: %s", named);
        free(named);
    }
    return told(&s);
}

bool event_tell_needs_state(const json_t *event)
{
    const char *kind = kind_of(event);
    return strcmp(kind, "move") == 0 || strcmp(kind, "timeout") == 0 ||
           strcmp(kind, "decided") == 0;
}

/* One action of actor told to every viewer (texts[0] the public, texts[1 +
 * s] seat s), state moved on by it. Without a state (or when the rules
 * refuse it, which a recorded action never should), by notation: what
 * rules_tell falls back to. */
static void tell_action(const rules_engine *engine, rules_state *state,
                        int actor, const json_t *action, const char *notation,
                        const char *const *names, int seats, story *texts)
{
    rules_state *before = state != NULL ? engine->clone(state) : NULL;
    rules_error err = {{0}};
    if (before != NULL && actor >= 0 && actor < seats &&
        engine->apply(state, actor, action, &err)) {
        for (int v = -1; v < seats; v++) {
            char *text =
                rules_tell(engine, before, state, actor, action, v, names);
            say(&texts[v + 1], "%s", text);
            free(text);
        }
    } else {
        char *own =
            before != NULL ? engine->format_move(before, actor, action) : NULL;
        const char *what = own != NULL ? own : notation;
        for (int v = -1; v < seats; v++) {
            name(&texts[v + 1], actor, v, names, seats, true);
            if (what != NULL)
                say(&texts[v + 1], ": %s.", what);
            else
                say(&texts[v + 1], " moved.");
        }
        free(own);
    }
    if (before != NULL)
        engine->destroy(before);
}

/* The service's own events, told to viewer v into s. */
static void tell_service(const json_t *event, int actor, int v,
                         const char *const *names, int seats, story *s)
{
    const char *kind = kind_of(event);
    const char *reason = data_str(event, "reason");
    if (strcmp(kind, "created") == 0) {
        /* What kind of match, for someone who opens its log first. */
        const char *game = data_str(event, "game");
        const rules_engine *engine = game != NULL ? rules_find(game) : NULL;
        json_int_t players = json_integer_value(
            json_object_get(json_object_get(event, "data"), "seats"));
        if (engine != NULL && players > 0)
            say(s, "A match of %s for %d players was created.",
                engine->title, (int)players);
        else
            say(s, "The match was created.");
    } else if (strcmp(kind, "joined") == 0) {
        name(s, actor, v, names, seats, true);
        say(s, " joined the match.");
    } else if (strcmp(kind, "started") == 0) {
        say(s, "The match started.");
    } else if (strcmp(kind, "committed") == 0) {
        name(s, actor, v, names, seats, true);
        say(s,
            actor == v ? " sealed your choice." : " sealed a secret choice.");
    } else if (strcmp(kind, "revealed") == 0) {
        name(s, actor, v, names, seats, true);
        say(s, actor == v ? " revealed your choice." : " revealed a choice.");
    } else if (strcmp(kind, "voided") == 0) {
        if (actor == v)
            say(s, "Your choice was refused");
        else {
            name(s, actor, v, names, seats, true);
            say(s, "'s choice was refused");
        }
        say(s, " (%s): the rules chose in its place.",
            reason ? reason : "the rules do not allow it");
    } else if (strcmp(kind, "forfeited") == 0) {
        name(s, actor, v, names, seats, true);
        say(s, " forfeited the match.");
    } else if (strcmp(kind, "finished") == 0) {
        char *text = event_tell_result(
            json_object_get(json_object_get(event, "data"), "result"), v, names,
            seats);
        say(s, "%s", text);
        free(text);
    } else if (strcmp(kind, "aborted") == 0) {
        say(s, "An admin aborted the match%s%s.", reason ? ": " : "",
            reason ? reason : "");
    } else if (strcmp(kind, "rewound") == 0) {
        say(s, "An admin took the match back to event %lld%s%s.",
            (long long)json_integer_value(
                json_object_get(json_object_get(event, "data"), "to_seq")),
            reason ? ": " : "", reason ? reason : "");
    } else if (strcmp(kind, "seat_replaced") == 0) {
        say(s, "An admin gave seat %d to another player%s%s.", actor + 1,
            reason ? ": " : "", reason ? reason : "");
    } else if (strcmp(kind, "imported") == 0) {
        say(s, "The match was imported.");
    } else {
        say(s, "%s.", kind);
    }
}

/* A timeout: whose time ran out, then the moves the service made for
 * them, each told by the engine. */
static void tell_timeout(const rules_engine *engine, rules_state *state,
                         const json_t *event, int actor,
                         const char *const *names, int seats, story *texts)
{
    for (int v = -1; v < seats; v++) {
        if (strcmp(data_str(event, "waiting_for") ?: "", "window") == 0) {
            name(&texts[v + 1], actor, v, names, seats, true);
            say(&texts[v + 1], " let the window the rules leave pass.");
        } else if (actor == v) {
            say(&texts[v + 1], "Your time ran out.");
        } else {
            name(&texts[v + 1], actor, v, names, seats, true);
            say(&texts[v + 1], "'s time ran out.");
        }
    }
    size_t i;
    const json_t *move;
    json_array_foreach(json_object_get(json_object_get(event, "data"), "moves"),
                       i, move)
    {
        story one[RULES_MAX_SEATS + 1] = {{0}};
        tell_action(engine, state, actor, json_object_get(move, "action"),
                    json_string_value(json_object_get(move, "text")), names,
                    seats, one);
        for (int v = -1; v < seats; v++) {
            say(&texts[v + 1], " %s", told(&one[v + 1]));
            free(one[v + 1].text);
        }
    }
}

/* A sealed decision: every choice, in seat order, each told by the
 * engine once all are applied: from the state before the decision to the
 * state after it, so the engine sees the decision resolved (rules.h: a
 * sealed choice is told only then). Without a state, by notation. */
static void tell_decided(const rules_engine *engine, rules_state *state,
                         const json_t *event, const char *const *names,
                         int seats, story *texts)
{
    for (int v = -1; v < seats; v++)
        say(&texts[v + 1], "The secret choices were revealed.");
    const json_t *choices =
        json_object_get(json_object_get(event, "data"), "choices");
    rules_state *before = state != NULL ? engine->clone(state) : NULL;
    bool applied = before != NULL;
    size_t i;
    const json_t *choice;
    json_array_foreach(choices, i, choice)
    {
        int seat = (int)json_integer_value(json_object_get(choice, "seat"));
        rules_error err = {{0}};
        applied =
            applied && seat >= 0 && seat < seats &&
            engine->apply(state, seat, json_object_get(choice, "action"), &err);
    }
    json_array_foreach(choices, i, choice)
    {
        int seat = (int)json_integer_value(json_object_get(choice, "seat"));
        const json_t *action = json_object_get(choice, "action");
        for (int v = -1; v < seats; v++) {
            if (applied) {
                char *text =
                    rules_tell(engine, before, state, seat, action, v, names);
                say(&texts[v + 1], " %s", text);
                free(text);
            } else {
                say(&texts[v + 1], " ");
                name(&texts[v + 1], seat, v, names, seats, true);
                say(&texts[v + 1], " chose.");
            }
        }
    }
    if (before != NULL)
        engine->destroy(before);
}

void event_tell(const rules_engine *engine, rules_state *state,
                const json_t *event, long long seq, const char *const *names,
                int seats, json_t *rows)
{
    if (seats < 0 || seats > RULES_MAX_SEATS)
        seats = 0;
    if (engine == NULL)
        state = NULL;
    const json_t *at = json_object_get(event, "seat");
    int actor = json_is_integer(at) ? (int)json_integer_value(at) : -1;
    const char *kind = kind_of(event);
    story texts[RULES_MAX_SEATS + 1] = {{0}};
    if (strcmp(kind, "move") == 0)
        tell_action(engine, state, actor,
                    json_object_get(json_object_get(event, "data"), "action"),
                    data_str(event, "text"), names, seats, texts);
    else if (strcmp(kind, "timeout") == 0)
        tell_timeout(engine, state, event, actor, names, seats, texts);
    else if (strcmp(kind, "decided") == 0)
        tell_decided(engine, state, event, names, seats, texts);
    else
        for (int v = -1; v < seats; v++)
            tell_service(event, actor, v, names, seats, &texts[v + 1]);
    const char *public = told(&texts[0]);
    for (int v = -1; v < seats; v++) {
        const char *text = told(&texts[v + 1]);
        if (v < 0 || strcmp(text, public) != 0)
            json_array_append_new(
                rows, json_pack("{s:I,s:i,s:o,s:s}", "seq", (json_int_t)seq,
                                "viewer", v, "seat",
                                actor >= 0 ? json_integer(actor) : json_null(),
                                "text", text));
    }
    for (int v = -1; v < seats; v++)
        free(texts[v + 1].text);
}
