/* mail_ratings.h: "ratings [GAME]" in a mail (docs/lobby.md): a game's
 * standings in words, as GET /v1/games/{game}/ratings gives them: its
 * best 10 players, each with rating, rated games, wins and reliability,
 * then the asker's own line. Without GAME, the game of the match the
 * mail answers; in a mail about no match, the asker's rating in each
 * game they have played rated. Names only, never an address. */
#ifndef SERVICE_MAILIN_MAIL_RATINGS_H
#define SERVICE_MAILIN_MAIL_RATINGS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/apierr.h"

/* How many players of a game's standings a mail lists. */
#define MAIL_RATINGS_TOP 10

/* Writes the answer to "ratings" followed by words[0..count) (the game's
 * name or title, or nothing) to out, for player_id (0: not a player yet,
 * then only a game's standings) writing about match_id (or 0). False
 * with err filled: 404 unknown_game, 400 which_game, or 5xx. */
bool mail_ratings_show(FILE *out, long long player_id, long long match_id,
                       char *const *words, int count, apierr *err);

#endif
