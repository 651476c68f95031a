/* fields.c: see fields.h. */
#include "fields.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void aq_reader_init(aq_reader *r, rules_error *err)
{
    memset(r, 0, sizeof *r);
    r->err = err;
    r->ok = true;
    for (int id = 0; id < AQ_CARDS; id++)
        r->card_place[id] = AQ_NONE;
}

/* Fills err with the first failure only: later ones follow from it. */
void aq_read_fail(aq_reader *r, const char *fmt, ...)
{
    if (r->ok && r->err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
        va_end(ap);
    }
    r->ok = false;
}

/* A JSON value as a person wrote it, cut short: for error sentences. */
void aq_read_value_text(const json_t *v, char out[AQ_READ_VALUE])
{
    if (v == NULL) {
        snprintf(out, AQ_READ_VALUE, "nothing");
        return;
    }
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (text == NULL) {
        snprintf(out, AQ_READ_VALUE, "?");
        return;
    }
    if (strlen(text) > 40)
        snprintf(out, AQ_READ_VALUE, "%.37s...", text);
    else
        snprintf(out, AQ_READ_VALUE, "%s", text);
    free(text);
}

void aq_read_not(aq_reader *r, const char *path, const json_t *v,
                 const char *what)
{
    if (v == NULL) {
        aq_read_fail(r, "%s: missing; it is %s", path, what);
        return;
    }
    char text[AQ_READ_VALUE];
    aq_read_value_text(v, text);
    aq_read_fail(r, "%s: %s is not %s", path, text, what);
}

/* A field's path ("sides[1].cache"), cut at AQ_READ_PATH characters. */
void aq_read_path(char out[AQ_READ_PATH], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, AQ_READ_PATH, fmt, ap);
    va_end(ap);
}

/* "sides[1].cache" from "sides[1]" and "cache"; a key alone at the top. */
void aq_read_path_join(char out[AQ_READ_PATH], const char *parent,
                       const char *key)
{
    if (parent[0] == '\0')
        aq_read_path(out, "%s", key);
    else
        aq_read_path(out, "%s.%s", parent, key);
}

/* ---- plain fields ------------------------------------------------------ */

/* An integer lo..hi, described in words as what ("a seat"). */
int aq_read_int(aq_reader *r, const json_t *obj, const char *parent,
                const char *key, int lo, int hi, const char *what)
{
    char path[AQ_READ_PATH];
    aq_read_path_join(path, parent, key);
    const json_t *v = json_object_get(obj, key);
    if (v == NULL) {
        aq_read_fail(r, "%s: missing; it is %s from %d to %d", path, what, lo,
                     hi);
        return lo;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        char text[AQ_READ_VALUE];
        aq_read_value_text(v, text);
        aq_read_fail(r, "%s: %s is not %s from %d to %d", path, text, what, lo,
                     hi);
        return lo;
    }
    return (int)json_integer_value(v);
}

/* The same, or null (AQ_NONE); a missing key is an error too. */
int aq_read_nullable(aq_reader *r, const json_t *obj, const char *parent,
                     const char *key, int lo, int hi, const char *what)
{
    const json_t *v = json_object_get(obj, key);
    if (json_is_null(v))
        return AQ_NONE;
    if (v == NULL) {
        char path[AQ_READ_PATH];
        aq_read_path_join(path, parent, key);
        aq_read_fail(r, "%s: missing; it is %s from %d to %d, or null", path,
                     what, lo, hi);
        return AQ_NONE;
    }
    return aq_read_int(r, obj, parent, key, lo, hi, what);
}

/* A civilization by its suit name, or null. */
int aq_read_suit(aq_reader *r, const json_t *obj, const char *parent,
                 const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (json_is_null(v))
        return AQ_NONE;
    if (v == NULL) {
        char path[AQ_READ_PATH];
        aq_read_path_join(path, parent, key);
        aq_read_fail(r,
                     "%s: missing; it is a civilization (yellow, green, red, "
                     "orange, blue, purple) or null",
                     path);
        return AQ_NONE;
    }
    int suit =
        json_is_string(v) ? aq_suit_parse(json_string_value(v)) : AQ_NONE;
    if (suit == AQ_NONE) {
        char path[AQ_READ_PATH];
        char text[AQ_READ_VALUE];
        aq_read_path_join(path, parent, key);
        aq_read_value_text(v, text);
        aq_read_fail(
            r,
            "%s: %s is not a civilization (yellow, green, red, orange, "
            "blue, purple) or null",
            path, text);
    }
    return suit;
}

/* Refuses keys a position does not have, so a misspelt optional field is
 * not silently ignored; fields load works out itself get a hint. */
void aq_read_only_keys(aq_reader *r, const json_t *obj, const char *parent,
                       const char *const *keys)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)obj, key, v)
    {
        bool known = false;
        for (int k = 0; keys[k] != NULL && !known; k++)
            known = strcmp(key, keys[k]) == 0;
        if (known)
            continue;
        char path[AQ_READ_PATH];
        aq_read_path_join(path, parent, key);
        if (strcmp(key, "played_points") == 0 || strcmp(key, "total") == 0 ||
            strcmp(key, "final_left") == 0)
            aq_read_fail(r,
                         "%s: leave it out: it follows from the rest of the "
                         "position",
                         path);
        else
            aq_read_fail(r, "%s: not part of an Antiquity Quest position",
                         path);
        return;
    }
}

