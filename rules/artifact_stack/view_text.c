/* view_text.c: what one seat (or a spectator) sees, as plain text for a
 * mail: whose turn it is and what they must do, the temple grouped by what
 * a card costs to dig out, the stock, box, bank and assistants for hire,
 * then every seat's silver, points, cards and assistants.
 *
 * It shows exactly what view.c shows: a face-down temple card is named
 * only to a seat that peeked at it, the stock and the 2 cards left over
 * only by their counts. Cards, places and assistants are named as the
 * notation names them ("2.1.0", "coins3", "scribe"); lines are wrapped at
 * list items to at most 72 characters and nothing relies on alignment. */
#include "artifact_stack_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 72
/* Inside a paragraph, a space that never breaks a line: it keeps a list
 * item ("2.1.0 china8 (B)") on one line. Printed as a space. */
#define KEEP '\x1f'

/* Words for the data table's kinds, as a player needs them beside a card
 * name (the full sentences are in as_data.fate_text and ability_text). */
static const char *const monster_words[] = {"vampire", "mummy",
                                            "vampire mummy", "silver cross",
                                            "coffin"};
static const char *const fate_words[] = {
    "+2 silver", "+1 silver",  "extra action", "take an assistant",
    "-1 silver", "-2 silver",  "give a card",  "lose next action",
    "discard a card"};
static const char *const ability_words[] = {"free dig", "free peek",
                                            "extra action", "steal",
                                            "2 silver", "+2 VP"};

/* ---- paragraphs wrapped at 72 characters -------------------------------- */

typedef struct para {
    char text[4096];
    size_t len;
    int items;
} para;

static void para_vadd(para *p, bool keep_spaces, const char *fmt,
                      va_list args)
{
    if (p->len >= sizeof p->text - 1)
        return;
    int n = vsnprintf(p->text + p->len, sizeof p->text - p->len, fmt, args);
    if (n < 0)
        return;
    size_t end = p->len + (size_t)n;
    if (end > sizeof p->text - 1)
        end = sizeof p->text - 1;
    for (size_t i = p->len; keep_spaces && i < end; i++) {
        if (p->text[i] == ' ')
            p->text[i] = KEEP;
    }
    p->len = end;
}

