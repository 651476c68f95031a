/* test_source_places.c: two checks of make check that keep the source in
 * its places: scripts/check_sql.sh (SQL only in service/store/) and
 * scripts/header_guards.sh (each header's guard is its path). Each passes
 * on the tree as it is, and fails, naming the file, on a small tree that
 * breaks its rule. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script_tree.h"

#define CHECK_SQL "scripts/check_sql.sh"
#define HEADER_GUARDS "scripts/header_guards.sh"

TestSuite(source_places, .fini = script_tree_remove, .timeout = 60);

Test(source_places, the_service_keeps_its_sql_in_store)
{
    char out[16384];
    cr_assert_eq(script_tree_run(CHECK_SQL, ".", out, sizeof out), 0, "%s",
                 out);
    cr_assert_not_null(strstr(out, "no SQL outside service/store/"), "%s",
                       out);
}

Test(source_places, a_statement_outside_store_is_named_with_its_line)
{
    const char *tree = script_tree_make("sql");
    script_tree_put("service/store/matches.c",
                    "static const char *sql = \"SELECT 1 FROM matches\";\n");
    script_tree_put("service/play/matches.c",
                    "int x;\n"
                    "static const char *sql =\n"
                    "    \"UPDATE matches SET status = $1\";\n");
    char out[4096];
    cr_assert_eq(script_tree_run(CHECK_SQL, tree, out, sizeof out), 1, "%s",
                 out);
    cr_assert_not_null(strstr(out, "service/play/matches.c:3:"), "%s", out);
    cr_assert_null(strstr(out, "service/store/matches.c"), "%s", out);
}

Test(source_places, running_a_query_outside_store_is_named)
{
    const char *tree = script_tree_make("sql");
    script_tree_put("service/notify/outbox.c",
                    "void f(void *c, const char *q) { db_query(c, q); }\n");
    char out[4096];
    cr_assert_eq(script_tree_run(CHECK_SQL, tree, out, sizeof out), 1, "%s",
                 out);
    cr_assert_not_null(strstr(out, "service/notify/outbox.c:1:"), "%s", out);
}

Test(source_places, words_of_sql_in_prose_are_not_statements)
{
    const char *tree = script_tree_make("sql");
    script_tree_put("service/mailin/mail_text.c",
                    "static const char *help =\n"
                    "    \"select a card, then update your hand\";\n"
                    "/* IMAP's SELECT, not SQL */\n"
                    "static const char *imap = \"SELECT %s\";\n");
    char out[4096];
    cr_assert_eq(script_tree_run(CHECK_SQL, tree, out, sizeof out), 0, "%s",
                 out);
}

Test(source_places, a_marker_excuses_only_its_own_line_and_the_next)
{
    const char *tree = script_tree_make("sql");
    script_tree_put("service/mailin/imap.c",
                    "/* IMAP's SELECT, not SQL */\n"
                    "int unrelated;\n"
                    "static const char *imap = \"SELECT %s\";\n");
    char out[4096];
    cr_assert_eq(script_tree_run(CHECK_SQL, tree, out, sizeof out), 1, "%s",
                 out);
    cr_assert_not_null(strstr(out, "service/mailin/imap.c:3:"), "%s", out);
}

Test(source_places, every_header_guard_is_its_path)
{
    char out[16384];
    cr_assert_eq(script_tree_run(HEADER_GUARDS, ".", out, sizeof out), 0,
                 "%s", out);
}

Test(source_places, a_guard_of_another_scheme_is_named_then_fixed)
{
    const char *tree = script_tree_make("guards");
    script_tree_put("service/store/events.h", "#ifndef SERVICE_EVENTS_H\n"
                                              "#define SERVICE_EVENTS_H\n"
                                              "int events_count(void);\n"
                                              "#endif\n");
    char out[4096];
    cr_assert_eq(script_tree_run(HEADER_GUARDS, tree, out, sizeof out), 1,
                 "%s", out);
    cr_assert_not_null(strstr(out, "service/store/events.h"), "%s", out);
    cr_assert_not_null(strstr(out, "SERVICE_STORE_EVENTS_H"), "%s", out);

    char command[PATH_MAX + 64];
    snprintf(command, sizeof command, HEADER_GUARDS " --fix '%s'", tree);
    cr_assert_eq(system(command), 0, "%s", command);
    cr_assert_eq(script_tree_run(HEADER_GUARDS, tree, out, sizeof out), 0,
                 "%s", out);
}
