/* pbemd's configuration (service/core/config.h): a bad value stops pbemd
 * with one sentence naming the variable and what it accepts, `pbemd
 * config` shows the values in effect with secrets masked, and
 * docs/configuration.md is what the table writes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config.h"

#define DOCS "docs/configuration.md"

typedef struct outcome {
    int exit_status;
    char out[65536];
    char err[4096];
} outcome;

/* Reads fd to its end into text (size bytes at most, NUL included). */
static void drain(int fd, char *text, size_t size)
{
    size_t len = 0;
    ssize_t n;
    while (len + 1 < size && (n = read(fd, text + len, size - 1 - len)) > 0)
        len += (size_t)n;
    text[len] = '\0';
    close(fd);
}

/* Runs pbemd with args (NULL-terminated; NULL: none) and the environment
 * changed by env ("NAME=value" sets, "NAME" unsets; NULL-terminated);
 * waits for its exit. Its own scratch key file and any free port, should
 * it start. */
static outcome *run_pbemd(const char *const *args, const char *const *env)
{
    const char *bin = getenv("PBEM_BIN");
    cr_assert_not_null(bin, "PBEM_BIN is not set: run the tests with make "
                            "test or scripts/test.sh");
    int out[2], err[2];
    cr_assert_eq(pipe(out), 0);
    cr_assert_eq(pipe(err), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        const char *tmp = getenv("TMPDIR");
        char key_file[512];
        snprintf(key_file, sizeof key_file, "%s/pbem-config-%d.key",
                 tmp && *tmp ? tmp : "/tmp", (int)getpid());
        setenv("PBEM_KEY_FILE", key_file, 1);
        setenv("PBEM_LISTEN", "127.0.0.1:0", 1);
        setenv("PBEM_QUIET", "1", 1);
        for (const char *const *e = env; e != NULL && *e != NULL; e++) {
            const char *eq = strchr(*e, '=');
            if (eq == NULL) {
                unsetenv(*e);
            } else {
                char name[128];
                snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
                setenv(name, eq + 1, 1);
            }
        }
        char *argv[4] = {(char *)bin, NULL, NULL, NULL};
        for (int i = 0; args != NULL && args[i] != NULL && i < 2; i++)
            argv[i + 1] = (char *)args[i];
        execv(bin, argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    outcome *o = calloc(1, sizeof *o);
    cr_assert_not_null(o);
    /* pbemd config writes a few kilobytes at most: stdout first cannot
     * block it on a full stderr pipe. */
    drain(out[0], o->out, sizeof o->out);
    drain(err[0], o->err, sizeof o->err);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    o->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return o;
}

/* pbemd stopped with exactly this sentence, and served nothing. */
static void expect_refusal(const outcome *o, const char *sentence)
{
    char line[512];
    snprintf(line, sizeof line, "pbemd: %s\n", sentence);
    cr_expect_eq(o->exit_status, 1, "exit status %d; stderr: %s",
                 o->exit_status, o->err);
    cr_expect_str_eq(o->err, line);
    cr_expect_null(strstr(o->out, "serving on"), "%s", o->out);
}

/* Each kind of variable, given a value it does not accept. */
static const struct {
    const char *env, *sentence;
} refusals[] = {
    {"PBEM_NUDGE_HOURS=abc",
     "PBEM_NUDGE_HOURS is \"abc\"; it must be a number from 0 to 8760 "
     "(hours)"},
    {"PBEM_HTTP_REQUEST_SECONDS=0",
     "PBEM_HTTP_REQUEST_SECONDS is \"0\"; it must be a whole number from 1 "
     "to 3600 (seconds)"},
    {"PBEM_THREADS=8 threads", "PBEM_THREADS is \"8 threads\"; it must be a "
                               "whole number from 1 to 1024 (threads)"},
    {"PBEM_SMTP_STARTTLS=yes",
     "PBEM_SMTP_STARTTLS is \"yes\"; it must be no, try or required"},
    {"PBEM_RATE_PLAYER=3000",
     "PBEM_RATE_PLAYER is \"3000\"; it must be points per window of "
     "seconds, such as 600/60 (1 to 1000000000 points, 1 to 86400 seconds), "
     "or off"},
    {"PBEM_NOTIFY=no", "PBEM_NOTIFY is \"no\"; it must be 0 or 1"},
};

Test(config, a_bad_value_stops_pbemd_naming_the_variable_and_what_it_accepts,
     .timeout = 60)
{
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const char *const env[] = {refusals[i].env, NULL};
        outcome *o = run_pbemd(NULL, env);
        expect_refusal(o, refusals[i].sentence);
        free(o);
    }
}

/* The line of `pbemd config` naming name, its spaces squeezed to one. */
static void line_of(const char *out, const char *name, char *line, size_t size)
{
    size_t len = strlen(name);
    const char *at = out;
    while (at != NULL && !(strncmp(at, name, len) == 0 && at[len] == ' ')) {
        at = strchr(at, '\n');
        at = at != NULL ? at + 1 : NULL;
    }
    cr_assert_not_null(at, "no line for %s in:\n%s", name, out);
    size_t n = 0;
    for (const char *p = at; *p != '\0' && *p != '\n' && n + 1 < size; p++)
        if (!(*p == ' ' && n > 0 && line[n - 1] == ' '))
            line[n++] = *p;
    line[n] = '\0';
}

Test(config, pbemd_config_shows_the_values_and_masks_the_secrets, .timeout = 30)
{
    static const char *const env[] = {"PBEM_SMTP_PASSWORD=hunter2-s3cret",
                                      "PBEM_ADMIN_KEY",
                                      "PBEM_THREADS",
                                      "PBEM_NUDGE_HOURS=1.5",
                                      "PBEM_PUBLIC_URL=",
                                      NULL};
    static const char *const args[] = {"config", NULL};
    outcome *o = run_pbemd(args, env);
    cr_assert_eq(o->exit_status, 0, "exit status %d; stderr: %s",
                 o->exit_status, o->err);
    cr_expect_null(strstr(o->out, "hunter2"), "%s", o->out);
    const char *database = getenv("DATABASE_URL");
    if (database != NULL && database[0] != '\0')
        cr_expect_null(strstr(o->out, database), "%s", o->out);
    static const struct {
        const char *name, *line;
    } expected[] = {
        {"PBEM_SMTP_PASSWORD", "PBEM_SMTP_PASSWORD ******** (environment)"},
        {"PBEM_ADMIN_KEY", "PBEM_ADMIN_KEY (not set)"},
        {"PBEM_THREADS", "PBEM_THREADS 8 (default)"},
        {"PBEM_NUDGE_HOURS", "PBEM_NUDGE_HOURS 1.5 (environment)"},
        /* Empty is unset: the default. */
        {"PBEM_PUBLIC_URL", "PBEM_PUBLIC_URL http://127.0.0.1:8080 (default)"},
        {"PBEM_LISTEN", "PBEM_LISTEN 127.0.0.1:0 (environment)"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        char line[256];
        line_of(o->out, expected[i].name, line, sizeof line);
        cr_expect_str_eq(line, expected[i].line);
    }
    free(o);
}

Test(config, pbemd_config_refuses_a_bad_value_too, .timeout = 30)
{
    static const char *const env[] = {"PBEM_WEBHOOK_TIMEOUT=10", NULL};
    static const char *const args[] = {"config", NULL};
    outcome *o = run_pbemd(args, env);
    expect_refusal(o, "PBEM_WEBHOOK_TIMEOUT is \"10\"; it must be a whole "
                      "number from 15 to 30 (seconds)");
    cr_expect_str_eq(o->out, "");
    free(o);
}

/* Reads the whole of path into a string the caller frees. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f,
                       "cannot read %s: run the suite from the "
                       "repository root",
                       path);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    cr_assert_not_null(mem);
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        fwrite(chunk, 1, got, mem);
    fclose(f);
    fclose(mem);
    return text;
}

Test(config, docs_configuration_md_is_what_the_table_writes, .timeout = 30)
{
    /* The documentation is the table's, whatever the environment holds. */
    static const char *const args[] = {"config", "--markdown", NULL};
    static const char *const env[] = {"PBEM_NUDGE_HOURS=abc", NULL};
    outcome *o = run_pbemd(args, env);
    cr_assert_eq(o->exit_status, 0, "%s", o->err);
    char *docs = slurp(DOCS);
    cr_expect_str_eq(o->out, docs,
                     DOCS " is not what the table in service/core/config.c "
                          "writes: run make docs");
    free(docs);
    free(o);
}

/* In a process of its own (a test, a benchmark), the table follows the
 * environment each time config_load reads it, and a refused reading
 * leaves the values in effect as they were. */
Test(config, a_reload_reads_the_environment_again)
{
    apierr err;
    setenv("PBEM_NUDGE_HOURS", "1.5", 1);
    setenv("PBEM_RATE_ANONYMOUS", "off", 1);
    setenv("PBEM_RATE_PLAYER", "20/10", 1);
    cr_assert(config_load(&err), "%s", err.message);
    cr_expect_eq(config_number(CONFIG_NUDGE_HOURS), 1.5);
    long long quota = 0, window = 0;
    cr_expect_not(config_budget(CONFIG_RATE_ANONYMOUS, &quota, &window));
    cr_expect(config_budget(CONFIG_RATE_PLAYER, &quota, &window));
    cr_expect_eq(quota, 20);
    cr_expect_eq(window, 10);
    setenv("PBEM_NUDGE_HOURS", "-1", 1);
    cr_expect_not(config_load(&err));
    cr_expect_str_eq(err.code, "config");
    cr_expect_eq(config_number(CONFIG_NUDGE_HOURS), 1.5);
    unsetenv("PBEM_NUDGE_HOURS");
    cr_assert(config_load(&err), "%s", err.message);
    cr_expect_eq(config_number(CONFIG_NUDGE_HOURS), 12.0);
    cr_expect_str_eq(config_name(CONFIG_NUDGE_HOURS), "PBEM_NUDGE_HOURS");
}
