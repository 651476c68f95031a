/* qq_internal.h: types and verbs shared by the files of the Quarriors
 * engine. Nothing here is seen outside rules/quarriors/. */
#ifndef RULES_QUARRIORS_QQ_INTERNAL_H
#define RULES_QUARRIORS_QQ_INTERNAL_H

#include "rng.h"
#include "rules.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- the data table (cards_data.c, generated; cards.c, DEFAULTs) ---- */

enum { QQ_KIND_BASIC, QQ_KIND_SPELL, QQ_KIND_CREATURE, QQ_KIND_QUEST };
enum { QQ_SET_BASE, QQ_SET_QUARMAGEDDON, QQ_SET_QUARTIFACTS };
enum { QQ_TIME_NONE, QQ_TIME_IMMEDIATE, QQ_TIME_STANDARD, QQ_TIME_ATTACH,
       QQ_TIME_REACTION };

#define QQ_FACE_CREATURE 1
#define QQ_FACE_SPELL 2
#define QQ_FACE_REROLL 4
#define QQ_FACE_EITHER_REROLL 8   /* quiddity OR re-roll, owner's choice */
#define QQ_FACE_STATS_FROM_CARD 16

typedef struct qq_face {
    int8_t q;        /* quiddity */
    int8_t draw;     /* draw-and-roll count */
    int8_t burst;    /* 0, 1 (*), 2 (**) */
    int8_t level, attack, defense;
    uint8_t flags;
} qq_face;

typedef struct qq_die_def {
    const char *id;
    const char *name;
    int kind;
    qq_face faces[6];
} qq_die_def;

/* Card powers the engine implements (README lists what each does). */
enum {
    QQ_POW_NONE,
    QQ_POW_ASSISTANT_REROLL, QQ_POW_PORTAL, QQ_POW_SQUIRE,
    QQ_POW_DEATH_CANTRIP, QQ_POW_DEATH_CHARM, QQ_POW_DEATH_INCANTATION,
    QQ_POW_GROWTH_CANTRIP, QQ_POW_GROWTH_CHARM, QQ_POW_GROWTH_SPELL,
    QQ_POW_LIFE_CANTRIP, QQ_POW_SHAPING_SPELL, QQ_POW_VICTORY_CANTRIP,
    QQ_POW_VICTORY_INCANTATION,
    QQ_POW_DEFENDER_PALE, QQ_POW_MIGHTY_DEFENDER_PALE, QQ_POW_DEVOTEE,
    QQ_POW_MIGHTY_DEVOTEE, QQ_POW_OOZE, QQ_POW_MIGHTY_OOZE,
    QQ_POW_QUAKE_DRAGON, QQ_POW_STRONG_QUAKE_DRAGON,
    QQ_POW_MIGHTY_QUAKE_DRAGON, QQ_POW_QUESTING_WIZARD,
    QQ_POW_MIGHTY_QUESTING_WIZARD, QQ_POW_SCAVENGING_GOBLIN,
    QQ_POW_STRONG_SCAVENGING_GOBLIN, QQ_POW_WARRIOR_QUAY,
    QQ_POW_STRONG_WARRIOR_QUAY, QQ_POW_WITCHING_HAG,
    QQ_POW_MIGHTY_WITCHING_HAG,
    QQ_POW_LIFE_CHARM, QQ_POW_LIFE_INCANTATION, QQ_POW_LIFE_SPELL,
    QQ_POW_SHAPING_CANTRIP, QQ_POW_DEATH_SPELL, QQ_POW_GROWTH_INCANTATION,
    QQ_POW_SHAPING_CHARM, QQ_POW_SHAPING_INCANTATION, QQ_POW_VICTORY_CHARM,
    QQ_POW_VICTORY_SPELL,
    QQ_POW_DEATHDEALER, QQ_POW_STRONG_DEATHDEALER, QQ_POW_MIGHTY_DEATHDEALER,
    QQ_POW_STRONG_DEFENDER_PALE, QQ_POW_STRONG_DEVOTEE,
    QQ_POW_GHOSTLY_SPIRIT, QQ_POW_STRONG_GHOSTLY_SPIRIT,
    QQ_POW_MIGHTY_GHOSTLY_SPIRIT, QQ_POW_STRONG_OOZE,
    QQ_POW_STRONG_QUESTING_WIZARD, QQ_POW_MIGHTY_SCAVENGING_GOBLIN,
    QQ_POW_MIGHTY_WARRIOR_QUAY, QQ_POW_STRONG_WITCHING_HAG
};

