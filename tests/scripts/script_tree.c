/* script_tree.c */
#include "script_tree.h"

#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tree[PATH_MAX];

int script_tree_run(const char *script, const char *dir, char *out, size_t size)
{
    cr_assert_eq(access(script, X_OK), 0,
                 "run the suite from the repository root");
    char command[2 * PATH_MAX + 64];
    snprintf(command, sizeof command, "%s '%s' 2>&1", script, dir);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe);
    size_t n = fread(out, 1, size - 1, pipe);
    out[n] = '\0';
    int status = pclose(pipe);
    cr_assert(WIFEXITED(status), "%s did not exit normally", script);
    return WEXITSTATUS(status);
}

const char *script_tree_make(const char *name)
{
    snprintf(tree, sizeof tree, "tests/scripts/%s-%d", name, (int)getpid());
    cr_assert_eq(mkdir(tree, 0700), 0, "cannot create %s", tree);
    return tree;
}

void script_tree_put(const char *path, const char *text)
{
    char full[PATH_MAX + 64], dir[PATH_MAX + 64];
    snprintf(full, sizeof full, "%s/%s", tree, path);
    snprintf(dir, sizeof dir, "%s", full);
    /* Each folder on the way, below the tree itself. */
    for (char *slash = strchr(dir + strlen(tree) + 1, '/'); slash != NULL;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(dir, 0700);
        *slash = '/';
    }
    FILE *f = fopen(full, "w");
    cr_assert_not_null(f, "cannot write %s", full);
    fputs(text, f);
    fclose(f);
}

void script_tree_remove(void)
{
    char command[PATH_MAX + 16];
    snprintf(command, sizeof command, "rm -rf '%s'", tree);
    if (tree[0] != '\0' && system(command) != 0)
        fprintf(stderr, "could not remove %s\n", tree);
}
