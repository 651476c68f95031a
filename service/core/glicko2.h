/* glicko2.h: Glicko-2 ratings, as Mark Glickman publishes the algorithm
 * ("Example of the Glicko-2 system", glicko.net/glicko/glicko2.pdf): a
 * rating, its deviation (how unsure it is) and its volatility (how much
 * it swings), updated once per rating period from that period's results.
 * Pure arithmetic: no clock, no state. play/ratings.h decides what a
 * period and a result are for a match (docs/lobby.md). */
#ifndef SERVICE_CORE_GLICKO2_H
#define SERVICE_CORE_GLICKO2_H

/* On the Glicko scale (a newcomer is 1500, deviation 350). */
typedef struct glicko2_rating {
    double rating;
    double deviation;
    double volatility;
} glicko2_rating;

/* Someone who has never played a rated match. */
#define GLICKO2_NEWCOMER ((glicko2_rating){1500.0, 350.0, 0.06})

/* The system constant: how much the volatility may change in a period.
 * Glickman suggests 0.3 to 1.2; his worked example uses 0.5. */
#define GLICKO2_TAU 0.5

/* One result of the period: against opponent (their rating before the
 * period), score 1 a win, 0.5 a draw, 0 a loss. */
typedef struct glicko2_game {
    glicko2_rating opponent;
    double score;
} glicko2_game;

/* player's rating after a period with count games (0: only the deviation
 * grows, as for a period without play), tau the system constant. */
glicko2_rating glicko2_update(glicko2_rating player, const glicko2_game *games,
                              int count, double tau);

#endif
