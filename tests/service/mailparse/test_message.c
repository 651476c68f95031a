/* test_message.c: mail_message_parse on the mails people send from Gmail,
 * Outlook, Apple Mail, Thunderbird and mutt, and on the mails programs
 * send that must never be answered. Each test checks what a person would:
 * the commands that come out, who sent them, to which +token address. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fixtures.h"

/* A reply, as the rest of the play-by-email path reads it. */
static void expect_reply(const mail_message *m, const char *from,
                         const char *text)
{
    cr_assert_str_eq(m->from, from);
    cr_assert_str_eq(m->from_domain, strchr(from, '@') + 1);
    cr_assert_str_eq(m->text, text);
    cr_assert(fixture_has_recipient(m, "pbem+tok@example.org"),
              "pbem+tok@example.org not among the recipients");
    cr_assert_not(m->automatic, "automatic: %s", m->automatic_why);
    cr_assert_null(m->automatic_why);
    cr_assert_not(m->bounce);
    cr_assert_null(m->bounced_recipient);
    /* Outlook writes "RE:" */
    cr_assert(strcasecmp(m->subject, "Re: Your turn in m_42") == 0, "%s",
              m->subject);
}

/* The same mail with its text/plain alternative renamed, so that its HTML
 * alternative is what is read. */
static mail_message *html_alternative(const char *name)
{
    size_t length;
    char *raw = fixture_bytes(name, &length);
    char *plain = strstr(raw, "Content-Type: text/plain");
    cr_assert_not_null(plain);
    memcpy(plain + strlen("Content-Type: text/"), "xlain", 5);
    char why[200] = "";
    mail_message *m = mail_message_parse(raw, length, why, sizeof why);
    free(raw);
    cr_assert_not_null(m, "%s", why);
    return m;
}

Test(mail_message, plain_text)
{
    mail_message *m = fixture_message("plain.eml");
    cr_assert_str_eq(m->from, "Alice@example.com");
    cr_assert_str_eq(m->from_domain, "example.com");
    cr_assert_str_eq(m->text, "play 3 5\nview");
    cr_assert_str_eq(m->message_id,
                     "b7e1c2d4-5f6a-4b8c-9d0e-1f2a3b4c5d6e@example.com");
    cr_assert_str_eq(m->in_reply_to, "<n.7f3a9c@example.org>");
    cr_assert_str_eq(m->references, "<n.7f3a9c@example.org>");
    cr_assert_str_eq(m->subject, "Re: Your turn in m_42");
    cr_assert_str_eq(m->return_path, "alice@example.com");
    cr_assert_not(m->automatic);
    cr_assert_not(m->bounce);
    /* X-Original-To, Delivered-To and To, lower-cased, each once */
    cr_assert_eq(m->recipient_count, 1);
    cr_assert_str_eq(m->recipients[0], "pbem+tok42@example.org");
    cr_assert_eq(m->authentication_result_count, 1);
    cr_assert_str_eq(m->authentication_results[0],
                     "mx.example.org; dkim=pass (2048-bit key; unprotected) "
                     "header.d=example.com header.i=@example.com "
                     "header.a=rsa-sha256 header.s=mail header.b=Xy12AbCd; "
                     "dmarc=pass (p=QUARANTINE sp=QUARANTINE dis=NONE) "
                     "header.from=example.com");
    mail_message_free(m);
}

Test(mail_message, the_digest_is_of_the_bytes_as_received)
{
    size_t length;
    char *raw = fixture_bytes("plain.eml", &length);
    unsigned char expected[32];
    crypto_hash_sha256(expected, (const unsigned char *)raw, length);
    mail_message *m = mail_message_parse(raw, length, NULL, 0);
    cr_assert_not_null(m);
    cr_assert_arr_eq(m->sha256, expected, 32);
    mail_message_free(m);
    free(raw);
}

Test(mail_message, html_only)
{
    mail_message *m = fixture_message("html_only.eml");
    expect_reply(m, "bruno@example.net",
                 "play 3 5\nview\n\nThanks & \xC3\xA0 bient\xC3\xB4t");
    cr_assert_null(m->in_reply_to);
    cr_assert_eq(m->authentication_result_count, 0);
    mail_message_free(m);
}

Test(mail_message, quoted_printable)
{
    mail_message *m = fixture_message("quoted_printable.eml");
    expect_reply(m, "chen@example.net",
                 "play 3 5\nview\nnote: a long line that the mail program "
                 "wrapped with a soft line break at seventy-six characters, "
                 "and caf\xC3\xA9");
    mail_message_free(m);
}

Test(mail_message, base64_utf8_with_accents_and_an_emoji)
{
    mail_message *m = fixture_message("base64_utf8.eml");
    cr_assert_str_eq(m->from, "dora@example.com");
    cr_assert_str_eq(m->text, "play 3 5\nsay Tr\xC3\xA8s bien jou\xC3\xA9 "
                              "\xF0\x9F\x8E\xB2\nview");
    cr_assert_str_eq(m->subject, "Re: \xC3\x80 toi de jouer \xF0\x9F\x8E\xB2");
    cr_assert(fixture_has_recipient(m, "pbem+tok@example.org"));
    mail_message_free(m);
}

