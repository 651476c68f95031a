/* harness_tell.c: the promises of rules_engine.tell, checked on any
 * sentence: short, printable, and naming nothing the viewer may not see.
 *
 * "Nothing the viewer may not see" is checked generically, from the words
 * of the snapshot: a card, die or place named in save() but in no view the
 * viewer had (before or after the move, as JSON or as text) nor in a move
 * it saw is hidden from it, and a sentence told to it must not name it. */
#include "harness_tell.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TELL_MAX 300

const char *const harness_names[RULES_MAX_SEATS] = {
    "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi",
};

/* A word is a run of letters, digits and the marks card names use
 * ("scepter.4", "W1-6", "quake-dragon", "G5s"), without the dots and
 * dashes that end a sentence or start a phrase, compared without case;
 * a word with a dot also counts as what comes before it (a copy's name).
 * Numbers alone are not words: scores and counts are told freely. */
#define WORD_MAX 128

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '-' || c == '_';
}

/* Calls found(word, data) for each word of text, lower-cased. */
static void each_word(const char *text, void (*found)(const char *, void *),
                      void *data)
{
    const char *p = text;
    while (*p != '\0') {
        while (*p != '\0' && !word_char(*p))
            p++;
        const char *start = p;
        while (*p != '\0' && word_char(*p))
            p++;
        const char *end = p;
        while (start < end && (*start == '.' || *start == '-'))
            start++;
        while (end > start && (end[-1] == '.' || end[-1] == '-'))
            end--;
        size_t length = (size_t)(end - start);
        bool letter = false;
        for (const char *c = start; c < end; c++)
            letter = letter || isalpha((unsigned char)*c);
        if (length < 2 || length >= WORD_MAX || !letter)
            continue;
        char word[WORD_MAX];
        for (size_t i = 0; i < length; i++)
            word[i] = (char)tolower((unsigned char)start[i]);
        word[length] = '\0';
        found(word, data);
        /* "scepter.4" is a copy of the card a sentence calls "scepter". */
        char *dot = strchr(word, '.');
        if (dot != NULL && dot - word >= 2) {
            *dot = '\0';
            found(word, data);
        }
    }
}

static void add_word(const char *word, void *set)
{
    json_object_set_new(set, word, json_true());
}

/* Words of a text matched against a set of wanted words. */
typedef struct word_match {
    const json_t *wanted;
    json_t *found;
} word_match;

static void match_word(const char *word, void *data)
{
    word_match *match = data;
    if (json_object_get(match->wanted, word) != NULL)
        json_object_set_new(match->found, word, json_true());
}

/* Adds to match->found the wanted words of every string in value and,
 * with keys, of its keys. */
static void match_json(word_match *match, const json_t *value, bool keys)
{
    if (json_is_string(value)) {
        each_word(json_string_value(value), match_word, match);
    } else if (json_is_array(value)) {
        size_t i;
        const json_t *item;
        json_array_foreach(value, i, item)
        {
            match_json(match, item, keys);
        }
    } else if (json_is_object(value)) {
        const char *key;
        const json_t *item;
        json_object_foreach((json_t *)value, key, item)
        {
            if (keys)
                each_word(key, match_word, match);
            match_json(match, item, keys);
        }
    }
}

static char *problem(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static char *problem(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, args);
    va_end(args);
    cr_assert(n >= 0, "out of memory");
    return text;
}

/* The snapshot's seed: the string of a "seed" field, at any depth. */
static const char *seed_of(const json_t *value)
{
    if (json_is_array(value)) {
        size_t i;
        const json_t *item;
        json_array_foreach(value, i, item)
        {
            const char *seed = seed_of(item);
            if (seed != NULL)
                return seed;
        }
    } else if (json_is_object(value)) {
        const char *key;
        const json_t *item;
        json_object_foreach((json_t *)value, key, item)
        {
            if (strcmp(key, "seed") == 0 && json_is_string(item))
                return json_string_value(item);
            const char *seed = seed_of(item);
            if (seed != NULL)
                return seed;
        }
    }
    return NULL;
}

/* One move told to every viewer, with what the checks need. */
typedef struct tell_case {
    const rules_engine *engine;
    const rules_state *before;
    const rules_state *after;
    int actor;
    const json_t *action;
    json_t *snapshots;      /* [save(before), save(after)] */
    json_t *snapshot_words; /* every word of their strings, as a set */
} tell_case;

