/* amt_internal.h: the state and helpers shared by the Another Man's
 * Treasure engine's files. Nothing here is seen outside the engine (the
 * engine's own tests include it to build rulebook positions). */
#ifndef RULES_ANOTHER_MANS_TREASURE_AMT_INTERNAL_H
#define RULES_ANOTHER_MANS_TREASURE_AMT_INTERNAL_H

#include "another_mans_treasure.h"
#include "rng.h"

#include <stdbool.h>
#include <stdint.h>

/* ---- cards (cards.c) ---- */
#define AMT_COLOURS 4
#define AMT_MAX_NUMBER 11
#define AMT_NUMBERED 136
#define AMT_CARDS 145
#define AMT_WILD_TYPES 3
#define AMT_NAME_LEN 16

enum { AMT_W16 = 0, AMT_W611 = 1, AMT_W111 = 2 };

typedef struct amt_card {
    bool wild;
    int colour;     /* 0..3, -1 for a wild */
    int number;     /* 1..11, 0 for a wild */
    int wild_type;  /* AMT_W16.., -1 for a numbered card */
    bool smiley;
} amt_card;

/* The card with this id (0 .. AMT_CARDS-1). */
amt_card amt_card_get(int id);
/* Writes the card's name ("B5", "B5s" for a smiley, "W1-6") into out. */
void amt_card_name(int id, char out[AMT_NAME_LEN]);
/* Whether a wild of this type may stand for number. */
bool amt_wild_covers(int wild_type, int number);
/* Points a card scores when left in hand (5, 10 or 15). */
int amt_card_points(int id);
/* Colour letter ('B', 'R', 'Y', 'G') and back (-1 if unknown). */
char amt_colour_letter(int colour);
int amt_colour_from_letter(char letter);
/* Checks a card name's form ("b5", "W6-11", "y7s"); canonical name into out. */
bool amt_name_canonical(const char *text, char out[AMT_NAME_LEN]);
/* The cards called text (any case): ids first .. first+copies-1, all
 * alike. False when no card has that name. Constant time. */
bool amt_card_named(const char *text, int *first, int *copies);

/* ---- collection patterns (cards.c) ---- */
enum { AMT_SET = 0, AMT_RUN = 1, AMT_PAIR = 2 };
#define AMT_MAX_PATTERN_MELDS 5

typedef struct amt_pattern {
    const char *name;       /* "2sets4": stable key in actions and snapshots */
    const char *title;      /* "2 sets of 4" */
    int melds;
    int kind[AMT_MAX_PATTERN_MELDS];
    int size[AMT_MAX_PATTERN_MELDS];
} amt_pattern;

enum {
    AMT_P_2SETS4, AMT_P_2RUNS4, AMT_P_SET4RUN4, AMT_P_RUN8, AMT_P_4PAIRS,
    AMT_P_3PAIRS, AMT_P_RUN6, AMT_P_2SETS3, AMT_P_5PAIRS, AMT_P_2RUNS5,
    AMT_P_2SETS5, AMT_PATTERNS
};

const amt_pattern *amt_pattern_get(int id);
int amt_pattern_find(const char *name); /* -1 if unknown */
const char *amt_kind_name(int kind);
int amt_kind_find(const char *name);    /* -1 if unknown */

/* The game's shape: rounds, cards dealt and patterns per round. */
int amt_rounds(bool progressive);
int amt_hand_size(bool progressive, int round);
/* Fills ids with the patterns allowed in round; returns their count. */
int amt_round_patterns(bool progressive, int round, int ids[AMT_PATTERNS]);

/* ---- state ---- */
#define AMT_MAX_SEATS 6
#define AMT_MIN_SEATS 2
#define AMT_MAX_MELDS 40
#define AMT_MELD_CARDS 32
#define AMT_MAX_ROUNDS 9

typedef enum amt_phase {
    AMT_PHASE_DRAW = 0,   /* turn must draw or take (claim window maybe open) */
    AMT_PHASE_PLAY,       /* turn may lay a pattern, add, and must discard */
    AMT_PHASE_ENDPLAY,    /* sealed end-of-round plays */
    AMT_PHASE_OVER
} amt_phase;

enum { AMT_CLAIM_NONE = 0, AMT_CLAIM_CLAIMED, AMT_CLAIM_PASSED };
enum { AMT_END_NONE = 0, AMT_END_WAITING, AMT_END_PASSED, AMT_END_PLAYED };

