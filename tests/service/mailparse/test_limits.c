/* test_limits.c: mail_limits counts a mail's parts, nesting and header
 * fields from its bytes, before GMime builds anything, never fewer than
 * GMime would build; every mail a mail program writes passes. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures.h"
#include "mailin/mail_body.h"
#include "mailin/mail_limits.h"

#define HEAD "From: alice@example.com\nTo: pbem+tok@example.org\n"

static char why[200];

static bool within(const char *raw, size_t length)
{
    why[0] = '\0';
    return mail_limits_check(raw, length, why, sizeof why);
}

/* parts text parts under one multipart/mixed whose Content-Type field is
 * type_field (holding the boundary "b"). */
static GString *parts_under(const char *type_field, int parts)
{
    GString *s = g_string_new(HEAD "MIME-Version: 1.0\n");
    g_string_append(s, type_field);
    g_string_append(s, "\n\n");
    for (int i = 0; i < parts; i++)
        g_string_append_printf(s, "--b\nContent-Type: text/plain\n\np%d\n", i);
    g_string_append(s, "--b--\n");
    return s;
}

Test(mail_limits, the_issue_s_bomb_of_50000_parts_is_refused_from_its_bytes)
{
    /* The issue's mail: 50,000 parts, 488 KiB. */
    GString *s = g_string_new(HEAD "Content-Type: multipart/mixed; "
                                   "boundary=\"x\"\n\n");
    for (int i = 0; i < 50000; i++)
        g_string_append(s, "--x\n\n");
    g_string_append(s, "--x--\n");
    cr_assert_gt(s->len, 240 * 1024);
    cr_assert_not(within(s->str, s->len));
    cr_assert_str_eq(why, "the message has too many parts");
    g_string_free(s, TRUE);
}

Test(mail_limits, every_way_of_writing_the_boundary_is_counted)
{
    static const char *const fields[] = {
        "Content-Type: multipart/mixed; boundary=\"b\"",
        "Content-Type: multipart/mixed; boundary=b",
        "content-type : Multipart/Mixed;\n\tBOUNDARY = \"b\"",
        "Content-Type: multipart/mixed; charset=x; boundary=\"b\"; a=1",
        "Content-Type: (a comment) multipart/mixed; boundary=\"\\b\"",
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        /* with the multipart itself: 100, and 101 */
        GString *s = parts_under(fields[i], MAIL_BODY_MAX_PARTS - 1);
        cr_assert(within(s->str, s->len), "%s: %s", fields[i], why);
        g_string_free(s, TRUE);
        s = parts_under(fields[i], MAIL_BODY_MAX_PARTS);
        cr_assert_not(within(s->str, s->len), "%s", fields[i]);
        cr_assert_str_eq(why, "the message has too many parts");
        g_string_free(s, TRUE);
    }
}

Test(mail_limits, a_boundary_written_otherwise_counts_every_dash_line_twice)
{
    /* GMime's parameter parser reads these in ways this walk does not
     * follow (RFC 2231 pieces in any order, encoded words, several
     * boundaries: make fuzz found a lone "boundary*1*" it missed), and no
     * mail program writes them. Every dash line in such a multipart counts
     * as a part and the message it may be (two), every Content-Type field
     * as one more: p text parts are 3p + 3, 32 pass and 33 do not. */
    static const char *const fields[] = {
        "Content-Type: multipart/mixed;\r\n boundary*0=\"b\"",
        "Content-Type: multipart/mixed; boundary*=utf-8''b",
        "Content-Type: multipart/mixed; boundary*1*=utf-8''b",
        "Content-Type: multipart/mixed; boundary *1=b",
        "Content-Type: multipart/mixed; boundary=\"=?us-ascii?q?b?=\"",
        "Content-Type: multipart/mixed; boundary=a; boundary=b",
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        GString *s = parts_under(fields[i], 32);
        cr_assert(within(s->str, s->len), "%s: %s", fields[i], why);
        g_string_free(s, TRUE);
        s = parts_under(fields[i], 33);
        cr_assert_not(within(s->str, s->len), "%s", fields[i]);
        g_string_free(s, TRUE);
    }
}

Test(mail_limits, a_line_that_only_begins_like_a_close_closes_nothing)
{
    /* Found by make fuzz: "--b--" followed by more than blanks is no
     * boundary to GMime, so the parts after it still count. */
    GString *s = g_string_new(HEAD "Content-Type: multipart/mixed; "
                                   "boundary=\"b\"\n\n--b\n\n--b--x\n");
    for (int i = 0; i < MAIL_BODY_MAX_PARTS; i++)
        g_string_append(s, "--b\n\n");
    cr_assert_not(within(s->str, s->len));
    g_string_free(s, TRUE);
}

