/* pbemd that cannot start says why in one sentence on stderr and exits 1:
 * PostgreSQL unreachable, a DATABASE_URL that is not one, the listening
 * address already taken. (make run starts pbemd; these are its words.) */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct outcome {
    int exit_status;
    char stderr_text[4096];
} outcome;

/* Runs pbemd with DATABASE_URL and PBEM_LISTEN set; waits for its exit. */
static outcome run_pbemd(const char *database_url, const char *listen)
{
    const char *bin = getenv("PBEM_BIN");
    cr_assert_not_null(bin, "PBEM_BIN is not set: run the tests with make test");
    int err[2];
    cr_assert_eq(pipe(err), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(err[1], STDERR_FILENO);
        close(err[0]);
        close(err[1]);
        setenv("DATABASE_URL", database_url, 1);
        setenv("PBEM_LISTEN", listen, 1);
        setenv("PBEM_QUIET", "1", 1);
        /* The run's own scratch folder (scripts/test.sh removes it). */
        const char *tmp = getenv("TMPDIR");
        char key_file[512];
        snprintf(key_file, sizeof key_file, "%s/pbem-startup-%d.key",
                 tmp && *tmp ? tmp : "/tmp", (int)getpid());
        setenv("PBEM_KEY_FILE", key_file, 1);
        execl(bin, bin, (char *)NULL);
        _exit(127);
    }
    close(err[1]);
    outcome out = {0};
    size_t len = 0;
    ssize_t n;
    while (len + 1 < sizeof out.stderr_text &&
           (n = read(err[0], out.stderr_text + len,
                     sizeof out.stderr_text - 1 - len)) > 0)
        len += (size_t)n;
    out.stderr_text[len] = '\0';
    close(err[0]);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    out.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

/* One line, from pbemd, holding every one of the words. */
static void expect_one_sentence(const outcome *out, const char *const *words)
{
    cr_expect_eq(out->exit_status, 1, "exit status %d; stderr: %s",
                 out->exit_status, out->stderr_text);
    const char *newline = strchr(out->stderr_text, '\n');
    cr_expect(strncmp(out->stderr_text, "pbemd: ", 7) == 0 &&
                  newline != NULL && newline[1] == '\0',
              "not one line from pbemd: %s", out->stderr_text);
    for (const char *const *w = words; *w != NULL; w++)
        cr_expect(strstr(out->stderr_text, *w) != NULL, "no \"%s\" in: %s",
                  *w, out->stderr_text);
}

Test(startup, an_unreachable_database_is_one_sentence)
{
    /* Port 1 on loopback: nothing listens there. */
    outcome out = run_pbemd("postgresql://nobody@127.0.0.1:1/nothing",
                            "127.0.0.1:0");
    static const char *const words[] = {"cannot reach PostgreSQL",
                                        "start the server",
                                        "DATABASE_URL", NULL};
    expect_one_sentence(&out, words);
}

Test(startup, a_malformed_database_url_is_one_sentence)
{
    outcome out = run_pbemd("postgresql://%zz", "127.0.0.1:0");
    static const char *const words[] = {
        "DATABASE_URL is not a valid PostgreSQL connection URL", NULL};
    expect_one_sentence(&out, words);
}

Test(startup, a_port_in_use_is_one_sentence)
{
    int taken = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(taken, 0);
    struct sockaddr_in at = {.sin_family = AF_INET};
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof at;
    cr_assert_eq(bind(taken, (struct sockaddr *)&at, sizeof at), 0);
    cr_assert_eq(listen(taken, 1), 0);
    cr_assert_eq(getsockname(taken, (struct sockaddr *)&at, &len), 0);
    char listen_at[32];
    snprintf(listen_at, sizeof listen_at, "127.0.0.1:%d", ntohs(at.sin_port));
    const char *database_url = getenv("DATABASE_URL");
    cr_assert_not_null(database_url);
    outcome out = run_pbemd(database_url, listen_at);
    close(taken);
    static const char *const words[] = {"is already in use", "PBEM_LISTEN",
                                        NULL};
    expect_one_sentence(&out, words);
    cr_expect(strstr(out.stderr_text, listen_at) != NULL, "%s",
              out.stderr_text);
}
