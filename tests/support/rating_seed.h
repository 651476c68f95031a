/* rating_seed.h: a rating written on the test database as a run of
 * rated matches would have left it, for tests of what people read of
 * standings (mail, pbem) that cannot play the dozen matches it takes. */
#ifndef TESTS_SUPPORT_RATING_SEED_H
#define TESTS_SUPPORT_RATING_SEED_H

/* Gives the player named name (DATABASE_URL's players) rating in game,
 * deviation 60 after 30 rated matches with 15 wins; fails the test when
 * no player has that name. */
void rating_seed(const char *name, const char *game, double rating);

#endif
