/* game_rules.h: each game's rules summary for players, in our own words
 * (templates/rules/<game>.txt): what the game is, a turn, how it ends, and
 * the move notation with one example of each form. The mail door's
 * "rules GAME", GET /v1/games/{game} and the page /games/<game> all show
 * this one text. */
#ifndef SERVICE_PLAY_GAME_RULES_H
#define SERVICE_PLAY_GAME_RULES_H

/* The summary of the game whose engine name is game ("antiquity_quest"),
 * read from the templates folder: plain text, lines of at most 72
 * characters, ending in a newline. A malloc'd string the caller frees, or
 * NULL when the game has no summary file or it cannot be read. */
char *game_rules_summary(const char *game);

#endif
