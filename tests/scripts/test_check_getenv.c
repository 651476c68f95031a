/* test_check_getenv.c: scripts/check_getenv.sh, run by make check: it
 * passes on the tree as it is, and fails, naming the line, when a file
 * other than core/config.c reads the environment. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCRIPT "scripts/check_getenv.sh"

/* Runs the script on dir (relative to the repository root, where the
 * suites run); its output goes into out. Returns its exit status. */
static int run_check(const char *dir, char *out, size_t size)
{
    cr_assert_eq(access(SCRIPT, X_OK), 0,
                 "run the suite from the repository root");
    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, SCRIPT " '%s' 2>&1", dir);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe);
    size_t n = fread(out, 1, size - 1, pipe);
    out[n] = '\0';
    int status = pclose(pipe);
    cr_assert(WIFEXITED(status), "check_getenv.sh did not exit normally");
    return WEXITSTATUS(status);
}

/* A throwaway tree inside the repository: tests/scripts/getenv-<pid>. */
static char tree[PATH_MAX];

static void put(const char *path, const char *text)
{
    char full[PATH_MAX + 64], dir[PATH_MAX + 64];
    snprintf(full, sizeof full, "%s/%s", tree, path);
    snprintf(dir, sizeof dir, "%s", full);
    *strrchr(dir, '/') = '\0';
    mkdir(dir, 0700);
    FILE *f = fopen(full, "w");
    cr_assert_not_null(f, "cannot write %s", full);
    fputs(text, f);
    fclose(f);
}

static void make_tree(void)
{
    snprintf(tree, sizeof tree, "tests/scripts/getenv-%d", (int)getpid());
    cr_assert_eq(mkdir(tree, 0700), 0, "cannot create %s", tree);
    put("core/config.c", "const char *t = getenv(\"PBEM_X\");\n");
    put("core/config.h", "/* make check fails on a getenv elsewhere */\n");
}

static void remove_tree(void)
{
    char command[PATH_MAX + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", tree);
    if (tree[0] != '\0' && system(command) != 0)
        fprintf(stderr, "could not remove %s\n", tree);
}

TestSuite(check_getenv, .fini = remove_tree, .timeout = 60);

Test(check_getenv, the_service_tree_reads_the_environment_in_config_only)
{
    char out[8192];
    cr_assert_eq(run_check("service", out, sizeof out), 0, "%s", out);
    cr_assert_not_null(strstr(out, "only service/core/config.c"), "%s", out);
}

Test(check_getenv, config_alone_may_read_it)
{
    make_tree();
    char out[8192];
    cr_assert_eq(run_check(tree, out, sizeof out), 0, "%s", out);
}

Test(check_getenv, a_getenv_elsewhere_is_named)
{
    make_tree();
    put("play/nudge.c", "static int f(void)\n{\n"
                        "    return getenv (\"PBEM_NUDGE_HOURS\") != 0;\n}\n");
    char out[8192];
    cr_assert_eq(run_check(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "play/nudge.c:3:"), "%s", out);
    cr_assert_not_null(strstr(out, "outside"), "%s", out);
}

Test(check_getenv, secure_getenv_counts_too)
{
    make_tree();
    put("http/http.h", "#define LISTEN secure_getenv(\"PBEM_LISTEN\")\n");
    char out[8192];
    cr_assert_eq(run_check(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "http/http.h:1:"), "%s", out);
}
