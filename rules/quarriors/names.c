/* names.c: the names people read and type (qq_names.h). */
#include "qq_names.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *qq_notation_id(const char *id, char buf[QQ_NAME_SIZE])
{
    size_t i = 0;
    for (; id[i] != '\0' && i + 1 < QQ_NAME_SIZE; i++)
        buf[i] = id[i] == '_' ? '-' : id[i];
    buf[i] = '\0';
    return buf;
}

static char fold(char c)
{
    return c == '_' ? '-' : (char)tolower((unsigned char)c);
}

bool qq_same_name(const char *a, size_t a_len, const char *b)
{
    size_t i = 0;
    while (*b != '\0') {
        if (i == a_len)
            return false;
        if (*b == ' ') {
            /* a run of spaces in a matches the one space of b */
            if (a[i] != ' ')
                return false;
            while (i < a_len && a[i] == ' ')
                i++;
            b++;
            continue;
        }
        if (fold(a[i]) != fold(*b))
            return false;
        i++;
        b++;
    }
    return i == a_len;
}

/* Appends a word (with a space before all but the first) at *len. */
static void add_word(char buf[QQ_NAME_SIZE], size_t *len, const char *word)
{
    int n = snprintf(buf + *len, QQ_NAME_SIZE - *len, "%s%s",
                     *len > 0 ? " " : "", word);
    if (n > 0)
        *len += (size_t)n;
    if (*len >= QQ_NAME_SIZE)
        *len = QQ_NAME_SIZE - 1;
}

const char *qq_face_name(const qq_face *face, char buf[QQ_NAME_SIZE])
{
    char word[32];
    size_t len = 0;
    buf[0] = '\0';
    if (face->q > 0) {
        snprintf(word, sizeof word, "%d quiddity%s", face->q,
                 (face->flags & QQ_FACE_EITHER_REROLL) ? " or reroll" : "");
        add_word(buf, &len, word);
    }
    if (face->draw > 0) {
        snprintf(word, sizeof word, "draw %d", face->draw);
        add_word(buf, &len, word);
    }
    if (face->flags & QQ_FACE_REROLL)
        add_word(buf, &len, "reroll");
    if (face->flags & QQ_FACE_SPELL)
        add_word(buf, &len, "spell");
    if (face->flags & QQ_FACE_CREATURE) {
        if (face->flags & QQ_FACE_STATS_FROM_CARD)
            snprintf(word, sizeof word, "level %d X/X", face->level);
        else
            snprintf(word, sizeof word, "level %d %d/%d", face->level,
                     face->attack, face->defense);
        add_word(buf, &len, word);
    }
    if (face->burst > 0)
        add_word(buf, &len, face->burst >= 2 ? "**" : "*");
    if (len == 0)
        add_word(buf, &len, "blank");
    return buf;
}

const char *qq_face_words(const qq_face *face, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    char word[64];
    const char *parts[5];
    int n = 0;
    char quiddity[32], draw[16], creature[64];
    if (face->q > 0) {
        snprintf(quiddity, sizeof quiddity, "%d quiddity%s", face->q,
                 (face->flags & QQ_FACE_EITHER_REROLL) ? " or reroll" : "");
        parts[n++] = quiddity;
    }
    if (face->draw > 0) {
        snprintf(draw, sizeof draw, "draw %d", face->draw);
        parts[n++] = draw;
    }
    if (face->flags & QQ_FACE_REROLL)
        parts[n++] = "reroll";
    if (face->flags & QQ_FACE_SPELL)
        parts[n++] = "spell";
    if (face->flags & QQ_FACE_CREATURE) {
        if (face->flags & QQ_FACE_STATS_FROM_CARD)
            snprintf(creature, sizeof creature,
                     "level %d: attack and defense per card",
                     face->level);
        else
            snprintf(creature, sizeof creature,
                     "level %d: attack %d, defense %d", face->level,
                     face->attack, face->defense);
        parts[n++] = creature;
    }
    if (face->burst > 0)
        parts[n++] = face->burst >= 2 ? "double burst" : "burst";
    if (n == 0)
        parts[n++] = "blank";
    for (int i = 0; i < n; i++) {
        snprintf(word, sizeof word, "%s%s", i > 0 ? ", " : "", parts[i]);
        int k = snprintf(buf + len, size - len, "%s", word);
        if (k > 0 && len + (size_t)k < size)
            len += (size_t)k;
    }
    return buf;
}

const char *qq_quest_face_name(int quest_type, int face,
                               char buf[QQ_NAME_SIZE])
{
    const qq_quest_face *r = &qq_quest_die_faces[face];
    switch (r->kind) {
    case QQ_QR_QUIDDITY:
        snprintf(buf, QQ_NAME_SIZE, "%d quiddity", r->amount);
        break;
    case QQ_QR_DICE:
        snprintf(buf, QQ_NAME_SIZE, "%d %s", r->amount,
                 r->amount == 1 ? "die" : "dice");
        break;
    case QQ_QR_SPECIAL:
        snprintf(buf, QQ_NAME_SIZE, "?");
        break;
    default: {
        char name[QQ_NAME_SIZE];
        snprintf(buf, QQ_NAME_SIZE, "Quartifact %s",
                 qq_quartifact_name(quest_type, r->amount, name,
                                    sizeof name));
        break;
    }
    }
    return buf;
}

