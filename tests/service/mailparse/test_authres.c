/* test_authres.c: mail_authres_pass believes only our own server's
 * Authentication-Results, the topmost with its name, and only for the
 * domain of From. Headers as Postfix with OpenDKIM/OpenDMARC, Gmail and
 * Microsoft 365 write them. */
#include <criterion/criterion.h>
#include <string.h>

#include "mailin/mail_authres.h"

#define TRUSTED "mx.example.org"

static bool pass(char *const *headers, size_t count, const char *domain,
                 char *why)
{
    return mail_authres_pass(headers, count, TRUSTED, domain, why, 200);
}

Test(mail_authres, dmarc_pass_for_the_from_domain)
{
    char *headers[] = {
        "mx.example.org; dkim=pass (2048-bit key; unprotected) "
        "header.d=alice.test header.i=@alice.test header.b=\"AbCd1234\"; "
        "spf=pass (mx.example.org: domain of alice@alice.test designates "
        "192.0.2.1 as permitted sender) smtp.mailfrom=alice@alice.test; "
        "dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=alice.test"};
    char why[200] = "";
    cr_assert(pass(headers, 1, "alice.test", why), "%s", why);
    cr_assert(pass(headers, 1, "ALICE.test", why), "%s", why);
}

Test(mail_authres, dmarc_alone_suffices)
{
    char *headers[] = {"mx.example.org; spf=fail smtp.mailfrom=x@other.test;"
                       " dmarc=pass header.from=alice.test"};
    char why[200] = "";
    cr_assert(pass(headers, 1, "alice.test", why), "%s", why);
}

Test(mail_authres, dkim_pass_by_header_d)
{
    char *headers[] = {"mx.example.org;\r\n\tdkim=pass header.d=alice.test "
                       "header.s=sel1 header.b=abc;\r\n\tspf=none"};
    char why[200] = "";
    cr_assert(pass(headers, 1, "alice.test", why), "%s", why);
}

Test(mail_authres, dkim_pass_by_header_i)
{
    char *headers[] = {"mx.example.org 1; dkim/1=pass "
                       "header.i=\"bob@alice.test\""};
    char why[200] = "";
    cr_assert(pass(headers, 1, "alice.test", why), "%s", why);
}

Test(mail_authres, white_space_around_equals_and_comments_anywhere)
{
    char *headers[] = {"(our server) mx.example.org (v1) ; dkim (sig 1) = "
                       "pass (good) header.d (domain) = alice.test"};
    char why[200] = "";
    cr_assert(pass(headers, 1, "alice.test", why), "%s", why);
}

Test(mail_authres, dkim_fail_is_said)
{
    char *headers[] = {
        "mx.example.org; dkim=fail (bad signature) "
        "header.d=alice.test; dmarc=none header.from=other.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found dkim=fail for alice.test");
}

Test(mail_authres, dmarc_fail_is_said_before_dkim)
{
    char *headers[] = {"mx.example.org; dkim=fail header.d=alice.test; "
                       "dmarc=fail (p=reject) header.from=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found dmarc=fail for alice.test");
}

Test(mail_authres, a_signature_of_another_domain_does_not_vouch)
{
    char *headers[] = {"mx.example.org; dkim=pass header.d=mailer.test "
                       "header.i=@mailer.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found dkim=pass only for "
                          "mailer.test, not alice.test");
    /* a look-alike domain is another domain */
    cr_assert_not(pass(headers, 1, "test", why));
    char *suffix[] = {"mx.example.org; dkim=pass header.i=@evilalice.test"};
    cr_assert_not(pass(suffix, 1, "alice.test", why));
}

Test(mail_authres, nothing_from_our_server)
{
    char *headers[] = {"mx.google.com; dkim=pass header.i=@alice.test; "
                       "dmarc=pass header.from=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "alice.test", why));
    cr_assert_str_eq(why, "no Authentication-Results from mx.example.org");
    cr_assert_not(pass(NULL, 0, "alice.test", why));
    cr_assert_str_eq(why, "no Authentication-Results from mx.example.org");
}

Test(mail_authres, a_name_that_only_starts_like_ours_is_another_server)
{
    char *headers[] = {"mx.example.org.evil.test; dkim=pass "
                       "header.d=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "alice.test", why));
}

Test(mail_authres, no_result_at_all)
{
    char *headers[] = {"mx.example.org; none"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found no dkim or dmarc result for "
                          "alice.test");
}

Test(mail_authres, a_forged_pass_from_another_server_above_is_ignored)
{
    char *headers[] = {"evil.test; dkim=pass header.d=alice.test; dmarc=pass "
                       "header.from=alice.test",
                       "mx.example.org; dkim=fail header.d=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 2, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found dkim=fail for alice.test");
}

Test(mail_authres, a_forged_pass_from_another_server_below_is_ignored)
{
    char *headers[] = {
        "mx.example.org; dkim=none; dmarc=fail header.from=alice.test",
        "relay.test; dkim=pass header.d=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 2, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found dmarc=fail for alice.test");
}

Test(mail_authres, other_servers_around_a_trusted_pass_change_nothing)
{
    char *headers[] = {"evil.test; dkim=fail header.d=alice.test",
                       "mx.example.org; dmarc=pass header.from=alice.test",
                       "relay.test; dmarc=fail header.from=alice.test"};
    char why[200] = "";
    cr_assert(pass(headers, 3, "alice.test", why), "%s", why);
}

Test(mail_authres, a_forged_pass_with_our_name_below_ours_is_ignored)
{
    /* The sender wrote the second before our server saw the mail; our
     * server added the first, on top. */
    char *headers[] = {
        "MX.Example.Org; dkim=fail (signature did not verify) "
        "header.d=alice.test; dmarc=fail header.from=alice.test",
        "mx.example.org; dkim=pass header.d=alice.test; dmarc=pass "
        "header.from=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 2, "alice.test", why));
    cr_assert_str_eq(why, "mx.example.org found dmarc=fail for alice.test");
}

Test(mail_authres, quoted_semicolons_and_parentheses_are_values)
{
    char *headers[] = {"mx.example.org; dkim=fail reason=\"bad; (very) bad\" "
                       "header.d=alice.test; dmarc=pass "
                       "header.from=\"alice.test\""};
    char why[200] = "";
    cr_assert(pass(headers, 1, "alice.test", why), "%s", why);
}

Test(mail_authres, malformed_headers_are_not_a_pass)
{
    char *headers[] = {"", ";;;", "mx.example.org", "(unclosed",
                       "mx.example.org; dkim=pass header.d=\"alice.test"};
    char why[200] = "";
    for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
        cr_assert_not(pass(headers + i, 1, "alice.test", why), "%s",
                      headers[i]);
}

Test(mail_authres, no_sender_domain_is_not_a_pass)
{
    char *headers[] = {"mx.example.org; dmarc=pass header.from=alice.test"};
    char why[200] = "";
    cr_assert_not(pass(headers, 1, "", why));
    cr_assert_str_eq(why, "the sender has no domain to check");
}
