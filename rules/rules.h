/* rules.h: the one interface every game engine implements.
 *
 * An engine is a pure, deterministic function of (options, seat count, seed,
 * actions): no I/O, no clock, no global mutable state. The service, the
 * workbench and the tests only ever talk to an engine through the
 * rules_engine table below, so a game can be added without touching them.
 *
 * JSON (jansson) is the lingua franca: options, actions, views, legal moves,
 * results and snapshots are JSON values. Reference rules: a function that
 * returns json_t * returns a NEW reference the caller must json_decref; a
 * const json_t * argument is BORROWED and never kept.
 *
 * Seats are numbered 0 .. seats-1 in play order ("clockwise" = increasing).
 */
#ifndef RULES_RULES_H
#define RULES_RULES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RULES_MAX_SEATS 8
#define RULES_SEED_BYTES 32
/* Pass as the seat of view() for the public (spectator) view. */
#define RULES_SPECTATOR (-1)

/* Every rejection carries one sentence a player can read, naming the rule
 * that forbids the move: "you may only pick up the discard pile after you
 * have started a collection". */
typedef struct rules_error {
    char message[256];
} rules_error;

/* Fills err (if not NULL) with a printf-style sentence and returns false, so
 * a check reads: if (bad) return rules_fail(err, "…"); */
