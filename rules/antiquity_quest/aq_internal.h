/* aq_internal.h: the types and verbs the Antiquity Quest engine's files
 * share. Nothing outside rules/antiquity_quest/ (and its tests) includes it.
 *
 * A match state is one flat struct with no pointers, so clone is a copy.
 * Cards are numbered 0..216 (cards.c); every card is in exactly one pile:
 * the draw pile, the discard pile, the character pile, a seat's hand, a
 * side's cache or a collection. A "side" is a seat, or a partnership when
 * playing in pairs (seat s and seat s + seats/2 form side s % (seats/2)).
 */
#ifndef RULES_ANTIQUITY_QUEST_AQ_INTERNAL_H
#define RULES_ANTIQUITY_QUEST_AQ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"
#include "rules.h"

#define AQ_CARDS 217
#define AQ_SUITS 6
#define AQ_TREASURE_TYPES 5
#define AQ_NAMES 43            /* distinct card names (cards.c) */
#define AQ_MAX_SIDES 6
#define AQ_MAX_COLLECTIONS 80  /* a collection holds >= 3 of 217 cards */
#define AQ_COLLECTION_CARDS 64 /* 28 antiquities of a suit + 35 treasures */
#define AQ_MAX_ROUNDS 3
#define AQ_HAND_SIZE 10
#define AQ_MAX_FINAL_PLAYS 64
#define AQ_NONE (-1)

/* ---- cards.c: the card table ------------------------------------------ */

typedef enum aq_kind {
    AQ_ANTIQUITY,
    AQ_TREASURE,
    AQ_REMINGTON,
    AQ_TESS
} aq_kind;

typedef struct aq_card {
    aq_kind kind;
    int suit;   /* antiquities: 0..5, else AQ_NONE */
    int value;  /* antiquities: 1..5, 0 for a wild; treasures: type 0..4 */
    int name;   /* name index 0..AQ_NAMES-1 */
    int copy;   /* 0-based copy among the cards sharing the name */
} aq_card;

/* Where each kind of card starts among the ids, and the name indexes of
 * the treasures and characters (cards.c lays the deck out). */
#define AQ_WILD_BASE 150
#define AQ_TREASURE_BASE 168
#define AQ_REMINGTON_BASE 203
#define AQ_TESS_BASE 211
#define AQ_NAME_TREASURE 36
#define AQ_NAME_REMINGTON 41
#define AQ_NAME_TESS 42

/* The card with id 0..AQ_CARDS-1. Inline: listing legal moves asks it of
 * every card in a hand for every candidate move. */
static inline aq_card aq_card_info(int id)
{
    aq_card c = {.suit = AQ_NONE};
    if (id < AQ_WILD_BASE) {
        c.kind = AQ_ANTIQUITY;
        c.suit = id / 25;
        c.value = (id % 25) / 5 + 1;
        c.copy = id % 5;
        c.name = c.suit * 6 + c.value - 1;
    } else if (id < AQ_TREASURE_BASE) {
        c.kind = AQ_ANTIQUITY;
        c.suit = (id - AQ_WILD_BASE) / 3;
        c.value = 0;
        c.copy = (id - AQ_WILD_BASE) % 3;
        c.name = c.suit * 6 + 5;
    } else if (id < AQ_REMINGTON_BASE) {
        c.kind = AQ_TREASURE;
        c.value = (id - AQ_TREASURE_BASE) / 7;
        c.copy = (id - AQ_TREASURE_BASE) % 7;
        c.name = AQ_NAME_TREASURE + c.value;
    } else if (id < AQ_TESS_BASE) {
        c.kind = AQ_REMINGTON;
        c.copy = id - AQ_REMINGTON_BASE;
        c.name = AQ_NAME_REMINGTON;
    } else {
        c.kind = AQ_TESS;
        c.copy = id - AQ_TESS_BASE;
        c.name = AQ_NAME_TESS;
    }
    return c;
}

/* "red2", "redW", "crown", "remington", "tess" for a name index. */
const char *aq_name_text(int name);
/* The name index of text (case-insensitive), or AQ_NONE. */
int aq_name_parse(const char *text);
/* Lowest card id with the given name; the copies follow consecutively. */
int aq_name_first_id(int name);
int aq_name_copies(int name);
/* The snapshot/view token of a card: "red2.4" (name, dot, 1-based copy),
 * from a static table. */
