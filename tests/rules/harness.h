/* harness.h: the checks every engine must pass, whatever its game.
 *
 * harness_random_play plays complete random matches through the rules_engine
 * interface alone, choosing uniformly among the moves legal() lists, and
 * after every move asserts (with Criterion) what ARCHITECTURE.md asks of
 * every engine:
 *   - pending() names at least one seat until the match is over, and each
 *     pending seat has a legal move; a seat that is not pending has none;
 *   - every listed move is accepted by apply(); check() holds after it;
 *   - a move applied by a seat that may not act is rejected, with a
 *     sentence, and leaves the state byte-identical;
 *   - when legal() says its list is complete, moves that were legal earlier
 *     but are not listed now are rejected and leave the state unchanged;
 *   - every listed move prints to text and parses back to the same action;
 *   - save/load round-trips to identical canonical bytes, and clone() too;
 *   - no view leaks the snapshot's seed;
 *   - view_text gives every seat and the spectator
 *     3 to 40 lines of at most 72 characters, ending in a newline, without
 *     control characters or the seed; an engine's view_text_of_view
 *     (when it has one) gives the same text from view()'s answer;
 *   - the match ends within max_moves, result() then says "over" and ranks
 *     every seat;
 *   - replaying the recorded (seat, action) list from the same seed gives a
 *     byte-identical final snapshot (determinism);
 *   - an engine's default_move (when it has one) is accepted for every
 *     pending seat and absent for the others;
 *   - what rules_tell tells every seat and the spectator about each move
 *     (the engine's tell, or the fallback) keeps harness_tell_problem's
 *     promises.
 * Engine-specific checks (secrecy of hands, invariants) belong in check()
 * and the engine's own tests; the optional after_move hook lets a suite add
 * its own assertions on every position.
 */
#ifndef TESTS_RULES_HARNESS_H
#define TESTS_RULES_HARNESS_H

#include <stdint.h>

#include "rng.h"
#include "rules.h"

typedef struct harness_config {
    const rules_engine *engine;
    const char *options_json;  /* NULL: the defaults */
    int seats;
    int matches;               /* complete matches to play */
    int max_moves;             /* a match longer than this fails the test */
    uint64_t first_seed;       /* match i uses seed derived from first_seed+i */
    /* Called after every accepted move; may be NULL. */
    void (*after_move)(const rules_engine *engine, const rules_state *state,
                       int seat, const json_t *action);
} harness_config;

typedef struct harness_stats {
    long matches;
    long moves;
    long rejected_probes;  /* illegal moves tried and correctly rejected */
    long text_round_trips;
    long hostile_actions;  /* malformed actions fed by harness_hostile_moves */
    long hostile_texts;    /* malformed text moves parsed by it */
} harness_stats;

/* Plays cfg->matches random matches (times harness_soak_factor()); fails
 * the running Criterion test on the first broken promise, naming the match
 * seed and move number. The moves chosen follow from the match number, so
 * a failure replays exactly on every run. */
void harness_random_play(const harness_config *cfg, harness_stats *stats);

/* Plays cfg->matches random matches (times harness_soak_factor()) and, at
 * the first moves and every few moves after, feeds the engine the moves a
 * hostile player can send: mutations of the legal moves listed there, for
 * every pending seat and for one seat that may not act. Each field of an
 * action (and of objects and arrays inside it) is replaced by null, true,
 * extreme integers and reals, empty, huge and control-character strings,
 * empty and huge arrays, {} and a 200-deep array; each field is removed; an
 * unknown field is added; "type" takes every other type seen and nonsense;
 * array elements are replaced, duplicated, and arrays emptied, truncated and
 * grown; the whole action becomes a non-object. Each listed move's text is
 * truncated at every word, has words doubled, numbers replaced by -1, 0 and
 * 99999999999999999999, random bytes spliced in, and empty and 5000-character
 * texts are parsed too; what parses is fed like an action.
 * Every hostile action goes to format_move (NULL allowed) and then to apply
 * on a clone: a refusal must carry a sentence and leave the state
 * byte-identical, an acceptance must keep check() true (and never happen for
 * a seat that may not act); a text that does not parse must carry a
 * sentence. A crash or sanitizer report fails the running test; set
 * PBEM_HOSTILE_TRACE=1 to print each hostile action before it is fed. */
