/* notation.c: the text form of moves, for email.
 *   draw | take | claim | pass | discard R3
 *   pattern 2runs4 run:B5,B6,W6-11,B8 run:Y1,Y2,Y3,Y4 [swap:P1.2:Y8[:W1-11]]
 *   add P2.1 B9 | add P2.1 W1-11 low
 * Seats are written as P1.. (seat 0 is P1), melds as Pn.m (the m-th meld
 * in front of player n, in the order laid). Case does not matter. */
#include "amt_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX 512

json_t *amt_play_action(const amt_play *play, const json_t *swaps)
{
    json_t *melds = json_array();
    for (int i = 0; i < play->melds; i++) {
        json_t *cards = json_array();
        for (int k = 0; k < play->count[i]; k++) {
            char name[AMT_NAME_LEN];
            amt_card_name(play->cards[i][k], name);
            json_array_append_new(cards, json_string(name));
        }
        json_array_append_new(melds,
                              json_pack("{s:s,s:o}", "kind",
                                        amt_kind_name(play->kind[i]), "cards",
                                        cards));
    }
    json_t *action = json_pack("{s:s,s:s,s:o}", "type", "pattern", "mark",
                               amt_pattern_get(play->mark)->name, "melds",
                               melds);
    if (swaps != NULL && json_array_size(swaps) > 0)
        json_object_set(action, "swaps", (json_t *)swaps);
    return action;
}

static void append(char *buf, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > TEXT_MAX)
        return;
    memcpy(buf + *len, text, n + 1);
    *len += n;
}

static char *dup_text(const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    return copy;
}

/* Whether owner and meld name a meld the notation can write: P1.1 counts
 * from one, so a number out of range would overflow. */
static bool meld_ref_ok(const json_t *owner, const json_t *meld)
{
    return json_is_integer(owner) && json_is_integer(meld) &&
           json_integer_value(owner) >= 0 &&
           json_integer_value(owner) < AMT_MAX_SEATS &&
           json_integer_value(meld) >= 0 &&
           json_integer_value(meld) < AMT_MAX_MELDS;
}

char *amt_format_move(const rules_state *state, int seat, const json_t *action)
{
    (void)state;
    (void)seat;
    const char *type = json_string_value(json_object_get(action, "type"));
    if (type == NULL)
        return NULL;
    char buf[TEXT_MAX];
    if (strcmp(type, "draw") == 0 || strcmp(type, "take") == 0 ||
        strcmp(type, "claim") == 0 || strcmp(type, "pass") == 0)
        return dup_text(type);
    if (strcmp(type, "discard") == 0) {
        const char *card = json_string_value(json_object_get(action, "card"));
        if (card == NULL)
            return NULL;
        snprintf(buf, sizeof buf, "discard %s", card);
        return dup_text(buf);
    }
    if (strcmp(type, "add") == 0) {
        const char *card = json_string_value(json_object_get(action, "card"));
        const char *end = json_string_value(json_object_get(action, "end"));
        const json_t *owner = json_object_get(action, "owner");
        const json_t *meld = json_object_get(action, "meld");
        if (card == NULL || !meld_ref_ok(owner, meld))
            return NULL;
        snprintf(buf, sizeof buf, "add P%lld.%lld %s%s%s",
                 (long long)json_integer_value(owner) + 1,
                 (long long)json_integer_value(meld) + 1, card,
                 end != NULL ? " " : "", end != NULL ? end : "");
        return dup_text(buf);
    }
    if (strcmp(type, "pattern") != 0)
        return NULL;
    const char *mark = json_string_value(json_object_get(action, "mark"));
    const json_t *melds = json_object_get(action, "melds");
    if (mark == NULL || !json_is_array(melds))
        return NULL;
    size_t len = 0;
    buf[0] = '\0';
    append(buf, &len, "pattern ");
    append(buf, &len, mark);
    size_t i;
    const json_t *meld;
    json_array_foreach(melds, i, meld) {
        const char *kind = json_string_value(json_object_get(meld, "kind"));
        if (kind == NULL)
            return NULL;
        append(buf, &len, " ");
        append(buf, &len, kind);
        append(buf, &len, ":");
        size_t k;
        const json_t *card;
        json_array_foreach(json_object_get(meld, "cards"), k, card) {
            if (json_string_value(card) == NULL)
                return NULL;
            if (k > 0)
                append(buf, &len, ",");
            append(buf, &len, json_string_value(card));
        }
    }
    const json_t *swap;
    json_array_foreach(json_object_get(action, "swaps"), i, swap) {
        const char *card = json_string_value(json_object_get(swap, "card"));
        const json_t *jwild = json_object_get(swap, "wild");
        const char *wild = json_string_value(jwild);
        if (card == NULL || (jwild != NULL && wild == NULL) ||
            !meld_ref_ok(json_object_get(swap, "owner"),
                         json_object_get(swap, "meld")))
            return NULL;
        char part[64];
        snprintf(part, sizeof part, " swap:P%lld.%lld:%s%s%s",
                 (long long)json_integer_value(json_object_get(swap, "owner")) +
                     1,
                 (long long)json_integer_value(json_object_get(swap, "meld")) +
                     1,
                 card, wild != NULL ? ":" : "", wild != NULL ? wild : "");
        append(buf, &len, part);
    }
    return dup_text(buf);
}

