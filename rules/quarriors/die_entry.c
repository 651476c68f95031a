/* die_entry.c: a die as the snapshot writes it, both ways
 * (qq_snapshot.h). An entry is comma-separated items: the die's number
 * and card, its face where dice show one, then its marks. */
#include "qq_snapshot.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The marks a die's flags (QQ_F_) are written as, in the order written. */
static const struct {
    int flag;
    const char *mark;
} flag_marks[] = {
    {QQ_F_SUMMONED, "summoned this turn"},
    {QQ_F_CHALLENGER, "challenging"},
    {QQ_F_NO_ATTACK, "attack 0"},
    {QQ_F_FELL, "fell"},
    {QQ_F_SHIELDED, "came back"},
    {QQ_F_COPIED, "changed its copy"},
    {QQ_F_FROM_WIZARD, "was on a scoring wizard"},
};
#define FLAG_MARKS ((int)(sizeof flag_marks / sizeof flag_marks[0]))

bool qq_zone_shows_face(int zone)
{
    return zone == QQ_Z_ACTIVE || zone == QQ_Z_READY || zone == QQ_Z_QUEST ||
           zone == QQ_Z_ATTACHED || zone == QQ_Z_HELD || zone == QQ_Z_SPENT;
}

/* ---- writing ---- */

static void put(char buf[QQ_ENTRY_SIZE], size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void put(char buf[QQ_ENTRY_SIZE], size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, QQ_ENTRY_SIZE - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len += (size_t)n;
    if (*len >= QQ_ENTRY_SIZE)
        *len = QQ_ENTRY_SIZE - 1;
}

static const char *card_face(int card, int face, char buf[QQ_NAME_SIZE])
{
    return qq_face_name(&qq_dice[qq_cards[card].die].faces[face], buf);
}

const char *qq_die_entry_write(const qq_state *st, int d,
                               char buf[QQ_ENTRY_SIZE])
{
    const qq_die *x = &st->dice[d];
    char name[QQ_NAME_SIZE], face[QQ_NAME_SIZE];
    size_t len = 0;
    buf[0] = '\0';
    int type = x->quest_die ? st->quest_slots[x->slot].type : -1;
    int card = x->quest_die ? -1 : st->slots[x->slot].card;
    put(buf, &len, "%d %s", d, qq_notation_id(
        x->quest_die ? qq_quests[type].id : qq_cards[card].id, name));
    if (x->face >= 0)
        put(buf, &len, ", %s", x->quest_die
            ? qq_quest_face_name(type, x->face, face)
            : card_face(card, x->face, face));
    if (x->quest >= 0)
        put(buf, &len, ", at %s", qq_notation_id(
            qq_quests[st->quest_slots[x->quest].type].id, name));
    if (x->host >= 0)
        put(buf, &len, ", on %d", x->host);
    if (x->copy_card >= 0)
        put(buf, &len, ", copying %s %s",
            qq_notation_id(qq_cards[x->copy_card].id, name),
            card_face(x->copy_card, x->copy_face, face));
    for (int i = 0; i < FLAG_MARKS; i++) {
        if (!(x->flags & flag_marks[i].flag))
            continue;
        put(buf, &len, ", %s", flag_marks[i].mark);
        /* the face a fallen creature comes back with (Shaping Cantrip,
         * Ghostly Spirit); it matters for nothing else */
        if (flag_marks[i].flag == QQ_F_FELL && x->last_face >= 0 &&
            card >= 0)
            put(buf, &len, " showing %s", card_face(card, x->last_face, face));
    }
    if (st->cull_mark[d] == 1)
        put(buf, &len, ", scored for %d glory", st->cull_glory[d]);
    else if (st->cull_mark[d] == 2)
        put(buf, &len, ", completed the quest");
    const char *verb = qq_trigger_verb(st->trigger_pow[d]);
    if (verb != NULL)
        put(buf, &len, ", may %s", verb);
    return buf;
}

/* ---- the names of a position ---- */

static char fold(char c)
{
    return c == '_' ? '-' : (char)tolower((unsigned char)c);
}

static unsigned hash_name(const char *name, size_t len)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < len && name[i] != '\0'; i++) {
        h ^= (unsigned char)fold(name[i]);
        h *= 16777619u;
    }
    return h;
}

static void index_add(qq_name_index *ix, const char *id, int slot,
                      bool quest)
{
    unsigned b = hash_name(id, strlen(id)) % QQ_INDEX_BUCKETS;
    while (ix->bucket[b].id != NULL)
        b = (b + 1) % QQ_INDEX_BUCKETS;
    ix->bucket[b].id = id;
    ix->bucket[b].slot = slot;
    ix->bucket[b].quest = quest;
}

void qq_name_index_build(qq_name_index *ix, const qq_state *st)
{
    ix->st = st;
    memset(ix->bucket, 0, sizeof ix->bucket);
    memset(ix->card_faces_named, 0, sizeof ix->card_faces_named);
    memset(ix->quest_faces_named, 0, sizeof ix->quest_faces_named);
    for (int s = 0; s < st->slot_count; s++)
        index_add(ix, qq_cards[st->slots[s].card].id, s, false);
    for (int q = 0; q < st->quest_count; q++)
        index_add(ix, qq_quests[st->quest_slots[q].type].id, q, true);
}

