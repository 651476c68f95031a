/* The IMAP worker against a real Dovecot: every message handed over,
 * put away only after the handler's answer, and nothing lost or broken
 * when the server, the handler or the process fails. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "core/metrics.h"
#include "mailbox_test.h"

static const char *const users[] = {"alice", NULL};
static dovecot server;

static void up(void)
{
    dovecot_start(&server, users);
}

static void down(void)
{
    dovecot_remove(&server);
}

TestSuite(imap_worker, .init = up, .fini = down, .timeout = 120);

Test(imap_worker, each_message_is_handed_over_once_and_ends_seen_in_processed)
{
    deliver(&server, "alice", "m1@example.org");
    deliver(&server, "alice", "m2@example.org");
    deliver(&server, "alice", "m3@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 3, 20),
              "three seen messages in Processed");
    /* Mail that comes while the worker waits (IDLE) is read too. */
    deliver(&server, "alice", "m4@example.org");
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 4, 20));
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "UNSEEN"), 0);
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    static const char *const ids[] = {"m1@example.org", "m2@example.org",
                                      "m3@example.org", "m4@example.org"};
    for (int i = 0; i < 4; i++)
        cr_expect_eq(recorder_times(&r, ids[i]), 1, "%s handed %d times",
                     ids[i], recorder_times(&r, ids[i]));
    cr_expect_eq(recorder_calls(&r), 4);
    cr_expect_eq(s.fetched, 4);
    cr_expect_eq(s.handled, 4);
    cr_expect_eq(s.put_away, 4);
    cr_expect_eq(s.failures, 0);
}

Test(imap_worker, a_full_batch_is_followed_at_once_by_the_next)
{
    for (int i = 0; i < 7; i++) {
        char id[32];
        snprintf(id, sizeof id, "n%d@example.org", i);
        deliver(&server, "alice", id);
    }
    setenv("PBEM_IMAP_BATCH", "2", 1);
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    unsetenv("PBEM_IMAP_BATCH");
    cr_assert_eq(config.batch, 2);
    /* A long poll: only going on at once gets through 7 in time. */
    config.poll_ms = 600000;
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_expect(dovecot_wait_count(&server, "alice", "Processed", "ALL", 7, 20));
    imap_worker_stop(w);
    cr_expect_eq(recorder_calls(&r), 7);
}

Test(imap_worker, delete_mode_expunges_handled_mail)
{
    deliver(&server, "alice", "d1@example.org");
    deliver(&server, "alice", "d2@example.org");
    imap_config config;
    test_config(&server, "alice", "delete", &config);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "INBOX", "ALL", 0, 20));
    imap_worker_stop(w);
    cr_expect_eq(recorder_calls(&r), 2);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "ALL"), -1,
                 "nothing moved, no folder made");
}

Test(imap_worker, try_later_leaves_the_message_unseen_for_the_next_round)
{
    deliver(&server, "alice", "t1@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    recorder r;
    recorder_init(&r, IMAP_TRY_LATER);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(recorder_wait_calls(&r, 3, 20),
              "handed over again round after round");
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), 1);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "ALL"), -1);
    recorder_answer(&r, IMAP_HANDLED);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 1, 20));
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    cr_expect_geq(s.try_later, 3);
    cr_expect_eq(s.handled, 1);
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
}

Test(imap_worker, an_unreadable_message_is_put_away_too)
{
    deliver(&server, "alice", "u1@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    recorder r;
    recorder_init(&r, IMAP_UNREADABLE);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 1, 20));
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    cr_expect_eq(s.unreadable, 1);
    cr_expect_eq(recorder_calls(&r), 1);
}

