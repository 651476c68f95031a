/* players_run.c: see players_run.h. (The suite's helpers, no tests.) */
#include "players_run.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static const char *binary(void)
{
    const char *path = getenv("PBEM_CLI");
    return path != NULL && *path != '\0' ? path : "build/pbem";
}

static const char *scratch(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp != NULL && *tmp != '\0' ? tmp : "/tmp";
}

void pl_person_new(pl_person *person, const char *name)
{
    memset(person, 0, sizeof *person);
    snprintf(person->name, sizeof person->name, "%s", name);
    snprintf(person->config_home, sizeof person->config_home,
             "%s/pbem-%s-XXXXXX", scratch(), name);
    cr_assert_not_null(mkdtemp(person->config_home));
}

void pl_server(e2e_server *server, char *url)
{
    char database[96];
    e2e_private_database(database, sizeof database);
    memset(server, 0, sizeof *server);
    e2e_start(server);
    snprintf(url, 64, "http://127.0.0.1:%d", server->port);
}

static char *slurp_fd(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len <= 1) {
            cap *= 2;
            char *grown = realloc(buf, cap);
            cr_assert_not_null(grown);
            buf = grown;
        }
    }
    buf[len] = '\0';
    close(fd);
    return buf;
}

static int scratch_file(void)
{
    char path[300];
    snprintf(path, sizeof path, "%s/pbem-out-XXXXXX", scratch());
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0, "mkstemp");
    unlink(path);
    return fd;
}

/* Appends the command and its output to $PBEM_CLI_TRANSCRIPT. */
static void transcribe(const pl_person *person, const char *const *args,
                       const pl_result *r)
{
    const char *file = getenv("PBEM_CLI_TRANSCRIPT");
    if (file == NULL || *file == '\0')
        return;
    FILE *out = fopen(file, "a");
    cr_assert_not_null(out, "cannot append to %s", file);
    fprintf(out, "%s$ pbem", person->name);
    for (int i = 0; args[i] != NULL; i++)
        fprintf(out, strchr(args[i], ' ') ? " \"%s\"" : " %s", args[i]);
    fprintf(out, "\n%s%s", r->out, r->err);
    if (r->status != 0)
        fprintf(out, "(exit %d)\n", r->status);
    fclose(out);
}

/* Spawns pbem with args as person; out and err receive its output. */
static pid_t spawn(const pl_person *person, const char *url,
                   const char *const *args, int out, int err)
{
    const char *argv[32];
    int argc = 0;
    argv[argc++] = binary();
    for (int i = 0; args[i] != NULL && argc < 31; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    /* The environment of the test, with the person's folder and server. */
    static char config[300], server[100];
    const char *envp[256];
    int envc = 0;
    for (char **e = environ; *e != NULL && envc < 250; e++) {
        if (strncmp(*e, "XDG_CONFIG_HOME=", 16) != 0 &&
            strncmp(*e, "PBEM_URL=", 9) != 0)
            envp[envc++] = *e;
    }
    snprintf(config, sizeof config, "XDG_CONFIG_HOME=%s", person->config_home);
    envp[envc++] = config;
    if (url != NULL) {
        snprintf(server, sizeof server, "PBEM_URL=%s", url);
        envp[envc++] = server;
    }
    envp[envc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_adddup2(&fa, err, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv,
                         (char *const *)envp);
    posix_spawn_file_actions_destroy(&fa);
    cr_assert_eq(rc, 0, "cannot start %s (set PBEM_CLI or make build/pbem)",
                 argv[0]);
    return pid;
}

pl_result pl_run(const pl_person *person, const char *url,
                 const char *const *args)
{
    int out = scratch_file(), err = scratch_file();
    pid_t pid = spawn(person, url, args, out, err);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    pl_result r = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp_fd(out),
                   slurp_fd(err)};
    transcribe(person, args, &r);
    return r;
}

void pl_free(pl_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void pl_sign_up(const pl_person *person, const char *url, const char *name)
{
    pl_result r = pl_run(person, url, (const char *[]){"keygen", NULL});
    cr_assert_eq(r.status, 0, "keygen: %s", r.err);
    pl_free(&r);
    r = pl_run(person, url, (const char *[]){"register", name, NULL});
    cr_assert_eq(r.status, 0, "register: %s", r.err);
    cr_assert(strstr(r.out, "Registered as") != NULL, "%s", r.out);
    pl_free(&r);
}

const char *pl_new_match(const pl_person *person, const char *url,
                         const char *game, int seats)
{
    static char match[48];
    char count[8];
    snprintf(count, sizeof count, "%d", seats);
    pl_result r = pl_run(person, url,
                         (const char *[]){"new", game, "--seats", count, NULL});
    cr_assert_eq(r.status, 0, "new: %s", r.err);
    cr_assert_eq(sscanf(r.out, "Created %40[m_0-9]:", match), 1, "%s", r.out);
    pl_free(&r);
    return match;
}

char *pl_first_move(const char *view_output)
{
    const char *at = strstr(view_output, "\nYour move");
    if (at == NULL)
        return NULL;
    at = strchr(at + 1, '\n');
    /* The listed moves are indented; a line ending in ':' names a form. */
    while (at != NULL && at[1] == ' ') {
        const char *line = at + 1;
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > 0 && line[len - 1] != ':') {
            while (*line == ' ')
                line++, len--;
            return strndup(line, len);
        }
        at = end;
    }
    return NULL;
}

long long pl_seq(const char *view_output)
{
    const char *last = NULL;
    for (const char *at = view_output; (at = strstr(at, "seq ")) != NULL;
         at++) {
        if (at == view_output || at[-1] == '\n')
            last = at;
    }
    cr_assert_not_null(last, "no seq in: %s", view_output);
    return atoll(last + 4);
}

pl_background pl_start(const pl_person *person, const char *url,
                       const char *const *args)
{
    pl_background b = {.out = scratch_file()};
    int err = scratch_file();
    b.pid = spawn(person, url, args, b.out, err);
    close(err);
    return b;
}

bool pl_wait_for(const pl_background *b, const char *text)
{
    for (int tries = 0; tries < 200; tries++) {
        char buf[65536];
        ssize_t n = pread(b->out, buf, sizeof buf - 1, 0);
        buf[n > 0 ? n : 0] = '\0';
        if (strstr(buf, text) != NULL)
            return true;
        /* Polling a file the other process writes: the condition, not the
         * delay, decides. */
        struct timespec pause = {.tv_nsec = 100 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return false;
}

int pl_finish(pl_background *b, int signal_number, char **out)
{
    if (signal_number != 0)
        kill(b->pid, signal_number);
    int status;
    cr_assert_eq(waitpid(b->pid, &status, 0), b->pid);
    *out = slurp_fd(b->out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
