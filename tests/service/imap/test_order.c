/* Which messages of a batch wait for each other (imap_order.h): one
 * sender's, however its mail program writes the From header. */
#include <criterion/criterion.h>
#include <string.h>

#include "mailin/imap_order.h"

static uint64_t key(const char *raw)
{
    return imap_order_key(raw, strlen(raw));
}

Test(imap_order, one_address_written_in_many_forms_is_one_sender)
{
    uint64_t plain =
        key("From: anna@example.org\r\nSubject: x\r\n\r\ndraw\r\n");
    cr_assert_neq(plain, 0);
    cr_expect_eq(key("From: Anna Example <Anna@EXAMPLE.org>\r\n\r\ndraw\r\n"),
                 plain, "a display name and another case");
    cr_expect_eq(key("Subject: x\nFrom: \"Example, Anna\" (at home)\n"
                     " <anna@example.org>\n\ndraw\n"),
                 plain, "a quoted name, a comment, a folded line, LF ends");
    cr_expect_eq(key("From: friends: anna@example.org;\r\n\r\ndraw\r\n"), plain,
                 "a group");
    cr_expect_eq(key("Subject: x\r\nFrom: anna@example.org"), plain,
                 "a mail that is all header, its last line unended");
    cr_expect_eq(key("From MAILER-DAEMON Sat Jan  3 01:05:34 1996\n"
                     "From: anna@example.org\n\ndraw\n"),
                 plain, "after an mbox From line");
}

Test(imap_order, two_senders_are_two_and_no_sender_is_zero)
{
    cr_expect_neq(key("From: anna@example.org\r\n\r\ndraw\r\n"),
                  key("From: bob@example.org\r\n\r\ndraw\r\n"));
    cr_expect_eq(key("Subject: no sender\r\n\r\nFrom: anna@example.org\r\n"), 0,
                 "a From line in the body is not the header's");
    cr_expect_eq(key("\x01\x02 binary"), 0);
    cr_expect_eq(imap_order_key(NULL, 0), 0);
}