Test(imap_worker, a_message_over_4_mib_is_put_away_without_the_handler)
{
    size_t length;
    char *mail = test_mail("huge@example.org", (size_t)5 << 20, &length);
    dovecot_append(&server, "alice", "INBOX", mail, length);
    free(mail);
    deliver(&server, "alice", "small@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 2, 20));
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    cr_expect_eq(recorder_times(&r, "huge@example.org"), 0);
    cr_expect_eq(recorder_times(&r, "small@example.org"), 1);
    cr_expect_eq(s.oversized, 1);
    cr_expect_eq(s.fetched, 1);
}

/* The child's handler: tells the parent which message it got, then the
 * process dies as if killed right after its commit. */
static int crash_pipe = -1;

static imap_outcome commit_then_crash(void *context, const char *raw,
                                      size_t length)
{
    (void)context;
    const char *id = strstr(raw, "Message-ID: <");
    if (id != NULL) {
        ssize_t wrote = write(crash_pipe, id, strcspn(id, "\r\n"));
        (void)wrote;
    }
    (void)length;
    _exit(0);
}

/* Runs a worker with handler in a child process, which the handler ends;
 * what the handler wrote to crash_pipe (its message's Message-ID line)
 * goes to got (size bytes). */
static void run_until_crash(const imap_config *config, imap_handler handler,
                            char *got, size_t size)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        close(fds[0]);
        crash_pipe = fds[1];
        apierr err;
        imap_worker *w = imap_worker_start(config, handler, NULL, &err);
        if (w == NULL)
            _exit(2);
        /* The handler ends the process; this only bounds a hang. */
        alarm(30);
        pause();
        _exit(3);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], got, size - 1);
    got[n > 0 ? n : 0] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    cr_assert(n > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the child's handler never ran (status %d)", status);
}

Test(imap_worker, a_crash_between_commit_and_marking_rereads_the_message)
{
    deliver(&server, "alice", "c1@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    char got[128];
    run_until_crash(&config, commit_then_crash, got, sizeof got);
    cr_expect_str_eq(got, "Message-ID: <c1@example.org>");
    cr_assert_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), 1,
                 "the crash left it unseen");
    /* The next process reads it again; the handler's idempotency (the
     * database's) makes that harmless, and this time it is put away. */
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 1, 20));
    imap_worker_stop(w);
    cr_expect_eq(recorder_times(&r, "c1@example.org"), 1, "read again");
}

/* Points stderr at a file (its path into path); returns the old stderr
 * for release_stderr. */
static int capture_stderr(char *path, size_t size)
{
    snprintf(path, size, "%s/worker.log", server.dir);
    int saved = dup(STDERR_FILENO);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert(saved >= 0 && fd >= 0);
    cr_assert_geq(dup2(fd, STDERR_FILENO), 0);
    close(fd);
    return saved;
}

static void release_stderr(int saved)
{
    cr_assert_geq(dup2(saved, STDERR_FILENO), 0);
    close(saved);
}

/* How many lines of the file hold needle. */
static int lines_with(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f);
    char line[2048];
    int n = 0;
    while (fgets(line, sizeof line, f) != NULL)
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

Test(imap_worker, a_server_outage_is_logged_once_and_survived)
{
    char log[600];
    int saved = capture_stderr(log, sizeof log);
    deliver(&server, "alice", "o1@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    log_set_quiet(0); /* the server's return is logged at INFO */
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 1, 20));
    imap_worker_stats before;
    imap_worker_stats_get(w, &before);
    dovecot_stop(&server);
    cr_assert(wait_stat(w, stat_failures, before.failures + 5, 20),
              "the worker keeps trying");
    dovecot_restart(&server);
    deliver(&server, "alice", "o2@example.org");
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 2, 20),
              "mail is read again once the server is back");
    imap_worker_stop(w);
    release_stderr(saved);
    cr_expect_eq(recorder_times(&r, "o2@example.org"), 1);
    cr_expect_eq(lines_with(log, "trying again"), 1,
                 "one WARN for the whole outage");
    cr_expect_eq(lines_with(log, "works again"), 1);
    cr_expect_eq(lines_with(log, dovecot_password(&server, "alice")), 0);
    cr_expect_eq(lines_with(log, "s3cr"), 0, "no password in the log");
}

/* Takes (or gives back) on conn, a session of its own, the hold a
 * worker takes on message uid of the mailbox it reads
 * (store/imap_claims.h): as another pbemd holding it. */
