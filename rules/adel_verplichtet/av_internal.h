/* av_internal.h: the state and helpers shared by the Adel Verplichtet
 * engine's files. Nothing outside rules/adel_verplichtet/ includes it. */
#ifndef RULES_ADEL_VERPLICHTET_AV_INTERNAL_H
#define RULES_ADEL_VERPLICHTET_AV_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rng.h"
#include "rules.h"

#define AV_VERSION 2
#define AV_MIN_PLAYERS 2
#define AV_MAX_PLAYERS 5
#define AV_CARDS 45
#define AV_SERIES 6
#define AV_CHECKS_PER_LORD 4
#define AV_MAX_CHECKS (AV_MAX_PLAYERS * AV_CHECKS_PER_LORD)
#define AV_MAX_SACK (2 * AV_MAX_PLAYERS)
#define AV_CASTLES 16
#define AV_TRACK_SPACES 36
#define AV_DINNER_TABLE 37   /* first pink space */
#define AV_PAWN_MAX 200      /* no pawn gets this far: a sanity bound */
#define AV_LOG_LINES 64
#define AV_LOG_WIDTH 112
#define AV_CHECK_GONE (-1)   /* check holder: removed from play */

/* ---- data.c: the const tables (board, cards, checks, thieves) ---- */

typedef struct av_castle {
    const char *name;
    int spaces;
    int first;   /* advance for the best exhibit */
    int second;  /* advance for the second-best exhibit */
} av_castle;

extern const av_castle av_castles[AV_CASTLES];

/* The castle (index into av_castles) whose octagon applies when the
 * leading pawn stands on space pawn. */
int av_octagon_castle(int pawn);
/* The castle a pawn stands in, or -1 for the club room / dinner table. */
int av_castle_at(int pawn);

int av_card_series(int card);          /* 0 = A … 5 = F */
int av_card_year(int card);
void av_card_name(int card, char out[4]);
int av_card_parse(const char *name);   /* -1 when not a card name */

int av_check_value(int check);         /* check = seat * 4 + k */
int av_check_by_value(int value, int seats);  /* -1 when unknown */
int av_thief_owner(int sack);          /* sack 1..10 */
int av_thief_sack(int seat, int k);    /* k = 0, 1 */

/* ---- sets.c: sets of collection cards ---- */

typedef uint64_t av_cards;  /* bit i = card i */

bool av_set_valid(av_cards set);
/* Larger is better: size first, then the oldest card. 0 for no set. */
long av_set_value(av_cards set);
bool av_hand_has_set(av_cards hand);
/* The hand's largest and most valuable set, 0 when it has none. */
av_cards av_best_set(av_cards hand);
/* Fills out with up to cap valid sets drawn from hand, the largest set of
 * each run of letters first; returns how many, *all says whether that is
 * every valid set. */
int av_sets_in(av_cards hand, av_cards *out, int cap, bool *all);

/* ---- the state ---- */

typedef enum av_variant {
    AV_VARIANT_NONE = 0,
    AV_VARIANT_COMBINED,   /* 2 players: location and action in one card */
    AV_VARIANT_ALTERNATE   /* 2 players: both go to the same place, which
                              alternates openly */
} av_variant;

typedef enum av_phase {
    AV_PHASE_LOCATION = 0,
    AV_PHASE_ACTION,
    AV_PHASE_PLAN,      /* combined variant: location and action at once */
    AV_PHASE_TAKE,      /* auction winner picks a face-up card */
    AV_PHASE_EXHIBIT,   /* exhibitors choose their sets, sealed */
    AV_PHASE_STEAL,     /* castle thieves pick their loot in turn */
    AV_PHASE_FINAL,     /* the final exhibition, sealed */
    AV_PHASE_OVER
} av_phase;

typedef enum av_location {
    AV_LOC_NONE = 0,
    AV_LOC_AUCTION,
    AV_LOC_CASTLE
} av_location;

typedef enum av_card {
    AV_CARD_NONE = 0,
    AV_CARD_CHECK,
    AV_CARD_THIEF,
    AV_CARD_DETECTIVE,
    AV_CARD_EXHIBIT,
    AV_CARD_NOTHING   /* alternate variant: nothing playable here */
} av_card;

typedef struct av_play {
    av_card card;
    int value;   /* check value, or thief sack number */
} av_play;

typedef struct av_lord {
    int pawn;               /* 0 club room, 1..36 track, 37+ dinner table */
    av_cards hand;          /* collection cards held */
    av_cards display;       /* cards on display at the castle right now */
    av_cards final_set;     /* the final exhibition, once revealed */
    bool chosen;            /* sealed choice made in the open decision */
    av_location sealed_location;
    av_play sealed_play;
    av_cards sealed_set;
    av_location location;   /* revealed location this turn */
    av_play play;           /* revealed action card this turn */
    uint32_t robbed;        /* exhibitors this Lord's thief robbed */
} av_lord;

typedef struct av_state {
    int seats;
    av_variant variant;
    av_phase phase;
    int turn;
    av_lord lord[AV_MAX_PLAYERS];
    int pile[2][AV_CARDS];   /* bottom first; the last is face up */
    int pile_count[2];
    int check_holder[AV_MAX_CHECKS];  /* seat or AV_CHECK_GONE */
    int prison[AV_MAX_PLAYERS];       /* sack per cell (#1 first), 0 empty */
    int auction_winner;               /* seat during AV_PHASE_TAKE, else -1 */
    int log_count;
    char log[AV_LOG_LINES][AV_LOG_WIDTH];
    rules_rng rng;
} av_state;

