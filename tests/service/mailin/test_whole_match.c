/* Whole matches played by email only, from the first mail to the service
 * to the final scores: nobody in them has a key or calls the API. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_people.h"
#include "../../support/dovecot.h"

/* Every player is told the match is over, with the scores. */
static void expect_over_mails(mail_table *t)
{
    for (int p = 0; p < t->seats; p++) {
        size_t from = 0;
        json_t *mail;
        bool told = false;
        while (!told &&
               (mail = mail_next_to(t->scene, t->people[p].address, &from,
                                    20)) != NULL) {
            const char *subject =
                json_string_value(json_object_get(mail, "subject"));
            told = subject && strstr(subject, t->match) &&
                   strstr(subject, "is over");
            json_decref(mail);
        }
        cr_expect(told, "%s was not told that %s is over",
                  t->people[p].address, t->match);
    }
}

Test(whole_match, antiquity_quest_by_pbem_mail_in, .timeout = 600)
{
    srand(18);
    mail_scene scene;
    /* A whole match is hundreds of answers to each player within minutes. */
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    mail_table_play_to_the_end(&t, 3000);
    cr_log_info("antiquity_quest by mail: %d moves, %d refused", t.moves,
                t.refused);
    cr_expect_gt(t.moves, 10);
    expect_over_mails(&t);
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(whole_match, adel_verplichtet_through_imap, .timeout = 900)
{
    srand(22);
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene scene;
    mail_scene_start(&scene, true, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "adel_verplichtet", 3, "");
    mail_table_play_to_the_end(&t, 5000);
    cr_log_info("adel_verplichtet by mail through IMAP: %d moves, %d refused",
                t.moves, t.refused);
    cr_expect_gt(t.moves, 10);
    expect_over_mails(&t);
    /* Every message was put away once handled: none is left unseen. */
    cr_expect(dovecot_wait_count(scene.imap, "pbem", "INBOX", "UNSEEN", 0, 20),
              "mail was left unseen in INBOX");
    cr_expect_eq(dovecot_count(scene.imap, "pbem", "Processed", "ALL"),
                 scene.sent, "every message handed in ends in Processed");
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
