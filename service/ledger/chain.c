/* chain.c */
#include "ledger/chain.h"

#include <sodium.h>
#include <string.h>

void chain_hash(const uint8_t prev[CHAIN_HASH_BYTES], const char *body,
                uint8_t out[CHAIN_HASH_BYTES])
{
    crypto_generichash_state state;
    crypto_generichash_init(&state, NULL, 0, CHAIN_HASH_BYTES);
    crypto_generichash_update(&state, prev, CHAIN_HASH_BYTES);
    crypto_generichash_update(&state, (const uint8_t *)body, strlen(body));
    crypto_generichash_final(&state, out, CHAIN_HASH_BYTES);
}