const char *aq_card_token(int id);
/* Reads a card word of a snapshot: a token ("red2.4") gives its card id; a
 * bare name ("red2", case-insensitive) gives AQ_CARD_ANY_COPY; anything
 * else AQ_CARD_UNKNOWN. *name receives the name index when there is one. */
#define AQ_CARD_ANY_COPY (-2)
#define AQ_CARD_UNKNOWN (-3)
int aq_card_parse(const char *word, int *name);
/* The card id of a token, or AQ_NONE. */
int aq_token_parse(const char *token);
/* Writes count cards, given in id order, into out in the order the
 * notation lists cards: suit by suit, 1 to 5 then W, then the treasures,
 * Remington and Tess; copies in copy order. Returns count. Hands and
 * caches are written in this order. */
int aq_cards_in_notation_order(const uint8_t *sorted, int count,
                               uint8_t *out);
const char *aq_suit_text(int suit);
int aq_suit_parse(const char *text);
/* Points a card scores when played (25/50), or costs when left (25/50/100). */
int aq_card_played_points(int id);
int aq_card_penalty(int id);

/* ---- collection.c: what a set of cards is worth ---------------------- */

typedef enum aq_grade {
    AQ_GRADE_INVALID = 0,
    AQ_GRADE_MIXED,
    AQ_GRADE_STANDARD,
    AQ_GRADE_PERFECT
} aq_grade;

typedef struct aq_shape {
    int size;
    int antiquities;
    int treasures;
    int characters;  /* Remington/Tess: never allowed in a collection */
    int suit;        /* the antiquities' suit, AQ_NONE, or -2 for several */
    bool duplicate;  /* a numbered value or treasure type occurs twice */
} aq_shape;

aq_shape aq_shape_of(const uint8_t *cards, int count);
/* Whether cards may form a collection (any size >= 3); on false err says
 * which rule they break. */
bool aq_shape_valid(const aq_shape *shape, rules_error *err);
bool aq_shape_complete(const aq_shape *shape);
aq_grade aq_shape_grade(const aq_shape *shape);
/* The collection value of a complete collection (0 if incomplete). */
int aq_shape_value(const aq_shape *shape);
const char *aq_grade_text(aq_grade grade);

/* ---- the state --------------------------------------------------------- */

typedef struct aq_pile {
    int count;
    uint8_t card[AQ_CARDS];  /* card[count-1] is the top */
} aq_pile;

typedef struct aq_collection {
    int id;     /* 1, 2, 3… in order of creation within the round */
    int side;
    int count;
    uint8_t card[AQ_COLLECTION_CARDS];
} aq_collection;

typedef enum aq_phase {
    AQ_PHASE_DRAW,   /* the seat on turn draws or picks up */
    AQ_PHASE_PLAY,   /* the seat on turn plays, then discards */
    AQ_PHASE_FINAL,  /* revoked visas: final plays only */
    AQ_PHASE_OVER
} aq_phase;

typedef struct aq_options {
    int rounds;                 /* 1 or 3 */
    bool civilization_bonus;
    bool remington_reassigned;
    bool tess_lost_shipment;
    bool revoked_visas;
    bool pairs;
} aq_options;

/* One sealed final-plays choice (revoked visas): plays[i] is a new
 * collection (target 0) or an add to collection id target, using the
 * cards card[first .. first+count-1]. */
typedef struct aq_final_play {
    int target;
    int first;
    int count;
} aq_final_play;

typedef struct aq_final_choice {
    bool made;
    int plays;
    aq_final_play play[AQ_MAX_FINAL_PLAYS];
    int cards;
    uint8_t card[AQ_CARDS];
} aq_final_choice;

/* The score of one side for one round. */
typedef struct aq_round_score {
    int bonus;
    int collections;
    int played;
    int unplayed;       /* <= 0 */
    int civilization;
    int total;
} aq_round_score;

