/* notation.c: moves as short words a person types in an email:
 *   take 2.1.0        dig 0.3.1         dig 0.3.1 with digger
 *   peek 0.2.0        peek 0.2.0 with seer
 *   hire scribe       use scribe        recruit banker
 *   flip coins 2 5    steal relics4     give coins1     discard china2
 *   keep              cash              done
 * A temple position is layer.column.row (layer 0 is the bottom); on the
 * one-row top layer "2.1" means "2.1.0". */
#include "artifact_stack_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void as_slot_text(int slot, char out[8])
{
    out[0] = (char)('0' + as_slot_layer(slot) % 10);
    out[1] = '.';
    out[2] = (char)('0' + as_slot_col(slot) % 10);
    out[3] = '.';
    out[4] = (char)('0' + as_slot_row(slot) % 10);
    out[5] = '\0';
}

int as_slot_parse(const char *text)
{
    int layer, col, row = 0;
    char tail;
    int n = sscanf(text, "%d.%d.%d%c", &layer, &col, &row, &tail);
    if (n == 3)
        return as_slot_at(layer, col, row);
    n = sscanf(text, "%d.%d%c", &layer, &col, &tail);
    if (n == 2 && layer >= 0 && layer < AS_LAYERS &&
        as_data.layer_rows[layer] == 1)
        return as_slot_at(layer, col, 0);
    return -1;
}

static char *dup_text(const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    return copy;
}

char *as_format_move(const rules_state *state, int seat, const json_t *action)
{
    (void)state;
    (void)seat;
    const char *type = json_string_value(json_object_get(action, "type"));
    if (type == NULL)
        return NULL;
    char buf[128];
    const char *at = json_string_value(json_object_get(action, "at"));
    const char *who = json_string_value(json_object_get(action, "assistant"));
    const char *card = json_string_value(json_object_get(action, "card"));
    if (strcmp(type, "take") == 0 || strcmp(type, "dig") == 0 ||
        strcmp(type, "peek") == 0) {
        if (at == NULL)
            return NULL;
        if (who != NULL && strcmp(type, "take") != 0)
            snprintf(buf, sizeof buf, "%s %s with %s", type, at, who);
        else
            snprintf(buf, sizeof buf, "%s %s", type, at);
    } else if (strcmp(type, "hire") == 0 || strcmp(type, "use") == 0 ||
               strcmp(type, "recruit") == 0) {
        if (who == NULL)
            return NULL;
        snprintf(buf, sizeof buf, "%s %s", type, who);
    } else if (strcmp(type, "steal") == 0 || strcmp(type, "give") == 0 ||
               strcmp(type, "discard") == 0) {
        if (card == NULL)
            return NULL;
        snprintf(buf, sizeof buf, "%s %s", type, card);
    } else if (strcmp(type, "flip") == 0) {
        const char *stack = json_string_value(json_object_get(action, "stack"));
        const json_t *cards = json_object_get(action, "cards");
        if (stack == NULL || !json_is_array(cards))
            return NULL;
        int len = snprintf(buf, sizeof buf, "flip %s", stack);
        size_t i;
        const json_t *n;
        json_array_foreach(cards, i, n) {
            if (!json_is_integer(n) || len >= (int)sizeof buf)
                return NULL;
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %lld",
                            (long long)json_integer_value(n));
        }
    } else if (strcmp(type, "keep") == 0 || strcmp(type, "cash") == 0 ||
               strcmp(type, "done") == 0) {
        snprintf(buf, sizeof buf, "%s", type);
    } else {
        return NULL;
    }
    return dup_text(buf);
}

#define MAX_WORDS 12

static const char *const forms =
    "write take L.C.R, dig L.C.R [with ASSISTANT], peek L.C.R [with "
    "ASSISTANT], hire ASSISTANT, use ASSISTANT, flip STACK N N [N], keep, "
    "cash, steal CARD, recruit ASSISTANT, give CARD, discard CARD or done";