/* Appends words (their spaces may break the line). */
static void para_add(para *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void para_add(para *p, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    para_vadd(p, false, fmt, args);
    va_end(args);
}

/* Appends words that stay on one line. */
static void para_keep(para *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void para_keep(para *p, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    para_vadd(p, true, fmt, args);
    va_end(args);
}

/* Appends one item of a list: after the label the first, then ", ". */
static void para_item(para *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void para_item(para *p, const char *fmt, ...)
{
    para_add(p, "%s", p->items > 0 ? ", " : " ");
    va_list args;
    va_start(args, fmt);
    para_vadd(p, true, fmt, args);
    va_end(args);
    p->items++;
}

/* Appends a label for the list that follows ("; face down:"), kept on
 * one line after its leading spaces. */
static void para_label(para *p, const char *label)
{
    size_t lead = strspn(label, " ");
    para_add(p, "%.*s", (int)lead, label);
    para_keep(p, "%s", label + lead);
    p->items = 0;
}

static void para_clear(para *p)
{
    p->len = 0;
    p->text[0] = '\0';
    p->items = 0;
}

/* Writes one word (n characters) at *column, on a new line indented by two
 * when it does not fit on this one. */
static void put_word(FILE *out, int *column, const char *word, int n)
{
    if (*column > 0 && *column + 1 + n > WIDTH) {
        fputs("\n  ", out);
        *column = 2;
    } else if (*column > 0) {
        fputc(' ', out);
        (*column)++;
    }
    /* Byte by byte, so without the stream's lock: out is this call's own
     * memory stream. */
    for (int i = 0; i < n; i++)
        putc_unlocked(word[i] == KEEP ? ' ' : word[i], out);
    *column += n;
}

/* Writes the paragraph, wrapped at spaces (and inside an item only when
 * the item is longer than a line); continuation lines are indented by
 * two. The paragraph is emptied for the next one. */
static void para_flush(FILE *out, para *p)
{
    int column = 0;
    char *save = NULL;
    for (char *word = strtok_r(p->text, " ", &save); word != NULL;
         word = strtok_r(NULL, " ", &save)) {
        int n = (int)strlen(word);
        if (2 + n <= WIDTH) {
            put_word(out, &column, word, n);
            continue;
        }
        for (char *piece = word; *piece != '\0';) {
            int len = (int)strcspn(piece, "\x1f");
            put_word(out, &column, piece, len);
            piece += len + (piece[len] == KEEP);
        }
    }
    fputc('\n', out);
    para_clear(p);
}

/* ---- pieces ----------------------------------------------------------- */

static int temple_count(const as_state *s)
{
    int n = 0;
    for (int slot = 0; slot < AS_TEMPLE; slot++)
        n += s->temple[slot] != AS_NO_CARD;
    return n;
}

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

const char *as_card_kind(int card, char out[32])
{
    int k = as_card_number(card) - 1;
    switch (as_card_stack(card)) {
    case AS_CHINA:
        snprintf(out, 32, "%c", as_data.china_letter[k]);
        break;
    case AS_MONSTERS:
        snprintf(out, 32, "%s", monster_words[as_data.monster[k]]);
        break;
    case AS_TREASURES:
        snprintf(out, 32, "%d VP", as_data.treasure_vp[k]);
        break;
    case AS_CURSES:
        snprintf(out, 32, "%s", fate_words[as_data.fate[k]]);
        break;
    default:
        out[0] = '\0';
        break;
    }
    return out;
}

/* Who peeked: "you, seat 2", or "" when nobody did. */
static const char *peekers(const as_state *s, int card, int seat,
                           char out[64])
{
    size_t len = 0;
    out[0] = '\0';
    for (int p = 0; p < s->seats; p++) {
        if (!s->peeked[p][card])
            continue;
        const char *comma = len > 0 ? ", " : "";
        int n = p == seat ? snprintf(out + len, 64 - len, "%syou", comma)
                          : snprintf(out + len, 64 - len, "%sseat %d", comma,
                                     p);
        if (n > 0 && len + (size_t)n < 64)
            len += (size_t)n;
    }
    return out;
}

/* One temple card: "2.0.0 coins4", "0.3.1 face down (peeked by seat 1)",
 * "0.1.1 china8 (B, face down, peeked by you)". */
static void temple_item(para *p, const as_state *s, int slot, int seat)
{
    int card = s->temple[slot];
    char at[8], kind[32], who[64], notes[128];
    as_slot_text(slot, at);
    bool down = as_data.covered[as_card_number(card) - 1];
    bool known = !down || (seat >= 0 && s->peeked[seat][card]);
    notes[0] = '\0';
    if (known && as_card_kind(card, kind)[0] != '\0')
        snprintf(notes, sizeof notes, "%s", kind);
    if (known && down)
        snprintf(notes + strlen(notes), sizeof notes - strlen(notes), "%s%s",
                 notes[0] ? ", " : "", "face down");
    if (down && peekers(s, card, seat, who)[0] != '\0')
        snprintf(notes + strlen(notes), sizeof notes - strlen(notes),
                 "%speeked by %s", notes[0] ? ", " : "", who);
    const char *name = known ? as_card_name(card) : "face down";
    if (notes[0] != '\0')
        para_item(p, "%s %s (%s)", at, name, notes);
    else
        para_item(p, "%s %s", at, name);
}

/* The cards still in the temple, one paragraph per digging cost, top
 * layer first. */
static void write_temple(FILE *out, para *p, const as_state *s, int seat)
{
    int count = 0, cost_of[AS_TEMPLE];
    for (int slot = 0; slot < AS_TEMPLE; slot++) {
        cost_of[slot] = -1;
        if (s->temple[slot] != AS_NO_CARD) {
            cost_of[slot] = as_cover_count(s, slot);
            count++;
        }
    }
    if (count == 0)
        para_add(p, "Temple: empty.");
    else
        para_add(p, "Temple: %d card%s at layer.column.row, layer 2 on top.",
                 count, plural(count));
    para_flush(out, p);
    for (int cost = 0; cost <= 4; cost++) {
        for (int layer = AS_LAYERS - 1; layer >= 0; layer--) {
            for (int slot = 0; slot < AS_TEMPLE; slot++) {
                if (cost_of[slot] != cost || as_slot_layer(slot) != layer)
                    continue;
                if (p->items == 0 && cost == 0)
                    para_add(p, "Free to take:");
                else if (p->items == 0)
                    para_add(p, "Dig out for %d silver:", cost);
                temple_item(p, s, slot, seat);
            }
        }
        if (p->items > 0)
            para_flush(out, p);
    }
}

/* The box, the bank, the unseen cards and the assistants for hire. */
static void write_supply(FILE *out, para *p, const as_state *s)
{
    char kind[32];
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] != AS_BOX)
            continue;
        if (p->items == 0)
            para_add(p, "Box:");
        if (as_card_kind(c, kind)[0] != '\0')
            para_item(p, "%s (%s)", as_card_name(c), kind);
        else
            para_item(p, "%s", as_card_name(c));
    }
    if (p->items > 0)
        para_flush(out, p);
    para_add(p, "Bank: %d silver.", s->bank);
    if (s->round == 1)
        para_add(p, " Stock: %d cards, unseen, for round 2.", s->stock_count);
    else
        para_add(p, " 2 cards left the game unseen.");
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] != AS_POOL)
            continue;
        if (p->items == 0)
            para_label(p, " For hire at 1 silver:");
        para_item(p, "%s (%s)", as_data.assistants[a].name,
                  ability_words[as_data.assistants[a].ability]);
    }
    if (p->items == 0)
        para_add(p, " No assistant is left for hire.");
    para_flush(out, p);
}

