/* test_hostile.c: what arrives at a public mail address is not always a
 * mail. mail_message_parse refuses what is not one with a sentence, stays
 * within its bounds on what is, and never crashes: garbage, huge headers,
 * thousands of parts, deep nesting, NUL bytes, random damage to real
 * mails. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixtures.h"

static char why[200];

/* GLib and GMime report a misuse (a NULL where a buffer belongs) as a
 * critical warning and go on; here it fails the test. */
static void criticals_are_fatal(void)
{
    g_log_set_always_fatal(G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL |
                           G_LOG_LEVEL_WARNING);
}

TestSuite(mail_hostile, .init = criticals_are_fatal);

static mail_message *parse(const char *raw, size_t length)
{
    why[0] = '\0';
    return mail_message_parse(raw, length, why, sizeof why);
}

static mail_message *parse_text(const char *raw)
{
    return parse(raw, strlen(raw));
}

static void expect_refused(const char *raw, size_t length, const char *reason)
{
    mail_message *m = parse(raw, length);
    cr_assert_null(m, "accepted, from %s", m ? m->from : "");
    cr_assert_str_eq(why, reason);
}

#define HEAD "From: alice@example.com\nTo: pbem+tok@example.org\n"

Test(mail_hostile, garbage_bytes_are_not_a_mail)
{
    unsigned char garbage[4096];
    unsigned int seed = 7;
    for (size_t i = 0; i < sizeof garbage; i++) {
        seed = seed * 1103515245u + 12345u;
        garbage[i] = (unsigned char)(seed >> 16);
    }
    garbage[0] = 0x89; /* not a header name either way */
    mail_message *m = parse((const char *)garbage, sizeof garbage);
    cr_assert_null(m);
    cr_assert_neq(why[0], '\0');
}

Test(mail_hostile, nothing_is_not_a_mail)
{
    expect_refused("", 0, "the message is empty");
    expect_refused(NULL, 0, "the message is empty");
    expect_refused("\r\n\r\nplay 3 5\r\n", 12,
                   "the message has no header block");
}

Test(mail_hostile, text_without_headers_is_not_a_mail)
{
    expect_refused("play 3 5\nview\n", 14,
                   "the bytes do not begin with mail headers (Name: value)");
    expect_refused(": no name\n\nx", 12,
                   "the bytes do not begin with mail headers (Name: value)");
    expect_refused(" From: folded first\n\nx", 22,
                   "the bytes do not begin with mail headers (Name: value)");
}

Test(mail_hostile, a_nul_in_the_headers_is_binary)
{
    const char raw[] = "From: alice@example.com\nSubject: a\0b\n\nplay 3 5\n";
    expect_refused(raw, sizeof raw - 1, "the header block holds binary bytes");
}

Test(mail_hostile, a_nul_in_the_body_is_dropped)
{
    const char raw[] = HEAD "\nplay\0 3 5\nview\n";
    mail_message *m = parse(raw, sizeof raw - 1);
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "play 3 5\nview");
    mail_message_free(m);
}

Test(mail_hostile, a_mail_needs_a_from_address)
{
    expect_refused("To: pbem+tok@example.org\n\nplay 3 5\n", 35,
                   "the message has no From address");
    mail_message *m = parse_text("From: alice\n\nplay 3 5\n");
    cr_assert_null(m);
    cr_assert_str_eq(why, "the message has no From address");
    m = parse_text("From: undisclosed:;\n\nplay 3 5\n");
    cr_assert_null(m);
    m = parse_text("From: Players: alice@Example.COM;\n\nplay\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->from, "alice@example.com");
    mail_message_free(m);
}

Test(mail_hostile, headers_only_is_a_mail_without_text)
{
    mail_message *m = parse_text("From: alice@example.com");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "");
    cr_assert_str_eq(m->subject, "");
    cr_assert_null(m->message_id);
    cr_assert_null(m->return_path);
    cr_assert_eq(m->recipient_count, 0);
    mail_message_free(m);
}

Test(mail_hostile, an_mbox_from_line_is_skipped)
{
    mail_message *m = parse_text("From alice@example.com Tue Nov 24 10:15:18 "
                                 "2026\n" HEAD "\nplay 3 5\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->from, "alice@example.com");
    cr_assert_str_eq(m->text, "play 3 5");
    mail_message_free(m);
}

/* A header block of size bytes: From, then X-Filler lines. */
static char *big_header(size_t size)
{
    char *raw = malloc(size + 64);
    cr_assert_not_null(raw);
    size_t n = (size_t)sprintf(raw, "From: alice@example.com\n");
    while (n + 80 < size)
        n += (size_t)sprintf(raw + n, "X-Filler: %068d\n", 0);
    while (n + 1 < size)
        raw[n++] = 'x';
    raw[n++] = '\n';
    n += (size_t)sprintf(raw + n, "\nplay 3 5\n");
    return raw;
}

Test(mail_hostile, a_header_block_above_256_kib_is_refused)
{
    char *raw = big_header(256 * 1024 + 10);
    expect_refused(raw, strlen(raw), "the header block is larger than 256 KiB");
    free(raw);
    raw = big_header(255 * 1024);
    mail_message *m = parse_text(raw);
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "play 3 5");
    mail_message_free(m);
    free(raw);
}

