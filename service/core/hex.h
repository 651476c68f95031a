/* hex.h: bytes as lower-case hex, the way hashes, commitments and nonces
 * appear in events and answers. */
#ifndef SERVICE_CORE_HEX_H
#define SERVICE_CORE_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Writes len bytes as 2*len hex digits and a NUL into out. */
void hex_encode(const uint8_t *bytes, size_t len, char *out);

#endif