static void hold_as_another_process(PGconn *conn, const imap_config *config,
                                    unsigned uid, bool take)
{
    char number[16];
    snprintf(number, sizeof number, "%u", uid);
    const char *params[] = {config->shown, number};
    PGresult *r = PQexecParams(
        conn,
        take ? "SELECT pg_advisory_lock(hashtextextended($1 || '#' || $2, 10))"
             : "SELECT pg_advisory_unlock("
               "hashtextextended($1 || '#' || $2, 10))",
        2, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    PQclear(r);
}

Test(imap_worker, a_message_another_process_holds_is_left_to_it)
{
    deliver(&server, "alice", "h1@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    PGconn *other = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(other), CONNECTION_OK, "%s", PQerrorMessage(other));
    hold_as_another_process(other, &config, 1, true);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(wait_stat(w, stat_elsewhere, 3, 20),
              "the worker met the held message round after round");
    cr_expect_eq(recorder_calls(&r), 0, "nor read nor handed over");
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), 1);
    /* The other process is done with it (say, it answered TRY_LATER). */
    hold_as_another_process(other, &config, 1, false);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 1, 20));
    imap_worker_stop(w);
    cr_expect_eq(recorder_times(&r, "h1@example.org"), 1);
    PQfinish(other);
}

/* One round of three workers on one mailbox, as three pbemd run them
 * (deploy/cluster.md): MESSAGES delivered (ids tagged with run), the
 * workers started, and once the INBOX is empty all stopped (stopping
 * waits for the message in hand to be put away). Returns how many copies
 * beyond one per message reached Processed, which held before of earlier
 * runs. */
static int three_workers_once(int run, int before)
{
    enum { MESSAGES = 60, WORKERS = 3 };
    for (int i = 0; i < MESSAGES; i++) {
        char id[32];
        snprintf(id, sizeof id, "s%d.%d@example.org", run, i);
        deliver(&server, "alice", id);
    }
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    config.batch = 4;
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *workers[WORKERS];
    for (int w = 0; w < WORKERS; w++)
        workers[w] = start_worker(&config, &r);
    bool emptied = dovecot_wait_count(&server, "alice", "INBOX", "ALL", 0, 60);
    imap_worker_stats s;
    unsigned long failures = 0, put_away = 0, elsewhere = 0, handled[WORKERS];
    for (int w = 0; w < WORKERS; w++) {
        imap_worker_stats_get(workers[w], &s);
        imap_worker_stop(workers[w]);
        failures += s.failures;
        put_away += s.put_away;
        elsewhere += s.elsewhere;
        handled[w] = s.handled;
    }
    cr_assert(emptied, "run %d: %d messages still in INBOX after 60 s", run,
              dovecot_count(&server, "alice", "INBOX", "ALL"));
    for (int i = 0; i < MESSAGES; i++) {
        char id[32];
        snprintf(id, sizeof id, "s%d.%d@example.org", run, i);
        cr_expect_geq(recorder_times(&r, id), 1, "%s never handed over", id);
    }
    cr_expect_eq(failures, 0);
    int copies = dovecot_count(&server, "alice", "Processed", "ALL") - before;
    cr_log_info("run %d: %lu, %lu and %lu handled, %lu put away, %lu left "
                "to another worker, %d handler calls for %d messages, %d in "
                "Processed",
                run, handled[0], handled[1], handled[2], put_away, elsewhere,
                recorder_calls(&r), MESSAGES, copies);
    return copies - MESSAGES;
}

/* Of workers that listed one message, only the one that holds it in
 * PostgreSQL reads, hands over and moves it: Dovecot lets two conditional
 * \Seen STOREs that arrive together both succeed, and two MOVEs then copy
 * the message twice (without the hold, 1-3 of 60 in about half the runs).
 * PBEM_IMAP_SHARE_RUNS rounds (1 in make test, each about 20 s on a busy
 * machine, most of it delivering; deploy/cluster.md has the figure over
 * 20), each wait bounded by 60 s. */
