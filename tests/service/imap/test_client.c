/* The IMAP client's verbs against a real Dovecot. The client's .c is
 * included to reach its statics: a server without MOVE or UIDPLUS is
 * played by forgetting what Dovecot announced. */
#include <criterion/criterion.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "../../../service/mailin/imap_client.c"
#include "mailbox_test.h"

static const char *const users[] = {"alice", NULL};
static dovecot server;
static imap_config config;

static void up(void)
{
    dovecot_start(&server, users);
    test_config(&server, "alice", NULL, &config);
}

static void down(void)
{
    dovecot_remove(&server);
}

static imap_client *open_client(void)
{
    char error[512];
    imap_client *c = imap_client_open(&config, -1, error, sizeof error);
    cr_assert_not_null(c, "%s", error);
    return c;
}

/* The UIDs of the unseen messages, oldest first; how many. */
static size_t unseen(imap_client *c, uint32_t *uids, size_t max)
{
    size_t count, total;
    cr_assert_eq(imap_client_unseen(c, uids, max, &count, &total),
                 IMAP_CLIENT_OK, "%s", imap_client_error(c));
    return count;
}

/* The one unseen message's UID. */
static uint32_t only_unseen(imap_client *c)
{
    uint32_t uids[4];
    cr_assert_eq(unseen(c, uids, 4), 1);
    return uids[0];
}

TestSuite(imap_client, .init = up, .fini = down, .timeout = 60);

Test(imap_client, reading_a_message_leaves_it_unseen)
{
    deliver(&server, "alice", "a1@example.org");
    imap_client *c = open_client();
    cr_expect(c->has_move && c->has_uidplus && c->has_idle && c->has_condstore,
              "Dovecot announces MOVE, UIDPLUS, IDLE and CONDSTORE");
    char *raw = NULL;
    size_t length = 0;
    uint64_t version = 0;
    cr_assert_eq(imap_client_fetch(c, only_unseen(c), &raw, &length, &version),
                 IMAP_CLIENT_OK, "%s", imap_client_error(c));
    cr_expect_gt(version, 0, "Dovecot has CONDSTORE: a MODSEQ");
    cr_expect_not_null(strstr(raw, "Message-ID: <a1@example.org>\r\n"));
    cr_expect_eq(strlen(raw), length);
    free(raw);
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), 1,
                 "BODY.PEEK[] must not set \\Seen");
    imap_client_close(c);
}

Test(imap_client, the_unseen_are_listed_oldest_first_a_batch_at_a_time)
{
    for (int i = 0; i < 5; i++) {
        char id[32];
        snprintf(id, sizeof id, "b%d@example.org", i);
        deliver(&server, "alice", id);
    }
    imap_client *c = open_client();
    uint32_t uids[3];
    size_t count, total;
    cr_assert_eq(imap_client_unseen(c, uids, 3, &count, &total),
                 IMAP_CLIENT_OK);
    cr_expect_eq(count, 3);
    cr_expect_eq(total, 5);
    cr_expect(uids[0] < uids[1] && uids[1] < uids[2]);
    /* Seen mail, or mail someone marked \Deleted, is not new mail. */
    cr_assert_eq(imap_client_mark_seen(c, uids[0], 0), IMAP_CLIENT_OK);
    cr_assert_eq(per_set(c, &uids[1], 1, "STORE", " +FLAGS.SILENT (\\Deleted)",
                         NULL, NULL, "flag"),
                 IMAP_CLIENT_OK);
    cr_assert_eq(imap_client_unseen(c, uids, 3, &count, &total),
                 IMAP_CLIENT_OK);
    cr_expect_eq(total, 3);
    imap_client_close(c);
}

/* Mail that another session made unseen since this session's last command
 * (a delivery that appends it \Seen and then takes the flag off, as
 * libcurl's APPEND does) is listed by the next listing, not the one after:
 * Dovecot answers a SEARCH from the session's view as of its last command
 * unless something brings the view up to date first, and a worker polling
 * every 100 ms listed a round's mail 100 ms late. */
