/* seat_text.c: see seat_text.h. */
#include "notify/seat_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEGEND_COLUMNS 72
#define WORDS_MAX 32

static FILE *open_text(char **out, size_t *len)
{
    FILE *f = open_memstream(out, len);
    if (f == NULL)
        abort();
    return f;
}

/* The text written to f, once f is closed (open_memstream sets it
 * then). */
static char *close_text(FILE *f, char **out)
{
    if (fclose(f) != 0)
        abort();
    return *out;
}

/* "seat 0 Alice (you), seat 1 Bob": wrapped between seats. */
static void put_legend(FILE *f, const store_match *match, int seat)
{
    size_t column = 0;
    for (int s = 0; s < match->seat_count; s++) {
        char item[128];
        if (match->seat_player[s] == 0)
            snprintf(item, sizeof item, "seat %d (free)", s);
        else
            snprintf(item, sizeof item, "seat %d %s%s", s,
                     match->seat_name[s], s == seat ? " (you)" : "");
        bool last = s + 1 == match->seat_count;
        size_t width = strlen(item) + (last ? 0 : 1);
        if (column > 0 && column + 1 + width > LEGEND_COLUMNS) {
            fputc('\n', f);
            column = 0;
        } else if (column > 0) {
            fputc(' ', f);
            column++;
        }
        fprintf(f, "%s%s", item, last ? "" : ",");
        column += width;
    }
    fputc('\n', f);
}

char *seat_text_view(const store_match *match, const rules_engine *engine,
                     const rules_state *state, int seat)
{
    return seat_text_view_of(match, engine, state, seat, NULL);
}

char *seat_text_view_of(const store_match *match, const rules_engine *engine,
                        const rules_state *state, int seat, const json_t *view)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_text(&out, &len);
    put_legend(f, match, seat);
    fputc('\n', f);
    char *text = view != NULL && engine->view_text_of_view != NULL
                     ? engine->view_text_of_view(state, seat, view)
                     : engine->view_text(state, seat);
    if (text != NULL) {
        size_t text_len = strlen(text);
        fwrite(text, 1, text_len, f);
        if (text_len == 0 || text[text_len - 1] != '\n')
            fputc('\n', f);
    }
    free(text);
    return close_text(f, &out);
}

/* Text split at spaces into words (at most WORDS_MAX), from a copy cut
 * to SPLIT_BYTES - 1 bytes. */
#define SPLIT_BYTES 512
typedef struct split {
    char buf[SPLIT_BYTES];
    char *words[WORDS_MAX];
    int count;
} split;

/* Splits the first len bytes of text into out. */
static void split_words(const char *text, size_t len, split *out)
{
    if (len > SPLIT_BYTES - 1)
        len = SPLIT_BYTES - 1;
    memcpy(out->buf, text, len);
    out->buf[len] = '\0';
    out->count = 0;
    char *save = NULL;
    for (char *w = strtok_r(out->buf, " ", &save);
         w != NULL && out->count < WORDS_MAX; w = strtok_r(NULL, " ", &save))
        out->words[out->count++] = w;
}

/* A word of the notation itself ("play", "with"), as opposed to a
 * placeholder ("CARD", "L.C.R", "Pn.m"). */
static bool literal(const char *word)
{
    bool letter = false;
    for (const char *c = word; *c; c++) {
        if (*c >= 'a' && *c <= 'z')
            letter = true;
        else if (!(*c >= '0' && *c <= '9') && *c != '-' && *c != '_')
            return false;
    }
    return letter;
}

static bool ends_with(const char *word, const char *suffix)
{
    size_t a = strlen(word), b = strlen(suffix);
    return a >= b && strcmp(word + a - b, suffix) == 0;
}

/* Whether move fits one alternative of a form: its literal words equal,
 * a placeholder takes one word, a repeated one ("CARD…", "DIE...") takes
 * the rest, and an optional part ("[CARD CARD]", "(at the round's end)")
 * ends the comparison. */
static bool fits_alternative(const split *form, const split *move)
{
    int j = 0;
    for (int i = 0; i < form->count; i++) {
        const char *t = form->words[i];
        if (t[0] == '[' || t[0] == '(')
            return true;
        if (ends_with(t, "\xe2\x80\xa6") || ends_with(t, "..."))
            return j < move->count;
        if (j >= move->count)
            return false;
        if (literal(t) && strcmp(t, move->words[j]) != 0)
            return false;
        j++;
    }
    return j == move->count;
}

/* The forms of a legal answer, each alternative ("cull DIE | done")
 * split into words once for all the moves sorted under them. */
typedef struct form_table {
    const json_t *forms;
    split *alternatives;
    int *form_of_alternative;
    int count;
} form_table;

static void form_table_init(form_table *t, const json_t *forms)
{
    t->forms = forms;
    t->count = 0;
    size_t room = 0;
    size_t i;
    const json_t *form;
    json_array_foreach(forms, i, form) {
        const char *text = json_string_value(form);
        for (const char *p = text; p != NULL; room++) {
            p = strstr(p, " | ");
            if (p != NULL)
                p += 3;
        }
    }
    t->alternatives = malloc((room + 1) * sizeof *t->alternatives);
    t->form_of_alternative = malloc((room + 1) * sizeof *t->form_of_alternative);
    if (t->alternatives == NULL || t->form_of_alternative == NULL)
        abort();
    json_array_foreach(forms, i, form) {
        const char *p = json_string_value(form);
        while (p != NULL) {
            const char *bar = strstr(p, " | ");
            size_t len = bar ? (size_t)(bar - p) : strlen(p);
            split_words(p, len, &t->alternatives[t->count]);
            t->form_of_alternative[t->count++] = (int)i;
            p = bar != NULL ? bar + 3 : NULL;
        }
    }
}

