/* json_io.h: JSON in and out for the command-line tool. */
#ifndef CLI_JSON_IO_H
#define CLI_JSON_IO_H

#include <jansson.h>
#include <stdio.h>

/* Reads one JSON value from in (the whole stream). Returns a new reference,
 * or NULL after printing a sentence naming what (e.g. "the position") and
 * where the JSON is broken to stderr. */
json_t *json_io_read(FILE *in, const char *what);

/* Writes value to out, indented by two spaces, with a final newline.
 * Returns 0, or 1 after printing a sentence to stderr. */
int json_io_print(FILE *out, const json_t *value);

#endif
