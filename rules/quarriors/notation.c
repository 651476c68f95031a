/* notation.c: moves as short words a person can type in an email:
 *   summon 12 | ready 7 | use 7 | draw 4 | attach 12 | cull 4
 *   cast 7 | cast 7 12 | reroll 3 | reroll 3 5
 *   attack | done | pass | end | take | leave
 *   quest start exqualibur 2 5 | challenge holy-quail 1 | defend 4 2
 *   capture quake-dragon | seize 2 | first score | first quest
 * Card powers:
 *   summon 12 7 (Strong Primordial Ooze copying die 7) | copy 12 7
 *   use 7 3 5 (Growth Incantation re-rolling 3 and 5) | turn 4 (Portal)
 *   cast 7 12 15 (Death Spell: one victim per opponent) | pass
 *   revive 9 2 (Ghostly Spirit, culling Basic Quiddity die 2)
 *   exchange 30 | recall 8 | trade 4 quake-dragon
 * Names are written with hyphens and stored with underscores. */
#include "qq_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const die_moves[] = {"summon", "ready", "use", "draw",
                                        "attach", "cull", "turn", "exchange",
                                        "recall", NULL};
static const char *const bare_moves[] = {"attack", "done", "pass", "end",
                                         "take", "leave", NULL};

static bool in(const char *word, const char *const *list)
{
    for (int i = 0; list[i] != NULL; i++) {
        if (strcmp(word, list[i]) == 0)
            return true;
    }
    return false;
}

typedef struct buf {
    char text[512];
    size_t len;
} buf;

static void put(buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->text + b->len, sizeof b->text - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
    if (b->len >= sizeof b->text)
        b->len = sizeof b->text - 1;
}

static void put_name(buf *b, const char *name)
{
    put(b, " ");
    for (const char *c = name; *c; c++)
        put(b, "%c", *c == '_' ? '-' : *c);
}

static bool put_int(buf *b, const json_t *action, const char *key,
                    bool optional)
{
    const json_t *v = json_object_get(action, key);
    if (v == NULL)
        return optional;
    if (!json_is_integer(v))
        return false;
    put(b, " %lld", (long long)json_integer_value(v));
    return true;
}

static bool put_dice(buf *b, const json_t *action)
{
    const json_t *list = json_object_get(action, "dice");
    if (!json_is_array(list) || json_array_size(list) == 0)
        return false;
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (!json_is_integer(v))
            return false;
        put(b, " %lld", (long long)json_integer_value(v));
    }
    return true;
}

char *qq_format(const json_t *action)
{
    const char *type = json_string_value(json_object_get(action, "type"));
    if (type == NULL)
        return NULL;
    buf b = {{0}, 0};
    bool ok = true;
    if (strcmp(type, "summon") == 0 || strcmp(type, "copy") == 0) {
        put(&b, "%s", type);
        ok = put_int(&b, action, "die", false) &&
             put_int(&b, action, strcmp(type, "copy") == 0 ? "target" : "copy",
                     strcmp(type, "summon") == 0);
    } else if (strcmp(type, "use") == 0) {
        put(&b, "use");
        ok = put_int(&b, action, "die", false) &&
             (json_object_get(action, "dice") == NULL || put_dice(&b, action));
    } else if (strcmp(type, "revive") == 0) {
        put(&b, "revive");
        ok = put_int(&b, action, "die", false) &&
             put_int(&b, action, "cull", false);
    } else if (strcmp(type, "trade") == 0) {
        const char *card = json_string_value(json_object_get(action, "card"));
        if (card == NULL)
            return NULL;
        put(&b, "trade");
        ok = put_int(&b, action, "die", false);
        put_name(&b, card);
    } else if (in(type, die_moves)) {
        put(&b, "%s", type);
        ok = put_int(&b, action, "die", false);
    } else if (in(type, bare_moves)) {
        put(&b, "%s", type);
    } else if (strcmp(type, "cast") == 0) {
        put(&b, "cast");
        ok = put_int(&b, action, "die", false) &&
             put_int(&b, action, "target", true);
        const json_t *targets = json_object_get(action, "targets");
        if (ok && targets != NULL) {
            json_t *tmp = json_pack("{s:O}", "dice", targets);
            ok = json_object_get(action, "target") == NULL &&
                 json_array_size(targets) >= 2 && put_dice(&b, tmp);
            json_decref(tmp);
        }
    } else if (strcmp(type, "reroll") == 0) {
        put(&b, "reroll");
        ok = put_int(&b, action, "die", false) &&
             put_int(&b, action, "other", true);
    } else if (strcmp(type, "quest") == 0 || strcmp(type, "challenge") == 0) {
        const char *quest = json_string_value(json_object_get(action, "quest"));
        if (quest == NULL)
            return NULL;
        put(&b, "%s", strcmp(type, "quest") == 0 ? "quest start" : "challenge");
        put_name(&b, quest);
        ok = put_dice(&b, action);
    } else if (strcmp(type, "defend") == 0) {
        put(&b, "defend");
        ok = put_dice(&b, action);
    } else if (strcmp(type, "capture") == 0) {
        const char *card = json_string_value(json_object_get(action, "card"));
        if (card == NULL)
            return NULL;
        put(&b, "capture");
        put_name(&b, card);
    } else if (strcmp(type, "seize") == 0) {
        put(&b, "seize");
        ok = put_int(&b, action, "seat", false);
    } else if (strcmp(type, "first") == 0) {
        const char *what = json_string_value(json_object_get(action, "do"));
        if (what == NULL)
            return NULL;
        put(&b, "first %s", what);
    } else {
        return NULL;
    }
    if (!ok)
        return NULL;
    char *text = strdup(b.text);
    if (text == NULL)
        abort();
    return text;
}

