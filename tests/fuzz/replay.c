/* replay.c: runs a fuzz target over files, once each, without libFuzzer:
 *   <target>-replay FILE|FOLDER…
 * Linked with any target (fuzz.h) by the ordinary build, so make test (and
 * make test SAN=1) runs every corpus input through the same code make fuzz
 * searched with. A crash is the test failing: the process dies on it, after
 * printing which file it was reading. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fuzz.h"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs the target on one file; false when it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: cannot open %s: %s\n", path, strerror(errno));
        return 0;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while (data != NULL && (got = fread(data + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            cap *= 2;
            data = realloc(data, cap);
        }
    }
    if (data == NULL)
        abort();
    int ok = !ferror(f);
    fclose(f);
    if (ok) {
        /* Said before the run, so a crash's report names its input. */
        fprintf(stderr, "replay: %s\n", path);
        /* A copy of exactly len bytes, so ASan sees any over-read. */
        uint8_t *exact = malloc(len ? len : 1);
        if (exact == NULL)
            abort();
        memcpy(exact, data, len);
        LLVMFuzzerTestOneInput(exact, len);
        free(exact);
    }
    free(data);
    return ok;
}

/* Runs every regular file of a folder, in name order; returns how many. */
static int run_folder(const char *folder, int *failed)
{
    DIR *dir = opendir(folder);
    if (dir == NULL) {
        fprintf(stderr, "replay: cannot open %s: %s\n", folder,
                strerror(errno));
        (*failed)++;
        return 0;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        names = realloc(names, (count + 1) * sizeof *names);
        if (names == NULL)
            abort();
        size_t size = strlen(folder) + strlen(entry->d_name) + 2;
        names[count] = malloc(size);
        if (names[count] == NULL)
            abort();
        snprintf(names[count], size, "%s/%s", folder, entry->d_name);
        count++;
    }
    closedir(dir);
    qsort(names, count, sizeof *names, by_name);
    int ran = 0;
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (run_file(names[i]))
                ran++;
            else
                (*failed)++;
        }
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|FOLDER…\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int ran = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
            ran += run_folder(argv[i], &failed);
        else if (run_file(argv[i]))
            ran++;
        else
            failed++;
    }
    printf("replay: %d inputs ran without a crash%s\n", ran,
           failed ? ", some could not be read" : "");
    return failed ? 1 : 0;
}
