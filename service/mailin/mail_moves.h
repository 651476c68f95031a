/* mail_moves.h: a mailed line as the match's rules read it, and what a
 * move did, in words: whether a line is a move at all in the sender's
 * game (so a chat line is answered "not a move", never with a rule about
 * turns), whether it is a move the sender may make now, and the sentence
 * the engine tells of a move once applied (rules_tell) or of a sealed
 * choice kept. */
#ifndef SERVICE_MAILIN_MAIL_MOVES_H
#define SERVICE_MAILIN_MAIL_MOVES_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/apierr.h"

typedef enum mail_moves_reading {
    MAIL_MOVES_NO_SEAT,    /* the player has no seat in the match */
    MAIL_MOVES_NOT_A_MOVE, /* no move of this game is written so */
    MAIL_MOVES_A_MOVE,     /* a move's form; the rules judge it when made */
    MAIL_MOVES_LEGAL,      /* a move the sender's seat may make now */
} mail_moves_reading;

/* How the rules of match read line for player's seat, at the match's
 * head. A match that has not started reads every line as A_MOVE (the
 * move's refusal then says why). False with err filled when the match
 * could not be read. */
bool mail_moves_read(long long match_id, long long player_id, const char *line,
                     mail_moves_reading *reading, apierr *err);

/* Writes what the move at event seq of match did, told to player's seat
 * ("You drew mask and blue5."), without a line end. False with err filled
 * when the match could not be read. */
bool mail_moves_tell(FILE *out, long long match_id, long long seq,
                     long long player_id, apierr *err);

/* Writes the confirmation of a sealed choice: "Sealed: go auction.
 * Nobody sees it until everyone has chosen; waiting for Carol and Bob."
 * line is what the player wrote; committed is decisions_commit's answer
 * (the answer to a move that names a "decision")
 * (borrowed), whose pending seats are the ones still to choose. False with
 * err filled when the match could not be read. */
bool mail_moves_tell_sealed(FILE *out, long long match_id, long long player_id,
                            const char *line, const json_t *committed,
                            apierr *err);

#endif