#define MAX_WORDS 40

/* Splits text into lower-case words; returns the count or -1. Moves are
 * ASCII: any other byte is refused here, before JSON would refuse a name
 * that is not UTF-8 without a sentence. */
static int split(const char *text, char words[MAX_WORDS][64])
{
    int n = 0;
    const char *p = text;
    for (const char *c = text; *c; c++) {
        if ((unsigned char)*c >= 0x80)
            return -1;
    }
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (n == MAX_WORDS)
            return -1;
        size_t len = 0;
        while (*p && !isspace((unsigned char)*p)) {
            if (len + 1 >= 64)
                return -1;
            char c = (char)tolower((unsigned char)*p++);
            words[n][len++] = c == '-' ? '_' : c;
        }
        words[n][len] = '\0';
        n++;
    }
    return n;
}

static bool number(const char *word, json_int_t *out)
{
    if (!isdigit((unsigned char)word[0]))
        return false;
    char *end;
    long long v = strtoll(word, &end, 10);
    if (*end != '\0' || v > 100000)
        return false;
    *out = v;
    return true;
}

static int by_value(const void *a, const void *b)
{
    json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;
    return x < y ? -1 : x > y;
}

/* The numbers words[from..n); sorted when a band is named (a band is a
 * set), in the written order for an order of defenders. */
static json_t *numbers(char words[MAX_WORDS][64], int from, int n,
                       bool sorted)
{
    json_int_t values[MAX_WORDS];
    int count = 0;
    for (int i = from; i < n; i++) {
        if (!number(words[i], &values[count++]))
            return NULL;
    }
    if (sorted)
        qsort(values, (size_t)count, sizeof values[0], by_value);
    json_t *list = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(list, json_integer(values[i]));
    return list;
}

json_t *qq_parse(const char *text, rules_error *err)
{
    char words[MAX_WORDS][64];
    int n = split(text, words);
    if (n <= 0) {
        rules_fail(err, "write a move such as \"summon 3\" or \"attack\"");
        return NULL;
    }
    const char *type = words[0];
    json_int_t a, b;
    if (in(type, bare_moves) && n == 1)
        return json_pack("{s:s}", "type", type);
    if (in(type, die_moves) && n == 2 && number(words[1], &a))
        return json_pack("{s:s,s:I}", "type", type, "die", a);
    if ((strcmp(type, "summon") == 0 || strcmp(type, "copy") == 0 ||
         strcmp(type, "revive") == 0) && n == 3 && number(words[1], &a) &&
        number(words[2], &b))
        return json_pack("{s:s,s:I,s:I}", "type", type, "die", a,
                         strcmp(type, "summon") == 0 ? "copy"
                         : strcmp(type, "copy") == 0 ? "target" : "cull", b);
    if (strcmp(type, "use") == 0 && n >= 3 &&
        number(words[1], &a)) {
        json_t *dice = numbers(words, 2, n, true);
        if (dice != NULL)
            return json_pack("{s:s,s:I,s:o}", "type", "use", "die", a, "dice",
                             dice);
    }
    if (strcmp(type, "cast") == 0 && n >= 4 && number(words[1], &a)) {
        json_t *dice = numbers(words, 2, n, true);
        if (dice != NULL)
            return json_pack("{s:s,s:I,s:o}", "type", "cast", "die", a,
                             "targets", dice);
    }
    if (strcmp(type, "trade") == 0 && n == 3 && number(words[1], &a))
        return json_pack("{s:s,s:I,s:s}", "type", "trade", "die", a, "card",
                         words[2]);
    if ((strcmp(type, "cast") == 0 || strcmp(type, "reroll") == 0) &&
        (n == 2 || n == 3) && number(words[1], &a)) {
        json_t *action = json_pack("{s:s,s:I}", "type", type, "die", a);
        if (n == 3) {
            if (!number(words[2], &b)) {
                json_decref(action);
                rules_fail(err, "write \"%s DIE [DIE]\"", type);
                return NULL;
            }
            json_object_set_new(action,
                                strcmp(type, "cast") == 0 ? "target" : "other",
                                json_integer(b));
        }
        return action;
    }
    if (strcmp(type, "quest") == 0 && n >= 4 && strcmp(words[1], "start") == 0) {
        json_t *dice = numbers(words, 3, n, true);
        if (dice != NULL)
            return json_pack("{s:s,s:s,s:o}", "type", "quest", "quest",
                             words[2], "dice", dice);
    }
    if (strcmp(type, "challenge") == 0 && n >= 3) {
        json_t *dice = numbers(words, 2, n, true);
        if (dice != NULL)
            return json_pack("{s:s,s:s,s:o}", "type", "challenge", "quest",
                             words[1], "dice", dice);
    }
    if (strcmp(type, "defend") == 0 && n >= 2) {
        json_t *dice = numbers(words, 1, n, false);
        if (dice != NULL)
            return json_pack("{s:s,s:o}", "type", "defend", "dice", dice);
    }
    if (strcmp(type, "capture") == 0 && n == 2)
        return json_pack("{s:s,s:s}", "type", "capture", "card", words[1]);
    if (strcmp(type, "seize") == 0 && n == 2 && number(words[1], &a))
        return json_pack("{s:s,s:I}", "type", "seize", "seat", a);
    if (strcmp(type, "first") == 0 && n == 2)
        return json_pack("{s:s,s:s}", "type", "first", "do", words[1]);
    rules_fail(err, "\"%s\" is not a move; moves look like \"summon 3\", "
                    "\"quest start exqualibur 2 5\", \"defend 4 2\", "
                    "\"capture quake-dragon\"", text);
    return NULL;
}
