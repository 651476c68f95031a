/* mail_dsn.c */
#include "mailin/mail_dsn.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* The address in a field's value "rfc822; <x@y>", or NULL when empty. */
static char *address(const char *value, size_t len)
{
    const char *semicolon = memchr(value, ';', len);
    if (semicolon) {
        len -= (size_t)(semicolon + 1 - value);
        value = semicolon + 1;
    }
    while (len > 0 && (blank(*value) || *value == '<')) {
        value++;
        len--;
    }
    while (len > 0 && (blank(value[len - 1]) || value[len - 1] == '>'))
        len--;
    if (len == 0)
        return NULL;
    char *out = strndup(value, len);
    if (out == NULL)
        abort();
    return out;
}

/* The value of the first line "name: value" in fields, as an address. */
static char *field(const char *fields, const char *name)
{
    size_t n = strlen(name);
    for (const char *line = fields; line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > n && strncasecmp(line, name, n) == 0 && line[n] == ':') {
            char *found = address(line + n + 1, len - n - 1);
            if (found)
                return found;
        }
        line = end ? end + 1 : NULL;
    }
    return NULL;
}

char *mail_dsn_recipient(const char *fields)
{
    char *original = field(fields, "Original-Recipient");
    return original ? original : field(fields, "Final-Recipient");
}
