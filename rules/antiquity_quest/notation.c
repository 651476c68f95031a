/* notation.c: the text form of moves, for people writing email:
 *   draw | pickup red2 redW | play red1 red3 red5 | add 2 red2 | remington
 *   reassign 3 7 | lost 7 | discard tess
 *   final | final play red1 red2 red3; add 2 red4
 * Collections are named by the number every view shows ("id"). Words and
 * card names are case-insensitive; the printed form is lower case with
 * card names as in the README. */
#include "aq_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define AQ_MAX_WORDS 256

typedef struct text_buf {
    char *data;
    size_t len;
    size_t cap;
} text_buf;

static void put(text_buf *b, const char *text)
{
    size_t n = strlen(text);
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = realloc(b->data, b->cap);
        if (b->data == NULL) {
            fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
            abort();
        }
    }
    memcpy(b->data + b->len, text, n + 1);
    b->len += n;
}

static void put_int(text_buf *b, int n)
{
    char number[16];
    snprintf(number, sizeof number, " %d", n);
    put(b, number);
}

static void put_names(text_buf *b, const aq_action *a, int first, int count)
{
    for (int i = first; i < first + count; i++) {
        put(b, " ");
        put(b, aq_name_text(a->name[i]));
    }
}

char *aq_format(const json_t *action)
{
    aq_action a;
    if (!aq_action_decode(action, &a, NULL))
        return NULL;
    text_buf b = {0};
    static const char *const words[] = {
        [AQ_ACT_DRAW] = "draw", [AQ_ACT_PICKUP] = "pickup",
        [AQ_ACT_PLAY] = "play", [AQ_ACT_ADD] = "add",
        [AQ_ACT_REMINGTON] = "remington", [AQ_ACT_REASSIGN] = "reassign",
        [AQ_ACT_LOST_SHIPMENT] = "lost", [AQ_ACT_DISCARD] = "discard",
        [AQ_ACT_FINAL] = "final",
    };
    put(&b, words[a.type]);
    switch (a.type) {
    case AQ_ACT_DRAW:
    case AQ_ACT_REMINGTON:
        break;
    case AQ_ACT_PICKUP:
    case AQ_ACT_PLAY:
    case AQ_ACT_DISCARD:
        put_names(&b, &a, 0, a.names);
        break;
    case AQ_ACT_ADD:
        put_int(&b, a.target);
        put_names(&b, &a, 0, a.names);
        break;
    case AQ_ACT_REASSIGN:
        put_int(&b, a.target);
        put_int(&b, a.take);
        break;
    case AQ_ACT_LOST_SHIPMENT:
        put_int(&b, a.target);
        break;
    case AQ_ACT_FINAL:
        for (int p = 0; p < a.plays; p++) {
            put(&b, p == 0 ? " " : "; ");
            if (a.play[p].target == 0) {
                put(&b, "play");
            } else {
                put(&b, "add");
                put_int(&b, a.play[p].target);
            }
            put_names(&b, &a, a.play[p].first, a.play[p].count);
        }
        break;
    }
    return b.data;
}

/* Splits text (which split may change) into words at blanks; the
 * caller has put blanks around every ';' and ','. Returns the number of
 * words, or AQ_MAX_WORDS + 1 when there are too many. */
static int split(char *text, char *words[AQ_MAX_WORDS])
{
    int n = 0;
    char *p = text;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            return n;
        if (n == AQ_MAX_WORDS)
            return n + 1;
        words[n++] = p;
        while (*p != '\0' && !isspace((unsigned char)*p))
            p++;
        if (*p != '\0')
            *p++ = '\0';
    }
}

static bool is_separator(const char *word)
{
    return strcmp(word, ";") == 0 || strcmp(word, ",") == 0;
}

static bool parse_number(const char *word, json_t **out, rules_error *err)
{
    char *end;
    long n = word != NULL ? strtol(word, &end, 10) : 0;
    if (word == NULL || *end != '\0' || n < 1 || n > 100000)
        return rules_fail(err, "name a collection by its number, as in "
                               "\"add 2 red2\"");
    *out = json_integer(n);
    return true;
}

/* Reads card names words[from..to) into a new JSON array. */
static json_t *parse_cards(char **words, int from, int to, rules_error *err)
{
    if (from >= to) {
        rules_fail(err, "name at least one card, as in \"play red1 red3 "
                        "red5\"");
        return NULL;
    }
    json_t *cards = json_array();
    for (int i = from; i < to; i++) {
        int name = aq_name_parse(words[i]);
        if (name == AQ_NONE) {
            json_decref(cards);
            rules_fail(err, "there is no card called %s (cards are named "
                            "like red2, redW, crown, remington, tess)",
                       words[i]);
            return NULL;
        }
        json_array_append_new(cards, json_string(aq_name_text(name)));
    }
    return cards;
}