typedef struct amt_meld {
    int owner;
    int kind;
    int count;
    int16_t cards[AMT_MELD_CARDS];  /* runs: lowest number first */
    int8_t by[AMT_MELD_CARDS];      /* seat that played each card */
    /* derived from the cards by amt_meld_shape */
    int colour;   /* runs and pairs; -1 for sets */
    int number;   /* sets and pairs; for runs the lowest number */
} amt_meld;

/* A pattern laid down (or chosen at the round's end), cards resolved. */
typedef struct amt_play {
    int mark;                       /* pattern id marked off */
    int melds;
    int kind[AMT_MAX_PATTERN_MELDS];
    int count[AMT_MAX_PATTERN_MELDS];
    int16_t cards[AMT_MAX_PATTERN_MELDS][AMT_MAX_NUMBER];
} amt_play;

typedef struct amt_player {
    int hand_count;
    int16_t hand[AMT_CARDS];     /* kept sorted by id */
    uint32_t used;               /* bit p: pattern p marked off */
    int completed;               /* complete patterns laid (tie-break) */
    bool laid;                   /* has melds on the table this round */
    int claim;                   /* AMT_CLAIM_* in the open window */
    int end;                     /* AMT_END_* during the end-of-round plays */
    amt_play end_play;           /* sealed choice when end == PLAYED */
    int round_score[AMT_MAX_ROUNDS];
    int total;
} amt_player;

typedef struct amt_state {
    /* options */
    bool progressive;
    bool classic_end;            /* Classic end-of-round in Progressive */
    int window_hours;
    int seats;
    /* position */
    int round;                   /* 0-based */
    amt_phase phase;
    int turn;
    bool window;                 /* claim window open on the top discard */
    int draw_count;
    int16_t draw[AMT_CARDS];     /* top = last */
    int discard_count;
    int16_t discard[AMT_CARDS];  /* top = last */
    int meld_count;
    amt_meld melds[AMT_MAX_MELDS];  /* grouped by owner, each owner's in
                                       the order laid (Pn.m) */
    amt_player players[AMT_MAX_SEATS];
    rules_rng rng;
} amt_state;

/* ---- setup.c ---- */
/* The claim_window_hours option: its default and its largest value. */
#define AMT_WINDOW_HOURS_DEFAULT 12
#define AMT_WINDOW_HOURS_MAX 168
json_t *amt_describe_options(void);
rules_state *amt_setup(const json_t *options, int seats,
                       const uint8_t seed[RULES_SEED_BYTES], rules_error *err);
/* Shuffles and deals round s->round; seat (round mod seats) starts. */
void amt_deal_round(amt_state *s);

/* ---- melds.c ---- */
/* Checks that cards form a meld of kind (any length >= 1 with a natural);
 * fills colour and number (lowest for runs). For a new meld the caller
 * checks the size separately. */
bool amt_meld_shape(int kind, const int16_t *cards, int count, int *colour,
                    int *number, rules_error *err);
/* Whether card may be added to meld; *at_low says which end of a run. */
bool amt_meld_accepts(const amt_meld *meld, int card, bool at_low);
/* Index of the first wild in meld of wild_type (-1: of any type) that
 * stands for the numbered card, or -1. */
int amt_meld_wild_for(const amt_meld *meld, int card, int wild_type);
/* The number (and colour, -1 any) the wild at index i stands for. */
void amt_meld_wild_as(const amt_meld *meld, int i, int *colour, int *number);
/* Finds up to max ways to lay the given melds (kinds/sizes) from hand;
 * returns how many it wrote to out (each with mark set to mark). A
 * bounded search: it may miss ways, never invents one. */
int amt_find_plays(const int16_t *hand, int hand_count, int mark,
                   int melds, const int *kinds, const int *sizes,
                   amt_play *out, int max);

/* ---- moves.c ---- */
void amt_pending(const rules_state *state, rules_pending *out);
bool amt_apply(rules_state *state, int seat, const json_t *action,
               rules_error *err);
json_t *amt_legal(const rules_state *state, int seat);
/* The move made for this seat when its deadline passes (defaults.c). */
json_t *amt_default_move(const rules_state *state, int seat);
/* The claim window's seats and length for the service's clock
 * (claim_window.c, rules.h window). */