Test(mail_limits, a_boundary_it_cannot_read_is_still_bounded_by_its_dashes)
{
    /* An encoded-word boundary is nothing this walk decodes; each part
     * still needs a line beginning with "--". */
    GString *s = g_string_new(HEAD "Content-Type: multipart/mixed; "
                                   "boundary=\"=?us-ascii?q?b?=\"\n\n");
    for (int i = 0; i < MAIL_LIMITS_MAX_DASH_LINES + 1; i++)
        g_string_append(s, "--b\n\n");
    cr_assert_not(within(s->str, s->len));
    cr_assert_str_eq(why, "the message has too many parts");
    g_string_free(s, TRUE);
}

/* depth multiparts, each inside the previous, the text in the last. */
static GString *nested(int depth, const char *inner_type)
{
    GString *s = g_string_new(HEAD);
    for (int i = 0; i < depth; i++)
        g_string_append_printf(s,
                               "Content-Type: %s; boundary=\"b%d\"\n\n--b%d\n",
                               inner_type, i, i);
    g_string_append(s, "Content-Type: text/plain\n\nplay 3 5\n");
    for (int i = depth - 1; i >= 0; i--)
        g_string_append_printf(s, "--b%d--\n", i);
    return s;
}

Test(mail_limits, nesting_is_counted_as_mail_body_counts_it)
{
    GString *s = nested(MAIL_BODY_MAX_DEPTH, "multipart/mixed");
    cr_assert(within(s->str, s->len), "%s", why);
    g_string_free(s, TRUE);
    s = nested(MAIL_BODY_MAX_DEPTH + 1, "multipart/mixed");
    cr_assert_not(within(s->str, s->len));
    g_string_free(s, TRUE);
    s = nested(100000, "multipart/mixed");
    cr_assert_not(within(s->str, s->len));
    g_string_free(s, TRUE);

    /* Attached messages nest too: each message's top part is a level
     * below the part that holds it. */
    s = g_string_new(HEAD);
    for (int i = 0; i < MAIL_BODY_MAX_DEPTH + 1; i++)
        g_string_append(s, "Content-Type: message/rfc822\n\nFrom: x@y.z\n");
    g_string_append(s, "\nplay 3 5\n");
    cr_assert_not(within(s->str, s->len));
    g_string_free(s, TRUE);
}

Test(mail_limits, a_digest_s_parts_are_attached_messages)
{
    /* Parts of multipart/digest without a Content-Type are messages, so
     * a part there holding a multipart of its own opens a level. */
    GString *s = g_string_new(HEAD "Content-Type: multipart/digest; "
                                   "boundary=\"d\"\n\n--d\n\n"
                                   "Content-Type: multipart/mixed; "
                                   "boundary=\"in\"\n\n");
    for (int i = 0; i < MAIL_BODY_MAX_PARTS; i++)
        g_string_append(s, "--in\n\nx\n");
    g_string_append(s, "--in--\n--d--\n");
    cr_assert_not(within(s->str, s->len));
    g_string_free(s, TRUE);
}

/* parts attached messages in a digest (boundary "d") whose first part has
 * the Content-Type field inner_type; the mail's own digest closes after
 * them, or after them and the inner one's close. */
static GString *digest_holding(const char *inner_type, int parts,
                               bool inner_closes)
{
    GString *s = g_string_new(HEAD "Content-Type: multipart/digest; "
                                   "boundary=d\n\n--d\n");
    g_string_append_printf(s, "%s\n\n", inner_type);
    for (int i = 0; i < parts; i++)
        g_string_append_printf(s, "--d\n\nFrom: x@y.z\n\nplay %d\n", i);
    g_string_append(s, inner_closes ? "--d--\n--d--\n" : "--d--\n");
    return s;
}

Test(mail_limits, nested_digests_on_one_boundary_count_every_message)
{
    /* A make fuzz find, rebuilt: a digest in a digest, on the outer one's
     * boundary, whose type names a slash in a comment first. GMime reads
     * past the comment: each part is an attached message, two parts each
     * (102 here); the walk took the comment's slash and counted one (52). */
    GString *s = digest_holding("Content-Type: (digest/of/digests) "
                                "multipart/digest; boundary=d",
                                50, true);
    cr_assert_not(within(s->str, s->len));
    cr_assert_str_eq(why, "the message has too many parts");
    g_string_free(s, TRUE);
    s = digest_holding("Content-Type: multipart/digest; boundary=d", 49, true);
    cr_assert(within(s->str, s->len), "%s", why); /* 100 */
    g_string_free(s, TRUE);
}

