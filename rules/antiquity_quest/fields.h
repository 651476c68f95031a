/* fields.h: reading the fields of a position a person may have written by
 * hand (load.c). Every reader names the field and the value when it
 * fails ("turn: 7 is not a seat from 0 to 1"); the first failure is kept
 * in the caller's rules_error and later ones are dropped, since they
 * mostly follow from it. Card lists are read word by word, and every card
 * is placed in exactly one place: a second place for the same card, or a
 * word that is no card, is a failure that names both places or the word. */
#ifndef RULES_ANTIQUITY_QUEST_FIELDS_H
#define RULES_ANTIQUITY_QUEST_FIELDS_H

#include "aq_internal.h"

#define AQ_READ_PATH 48  /* "collections[12].cards" */
#define AQ_READ_VALUE 48 /* a value quoted in a sentence, cut short */
/* Places that hold cards: three piles, the hands, the caches and the
 * collections. */
#define AQ_READ_PLACES (3 + RULES_MAX_SEATS + AQ_MAX_SIDES + AQ_MAX_COLLECTIONS)

/* A bare card name waiting for a copy no token names. */
typedef struct aq_bare_card {
    uint8_t *slot;
    int place;
    int index;
    int name;
} aq_bare_card;

typedef struct aq_reader {
    rules_error *err;
    bool ok; /* no failure yet */
    int places;
    char place[AQ_READ_PLACES][AQ_READ_PATH];
    int card_place[AQ_CARDS]; /* the place each card is in, or AQ_NONE */
    int card_index[AQ_CARDS]; /* its word index there */
    int bares;
    aq_bare_card bare[AQ_CARDS];
} aq_reader;

void aq_reader_init(aq_reader *r, rules_error *err);
/* Records a failure (the first one only) and clears r->ok. */
void aq_read_fail(aq_reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A JSON value as written, cut to fit a sentence; "nothing" for NULL. */
void aq_read_value_text(const json_t *v, char out[AQ_READ_VALUE]);
/* Fails with "path: missing; it is what" when v is NULL, else "path: V
 * is not what" quoting v. */
void aq_read_not(aq_reader *r, const char *path, const json_t *v,
                 const char *what);
/* A field's path, printf-style, cut at AQ_READ_PATH characters. */
void aq_read_path(char out[AQ_READ_PATH], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "sides[1].cache" from "sides[1]" and "cache"; at the top ("") the key. */
void aq_read_path_join(char out[AQ_READ_PATH], const char *parent,
                       const char *key);

/* The field key of obj (path parent.key): an integer from lo to hi,
 * described as what ("a seat"). On failure lo. */
int aq_read_int(aq_reader *r, const json_t *obj, const char *parent,
                const char *key, int lo, int hi, const char *what);
/* The same or null (AQ_NONE); a missing key fails too. */
int aq_read_nullable(aq_reader *r, const json_t *obj, const char *parent,
                     const char *key, int lo, int hi, const char *what);
/* A civilization by its suit name (any case), or null (AQ_NONE). */
int aq_read_suit(aq_reader *r, const json_t *obj, const char *parent,
                 const char *key);
/* Fails on the first key of obj not in the NULL-terminated keys, so a
 * misspelt optional field is not silently ignored; the fields load works
 * out itself (played_points, total, final_left) get a hint. */
void aq_read_only_keys(aq_reader *r, const json_t *obj, const char *parent,
                       const char *const *keys);
/* The object at key, or NULL after a failure. */
const json_t *aq_read_object(aq_reader *r, const json_t *obj,
                             const char *parent, const char *key);
/* The top-level list at key with exactly want entries (any number when
 * want < 0; entries names them in the sentence), or NULL after a failure. */
const json_t *aq_read_array(aq_reader *r, const json_t *obj, const char *key,
                            int want, const char *entries);

/* Calls fn on each word of a card list v (path names it): one string of
 * words separated by blanks or commas, or a list of such strings; index
 * counts words from 0. False after a failure. */
typedef void (*aq_word_fn)(aq_reader *r, const char *word, int index,
                           void *ctx);
bool aq_read_words(aq_reader *r, const json_t *v, const char *path,
                   aq_word_fn fn, void *ctx);
/* Reads the card list v, a new place named path, into cards[] (room for
 * max) and returns the count. A token ("red2.4") is placed at once; a
 * bare name ("red2") waits for aq_read_bare_names to fill its slot. */
int aq_read_place(aq_reader *r, const json_t *v, const char *path,
                  uint8_t *cards, int max);
/* Gives each bare name read so far, in the order read, the lowest copy no
 * place holds; fails when every copy is placed. */
void aq_read_bare_names(aq_reader *r);

#endif