/* "P2.1" -> owner 1, meld 0. */
static bool parse_meld_ref(const char *text, int *owner, int *meld)
{
    int o, m, used = 0;
    if ((text[0] != 'P' && text[0] != 'p') ||
        sscanf(text + 1, "%d.%d%n", &o, &m, &used) != 2 ||
        text[1 + used] != '\0' || o < 1 || o > AMT_MAX_SEATS || m < 1 ||
        m > AMT_MAX_MELDS)
        return false;
    *owner = o - 1;
    *meld = m - 1;
    return true;
}

static json_t *parse_card(const char *text, rules_error *err)
{
    char name[AMT_NAME_LEN];
    if (strlen(text) >= 16 || !amt_name_canonical(text, name)) {
        rules_fail(err, "\"%s\" is not a card: write R3, Y5s (a smiley 5), "
                        "W1-6, W6-11 or W1-11",
                   text);
        return NULL;
    }
    return json_string(name);
}

/* The pattern the melds complete (or, with partial end plays, belong to)
 * when exactly one open pattern of the round fits. */
static int infer_mark(const amt_state *s, int seat, const json_t *melds)
{
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    bool partial = s->phase == AMT_PHASE_ENDPLAY && amt_partial_end(s);
    int found = -1;
    for (int i = 0; i < n; i++) {
        const amt_pattern *pat = amt_pattern_get(ids[i]);
        if (seat >= 0 && seat < s->seats &&
            (s->players[seat].used & (1u << ids[i])))
            continue;
        bool taken[AMT_MAX_PATTERN_MELDS] = {false};
        bool fits = json_array_size(melds) <= (size_t)pat->melds;
        size_t k;
        const json_t *meld;
        json_array_foreach(melds, k, meld) {
            int kind = amt_kind_find(
                json_string_value(json_object_get(meld, "kind")));
            int size = (int)json_array_size(json_object_get(meld, "cards"));
            bool matched = false;
            for (int q = 0; q < pat->melds && !matched; q++) {
                if (!taken[q] && pat->kind[q] == kind && pat->size[q] == size)
                    taken[q] = matched = true;
            }
            fits &= matched;
        }
        if (!partial && json_array_size(melds) != (size_t)pat->melds)
            fits = false;
        if (fits) {
            if (found >= 0)
                return -1;
            found = ids[i];
        }
    }
    return found;
}