/* ---- moves.c / actions.c: one move in a form every file shares ---- */

typedef enum av_move_type {
    AV_MOVE_GO = 1,
    AV_MOVE_PLAY,
    AV_MOVE_TAKE,
    AV_MOVE_EXHIBIT,
    AV_MOVE_STEAL
} av_move_type;

typedef struct av_move {
    av_move_type type;
    av_location location;   /* GO; PLAY in the combined variant */
    av_play play;           /* PLAY */
    int card;               /* TAKE, STEAL */
    av_cards set;           /* EXHIBIT (0 = nothing) */
} av_move;

bool av_move_decode(const json_t *action, av_move *out, rules_error *err);
json_t *av_move_encode(const av_move *move);

const char *av_location_name(av_location location);
const char *av_phase_name(av_phase phase);
const char *av_variant_name(av_variant variant);
json_t *av_cards_json(av_cards cards);
/* Reads an array of card names; false on a bad or repeated name. */
bool av_cards_from_json(const json_t *array, av_cards *out);

/* ---- rules of play (moves.c) ---- */
void av_pending(const rules_state *state, rules_pending *out);
bool av_apply(rules_state *state, int seat, const json_t *action,
              rules_error *err);
json_t *av_legal(const rules_state *state, int seat);
/* The move made for this seat when its deadline passes (defaults.c). */
json_t *av_default_move(const rules_state *state, int seat);
/* Whether seat has a part in the open sealed decision. */
bool av_takes_part(const av_state *s, int seat);
/* Whether the rules allow move m of seat in this phase (not whether seat
 * is pending); false with the rule's sentence in err. */
bool av_move_allowed(const av_state *s, int seat, const av_move *m,
                     rules_error *err);
/* The move seat sealed in the open decision (only meaningful while his
 * "chosen" is set): what apply() kept of it. */
av_move av_sealed_move(const av_state *s, int seat);
/* The first phase of a turn (after setup and after each turn). */
void av_begin_turn(av_state *s);
bool av_thief_free(const av_state *s, int sack);
bool av_holds_check(const av_state *s, int seat, int value);
int av_current_thief(const av_state *s);
void av_log(av_state *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- resolve.c: what happens once a decision is complete ---- */
void av_reveal_locations(av_state *s);
void av_reveal_actions(av_state *s);
void av_finish_take(av_state *s, int card);
void av_reveal_exhibits(av_state *s);
void av_finish_steal(av_state *s, int thief_seat, int card);
void av_reveal_final(av_state *s);
/* How many lines at the head of the turn's log tell where each Lord went
 * and which card he played (av_reveal_locations, av_reveal_actions), known
 * by their words, so a hand-edited log is read right too: the text view
 * tells those from the Lords' fields instead. */
int av_log_reveal_lines(const av_state *s);
/* The space of the pawn furthest on (its castle's octagon applies). */
int av_leading_pawn(const av_state *s);
/* May seat play this card at this location now? */
bool av_play_allowed(const av_state *s, int seat, av_location location,
                     av_play play, rules_error *err);
bool av_location_allowed(const av_state *s, int seat, av_location location,
                         rules_error *err);

/* ---- tell.c ---- */
/* What actor's action did, told to viewer (rules.h tell). */
char *av_tell(const rules_state *before, const rules_state *after, int actor,
              const json_t *action, int viewer, const char *const *names);

/* ---- setup.c ---- */
json_t *av_describe_options(void);
rules_state *av_setup(const json_t *options, int seats,
                      const uint8_t seed[RULES_SEED_BYTES], rules_error *err);
rules_state *av_clone(const rules_state *state);
void av_destroy(rules_state *state);

/* ---- notation.c ---- */
#define AV_MOVE_TEXT 256  /* room for any move's text, NUL included */
/* The move as a person types it ("play thief 6", "exhibit A1 A2 B3"). */
void av_move_text(const av_move *move, char text[AV_MOVE_TEXT]);
/* Reads a typed move into *out (the form only, not its legality); s may
 * be NULL, and then "play thief" names no thief (sack 0). False with err
 * filled when the words are not a move. */
bool av_move_read(const av_state *s, int seat, const char *text,
                  av_move *out, rules_error *err);
char *av_format_move(const rules_state *state, int seat, const json_t *action);
json_t *av_parse_move(const rules_state *state, int seat, const char *text,
                      rules_error *err);

/* ---- page.c: plain text for people ---- */
#define AV_PAGE_WIDTH 72

/* Text built paragraph by paragraph; start from (av_page){0}. */
typedef struct av_page {
    char *text;
    size_t length, size;
    int lines;
} av_page;

/* Adds one paragraph (no newline in it), wrapped between words at
 * AV_PAGE_WIDTH characters, later lines indented by two spaces. */
void av_page_say(av_page *page, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An empty line, unless the page is empty or already ends in one. */
void av_page_blank(av_page *page);
/* The lines paragraph takes once wrapped. */
int av_page_lines(const char *paragraph);
/* The text (malloc'd, the caller frees; "" for an empty page); the page
 * is empty again afterwards. */
char *av_page_text(av_page *page);

/* ---- view.c, view_text.c, score.c, save.c, load.c, check.c ---- */
json_t *av_view(const rules_state *state, int seat);
/* The view for people (rules_engine.view_text); malloc'd. */
char *av_view_text(const rules_state *state, int seat);
json_t *av_result(const rules_state *state);
json_t *av_save(const rules_state *state);
rules_state *av_load(const json_t *snapshot, rules_error *err);
bool av_check(const rules_state *state, rules_error *err);

#endif
