/* test_ratings.c: pbem ratings prints a game's 10 best rated players and
 * the asker's own line, or a player's ratings in every game, in the mail
 * door's words. The ratings are written on the database as rated matches
 * would have left them (a dozen matches would take minutes to play). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/rating_seed.h"
#include "players_run.h"

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

static const char top[] =
    "Antiquity Quest standings, the best first (Glicko-2; a newcomer is "
    "1500):\n"
    "  1. Abel: rating 1900, 30 rated games, 15 wins, no turns yet\n"
    "  2. Bruna: rating 1880, 30 rated games, 15 wins, no turns yet\n"
    "  3. Cosimo: rating 1860, 30 rated games, 15 wins, no turns yet\n"
    "  4. Delia: rating 1840, 30 rated games, 15 wins, no turns yet\n"
    "  5. Ezio: rating 1820, 30 rated games, 15 wins, no turns yet\n"
    "  6. Fosca: rating 1800, 30 rated games, 15 wins, no turns yet\n"
    "  7. Gino: rating 1780, 30 rated games, 15 wins, no turns yet\n"
    "  8. Ilaria: rating 1760, 30 rated games, 15 wins, no turns yet\n"
    "  9. Lapo: rating 1740, 30 rated games, 15 wins, no turns yet\n"
    " 10. Mirta: rating 1720, 30 rated games, 15 wins, no turns yet\n";

Test(pbem_players, ratings_the_top_ten_and_your_own_line, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    static const char *names[] = {"Abel", "Bruna", "Cosimo", "Delia",
                                  "Ezio", "Fosca", "Gino",   "Ilaria",
                                  "Lapo", "Mirta", "Nando"};
    e2e_player nando;
    for (int i = 0; i < 11; i++) {
        e2e_register(&server, names[i], &nando);
        rating_seed(names[i], "antiquity_quest", 1900 - 20 * i);
    }
    pl_person jo;
    pl_person_new(&jo, "jo");
    pl_sign_up(&jo, url, "Jo");

    char want[2048];
    pl_result r = pl_run(&jo, url, ARGS("ratings", "antiquity_quest"));
    cr_expect_eq(r.status, 0, "%s", r.err);
    snprintf(want, sizeof want,
             "%sYou have no rating in Antiquity Quest yet: your first rated "
             "match of it gives you one.\n",
             top);
    cr_expect_str_eq(r.out, want);
    pl_free(&r);

    rating_seed("Jo", "antiquity_quest", 1500.4);
    r = pl_run(&jo, url, ARGS("ratings", "antiquity_quest"));
    snprintf(want, sizeof want,
             "%sYou: rating 1500, 30 rated games, 15 wins, no turns yet (not "
             "in the top 10).\n",
             top);
    cr_expect_str_eq(r.out, want);
    pl_free(&r);

    /* Someone else's line, by id. */
    r = pl_run(&jo, url,
               ARGS("ratings", "antiquity_quest", "--player", nando.id));
    snprintf(want, sizeof want,
             "%sNando: rating 1700, 30 rated games, 15 wins, no turns yet "
             "(not in the top 10).\n",
             top);
    cr_expect_str_eq(r.out, want);
    pl_free(&r);

    /* At the top, marked. */
    rating_seed("Jo", "antiquity_quest", 2000);
    r = pl_run(&jo, url, ARGS("ratings", "antiquity_quest"));
    cr_expect(
        strstr(r.out, "  1. Jo (you): rating 2000, 30 rated games") != NULL &&
            strstr(r.out, "Mirta") == NULL && strstr(r.out, "You: ") == NULL,
        "%s", r.out);
    pl_free(&r);

    r = pl_run(&jo, url, ARGS("ratings"));
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out,
                     "Your ratings (Glicko-2; a newcomer is 1500):\n"
                     "  Antiquity Quest: rating 2000, 30 rated games, 15 "
                     "wins\nReliability: no turns yet.\n");
    pl_free(&r);

    r = pl_run(&jo, url, ARGS("ratings", "chess"));
    cr_expect_eq(r.status, 1, "%s", r.out);
    pl_free(&r);
    r = pl_run(&jo, url, ARGS("ratings", "--player", "Nando"));
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "is not a player id") != NULL, "%s", r.err);
    pl_free(&r);
    r = pl_run(&jo, url, ARGS("ratings", "--help"));
    cr_expect_eq(r.status, 0);
    cr_expect(strstr(r.out, "usage: pbem ratings [GAME] [--player PLAYER]") !=
                  NULL,
              "%s", r.out);
    pl_free(&r);
    e2e_stop(&server);
}
