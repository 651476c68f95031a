/* receiver.c: see receiver.h. */
#include "receiver.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A whole match by mail writes thousands of lines of several KiB each
 * (text, HTML and the raw message): read again on every look, as they
 * were, the waits of one match read gigabytes. Each is read once here. */
struct receiver_log {
    FILE *file;    /* out, open for reading */
    long offset;   /* where the first line not yet read starts */
    json_t *lines; /* every whole line read so far, parsed */
    int changes;   /* inotify descriptor: out was written to */
};

double receiver_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static struct receiver_log *log_open(const char *path)
{
    struct receiver_log *log = calloc(1, sizeof *log);
    cr_assert_not_null(log);
    log->file = fopen(path, "r");
    cr_assert_not_null(log->file, "%s: %s", path, strerror(errno));
    log->lines = json_array();
    log->changes = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    cr_assert_geq(log->changes, 0, "inotify: %s", strerror(errno));
    cr_assert_geq(inotify_add_watch(log->changes, path, IN_MODIFY), 0,
                  "inotify on %s: %s", path, strerror(errno));
    return log;
}

static void log_close(struct receiver_log *log)
{
    if (log == NULL)
        return;
    fclose(log->file);
    close(log->changes);
    json_decref(log->lines);
    free(log);
}

/* Reads the whole lines written since the last look. A line the writer
 * has not finished (no newline yet) is left for the next look. */
static void log_read(struct receiver_log *log)
{
    if (log == NULL || fseek(log->file, log->offset, SEEK_SET) != 0)
        return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, log->file)) > 0 &&
           line[len - 1] == '\n') {
        log->offset += len;
        json_t *value = json_loads(line, 0, NULL);
        if (value != NULL)
            json_array_append_new(log->lines, value);
    }
    free(line);
}

/* Waits for out to be written to, until the monotonic time until; false
 * when the time passed first. Events are queued from the watch's start,
 * so a write between the last look and this wait is not missed. */
static bool log_changed(struct receiver_log *log, double until)
{
    int left = (int)((until - receiver_now()) * 1000);
    if (left <= 0)
        return false;
    struct pollfd p = {.fd = log->changes, .events = POLLIN};
    if (poll(&p, 1, left) != 1)
        return false;
    char events[4096];
    while (read(log->changes, events, sizeof events) > 0)
        ;
    return true;
}

void pause_ms(int ms)
{
    struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

void receiver_start(receiver *r, const char *script, const char *const *args)
{
    memset(r, 0, sizeof *r);
    strcpy(r->out, "/tmp/pbem-recv-XXXXXX");
    int fd = mkstemp(r->out);
    cr_assert_geq(fd, 0);
    close(fd);
    strcpy(r->secrets, "/tmp/pbem-secrets-XXXXXX");
    fd = mkstemp(r->secrets);
    cr_assert_geq(fd, 0);
    close(fd);
    int pipe_fds[2];
    cr_assert_eq(pipe(pipe_fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(pipe_fds[1], STDOUT_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        const char *argv[24];
        char path[256];
        snprintf(path, sizeof path, "tests/node/%s", script);
        int n = 0;
        argv[n++] = "node";
        argv[n++] = path;
        argv[n++] = "--out";
        argv[n++] = r->out;
        argv[n++] = "--secrets";
        argv[n++] = r->secrets;
        for (int i = 0; args && args[i] && n < 22; i++)
            argv[n++] = args[i];
        argv[n] = NULL;
        execvp("node", (char *const *)argv);
        _exit(127);
    }
    close(pipe_fds[1]);
    /* Node starts in well under a second; half a minute without a word
     * on a busy machine is a receiver that will not start. */
    struct pollfd said = {.fd = pipe_fds[0], .events = POLLIN};
    cr_assert_eq(poll(&said, 1, 30 * 1000), 1,
                 "waited 30 s for %s to say \"listening\"", script);
    FILE *lines = fdopen(pipe_fds[0], "r");
    char line[128] = {0};
    cr_assert_not_null(fgets(line, sizeof line, lines),
                       "%s exited before listening (npm ci in tests/node?)",
                       script);
    cr_assert_eq(strncmp(line, "listening ", 10), 0, "unexpected: %s", line);
    r->port = atoi(line + 10);
    r->pid = pid;
    fclose(lines);
    r->log = log_open(r->out);
}

void receiver_stop(receiver *r)
{
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
    }
    r->pid = 0;
    log_close(r->log);
    r->log = NULL;
    unlink(r->out);
    unlink(r->secrets);
}

void receiver_add_secret(receiver *r, const char *secret)
{
    FILE *f = fopen(r->secrets, "a");
    cr_assert_not_null(f);
    fprintf(f, "%s\n", secret);
    cr_assert_eq(fclose(f), 0);
}

json_t *receiver_lines(const receiver *r)
{
    json_t *all = json_array();
    log_read(r->log);
    if (r->log != NULL)
        json_array_extend(all, r->log->lines);
    return all;
}

size_t receiver_count(const receiver *r)
{
    log_read(r->log);
    return r->log != NULL ? json_array_size(r->log->lines) : 0;
}

const json_t *receiver_await(const receiver *r, size_t index, double until)
{
    if (r->log == NULL)
        return NULL;
    for (;;) {
        log_read(r->log);
        if (index < json_array_size(r->log->lines))
            return json_array_get(r->log->lines, index);
        if (!log_changed(r->log, until))
            break;
    }
    /* A write may have come with the time's end. */
    log_read(r->log);
    return json_array_get(r->log->lines, index);
}

json_t *receiver_wait(const receiver *r, size_t count, int seconds)
{
    if (count > 0)
        receiver_await(r, count - 1, receiver_now() + seconds);
    return receiver_lines(r);
}