/* "Round 1 of 2, clockwise: seat 2, seat 0, seat 1." */
static void write_round(FILE *out, para *p, const as_state *s)
{
    int start = s->round == 1 ? s->first
                              : (s->first + s->seats - 1) % s->seats;
    para_add(p, "Round %d of 2, %s:", s->round,
             s->round == 1 ? "clockwise" : "counter-clockwise");
    for (int i = 0, seat = start; i < s->seats;
         i++, seat = as_next_seat(s, seat))
        para_item(p, "seat %d", seat);
    para_add(p, ".");
    para_flush(out, p);
}

/* Who acts and what they must do, or who won. */
static void write_turn(FILE *out, para *p, const as_state *s, int seat,
                       const as_score *sc)
{
    if (s->over) {
        json_t *result = as_result((const rules_state *)s);
        const json_t *first = json_array_get(json_object_get(result,
                                                             "ranking"), 0);
        size_t n = json_array_size(first);
        para_add(p, "The match is over. %s:", n == 1 ? "Winner"
                                                     : "Sharing first place");
        size_t i;
        const json_t *w;
        json_array_foreach(first, i, w) {
            int winner = (int)json_integer_value(w);
            para_item(p, winner == seat ? "you (seat %d)" : "seat %d", winner);
        }
        int winner = (int)json_integer_value(json_array_get(first, 0));
        para_add(p, ", with %d point%s.", sc[winner].total,
                 plural(sc[winner].total));
        const char *why[] = {"reason", "tie_break"};
        for (int i = 0; i < 2; i++) {
            const char *text =
                json_string_value(json_object_get(result, why[i]));
            if (text != NULL)
                para_add(p, " %s", text);
        }
        json_decref(result);
        para_flush(out, p);
        return;
    }
    bool mine = s->turn == seat;
    if (mine)
        para_add(p, "Your turn (seat %d)", seat);
    else
        para_add(p, "Turn: seat %d", s->turn);
    /* a task is an order to the seat on turn, said to it or about it */
    const char *to = mine ? ":" : ", to";
    int n = s->task_count;
    switch (s->task) {
    case AS_TASK_TREASURE: {
        int vp = as_data.treasure_vp[as_card_number(s->task_card) - 1];
        para_add(p, "%s keep %s for %d VP or cash it for %d silver.", to,
                 as_card_name(s->task_card), vp,
                 vp / as_data.treasure_cash_per_vp);
        break;
    }
    case AS_TASK_STEAL:
        para_add(p, "%s steal %d face-up card%s from the other players.", to,
                 n, plural(n));
        break;
    case AS_TASK_RECRUIT:
        para_add(p, "%s recruit %d free assistant%s.", to, n, plural(n));
        break;
    case AS_TASK_GIVE:
        para_add(p, "%s give a face-up card to seat %d.", to,
                 as_next_seat(s, s->turn));
        break;
    case AS_TASK_DISCARD:
        para_add(p, "%s discard a face-up card to the box.", to);
        break;
    default:
        if (s->actions > 0 && temple_count(s) > 0)
            para_add(p, ", %d action%s left: take, dig or hire.",
                     s->actions, plural(s->actions));
        else
            para_add(p, ", no action left: flip, use or done.");
        break;
    }
    para_flush(out, p);
}