json_t *as_parse_move(const rules_state *state, int seat, const char *text,
                      rules_error *err)
{
    (void)state;
    (void)seat;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *p = buf; *p != '\0'; p++)
        *p = (char)tolower((unsigned char)*p);
    char *words[MAX_WORDS];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t\r\n", &save); w != NULL;
         w = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == MAX_WORDS) {
            rules_fail(err, "too many words: %s", forms);
            return NULL;
        }
        words[n++] = w;
    }
    if (n == 0) {
        rules_fail(err, "an empty move: %s", forms);
        return NULL;
    }
    const char *type = words[0];
    if (strcmp(type, "take") == 0 || strcmp(type, "dig") == 0 ||
        strcmp(type, "peek") == 0) {
        int slot = n >= 2 ? as_slot_parse(words[1]) : -1;
        if (slot < 0 || (n != 2 && n != 4) ||
            (n == 4 && (strcmp(words[2], "with") != 0 ||
                        strcmp(type, "take") == 0))) {
            rules_fail(err, "write %s L.C.R%s, e.g. %s 0.3.1 (layer 0-2, "
                            "column, row)", type,
                       strcmp(type, "take") == 0 ? "" : " [with ASSISTANT]",
                       type);
            return NULL;
        }
        char at[8];
        as_slot_text(slot, at);
        json_t *move = json_pack("{s:s,s:s}", "type", type, "at", at);
        if (n == 4)
            json_object_set_new(move, "assistant", json_string(words[3]));
        return move;
    }
    if (strcmp(type, "hire") == 0 || strcmp(type, "use") == 0 ||
        strcmp(type, "recruit") == 0) {
        if (n != 2 || as_assistant_by_name(words[1]) < 0) {
            rules_fail(err, "write %s ASSISTANT, naming one of the assistants "
                            "(e.g. %s scribe)", type, type);
            return NULL;
        }
        return json_pack("{s:s,s:s}", "type", type, "assistant", words[1]);
    }
    if (strcmp(type, "steal") == 0 || strcmp(type, "give") == 0 ||
        strcmp(type, "discard") == 0) {
        if (n != 2 || as_card_by_name(words[1]) == AS_NO_CARD) {
            rules_fail(err, "write %s CARD, e.g. %s coins3", type, type);
            return NULL;
        }
        return json_pack("{s:s,s:s}", "type", type, "card", words[1]);
    }
    if (strcmp(type, "flip") == 0) {
        if (n < 3 || as_stack_by_name(words[1]) < 0) {
            rules_fail(err, "write flip STACK N N [N], e.g. flip coins 2 5");
            return NULL;
        }
        int numbers[MAX_WORDS] = {0};
        int count = 0;
        for (int i = 2; i < n; i++) {
            char *end = NULL;
            long v = strtol(words[i], &end, 10);
            if (*end != '\0' || v < 1 || v > AS_PER_STACK) {
                rules_fail(err, "card numbers run from 1 to %d: %s",
                           AS_PER_STACK, words[i]);
                return NULL;
            }
            /* keep the numbers in increasing order, once each */
            for (int k = 0; k < count; k++) {
                if (numbers[k] == v) {
                    rules_fail(err, "card %ld is named twice", v);
                    return NULL;
                }
            }
            int at = count;
            while (at > 0 && numbers[at - 1] > v) {
                numbers[at] = numbers[at - 1];
                at--;
            }
            numbers[at] = (int)v;
            count++;
        }
        json_t *cards = json_array();
        for (int i = 0; i < count; i++)
            json_array_append_new(cards, json_integer(numbers[i]));
        return json_pack("{s:s,s:s,s:o}", "type", "flip", "stack", words[1],
                         "cards", cards);
    }
    if (strcmp(type, "keep") == 0 || strcmp(type, "cash") == 0 ||
        strcmp(type, "done") == 0) {
        if (n != 1) {
            rules_fail(err, "write just %s", type);
            return NULL;
        }
        return json_pack("{s:s}", "type", type);
    }
    rules_fail(err, "\"%s\" is not a move: %s", words[0], forms);
    return NULL;
}
