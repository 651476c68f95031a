/* artifact_stack_internal.h: the state and the verbs shared by the files of
 * the Artifact Stack engine. Nothing outside rules/artifact_stack/ (and its
 * tests) includes this header. */
#ifndef RULES_ARTIFACT_STACK_ARTIFACT_STACK_INTERNAL_H
#define RULES_ARTIFACT_STACK_ARTIFACT_STACK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rules.h"
#include "rng.h"

/* ---- the data table (cards.c) ---------------------------------------- */

enum as_stack {
    AS_STATUES,
    AS_COINS,
    AS_WEAPONS,
    AS_MANUSCRIPTS,
    AS_JEWELRY,
    AS_RELICS,
    AS_CURSES,
    AS_CHINA,
    AS_MONSTERS,
    AS_TREASURES,
    AS_STACKS
};

#define AS_PER_STACK 9
#define AS_CARDS (AS_STACKS * AS_PER_STACK)
#define AS_STACKS_IN_PLAY 6
#define AS_CARDS_IN_PLAY (AS_STACKS_IN_PLAY * AS_PER_STACK)
#define AS_TEMPLE 26
#define AS_LAYERS 3
#define AS_ASSISTANTS 12
#define AS_NO_CARD (-1)

enum as_monster { AS_VAMPIRE, AS_MUMMY, AS_VAMPIRE_MUMMY, AS_CROSS, AS_COFFIN };

enum as_fate {
    AS_FATE_GAIN2, AS_FATE_GAIN1, AS_FATE_EXTRA_ACTION, AS_FATE_ASSISTANT,
    AS_FATE_LOSE1, AS_FATE_LOSE2, AS_FATE_GIVE, AS_FATE_LOSE_ACTION,
    AS_FATE_DISCARD
};

enum as_ability {
    AS_ABILITY_FREE_DIG, AS_ABILITY_FREE_PEEK, AS_ABILITY_EXTRA_ACTION,
    AS_ABILITY_STEAL, AS_ABILITY_SILVER, AS_ABILITY_POINTS
};

typedef struct as_assistant_info {
    const char *name;
    int stack;
    int ability;
} as_assistant_info;

/* Every DEFAULT number of the game, in one table (see cards.c). */
typedef struct as_table {
    const char *stack_names[AS_STACKS];
    int stack_vp[AS_STACKS];            /* per card; statues, monsters and
                                           treasures are scored specially */
    bool stack_flips[AS_STACKS];        /* has a set bonus claimed by
                                           flipping */
    bool star[AS_PER_STACK];            /* by card number - 1 */
    bool covered[AS_PER_STACK];         /* dealt face down */
    char china_letter[AS_PER_STACK];
    int monster[AS_PER_STACK];
    int treasure_vp[AS_PER_STACK];
    int treasure_cash_per_vp;           /* 1 silver per this many VP */
    int fate[AS_PER_STACK];
    const char *fate_text[AS_PER_STACK];
    as_assistant_info assistants[AS_ASSISTANTS];
    const char *ability_text[6];
    int ability_vp[6];                  /* extra VP at the end */
    int assistant_vp;
    int ability_silver;                 /* silver the silver ability gives */
    int layer_cols[AS_LAYERS];
    int layer_rows[AS_LAYERS];
    int silver_total;
    int start_silver;
    int star_card_vp;
    int star_cards;
    int relic_bonus;
    int china_pair_vp, china_triple_vp, china_abc_vp;
    int combo_vp_pair;                  /* vampire+cross, mummy+coffin */
    int combo_vp_vampire_mummy;         /* vampire mummy + coffin or cross */
    int monster_loose_vp, cross_vp, coffin_vp;
    int bonus_of_2, bonus_of_3;         /* silver, steals, actions, hires */
    int min_seats, max_seats;
} as_table;

extern const as_table as_data;

/* "coins3": the card's name, for notation, views and snapshots. */
const char *as_card_name(int card);
/* The card called name, or AS_NO_CARD. */
int as_card_by_name(const char *name);
int as_card_stack(int card);
int as_card_number(int card);     /* 1..9 */
int as_stack_by_name(const char *name);
int as_assistant_by_name(const char *name);

/* Temple geometry: slot 0..25, layer 0 (bottom) .. 2 (top). */
int as_slot_layer(int slot);
int as_slot_col(int slot);
int as_slot_row(int slot);
int as_slot_at(int layer, int col, int row);  /* -1 when off the temple */
/* Does the card in slot upper cover slot lower (DEFAULT geometry)? */
bool as_slot_covers(int upper, int lower);

/* ---- the state -------------------------------------------------------- */

enum as_place {
    AS_OUT = 0,     /* its stack is not in this match */
    AS_STOCK,       /* waiting for the second temple, unseen */
    AS_IN_TEMPLE,
    AS_TABLEAU,
    AS_REMOVED,     /* one of the 2 left over at round 2, unseen */
    AS_BOX          /* discarded face up by a curse */
};

/* What the seat on turn must settle before anything else. */
enum as_task {
    AS_TASK_NONE = 0,
    AS_TASK_TREASURE,   /* keep or cash the treasure just taken */
    AS_TASK_STEAL,      /* steal task_count face-up cards */
    AS_TASK_RECRUIT,    /* take task_count assistants for free */
    AS_TASK_GIVE,       /* give a face-up card to the next player */
    AS_TASK_DISCARD     /* discard a face-up card to the box */
};