/* Adds every word of the strings in value (not its keys) to set. */
static void add_words_of(json_t *set, const json_t *value)
{
    if (json_is_string(value)) {
        each_word(json_string_value(value), add_word, set);
    } else if (json_is_array(value) || json_is_object(value)) {
        size_t i;
        const char *key;
        const json_t *item;
        if (json_is_array(value)) {
            json_array_foreach(value, i, item)
            {
                add_words_of(set, item);
            }
        } else {
            json_object_foreach((json_t *)value, key, item)
            {
                add_words_of(set, item);
            }
        }
    }
}

/* A word of in_snapshot's found that seen has not found, or NULL. */
static const char *unseen_word(const word_match *in_snapshot,
                               const word_match *seen)
{
    const char *word;
    const json_t *ignored;
    json_object_foreach(in_snapshot->found, word, ignored)
    {
        if (json_object_get(seen->found, word) == NULL)
            return word;
    }
    return NULL;
}

/* The words of told that the snapshots hold and viewer did not see: in
 * neither view (nor their text), nor in the move's notation when the move
 * was public to viewer. A malloc'd problem, or NULL. */
static char *hidden_word(const tell_case *c, int viewer, const char *told)
{
    json_t *words = json_object();
    each_word(told, add_word, words);
    /* The snapshots' words are gathered once per move (tell_case_of), not
     * once per viewer: a scan of both snapshots per viewer was most of
     * what random play spent on telling. */
    word_match in_snapshot = {c->snapshot_words, json_object()};
    const char *told_word;
    const json_t *ignored_value;
    json_object_foreach(words, told_word, ignored_value)
    {
        match_word(told_word, &in_snapshot);
    }
    char *found = NULL;
    if (json_object_size(in_snapshot.found) > 0) {
        word_match seen = {in_snapshot.found, json_object()};
        for (int k = 0; k < 2; k++) {
            json_t *view =
                c->engine->view(k == 0 ? c->before : c->after, viewer);
            cr_assert_not_null(view, "%s: view(%d) is NULL", c->engine->name,
                               viewer);
            match_json(&seen, view, true);
            json_decref(view);
        }
        rules_pending pending;
        c->engine->pending(c->before, &pending);
        if (viewer == c->actor || pending.wait != RULES_WAIT_SIMULTANEOUS) {
            char *notation =
                c->engine->format_move(c->before, c->actor, c->action);
            if (notation != NULL)
                each_word(notation, match_word, &seen);
            free(notation);
        }
        const char *word = unseen_word(&in_snapshot, &seen);
        /* The viewer also reads the text view (a mail's table), whose key
         * explains the codes of the round: "set4run4 is 1 set of 4 and 1
         * suited run of 4". A word of that kind is the game's, not a
         * secret, though the snapshot may hold it only in another seat's
         * sealed choice. Read only when needed: it costs a text view. */
        for (int k = 0; word != NULL && k < 2; k++) {
            char *text =
                c->engine->view_text(k == 0 ? c->before : c->after, viewer);
            if (text != NULL)
                each_word(text, match_word, &seen);
            free(text);
            word = unseen_word(&in_snapshot, &seen);
        }
        if (word != NULL)
            found =
                problem("names \"%s\", hidden from viewer %d", word, viewer);
        json_decref(seen.found);
    }
    json_decref(in_snapshot.found);
    json_decref(words);
    return found;
}

static char *tell_problem(const tell_case *c, int viewer, const char *told)
{
    size_t length = strlen(told);
    if (length == 0)
        return problem("is empty");
    if (length > TELL_MAX)
        return problem("has %zu characters (at most %d)", length, TELL_MAX);
    for (const unsigned char *p = (const unsigned char *)told; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            return problem("holds control character 0x%02x", *p);
    }
    const char *seed = seed_of(json_array_get(c->snapshots, 0));
    if (seed != NULL && seed[0] != '\0' && strstr(told, seed) != NULL)
        return problem("shows the seed");
    return hidden_word(c, viewer, told);
}

