/* result_text.c */
#include "notify/result_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static const char *name_of(const json_t *names, size_t seat)
{
    const char *name = json_string_value(json_array_get(names, seat));
    return name && name[0] ? name : "(an empty seat)";
}

/* "Ann", "Ann and Bob", "Ann, Bob and Carol". */
/* label and text (when there is one) with its "seat N" written as the
 * players' names, and a newline. */
static void put_named(FILE *f, const char *label, const char *text,
                      const json_t *names)
{
    if (text == NULL)
        return;
    const char *list[RULES_MAX_SEATS] = {NULL};
    size_t count = json_array_size(names);
    if (count > RULES_MAX_SEATS)
        count = RULES_MAX_SEATS;
    for (size_t i = 0; i < count; i++)
        list[i] = name_of(names, i);
    char *named = rules_name_seats(text, list, (int)count);
    fprintf(f, "%s%s\n", label, named);
    free(named);
}

static void put_names(FILE *f, const json_t *seats, const json_t *names)
{
    size_t n = json_array_size(seats);
    for (size_t i = 0; i < n; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " and " : ", ";
        fprintf(f, "%s%s", sep,
                name_of(names,
                        (size_t)json_integer_value(json_array_get(seats, i))));
    }
}

/* The words for the engines' detail keys that read badly as they are
 * written; a NULL word hides the key: Adel Verplichtet's "final_value"
 * is the ordering key of its tie-break (kept in the stored result for
 * replays), which the result's tie_break says in the rulebook's words. */
static const char *const key_words[][2] = {
    {"final_value", NULL},
    {"final_set", "final exhibition"},
    {"pawn", "pawn on space"},
    {"tie_breakers", "tie-breakers"},
};

/* Whether key is one people read. */
static bool shown(const char *key)
{
    for (size_t i = 0; i < sizeof key_words / sizeof *key_words; i++)
        if (strcmp(key, key_words[i][0]) == 0)
            return key_words[i][1] != NULL;
    return true;
}

/* "final_set" → "final exhibition", "relic_bonus" → "relic bonus". */
static void put_key(FILE *f, const char *key)
{
    for (size_t i = 0; i < sizeof key_words / sizeof *key_words; i++)
        if (strcmp(key, key_words[i][0]) == 0 && key_words[i][1] != NULL) {
            fputs(key_words[i][1], f);
            return;
        }
    for (const char *c = key; *c; c++)
        fputc(*c == '_' ? ' ' : *c, f);
}

static void put_value(FILE *f, const json_t *value);

/* The order pairs are written in: single values first, then lists and
 * groups, each by key, and a "total" last: the parts, then what they add
 * up to. */
static int rank_of(const json_t *object, const char *key)
{
    if (strcmp(key, "total") == 0)
        return 2;
    const json_t *value = json_object_get(object, key);
    return json_is_object(value) || json_is_array(value);
}

/* Whether key x of object goes before key y. */
static bool before(const json_t *object, const char *x, const char *y)
{
    int rx = rank_of(object, x), ry = rank_of(object, y);
    return rx != ry ? rx < ry : strcmp(x, y) < 0;
}

/* "key value" pairs, hidden keys left out. A pair whose value is a list
 * or a group reads "key: value", and then pairs are parted by
 * semicolons, since the group's own are parted by commas. */
static void put_object(FILE *f, const json_t *object)
{
    size_t n = json_object_size(object), count = 0;
    const char **keys = calloc(n ? n : 1, sizeof *keys);
    if (keys == NULL)
        abort();
    const char *key;
    const json_t *item;
    bool grouped = false;
    json_object_foreach((json_t *)object, key, item)
    {
        if (!shown(key))
            continue;
        /* In order as they come: a detail has a handful of keys. */
        size_t at = count++;
        for (; at > 0 && before(object, key, keys[at - 1]); at--)
            keys[at] = keys[at - 1];
        keys[at] = key;
        grouped |= json_is_object(item) ||
                   (json_is_array(item) && json_array_size(item) > 1);
    }
    for (size_t i = 0; i < count; i++) {
        const json_t *value = json_object_get(object, keys[i]);
        fputs(i == 0 ? "" : grouped ? "; " : ", ", f);
        put_key(f, keys[i]);
        fputs(json_is_object(value) || json_is_array(value) ? ": " : " ", f);
        put_value(f, value);
    }
    free(keys);
}

/* A value as words: numbers and strings as they are, lists joined by
 * commas, objects as "key value" pairs. */