Test(mail_limits, a_multipart_without_its_subtype_is_a_digest_s_message)
{
    /* GMime reads no type from "multipart" alone: in a digest, the part is
     * an attached message, and the lines after it the digest's own parts,
     * messages each. The walk opened a multipart on the same boundary and
     * counted each line as one part. */
    GString *s =
        digest_holding("Content-Type: multipart; boundary=d", 50, false);
    cr_assert_not(within(s->str, s->len));
    cr_assert_str_eq(why, "the message has too many parts");
    g_string_free(s, TRUE);
}

Test(mail_limits, only_the_last_content_type_s_first_boundary_closes)
{
    /* GMime takes its boundary from the last Content-Type field, the
     * first boundary parameter in it: "--x--" is no close to it, and the
     * parts go on. The walk took every boundary of every field, closed
     * the multipart at "--x--" and counted none of the parts after it. */
    static const char *const fields[] = {
        "Content-Type: multipart/mixed; boundary=x\n"
        "Content-Type: multipart/mixed; boundary=y",
        "Content-Type: multipart/mixed; boundary=y; boundary=x",
    };
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        GString *s = g_string_new(HEAD "Content-Type: multipart/mixed; "
                                       "boundary=o\n\n--o\n");
        g_string_append_printf(s, "%s\n\n--x--\n", fields[i]);
        for (int p = 0; p < MAIL_BODY_MAX_PARTS; p++)
            g_string_append(s, "--y\n\nplay 3 5\n");
        g_string_append(s, "--y--\n--o--\n");
        cr_assert_not(within(s->str, s->len), "%s", fields[i]);
        g_string_free(s, TRUE);
    }
}

Test(mail_limits, the_last_content_type_is_the_one_gmime_reads)
{
    /* Found by make fuzz: a part that says text/plain, then multipart. */
    GString *s = g_string_new(HEAD "Content-Type: multipart/mixed; "
                                   "boundary=\"out\"\n\n--out\n"
                                   "Content-Type: text/plain\n"
                                   "Content-Type: multipart/mixed; "
                                   "boundary=\"b\"\n\n");
    for (int i = 0; i < MAIL_BODY_MAX_PARTS; i++)
        g_string_append(s, "--b\n\n");
    g_string_append(s, "--b--\n--out--\n");
    cr_assert_not(within(s->str, s->len));
    g_string_free(s, TRUE);
}

Test(mail_limits, header_fields_are_counted_in_every_part)
{
    GString *s = g_string_new(HEAD);
    for (int i = 0; i < MAIL_LIMITS_MAX_HEADERS; i++)
        g_string_append(s, "a:b\n");
    g_string_append(s, "\nplay 3 5\n");
    cr_assert_not(within(s->str, s->len));
    cr_assert_str_eq(why, "the message has too many header fields");
    g_string_free(s, TRUE);

    /* the same count spread over parts */
    s = g_string_new(HEAD "Content-Type: multipart/mixed; boundary=b\n\n");
    for (int i = 0; i < 50; i++) {
        g_string_append(s, "--b\n");
        for (int k = 0; k < MAIL_LIMITS_MAX_HEADERS / 50; k++)
            g_string_append(s, "X-A: b\n");
        g_string_append(s, "\nx\n");
    }
    cr_assert_not(within(s->str, s->len));
    cr_assert_str_eq(why, "the message has too many header fields");
    g_string_free(s, TRUE);
}

Test(mail_limits, a_long_outlook_thread_and_signatures_pass)
{
    /* Outlook quotes each earlier mail under a dashed line, in the text
     * and in the HTML alternative. */
    GString *s = g_string_new(HEAD "Content-Type: multipart/alternative; "
                                   "boundary=\"_000_X\"\n\n--_000_X\n"
                                   "Content-Type: text/plain\n\nplay 3 5\n");
    for (int i = 0; i < 200; i++)
        g_string_append(s, "-----Original Message-----\nFrom: Bob\n-- \n");
    g_string_append(s, "--_000_X\nContent-Type: text/html\n\n<p>x</p>\n");
    for (int i = 0; i < 200; i++)
        g_string_append(s, "-----Original Message-----<br>\n");
    g_string_append(s, "--_000_X--\n");
    cr_assert(within(s->str, s->len), "%s", why);
    g_string_free(s, TRUE);
}

Test(mail_limits, every_mail_a_mail_program_wrote_passes)
{
    DIR *dir = opendir(FIXTURES_DIR);
    cr_assert_not_null(dir);
    int seen = 0;
    for (struct dirent *e = readdir(dir); e; e = readdir(dir)) {
        if (!g_str_has_suffix(e->d_name, ".eml"))
            continue;
        size_t length;
        char *raw = fixture_bytes(e->d_name, &length);
        cr_assert(within(raw, length), "%s: %s", e->d_name, why);
        free(raw);
        seen++;
    }
    closedir(dir);
    cr_assert_geq(seen, 20);
}
