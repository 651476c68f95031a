/* qq_turn.h: the verbs the files of the turn share (play.c hands each
 * move to the phase it belongs to). Nothing here is seen outside
 * rules/quarriors/, and only the files that play a turn include it.
 */
#ifndef RULES_QUARRIORS_QQ_TURN_H
#define RULES_QUARRIORS_QQ_TURN_H

#include "qq_internal.h"

/* What a phase handler (the functions named *_move) made of a move. A
 * refused move may have changed the state half way: the engine throws
 * the scratch copy away (engine.c). */
typedef enum qq_move_result {
    QQ_MOVE_APPLIED,     /* played */
    QQ_MOVE_REFUSED,     /* refused; err holds the sentence for the player */
    QQ_MOVE_NOT_HANDLED  /* another phase's move: the phase has changed to
                            it, and its handler plays or refuses the move */
} qq_move_result;

/* rules_fail for a handler: fills err and returns QQ_MOVE_REFUSED. */
qq_move_result qq_refuse(rules_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The answer of a step that returns false when it refused (err filled). */
static inline qq_move_result qq_applied_if(bool ok)
{
    return ok ? QQ_MOVE_APPLIED : QQ_MOVE_REFUSED;
}

/* dice.c: where the dice go. */
int qq_roll(qq_state *st);
void qq_return_quest_die(qq_state *st, int e);
void qq_leave_play(qq_state *st, int d);
void qq_draw(qq_state *st, int seat, int n);
bool qq_pay(qq_state *st, int cost, rules_error *err);
bool qq_take_from_wilds(qq_state *st, int slot);

/* arguments.c: a move's arguments, checked; qq_refuse. */
bool qq_die_arg(const qq_state *st, const json_t *action, const char *key,
                int *out, rules_error *err);
bool qq_own_active(const qq_state *st, int d, rules_error *err);
int qq_dice_list(const qq_state *st, const json_t *action, int16_t *out,
                 rules_error *err);
int qq_slot_by_card(const qq_state *st, const json_t *action);
int qq_quest_by_name(const qq_state *st, const json_t *action);

/* turn.c: the turn's beginning and end, glory. */
void qq_add_glory(qq_state *st, int seat, int *part, int amount);
void qq_begin_main(qq_state *st);
void qq_end_turn(qq_state *st);

/* scoring.c: phase 1. */
int qq_score_glory(const qq_state *st, int d, int scoring);
void qq_score_ready(qq_state *st);
void qq_after_scoring(qq_state *st);
qq_move_result qq_cull_move(qq_state *st, const char *type,
                            const json_t *action, rules_error *err);
qq_move_result qq_first_move(qq_state *st, const char *type,
                             const json_t *action, rules_error *err);

/* quest_reward.c: a completed quest's glory and quest die. */
void qq_after_cull(qq_state *st);
qq_move_result qq_seize_move(qq_state *st, const char *type,
                             const json_t *action, rules_error *err);
qq_move_result qq_special_move(qq_state *st, const char *type,
                               const json_t *action, rules_error *err);

/* triggers.c: scoring powers that give their owner a choice. */
void qq_next_trigger(qq_state *st);
qq_move_result qq_trigger_move(qq_state *st, const char *type,
                               const json_t *action, rules_error *err);

/* main_phase.c: phase 2 and the choice of phase 3. */
qq_move_result qq_main_move(qq_state *st, const char *type,
                            const json_t *action, rules_error *err);

/* spells.c */
bool qq_cast_spell(qq_state *st, int seat, int d, const json_t *action,
                   rules_error *err);
bool qq_use_immediate(qq_state *st, int d, const json_t *action,
                      rules_error *err);

/* destroy.c */
void qq_destroy(qq_state *st, int d, int killer);

/* attack.c: phase 3 against the opponents. */
void qq_attack_with_the_rest(qq_state *st);
void qq_start_damage(qq_state *st);
void qq_next_attack(qq_state *st);
qq_move_result qq_defend_move(qq_state *st, int seat, const char *type,
                              const json_t *action, rules_error *err);

/* challenge.c: quest challenges. */
void qq_challenge_orders(qq_state *st);
void qq_challenge_after(qq_state *st);
qq_move_result qq_challenge_move(qq_state *st, int seat, const char *type,
                                 const json_t *action, rules_error *err);
qq_move_result qq_takeover_move(qq_state *st, const char *type,
                                rules_error *err);

/* reactions.c: reaction windows. */
void qq_ask_from(qq_state *st, int from);
bool qq_open_window(qq_state *st, uint32_t mask, int first, int resume);
void qq_post_window(qq_state *st, int first, int resume);
void qq_come_back(qq_state *st, int d);
qq_move_result qq_react_move(qq_state *st, int seat, const char *type,
                             const json_t *action, rules_error *err);

/* capture.c: phase 4. */
qq_move_result qq_capture_move(qq_state *st, const char *type,
                               const json_t *action, rules_error *err);

#endif
