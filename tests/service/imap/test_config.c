/* PBEM_IMAP_*: what pbemd accepts, what it refuses with a sentence, and
 * that the password never reaches a log line. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "mailin/imap_config.h"

static void clear(void)
{
    static const char *const names[] = {
        "PBEM_IMAP_URL",     "PBEM_IMAP_DONE",    "PBEM_IMAP_STARTTLS",
        "PBEM_IMAP_POLL_MS", "PBEM_IMAP_BATCH",   "PBEM_IMAP_TIMEOUT",
        "PBEM_IMAP_CA_FILE", "PBEM_IMAP_HANDLERS"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unsetenv(names[i]);
}

TestSuite(imap_config, .init = clear);

/* The environment as set, read again as pbemd reads it at start. */
static void reload(void)
{
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
}

/* The error for the environment as set: config's when a value is not one
 * its variable accepts (a number out of range, a word not among the
 * choices), else imap_config's; fails when it is accepted. */
static apierr refused(void)
{
    imap_config config;
    apierr err;
    if (!config_load(&err)) {
        cr_expect_str_eq(err.code, "config");
    } else {
        cr_assert_not(imap_config_from_env(&config, &err),
                      "accepted PBEM_IMAP_URL=%s", getenv("PBEM_IMAP_URL"));
        cr_expect_str_eq(err.code, "imap_config");
    }
    cr_expect_null(strstr(err.message, "Pa55"), "%s", err.message);
    return err;
}

Test(imap_config, unset_means_no_worker)
{
    reload();
    cr_expect_not(imap_configured());
    setenv("PBEM_IMAP_URL", "", 1);
    reload();
    cr_expect_not(imap_configured());
    refused();
}

Test(imap_config, the_defaults)
{
    setenv("PBEM_IMAP_URL", "imaps://turns:Pa55@mail.example.org", 1);
    reload();
    cr_assert(imap_configured());
    imap_config c;
    apierr err;
    cr_assert(imap_config_from_env(&c, &err), "%s", err.message);
    cr_expect_str_eq(c.server, "imaps://mail.example.org:993/");
    cr_expect_str_eq(c.user, "turns");
    cr_expect_str_eq(c.password, "Pa55");
    cr_expect_str_eq(c.mailbox, "INBOX");
    cr_expect_eq(c.done, IMAP_CONFIG_MOVE);
    cr_expect_str_eq(c.done_folder, "Processed");
    cr_expect_eq(c.starttls, IMAP_CONFIG_STARTTLS_NO);
    cr_expect_eq(c.poll_ms, 30000);
    cr_expect_eq(c.batch, 16);
    cr_expect_eq(c.handlers, 4);
    cr_expect_eq(c.timeout_seconds, 60);
    cr_expect_str_eq(c.shown, "imaps://turns:***@mail.example.org:993/INBOX");
}

Test(imap_config, everything_set)
{
    setenv("PBEM_IMAP_URL",
           "imap://turns%40pbem.example:s3cr%3At%40Pa55%20@10.0.0.7:1143/"
           "Games%2Fpbem/",
           1);
    setenv("PBEM_IMAP_DONE", "delete", 1);
    setenv("PBEM_IMAP_STARTTLS", "required", 1);
    setenv("PBEM_IMAP_POLL_MS", "250", 1);
    setenv("PBEM_IMAP_BATCH", "64", 1);
    setenv("PBEM_IMAP_HANDLERS", "16", 1);
    setenv("PBEM_IMAP_TIMEOUT", "5", 1);
    reload();
    imap_config c;
    apierr err;
    cr_assert(imap_config_from_env(&c, &err), "%s", err.message);
    cr_expect_str_eq(c.server, "imap://10.0.0.7:1143/");
    cr_expect_str_eq(c.user, "turns@pbem.example");
    cr_expect_str_eq(c.password, "s3cr:t@Pa55 ");
    cr_expect_str_eq(c.mailbox, "Games/pbem");
    cr_expect_eq(c.done, IMAP_CONFIG_DELETE);
    cr_expect_eq(c.starttls, IMAP_CONFIG_STARTTLS_REQUIRED);
    cr_expect_eq(c.poll_ms, 250);
    cr_expect_eq(c.batch, 64);
    cr_expect_eq(c.handlers, 16);
    cr_expect_eq(c.timeout_seconds, 5);
    cr_expect_str_eq(c.shown,
                     "imap://turns@pbem.example:***@10.0.0.7:1143/Games/pbem");
    cr_expect_null(strstr(c.shown, "Pa55"));
    setenv("PBEM_IMAP_DONE", "move:Done/2026", 1);
    reload();
    cr_assert(imap_config_from_env(&c, &err), "%s", err.message);
    cr_expect_str_eq(c.done_folder, "Done/2026");
}