void harness_hostile_moves(const harness_config *cfg, harness_stats *stats);

/* harness_hostile_moves for an engine's suite: every match played, and
 * hostile actions and texts fed (logged with their counts). */
void harness_expect_hostile_moves_harmless(const harness_config *cfg);

/* Plays cfg->matches matches in which every seat is absent: the lowest
 * pending seat always plays engine->default_move (the service's deadline
 * action). Fails the test when a default move is missing or refused, or
 * when the match does not end within cfg->max_moves. */
void harness_default_play(const harness_config *cfg, harness_stats *stats);

/* Three such matches of engine with options (JSON text or NULL) and seats,
 * seeds from seed on: each must end, with at least one move played. */
void harness_expect_absent_players_finish(const rules_engine *engine,
                                          const char *options, int seats,
                                          uint64_t seed);

/* PBEM_SOAK from the environment (1 when unset): `make soak` sets it to
 * play many more random matches than `make test` has time for. Suites that
 * count the matches they played multiply their expectation by it. */
int harness_soak_factor(void);

/* Starts the generator random play chooses its moves with for match
 * number n (draw with rules_rng_below): the same moves on every run, so a
 * failure there plays again exactly. */
void harness_moves_rng(uint64_t n, rules_rng *rng);

/* Derives the 32-byte seed harness_random_play uses for match number n. */
void harness_seed(uint64_t n, uint8_t seed[RULES_SEED_BYTES]);

/* Applies a text move for seat, failing the test with the engine's sentence
 * if it is rejected. For scripted rulebook examples. */
void harness_apply_text(const rules_engine *engine, rules_state *state,
                        int seat, const char *text);

/* Asserts that a text move for seat is rejected, leaves the state unchanged,
 * and that the rejection's sentence contains expected_words (may be NULL). */
void harness_reject_text(const rules_engine *engine, rules_state *state,
                         int seat, const char *text,
                         const char *expected_words);

/* The names the harness gives seats 0, 1, 2… when it asks for a tell:
 * "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi". */
extern const char *const harness_names[RULES_MAX_SEATS];

/* What is wrong with told, the sentence rules_tell gave viewer (a seat or
 * RULES_SPECTATOR) when actor played action on before, giving after: more
 * than 300 characters, empty, a control character, the snapshot's seed, or
 * a hidden word. A hidden word is a word of a string of save(before) or
 * save(after) (cards, dice, places) that is in neither view(viewer) of
 * before nor of after, nor in the move's notation when the move is public
 * to viewer (viewer is the actor, or the move was not a sealed choice);
 * numbers are not words here. A malloc'd sentence naming the problem, or
 * NULL when there is none. */
char *harness_tell_problem(const rules_engine *engine,
                           const rules_state *before, const rules_state *after,
                           int actor, const json_t *action, int viewer,
                           const char *told);

/* Asserts harness_tell_problem finds nothing wrong in what rules_tell
 * tells each of seats seats and the spectator about actor's action on
 * before, which gave after; where names the position in a failure. */
void harness_check_tells(const rules_engine *engine, const rules_state *before,
                         const rules_state *after, int actor,
                         const json_t *action, int seats, const char *where);

/* Applies a text move for seat like harness_apply_text and fills
 * told[1 + viewer] with what rules_tell tells each seat (told[0]: the
 * spectator), seats named by harness_names; each sentence must pass
 * harness_tell_problem. Free with harness_told_free. For tests of an
 * engine's sentences at a known position. */
void harness_apply_text_told(const rules_engine *engine, rules_state *state,
                             int seat, const char *text,
                             char *told[RULES_MAX_SEATS + 1]);

/* For harness_config.after_move: asserts that pending()'s prompt reads
 * well in the sentences the service builds around it, "Your turn: PROMPT."
 * and "it is not your turn: waiting for another seat to PROMPT": a
 * lower-case phrase starting with a verb, without a colon or semicolon (one
 * sentence, not two glued) and without "you" or "your" (it speaks of
 * whoever acts). */
void harness_expect_prompt_phrase(const rules_engine *engine,
                                  const rules_state *state, int seat,
                                  const json_t *action);

/* Frees what harness_apply_text_told filled. */
void harness_told_free(char *told[RULES_MAX_SEATS + 1]);

#endif