static void form_table_free(form_table *t)
{
    free(t->alternatives);
    free(t->form_of_alternative);
}

/* The form a move is of: the first that fits it, else the first whose
 * first word is the move's, else -1. */
static int form_of(const form_table *t, const char *move, split *words)
{
    split_words(move, strlen(move), words);
    for (int a = 0; a < t->count; a++) {
        if (fits_alternative(&t->alternatives[a], words))
            return t->form_of_alternative[a];
    }
    size_t first = strcspn(move, " ");
    size_t i;
    const json_t *form;
    json_array_foreach(t->forms, i, form) {
        const char *text = json_string_value(form);
        if (text != NULL && strncmp(text, move, first) == 0 &&
            (text[first] == ' ' || text[first] == '\0'))
            return (int)i;
    }
    return -1;
}

/* One group: its heading, then its first examples. */
static void put_group(FILE *f, const char *form, const char *const *moves,
                      size_t count, bool complete)
{
    if (count == 1 && strcmp(moves[0], form) == 0) {
        /* A form without placeholders ("remington") is its own move. */
        fprintf(f, "  %s\n", moves[0]);
        return;
    }
    if (complete && count <= SEAT_TEXT_EXAMPLES)
        fprintf(f, "  %s:\n", form);
    else if (complete)
        fprintf(f, "  %s (%zu moves), for example:\n", form, count);
    else
        fprintf(f, "  %s, for example:\n", form);
    for (size_t i = 0; i < count && i < SEAT_TEXT_EXAMPLES; i++)
        fprintf(f, "    %s\n", moves[i]);
}

/* The moves (count of them, in their order) listed or grouped by the
 * forms of legal, written to f. */
static void put_moves(FILE *f, const json_t *legal, const char *const *texts,
                      size_t count)
{
    const json_t *forms = json_object_get(legal, "forms");
    bool complete = json_is_true(json_object_get(legal, "complete"));
    size_t form_count = json_array_size(forms);
    if ((complete && count <= SEAT_TEXT_ALL_MOVES) || form_count == 0) {
        /* Short enough to show whole, or nothing to group by. */
        for (size_t i = 0; i < count; i++) {
            if (i == SEAT_TEXT_ALL_MOVES) {
                if (complete)
                    fprintf(f, "  … and %zu more\n", count - i);
                else
                    fprintf(f, "  … and others\n");
                break;
            }
            fprintf(f, "  %s\n", texts[i]);
        }
        return;
    }
    /* One more group than forms: moves of no known form. Each move's
     * group, then each group's moves in their order. */
    size_t groups = form_count + 1;
    size_t *group_of = malloc((count + 1) * sizeof *group_of);
    size_t *sizes = calloc(groups, sizeof *sizes);
    const char **members = malloc((count + 1) * sizeof *members);
    if (group_of == NULL || sizes == NULL || members == NULL)
        abort();
    form_table table;
    form_table_init(&table, forms);
    split *words = malloc(sizeof *words);
    if (words == NULL)
        abort();
    for (size_t i = 0; i < count; i++) {
        int g = form_of(&table, texts[i], words);
        group_of[i] = g < 0 ? groups - 1 : (size_t)g;
        sizes[group_of[i]]++;
    }
    free(words);
    form_table_free(&table);
    for (size_t g = 0; g < groups; g++) {
        if (sizes[g] == 0)
            continue;
        size_t n = 0;
        for (size_t i = 0; i < count; i++)
            if (group_of[i] == g)
                members[n++] = texts[i];
        const char *form = g + 1 == groups
                               ? "other moves"
                               : json_string_value(json_array_get(forms, g));
        put_group(f, form, members, n, complete);
    }
    free(members);
    free(sizes);
    free(group_of);
}

char *seat_text_moves_of(const json_t *legal, const json_t *texts)
{
    size_t size = json_array_size(texts);
    const char **list = calloc(size + 1, sizeof *list);
    if (list == NULL)
        abort();
    size_t count = 0;
    for (size_t i = 0; i < size; i++) {
        const char *text = json_string_value(json_array_get(texts, i));
        if (text != NULL)
            list[count++] = text;
    }
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_text(&out, &len);
    put_moves(f, legal, list, count);
    free(list);
    return close_text(f, &out);
}

char *seat_text_moves(const rules_engine *engine, const rules_state *state,
                      int seat, const json_t *legal)
{
    const json_t *moves = json_object_get(legal, "moves");
    size_t size = json_array_size(moves);
    char **list = calloc(size + 1, sizeof *list);
    if (list == NULL)
        abort();
    size_t count = 0;
    for (size_t i = 0; i < size; i++) {
        char *text = engine->format_move(state, seat, json_array_get(moves, i));
        if (text != NULL)
            list[count++] = text;
    }
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_text(&out, &len);
    put_moves(f, legal, (const char *const *)list, count);
    for (size_t i = 0; i < count; i++)
        free(list[i]);
    free(list);
    return close_text(f, &out);
}
