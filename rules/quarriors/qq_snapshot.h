/* qq_snapshot.h: a die as the snapshot (the position a referee edits)
 * writes it, one line of text naming the die's number, its card and what
 * it shows and carries:
 *   "27 deathdealer, level 1 3/2, at exqualibur, summoned this turn"
 * (README "Snapshot" lists every mark). snapshot_save.c writes it,
 * snapshot_load.c reads it back through the names of the position's
 * cards and quests. Nothing here is seen outside rules/quarriors/. */
#ifndef RULES_QUARRIORS_QQ_SNAPSHOT_H
#define RULES_QUARRIORS_QQ_SNAPSHOT_H

#include "qq_names.h"

#include <stdbool.h>
#include <stddef.h>

/* A die entry's text is never longer than this (with its NUL). */
#define QQ_ENTRY_SIZE 256

/* Writes die d of st as its entry (its place is the list it goes in).
 * Returns buf. */
const char *qq_die_entry_write(const qq_state *st, int d,
                               char buf[QQ_ENTRY_SIZE]);

/* The cards of a position's Wilds and its quest cards by name, and
 * their faces' names (written when first asked for), for reading entries
 * in constant time each. Built once per load from the slots and quest
 * slots already read; it refers to that state. */
#define QQ_INDEX_BUCKETS 64
typedef struct qq_name_index {
    const qq_state *st;
    struct {
        const char *id;  /* qq_cards[].id or qq_quests[].id; NULL: empty */
        int slot;        /* Wilds slot or quest slot */
        bool quest;
    } bucket[QQ_INDEX_BUCKETS];
    bool card_faces_named[QQ_MAX_SLOTS];
    bool quest_faces_named[QQ_MAX_QUESTS];
    char card_faces[QQ_MAX_SLOTS][6][QQ_NAME_SIZE];
    char quest_faces[QQ_MAX_QUESTS][6][QQ_NAME_SIZE];
} qq_name_index;

void qq_name_index_build(qq_name_index *ix, const qq_state *st);

/* The Wilds slot (*quest false) or quest slot (*quest true) called
 * name (len bytes), or -1. */
int qq_name_index_find(const qq_name_index *ix, const char *name, size_t len,
                       bool *quest);

/* The names of the six faces of the dice of a Wilds slot (quest false)
 * or of a quest slot's quest dice (quest true). */
const char (*qq_name_index_faces(qq_name_index *ix, bool quest,
                                 int slot))[QQ_NAME_SIZE];

/* A die entry as read, before it joins the state. */
typedef struct qq_die_entry {
    int number;
    bool quest_die;
    int slot;        /* Wilds slot, or quest slot of a quest die */
    int face;        /* -1: none written */
    int quest;       /* "at QUEST": quest slot, else -1 */
    int host;        /* "on DIE", else -1 */
    int flags;       /* QQ_F_ */
    int last_face;   /* "fell showing FACE", else -1 */
    int copy_card;   /* "copying CARD FACE": qq_cards index, else -1 */
    int copy_face;
    int cull_mark;   /* "scored for N glory" 1, "completed the quest" 2 */
    int cull_glory;
    int trigger_pow; /* "may VERB", else QQ_POW_NONE */
} qq_die_entry;

/* Reads text as an entry of a die in zone (its marks must fit the zone:
 * a face where dice show one, "at QUEST" in a Quest Area, "on DIE" when
 * attached). False with why filled (a sentence without the place, which
 * the caller names) when the text is not a die entry. */
bool qq_die_entry_read(qq_name_index *ix, const qq_state *st,
                       const char *text, int zone, qq_die_entry *out,
                       char *why, size_t why_size);

/* Whether dice in zone show a face (the snapshot writes it). */
bool qq_zone_shows_face(int zone);

#endif