/* What an effect comes from, for Immunity (qq_shielded). */
enum { QQ_SRC_SPELL, QQ_SRC_CREATURE, QQ_SRC_QUARTIFACT };

typedef struct qq_card_def {
    const char *id;
    const char *name;
    const char *klass;
    int kind;
    int set;
    int timing;
    int cost;
    int glory;
    int die;      /* index in qq_dice */
    int power;
} qq_card_def;

#define QQ_QUEST_VERSIONS 4
typedef struct qq_quest_def {
    const char *id;
    const char *name;
    int level;
    int glory;
    const char *versions[QQ_QUEST_VERSIONS];
    int version_count;
    const char *quartifacts[3];
    int quartifact_count;
} qq_quest_def;

typedef struct qq_counts_def {
    int bag_quiddity, bag_assistant;
    int card_quiddity, card_assistant, card_portal, card_other, card_squire;
} qq_counts_def;

extern const qq_die_def qq_dice[];
extern const int qq_dice_count;
extern const qq_card_def qq_cards[];
extern const int qq_cards_count;
extern const qq_quest_def qq_quests[];
extern const int qq_quests_count;
extern const int qq_goal_base[5];
extern const int qq_goal_quests[5];
extern const unsigned qq_quests_in_use[5];
extern const qq_counts_def qq_counts;

/* cards.c: DEFAULTs of CLARIFICATIONS.md and lookups. */
enum { QQ_QR_QUIDDITY, QQ_QR_DICE, QQ_QR_SPECIAL, QQ_QR_QUARTIFACT };
typedef struct qq_quest_face {
    int kind;     /* QQ_QR_ */
    int amount;   /* quiddity / dice; quartifact number 0..2 */
} qq_quest_face;
extern const qq_quest_face qq_quest_die_faces[6];
int qq_quest_special_cost(int quest_type);
int qq_quartifact_bonus(int quest_type);
bool qq_card_immune(int card);
int qq_card_find(const char *id);
int qq_quest_find(const char *id);
const char *qq_quartifact_name(int quest_type, int which, char *buf,
                               size_t size);

/* ---- the state ---- */

#define QQ_MAX_DICE 160
#define QQ_MAX_SLOTS 16
#define QQ_MAX_QUESTS 3

enum {
    QQ_Z_WILDS,     /* on its card in the Wilds (owner -1) */
    QQ_Z_BAG,
    QQ_Z_ACTIVE,    /* rolled, in the Active Pool */
    QQ_Z_READY,     /* creature or spell in the Ready Area */
    QQ_Z_QUEST,     /* creature in the Quest Area (quest = which card) */
    QQ_Z_USED,
    QQ_Z_SPENT,
    QQ_Z_ATTACHED,  /* spell or Quartifact on a creature (host) */
    QQ_Z_QCARD,     /* quest die on its quest card */
    QQ_Z_HELD,      /* quest die held as a Quartifact, not attached */
    QQ_Z_ASIDE,     /* Mighty Ghostly Spirit set aside after destruction */
    QQ_Z_COUNT
};

#define QQ_F_SUMMONED 1     /* summoned (or readied) this turn */
#define QQ_F_CHALLENGER 2   /* challenging a quest this turn */
#define QQ_F_NO_ATTACK 4    /* Life Incantation: attack 0 this turn */
#define QQ_F_FELL 8         /* destroyed, awaiting the reaction window */
#define QQ_F_SHIELDED 16    /* came back this turn: not damaged again */
#define QQ_F_COPIED 32      /* Strong Primordial Ooze changed its copy */
#define QQ_F_FROM_WIZARD 64 /* spell that was on a scoring Strong Wizard */
#define QQ_F_ALL 127

