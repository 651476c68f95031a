/* mail_people.h: people who play a whole match by answering mail, and
 * nothing else: one starts it by writing to the service's address, invites
 * the others by mail, they answer "join", and each plays by answering the
 * latest mail the service sent them with one of the moves it lists. */
#ifndef TESTS_SERVICE_MAILIN_MAIL_PEOPLE_H
#define TESTS_SERVICE_MAILIN_MAIL_PEOPLE_H

#include <jansson.h>
#include <stdbool.h>

#include "mail_scene.h"

#define MAIL_PEOPLE_MAX 5

typedef struct mail_person {
    char address[64];
    char name[32];
    json_t *latest;      /* the latest mail to them with a reply address */
    bool answered;       /* their latest mail has been answered */
} mail_person;

typedef struct mail_table {
    mail_scene *scene;
    mail_person people[MAIL_PEOPLE_MAX];
    int seats;
    char match[32];
    size_t cursor;       /* receiver lines read so far */
    int moves;           /* moves mailed and applied */
    int refused;         /* mailed moves the service refused */
    /* People in a hurry do not wait for the answer to each mail: they
     * play on as soon as the match waits for them (the answer may come
     * with their next turn). Each mail they send is listed in sent as
     * {"person": p, "id": Message-ID without <>, "text": the command},
     * for a test to find its answer. */
    bool hurried;
    json_t *sent;
    /* A move the players make whenever their mail offers it, instead of
     * one picked at random (NULL: always at random). Another Man's
     * Treasure's players who always "draw" empty the draw pile, so every
     * round ends; random takes of the discard pile can go on for
     * thousands of mails (a whole match of 6,000 and more was seen). */
    const char *prefer;
} mail_table;

/* Person 0 starts a match of game (new GAME seats=N plus options, e.g.
 * "variant=advanced" or ""), confirms the address, invites the others,
 * who join: afterwards the match is active. */
void mail_table_sit_down(mail_table *t, mail_scene *scene, const char *game,
                         int seats, const char *options);

/* mail_table_sit_down, each invited person p (from 1) answering their
 * invitation with joins[p] instead of "join" (joins NULL, or an entry
 * NULL: "join"). */
void mail_table_sit_down_saying(mail_table *t, mail_scene *scene,
                                const char *game, int seats,
                                const char *options,
                                const char *const *joins);

/* Plays by mail until the match is over (at most max_moves mails). Fails
 * the test, saying what the players were offered and answered, when the
 * match stands still through 40 mails in a row. */
void mail_table_play_to_the_end(mail_table *t, int max_moves);

/* Sends text from person p as an answer to their latest mail and waits for
 * the service's answer, which becomes their latest mail (new reference
 * returned too); in a hurried table, returns NULL at once. */
json_t *mail_table_answer(mail_table *t, int p, const char *text);

/* Reads every mail that came since the last call into the people's
 * latest mails. */
void mail_table_read(mail_table *t);

/* Waits (20 s at most, woken by each mail) until person p has a mail they
 * have not answered yet; fails the test, saying so, when none comes. */
void mail_table_wait(mail_table *t, int p);

void mail_table_free(mail_table *t);

#endif