Test(imap_client, mail_another_session_made_unseen_is_listed_at_once)
{
    imap_client *c = open_client();
    uint32_t uids[4];
    cr_assert_eq(unseen(c, uids, 4), 0);
    deliver(&server, "alice", "late@example.org");
    cr_expect_eq(unseen(c, uids, 4), 1, "listed by the first listing after");
    imap_client_close(c);
}

Test(imap_client, a_message_over_4_mib_is_not_read)
{
    size_t length;
    char *mail = test_mail("big@example.org", (size_t)5 << 20, &length);
    dovecot_append(&server, "alice", "INBOX", mail, length);
    free(mail);
    imap_client *c = open_client();
    char *raw = NULL;
    size_t size = 0;
    uint64_t version;
    cr_assert_eq(imap_client_fetch(c, only_unseen(c), &raw, &size, &version),
                 IMAP_CLIENT_TOO_BIG);
    cr_expect_null(raw);
    cr_expect_eq(size, length, "the size is told: %zu", size);
    imap_client_close(c);
}

Test(imap_client, moving_creates_the_folder_the_first_time)
{
    deliver(&server, "alice", "c1@example.org");
    deliver(&server, "alice", "c2@example.org");
    cr_assert_eq(dovecot_count(&server, "alice", "Processed", "ALL"), -1);
    imap_client *c = open_client();
    uint32_t uids[2];
    cr_assert_eq(unseen(c, uids, 2), 2);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(imap_client_mark_seen(c, uids[i], 0), IMAP_CLIENT_OK);
        cr_assert_eq(imap_client_move(c, uids[i], "Processed"), IMAP_CLIENT_OK,
                     "%s", imap_client_error(c));
    }
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "SEEN"), 2);
    imap_client_close(c);
}

Test(imap_client, without_move_a_copy_is_made_and_the_original_expunged)
{
    deliver(&server, "alice", "d1@example.org");
    deliver(&server, "alice", "d2@example.org");
    imap_client *c = open_client();
    c->has_move = false;
    uint32_t uids[2];
    cr_assert_eq(unseen(c, uids, 2), 2);
    cr_assert_eq(imap_client_move(c, uids[0], "Done"), IMAP_CLIENT_OK, "%s",
                 imap_client_error(c));
    /* Without UIDPLUS there is only EXPUNGE, of all \Deleted mail. */
    c->has_uidplus = false;
    cr_assert_eq(imap_client_move(c, uids[1], "Done"), IMAP_CLIENT_OK, "%s",
                 imap_client_error(c));
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
    cr_expect_eq(dovecot_count(&server, "alice", "Done", "ALL"), 2);
    imap_client_close(c);
}

Test(imap_client, deleting_expunges)
{
    deliver(&server, "alice", "e1@example.org");
    imap_client *c = open_client();
    cr_assert_eq(imap_client_delete(c, only_unseen(c)), IMAP_CLIENT_OK);
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
    imap_client_close(c);
}

/* Two processes on one mailbox: the one that comes second finds the
 * message gone, and putting it away again is no error. */
Test(imap_client, a_message_another_session_put_away_is_gone_not_an_error)
{
    deliver(&server, "alice", "f1@example.org");
    imap_client *first = open_client(), *second = open_client();
    uint32_t uid = only_unseen(first);
    cr_assert_eq(only_unseen(second), uid);
    cr_assert_eq(imap_client_mark_seen(first, uid, 0), IMAP_CLIENT_OK);
    cr_assert_eq(imap_client_move(first, uid, "Processed"), IMAP_CLIENT_OK);
    char *raw = NULL;
    size_t length = 0;
    uint64_t version;
    cr_expect_eq(imap_client_fetch(second, uid, &raw, &length, &version),
                 IMAP_CLIENT_GONE);
    cr_expect_null(raw);
    cr_expect_eq(imap_client_mark_seen(second, uid, 0), IMAP_CLIENT_OK, "%s",
                 imap_client_error(second));
    cr_expect_eq(imap_client_move(second, uid, "Processed"), IMAP_CLIENT_OK,
                 "%s", imap_client_error(second));
    cr_expect_eq(imap_client_delete(second, uid), IMAP_CLIENT_OK, "%s",
                 imap_client_error(second));
    cr_expect_eq(imap_client_fetch(second, 9999, &raw, &length, &version),
                 IMAP_CLIENT_GONE);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "ALL"), 1);
    imap_client_close(first);
    imap_client_close(second);
}

