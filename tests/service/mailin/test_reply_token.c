/* The single-use reply addresses: what a token says reads back, a forged,
 * altered or expired one does not, and the address form round-trips. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "auth/reply_token.h"
#include "core/config.h"
#include "ledger/seal.h"

static void with_service_key(void)
{
    cr_assert(sodium_init() >= 0);
    char path[256];
    snprintf(path, sizeof path, "%s/reply-token-%d.key",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    apierr err;
    cr_assert(seal_load_key(path, &err), "%s", err.message);
    setenv("PBEM_MAIL_REPLY_TO", "pbem@example.org", 1);
    unsetenv("PBEM_MAIL_TOKEN_DAYS");
    cr_assert(config_load(&err), "%s", err.message);
}

TestSuite(reply_token, .init = with_service_key);

static const long long now = 1795000000; /* 2026-11-18 */

Test(reply_token, a_seat_token_reads_back_what_it_was_made_for)
{
    char text[REPLY_TOKEN_CHARS + 1];
    reply_token_make(REPLY_TOKEN_SEAT, 4611686018427387903LL, 123456789, 3,
                     now, text);
    cr_assert_eq(strlen(text), REPLY_TOKEN_CHARS);
    reply_token t;
    char why[256];
    cr_assert(reply_token_read(text, now + 60, &t, why, sizeof why), "%s", why);
    cr_expect_eq(t.kind, REPLY_TOKEN_SEAT);
    cr_expect_eq(t.subject, 4611686018427387903LL);
    cr_expect_eq(t.match_id, 123456789);
    cr_expect_eq(t.seat, 3);
    /* Thirty days by default, rounded up to the hour. */
    cr_expect(t.expires >= now + 30 * 86400 && t.expires < now + 30 * 86400 + 3600,
              "expires %lld", t.expires);
    cr_expect_eq(strlen(t.id), REPLY_TOKEN_ID_CHARS);
}

Test(reply_token, case_does_not_matter_but_every_character_does)
{
    char text[REPLY_TOKEN_CHARS + 1];
    reply_token_make(REPLY_TOKEN_ACCOUNT, 42, 0, -1, now, text);
    reply_token t;
    char why[256];
    char upper[REPLY_TOKEN_CHARS + 1];
    for (size_t i = 0; i <= REPLY_TOKEN_CHARS; i++)
        upper[i] = (char)toupper((unsigned char)text[i]);
    cr_expect(reply_token_read(upper, now, &t, why, sizeof why), "%s", why);
    cr_expect_eq(t.seat, -1);
    for (size_t i = 0; i < REPLY_TOKEN_CHARS - 1; i++) {
        char forged[REPLY_TOKEN_CHARS + 1];
        memcpy(forged, text, sizeof forged);
        forged[i] = forged[i] == 'a' ? 'b' : 'a';
        cr_expect_not(reply_token_read(forged, now, &t, why, sizeof why),
                      "a token changed at %zu still reads", i);
        cr_expect(strstr(why, "not one the service gave out") != NULL, "%s",
                  why);
    }
    cr_expect_not(reply_token_read("short", now, &t, why, sizeof why));
    cr_expect_not(reply_token_read("", now, &t, why, sizeof why));
}

Test(reply_token, tokens_are_each_new_and_expire)
{
    char a[REPLY_TOKEN_CHARS + 1], b[REPLY_TOKEN_CHARS + 1];
    reply_token_make(REPLY_TOKEN_SEAT, 1, 2, 0, now, a);
    reply_token_make(REPLY_TOKEN_SEAT, 1, 2, 0, now, b);
    cr_expect_str_neq(a, b, "two mails about one seat get two addresses");
    reply_token t;
    char why[256];
    cr_expect_not(reply_token_read(a, now + 31 * 86400, &t, why, sizeof why));
    cr_expect(strstr(why, "expired") != NULL, "%s", why);
    setenv("PBEM_MAIL_TOKEN_DAYS", "2", 1);
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
    reply_token_make(REPLY_TOKEN_SEAT, 1, 2, 0, now, a);
    cr_expect(reply_token_read(a, now + 86400, &t, why, sizeof why), "%s", why);
    cr_expect_not(reply_token_read(a, now + 3 * 86400, &t, why, sizeof why));
}

Test(reply_token, a_token_made_with_another_service_key_is_refused)
{
    char text[REPLY_TOKEN_CHARS + 1];
    reply_token_make(REPLY_TOKEN_SEAT, 7, 8, 1, now, text);
    char path[256];
    snprintf(path, sizeof path, "%s/reply-token-other-%d.key",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    apierr err;
    cr_assert(seal_load_key(path, &err), "%s", err.message);
    reply_token t;
    char why[256];
    cr_expect_not(reply_token_read(text, now, &t, why, sizeof why));
}

Test(reply_token, addresses_carry_the_token_and_are_recognised)
{
    char text[REPLY_TOKEN_CHARS + 1], address[128];
    reply_token_make(REPLY_TOKEN_INVITATION, 99, 100, -1, now, text);
    cr_assert(reply_token_address(text, address, sizeof address));
    char expected[128];
    snprintf(expected, sizeof expected, "pbem+%s@example.org", text);
    cr_expect_str_eq(address, expected);
    cr_expect_leq(strlen(address) - strlen("@example.org"), 64,
                  "the local part fits the 64 characters RFC 5321 allows");
    char found[REPLY_TOKEN_CHARS + 1];
    cr_expect(reply_token_in_address(address, found));
    cr_expect_str_eq(found, text);
    cr_expect(reply_token_in_address("PBEM@Example.ORG", found));
    cr_expect_str_eq(found, "", "the bare address has no token");
    cr_expect_not(reply_token_in_address("pbem+abc@example.org", found));
    cr_expect_not(reply_token_in_address("other@example.org", found));
    cr_expect_not(reply_token_in_address("pbem@evil.example", found));
    unsetenv("PBEM_MAIL_REPLY_TO");
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
    cr_expect_not(reply_token_address(text, address, sizeof address));
}
