/* Standings by mail: "ratings GAME" answers the game's best 10 in words,
 * then the asker's own line; "ratings" alone, the asker's rating in each
 * game. The ratings are written on the database as a run of rated
 * matches would have left them (a dozen rated matches would take minutes
 * to play). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/rating_seed.h"
#include "mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};

static void expect_says(const json_t *mail, const char *text)
{
    cr_expect(mail_says(mail, text), "the mail does not say \"%s\":\n%s", text,
              mail_text(mail));
}

Test(mail_ratings, the_top_ten_in_words_and_the_askers_own_line, .timeout = 120)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    /* Eleven players of the API, rated 1900 down to 1700. */
    static const char *names[] = {"Abel", "Bruna", "Cosimo", "Delia",
                                  "Ezio", "Fosca", "Gino",   "Ilaria",
                                  "Lapo", "Mirta", "Nando"};
    for (int i = 0; i < 11; i++) {
        e2e_player p;
        e2e_register(&scene.server, names[i], &p);
        rating_seed(names[i], "antiquity_quest", 1900 - 20 * i);
    }

    /* Dave, by mail alone, asks for the standings. */
    mail_table t;
    memset(&t, 0, sizeof t);
    t.scene = &scene;
    t.seats = 1;
    t.cursor = mail_count(&scene);
    snprintf(t.people[0].address, sizeof t.people[0].address,
             "dave@example.org");
    snprintf(t.people[0].name, sizeof t.people[0].name, "Dave");
    char *raw = mail_scene_compose("Dave <dave@example.org>",
                                   "pbem@example.org", "who plays well?", NULL,
                                   NULL, "ratings antiquity_quest", NULL);
    cr_assert_eq(mail_hand_in(&scene, raw), 0);
    free(raw);
    mail_table_wait(&t, 0);
    json_t *first = mail_table_answer(&t, 0, "yes");
    expect_says(first, "Antiquity Quest standings, the best first");
    expect_says(first, "1. Abel: rating 1900, 30 rated games, 15 wins, no "
                       "turns yet");
    expect_says(first, "10. Mirta: rating 1720");
    cr_expect(!mail_says(first, "Nando"), "the 11th is listed:\n%s",
              mail_text(first));
    expect_says(first, "You have no rating in Antiquity Quest yet");
    expect_says(first, "/games/antiquity_quest/standings");
    cr_expect(strstr(mail_text(first), "@example.org") == NULL,
              "the standings show an address:\n%s", mail_text(first));
    json_decref(first);

    /* Rated now, below the ten: his own line after theirs. */
    rating_seed("Dave", "antiquity_quest", 1500);
    json_t *below = mail_table_answer(&t, 0, "ratings Antiquity Quest");
    expect_says(below, "You: rating 1500, 30 rated games, 15 wins, no turns "
                       "yet (not in the top 10).");
    json_decref(below);

    /* At the top: his line in the list, marked. */
    rating_seed("Dave", "antiquity_quest", 2000.4);
    json_t *top = mail_table_answer(&t, 0, "ratings antiquity_quest");
    expect_says(top, "1. Dave (you): rating 2000, 30 rated games");
    expect_says(top, "2. Abel: rating 1900");
    cr_expect(!mail_says(top, "Mirta"), "the 11th is listed:\n%s",
              mail_text(top));
    cr_expect(!mail_says(top, "You: rating"), "his line twice:\n%s",
              mail_text(top));
    json_decref(top);

    /* "ratings" alone, about no match: his line in every game. */
    json_t *mine = mail_table_answer(&t, 0, "ratings");
    expect_says(mine, "Your ratings");
    expect_says(mine, "Antiquity Quest: rating 2000, 30 rated games, 15 wins");
    expect_says(mine, "Write \"ratings GAME\" for a game's top 10.");
    json_decref(mine);

    json_t *refused = mail_table_answer(&t, 0, "ratings chess");
    expect_says(refused, "Refused: there is no game called \"chess\"");
    json_decref(refused);

    json_t *help = mail_table_answer(&t, 0, "help");
    expect_says(help, "ratings [GAME] the game's top 10 players, and your "
                      "line");
    json_decref(help);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