Test(mail_hostile, a_malformed_header_line_does_not_end_the_bounds)
{
    /* GMime skips the line and reads on to the blank line */
    mail_message *m = parse_text("From: alice@example.com\nnot a header\n"
                                 "Subject: still read\n\nplay 3 5\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->subject, "still read");
    cr_assert_str_eq(m->text, "play 3 5");
    mail_message_free(m);

    char *big = big_header(300 * 1024);
    char *raw =
        g_strdup_printf("From: alice@example.com\nnot a header\n%s", big);
    expect_refused(raw, strlen(raw), "the header block is larger than 256 KiB");
    g_free(raw);
    free(big);
}

/* A multipart/mixed of parts text/plain parts. */
static char *many_parts(int parts)
{
    GString *s = g_string_new(HEAD "MIME-Version: 1.0\n"
                                   "Content-Type: multipart/mixed; "
                                   "boundary=\"b\"\n\n");
    for (int i = 0; i < parts; i++)
        g_string_append_printf(s,
                               "--b\nContent-Type: text/plain\n\n"
                               "say part %d\n",
                               i);
    g_string_append(s, "--b--\n");
    return g_string_free(s, FALSE);
}

Test(mail_hostile, more_than_100_parts_are_refused)
{
    char *raw = many_parts(99); /* with the multipart itself: 100 */
    mail_message *m = parse_text(raw);
    cr_assert_not_null(m, "%s", why);
    cr_assert(strncmp(m->text, "say part 0\nsay part 1\n", 22) == 0);
    mail_message_free(m);
    g_free(raw);

    raw = many_parts(100);
    expect_refused(raw, strlen(raw), "the message has too many parts");
    g_free(raw);
    raw = many_parts(20000);
    expect_refused(raw, strlen(raw), "the message has too many parts");
    g_free(raw);
}

/* depth multiparts, each inside the previous, the text in the last. */
static char *nested(int depth)
{
    GString *s = g_string_new(HEAD "MIME-Version: 1.0\n");
    for (int i = 0; i < depth; i++)
        g_string_append_printf(s,
                               "Content-Type: multipart/mixed; "
                               "boundary=\"b%d\"\n\n--b%d\n",
                               i, i);
    g_string_append(s, "Content-Type: text/plain\n\nplay 3 5\n");
    for (int i = depth - 1; i >= 0; i--)
        g_string_append_printf(s, "--b%d--\n", i);
    return g_string_free(s, FALSE);
}

Test(mail_hostile, nesting_deeper_than_20_is_refused)
{
    char *raw = nested(20); /* the text part at depth 20 */
    mail_message *m = parse_text(raw);
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "play 3 5");
    mail_message_free(m);
    g_free(raw);

    raw = nested(21);
    expect_refused(raw, strlen(raw), "the message has too many parts");
    g_free(raw);
    raw = nested(5000); /* deeper than GMime's own limit too */
    expect_refused(raw, strlen(raw), "the message has too many parts");
    g_free(raw);
}