typedef struct aq_state {
    aq_options opt;
    int seats;
    int sides;
    rules_rng rng;

    int round;          /* 1-based */
    int first;          /* seat that started this round */
    int turn;           /* seat on turn (AQ_PHASE_DRAW/PLAY, pairs final) */
    int turn_no;        /* turns begun this round, from 1 */
    aq_phase phase;
    int going_out;      /* seat that went out this round, or AQ_NONE */
    uint32_t final_left;  /* seats still owed their final turn or plays */

    aq_pile draw;
    aq_pile discard;
    aq_pile character;
    aq_pile hand[RULES_MAX_SEATS];
    aq_pile cache[AQ_MAX_SIDES];
    bool cache_taken[AQ_MAX_SIDES];
    int started_turn[AQ_MAX_SIDES];  /* turn_no of the first collection */
    int civ[AQ_MAX_SIDES];           /* assigned suit, or AQ_NONE */
    int played_points[AQ_MAX_SIDES]; /* running 25/50 per card played */

    int collections;
    aq_collection coll[AQ_MAX_COLLECTIONS];
    int next_id;

    aq_final_choice choice[RULES_MAX_SEATS];

    int rounds_done;
    aq_round_score score[AQ_MAX_ROUNDS][AQ_MAX_SIDES];
    int round_civ[AQ_MAX_ROUNDS][AQ_MAX_SIDES];
    int round_going_out[AQ_MAX_ROUNDS];
    int total[AQ_MAX_SIDES];
} aq_state;

static inline aq_state *aq_of(rules_state *state)
{
    return (aq_state *)state;
}

static inline const aq_state *aq_const_of(const rules_state *state)
{
    return (const aq_state *)state;
}

/* The side a seat plays for. */
static inline int aq_side_of(const aq_state *s, int seat)
{
    return s->opt.pairs ? seat % s->sides : seat;
}

/* Collections a side needs before its last card: 5, or 7 in pairs. */
static inline int aq_needed(const aq_state *s)
{
    return s->opt.pairs ? 7 : 5;
}

/* ---- piles.c: moving cards ---------------------------------------------- */

void aq_pile_push(aq_pile *pile, int card);
int aq_pile_pop(aq_pile *pile);
/* Removes the card at index i, keeping the order of the rest. */
void aq_pile_remove_at(aq_pile *pile, int i);
/* Index of card in pile, or AQ_NONE. */
int aq_pile_find(const aq_pile *pile, int card);
/* Inserts card keeping the pile sorted by id (hands and caches). */
void aq_pile_insert_sorted(aq_pile *pile, int card);
/* Counts of each name in a pile. */
void aq_pile_name_counts(const aq_pile *pile, int counts[AQ_NAMES]);
/* Picks, for each name in names, a distinct card of that name from pile
 * (lowest copy first). False with err filled when pile lacks one. */
bool aq_pile_pick(const aq_pile *pile, const int *names, int count,
                  uint8_t *ids, rules_error *err);

aq_collection *aq_collection_find(aq_state *s, int id);
const aq_collection *aq_collection_find_const(const aq_state *s, int id);
int aq_completed_count(const aq_state *s, int side);

/* ---- setup.c ------------------------------------------------------------ */

json_t *aq_describe_options(void);
/* Fills opt from a resolved options object; false with err on a
 * combination the rulebook does not allow for seats. */
bool aq_options_read(const json_t *resolved, int seats, aq_options *opt,
                     rules_error *err);
json_t *aq_options_json(const aq_options *opt);
/* Shuffles all 217 cards and deals round s->round, first player first. */
void aq_deal_round(aq_state *s, int first);

/* ---- actions.c: the decoded form of an action ---------------------------- */

typedef enum aq_action_type {
    AQ_ACT_DRAW,
    AQ_ACT_PICKUP,
    AQ_ACT_PLAY,
    AQ_ACT_ADD,
    AQ_ACT_REMINGTON,
    AQ_ACT_REASSIGN,
    AQ_ACT_LOST_SHIPMENT,
    AQ_ACT_DISCARD,
    AQ_ACT_FINAL
} aq_action_type;

typedef struct aq_action {
    aq_action_type type;
    int names;
    int name[AQ_CARDS];   /* card names (pickup, play, add, discard) */
    int target;           /* add, lost shipment: collection id; reassign:
                             the collection given */
    int take;             /* reassign: the collection taken */
    /* final: each play as (target, first, count) over name[] */
    int plays;
    aq_final_play play[AQ_MAX_FINAL_PLAYS];
} aq_action;

/* Decodes an action object; false with err when it is not well formed. */
bool aq_action_decode(const json_t *json, aq_action *out, rules_error *err);
/* Encodes a decoded action (new reference). */
json_t *aq_action_encode(const aq_action *action);

/* ---- moves.c: judging and applying moves -------------------------------- */

/* Checks act for seat without changing s; false with err on a broken
 * rule. aq_move_apply assumes aq_move_check passed. */
bool aq_move_check(const aq_state *s, int seat, const aq_action *act,
                   rules_error *err);
void aq_move_apply(aq_state *s, int seat, const aq_action *act);