static tell_case tell_case_of(const rules_engine *engine,
                              const rules_state *before,
                              const rules_state *after, int actor,
                              const json_t *action, json_t *saved_before,
                              json_t *saved_after)
{
    tell_case c = {engine, before,       after,        actor,
                   action, json_array(), json_object()};
    json_array_append_new(c.snapshots, saved_before != NULL
                                           ? json_incref(saved_before)
                                           : engine->save(before));
    json_array_append_new(c.snapshots, saved_after != NULL
                                           ? json_incref(saved_after)
                                           : engine->save(after));
    add_words_of(c.snapshot_words, c.snapshots);
    return c;
}

char *harness_tell_problem(const rules_engine *engine,
                           const rules_state *before, const rules_state *after,
                           int actor, const json_t *action, int viewer,
                           const char *told)
{
    tell_case c =
        tell_case_of(engine, before, after, actor, action, NULL, NULL);
    char *found = tell_problem(&c, viewer, told);
    json_decref(c.snapshots);
    json_decref(c.snapshot_words);
    return found;
}

void harness_check_tells(const rules_engine *engine, const rules_state *before,
                         const rules_state *after, int actor,
                         const json_t *action, int seats, const char *where)
{
    harness_check_tells_saved(engine, before, after, NULL, NULL, actor, action,
                              seats, where);
}

void harness_check_tells_saved(const rules_engine *engine,
                               const rules_state *before,
                               const rules_state *after, json_t *saved_before,
                               json_t *saved_after, int actor,
                               const json_t *action, int seats,
                               const char *where)
{
    tell_case c = tell_case_of(engine, before, after, actor, action,
                               saved_before, saved_after);
    for (int viewer = RULES_SPECTATOR; viewer < seats; viewer++) {
        char *told = rules_tell(engine, before, after, actor, action, viewer,
                                harness_names);
        char *wrong = tell_problem(&c, viewer, told);
        if (wrong != NULL) {
            char *json = rules_sorted_json(action);
            cr_assert_fail("%s: %s: %s of seat %d told to %d: \"%s\" %s",
                           engine->name, where, json, actor, viewer, told,
                           wrong);
        }
        free(told);
    }
    json_decref(c.snapshots);
    json_decref(c.snapshot_words);
}

void harness_apply_text_told(const rules_engine *engine, rules_state *state,
                             int seat, const char *text,
                             char *told[RULES_MAX_SEATS + 1])
{
    rules_error err = {{0}};
    json_t *action = engine->parse_move(state, seat, text, &err);
    cr_assert_not_null(action, "\"%s\" does not parse: %s", text, err.message);
    rules_state *before = engine->clone(state);
    cr_assert(engine->apply(state, seat, action, &err),
              "seat %d: \"%s\" rejected: %s", seat, text, err.message);
    cr_assert(engine->check(state, &err), "after \"%s\": %s", text,
              err.message);
    json_t *result = engine->result(state);
    int seats = (int)json_array_size(json_object_get(result, "scores"));
    json_decref(result);
    harness_check_tells(engine, before, state, seat, action, seats, text);
    memset(told, 0, (RULES_MAX_SEATS + 1) * sizeof *told);
    for (int viewer = RULES_SPECTATOR; viewer < seats; viewer++)
        told[1 + viewer] = rules_tell(engine, before, state, seat, action,
                                      viewer, harness_names);
    engine->destroy(before);
    json_decref(action);
}

void harness_told_free(char *told[RULES_MAX_SEATS + 1])
{
    for (int i = 0; i <= RULES_MAX_SEATS; i++) {
        free(told[i]);
        told[i] = NULL;
    }
}

void harness_expect_prompt_phrase(const rules_engine *engine,
                                  const rules_state *state, int seat,
                                  const json_t *action)
{
    (void)seat;
    (void)action;
    rules_pending pending;
    engine->pending(state, &pending);
    if (pending.wait == RULES_WAIT_NOBODY)
        return;
    const char *prompt = pending.prompt;
    cr_assert(islower((unsigned char)prompt[0]),
              "%s: the prompt \"%s\" does not start with a lower-case verb",
              engine->name, prompt);
    cr_assert(strpbrk(prompt, ":;") == NULL,
              "%s: the prompt \"%s\" is more than one phrase", engine->name,
              prompt);
    json_t *words = json_object();
    each_word(prompt, add_word, words);
    cr_assert(json_object_get(words, "you") == NULL &&
                  json_object_get(words, "your") == NULL,
              "%s: the prompt \"%s\" speaks to the reader, not of whoever "
              "acts",
              engine->name, prompt);
    json_decref(words);
}
