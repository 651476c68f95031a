/* fuzz.h: what every fuzz target in tests/fuzz/ shares.
 *
 * A target is one file, tests/fuzz/<target>.c, defining the two libFuzzer
 * entry points below; its corpus is the folder tests/fuzz/<target>/. The same
 * file is linked two ways: with libFuzzer (clang, make fuzz) to search for
 * crashes, and with replay.c (any compiler, make test) to run every corpus
 * file once, so a crash found once stays a regression test.
 *
 * Inputs are split with fuzz_line: a target that needs several strings reads
 * them as lines, so a seed is a text file a person can read and edit. */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Called once before any input; may be a no-op. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
/* Called once per input; data is borrowed for the call. Returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy of size bytes at data (the caller frees). A NUL
 * inside ends the C string early, as it would for the service. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* Cuts the first line off *rest (a string fuzz_text made): returns it,
 * without its LF, and moves *rest past it; the last line has no LF. Both
 * point into the same buffer. */
static inline char *fuzz_line(char **rest)
{
    char *line = *rest;
    char *lf = strchr(line, '\n');
    if (lf == NULL) {
        *rest = line + strlen(line);
    } else {
        *lf = '\0';
        *rest = lf + 1;
    }
    return line;
}

#endif