#define AS_POOL (-1)
#define AS_UNUSED_STACK (-2)

typedef struct as_state {
    int seats;
    bool in_play[AS_STACKS];
    rules_rng rng;
    int round;              /* 1 or 2 */
    bool over;
    int first;              /* start player of round 1 */
    int turn;
    int actions;            /* actions left this turn */
    int task, task_count, task_card;
    int temple[AS_TEMPLE];  /* card or AS_NO_CARD */
    int stock[AS_CARDS_IN_PLAY];
    int stock_count;
    int bank;
    int silver[RULES_MAX_SEATS];
    int skip[RULES_MAX_SEATS];  /* next turns that start without action */
    int8_t place[AS_CARDS];
    int8_t owner[AS_CARDS];     /* seat, when place is AS_TABLEAU */
    bool flipped[AS_CARDS];
    int8_t set[AS_CARDS];       /* lowest card of its bonus set, or -1 */
    int8_t assistant_owner[AS_ASSISTANTS]; /* seat, AS_POOL, AS_UNUSED_STACK */
    bool assistant_used[AS_ASSISTANTS];
    bool peeked[RULES_MAX_SEATS][AS_CARDS];
} as_state;

/* ---- verbs shared between files --------------------------------------- */

/* setup.c */
json_t *as_describe_options(void);
rules_state *as_setup(const json_t *options, int seats,
                      const uint8_t seed[RULES_SEED_BYTES], rules_error *err);
/* Ends the turn of s->turn and starts the next one (building the second
 * temple or ending the match when the temple is empty). */
void as_end_turn(as_state *s);
/* Ends turns automatically while the seat on turn has nothing to do. */
void as_settle(as_state *s);

/* moves.c */
bool as_apply(rules_state *state, int seat, const json_t *action,
              rules_error *err);
json_t *as_legal(const rules_state *state, int seat);
/* The move made for this seat when its deadline passes (defaults.c). */
json_t *as_default_move(const rules_state *state, int seat);
void as_pending(const rules_state *state, rules_pending *out);
/* Cards covering slot that are still in the temple. */
int as_cover_count(const as_state *s, int slot);
/* Seats after seat in this round's direction. */
int as_next_seat(const as_state *s, int seat);

/* notation.c */
char *as_format_move(const rules_state *state, int seat, const json_t *action);
json_t *as_parse_move(const rules_state *state, int seat, const char *text,
                      rules_error *err);
/* "0.3.1" for a slot; out holds 8 bytes. */
void as_slot_text(int slot, char out[8]);
/* The slot "L.C.R" (or "L.C" on the one-row top layer) names, or -1. */
int as_slot_parse(const char *text);

/* score.c */
typedef struct as_score {
    int cards;          /* VP printed on plain cards */
    int treasures;      /* VP of the treasures kept (not cashed) */
    int statues;
    int china;
    int monsters;
    int relic_bonus;
    int assistants;
    int silver;
    int stars_bonus;
    int total;
    int artifact_cards; /* tie-break 1 (silver is tie-break 2) */
    int star_count;
    int relic_count;
} as_score;
void as_score_all(const as_state *s, as_score out[RULES_MAX_SEATS]);
/* The result (rules.h): "detail" per seat is {"points": {part: VP, ...},
 * "total", "tie_breakers": {"artifact_cards", "silver"}, "counts":
 * {"stars", "relics"}}, the points adding up to the total; once over,
 * "reason", and "tie_break" when cards or silver separated equal totals. */
json_t *as_result(const rules_state *state);
/* The parts of a seat's points, in the order the text and the result
 * name them: their names and values; returns how many. */
#define AS_SCORE_PARTS 10
int as_score_parts(const as_score *sc, const char *names[AS_SCORE_PARTS],
                   int values[AS_SCORE_PARTS]);
/* Statue set value: 1, 3, 6, 10, ... */
int as_statue_set_vp(int n);
/* Best monster score for these counts. */
int as_monster_vp(int vampires, int mummies, int vampire_mummies, int crosses,
                  int coffins);

/* tell.c: what actor's action did, told to viewer (rules.h, tell). */
char *as_tell(const rules_state *before, const rules_state *after, int actor,
              const json_t *action, int viewer, const char *const *names);

/* view.c */
json_t *as_view(const rules_state *state, int seat);
json_t *as_card_json(const as_state *s, int card);

/* view_text.c: the view as plain text for people (a malloc'd string). */
char *as_view_text(const rules_state *state, int seat);
/* What a player needs to know beside a card's name ("A", "4 VP",
 * "vampire", "+2 silver"), or "". Returns out. */
const char *as_card_kind(int card, char out[32]);

/* snapshot.c: the position form a referee edits (README.md, "Position").
 * save returns a new reference; load returns a new state, or NULL with err
 * naming the field and value of the first thing wrong. */
json_t *as_save(const rules_state *state);
rules_state *as_load(const json_t *snapshot, rules_error *err);
rules_state *as_clone(const rules_state *state);
void as_destroy(rules_state *state);

/* check.c: every invariant; false with the first broken one in err. */
bool as_check(const rules_state *state, rules_error *err);

#endif