static json_t *parse_pattern(const amt_state *s, int seat, char **words,
                             int count, rules_error *err)
{
    json_t *melds = json_array();
    json_t *swaps = json_array();
    const char *mark = NULL;
    for (int w = 1; w < count; w++) {
        char *colon = strchr(words[w], ':');
        if (colon == NULL) {
            if (mark != NULL || amt_pattern_find(words[w]) < 0) {
                rules_fail(err, "\"%s\" is not a collection pattern: write "
                                "one like 2sets4, 2runs4, set4run4, run8 or "
                                "4pairs", words[w]);
                goto fail;
            }
            mark = amt_pattern_get(amt_pattern_find(words[w]))->name;
            continue;
        }
        *colon = '\0';
        if (strcasecmp(words[w], "swap") == 0) {
            char *card = strchr(colon + 1, ':');
            int owner, meld;
            if (card == NULL) {
                rules_fail(err, "write a swap as swap:P1.2:Y8");
                goto fail;
            }
            *card++ = '\0';
            /* an optional wild to take: swap:P1.1:G4:W1-11 */
            char *wild = strchr(card, ':');
            if (wild != NULL)
                *wild++ = '\0';
            if (!parse_meld_ref(colon + 1, &owner, &meld)) {
                rules_fail(err, "write a swap as swap:P1.2:Y8");
                goto fail;
            }
            json_t *name = parse_card(card, err);
            if (name == NULL)
                goto fail;
            json_t *swap = json_pack("{s:i,s:i,s:o}", "owner", owner, "meld",
                                     meld, "card", name);
            if (wild != NULL) {
                json_t *wild_name = parse_card(wild, err);
                if (wild_name == NULL) {
                    json_decref(swap);
                    goto fail;
                }
                json_object_set_new(swap, "wild", wild_name);
            }
            json_array_append_new(swaps, swap);
            continue;
        }
        int kind = amt_kind_find(words[w]);
        if (kind < 0) {
            rules_fail(err, "a meld is set:…, run:… or pair:…");
            goto fail;
        }
        json_t *cards = json_array();
        char *save = NULL;
        for (char *c = strtok_r(colon + 1, ",", &save); c != NULL;
             c = strtok_r(NULL, ",", &save)) {
            json_t *name = parse_card(c, err);
            if (name == NULL) {
                json_decref(cards);
                goto fail;
            }
            json_array_append_new(cards, name);
        }
        json_array_append_new(melds, json_pack("{s:s,s:o}", "kind",
                                               amt_kind_name(kind), "cards",
                                               cards));
    }
    if (json_array_size(melds) == 0) {
        rules_fail(err, "a pattern lists its melds, like "
                        "pattern 2sets4 set:B4,R4,Y4,G4 set:B7,R7,Y7,W6-11");
        goto fail;
    }
    if (mark == NULL) {
        int inferred = infer_mark(s, seat, melds);
        if (inferred < 0) {
            rules_fail(err, "name the collection pattern you mark off, like "
                            "pattern 2sets4 set:…");
            goto fail;
        }
        mark = amt_pattern_get(inferred)->name;
    }
    json_t *action = json_pack("{s:s,s:s,s:o}", "type", "pattern", "mark",
                               mark, "melds", melds);
    if (json_array_size(swaps) > 0)
        json_object_set(action, "swaps", swaps);
    json_decref(swaps);
    return action;
fail:
    json_decref(melds);
    json_decref(swaps);
    return NULL;
}

json_t *amt_parse_move(const rules_state *state, int seat, const char *text,
                       rules_error *err)
{
    const amt_state *s = (const amt_state *)state;
    char buf[TEXT_MAX];
    if (text == NULL || strlen(text) >= sizeof buf) {
        rules_fail(err, "write a move like \"draw\" or \"discard R3\"");
        return NULL;
    }
    snprintf(buf, sizeof buf, "%s", text);
    char *words[64];
    int count = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t\r\n", &save); w != NULL && count < 64;
         w = strtok_r(NULL, " \t\r\n", &save))
        words[count++] = w;
    if (count == 0) {
        rules_fail(err, "write a move like \"draw\" or \"discard R3\"");
        return NULL;
    }
    for (char *p = words[0]; *p != '\0'; p++)
        *p = (char)tolower((unsigned char)*p);
    const char *verb = words[0];
    if ((strcmp(verb, "draw") == 0 || strcmp(verb, "take") == 0 ||
         strcmp(verb, "claim") == 0 || strcmp(verb, "pass") == 0) &&
        count == 1)
        return json_pack("{s:s}", "type", verb);
    if (strcmp(verb, "discard") == 0 && count == 2) {
        json_t *card = parse_card(words[1], err);
        return card == NULL ? NULL
                            : json_pack("{s:s,s:o}", "type", "discard",
                                        "card", card);
    }
    if (strcmp(verb, "add") == 0 && (count == 3 || count == 4)) {
        int owner, meld;
        if (!parse_meld_ref(words[1], &owner, &meld)) {
            rules_fail(err, "write an add as \"add P2.1 B9\" (player 2's "
                            "first meld)");
            return NULL;
        }
        json_t *card = parse_card(words[2], err);
        if (card == NULL)
            return NULL;
        json_t *action = json_pack("{s:s,s:i,s:i,s:o}", "type", "add",
                                   "owner", owner, "meld", meld, "card",
                                   card);
        if (count == 4) {
            if (strcasecmp(words[3], "low") != 0 &&
                strcasecmp(words[3], "high") != 0) {
                json_decref(action);
                rules_fail(err, "a wild joins a run at its low or high end");
                return NULL;
            }
            json_object_set_new(action, "end",
                                json_string(strcasecmp(words[3], "low") == 0
                                                ? "low"
                                                : "high"));
        }
        return action;
    }
    if (strcmp(verb, "pattern") == 0)
        return parse_pattern(s, seat, words, count, err);
    rules_fail(err, "moves are draw, take, claim, pass, discard, pattern and "
                    "add");
    return NULL;
}
