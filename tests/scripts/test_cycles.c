/* test_cycles.c: scripts/cycles.sh, the layering check of service/ that
 * make check runs: it passes on the tree as it is, and it fails, naming
 * the culprits, on a tree with an include loop or an include upwards. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCRIPT "scripts/cycles.sh"

/* Runs the script on dir (relative to the repository root, where make test
 * runs the suites); its output goes into out. Returns its exit status. */
static int run_cycles(const char *dir, char *out, size_t size)
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
    cr_assert(WIFEXITED(status), "cycles.sh did not exit normally");
    return WEXITSTATUS(status);
}

/* A throwaway tree inside the repository (the script takes a folder
 * relative to it): tests/scripts/tree-<pid>. */
static char tree[PATH_MAX];

static void make_tree(void)
{
    snprintf(tree, sizeof tree, "tests/scripts/tree-%d", (int)getpid());
    cr_assert_eq(mkdir(tree, 0700), 0, "cannot create %s", tree);
}

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

static void remove_tree(void)
{
    char command[PATH_MAX + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", tree);
    if (tree[0] != '\0' && system(command) != 0)
        fprintf(stderr, "could not remove %s\n", tree);
}

TestSuite(cycles, .fini = remove_tree, .timeout = 60);

Test(cycles, the_service_tree_has_no_loop_and_no_include_upwards)
{
    char out[8192];
    int status = run_cycles("service", out, sizeof out);
    cr_assert_eq(status, 0, "%s", out);
    cr_assert_not_null(strstr(out, "cycles: none in service/"), "%s", out);
}

Test(cycles, a_loop_between_two_modules_is_named)
{
    make_tree();
    put("play/append.h", "#include \"play/matches.h\"\n");
    put("play/append.c", "#include \"play/append.h\"\n");
    put("play/matches.h", "\n");
    put("play/matches.c", "#include \"play/matches.h\"\n"
                          "#include \"play/append.h\"\n");
    /* matches.h including append.h closes the loop. */
    put("play/matches.h", "#include \"play/append.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "include each other in a loop"), "%s", out);
    cr_assert_not_null(strstr(out, "play/append"), "%s", out);
    cr_assert_not_null(strstr(out, "play/matches"), "%s", out);
}

Test(cycles, a_lower_folder_including_a_higher_one_is_named)
{
    make_tree();
    put("store/store.h", "\n");
    put("store/store.c", "#include \"store/store.h\"\n"
                         "#include \"play/append.h\"\n");
    put("play/append.h", "#include \"store/store.h\"\n");
    put("play/append.c", "#include \"play/append.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "store -> play"), "%s", out);
}

Test(cycles, two_folders_of_one_layer_may_not_include_each_other)
{
    make_tree();
    put("notify/outbox.h", "\n");
    put("notify/outbox.c", "#include \"notify/outbox.h\"\n"
                           "#include \"deadlines/rows.h\"\n");
    put("deadlines/rows.h", "\n");
    put("deadlines/rows.c", "#include \"deadlines/rows.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "notify -> deadlines"), "%s", out);
}

Test(cycles, a_folder_without_a_layer_must_be_given_one)
{
    make_tree();
    put("mail/inbound.h", "\n");
    put("mail/inbound.c", "#include \"mail/inbound.h\"\n"
                          "#include \"play/append.h\"\n");
    put("play/append.h", "\n");
    put("play/append.c", "#include \"play/append.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "mail -> play: add the folder to LAYERS"),
                       "%s", out);
}