Test(imap_config, malformed_urls_are_refused_with_a_reason)
{
    static const struct {
        const char *url, *says;
    } cases[] = {
        {"mail.example.org", "not a URL"},
        {"pop3://turns:Pa55@mail.example.org/", "imap:// or imaps://"},
        {"https://turns:Pa55@mail.example.org/", "imap:// or imaps://"},
        {"imaps://mail.example.org/INBOX", "user and the password"},
        {"imaps://turns@mail.example.org/INBOX", "user and the password"},
        {"imaps://turns;AUTH=PLAIN:Pa55@mail.example.org/", "login options"},
        {"imaps://turns:Pa55@mail.example.org/INBOX;UID=7", "not a message"},
        {"imaps://turns:Pa55@mail.example.org/INBOX;UIDVALIDITY=3",
         "UIDVALIDITY"},
        {"imaps://turns:Pa55@mail.example.org/INBOX?SUBJECT%20x", "search"},
        {"imaps://turns:Pa55@mail.example.org/Spi%C3%A9le", "ASCII"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("PBEM_IMAP_URL", cases[i].url, 1);
        apierr err = refused();
        cr_expect_not_null(strstr(err.message, cases[i].says), "%s: %s",
                           cases[i].url, err.message);
        cr_expect_not_null(strstr(err.message, "PBEM_IMAP_URL"), "%s",
                           err.message);
    }
}

Test(imap_config, malformed_settings_are_refused_with_a_reason)
{
    static const struct {
        const char *name, *value, *says;
    } cases[] = {
        {"PBEM_IMAP_DONE", "move", "move:Folder"},
        {"PBEM_IMAP_DONE", "move:", "move:Folder"},
        {"PBEM_IMAP_DONE", "archive", "move:Folder"},
        {"PBEM_IMAP_DONE", "move:INBOX", "the mailbox it is read from"},
        {"PBEM_IMAP_DONE", "move:inbox", "the mailbox it is read from"},
        {"PBEM_IMAP_STARTTLS", "yes", "no, try or required"},
        {"PBEM_IMAP_POLL_MS", "fast", "from 10 to 86400000"},
        {"PBEM_IMAP_POLL_MS", "5", "from 10 to 86400000"},
        {"PBEM_IMAP_POLL_MS", "-100", "from 10 to 86400000"},
        {"PBEM_IMAP_POLL_MS", "1000ms", "from 10 to 86400000"},
        {"PBEM_IMAP_BATCH", "0", "from 1 to 64"},
        {"PBEM_IMAP_BATCH", "65", "from 1 to 64"},
        {"PBEM_IMAP_BATCH", "99999999999999999999", "from 1 to 64"},
        {"PBEM_IMAP_HANDLERS", "0", "from 1 to 16"},
        {"PBEM_IMAP_HANDLERS", "17", "from 1 to 16"},
        {"PBEM_IMAP_TIMEOUT", "601", "from 1 to 600"},
        {"PBEM_IMAP_CA_FILE", "/nonexistent/ca.pem", "cannot read"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clear();
        setenv("PBEM_IMAP_URL", "imaps://turns:Pa55@mail.example.org/", 1);
        setenv(cases[i].name, cases[i].value, 1);
        apierr err = refused();
        cr_expect_not_null(strstr(err.message, cases[i].name), "%s",
                           err.message);
        cr_expect_not_null(strstr(err.message, cases[i].says), "%s=%s: %s",
                           cases[i].name, cases[i].value, err.message);
    }
}

Test(imap_config, a_refusal_leaves_no_password_behind)
{
    setenv("PBEM_IMAP_URL", "imaps://turns:Pa55@mail.example.org/", 1);
    setenv("PBEM_IMAP_DONE", "archive", 1);
    reload();
    imap_config c;
    apierr err;
    cr_assert_not(imap_config_from_env(&c, &err));
    cr_expect_str_eq(c.password, "");
}
