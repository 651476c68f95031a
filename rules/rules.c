/* rules.c: the helpers every engine shares (errors, options, canonical JSON). */
#include "rules.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rules_fail(rules_error *err, const char *fmt, ...)
{
    if (err != NULL) {
        va_list args;
        va_start(args, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, args);
        va_end(args);
    }
    return false;
}

int rules_seat_count(uint32_t seats)
{
    return __builtin_popcount(seats);
}

const char *rules_wait_name(rules_wait wait)
{
    switch (wait) {
    case RULES_WAIT_ONE:
        return "one";
    case RULES_WAIT_ANY_ORDER:
        return "any_order";
    case RULES_WAIT_SIMULTANEOUS:
        return "simultaneous";
    default:
        return "nobody";
    }
}

char *rules_sorted_json(const json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS |
                                       JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    if (text == NULL) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
    return text;
}

static bool option_value_fits(const char *name, const json_t *spec,
                              const json_t *value, rules_error *err)
{
    const char *type = json_string_value(json_object_get(spec, "type"));
    if (type == NULL)
        return rules_fail(err, "option %s has no declared type", name);
    if (strcmp(type, "boolean") == 0) {
        if (!json_is_boolean(value))
            return rules_fail(err, "option %s must be true or false", name);
        return true;
    }
    if (strcmp(type, "integer") == 0) {
        if (!json_is_integer(value))
            return rules_fail(err, "option %s must be a whole number", name);
        json_int_t n = json_integer_value(value);
        const json_t *min = json_object_get(spec, "minimum");
        const json_t *max = json_object_get(spec, "maximum");
        if (min != NULL && n < json_integer_value(min))
            return rules_fail(err, "option %s must be at least %lld", name,
                              (long long)json_integer_value(min));
        if (max != NULL && n > json_integer_value(max))
            return rules_fail(err, "option %s must be at most %lld", name,
                              (long long)json_integer_value(max));
        return true;
    }
    if (strcmp(type, "string") == 0) {
        if (!json_is_string(value))
            return rules_fail(err, "option %s must be a string", name);
        const json_t *choices = json_object_get(spec, "enum");
        if (choices == NULL)
            return true;
        size_t i;
        const json_t *choice;
        json_array_foreach(choices, i, choice) {
            if (json_equal(choice, value))
                return true;
        }
        return rules_fail(err, "option %s may not be \"%s\"", name,
                          json_string_value(value));
    }
    return rules_fail(err, "option %s has an unknown type %s", name, type);
}

json_t *rules_resolve_options(const json_t *declared, const json_t *options,
                              rules_error *err)
{
    if (options != NULL && !json_is_null(options) && !json_is_object(options)) {
        rules_fail(err, "options must be a JSON object");
        return NULL;
    }
    const char *name;
    json_t *value;
    if (options != NULL && json_is_object(options)) {
        json_object_foreach((json_t *)options, name, value) {
            const json_t *spec = json_object_get(declared, name);
            if (spec == NULL) {
                rules_fail(err, "this game has no option called %s", name);
                return NULL;
            }
            if (!option_value_fits(name, spec, value, err))
                return NULL;
        }
    }
    json_t *resolved = json_object();
    json_object_foreach((json_t *)declared, name, value) {
        json_t *given = options != NULL ? json_object_get(options, name) : NULL;
        json_t *chosen = given != NULL ? given : json_object_get(value, "default");
        json_object_set(resolved, name, chosen);
    }
    return resolved;
}

const rules_engine *rules_find(const char *name)
{
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        if (strcmp((*e)->name, name) == 0)
            return *e;
    }
    return NULL;
}

static bool matches_pattern(const json_t *move, const json_t *pattern)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)pattern, key, value) {
        if (!json_equal(json_object_get(move, key), value))
            return false;
    }
    return true;
}

json_t *rules_pick_move(const json_t *legal, const char *preferences)
{
    json_error_t jerr;
    json_t *patterns = json_loads(preferences, 0, &jerr);
    if (!json_is_array(patterns)) {
        fprintf(stderr, "%s:%d: bad move preferences: %s\n", __FILE__,
                __LINE__, jerr.text);
        abort();
    }
    const json_t *moves = json_object_get(legal, "moves");
    json_t *chosen = NULL;
    size_t p;
    const json_t *pattern;
    json_array_foreach(patterns, p, pattern) {
        size_t i;
        const json_t *move;
        json_array_foreach(moves, i, move) {
            if (matches_pattern(move, pattern)) {
                chosen = (json_t *)move;
                break;
            }
        }
        if (chosen != NULL)
            break;
    }
    json_decref(patterns);
    if (chosen == NULL)
        chosen = json_array_get(moves, 0);
    return chosen != NULL ? json_incref(chosen) : NULL;
}

/* Aborts on out of memory, like rules_sorted_json: a sentence is never
 * worth a half-told story. */
static char *tell_fallback(const rules_engine *engine, const rules_state *before,
                           int actor, const json_t *action, int viewer,
                           const char *const *names)
{
    char *notation = engine->format_move(before, actor, action);
    const char *who = actor == viewer ? "You" : names[actor];
    char *text = NULL;
    int n = notation != NULL ? asprintf(&text, "%s: %s.", who, notation)
                             : asprintf(&text, "%s moved.", who);
    free(notation);
    if (n < 0) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
    return text;
}

char *rules_tell(const rules_engine *engine, const rules_state *before,
                 const rules_state *after, int actor, const json_t *action,
                 int viewer, const char *const *names)
{
    if (engine->tell != NULL) {
        char *told = engine->tell(before, after, actor, action, viewer, names);
        if (told != NULL)
            return told;
    }
    return tell_fallback(engine, before, actor, action, viewer, names);
}

char *rules_name_seats(const char *text, const char *const *names, int seats)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    if (f == NULL) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
    for (const char *p = text; *p != '\0';) {
        int seat = -1, used = 0;
        bool at_word = p == text || !isalnum((unsigned char)p[-1]);
        if (at_word && strncmp(p, "seat ", 5) == 0 &&
            sscanf(p + 5, "%d%n", &seat, &used) == 1 && seat >= 0 &&
            seat < seats && names[seat] != NULL &&
            !isalnum((unsigned char)p[5 + used])) {
            fputs(names[seat], f);
            p += 5 + used;
        } else {
            fputc(*p++, f);
        }
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
    return out;
}