static void put_value(FILE *f, const json_t *value)
{
    if (json_is_string(value)) {
        fputs(json_string_value(value), f);
    } else if (json_is_integer(value)) {
        fprintf(f, "%lld", (long long)json_integer_value(value));
    } else if (json_is_real(value)) {
        fprintf(f, "%g", json_real_value(value));
    } else if (json_is_boolean(value)) {
        fputs(json_is_true(value) ? "yes" : "no", f);
    } else if (json_is_array(value)) {
        if (json_array_size(value) == 0)
            fputs("none", f);
        size_t i;
        const json_t *item;
        json_array_foreach(value, i, item)
        {
            bool nested = json_is_object(item) || json_is_array(item);
            fprintf(f, "%s%s", i ? (nested ? "; " : ", ") : "",
                    nested ? "(" : "");
            put_value(f, item);
            if (nested)
                fputc(')', f);
        }
    } else if (json_is_object(value) && json_object_size(value) == 0) {
        fputs("none", f);
    } else if (json_is_object(value)) {
        put_object(f, value);
    } else {
        fputs("none", f);
    }
}

/* One line per seat of a list that has one entry per seat. */
static void put_per_seat(FILE *f, const json_t *list, const json_t *names)
{
    size_t seat;
    const json_t *item;
    json_array_foreach(list, seat, item)
    {
        fprintf(f, "  %s: ", name_of(names, seat));
        put_value(f, item);
        fputc('\n', f);
    }
}

/* The engine's breakdown: per seat where it lists one entry per seat,
 * else one line per entry under its name. */
static void put_detail(FILE *f, const json_t *detail, const json_t *names)
{
    size_t seats = json_array_size(names);
    if (json_is_array(detail) && json_array_size(detail) == seats) {
        put_per_seat(f, detail, names);
        return;
    }
    if (!json_is_object(detail))
        return;
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)detail, key, value)
    {
        char first =
            key[0] >= 'a' && key[0] <= 'z' ? (char)(key[0] - 32) : key[0];
        fputc(first, f);
        put_key(f, key + (key[0] != '\0'));
        if (json_is_array(value) && json_array_size(value) == seats) {
            fputs(":\n", f);
            put_per_seat(f, value, names);
        } else if (json_is_array(value)) {
            fputs(":\n", f);
            size_t i;
            const json_t *item;
            json_array_foreach(value, i, item)
            {
                fputs("  ", f);
                put_value(f, item);
                fputc('\n', f);
            }
        } else {
            fputs(": ", f);
            put_value(f, value);
            fputc('\n', f);
        }
    }
}

static const char *ordinal(size_t place)
{
    static const char *const words[] = {"first",  "second", "third",
                                        "fourth", "fifth",  "sixth"};
    return place < 6 ? words[place] : "further";
}

char *result_text(const json_t *result, const json_t *names, int viewer)
{
    const json_t *scores = json_object_get(result, "scores");
    const json_t *ranking = json_object_get(result, "ranking");
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    if (!json_is_array(scores) || json_array_size(scores) == 0) {
        fclose(f);
        return out;
    }
    bool over = json_is_true(json_object_get(result, "over"));
    const json_t *first = json_array_get(ranking, 0);
    if (over && json_array_size(first) > 0) {
        bool viewer_won = false;
        size_t i;
        const json_t *seat;
        json_array_foreach(first, i, seat)
        {
            viewer_won |= json_integer_value(seat) == viewer;
        }
        put_names(f, first, names);
        fprintf(f, json_array_size(first) == 1 ? " won" : " share the win");
        long long best = json_integer_value(json_array_get(
            scores, (size_t)json_integer_value(json_array_get(first, 0))));
        fprintf(f, " with a score of %lld.%s\n", best,
                viewer_won ? " Well played!" : "");
    }
    fprintf(f, "%s\n", over ? "Final standings:" : "Standings so far:");
    size_t place;
    const json_t *group;
    json_array_foreach(ranking, place, group)
    {
        size_t i;
        const json_t *seat;
        json_array_foreach(group, i, seat)
        {
            size_t s = (size_t)json_integer_value(seat);
            fprintf(f, "  %s%s: %lld (%s%s)\n", name_of(names, s),
                    (int)s == viewer ? " (you)" : "",
                    (long long)json_integer_value(json_array_get(scores, s)),
                    ordinal(place),
                    json_array_size(group) > 1 ? ", shared" : "");
        }
    }
    const char *tie_break =
        json_string_value(json_object_get(result, "tie_break"));
    const char *reason = json_string_value(json_object_get(result, "reason"));
    put_named(f, "Tie-break: ", tie_break, names);
    put_named(f, "Why it ended: ", reason, names);
    const json_t *detail = json_object_get(result, "detail");
    if (detail != NULL && !json_is_null(detail)) {
        fprintf(f, "\nThe points in detail:\n");
        put_detail(f, detail, names);
    }
    if (fclose(f) != 0)
        abort();
    return out;
}
