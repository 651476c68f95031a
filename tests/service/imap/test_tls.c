/* IMAP over TLS, the way production reads mail (imaps://, or STARTTLS),
 * against a Dovecot with a self-signed certificate: trusted only when
 * PBEM_IMAP_CA_FILE names it, since certificates are always verified. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "mailbox_test.h"
#include "mailin/imap_client.h"

static const char *const users[] = {"alice", NULL};
static dovecot server;

static void up(void)
{
    dovecot_start_tls(&server, users);
}

static void down(void)
{
    unsetenv("PBEM_IMAP_CA_FILE");
    unsetenv("PBEM_IMAP_STARTTLS");
    dovecot_remove(&server);
}

TestSuite(imap_tls, .init = up, .fini = down, .timeout = 60);

Test(imap_tls, the_worker_reads_mail_over_imaps)
{
    deliver(&server, "alice", "t1@example.org");
    /* Megabytes of literal through TLS records, read in many pieces. */
    size_t length;
    char *mail = test_mail("t2@example.org", (size_t)3 << 20, &length);
    dovecot_append(&server, "alice", "INBOX", mail, length);
    free(mail);
    char url[512];
    dovecot_imaps_url(&server, "alice", "INBOX", url, sizeof url);
    setenv("PBEM_IMAP_CA_FILE", server.ca_file, 1);
    imap_config config;
    test_config_url(url, NULL, &config);
    cr_expect_eq(strncmp(config.server, "imaps://", 8), 0);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 2, 20));
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    cr_expect_eq(recorder_times(&r, "t1@example.org"), 1);
    cr_expect_eq(recorder_times(&r, "t2@example.org"), 1);
    cr_expect_eq(s.failures, 0);
}

Test(imap_tls, a_certificate_nobody_vouches_for_is_refused)
{
    char url[512];
    dovecot_imaps_url(&server, "alice", "INBOX", url, sizeof url);
    imap_config config;
    test_config_url(url, NULL, &config);
    char error[512] = "";
    cr_assert_null(imap_client_open(&config, -1, error, sizeof error));
    cr_expect_not_null(strstr(error, "certificate"), "%s", error);
    cr_expect_null(strstr(error, "s3cr"), "%s", error);
}

Test(imap_tls, starttls_required_upgrades_the_plain_port)
{
    deliver(&server, "alice", "t3@example.org");
    char url[512];
    dovecot_url(&server, "alice", "INBOX", url, sizeof url);
    setenv("PBEM_IMAP_STARTTLS", "required", 1);
    setenv("PBEM_IMAP_CA_FILE", server.ca_file, 1);
    imap_config config;
    test_config_url(url, NULL, &config);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 1, 20));
    imap_worker_stop(w);
    cr_expect_eq(recorder_times(&r, "t3@example.org"), 1);
}
