/* Deadline mails through a real SMTP server on loopback (npm smtp-server,
 * parsed by mailparser): the reminder to the seat, from
 * templates/deadline_reminder.*, and the admins' notice, from
 * templates/deadline_admins.*, to PBEM_ADMIN_EMAIL. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"

/* The first mail whose subject contains words, or NULL (new reference). */
static json_t *mail_about(const receiver *smtp, const char *words, size_t count)
{
    json_t *mails = receiver_wait(smtp, count, 20);
    json_t *found = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(mails, i, m)
    {
        const char *subject = json_string_value(json_object_get(m, "subject"));
        if (found == NULL && subject != NULL && strstr(subject, words))
            found = json_incref(m);
    }
    json_decref(mails);
    return found;
}

Test(mail, the_reminder_and_the_admins_notice_are_mailed, .timeout = 90)
{
    scene_env();
    receiver smtp;
    receiver_start(&smtp, "smtp-receiver.mjs", NULL);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    setenv("PBEM_ADMIN_EMAIL", "referee@pbem.example", 1);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[2];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    char match[32];
    scene_match(&s, p, 2, "artifact_stack",
                "{\"turn_hours\":48,\"reminder_hours\":6,"
                "\"action\":\"notify_admins\"}",
                match);
    json_t *turn = mail_about(&smtp, "Your turn", 1);
    cr_assert_not_null(turn, "no your-turn mail");
    json_decref(turn);

    scene_clock(T0 + 43 * HOUR);
    json_t *reminder = mail_about(&smtp, "Reminder", 2);
    cr_assert_not_null(reminder, "no reminder mail");
    const char *subject =
        json_string_value(json_object_get(reminder, "subject"));
    cr_assert_not_null(strstr(subject, match), "%s", subject);
    cr_assert_not_null(strstr(subject, "2030-01-03T00:00:00Z"), "%s", subject);
    const char *text = json_string_value(json_object_get(reminder, "text"));
    cr_assert_not_null(strstr(text, "notify_admins"), "%s", text);
    cr_assert_not_null(strstr(text, "POST /v1/players/me/vacation"), "%s",
                       text);
    cr_assert_not_null(json_string_value(json_object_get(reminder, "html")));
    json_decref(reminder);

    scene_clock(T0 + 49 * HOUR);
    json_t *notice = mail_about(&smtp, "Deadline passed", 3);
    cr_assert_not_null(notice, "no mail to the admins");
    cr_assert_str_eq(json_string_value(json_array_get(
                         json_object_get(notice, "envelope_to"), 0)),
                     "referee@pbem.example");
    text = json_string_value(json_object_get(notice, "text"));
    cr_assert_not_null(strstr(text, "did not take its turn"), "%s", text);
    json_decref(notice);
    stop_server(&s);
    receiver_stop(&smtp);
}