typedef struct qq_die {
    int8_t slot;     /* Wilds card slot, or quest slot for quest dice */
    int8_t quest_die;/* 1: a quest die */
    int8_t owner;    /* -1 in the Wilds / on a quest card */
    int8_t zone;
    int8_t face;     /* -1 when not showing a face that matters */
    int8_t quest;    /* quest slot when in QQ_Z_QUEST, else -1 */
    int16_t host;    /* die it is attached to, else -1 */
    uint8_t flags;
    int8_t last_face;/* face shown when last destroyed (Shaping Cantrip) */
    int8_t copy_card;/* Strong Primordial Ooze: card it copies, else -1 */
    int8_t copy_face;/* and the face of that card's die */
} qq_die;

typedef struct qq_slot {
    int card;        /* index in qq_cards */
} qq_slot;

typedef struct qq_quest_slot {
    int type;        /* index in qq_quests */
    int version;     /* index in the type's versions */
} qq_quest_slot;

enum {
    QQ_P_CULL,       /* start of turn: cull or done */
    QQ_P_SEIZE,      /* choose whom to seize a quest die from */
    QQ_P_SPECIAL,    /* quest "?" reward: free capture or pass */
    QQ_P_MAIN,       /* phase 2 (and the choice of phase 3) */
    QQ_P_DEFEND,     /* a defender assigns attack damage */
    QQ_P_CHALLENGE,  /* both sides order their defenders in secret */
    QQ_P_TAKEOVER,   /* challenger keeps or leaves the emptied quest */
    QQ_P_CAPTURE,    /* phase 4 */
    QQ_P_REACT,      /* a reaction window: react_seat casts or passes */
    QQ_P_TRIGGER,    /* a scoring power's choice (trigger die) */
    QQ_P_OVER,
    QQ_P_FIRST       /* start of turn: score or complete the quest first */
};

#define QQ_MAX_BAND 24

/* A quest die roll, as the table saw it. */
typedef struct qq_quest_roll {
    int die;          /* the quest die rolled; -1: none rolled yet */
    int seat;         /* who rolled it (completed the quest) */
    int face;         /* index in qq_quest_die_faces */
    int seized_from;  /* seat it was seized from; -1: taken from its card */
} qq_quest_roll;

typedef struct qq_player {
    int glory;
    int glory_scoring, glory_quest, glory_challenge, glory_spell;
} qq_player;

typedef struct qq_state {
    int seats;
    bool quests;        /* option: play with the quest rules */
    bool expert;        /* option: Expert Rules */
    bool quarmageddon;  /* option: Quarmageddon cards in the Wilds pool */
    int goal;
    int slot_count;
    qq_slot slots[QQ_MAX_SLOTS];
    int quest_count;
    qq_quest_slot quest_slots[QQ_MAX_QUESTS];
    int dice_count;
    qq_die dice[QQ_MAX_DICE];
    qq_player players[RULES_MAX_SEATS];

    int turn;           /* active seat */
    int turn_number;    /* turns begun, for decision ids */
    int phase;
    int quiddity;       /* unspent quiddity pool of the turn */
    int captures_left;
    int capture_discount;
    int attack_bonus;   /* Death Cantrip, to every own creature */
    int culls_left;
    /* Expert Rules: 1 = scored in the Ready Area, 2 = completed the quest;
     * cull_glory = glory its cull earns. 0 for dice that may not be culled. */
    int8_t cull_mark[QQ_MAX_DICE];
    int8_t cull_glory[QQ_MAX_DICE];
    int quest_done;     /* quest slot completed this turn, or -1 */
    int quest_band_left;/* creatures that completed it, not yet culled
                           (Expert) */
    /* attack in progress */
    int defender;       /* seat defending now */
    int damage;         /* damage left against that seat */
    uint32_t attack_todo; /* opponents still to be attacked */
    /* challenge in progress */
    int challenge_quest;
    int chosen[RULES_MAX_SEATS];  /* -1 no choice needed, 0 to choose, 1 chosen */
    int order_len[RULES_MAX_SEATS];
    /* card powers of the turn */
    int scored;         /* creatures that scored this turn */
    uint32_t victims;   /* opponents who lost a creature to the attacks */
    uint32_t life_spell;/* seats whose Ready Area has +4 defense */
    uint32_t life_charm;/* seats whose destroyed creatures go to Active */
    int kept_attack;    /* attack of Strong Deathdealers that scored */
    int combat_kills;   /* creatures fallen in the current combat */
    int warrior_summoned; /* a Warrior of the Quay was summoned */
    /* reaction window */
    int react_seat;
    uint32_t react_mask, react_passed;
    int react_resume;   /* QQ_R_ */
    /* scoring power awaiting its owner's choice */
    int trigger;
    int8_t trigger_pow[QQ_MAX_DICE];
    int16_t order[RULES_MAX_SEATS][QQ_MAX_BAND];
    /* The last quest die rolled, public until the next roll. */
    qq_quest_roll last_roll;
    rules_rng rng;
} qq_state;

