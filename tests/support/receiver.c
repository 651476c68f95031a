/* receiver.c: see receiver.h. */
#include "receiver.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
    FILE *lines = fdopen(pipe_fds[0], "r");
    char line[128] = {0};
    cr_assert_not_null(fgets(line, sizeof line, lines),
                       "%s exited before listening (npm ci in tests/node?)",
                       script);
    cr_assert_eq(strncmp(line, "listening ", 10), 0, "unexpected: %s", line);
    r->port = atoi(line + 10);
    r->pid = pid;
    fclose(lines);
}

void receiver_stop(receiver *r)
{
    if (r->pid > 0) {
        kill(r->pid, SIGTERM);
        waitpid(r->pid, NULL, 0);
    }
    r->pid = 0;
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
    FILE *f = fopen(r->out, "r");
    if (f == NULL)
        return all;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_t *value = json_loads(line, 0, NULL);
        if (value != NULL)
            json_array_append_new(all, value);
    }
    free(line);
    fclose(f);
    return all;
}

json_t *receiver_wait(const receiver *r, size_t count, int seconds)
{
    for (int i = 0; i < seconds * 20; i++) {
        json_t *lines = receiver_lines(r);
        if (json_array_size(lines) >= count)
            return lines;
        json_decref(lines);
        pause_ms(50);
    }
    return receiver_lines(r);
}