Test(imap_worker, three_workers_put_each_message_away_once, .timeout = 1200)
{
    const char *env = getenv("PBEM_IMAP_SHARE_RUNS");
    int runs = env != NULL && atoi(env) > 0 ? atoi(env) : 1;
    int duplicates = 0, before = 0;
    for (int run = 0; run < runs; run++) {
        int extra = three_workers_once(run, before);
        duplicates += extra;
        before = dovecot_count(&server, "alice", "Processed", "ALL");
    }
    cr_log_info("three workers, %d runs of 60 messages: %d messages in "
                "Processed twice",
                runs, duplicates);
    cr_expect_eq(duplicates, 0, "%d duplicates in Processed over %d runs",
                 duplicates, runs);
}

/* A handler that cannot record one message (its database refused, say):
 * TRY_LATER for "stuck@example.org" while stuck_refusals lasts, HANDLED
 * for the rest; every call counted in the recorder. */
static int stuck_refusals;

/* Its recording, once the refusals are over, waits (20 s at most) for the
 * test to open this gate: the test looks at the mailbox while the message
 * is still refused, however fast the worker comes back to it. */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static bool gate_open;

static void open_gate(void)
{
    pthread_mutex_lock(&gate_lock);
    gate_open = true;
    pthread_cond_broadcast(&gate_cond);
    pthread_mutex_unlock(&gate_lock);
}

static void through_gate(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 20;
    pthread_mutex_lock(&gate_lock);
    int rc = 0;
    while (!gate_open && rc == 0)
        rc = pthread_cond_timedwait(&gate_cond, &gate_lock, &until);
    pthread_mutex_unlock(&gate_lock);
}

static imap_outcome refuse_the_stuck_one(void *context, const char *raw,
                                         size_t length)
{
    recorder *r = context;
    bool stuck = strstr(raw, "<stuck@example.org>") != NULL;
    recorder_handle(r, raw, length);
    if (stuck && __atomic_sub_fetch(&stuck_refusals, 1, __ATOMIC_SEQ_CST) >= 0)
        return IMAP_TRY_LATER;
    if (stuck)
        through_gate();
    return IMAP_HANDLED;
}

Test(imap_worker, a_message_that_fails_to_record_in_a_batch_is_left_unseen)
{
    deliver(&server, "alice", "f1@example.org");
    deliver(&server, "alice", "stuck@example.org");
    deliver(&server, "alice", "f3@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    stuck_refusals = 3;
    apierr err;
    imap_worker *w = imap_worker_start(&config, refuse_the_stuck_one, &r, &err);
    cr_assert_not_null(w, "%s", err.message);
    /* Its neighbours are put away at once; it waits, unseen, in INBOX. */
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 2, 20));
    cr_assert(recorder_wait_calls(&r, 5, 20), "handed over again");
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "SEEN"), 2);
    open_gate();
    /* Recorded at last: put away too. */
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 3, 20));
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    cr_expect_eq(recorder_times(&r, "f1@example.org"), 1);
    cr_expect_eq(recorder_times(&r, "f3@example.org"), 1);
    cr_expect_eq(recorder_times(&r, "stuck@example.org"), 4,
                 "three refusals, then recorded");
    cr_expect_eq(s.try_later, 3);
    cr_expect_eq(s.put_away, 3);
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
}

/* The child's handler for a crash in the middle of a batch: the first
 * message is committed (told to the parent), the process dies handling
 * the second. */
static int handled_in_child;

static imap_outcome crash_on_the_second(void *context, const char *raw,
                                        size_t length)
{
    (void)context;
    (void)length;
    if (++handled_in_child == 2)
        _exit(0);
    const char *id = strstr(raw, "Message-ID: <");
    if (id != NULL) {
        ssize_t wrote = write(crash_pipe, id, strcspn(id, "\r\n"));
        (void)wrote;
    }
    return IMAP_HANDLED;
}

