/* json_io.c: see json_io.h.
 *
 * Positions are meant to be edited by hand, so the printer keeps a list of
 * plain values (a hand, a pile, a score list) on one line and indents only
 * objects and lists of objects or lists.
 */
#include "json_io.h"

#include <stdbool.h>
#include <stdlib.h>

json_t *json_io_read(FILE *in, const char *what)
{
    json_error_t jerr;
    json_t *value = json_loadf(in, JSON_REJECT_DUPLICATES, &jerr);
    if (value == NULL) {
        fprintf(stderr, "pbem: %s is not valid JSON (line %d, column %d: %s).\n",
                what, jerr.line, jerr.column, jerr.text);
    }
    return value;
}

static bool is_container(const json_t *value)
{
    return json_is_object(value) || json_is_array(value);
}

static bool scalars_only(const json_t *array)
{
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        if (is_container(item))
            return false;
    }
    return true;
}

static void indent(FILE *out, int depth)
{
    fprintf(out, "%*s", 2 * depth, "");
}

static void print_compact(FILE *out, const json_t *value)
{
    char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
    if (text == NULL) {
        fprintf(stderr, "json_io.c:%d: out of memory\n", __LINE__);
        abort();
    }
    fputs(text, out);
    free(text);
}

static void print_value(FILE *out, const json_t *value, int depth)
{
    if (json_is_object(value) && json_object_size(value) > 0) {
        const char *key;
        const json_t *item;
        bool first = true;
        fputs("{\n", out);
        json_object_foreach((json_t *)value, key, item) {
            fputs(first ? "" : ",\n", out);
            first = false;
            indent(out, depth + 1);
            json_t *name = json_string(key);
            print_compact(out, name);
            json_decref(name);
            fputs(": ", out);
            print_value(out, item, depth + 1);
        }
        fputc('\n', out);
        indent(out, depth);
        fputc('}', out);
    } else if (json_is_array(value) && !scalars_only(value)) {
        size_t i;
        const json_t *item;
        fputs("[\n", out);
        json_array_foreach(value, i, item) {
            fputs(i == 0 ? "" : ",\n", out);
            indent(out, depth + 1);
            print_value(out, item, depth + 1);
        }
        fputc('\n', out);
        indent(out, depth);
        fputc(']', out);
    } else {
        char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
        if (text == NULL) {
            fprintf(stderr, "json_io.c:%d: out of memory\n", __LINE__);
            abort();
        }
        /* Compact lists still get a blank after each comma, for reading. */
        for (const char *c = text; *c != '\0'; c++) {
            fputc(*c, out);
            if (*c == ',' && json_is_array(value))
                fputc(' ', out);
        }
        free(text);
    }
}

int json_io_print(FILE *out, const json_t *value)
{
    print_value(out, value, 0);
    if (fputc('\n', out) == EOF || fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "pbem: the output could not be written.\n");
        return 1;
    }
    return 0;
}