const char (*qq_name_index_faces(qq_name_index *ix, bool quest,
                                 int slot))[QQ_NAME_SIZE]
{
    if (quest) {
        if (!ix->quest_faces_named[slot]) {
            int type = ix->st->quest_slots[slot].type;
            for (int f = 0; f < 6; f++)
                qq_quest_face_name(type, f, ix->quest_faces[slot][f]);
            ix->quest_faces_named[slot] = true;
        }
        return ix->quest_faces[slot];
    }
    if (!ix->card_faces_named[slot]) {
        int card = ix->st->slots[slot].card;
        for (int f = 0; f < 6; f++)
            card_face(card, f, ix->card_faces[slot][f]);
        ix->card_faces_named[slot] = true;
    }
    return ix->card_faces[slot];
}

int qq_name_index_find(const qq_name_index *ix, const char *name, size_t len,
                       bool *quest)
{
    unsigned b = hash_name(name, len) % QQ_INDEX_BUCKETS;
    for (int probe = 0; probe < QQ_INDEX_BUCKETS; probe++) {
        if (ix->bucket[b].id == NULL)
            return -1;
        if (qq_same_name(name, len, ix->bucket[b].id)) {
            *quest = ix->bucket[b].quest;
            return ix->bucket[b].slot;
        }
        b = (b + 1) % QQ_INDEX_BUCKETS;
    }
    return -1;
}

/* ---- reading ---- */

/* A piece of the entry's text. */
typedef struct span {
    const char *p;
    size_t len;
} span;

static span trim(const char *p, size_t len)
{
    while (len > 0 && isspace((unsigned char)*p)) {
        p++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        len--;
    return (span){p, len};
}

/* Whether s begins with the word(s) prefix followed by a space; *rest is
 * what follows, trimmed. */
static bool starts(span s, const char *prefix, span *rest)
{
    size_t n = strlen(prefix);
    if (s.len <= n || !isspace((unsigned char)s.p[n]) ||
        !qq_same_name(s.p, n, prefix))
        return false;
    *rest = trim(s.p + n, s.len - n);
    return true;
}

/* A whole span as a number 0..limit, or -1. */
static int span_number(span s, int limit)
{
    if (s.len == 0 || s.len > 6)
        return -1;
    int v = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (!isdigit((unsigned char)s.p[i]))
            return -1;
        v = v * 10 + (s.p[i] - '0');
    }
    return v <= limit ? v : -1;
}

/* The face named s among the six names, or -1. */
static int find_face(const char names[6][QQ_NAME_SIZE], span s)
{
    for (int f = 0; f < 6; f++) {
        if (qq_same_name(s.p, s.len, names[f]))
            return f;
    }
    return -1;
}

typedef struct reader {
    qq_name_index *ix;
    const qq_state *st;
    int zone;
    qq_die_entry *e;
    char *why;
    size_t why_size;
} reader;

static bool refuse(reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool refuse(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->why, r->why_size, fmt, ap);
    va_end(ap);
    return false;
}

/* The names of the faces of the entry's die. */
static const char (*faces_of(const reader *r))[QQ_NAME_SIZE]
{
    return qq_name_index_faces(r->ix, r->e->quest_die, r->e->slot);
}

/* "NUMBER NAME": the die and the card (or quest) it belongs to. */
static bool read_die_and_card(reader *r, span s)
{
    size_t digits = 0;
    while (digits < s.len && isdigit((unsigned char)s.p[digits]))
        digits++;
    span name = trim(s.p + digits, s.len - digits);
    if (digits == 0 || name.len == 0 || name.p == s.p + digits)
        return refuse(r, "write a die as its number and card, e.g. "
                         "\"27 deathdealer\", not \"%.*s\"", (int)s.len, s.p);
    r->e->number = span_number((span){s.p, digits}, QQ_MAX_DICE - 1);
    if (r->e->number < 0)
        return refuse(r, "there is no die %.*s (a match has fewer than %d)",
                      (int)digits, s.p, QQ_MAX_DICE);
    bool quest;
    r->e->slot = qq_name_index_find(r->ix, name.p, name.len, &quest);
    if (r->e->slot < 0)
        return refuse(r, "there is no card \"%.*s\" in the Wilds or the "
                         "Quest Area", (int)name.len, name.p);
    r->e->quest_die = quest;
    return true;
}

/* "copying CARD FACE" (Strong Primordial Ooze). */
static bool read_copy(reader *r, span rest)
{
    size_t n = 0;
    while (n < rest.len && !isspace((unsigned char)rest.p[n]))
        n++;
    bool quest;
    int slot = qq_name_index_find(r->ix, rest.p, n, &quest);
    if (slot < 0 || quest)
        return refuse(r, "\"copying %.*s\": name a card of the Wilds and its "
                         "face", (int)rest.len, rest.p);
    span face = trim(rest.p + n, rest.len - n);
    int f = find_face(qq_name_index_faces(r->ix, false, slot), face);
    if (f < 0)
        return refuse(r, "%s has no face \"%.*s\"",
                      qq_cards[r->st->slots[slot].card].id, (int)face.len,
                      face.p);
    r->e->copy_card = r->st->slots[slot].card;
    r->e->copy_face = f;
    return true;
}

