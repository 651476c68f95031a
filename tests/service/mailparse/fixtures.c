/* fixtures.c */
#include "fixtures.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *fixture_bytes(const char *name, size_t *length)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", FIXTURES_DIR, name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f,
                       "cannot open %s (run the suite from the "
                       "repository root)",
                       path);
    char *data = NULL;
    size_t size = 0, len = 0;
    for (;;) {
        if (len + 4096 + 1 > size) {
            size = 2 * size + 4096 + 1;
            data = realloc(data, size);
            cr_assert_not_null(data);
        }
        size_t n = fread(data + len, 1, 4096, f);
        len += n;
        if (n < 4096)
            break;
    }
    cr_assert_eq(ferror(f), 0, "cannot read %s", path);
    fclose(f);
    data[len] = '\0';
    *length = len;
    return data;
}

mail_message *fixture_message(const char *name)
{
    size_t length;
    char *raw = fixture_bytes(name, &length);
    char why[200] = "";
    mail_message *m = mail_message_parse(raw, length, why, sizeof why);
    free(raw);
    cr_assert_not_null(m, "%s refused: %s", name, why);
    return m;
}

int fixture_has_recipient(const mail_message *message, const char *address)
{
    for (size_t i = 0; i < message->recipient_count; i++)
        if (strcmp(message->recipients[i], address) == 0)
            return 1;
    return 0;
}