/* One "play CARDS" or "add N CARDS" over words[from..to). */
static json_t *parse_play(char **words, int from, int to, bool allow_add,
                          rules_error *err)
{
    if (from < to && strcasecmp(words[from], "play") == 0) {
        json_t *cards = parse_cards(words, from + 1, to, err);
        return cards ? json_pack("{s:s,s:o}", "type", "play", "cards", cards)
                     : NULL;
    }
    if (allow_add && from < to && strcasecmp(words[from], "add") == 0) {
        json_t *id;
        if (!parse_number(from + 1 < to ? words[from + 1] : NULL, &id, err))
            return NULL;
        json_t *cards = parse_cards(words, from + 2, to, err);
        if (cards == NULL) {
            json_decref(id);
            return NULL;
        }
        return json_pack("{s:s,s:o,s:o}", "type", "add", "collection", id,
                         "cards", cards);
    }
    rules_fail(err, "final plays are written \"final play red1 red2 red3; "
                    "add 2 red4\"");
    return NULL;
}

static json_t *parse_final(char **words, int n, rules_error *err)
{
    json_t *plays = json_array();
    int from = 1;
    while (from < n) {
        int to = from;
        while (to < n && !is_separator(words[to]))
            to++;
        json_t *play = parse_play(words, from, to, true, err);
        if (play == NULL) {
            json_decref(plays);
            return NULL;
        }
        json_array_append_new(plays, play);
        from = to + 1;
    }
    return json_pack("{s:s,s:o}", "type", "final", "plays", plays);
}

static json_t *parse_words(char **words, int n, rules_error *err)
{
    const char *verb = words[0];
    json_t *id = NULL;
    json_t *take = NULL;
    if (strcasecmp(verb, "draw") == 0 && n == 1)
        return json_pack("{s:s}", "type", "draw");
    if (strcasecmp(verb, "remington") == 0 && n == 1)
        return json_pack("{s:s}", "type", "remington");
    if (strcasecmp(verb, "pickup") == 0) {
        json_t *cards = parse_cards(words, 1, n, err);
        return cards ? json_pack("{s:s,s:o}", "type", "pickup", "cards", cards)
                     : NULL;
    }
    if (strcasecmp(verb, "play") == 0)
        return parse_play(words, 0, n, false, err);
    if (strcasecmp(verb, "add") == 0) {
        if (!parse_number(n > 1 ? words[1] : NULL, &id, err))
            return NULL;
        json_t *cards = parse_cards(words, 2, n, err);
        if (cards == NULL) {
            json_decref(id);
            return NULL;
        }
        return json_pack("{s:s,s:o,s:o}", "type", "add", "collection", id,
                         "cards", cards);
    }
    if (strcasecmp(verb, "discard") == 0 && n == 2) {
        json_t *cards = parse_cards(words, 1, 2, err);
        if (cards == NULL)
            return NULL;
        json_t *action = json_pack("{s:s,s:O}", "type", "discard", "card",
                                   json_array_get(cards, 0));
        json_decref(cards);
        return action;
    }
    if (strcasecmp(verb, "reassign") == 0 && n == 3) {
        if (!parse_number(words[1], &id, err))
            return NULL;
        if (!parse_number(words[2], &take, err)) {
            json_decref(id);
            return NULL;
        }
        return json_pack("{s:s,s:o,s:o}", "type", "reassign", "give", id,
                         "take", take);
    }
    if ((strcasecmp(verb, "lost") == 0 || strcasecmp(verb, "tess") == 0) &&
        n == 2) {
        if (!parse_number(words[1], &id, err))
            return NULL;
        return json_pack("{s:s,s:o}", "type", "lost_shipment", "collection",
                         id);
    }
    if (strcasecmp(verb, "final") == 0)
        return parse_final(words, n, err);
    rules_fail(err, "write one of: draw, pickup CARDS, play CARDS, add N "
                    "CARDS, remington, reassign N M, lost N, discard CARD, "
                    "final PLAYS");
    return NULL;
}

json_t *aq_parse(const char *text, rules_error *err)
{
    if (text == NULL || strlen(text) > 4000) {
        rules_fail(err, "a move is one line of at most 4000 characters");
        return NULL;
    }
    size_t len = strlen(text);
    char *copy = malloc(len * 3 + 1);
    if (copy == NULL) {
        fprintf(stderr, "%s:%d: out of memory\n", __FILE__, __LINE__);
        abort();
    }
    size_t at = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ';' || text[i] == ',') {
            copy[at++] = ' ';
            copy[at++] = text[i];
            copy[at++] = ' ';
        } else {
            copy[at++] = text[i];
        }
    }
    copy[at] = '\0';
    char *words[AQ_MAX_WORDS];
    int n = split(copy, words);
    json_t *action = NULL;
    if (n == 0)
        rules_fail(err, "the move is empty");
    else if (n > AQ_MAX_WORDS)
        rules_fail(err, "a move has at most %d words", AQ_MAX_WORDS);
    else
        action = parse_words(words, n, err);
    free(copy);
    return action;
}