Test(imap_worker, a_crash_in_the_middle_of_a_batch_loses_and_doubles_nothing)
{
    deliver(&server, "alice", "k1@example.org");
    deliver(&server, "alice", "k2@example.org");
    deliver(&server, "alice", "k3@example.org");
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    char got[128];
    run_until_crash(&config, crash_on_the_second, got, sizeof got);
    cr_expect_str_eq(got, "Message-ID: <k1@example.org>");
    /* Nothing of the batch was marked: the committed one too is unseen. */
    cr_assert_eq(dovecot_count(&server, "alice", "INBOX", "UNSEEN"), 3);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "ALL"), -1);
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    imap_worker *w = start_worker(&config, &r);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 3, 20));
    imap_worker_stop(w);
    static const char *const ids[] = {"k1@example.org", "k2@example.org",
                                      "k3@example.org"};
    for (int i = 0; i < 3; i++)
        cr_expect_eq(recorder_times(&r, ids[i]), 1, "%s", ids[i]);
    cr_expect_eq(dovecot_count(&server, "alice", "Processed", "ALL"), 3,
                 "one copy of each");
    cr_expect_eq(dovecot_count(&server, "alice", "INBOX", "ALL"), 0);
}

/* What the handler threads did, for the tests of a batch handled at
 * once: when each message's handling began and ended (in one sequence
 * of steps), and how many handlers were inside at once. */
typedef struct handling {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int step;
    int inside, most;
    int ended_by_others; /* ended, from any sender but Anna */
    bool anna_waited;    /* Anna's first saw two others end meanwhile */
    char id[16][32];
    int began[16], ended[16];
    int messages;
} handling;

static handling seen = {.lock = PTHREAD_MUTEX_INITIALIZER,
                        .changed = PTHREAD_COND_INITIALIZER};

/* Waits on seen.changed (lock held) until done() or seconds pass;
 * whether done() came true. */
static bool wait_seen(bool (*done)(void), int seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    while (!done())
        if (pthread_cond_timedwait(&seen.changed, &seen.lock, &until) != 0)
            return done();
    return true;
}

static bool two_inside(void)
{
    return seen.most >= 2;
}

static bool two_others_ended(void)
{
    return seen.ended_by_others >= 2;
}

/* Notes the message's beginning; its index in seen. Lock held. */
static int began(const char *raw)
{
    const char *at = strstr(raw, "Message-ID: <");
    cr_assert_not_null(at);
    at += strlen("Message-ID: <");
    int i = seen.messages++;
    cr_assert_lt(i, 16);
    snprintf(seen.id[i], sizeof seen.id[i], "%.*s", (int)strcspn(at, ">"), at);
    seen.began[i] = ++seen.step;
    if (++seen.inside > seen.most)
        seen.most = seen.inside;
    pthread_cond_broadcast(&seen.changed);
    return i;
}

static void ended(int i)
{
    seen.ended[i] = ++seen.step;
    seen.inside--;
    if (strncmp(seen.id[i], "anna", 4) != 0)
        seen.ended_by_others++;
    pthread_cond_broadcast(&seen.changed);
}

/* Every handler waits (2 s at most) until two were inside at once: one
 * thread alone would take 16 s for the batch, and see one at a time. */
static imap_outcome meet_another(void *context, const char *raw, size_t length)
{
    pthread_mutex_lock(&seen.lock);
    int i = began(raw);
    wait_seen(two_inside, 2);
    ended(i);
    pthread_mutex_unlock(&seen.lock);
    return recorder_handle(context, raw, length);
}

static void reset_seen(void)
{
    pthread_mutex_lock(&seen.lock);
    seen.step = seen.inside = seen.most = seen.ended_by_others = 0;
    seen.messages = 0;
    seen.anna_waited = false;
    pthread_mutex_unlock(&seen.lock);
}

/* Mail from four players (of as many matches) that lands in one batch is
 * handled by several threads at once, each with its own database
 * connection; one after the other, four mails would take four times as
 * long as one. */