Test(mail_hostile, attached_messages_count_their_parts)
{
    GString *s = g_string_new(HEAD "MIME-Version: 1.0\nContent-Type: "
                                   "multipart/mixed; boundary=\"out\"\n\n"
                                   "--out\nContent-Type: text/plain\n\n"
                                   "play 3 5\n"
                                   "--out\nContent-Type: message/rfc822\n\n"
                                   "From: x@example.com\nContent-Type: "
                                   "multipart/mixed; boundary=\"in\"\n\n");
    for (int i = 0; i < 100; i++)
        g_string_append(s, "--in\nContent-Type: text/plain\n\nplay 9 9\n");
    g_string_append(s, "--in--\n--out--\n");
    expect_refused(s->str, s->len, "the message has too many parts");
    g_string_free(s, TRUE);

    /* a forwarded message is not what the person wrote */
    mail_message *m =
        parse_text(HEAD "Content-Type: multipart/mixed; boundary=\"o\"\n\n"
                        "--o\nContent-Type: text/plain\n\nview\n"
                        "--o\nContent-Type: message/rfc822\n\n"
                        "From: x@example.com\n\nplay 9 9\n--o--\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "view");
    mail_message_free(m);
}

Test(mail_hostile, the_text_is_cut_at_64_kib_between_characters)
{
    GString *s = g_string_new(HEAD "Content-Type: text/plain; charset=utf-8"
                                   "\n\nx");
    for (int i = 0; i < 100000; i++)
        g_string_append(s, "\xC3\xA9"); /* é */
    mail_message *m = parse(s->str, s->len);
    cr_assert_not_null(m, "%s", why);
    size_t len = strlen(m->text);
    cr_assert_leq(len, MAIL_MESSAGE_MAX_TEXT);
    cr_assert_geq(len, MAIL_MESSAGE_MAX_TEXT - 3);
    cr_assert(g_utf8_validate(m->text, -1, NULL));
    mail_message_free(m);
    g_string_free(s, TRUE);
}

Test(mail_hostile, undeclared_8bit_text_is_read_as_windows_1252)
{
    mail_message *m = parse_text(HEAD "\nsay caf\xE9 \x80 5\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "say caf\xC3\xA9 \xE2\x82\xAC 5");
    mail_message_free(m);
}

Test(mail_hostile, utf8_declared_as_ascii_stays_utf8)
{
    mail_message *m = parse_text(HEAD "Content-Type: text/plain; "
                                      "charset=us-ascii\n\nsay caf\xC3\xA9\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "say caf\xC3\xA9");
    mail_message_free(m);
}

Test(mail_hostile, invalid_utf8_becomes_replacement_characters)
{
    mail_message *m = parse_text(HEAD "Content-Type: text/plain; "
                                      "charset=utf-8\n\nsay \xC3\x28 ok\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert(g_utf8_validate(m->text, -1, NULL));
    cr_assert_str_eq(m->text, "say \xEF\xBF\xBD( ok");
    mail_message_free(m);
}

Test(mail_hostile, an_empty_part_in_any_charset_is_no_text)
{
    mail_message *m = parse_text(HEAD "Content-Type: text/plain; "
                                      "charset=iso-8859-1\n\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "");
    mail_message_free(m);
    m = parse_text(HEAD "Content-Type: text/plain; charset=iso-8859-1\n"
                        "Content-Transfer-Encoding: base64\n\n====\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "");
    mail_message_free(m);
}

Test(mail_hostile, an_unknown_charset_is_read_as_well_as_it_can_be)
{
    mail_message *m = parse_text(HEAD "Content-Type: text/plain; "
                                      "charset=x-no-such\n\nplay 3 5\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "play 3 5");
    mail_message_free(m);
}

Test(mail_hostile, encrypted_mail_shows_no_text)
{
    mail_message *m = parse_text(
        HEAD "Content-Type: multipart/encrypted; "
             "protocol=\"application/pgp-encrypted\"; boundary=\"e\"\n\n"
             "--e\nContent-Type: application/pgp-encrypted\n\nVersion: 1\n"
             "--e\nContent-Type: application/octet-stream\n\n-----BEGIN PGP "
             "MESSAGE-----\nhQEMA\n-----END PGP MESSAGE-----\n--e--\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_str_eq(m->text, "");
    mail_message_free(m);
}

Test(mail_hostile, programs_are_known_by_their_headers)
{
    static const struct {
        const char *headers;
        const char *why;
        bool bounce;
    } cases[] = {
        {"Auto-Submitted: no\n", NULL, false},
        {"Auto-Submitted: auto-generated\n", "Auto-Submitted: auto-generated",
         false},
        {"Auto-Submitted: Auto-Notified; owner-email=\"x@y\"\n",
         "Auto-Submitted: auto-notified", false},
        {"Auto-Submitted: something-new\n", "Auto-Submitted: other than no",
         false},
        {"Precedence: junk\n", "Precedence: junk", false},
        {"Precedence: list\n", "Precedence: list", false},
        {"Precedence: first-class\n", NULL, false},
        {"X-Autoreply: yes\n", "X-Autoreply present", false},
        {"Return-Path: <MAILER-DAEMON>\n", "Return-Path: MAILER-DAEMON", false},
        {"Return-Path: < >\n", "Return-Path: <>", false},
        {"Return-Path: <bounces+x@example.com>\n", NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char raw[512];
        snprintf(raw, sizeof raw, "%s" HEAD "\nplay 3 5\n", cases[i].headers);
        mail_message *m = parse_text(raw);
        cr_assert_not_null(m, "%s", why);
        if (cases[i].why)
            cr_assert_str_eq(m->automatic_why, cases[i].why, "%s",
                             cases[i].headers);
        else
            cr_assert_null(m->automatic_why, "%s: %s", cases[i].headers,
                           m->automatic_why);
        cr_assert_eq(m->automatic, cases[i].why != NULL);
        cr_assert_eq(m->bounce, cases[i].bounce);
        mail_message_free(m);
    }
}

Test(mail_hostile, postmaster_and_mailer_daemon_senders_bounce)
{
    mail_message *m = parse_text("From: Postmaster <POSTMASTER@example.net>\n"
                                 "\nYour message was not delivered.\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert(m->bounce);
    cr_assert_str_eq(m->automatic_why, "From: postmaster");
    mail_message_free(m);
    m = parse_text("From: mailer-daemon@example.net\n\nfailure\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert(m->bounce);
    cr_assert_str_eq(m->automatic_why, "From: MAILER-DAEMON");
    mail_message_free(m);
}

Test(mail_hostile, recipients_from_groups_and_envelope_headers)
{
    mail_message *m =
        parse_text("From: alice@example.com\n"
                   "To: Players: Bob <BOB@example.net>, pbem+tok@example.org;\n"
                   "Cc: undisclosed-recipients:;\n"
                   "Envelope-To: pbem+Env@Example.org\n"
                   "X-Original-To: pbem+orig@example.org\n\nplay\n");
    cr_assert_not_null(m, "%s", why);
    cr_assert_eq(m->recipient_count, 4);
    cr_assert_str_eq(m->recipients[0], "bob@example.net");
    cr_assert_str_eq(m->recipients[1], "pbem+tok@example.org");
    cr_assert_str_eq(m->recipients[2], "pbem+env@example.org");
    cr_assert_str_eq(m->recipients[3], "pbem+orig@example.org");
    mail_message_free(m);
}

Test(mail_hostile, recipients_are_bounded)
{
    GString *s = g_string_new("From: alice@example.com\nTo: ");
    for (int i = 0; i < 5000; i++)
        g_string_append_printf(s, "%sp%d@example.org", i ? ", " : "", i);
    g_string_append(s, "\n\nplay\n");
    mail_message *m = parse(s->str, s->len);
    cr_assert_not_null(m, "%s", why);
    cr_assert_eq(m->recipient_count, MAIL_MESSAGE_MAX_RECIPIENTS);
    mail_message_free(m);
    g_string_free(s, TRUE);
}

/* Random damage to every fixture: bytes changed, cut short. Each either
 * parses into a whole message or is refused with a sentence. */
Test(mail_hostile, damaged_mails_never_crash, .timeout = 120)
{
    static const char *const names[] = {"plain.eml",
                                        "html_only.eml",
                                        "quoted_printable.eml",
                                        "base64_utf8.eml",
                                        "latin1.eml",
                                        "gmail_reply.eml",
                                        "outlook_reply.eml",
                                        "outlook_web_reply.eml",
                                        "mutt_reply.eml",
                                        "apple_mail_reply.eml",
                                        "thunderbird_reply.eml",
                                        "signature_attachment.eml",
                                        "dsn_bounce.eml",
                                        "no_boundary.eml",
                                        "truncated_base64.eml"};
    unsigned int seed = 2026;
    for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
        size_t length;
        char *original = fixture_bytes(names[f], &length);
        char *raw = malloc(length + 1);
        cr_assert_not_null(raw);
        for (int round = 0; round < 150; round++) {
            memcpy(raw, original, length + 1);
            seed = seed * 1103515245u + 12345u;
            size_t len = round % 3 == 0 ? (seed >> 8) % (length + 1) : length;
            int changes = 1 + (int)((seed >> 4) % 16);
            for (int c = 0; c < changes && len > 0; c++) {
                seed = seed * 1103515245u + 12345u;
                raw[(seed >> 8) % len] = (char)(seed >> 3);
            }
            mail_message *m = parse(raw, len);
            if (m == NULL) {
                cr_assert_neq(why[0], '\0', "%s round %d", names[f], round);
                continue;
            }
            cr_assert_not_null(m->from);
            cr_assert_not_null(strchr(m->from, '@'));
            cr_assert_not_null(m->subject);
            cr_assert_not_null(m->text);
            cr_assert(g_utf8_validate(m->text, -1, NULL));
            cr_assert_eq(m->automatic, m->automatic_why != NULL);
            mail_message_free(m);
        }
        free(raw);
        free(original);
    }
}

static void *parse_fixtures(void *unused)
{
    (void)unused;
    static const char *const names[] = {"gmail_reply.eml", "latin1.eml",
                                        "dsn_bounce.eml", "outlook_reply.eml"};
    for (int i = 0; i < 40; i++) {
        mail_message *m = fixture_message(names[i % 4]);
        mail_message_free(m);
    }
    return NULL;
}

Test(mail_hostile, threads_may_parse_at_once)
{
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        cr_assert_eq(pthread_create(&threads[i], NULL, parse_fixtures, NULL),
                     0);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(pthread_join(threads[i], NULL), 0);
}