/* Two processes handled one message: the first to mark it \Seen puts it
 * away, the second learns it is taken (and a third, reading it after the
 * mark, finds it gone). */
Test(imap_client, only_one_of_two_readers_may_mark_a_message)
{
    deliver(&server, "alice", "h1@example.org");
    imap_client *first = open_client(), *second = open_client();
    uint32_t uid = only_unseen(first);
    char *raw1 = NULL, *raw2 = NULL;
    size_t length;
    uint64_t v1 = 0, v2 = 0;
    cr_assert_eq(imap_client_fetch(first, uid, &raw1, &length, &v1),
                 IMAP_CLIENT_OK);
    cr_assert_eq(imap_client_fetch(second, uid, &raw2, &length, &v2),
                 IMAP_CLIENT_OK);
    free(raw1);
    free(raw2);
    cr_assert_eq(v1, v2);
    cr_expect_eq(imap_client_mark_seen(first, uid, v1), IMAP_CLIENT_OK, "%s",
                 imap_client_error(first));
    cr_expect_eq(imap_client_mark_seen(second, uid, v2), IMAP_CLIENT_GONE, "%s",
                 imap_client_error(second));
    cr_expect_eq(imap_client_fetch(second, uid, &raw2, &length, &v2),
                 IMAP_CLIENT_GONE, "seen: taken by another");
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "SEEN"), 1);
    imap_client_close(first);
    imap_client_close(second);
}

Test(imap_client, idle_wakes_when_mail_arrives)
{
    imap_client *c = open_client();
    int fd = -1;
    bool pending = true;
    cr_assert_eq(imap_client_idle_begin(c, &fd, &pending), IMAP_CLIENT_OK);
    cr_assert_geq(fd, 0);
    cr_expect_not(pending);
    deliver(&server, "alice", "g1@example.org");
    struct pollfd p = {.fd = fd, .events = POLLIN};
    cr_expect_eq(poll(&p, 1, 10000), 1, "no news within 10 s");
    cr_assert_eq(imap_client_idle_end(c), IMAP_CLIENT_OK, "%s",
                 imap_client_error(c));
    only_unseen(c);
    imap_client_close(c);
}

Test(imap_client, a_wrong_password_is_an_error_that_does_not_show_it)
{
    snprintf(config.password, sizeof config.password, "wrong-Pa55word");
    char error[512] = "";
    cr_assert_null(imap_client_open(&config, -1, error, sizeof error));
    cr_expect_not_null(strstr(error, "cannot log in to imap://alice:***@"),
                       "%s", error);
    cr_expect_null(strstr(error, "Pa55"), "%s", error);
}

/* PBEM_IMAP_STARTTLS=required: a server that cannot start TLS (this one
 * has ssl = no) gets no password in the clear. */
Test(imap_client, required_starttls_refuses_a_server_without_tls)
{
    config.starttls = IMAP_CONFIG_STARTTLS_REQUIRED;
    char error[512] = "";
    cr_assert_null(imap_client_open(&config, -1, error, sizeof error));
    cr_expect_not_null(strstr(error, "SSL"), "%s", error);
    config.starttls = IMAP_CONFIG_STARTTLS_TRY;
    imap_client *c = imap_client_open(&config, -1, error, sizeof error);
    cr_expect_not_null(c, "try: plain is good enough: %s", error);
    imap_client_close(c);
}

/* A round's messages in a few round trips, not a few per message: one
 * FETCH of their sizes and flags, one of their bytes, one STORE of \Seen
 * and one MOVE for all of them. */