/* The building blocks moves.c and final.c share. aq_add_ok: whether ids
 * may be added to coll; aq_new_collection_ok: whether ids may start a
 * collection (false with err naming the rule). The others carry out: take
 * cards out of a hand, start a collection for side (returns its id), add
 * cards to a collection; each keeps played_points up to date. */
bool aq_add_ok(const aq_collection *coll, const uint8_t *ids, int n,
               rules_error *err);
/* Whether aq_add_ok refuses coll whatever is added: a completed Standard
 * or Perfect collection (legal.c skips listing adds to it). */
bool aq_collection_closed(const aq_collection *coll);
bool aq_new_collection_ok(const aq_state *s, const uint8_t *ids, int n,
                          rules_error *err);
void aq_hand_take(aq_state *s, int seat, const uint8_t *ids, int n);
int aq_collection_new(aq_state *s, int side, const uint8_t *ids, int n);
void aq_collection_add(aq_state *s, aq_collection *c, const uint8_t *ids,
                       int n);

/* ---- final.c: revoked visas ------------------------------------------------ */

/* Checks a seat's final plays on a scratch copy; applies them (pairs) or
 * seals them until every seat has chosen. */
bool aq_final_check(const aq_state *s, int seat, const aq_action *act,
                    rules_error *err);
void aq_final_apply(aq_state *s, int seat, const aq_action *act);
/* Resolves the sealed final plays once every seat has chosen. */
void aq_resolve_final(aq_state *s);

/* ---- flow.c: turns and rounds -------------------------------------------- */

/* Who acts now. */
void aq_pending(const aq_state *s, rules_pending *out);
/* "draw", "play", "final", "over"; and back (case-insensitive), or
 * AQ_NONE. */
const char *aq_phase_text(aq_phase phase);
int aq_phase_parse(const char *text);
/* The seats still owed a final turn or final plays, as they follow from
 * who went out, the seat on turn and the sealed choices: what final_left
 * must be (snapshots leave it out; check compares). */
uint32_t aq_final_left_derived(const aq_state *s);
/* Ends the turn of the seat on turn; went_out when it just went out. */
void aq_end_turn(aq_state *s, bool went_out);
/* Scores the round as it stands and deals the next one or ends the match. */
void aq_end_round(aq_state *s);

/* ---- score.c --------------------------------------------------------------- */

/* The score of side for the round as it stands. */
aq_round_score aq_score_side(const aq_state *s, int side);
/* The civilization bonus for n completed collections of one's suit. */
int aq_civilization_bonus(int n);
json_t *aq_round_score_json(const aq_round_score *score);
/* The scores of every finished round and the running totals per side, as
 * the view's "scores" and "totals" (view.c) and the result's "detail". */
json_t *aq_rounds_json(const aq_state *s);
json_t *aq_totals_json(const aq_state *s);

/* ---- tell.c: what actor's action did, told to viewer (rules.h tell) ---- */

char *aq_tell(const rules_state *before, const rules_state *after, int actor,
              const json_t *action, int viewer, const char *const *names);

/* ---- legal.c, notation.c, view.c, snapshot.c -------------------------------- */

json_t *aq_legal(const aq_state *s, int seat);
/* The move made for this seat when its deadline passes (defaults.c). */
json_t *aq_default_move(const rules_state *state, int seat);
char *aq_format(const json_t *action);
json_t *aq_parse(const char *text, rules_error *err);
json_t *aq_view(const aq_state *s, int seat);
/* view() as plain text for people (view_text.c); malloc'd, caller frees. */
char *aq_view_text(const aq_state *s, int seat);
/* The same, written from view, aq_view(s, seat) built by the caller
 * (borrowed). */
char *aq_view_text_of(const aq_state *s, int seat, const json_t *view);
/* One collection as views show it (new reference). */
json_t *aq_collection_json(const aq_collection *c);
/* The position (README "Position"): save writes it in one canonical
 * order (save.c); load reads what a referee may write and refuses, naming
 * the field and the value, what is malformed or breaks an invariant
 * (load.c). */
#define AQ_SNAPSHOT_VERSION 2
json_t *aq_save(const aq_state *s);
aq_state *aq_load(const json_t *snapshot, rules_error *err);
/* The next collection number when no lost shipment took the highest:
 * one above the last collection's (collections are kept in number
 * order), or 1. */
int aq_next_collection_derived(const aq_state *s);
/* Every invariant (check.c); false with the first broken one in err. */
bool aq_check(const aq_state *s, rules_error *err);

#endif