bool rules_fail(rules_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Who must act now. */
typedef enum rules_wait {
    RULES_WAIT_NOBODY = 0,     /* the match is over */
    RULES_WAIT_ONE,            /* exactly one seat acts (seats has one bit) */
    RULES_WAIT_ANY_ORDER,      /* each listed seat acts once, in any order;
                                  the choices are public as they are made */
    RULES_WAIT_SIMULTANEOUS    /* each listed seat chooses in secret; the
                                  choices are sealed by the service until all
                                  are in, then applied in seat order */
} rules_wait;

typedef struct rules_pending {
    rules_wait wait;
    uint32_t seats;      /* bit s set: seat s still has to act */
    /* For RULES_WAIT_SIMULTANEOUS: an id that names this decision and is
     * unique within the match ("r2-t14-location"). The service binds
     * commitments to it. Empty otherwise. */
    char decision[64];
    /* What is being waited for, in words, for notifications:
     * "draw 2 cards or pick up the discard pile". */
    char prompt[160];
} rules_pending;

/* A wait whose length the rules themselves set, for the service's clock
 * (rules_engine.window): Another Man's Treasure's "Can I have it?" window
 * stays open claim_window_hours when nobody acts. */
typedef struct rules_window {
    uint32_t seats;    /* bit s set: pending seat s waits in the window */
    long long seconds; /* how long the window waits for them, counted from
                          when they began to wait in it; 0: not at all */
    /* Names the window for the service, which keeps a seat's clock while
     * the seat stays in a window of the same id: a window that opens in
     * the same step as another closes must get another id ("r2-next1").
     * It need not be unique within the match. */
    char id[64];
} rules_window;

/* Each engine defines its own state; the interface only passes pointers. */
typedef struct rules_state rules_state;

typedef struct rules_engine {
    const char *name;      /* stable key in URLs and the database:
                              "antiquity_quest" */
    const char *title;     /* "Antiquity Quest" */
    /* Bump whenever a change would replay an existing event log
     * differently; the service refuses to replay a match under another
     * version. */
    int version;
    int min_seats;
    int max_seats;

    /* The match options: a JSON object mapping each option name to
     * {"type": "boolean"|"integer"|"string", "default": …,
     *  "description": "…"} plus "enum" for strings and "minimum"/"maximum"
     * for integers. The defaults are the rulebook's basic game. */
    json_t *(*describe_options)(void);

    /* A new match. options may be NULL or omit any option (defaults
     * apply); unknown options, wrong types and seat counts the options do
     * not allow are rejected with err filled and NULL returned. All
     * randomness of the match comes from seed, through rules_rng. */
    rules_state *(*setup)(const json_t *options, int seats,
                          const uint8_t seed[RULES_SEED_BYTES],
                          rules_error *err);

    rules_state *(*clone)(const rules_state *state);
    void (*destroy)(rules_state *state);

    /* Who must act now; fills *out completely. */
    void (*pending)(const rules_state *state, rules_pending *out);

    /* Applies one action of one seat. Returns true and changes state, or
     * returns false with err filled and leaves state exactly as it was.
     * A seat that is not pending is rejected. During a simultaneous
     * decision the engine keeps each seat's choice (hidden from every
     * other seat's view) and resolves the decision when the last pending
     * seat has chosen. */
    bool (*apply)(rules_state *state, int seat, const json_t *action,
                  rules_error *err);

    /* What seat may see (RULES_SPECTATOR: the public view). Never contains
     * information hidden from that seat: others' hands, face-down cards,
     * the order of the draw pile, sealed choices, the seed. */
    json_t *(*view)(const rules_state *state, int seat);

    /* The moves seat may make now:
     * {"moves": [action, …], "complete": true|false, "forms": ["text", …]}
     * "moves" lists concrete actions apply() accepts. "complete" is true
     * when "moves" is every legal action (apply rejects anything else);
     * false when there are too many and "moves" is a sample that still
     * includes at least one move of every kind. "forms" describes the
     * move forms in text notation for people ("play CARD CARD CARD…").
     * A seat that may not act gets {"moves": [], "complete": true}. */
    json_t *(*legal)(const rules_state *state, int seat);

    /* Text notation a person can type in an email ("play red1 red3 red5").
     * format_move returns a malloc'd string (caller frees) or NULL if the
     * action is not well formed. parse_move returns the action (new
     * reference) or NULL with err filled. For every action legal() lists,
     * parse_move(format_move(a)) equals a. Parsing checks the form, not
     * legality: apply() judges that. */
    char *(*format_move)(const rules_state *state, int seat,
                         const json_t *action);
    json_t *(*parse_move)(const rules_state *state, int seat,
                          const char *text, rules_error *err);

    /* What seat may see, as plain text for people: the mails, the answers
     * to mailed commands and the workbench's view --text. About 10 to 30
     * lines of at most 72 characters, reading well in a fixed-width and a
     * proportional font (no alignment by spaces that matters), naming
     * cards, dice, places and moves exactly as the notation does: the
     * seat's hand, the table, the scores and whose turn it is.
     * RULES_SPECTATOR gives the public view. Shows nothing view() would
     * not show that seat. A malloc'd string ending in a newline; the
     * caller frees it. */
    char *(*view_text)(const rules_state *state, int seat);

    /* Scores so far and, once the match is over, the final ranking with
     * the rulebook's tie-breaks:
     * {"over": bool, "scores": [int per seat], "ranking": [[seat, …], …]
     *  (places, best first; seats sharing a place share an array),
     *  "detail": engine-specific breakdown,
     *  "reason": once over, why the match ended, a sentence naming the
     *            rule ("Four Wild piles were empty."),
     *  "tie_break": once over and only when the rulebook's tie-break
     *               separated seats with equal scores, a sentence naming
     *               it ("Tied at 41: Ann holds more money.")}.
     * Where "detail" itemises a seat's score, its parts add up to the
     * score; counts that are not points (tie-breakers) are labelled so. */
    json_t *(*result)(const rules_state *state);

    /* A complete snapshot (everything, hidden information included) and
     * its inverse. load(save(s)) behaves exactly like s and
     * save(load(save(s))) is equal to save(s). load validates its input
     * (it may have been edited by hand) and returns NULL with err filled
     * when the snapshot is malformed or breaks an invariant.
     *
     * A snapshot is also the position form a referee edits by hand to
     * settle a dispute, so it is written for people: cards, dice, faces,
     * phases and places by the names the notation uses; load accepts
     * lists in any order, fills in every field that can be derived from
     * the others, and names the field and the value in each error
     * ("draw_pile[3]: there is no card \"B11\""). Stored snapshots are
     * only caches: the service replays the log when one no longer loads. */
    json_t *(*save)(const rules_state *state);
    rules_state *(*load)(const json_t *snapshot, rules_error *err);

    /* Every invariant of the engine (each card, die, coin in exactly one
     * place; no negative counts; the running score equals the score
     * recomputed from scratch). Returns false with the first broken
     * invariant named in err. */
    bool (*check)(const rules_state *state, rules_error *err);

    /* OPTIONAL (may be NULL). The move the engine makes for a seat that
     * must act now but let its deadline pass (the service's "default_move"
     * and "skip" deadline actions; a sealed decision's choice for a seat
     * that did not commit or reveal): something apply() accepts for seat in
     * state, chosen by a fixed rule the engine's README names, so that a
     * match of absent players still ends. A new reference, or NULL when seat
     * may not act. Without this function the service plays the first move
     * legal() lists. */
    json_t *(*default_move)(const rules_state *state, int seat);

    /* OPTIONAL (may be NULL: the engine has no such window). Whether some
     * pending seats wait in a window the rules bound in time (a match
     * option, not the service's deadlines, says how long): fills *out and
     * returns true, or zeroes *out and returns false. Never during a
     * RULES_WAIT_SIMULTANEOUS decision; out->seats is a subset of
     * pending's seats. When the window's time is up the service plays, for
     * every seat still in it, the {"type": "pass"} legal() lists for that
     * seat, so each of them must be offered one. Pure, like everything
     * here: the engine says how long, the service keeps the time. */
    bool (*window)(const rules_state *state, rules_window *out);

    /* OPTIONAL (may be NULL: view_text does not start from view()). The
     * same text as view_text(state, seat), written from view, which the
     * caller has built already as view(state, seat) (borrowed): a caller
     * that needs both builds the view once. */
    char *(*view_text_of_view)(const rules_state *state, int seat,
                               const json_t *view);

    /* OPTIONAL (may be NULL: rules_tell says "Bob: <notation>."). What
     * happened when seat actor played action, told to viewer (a seat, or
     * RULES_SPECTATOR for the public): one to three sentences, past tense,
     * at most 300 characters, saying the move's outcome and not only the
     * move ("You drew mask and blue5." to the drawer, "Bob drew 2 cards."
     * to the others; "Bob attacked with Quake Dragon (4): your Squire (3)
     * was destroyed. Bob scored 2 glory."; "Round 1 scored: Carol 175,
     * Bob 30, Alice 0."). before is the state action was applied to and
     * after the state it gave (both borrowed). names[s] is seat s's name
     * (borrowed, one per seat); the viewer's own seat is told in the second
     * person ("You drew", "your Squire"). Names nothing viewer may not see
     * in before or after: a card another seat drew is counted, not named;
     * a sealed choice is told only once the decision is resolved. A
     * malloc'd string without a trailing newline (the caller frees it), or
     * NULL when the engine has nothing better than the notation. */
    char *(*tell)(const rules_state *before, const rules_state *after,
                  int actor, const json_t *action, int viewer,
                  const char *const *names);
} rules_engine;

/* The registry of engines compiled into this build, in a stable order.
 * Returns a NULL-terminated array; never NULL. */
const rules_engine *const *rules_engines(void);

/* The engine called name, or NULL. */
const rules_engine *rules_find(const char *name);

/* A default move picked from a legal() answer (borrowed): preferences is
 * a JSON array of patterns, best first; a move matches a pattern when it
 * has every key of the pattern with an equal value
 * ([{"type":"go","location":"castle"}, {"type":"pass"}]). Returns the first
 * listed move matching the first pattern that matches any, else the first
 * move listed: a new reference, or NULL when nothing is listed. Aborts on a
 * malformed preferences text (a programming error). For default_move. */
json_t *rules_pick_move(const json_t *legal, const char *preferences);

/* What happened when actor played action, told to viewer, as
 * rules_engine.tell says: the engine's sentence, or "Bob: <notation>."
 * ("You: …" to actor) when it has none. Never NULL; the caller frees it.
 * Aborts on out of memory. */
char *rules_tell(const rules_engine *engine, const rules_state *before,
                 const rules_state *after, int actor, const json_t *action,
                 int viewer, const char *const *names);

/* text with every "seat N" (N < seats) written as names[N], for the
 * sentences result() gives ("reason", "tie_break"), which know seats, not
 * names. A malloc'd string; aborts on out of memory. */
char *rules_name_seats(const char *text, const char *const *names, int seats);

/* Counts the seats set in a pending mask. */
int rules_seat_count(uint32_t seats);

/* The name of a wait in JSON: "nobody", "one", "any_order" or
 * "simultaneous" (what clients, views and notifications show). */
const char *rules_wait_name(rules_wait wait);

/* A JSON value as jansson dumps it, compact with keys sorted, so equal
 * values give equal bytes (snapshots, sealed choices' commitments, stored
 * options and answers). Not RFC 8785: the hash chain takes its bytes from
 * service/ledger/canonical.h (only events older than that used these).
 * Caller frees. Aborts on out of memory. */
char *rules_sorted_json(const json_t *value);

/* Reads options for setup(): checks that every key of options is declared
 * in declared (the describe_options() object) with the right type and
 * range, and returns a new object holding every declared option with its
 * value or default. NULL with err filled on the first bad option. */
json_t *rules_resolve_options(const json_t *declared, const json_t *options,
                              rules_error *err);

#endif