/* A tableau card with what a player needs beside its name. */
static void tableau_item(para *p, int card)
{
    char kind[32];
    if (as_card_stack(card) == AS_CURSES ||
        as_card_kind(card, kind)[0] == '\0')
        para_item(p, "%s", as_card_name(card));
    else
        para_item(p, "%s (%s)", as_card_name(card), kind);
}

/* At the end, how a seat's points add up, after its total: " (cards 3
 * + treasures 5 + silver 2); tie-breakers, not points: 4 artifact cards,
 * 2 silver" (parts that are 0 left out). */
static void add_points(para *p, const as_score *sc)
{
    const char *names[AS_SCORE_PARTS];
    int values[AS_SCORE_PARTS];
    int n = as_score_parts(sc, names, values);
    int shown = 0;
    for (int i = 0; i < n; i++) {
        if (values[i] == 0)
            continue;
        char name[32];
        snprintf(name, sizeof name, "%s", names[i]);
        for (char *c = name; *c; c++) {
            if (*c == '_')
                *c = ' ';
        }
        para_add(p, "%s", shown == 0 ? " (" : " + ");
        para_keep(p, "%s %d", name, values[i]);
        shown++;
    }
    if (shown > 0)
        para_add(p, ")");
    para_label(p, "; tie-breakers, not points:");
    para_item(p, "%d artifact card%s", sc->artifact_cards,
              plural(sc->artifact_cards));
    para_item(p, "%d silver", sc->silver);
}

/* One seat in two paragraphs: silver, ★ cards, points and assistants;
 * then its cards, face up and face down (bonus sets joined by "+"). */
static void write_player(FILE *out, para *p, const as_state *s, int who,
                         int seat, const as_score *sc)
{
    if (who == seat)
        para_add(p, "You (seat %d):", who);
    else
        para_add(p, "seat %d:", who);
    para_item(p, "%d silver", s->silver[who]);
    para_item(p, "%d star%s", sc->star_count, plural(sc->star_count));
    para_item(p, s->over ? "%d point%s" : "%d point%s so far", sc->total,
              plural(sc->total));
    if (s->over)
        add_points(p, sc);
    if (s->skip[who] == 1)
        para_item(p, "next turn starts without an action");
    else if (s->skip[who] > 1)
        para_item(p, "next %d turns start without an action", s->skip[who]);
    bool label = true;
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] != who)
            continue;
        if (label)
            para_label(p, "; assistants:");
        label = false;
        para_item(p, s->assistant_used[a] ? "%s (used)" : "%s",
                  as_data.assistants[a].name);
    }
    para_add(p, ".");
    para_flush(out, p);

    if (who == seat)
        para_add(p, "Your cards:");
    else
        para_add(p, "seat %d cards:", who);
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] == AS_TABLEAU && s->owner[c] == who && !s->flipped[c])
            tableau_item(p, c);
    }
    if (p->items == 0)
        para_add(p, " none");
    label = true;
    for (int c = 0; c < AS_CARDS; c++) {
        /* a bonus set is written once, from its leader (its lowest card) */
        if (s->place[c] != AS_TABLEAU || s->owner[c] != who ||
            !s->flipped[c] || (s->set[c] >= 0 && s->set[c] != c))
            continue;
        if (label)
            para_label(p, "; face down:");
        label = false;
        char set[128];
        size_t len = 0;
        set[0] = '\0';
        for (int m = c; m < AS_CARDS && as_card_stack(m) == as_card_stack(c);
             m++) {
            if (m != c && (s->set[c] < 0 || s->set[m] != c))
                continue;
            int n = snprintf(set + len, sizeof set - len, "%s%s",
                             len > 0 ? "+" : "", as_card_name(m));
            if (n > 0 && len + (size_t)n < sizeof set)
                len += (size_t)n;
        }
        para_item(p, "%s", set);
    }
    para_flush(out, p);
}

