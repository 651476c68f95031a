/* Deadline mails through a real SMTP server on loopback (npm smtp-server,
 * parsed by mailparser): the reminder to the seat, from
 * templates/deadline_reminder.*, and the admins' notice, from
 * templates/deadline_admins.*, to PBEM_ADMIN_EMAIL. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scene.h"

/* The first mail whose subject or text contains words, or NULL (new
 * reference): a mail about a match has the match thread's subject and
 * opens its text with what it is about. */
static json_t *mail_about(const receiver *smtp, const char *words, size_t count)
{
    json_t *mails = receiver_wait(smtp, count, 20);
    json_t *found = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(mails, i, m)
    {
        const char *subject = json_string_value(json_object_get(m, "subject"));
        const char *text = json_string_value(json_object_get(m, "text"));
        if (found == NULL && ((subject != NULL && strstr(subject, words)) ||
                              (text != NULL && strstr(text, words))))
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
    const char *text = json_string_value(json_object_get(reminder, "text"));
    /* On the player's clock: UTC, as they set no zone. */
    cr_assert_not_null(strstr(text, "Thu 3 Jan 2030 at 00:00 UTC"), "%s", text);
    cr_assert_not_null(strstr(text, "notify_admins"), "%s", text);
    cr_assert_not_null(strstr(text, "vacation 2026-12-24 2026-12-31"), "%s",
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

/* Quiet hours hold "your turn" mails but not a deadline reminder, which
 * held back could arrive after the deadline. */
Test(mail, a_reminder_is_not_held_by_quiet_hours, .timeout = 90)
{
    scene_env();
    receiver smtp;
    receiver_start(&smtp, "smtp-receiver.mjs", NULL);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player p[2];
    e2e_register(&s, "Robert", &p[0]);
    e2e_register(&s, "Eliza", &p[1]);
    /* Quiet from an hour ago to two hours from now, by the real clock
     * (email times are the database's). */
    time_t now = time(NULL), start = now - 3600, end = now + 7200;
    struct tm from, until;
    gmtime_r(&start, &from);
    gmtime_r(&end, &until);
    char settings[160];
    snprintf(settings, sizeof settings,
             "{\"quiet_hours\":{\"from\":\"%02d:%02d\",\"until\":\"%02d:%02d\"}}",
             from.tm_hour, from.tm_min, until.tm_hour, until.tm_min);
    for (int i = 0; i < 2; i++) {
        e2e_response r = e2e_call(&s, "PUT", "/v1/players/me/notification-settings",
                                  settings, &p[i]);
        cr_assert_eq(r.status, 200, "%s", r.body);
        e2e_response_free(&r);
    }
    char match[32];
    scene_match(&s, p, 2, "artifact_stack",
                "{\"turn_hours\":48,\"reminder_hours\":6,"
                "\"action\":\"notify_admins\"}",
                match);
    scene_clock(T0 + 43 * HOUR);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1, "the reminder was held");
    const char *text =
        json_string_value(json_object_get(json_array_get(mails, 0), "text"));
    cr_expect_not_null(strstr(text, "Reminder"), "%s (the your-turn mail "
                       "came through quiet hours)", text);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}
