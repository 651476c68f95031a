/* test_run.c: see test_run.h. (No tests here; the helpers of the suite.) */
#include "test_run.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *binary(void)
{
    const char *path = getenv("PBEM_CLI");
    return path != NULL && *path != '\0' ? path : "build/pbem";
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len <= 1) {
            cap *= 2;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static char *temp_file(const char *content)
{
    char *path = strdup("/tmp/pbem-wb-XXXXXX");
    cr_assert_not_null(path);
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0, "mkstemp");
    size_t len = content ? strlen(content) : 0;
    cr_assert_eq(write(fd, content ? content : "", len), (ssize_t)len);
    close(fd);
    return path;
}

wb_result wb_run(const char *input, const char *const *args)
{
    char *in = temp_file(input);
    char *out = temp_file(NULL);
    char *err = temp_file(NULL);
    const char *argv[64];
    int argc = 0;
    argv[argc++] = binary();
    for (; args[argc - 1] != NULL && argc < 63; argc++)
        argv[argc] = args[argc - 1];
    argv[argc] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_TRUNC, 0);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_TRUNC, 0);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv,
                         environ);
    posix_spawn_file_actions_destroy(&fa);
    cr_assert_eq(rc, 0, "cannot start %s (set PBEM_CLI or run make "
                        "build/pbem)", argv[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    wb_result r = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out),
                   slurp(err)};
    unlink(in);
    unlink(out);
    unlink(err);
    free(in);
    free(out);
    free(err);
    return r;
}

void wb_free(wb_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *wb_example(const char *game, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "rules/%s/examples/%s.json", game, name);
    return slurp(path);
}

char *wb_apply(const char *game, const char *position,
               const char *const *moves)
{
    const char *args[64] = {"rules", game, "apply"};
    char seats[20][8];
    int n = 3, k = 0;
    for (const char *const *m = moves; *m != NULL; m++, k++) {
        cr_assert_lt(k, 20, "too many moves for one call");
        const char *colon = strchr(*m, ':');
        cr_assert_not_null(colon, "move %s is not SEAT:TEXT", *m);
        snprintf(seats[k], sizeof seats[k], "%.*s", (int)(colon - *m), *m);
        args[n++] = "--seat";
        args[n++] = seats[k];
        args[n++] = "--move";
        args[n++] = colon + 1;
    }
    args[n] = NULL;
    wb_result r = wb_run(position, args);
    cr_assert_eq(r.status, 0, "apply failed (%d): %s", r.status, r.err);
    free(r.err);
    return r.out;
}

void wb_refused(const char *game, const char *position, int seat,
                const char *text, const char *words)
{
    char s[8];
    snprintf(s, sizeof s, "%d", seat);
    const char *args[] = {"rules", game, "apply", "--seat", s,
                          "--move", text, NULL};
    wb_result r = wb_run(position, args);
    cr_expect_eq(r.status, 1, "\"%s\" should be refused: %s", text, r.err);
    cr_expect_str_empty(r.out, "nothing printed on a refusal");
    cr_expect_not_null(strstr(r.err, words), "\"%s\" not in: %s", words,
                       r.err);
    wb_free(&r);
}

json_t *wb_read(const char *game, const char *verb, const char *position)
{
    const char *args[] = {"rules", game, verb, NULL};
    wb_result r = wb_run(position, args);
    cr_assert_eq(r.status, 0, "%s failed: %s", verb, r.err);
    json_error_t jerr;
    json_t *value = json_loads(r.out, 0, &jerr);
    cr_assert_not_null(value, "%s printed no JSON: %s", verb, jerr.text);
    wb_free(&r);
    return value;
}

long long wb_int_at(const json_t *object, const char *key, size_t i)
{
    const json_t *array = json_object_get(object, key);
    cr_assert(json_is_array(array), "no array %s", key);
    return json_integer_value(json_array_get(array, i));
}

int wb_has_engine(const char *game)
{
    const char *args[] = {"rules", "list", NULL};
    wb_result r = wb_run(NULL, args);
    char word[64];
    snprintf(word, sizeof word, "%s ", game);
    int found = r.status == 0 && strstr(r.out, word) != NULL;
    wb_free(&r);
    return found;
}