static bool read_mark(reader *r, span m)
{
    qq_die_entry *e = r->e;
    span rest;
    for (int i = 0; i < FLAG_MARKS; i++) {
        if (qq_same_name(m.p, m.len, flag_marks[i].mark)) {
            e->flags |= flag_marks[i].flag;
            return true;
        }
    }
    if (starts(m, "fell showing", &rest)) {
        if (e->quest_die ||
            (e->last_face = find_face(faces_of(r), rest)) < 0)
            return refuse(r, "\"%.*s\": the die has no such face",
                          (int)m.len, m.p);
        e->flags |= QQ_F_FELL;
        return true;
    }
    if (starts(m, "at", &rest)) {
        bool quest;
        int q = qq_name_index_find(r->ix, rest.p, rest.len, &quest);
        if (q < 0 || !quest)
            return refuse(r, "\"%.*s\": there is no such quest card",
                          (int)m.len, m.p);
        if (r->zone != QQ_Z_QUEST)
            return refuse(r, "\"%.*s\": only a die in the Quest Area is at "
                             "a quest", (int)m.len, m.p);
        e->quest = q;
        return true;
    }
    if (starts(m, "on", &rest)) {
        e->host = span_number(rest, QQ_MAX_DICE - 1);
        if (e->host < 0 || r->zone != QQ_Z_ATTACHED)
            return refuse(r, "\"%.*s\": only an attached die is on a "
                             "creature, named by its number", (int)m.len,
                          m.p);
        return true;
    }
    if (starts(m, "copying", &rest))
        return read_copy(r, rest);
    if (starts(m, "scored for", &rest)) {
        size_t digits = 0;
        while (digits < rest.len && isdigit((unsigned char)rest.p[digits]))
            digits++;
        span unit = trim(rest.p + digits, rest.len - digits);
        e->cull_glory = span_number((span){rest.p, digits}, 100);
        if (e->cull_glory < 0 || !qq_same_name(unit.p, unit.len, "glory"))
            return refuse(r, "write \"scored for N glory\", not \"%.*s\"",
                          (int)m.len, m.p);
        e->cull_mark = 1;
        return true;
    }
    if (qq_same_name(m.p, m.len, "completed the quest")) {
        e->cull_mark = 2;
        return true;
    }
    if (starts(m, "may", &rest)) {
        e->trigger_pow = qq_trigger_find(rest.p, rest.len);
        if (e->trigger_pow == QQ_POW_NONE)
            return refuse(r, "\"%.*s\": a scoring power may exchange, "
                             "capture, recall, cull or trade", (int)m.len,
                          m.p);
        return true;
    }
    if (find_face(faces_of(r), m) >= 0)
        return refuse(r, "\"%.*s\": dice in the %s show no face", (int)m.len,
                      m.p, qq_zone_title(r->zone));
    return refuse(r, "\"%.*s\" is not a mark of a die (README, "
                     "\"Snapshot\", lists them)", (int)m.len, m.p);
}

bool qq_die_entry_read(qq_name_index *ix, const qq_state *st,
                       const char *text, int zone, qq_die_entry *out,
                       char *why, size_t why_size)
{
    *out = (qq_die_entry){.number = -1, .slot = -1, .face = -1,
                          .quest = -1, .host = -1, .last_face = -1,
                          .copy_card = -1, .copy_face = -1,
                          .trigger_pow = QQ_POW_NONE};
    reader r = {ix, st, zone, out, why, why_size};
    const char *p = text;
    int item = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        span s = trim(p, len);
        if (item == 0) {
            if (!read_die_and_card(&r, s))
                return false;
        } else if (item == 1 && qq_zone_shows_face(zone)) {
            out->face = find_face(faces_of(&r), s);
            if (out->face < 0) {
                char name[QQ_NAME_SIZE];
                return refuse(&r, "%s has no face \"%.*s\"", qq_notation_id(
                    out->quest_die
                        ? qq_quests[st->quest_slots[out->slot].type].id
                        : qq_cards[st->slots[out->slot].card].id, name),
                    (int)s.len, s.p);
            }
        } else if (!read_mark(&r, s)) {
            return false;
        }
        item++;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    if (qq_zone_shows_face(zone) && out->face < 0)
        return refuse(&r, "die %d shows a face here: write \"%d NAME, "
                          "FACE\"", out->number, out->number);
    if (zone == QQ_Z_QUEST && out->quest < 0)
        return refuse(&r, "say at which quest die %d is: \"..., at "
                          "QUEST\"", out->number);
    if (zone == QQ_Z_ATTACHED && out->host < 0)
        return refuse(&r, "say which creature carries die %d: \"..., on "
                          "DIE\"", out->number);
    return true;
}
