/* test_cycles.c: scripts/cycles.sh, the layering check of service/ that
 * make check runs: it passes on the tree as it is, and it fails, naming
 * the culprits, on a tree with an include loop or an include upwards. */
#include <criterion/criterion.h>
#include <string.h>

#include "script_tree.h"

#define SCRIPT "scripts/cycles.sh"

static int run_cycles(const char *dir, char *out, size_t size)
{
    return script_tree_run(SCRIPT, dir, out, size);
}

/* A throwaway tree inside the repository: tests/scripts/tree-<pid>. */
static const char *tree;

static void make_tree(void)
{
    tree = script_tree_make("tree");
}

TestSuite(cycles, .fini = script_tree_remove, .timeout = 60);

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
    script_tree_put("play/append.h", "#include \"play/matches.h\"\n");
    script_tree_put("play/append.c", "#include \"play/append.h\"\n");
    script_tree_put("play/matches.h", "\n");
    script_tree_put("play/matches.c", "#include \"play/matches.h\"\n"
                          "#include \"play/append.h\"\n");
    /* matches.h including append.h closes the loop. */
    script_tree_put("play/matches.h", "#include \"play/append.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "include each other in a loop"), "%s", out);
    cr_assert_not_null(strstr(out, "play/append"), "%s", out);
    cr_assert_not_null(strstr(out, "play/matches"), "%s", out);
}

Test(cycles, a_lower_folder_including_a_higher_one_is_named)
{
    make_tree();
    script_tree_put("store/store.h", "\n");
    script_tree_put("store/store.c", "#include \"store/store.h\"\n"
                         "#include \"play/append.h\"\n");
    script_tree_put("play/append.h", "#include \"store/store.h\"\n");
    script_tree_put("play/append.c", "#include \"play/append.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "store -> play"), "%s", out);
}

Test(cycles, two_folders_of_one_layer_may_not_include_each_other)
{
    make_tree();
    script_tree_put("notify/outbox.h", "\n");
    script_tree_put("notify/outbox.c", "#include \"notify/outbox.h\"\n"
                           "#include \"deadlines/rows.h\"\n");
    script_tree_put("deadlines/rows.h", "\n");
    script_tree_put("deadlines/rows.c", "#include \"deadlines/rows.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "notify -> deadlines"), "%s", out);
}

Test(cycles, a_folder_without_a_layer_must_be_given_one)
{
    make_tree();
    script_tree_put("mail/inbound.h", "\n");
    script_tree_put("mail/inbound.c", "#include \"mail/inbound.h\"\n"
                          "#include \"play/append.h\"\n");
    script_tree_put("play/append.h", "\n");
    script_tree_put("play/append.c", "#include \"play/append.h\"\n");
    char out[8192];
    cr_assert_eq(run_cycles(tree, out, sizeof out), 1, "%s", out);
    cr_assert_not_null(strstr(out, "mail -> play: add the folder to LAYERS"),
                       "%s", out);
}
