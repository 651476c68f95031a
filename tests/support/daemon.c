/* daemon.c */
#include "daemon.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

extern char **environ;

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void daemon_prepare(daemon_proc *d)
{
    memset(d, 0, sizeof *d);
    /* A port the kernel says is free now; pbemd takes it again after
     * every restart (it binds with SO_REUSEADDR). */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in at = {.sin_family = AF_INET};
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof at;
    cr_assert_eq(bind(fd, (struct sockaddr *)&at, sizeof at), 0);
    cr_assert_eq(getsockname(fd, (struct sockaddr *)&at, &len), 0);
    d->port = ntohs(at.sin_port);
    close(fd);
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && *tmp ? tmp : "/tmp";
    snprintf(d->key_file, sizeof d->key_file, "%s/pbem-daemon-key-%d", tmp,
             (int)getpid());
    unlink(d->key_file); /* pbemd creates it with mode 0600 */
    /* One log per pbemd of the test (a test may run several, on one
     * database: they share the service key, as a deployment's do). */
    static int prepared;
    snprintf(d->log, sizeof d->log, "%s/pbem-daemon-pbemd-%d-%d.log", tmp,
             (int)getpid(), ++prepared);
}

void daemon_start(daemon_proc *d)
{
    const char *bin = getenv("PBEM_BIN");
    cr_assert_not_null(bin,
                       "PBEM_BIN is not set: run the tests with make test");
    /* The environment is made before fork: the child of a process with
     * other threads may only call async-signal-safe functions. */
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = calloc(n + 4, sizeof *env);
    cr_assert_not_null(env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "PBEM_LISTEN=", 12) != 0 &&
            strncmp(environ[i], "PBEM_KEY_FILE=", 14) != 0 &&
            strncmp(environ[i], "PBEM_QUIET=", 11) != 0)
            env[k++] = environ[i];
    char listen[64], key[300];
    snprintf(listen, sizeof listen, "PBEM_LISTEN=127.0.0.1:%d", d->port);
    snprintf(key, sizeof key, "PBEM_KEY_FILE=%s", d->key_file);
    env[k++] = listen;
    env[k++] = key;
    env[k++] = "PBEM_QUIET=1";
    pid_t parent = getpid();
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(d->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        /* The server dies with the test, even one that failed. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(0);
        execle(bin, bin, (char *)NULL, env);
        _exit(127);
    }
    free(env);
    d->pid = pid;
}

static int reap(daemon_proc *d, int sig)
{
    if (d->pid == 0)
        return -1;
    int status = 0;
    kill(d->pid, sig);
    while (waitpid(d->pid, &status, 0) < 0 && errno == EINTR)
        ;
    d->pid = 0;
    return status;
}

void daemon_kill(daemon_proc *d)
{
    reap(d, SIGKILL);
}

int daemon_stop(daemon_proc *d)
{
    return reap(d, SIGTERM);
}

void daemon_expect_running(daemon_proc *d)
{
    int status;
    if (d->pid != 0 && waitpid(d->pid, &status, WNOHANG) == d->pid) {
        d->pid = 0;
        cr_assert_fail("pbemd exited on its own (wait status %d); see %s",
                       status, d->log);
    }
}

long daemon_wait_serving(daemon_proc *d, long limit_ms)
{
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", d->port);
    client *c = client_new(base);
    cr_assert_not_null(c);
    long began = now_ms();
    long took = -1;
    while (took < 0 && now_ms() - began < limit_ms) {
        client_response r = {0};
        char error[256];
        if (client_send(c, "GET", "/healthz", NULL, NULL, NULL, &r, error) &&
            r.status == 200)
            took = now_ms() - began;
        client_response_free(&r);
        int status;
        if (took < 0 && waitpid(d->pid, &status, WNOHANG) == d->pid) {
            d->pid = 0;
            client_free(c);
            cr_assert_fail("pbemd exited (status %d) instead of serving; "
                           "see %s",
                           status, d->log);
        }
        /* The pace of the poll, not a wait for anything in particular. */
        if (took < 0)
            poll(NULL, 0, 10);
    }
    client_free(c);
    return took;
}