/* What follows a reaction window. */
enum { QQ_R_DAMAGE, QQ_R_NEXT_ATTACK, QQ_R_CHALLENGE, QQ_R_AFTER_CHALLENGE,
       QQ_R_MAIN, QQ_R_COUNT };
/* Whether a window that resumes so comes after a fight (Shaping Cantrip,
 * Ghostly Spirit), not before the damage (Life spells); reactions.c. */
bool qq_post_window_kind(int resume);

/* stats.c: what a die shows and is worth right now. */
bool qq_is_creature_die(const qq_state *st, int d);
const qq_face *qq_face_of(const qq_state *st, int d);
const qq_card_def *qq_card_of(const qq_state *st, int d);
bool qq_shows(const qq_state *st, int d, uint8_t flag);
int qq_attack(const qq_state *st, int d, int target);
int qq_defense(const qq_state *st, int d);
int qq_level(const qq_state *st, int d);
int qq_power(const qq_state *st, int d);
int qq_ready_power_count(const qq_state *st, int seat, int pow);
bool qq_has_ready_power(const qq_state *st, int seat, int pow);
bool qq_shielded(const qq_state *st, int target, int by_seat, int source);
int qq_basic_quiddity_in_play(const qq_state *st, int seat);
int qq_summon_cost(const qq_state *st, int d);
int qq_quiddity_available(const qq_state *st);
int qq_capture_cost(const qq_state *st, int slot);
int qq_free_capture_limit(const qq_state *st);
int qq_slot_dice(const qq_state *st, int slot);
int qq_quest_owner(const qq_state *st, int q);
int qq_held_quartifact(const qq_state *st, int seat);
bool qq_must_fight(const qq_state *st);
int qq_empty_creature_cards(const qq_state *st);

/* The turn (play.c, turn.c; the phases share qq_turn.h). */
void qq_start_turn(qq_state *st);
/* The counters and marks of a turn as it begins, before anything scores
 * (what a snapshot leaves out has these values). */
void qq_clear_turn(qq_state *st);
bool qq_apply_move(qq_state *st, int seat, const json_t *action,
                   rules_error *err);
void qq_check_end(qq_state *st);
void qq_pending(const qq_state *st, rules_pending *out);

/* moves.c: legal moves. */
json_t *qq_legal_moves(const qq_state *st, int seat, bool *complete);
/* The text forms ("capture CARD") of the kinds of moves (borrowed) lists,
 * one per kind: what legal() says under "forms". A new reference. */
json_t *qq_legal_forms(const json_t *moves);
/* The move made for this seat when its deadline passes (defaults.c). */
json_t *qq_default_move(const rules_state *state, int seat);

/* notation.c */
char *qq_format(const json_t *action);
json_t *qq_parse(const char *text, rules_error *err);

/* view.c, view_text.c, score.c: what a seat sees, the result. */
json_t *qq_view(const qq_state *st, int seat);
char *qq_view_text(const qq_state *st, int seat);
json_t *qq_result(const qq_state *st);
/* tell.c: what actor's action did, told to viewer (rules.h, tell). */
char *qq_tell(const qq_state *before, const qq_state *after, int actor,
              const json_t *action, int viewer, const char *const *names);

/* snapshot_save.c, snapshot_load.c: the position form (README,
 * "Snapshot"); check.c: the invariants. */
json_t *qq_save(const qq_state *st);
qq_state *qq_load(const json_t *snapshot, rules_error *err);
bool qq_check(const qq_state *st, rules_error *err);

/* setup.c */
json_t *qq_options(void);
qq_state *qq_setup(const json_t *options, int seats,
                   const uint8_t seed[RULES_SEED_BYTES], rules_error *err);
/* How many dice card has in a match of st's seat count (bags included). */
int qq_card_dice_total(const qq_state *st, int card);

#endif
