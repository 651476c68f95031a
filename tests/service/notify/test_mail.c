/* Email notifications end to end: pbemd sends through libcurl SMTP to a
 * real SMTP server on loopback (npm smtp-server), which parses each
 * message with mailparser. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mail.h"
#include "../../support/notify_scene.h"

/* An address that could end the To: line or its angle brackets (say from
 * an edited import) is never written into a message. */
Test(mail, an_address_that_could_break_a_header_is_never_used)
{
    static const char *const hostile[] = {
        "eve@example.org\r\nBcc: all@example.org", "eve@example.org\nX: y",
        "eve@example.org> <all@example.org", "eve at example.org"};
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        mail_notification n = {.id = "n_1",
                               .reason = "your_turn",
                               .player_id = 1,
                               .to_name = "Eve",
                               .to_address = hostile[i],
                               .payload = NULL,
                               .date = 0};
        char why[256] = "";
        char *message = mail_compose(&n, why);
        cr_expect_null(message, "a message was composed for %s", hostile[i]);
        free(message);
        cr_expect(strstr(why, "address") != NULL, "%s", why);
    }
}

Test(mail, your_turn_mail_is_valid_multipart_with_escaped_data, .timeout = 60)
{
    notify_server_env();
    receiver smtp;
    receiver_start(&smtp, "smtp-receiver.mjs", NULL);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    setenv("PBEM_MAIL_FROM", "Tür Service <turns@pbem.example>", 1);
    setenv("PBEM_PUBLIC_URL", "https://pbem.example", 1);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "<b>Zoë</b> & co", &a);
    /* Not the same name: two in one match may not look alike. */
    e2e_register(&s, "<b>Zoë</b> & co.", &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1, "mails: %zu", json_array_size(mails));
    json_t *m = json_array_get(mails, 0);
    cr_assert_null(json_object_get(m, "error"), "%s",
                   json_string_value(json_object_get(m, "error")));
    cr_assert(json_is_true(json_object_get(m, "ascii_only")),
              "non-ASCII must be encoded on the wire");
    cr_assert_str_eq(json_string_value(json_object_get(m, "envelope_from")),
                     "turns@pbem.example");
    cr_assert_str_eq(json_string_value(json_array_get(json_object_get(m, "envelope_to"), 0)),
                     "player@example.org");
    json_t *from = json_array_get(json_object_get(m, "from"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(from, "name")), "Tür Service");
    json_t *to = json_array_get(json_object_get(m, "to"), 0);
    const char *to_name = json_string_value(json_object_get(to, "name"));
    cr_assert(to_name && strncmp(to_name, "<b>Zoë</b> & co", 16) == 0,
              "to: %s", to_name ? to_name : "(none)");
    cr_assert_str_eq(json_string_value(json_object_get(to, "address")),
                     "player@example.org");
    const char *subject = json_string_value(json_object_get(m, "subject"));
    cr_assert_not_null(strstr(subject, match), "subject: %s", subject);
    cr_assert_not_null(json_string_value(json_object_get(m, "date")), "no Date");
    cr_expect_str_eq(json_string_value(json_object_get(m, "auto_submitted")),
                     "auto-generated",
                     "a program's mail says so, for auto-responders (RFC 3834)");
    const char *id = json_string_value(json_object_get(m, "notification"));
    cr_assert_not_null(id);
    /* Its own Message-ID, named after the notification and keyed so that
     * no other installation's (or earlier database's) mail has it. */
    char message_id[128];
    snprintf(message_id, sizeof message_id, "<%s.", id);
    const char *got_id = json_string_value(json_object_get(m, "message_id"));
    cr_assert_eq(strncmp(got_id, message_id, strlen(message_id)), 0, "%s", got_id);
    cr_assert_eq(strlen(got_id), strlen(message_id) + 32 + strlen("@pbem.example>"),
                 "%s", got_id);
    cr_assert_not_null(strstr(got_id, "@pbem.example>"), "%s", got_id);
    const char *text = json_string_value(json_object_get(m, "text"));
    const char *html = json_string_value(json_object_get(m, "html"));
    cr_assert_not_null(text);
    cr_assert_not_null(html);
    char link[128];
    snprintf(link, sizeof link, "https://pbem.example/matches/%s", match);
    cr_assert_not_null(strstr(text, link));
    cr_assert_not_null(strstr(text, "Moves you can make now"));
    cr_assert_not_null(strstr(text, "<b>Zoë</b> & co"), "text: %s", text);
    cr_assert_not_null(strstr(html, "&lt;b&gt;Zoë&lt;/b&gt; &amp; co"), "html: %s", html);
    cr_assert_null(strstr(html, "<b>Zoë"), "player data became markup");
    /* "Play" opens the seat's page in a browser, not the signed API. */
    char play[128];
    snprintf(play, sizeof play, "Play: https://pbem.example/matches/%s\n", match);
    cr_expect_not_null(strstr(text, play), "text: %s", text);
    snprintf(play, sizeof play, "<a href=\"https://pbem.example/matches/%s\">Play</a>", match);
    cr_expect_not_null(strstr(html, play), "html: %s", html);
    /* The recipient sees it delivered, on the email channel. */
    json_t *sent =
        wait_notification_of_either(&s, &a, &b, "email", "sent", 12, NULL);
    cr_assert_not_null(sent);
    cr_assert_str_eq(json_string_value(json_object_get(sent, "id")), id);
    json_decref(sent);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(mail, no_smtp_server_means_no_email_rows, .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a, b;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    char match[32];
    two_player_match(&s, &a, &b, match);
    json_t *mine_a = my_notifications(&s, &a), *mine_b = my_notifications(&s, &b);
    cr_assert_eq(json_array_size(mine_a) + json_array_size(mine_b), 0);
    json_decref(mine_a);
    json_decref(mine_b);
    stop_server(&s);
}