/* The words of the game a newcomer meets in the text, each said once
 * when the text uses it (trigger or also found in it), the most needed
 * first: a legend too long for the room left drops the last. */
static const struct legend_word {
    const char *trigger, *also; /* also: another trigger, or NULL */
    const char *explanation;
} legend_words[] = {
    {"star", NULL, "star = cards 1 to 3 of each stack; the most stars earn "
                   "3 VP at the end"},
    {"flip", "face down:", "flip = turn 2 or 3 cards of a stack face down "
                           "for their bonus (they still score)"},
    {"Dig out", NULL, "dig out = pay 1 silver per card covering it"},
    {"peek", NULL, "peek = look at a face-down card for 1 silver"},
    {"VP", NULL, "VP = victory points"},
};

#define LEGEND_WORDS (sizeof legend_words / sizeof legend_words[0])
/* The most lines a text may have (rules.h: about 10 to 30, never 40). */
#define MOST_LINES 40

/* The legend of the first count words used (used[i]), as it wraps. */
static char *legend_text(para *p, const bool used[LEGEND_WORDS],
                         size_t count)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (out == NULL)
        abort();
    for (size_t i = 0, n = 0; i < LEGEND_WORDS && n < count; i++) {
        if (!used[i])
            continue;
        para_add(p, "%s%s", n == 0 ? "Words: " : "; ",
                 legend_words[i].explanation);
        n++;
    }
    if (count > 0) {
        para_add(p, ".");
        para_flush(out, p);
    }
    if (fclose(out) != 0)
        abort();
    return text;
}

static int line_count(const char *text)
{
    int n = 0;
    for (const char *c = text; *c; c++)
        n += *c == '\n';
    return n;
}

/* The last paragraph: the words text (written so far) used, as many as
 * the lines left hold. */
static void write_legend(FILE *out, para *p, const char *text)
{
    bool used[LEGEND_WORDS];
    size_t count = 0;
    for (size_t i = 0; i < LEGEND_WORDS; i++) {
        const struct legend_word *w = &legend_words[i];
        used[i] = strstr(text, w->trigger) != NULL ||
                  (w->also != NULL && strstr(text, w->also) != NULL);
        count += used[i];
    }
    int room = MOST_LINES - line_count(text);
    for (; count > 0; count--) {
        char *legend = legend_text(p, used, count);
        if (line_count(legend) <= room) {
            fputs(legend, out);
            free(legend);
            return;
        }
        free(legend);
    }
}

char *as_view_text(const rules_state *state, int seat)
{
    const as_state *s = (const as_state *)state;
    as_score sc[RULES_MAX_SEATS];
    as_score_all(s, sc);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (out == NULL)
        abort();
    para *p = calloc(1, sizeof *p);
    if (p == NULL)
        abort();
    write_round(out, p, s);
    write_turn(out, p, s, seat, sc);
    write_temple(out, p, s, seat);
    write_supply(out, p, s);
    for (int who = 0; who < s->seats; who++)
        write_player(out, p, s, who, seat, &sc[who]);
    if (fflush(out) != 0)
        abort();
    char *so_far = strdup(text);
    if (so_far == NULL)
        abort();
    write_legend(out, p, so_far);
    free(so_far);
    free(p);
    if (fclose(out) != 0)
        abort();
    return text;
}