Test(imap_client, a_batch_is_read_marked_and_moved_in_four_commands)
{
    enum { N = 8 };
    for (int i = 0; i < N; i++) {
        char id[32];
        snprintf(id, sizeof id, "batch%d@example.org", i);
        deliver(&server, "alice", id);
    }
    /* Not one of the batch: another session marked it \Seen (put away). */
    imap_client *c = open_client();
    uint32_t uids[N];
    cr_assert_eq(unseen(c, uids, N), N);
    cr_assert_eq(imap_client_mark_seen(c, uids[3], 0), IMAP_CLIENT_OK);
    imap_client_message messages[N];
    for (int i = 0; i < N; i++)
        messages[i] = (imap_client_message){.uid = uids[i]};
    unsigned before = imap_wire_commands(c->wire);
    uint64_t version = 0;
    cr_assert_eq(imap_client_fetch_batch(c, messages, N, &version),
                 IMAP_CLIENT_OK, "%s", imap_client_error(c));
    cr_expect_eq(imap_wire_commands(c->wire) - before, 2,
                 "one FETCH of sizes, one of bytes: %u commands",
                 imap_wire_commands(c->wire) - before);
    cr_expect_gt(version, 0, "Dovecot has CONDSTORE: a MODSEQ");
    uint32_t done[N];
    size_t ended = 0;
    for (int i = 0; i < N; i++) {
        if (i == 3) {
            cr_expect_eq(messages[i].result, IMAP_CLIENT_GONE,
                         "a seen one is another's");
            continue;
        }
        cr_assert_eq(messages[i].result, IMAP_CLIENT_OK, "message %d", i);
        char id[64];
        snprintf(id, sizeof id, "Message-ID: <batch%d@example.org>\r\n", i);
        cr_expect_not_null(strstr(messages[i].raw, id), "message %d is %s", i,
                           messages[i].raw);
        cr_expect_eq(strlen(messages[i].raw), messages[i].length);
        free(messages[i].raw);
        done[ended++] = messages[i].uid;
    }
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), N - 1,
                 "BODY.PEEK[] must not set \\Seen");
    before = imap_wire_commands(c->wire);
    bool gone[N];
    cr_assert_eq(imap_client_mark_seen_batch(c, done, ended, version, gone),
                 IMAP_CLIENT_OK, "%s", imap_client_error(c));
    for (size_t i = 0; i < ended; i++)
        cr_expect(!gone[i], "UID %u unchanged since the read", done[i]);
    cr_assert_eq(imap_client_move_batch(c, done, ended, "Processed"),
                 IMAP_CLIENT_OK, "%s", imap_client_error(c));
    /* The folder exists already, or is made once (TRYCREATE, CREATE). */
    unsigned spent = imap_wire_commands(c->wire) - before;
    cr_expect(spent == 2 || spent == 4, "%u commands to put 7 away", spent);
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), 0);
    cr_expect_geq(dovecot_count(&server, "alice", "Processed", "SEEN"),
                  (int)ended);
    imap_client_close(c);
}

/* A message changed by another session after the batch was read is told
 * apart (RFC 7162's MODIFIED) and must not be moved; the rest are marked. */
Test(imap_client, a_message_changed_since_the_batch_was_read_is_left_out)
{
    deliver(&server, "alice", "m1@example.org");
    deliver(&server, "alice", "m2@example.org");
    deliver(&server, "alice", "m3@example.org");
    imap_client *first = open_client(), *second = open_client();
    uint32_t uids[3];
    cr_assert_eq(unseen(first, uids, 3), 3);
    imap_client_message messages[3];
    for (int i = 0; i < 3; i++)
        messages[i] = (imap_client_message){.uid = uids[i]};
    uint64_t version = 0;
    cr_assert_eq(imap_client_fetch_batch(first, messages, 3, &version),
                 IMAP_CLIENT_OK);
    for (int i = 0; i < 3; i++)
        free(messages[i].raw);
    /* The second session marks the middle one in the meantime. */
    cr_assert_eq(imap_client_mark_seen(second, uids[1], 0), IMAP_CLIENT_OK);
    bool gone[3];
    cr_assert_eq(imap_client_mark_seen_batch(first, uids, 3, version, gone),
                 IMAP_CLIENT_OK, "%s", imap_client_error(first));
    cr_expect(!gone[0] && gone[1] && !gone[2], "gone: %d %d %d", gone[0],
              gone[1], gone[2]);
    imap_client_close(first);
    imap_client_close(second);
}
