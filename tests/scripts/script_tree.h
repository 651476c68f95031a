/* script_tree.h: what the tests of the checks in scripts/ share: running a
 * check on a folder, and a throwaway tree of files to run it on (inside
 * the repository, as the checks take folders relative to it). */
#ifndef TESTS_SCRIPTS_SCRIPT_TREE_H
#define TESTS_SCRIPTS_SCRIPT_TREE_H

#include <stddef.h>

/* Runs script (relative to the repository root, where the suites run) on
 * dir; its output, stdout and stderr, goes into out. Returns its exit
 * status; fails the test when it cannot run. */
int script_tree_run(const char *script, const char *dir, char *out,
                    size_t size);

/* Creates the tree tests/scripts/<name>-<pid> and returns its path
 * (static, until script_tree_remove). */
const char *script_tree_make(const char *name);

/* Writes text into path inside the tree, creating its folders. */
void script_tree_put(const char *path, const char *text);

/* Removes the tree, if one was made: the suites' .fini. */
void script_tree_remove(void);

#endif