const char *qq_quest_reward_text(int quest_type, int face, char *buf,
                                 size_t size)
{
    const qq_quest_face *r = &qq_quest_die_faces[face];
    switch (r->kind) {
    case QQ_QR_QUIDDITY:
        snprintf(buf, size, "%d quiddity for the turn", r->amount);
        break;
    case QQ_QR_DICE:
        snprintf(buf, size, "%d %s drawn and rolled into the Active Pool",
                 r->amount, r->amount == 1 ? "die" : "dice");
        break;
    case QQ_QR_SPECIAL:
        snprintf(buf, size, "a free capture of a die costing up to %d",
                 qq_quest_special_cost(quest_type));
        break;
    default:
        snprintf(buf, size, "a Quartifact to keep and attach");
        break;
    }
    return buf;
}

static const char *const phase_names[] = {
    [QQ_P_CULL] = "cull",         [QQ_P_SEIZE] = "seize",
    [QQ_P_SPECIAL] = "special",   [QQ_P_MAIN] = "main",
    [QQ_P_DEFEND] = "defend",     [QQ_P_CHALLENGE] = "challenge",
    [QQ_P_TAKEOVER] = "takeover", [QQ_P_CAPTURE] = "capture",
    [QQ_P_REACT] = "react",       [QQ_P_TRIGGER] = "trigger",
    [QQ_P_OVER] = "over",         [QQ_P_FIRST] = "first",
};
#define PHASE_COUNT ((int)(sizeof phase_names / sizeof phase_names[0]))

const char *qq_phase_name(int phase)
{
    return phase >= 0 && phase < PHASE_COUNT ? phase_names[phase] : "?";
}

int qq_phase_find(const char *name)
{
    for (int p = 0; p < PHASE_COUNT; p++) {
        if (strcmp(name, phase_names[p]) == 0)
            return p;
    }
    return -1;
}

const char *qq_phase_list(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int p = 0; p < PHASE_COUNT; p++) {
        int n = snprintf(buf + len, size - len, "%s%s", p == 0 ? "" : ", ",
                         phase_names[p]);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    return buf;
}

static const char *const zone_names[QQ_Z_COUNT] = {
    "wilds", "bag", "active", "ready", "quest", "used", "spent", "attached",
    "quest_card", "held", "aside",
};

static const char *const zone_titles[QQ_Z_COUNT] = {
    "Wilds", "bag", "Active Pool", "Ready Area", "Quest Area", "Used Pile",
    "Spent Pile", "attached", "quest card", "Quartifact", "set aside",
};

const char *qq_zone_name(int zone)
{
    return zone >= 0 && zone < QQ_Z_COUNT ? zone_names[zone] : "?";
}

const char *qq_zone_title(int zone)
{
    return zone >= 0 && zone < QQ_Z_COUNT ? zone_titles[zone] : "?";
}

static const char *const resume_names[QQ_R_COUNT] = {
    [QQ_R_DAMAGE] = "damage",
    [QQ_R_NEXT_ATTACK] = "next attack",
    [QQ_R_CHALLENGE] = "challenge",
    [QQ_R_AFTER_CHALLENGE] = "after challenge",
    [QQ_R_MAIN] = "main",
};

const char *qq_resume_name(int resume)
{
    return resume >= 0 && resume < QQ_R_COUNT ? resume_names[resume] : "?";
}

int qq_resume_find(const char *name)
{
    for (int r = 0; r < QQ_R_COUNT; r++) {
        if (strcmp(name, resume_names[r]) == 0)
            return r;
    }
    return -1;
}

/* The scoring powers that wait for a choice (scoring.c), with the verb
 * of the move that uses them. */
static const struct {
    int power;
    const char *verb;
} trigger_verbs[] = {
    {QQ_POW_DEATHDEALER, "exchange"},
    {QQ_POW_STRONG_DEVOTEE, "capture"},
    {QQ_POW_STRONG_WITCHING_HAG, "recall"},
    {QQ_POW_STRONG_QUESTING_WIZARD, "cull"},
    {QQ_POW_SHAPING_INCANTATION, "trade"},
};
#define TRIGGER_COUNT ((int)(sizeof trigger_verbs / sizeof trigger_verbs[0]))

const char *qq_trigger_verb(int power)
{
    for (int i = 0; i < TRIGGER_COUNT; i++) {
        if (trigger_verbs[i].power == power)
            return trigger_verbs[i].verb;
    }
    return NULL;
}

int qq_trigger_find(const char *verb, size_t len)
{
    for (int i = 0; i < TRIGGER_COUNT; i++) {
        if (qq_same_name(verb, len, trigger_verbs[i].verb))
            return trigger_verbs[i].power;
    }
    return QQ_POW_NONE;
}
