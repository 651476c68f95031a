/* qq_names.h: the names people read and type, shared by the text view,
 * the snapshot (the position a referee edits) and the JSON view: cards
 * and quests as the notation writes them ("quake-dragon"), die faces as
 * they show ("level 2 6/6 *", "2 quiddity", "Quartifact Holy Quill"),
 * phases and places. Every name written here is read back by the same
 * module's comparison, so a name never has two spellings in the engine.
 * Nothing here is seen outside rules/quarriors/. */
#ifndef RULES_QUARRIORS_QQ_NAMES_H
#define RULES_QUARRIORS_QQ_NAMES_H

#include "qq_internal.h"

#include <stdbool.h>
#include <stddef.h>

/* Room for any name below, with its terminating NUL. */
#define QQ_NAME_SIZE 64

/* A card or quest id as the notation writes it: "quake_dragon" becomes
 * "quake-dragon". Returns buf. */
const char *qq_notation_id(const char *id, char buf[QQ_NAME_SIZE]);

/* Whether a name a person wrote (a, length a_len) is name b: letters in
 * any case, '-' and '_' alike, runs of spaces as one space. */
bool qq_same_name(const char *a, size_t a_len, const char *b);

/* The face of a card's die, as the snapshot and the text view write it:
 * its quiddity ("2 quiddity", "3 quiddity or reroll"), draw ("draw 2"),
 * "reroll", "spell", creature ("level 1 3/2"; "level 2 X/X" when the card
 * sets attack and defense) and bursts ("*", "**"), in that order, or
 * "blank". Faces with the same name are the same face to the engine.
 * Returns buf. */
const char *qq_face_name(const qq_face *face, char buf[QQ_NAME_SIZE]);

/* The same face as a player says it, for reading only (the text view and
 * the tell sentences; never read back): "1 quiddity", "2 quiddity, draw
 * 2", "reroll, burst", "spell", "level 1: attack 1, defense 2", "level 2:
 * attack and defense per card, double burst", "blank". Returns
 * buf. */
const char *qq_face_words(const qq_face *face, char *buf, size_t size);

/* The face of a quest die of quest_type: "2 quiddity", "1 die", "?" or
 * "Quartifact NAME". Returns buf. */
const char *qq_quest_face_name(int quest_type, int face,
                               char buf[QQ_NAME_SIZE]);

/* What a quest die face gives the player who rolls it, in words
 * ("2 quiddity for the turn", "a free capture of a die costing up to 4",
 * "a Quartifact to keep and attach"). Returns buf. */
const char *qq_quest_reward_text(int quest_type, int face, char *buf,
                                 size_t size);

/* Phases (QQ_P_) by name: "cull", "seize", "special", "main", "defend",
 * "challenge", "takeover", "capture", "react", "trigger", "over",
 * "first". qq_phase_find returns -1 for an unknown name. */
const char *qq_phase_name(int phase);
int qq_phase_find(const char *name);
/* Every phase name, comma-separated, for an error sentence. Returns
 * buf. */
const char *qq_phase_list(char *buf, size_t size);

/* Places (QQ_Z_) as the snapshot and the JSON view name them ("ready")
 * and as people read them ("Ready Area"). */
const char *qq_zone_name(int zone);
const char *qq_zone_title(int zone);

/* What follows a reaction window (QQ_R_): "damage", "next attack",
 * "challenge", "after challenge", "main"; -1 for an unknown name. */
const char *qq_resume_name(int resume);
int qq_resume_find(const char *name);

/* The verb of a scoring power that waits for its owner's choice
 * (trigger_pow): "exchange", "capture", "recall", "cull", "trade"; NULL
 * for a power that never waits. qq_trigger_find returns QQ_POW_NONE for
 * an unknown verb. */
const char *qq_trigger_verb(int power);
int qq_trigger_find(const char *verb, size_t len);

#endif
