/* test_check_getenv.c: scripts/check_getenv.sh, run by make check: it
 * passes on the tree as it is, and fails, naming the line, when a file
 * other than core/config.c reads the environment. */
#include <criterion/criterion.h>
#include <string.h>

#include "script_tree.h"

#define SCRIPT "scripts/check_getenv.sh"

static int run_check(const char *dir, char *out, size_t size)
{
    return script_tree_run(SCRIPT, dir, out, size);
}

/* A throwaway tree inside the repository, with the one file that may read
 * the environment: tests/scripts/getenv-<pid>. */
static const char *tree;

static void make_tree(void)
{
    tree = script_tree_make("getenv");
    script_tree_put("core/config.c", "const char *t = getenv(\"PBEM_X\");\n");
    script_tree_put("core/config.h",
                    "/* make check fails on a getenv elsewhere */\n");
}

TestSuite(check_getenv, .fini = script_tree_remove, .timeout = 60);

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
    script_tree_put("play/nudge.c",
                    "static int f(void)\n{\n"
                    "    return getenv (\"PBEM_NUDGE_HOURS\") != 0;\n}\n");
    char out[8192];
    cr_assert_eq(run_check(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "play/nudge.c:3:"), "%s", out);
    cr_assert_not_null(strstr(out, "outside"), "%s", out);
}

Test(check_getenv, secure_getenv_counts_too)
{
    make_tree();
    script_tree_put("http/http.h",
                    "#define LISTEN secure_getenv(\"PBEM_LISTEN\")\n");
    char out[8192];
    cr_assert_eq(run_check(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "http/http.h:1:"), "%s", out);
}
