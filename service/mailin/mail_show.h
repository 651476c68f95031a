/* mail_show.h: what the answers to mailed commands show, as plain text
 * for people: a match as the seat sees it with the moves it may make,
 * the log, a player's matches and the games. */
#ifndef SERVICE_MAILIN_MAIL_SHOW_H
#define SERVICE_MAILIN_MAIL_SHOW_H

#include <stdbool.h>
#include <stdio.h>

#include "auth/caller.h"
#include "core/apierr.h"

/* Where a match stands for a seat, once shown. */
typedef enum mail_show_turn {
    MAIL_SHOW_NOT_ACTIVE, /* not begun, or over */
    MAIL_SHOW_WAITING,    /* it goes on without the seat acting */
    MAIL_SHOW_YOUR_TURN,  /* the seat is asked to act (or to reveal) */
} mail_show_turn;

/* The match as who's seat sees it: the view for people, whose turn it is
 * and the moves who may make, short and grouped by form; where it stands
 * for the seat into *turn (may be NULL). */
bool mail_show_match(FILE *out, const caller *who, long long match_id,
                     mail_show_turn *turn, apierr *err);

/* The events since player's last move in match, or the last count (> 0),
 * one line each. */
bool mail_show_log(FILE *out, long long player_id, long long match_id,
                   int count, apierr *err);

/* The player's matches (the 20 latest), with whose turn it is. */
bool mail_show_matches(FILE *out, long long player_id, apierr *err);

/* The games, their seats and options. */
void mail_show_games(FILE *out);

/* The rules in short of the game named by words (count of them: its name
 * "antiquity_quest", or its title's words "Antiquity Quest", in any case),
 * with a link to its page. False with err filled (404) when no game has
 * that name. */
bool mail_show_rules(FILE *out, char *const *words, int count, apierr *err);

/* The rules in short of match_id's game, as mail_show_rules. */
bool mail_show_match_rules(FILE *out, long long match_id, apierr *err);

#endif