Test(mail_message, iso_8859_1_becomes_utf8)
{
    mail_message *m = fixture_message("latin1.eml");
    cr_assert_str_eq(m->from, "emile@example.fr");
    cr_assert_str_eq(m->text,
                     "play 3 5\nsay Bien jou\xC3\xA9, \xC3\xA0 toi\nview");
    cr_assert_str_eq(m->subject, "Re: R\xC3\xA9ponse");
    mail_message_free(m);
}

Test(mail_message, gmail_top_posted_reply)
{
    mail_message *m = fixture_message("gmail_reply.eml");
    expect_reply(m, "alice.example@gmail.com", "play 3 5\nview");
    cr_expect_str_eq(m->from_name, "Alice Example");
    cr_assert_str_eq(m->message_id,
                     "CAJx8kR3=q1p0sKk2m+FvQ7u1yWq3nN5pUo_Hd4@mail.gmail.com");
    cr_assert_null(m->return_path);
    cr_assert_eq(m->authentication_result_count, 1);
    mail_message_free(m);
}

Test(mail_message, gmail_html_alternative_says_the_same)
{
    mail_message *m = html_alternative("gmail_reply.eml");
    expect_reply(m, "alice.example@gmail.com", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, outlook_plain_text_original_message)
{
    mail_message *m = fixture_message("outlook_original_message.eml");
    expect_reply(m, "erin@contoso.example", "play 3 5\nview");
    cr_assert_str_eq(m->message_id,
                     "000001db3ea1$2b3c4d50$81d6e7f0$@contoso.example");
    mail_message_free(m);
}

Test(mail_message, outlook_from_sent_to_subject_block)
{
    mail_message *m = fixture_message("outlook_reply.eml");
    expect_reply(m, "erin@contoso.example", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, outlook_html_alternative_says_the_same)
{
    mail_message *m = html_alternative("outlook_reply.eml");
    expect_reply(m, "erin@contoso.example", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, outlook_on_the_web_reply)
{
    mail_message *m = fixture_message("outlook_web_reply.eml");
    expect_reply(m, "frank@outlook.com", "play 3 5\nview");
    cr_assert_str_eq(
        m->message_id,
        "DB9PR02MB7283C0FFEE12345678@DB9PR02MB7283.eurprd02.prod.outlook.com");
    mail_message_free(m);
}

Test(mail_message, outlook_on_the_web_html_alternative_says_the_same)
{
    mail_message *m = html_alternative("outlook_web_reply.eml");
    expect_reply(m, "frank@outlook.com", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, mutt_bottom_posted_reply)
{
    mail_message *m = fixture_message("mutt_reply.eml");
    expect_reply(m, "grace@example.net", "play 3 5\nview");
    cr_assert_str_eq(m->message_id, "20261124094403.GA12345@host.example.net");
    mail_message_free(m);
}

Test(mail_message, apple_mail_reply)
{
    mail_message *m = fixture_message("apple_mail_reply.eml");
    expect_reply(m, "dave@icloud.com", "play 3 5\nview");
    cr_assert_str_eq(m->message_id,
                     "3B1F0C2A-9D8E-4F7A-B6C5-1E2D3F4A5B6C@icloud.com");
    mail_message_free(m);
}

Test(mail_message, apple_mail_html_alternative_says_the_same)
{
    mail_message *m = html_alternative("apple_mail_reply.eml");
    expect_reply(m, "dave@icloud.com", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, iphone_reply_above_its_signature)
{
    mail_message *m = fixture_message("iphone_reply.eml");
    expect_reply(m, "dave@icloud.com", "view");
    mail_message_free(m);
}

Test(mail_message, thunderbird_reply)
{
    mail_message *m = fixture_message("thunderbird_reply.eml");
    expect_reply(m, "carol@example.net", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, thunderbird_html_alternative_says_the_same)
{
    mail_message *m = html_alternative("thunderbird_reply.eml");
    expect_reply(m, "carol@example.net", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, signature_and_attachments_are_not_commands)
{
    mail_message *m = fixture_message("signature_attachment.eml");
    expect_reply(m, "heidi@example.com", "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_message, an_auto_reply_is_never_answered)
{
    mail_message *m = fixture_message("auto_reply.eml");
    cr_assert_str_eq(m->from, "ivan@example.com");
    cr_assert(m->automatic);
    cr_assert_str_eq(m->automatic_why, "Auto-Submitted: auto-replied");
    cr_assert_not(m->bounce);
    cr_assert(fixture_has_recipient(m, "pbem+tok@example.org"));
    mail_message_free(m);
}

Test(mail_message, a_vacation_notice_with_precedence_bulk)
{
    mail_message *m = fixture_message("vacation_bulk.eml");
    cr_assert_str_eq(m->from, "judy@example.com");
    cr_assert(m->automatic);
    cr_assert_str_eq(m->automatic_why, "Precedence: bulk");
    cr_assert_not(m->bounce);
    mail_message_free(m);
}

Test(mail_message, a_mailing_list_message)
{
    mail_message *m = fixture_message("mailing_list.eml");
    cr_assert_str_eq(m->from, "karl@example.com");
    cr_assert(m->automatic);
    cr_assert_str_eq(m->automatic_why, "List-Id present");
    cr_assert_not(m->bounce);
    /* Delivered-To, To; Cc's address is Delivered-To's */
    cr_assert_eq(m->recipient_count, 2);
    cr_assert_str_eq(m->recipients[0], "pbem+tok@example.org");
    cr_assert(fixture_has_recipient(m, "games@lists.example.net"));
    cr_assert_str_eq(m->text, "join m_42");
    mail_message_free(m);
}

Test(mail_message, a_delivery_status_notification)
{
    mail_message *m = fixture_message("dsn_bounce.eml");
    cr_assert_str_eq(m->from, "MAILER-DAEMON@mx.example.org");
    cr_assert(m->automatic);
    cr_assert_str_eq(m->automatic_why, "a delivery status notification");
    cr_assert(m->bounce);
    cr_assert_str_eq(m->bounced_recipient, "Bob@players.example");
    cr_assert_str_eq(m->return_path, "");
    cr_assert(fixture_has_recipient(m, "pbem+bounces@example.org"));
    mail_message_free(m);
}

Test(mail_message, a_classic_bounce_from_mailer_daemon)
{
    mail_message *m = fixture_message("classic_bounce.eml");
    cr_assert(m->automatic);
    cr_assert_str_eq(m->automatic_why, "Return-Path: <>");
    cr_assert(m->bounce);
    cr_assert_null(m->bounced_recipient);
    mail_message_free(m);
}

Test(mail_message, a_multipart_without_its_boundary_has_no_text)
{
    mail_message *m = fixture_message("no_boundary.eml");
    cr_assert_str_eq(m->from, "mallory@example.com");
    cr_assert_str_eq(m->text, "");
    mail_message_free(m);
}

Test(mail_message, truncated_base64_gives_what_arrived)
{
    mail_message *m = fixture_message("truncated_base64.eml");
    cr_assert_str_eq(m->from, "mallory@example.com");
    cr_assert(strncmp(m->text, "play 3 5\nview\nsay go", 20) == 0, "%s",
              m->text);
    mail_message_free(m);
}

/* Exchange's and Outlook's out-of-office notices, and web mails' that set
 * no RFC 3834 header: each is recognised, so it gets silence. */
Test(mail_message, exchange_style_auto_replies_are_never_answered)
{
    static const struct {
        const char *headers;
        const char *subject;
        const char *why;
    } cases[] = {
        {"X-Auto-Response-Suppress: All\r\n", "Re: Your turn",
         "X-Auto-Response-Suppress present"},
        {"X-Autoreply: yes\r\n", "Re: Your turn", "X-Autoreply present"},
        {"X-Autorespond: Your turn\r\n", "Re: Your turn",
         "X-Autorespond present"},
        {"Precedence: auto_reply\r\n", "Re: Your turn",
         "Precedence: auto_reply"},
        {"", "Automatic reply: Your turn in m_42",
         "an automatic reply's subject"},
        {"", "Out of Office: Your turn in m_42",
         "an automatic reply's subject"},
        {"", "Automatisch antwoord: Your turn in m_42",
         "an automatic reply's subject"},
        {"", "=?UTF-8?Q?R=C3=A9ponse_automatique=C2=A0:_Your_turn?=",
         "an automatic reply's subject"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char raw[1024];
        snprintf(raw, sizeof raw,
                 "From: Ivan <ivan@example.com>\r\n"
                 "To: pbem+tok@example.org\r\nSubject: %s\r\n%s"
                 "Message-ID: <oof.%zu@example.com>\r\n\r\n"
                 "I am out of the office until Monday.\r\n",
                 cases[i].subject, cases[i].headers, i);
        char why[200] = "";
        mail_message *m = mail_message_parse(raw, strlen(raw), why, sizeof why);
        cr_assert_not_null(m, "%s", why);
        cr_expect(m->automatic, "case %zu (%s) would be answered", i,
                  cases[i].subject);
        cr_expect_str_eq(m->automatic_why ? m->automatic_why : "", cases[i].why,
                         "case %zu", i);
        mail_message_free(m);
    }
}

/* A person whose subject only mentions an absence is still a person. */
Test(mail_message, a_subject_about_an_office_is_not_an_auto_reply)
{
    const char *raw = "From: Ivan <ivan@example.com>\r\n"
                      "To: pbem+tok@example.org\r\n"
                      "Subject: Re: back in the office, draw\r\n\r\ndraw\r\n";
    char why[200] = "";
    mail_message *m = mail_message_parse(raw, strlen(raw), why, sizeof why);
    cr_assert_not_null(m, "%s", why);
    cr_expect_not(m->automatic, "%s", m->automatic_why);
    mail_message_free(m);
}