const json_t *aq_read_object(aq_reader *r, const json_t *obj,
                             const char *parent, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_object(v)) {
        char path[AQ_READ_PATH];
        aq_read_path_join(path, parent, key);
        aq_read_not(r, path, v, "an object");
        return NULL;
    }
    return v;
}

const json_t *aq_read_array(aq_reader *r, const json_t *obj, const char *key,
                            int want, const char *entries)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_array(v)) {
        aq_read_not(r, key, v, "a list");
        return NULL;
    }
    if (want >= 0 && (int)json_array_size(v) != want) {
        aq_read_fail(r, "%s: %zu entries, but the match has %d %s", key,
                     json_array_size(v), want, entries);
        return NULL;
    }
    return v;
}

/* ---- cards ------------------------------------------------------------- */

bool aq_read_words(aq_reader *r, const json_t *v, const char *path,
                   aq_word_fn fn, void *ctx)
{
    if (json_is_array(v)) {
        size_t i;
        const json_t *item;
        json_array_foreach(v, i, item)
        {
            if (!json_is_string(item)) {
                char text[AQ_READ_VALUE];
                aq_read_value_text(item, text);
                aq_read_fail(r, "%s[%zu]: %s is not a card", path, i, text);
                return false;
            }
        }
    } else if (!json_is_string(v)) {
        aq_read_not(r, path, v, "a list of cards such as \"red2.4 crown.1\"");
        return false;
    }
    int index = 0;
    size_t items = json_is_array(v) ? json_array_size(v) : 1;
    for (size_t i = 0; i < items && r->ok; i++) {
        const char *p =
            json_string_value(json_is_array(v) ? json_array_get(v, i) : v);
        for (;;) {
            while (*p != '\0' && (isspace((unsigned char)*p) || *p == ','))
                p++;
            if (*p == '\0' || !r->ok)
                break;
            char word[32];
            size_t n = 0;
            while (p[n] != '\0' && !isspace((unsigned char)p[n]) && p[n] != ',')
                n++;
            size_t kept = n < sizeof word - 1 ? n : sizeof word - 1;
            memcpy(word, p, kept);
            word[kept] = '\0';
            fn(r, word, index++, ctx);
            p += n;
        }
    }
    return r->ok;
}

/* Where the cards of one place go. */
typedef struct place_fill {
    int place;
    uint8_t *cards;
    int count;
    int max;
} place_fill;

static void place_word(aq_reader *r, const char *word, int index, void *ctx)
{
    place_fill *f = ctx;
    const char *path = r->place[f->place];
    int name;
    int id = aq_card_parse(word, &name);
    if (id == AQ_CARD_UNKNOWN) {
        aq_read_fail(r, "%s[%d]: there is no card \"%s\"", path, index, word);
        return;
    }
    if (f->count >= f->max) {
        aq_read_fail(r, "%s[%d]: more than %d cards", path, index, f->max);
        return;
    }
    uint8_t *slot = &f->cards[f->count++];
    if (id == AQ_CARD_ANY_COPY) {
        /* Fewer bare names than cards can all be placed; one more cannot. */
        if (r->bares >= AQ_CARDS) {
            aq_read_fail(r, "%s[%d]: more than %d cards in the position", path,
                         index, AQ_CARDS);
            return;
        }
        r->bare[r->bares++] = (aq_bare_card){slot, f->place, index, name};
        return;
    }
    if (r->card_place[id] != AQ_NONE) {
        aq_read_fail(r, "%s[%d]: %s is also in %s[%d]", path, index,
                     aq_card_token(id), r->place[r->card_place[id]],
                     r->card_index[id]);
        return;
    }
    r->card_place[id] = f->place;
    r->card_index[id] = index;
    *slot = (uint8_t)id;
}

/* Reads the cards of a place named path into cards[] (room for max). */
int aq_read_place(aq_reader *r, const json_t *v, const char *path,
                  uint8_t *cards, int max)
{
    if (r->places >= AQ_READ_PLACES || !r->ok)
        return 0;
    place_fill f = {.place = r->places, .cards = cards, .max = max};
    aq_read_path(r->place[r->places++], "%s", path);
    aq_read_words(r, v, path, place_word, &f);
    return f.count;
}

/* Gives each bare name the lowest copy no token claimed, in the order the
 * names were read. */
void aq_read_bare_names(aq_reader *r)
{
    for (int b = 0; b < r->bares && r->ok; b++) {
        const aq_bare_card *bc = &r->bare[b];
        int first = aq_name_first_id(bc->name);
        int copies = aq_name_copies(bc->name);
        int id = AQ_NONE;
        for (int c = 0; c < copies && id == AQ_NONE; c++) {
            if (r->card_place[first + c] == AQ_NONE)
                id = first + c;
        }
        if (id == AQ_NONE) {
            aq_read_fail(r,
                         "%s[%d]: \"%s\": all %d %s cards are already "
                         "placed (one is in %s)",
                         r->place[bc->place], bc->index, aq_name_text(bc->name),
                         copies, aq_name_text(bc->name),
                         r->place[r->card_place[first]]);
            return;
        }
        r->card_place[id] = bc->place;
        r->card_index[id] = bc->index;
        *bc->slot = (uint8_t)id;
    }
}
