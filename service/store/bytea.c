/* bytea.c */
#include "store/bytea.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"

void bytea_write(const uint8_t *bytes, size_t len, char *out)
{
    out[0] = '\\';
    out[1] = 'x';
    hex_encode(bytes, len, out + 2);
}

bool bytea_read(const char *text, uint8_t *out, size_t capacity, size_t *len)
{
    *len = 0;
    if (text == NULL || strncmp(text, "\\x", 2) != 0)
        return false;
    /* sodium_hex2bin refuses hex that would not fit in capacity. */
    return sodium_hex2bin(out, capacity, text + 2, strlen(text + 2), NULL, len,
                          NULL) == 0;
}

bool bytea_read_exact(const char *text, uint8_t *out, size_t len)
{
    size_t got = 0;
    return bytea_read(text, out, len, &got) && got == len;
}

uint8_t *bytea_read_copy(const char *text, size_t *len)
{
    *len = 0;
    if (text == NULL || strncmp(text, "\\x", 2) != 0)
        return NULL;
    size_t capacity = strlen(text + 2) / 2;
    /* One byte more, so that an empty value is a buffer too. */
    uint8_t *out = malloc(capacity + 1);
    if (out == NULL)
        abort();
    if (!bytea_read(text, out, capacity, len)) {
        free(out);
        return NULL;
    }
    return out;
}