bool amt_window(const rules_state *state, rules_window *out);
/* Index in the global meld list of owner's n-th meld, or -1. */
int amt_meld_index(const amt_state *s, int owner, int n);
/* Whether the end-of-round plays may be partial patterns. */
bool amt_partial_end(const amt_state *s);
/* Reads seat's sealed end-of-round pattern action into play, checked
 * against s (cards held, shapes, open pattern) without changing s. */
bool amt_read_end_play(const amt_state *s, int seat, const json_t *action,
                       amt_play *play, rules_error *err);

/* ---- notation.c ---- */
char *amt_format_move(const rules_state *state, int seat, const json_t *action);
json_t *amt_parse_move(const rules_state *state, int seat, const char *text,
                       rules_error *err);
/* The JSON of a pattern action for play (names, not ids). */
json_t *amt_play_action(const amt_play *play, const json_t *swaps);

/* ---- score.c ---- */
/* Points seat's hand scores now (with the Progressive smiley terms). */
int amt_round_points(const amt_state *s, int seat);
json_t *amt_result(const rules_state *state);

/* ---- tell.c ---- */
/* What actor's action did, told to viewer (rules.h tell). */
char *amt_tell(const rules_state *before, const rules_state *after, int actor,
               const json_t *action, int viewer, const char *const *names);

/* ---- view.c, view_text.c ---- */
json_t *amt_view(const rules_state *state, int seat);
json_t *amt_card_json(int id);
char *amt_view_text(const rules_state *state, int seat);

/* ---- text.c: text for people, in lines of at most AMT_TEXT_WIDTH ---- */
#define AMT_TEXT_WIDTH 72
#define AMT_TEXT_MAX_LINES 40

/* A text being written: zero it to start. Words flow onto the next line
 * (indented by two spaces) at the width; a '~' in a text is a space that
 * never breaks ("seat~2", "W1-11~(as~Y8)"). */
typedef struct amt_text {
    char *buf;
    size_t len, cap;
    int column;   /* characters on the current line */
} amt_text;

/* Starts a new line with the words of fmt. */
void amt_text_line(amt_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Goes on with the words of fmt after a space. */
void amt_text_say(amt_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Adds an empty line, between parts of the text. */
void amt_text_blank(amt_text *t);
/* Ends the text with a newline and hands it over (the caller frees). A
 * text of more than AMT_TEXT_MAX_LINES lines loses its empty lines, then
 * its tail. */
char *amt_text_finish(amt_text *t);
/* The same, ending with legend after an empty line: t loses lines (as
 * above) so that the legend is always whole. legend is emptied. */
char *amt_text_finish_with(amt_text *t, amt_text *legend);

/* ---- card_places.c: the cards of a hand-edited position, by name ---- */
/* Where a card stands in a position: its field path for error messages. */
typedef enum amt_pile {
    AMT_AT_DRAW_PILE, AMT_AT_DISCARD_PILE, AMT_AT_HAND, AMT_AT_MELD
} amt_pile;

typedef struct amt_place {
    uint8_t pile;    /* amt_pile */
    int8_t seat;     /* hands and melds */
    int8_t meld;     /* melds: the seat's n-th */
    uint8_t index;   /* the card's position in its list */
} amt_place;

/* Hands out card ids to card names: copies of a card are alike, so the
 * n-th copy of a name placed gets its n-th id. */
typedef struct amt_card_places {
    uint8_t placed[AMT_CARDS];  /* copies placed, by the name's first id */
    amt_place at[AMT_CARDS];    /* where each id was placed */
    int total;
} amt_card_places;

void amt_places_init(amt_card_places *places);
/* Writes the field path of where ("players[1].hand[4]") into out. */
void amt_place_path(amt_place where, char *out, size_t size);
/* The id for the card named by value (a JSON string) at where: the next
 * free copy of that name. False with err naming the place and the value
 * when value is no card's name or every copy is already placed. */
bool amt_places_take(amt_card_places *places, const json_t *value,
                     amt_place where, int16_t *id, rules_error *err);
/* Whether every card of the game has its place; false naming a missing
 * one. */
bool amt_places_complete(const amt_card_places *places, rules_error *err);

/* ---- snapshot.c, check.c ---- */
json_t *amt_save(const rules_state *state);
rules_state *amt_load(const json_t *snapshot, rules_error *err);
bool amt_check(const rules_state *state, rules_error *err);

#endif