Test(imap_worker, a_batch_of_several_senders_is_handled_at_once)
{
    static const char *const from[] = {
        "Anna <anna@example.org>", "Ben <ben@example.org>",
        "Cleo <cleo@example.org>", "Dan <dan@example.org>"};
    for (int i = 0; i < 8; i++) {
        char id[32];
        snprintf(id, sizeof id, "p%d@example.org", i);
        deliver_from(&server, "alice", from[i % 4], id);
    }
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    cr_assert_eq(config.handlers, 4, "the default");
    reset_seen();
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    apierr err;
    imap_worker *w = imap_worker_start(&config, meet_another, &r, &err);
    cr_assert_not_null(w, "%s", err.message);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 8, 20),
              "eight seen messages in Processed");
    imap_worker_stats s;
    imap_worker_stats_get(w, &s);
    imap_worker_stop(w);
    cr_expect_geq(seen.most, 2, "handlers inside at once: %d", seen.most);
    cr_expect_geq(s.busiest, 2, "handler threads busy at once: %lu", s.busiest);
    cr_expect_leq(s.busiest, 4);
    /* What an operator reads to see whether more threads would help. */
    char *page = metrics_render();
    cr_expect_not_null(strstr(page, "\npbem_imap_handler_threads 4\n"), "%s",
                       page);
    const char *busiest = strstr(page, "\npbem_imap_handlers_busiest ");
    cr_expect(busiest != NULL && atoi(busiest + 28) >= 2, "%s", page);
    free(page);
    cr_expect_eq(recorder_calls(&r), 8);
    cr_expect_eq(s.put_away, 8);
}

/* Anna's first mail is slow (it waits, 5 s at most, until two of the
 * others' mails are done meanwhile); the rest are quick. */
static imap_outcome anna_first_is_slow(void *context, const char *raw,
                                       size_t length)
{
    pthread_mutex_lock(&seen.lock);
    int i = began(raw);
    if (strcmp(seen.id[i], "anna1@example.org") == 0)
        seen.anna_waited = wait_seen(two_others_ended, 5);
    ended(i);
    pthread_mutex_unlock(&seen.lock);
    return recorder_handle(context, raw, length);
}

/* The step at which the message began (ended: when), or 0. */
static int step_of(const char *id, bool end)
{
    for (int i = 0; i < seen.messages; i++)
        if (strcmp(seen.id[i], id) == 0)
            return end ? seen.ended[i] : seen.began[i];
    return 0;
}

/* Two mails of one player in one batch (a move and the move after it,
 * mailed back to back) are handled in the order they came, the second
 * only once the first is done, however slow the first and while the
 * other players' mails go on beside it. */
Test(imap_worker, one_senders_mails_in_a_batch_are_handled_in_order)
{
    static const char *const mails[][2] = {
        {"Anna <anna@example.org>", "anna1@example.org"},
        {"Ben <ben@example.org>", "ben1@example.org"},
        {"anna@EXAMPLE.org", "anna2@example.org"},
        {"Cleo <cleo@example.org>", "cleo1@example.org"},
        {"\"Anna A.\" <Anna@example.org>", "anna3@example.org"},
        {"Ben <ben@example.org>", "ben2@example.org"},
    };
    for (int i = 0; i < 6; i++)
        deliver_from(&server, "alice", mails[i][0], mails[i][1]);
    imap_config config;
    test_config(&server, "alice", NULL, &config);
    reset_seen();
    recorder r;
    recorder_init(&r, IMAP_HANDLED);
    apierr err;
    imap_worker *w = imap_worker_start(&config, anna_first_is_slow, &r, &err);
    cr_assert_not_null(w, "%s", err.message);
    cr_assert(dovecot_wait_count(&server, "alice", "Processed", "SEEN", 6, 20),
              "six seen messages in Processed");
    imap_worker_stop(w);
    cr_expect(seen.anna_waited,
              "others' mail was handled while Anna's first was");
    cr_expect_lt(step_of("anna1@example.org", true),
                 step_of("anna2@example.org", false),
                 "Anna's second began only after her first ended");
    cr_expect_lt(step_of("anna2@example.org", true),
                 step_of("anna3@example.org", false),
                 "Anna's third began only after her second ended");
    cr_expect_lt(step_of("ben1@example.org", true),
                 step_of("ben2@example.org", false));
    cr_expect_eq(recorder_calls(&r), 6);
}
