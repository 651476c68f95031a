/* hex.c */
#include "core/hex.h"

#include <sodium.h>

void hex_encode(const uint8_t *bytes, size_t len, char *out)
{
    sodium_bin2hex(out, 2 * len + 1, bytes, len);
}
