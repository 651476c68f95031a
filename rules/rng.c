/* rng.c: counter-mode draws over randombytes_buf_deterministic. */
#include "rng.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

void rules_rng_init(rules_rng *rng, const uint8_t seed[RULES_SEED_BYTES])
{
    memcpy(rng->seed, seed, RULES_SEED_BYTES);
    rng->counter = 0;
}

/* Each draw derives a fresh key from (seed, counter) so that the generator's
 * whole state is two values a snapshot can hold, with no buffered bytes. */
static uint64_t next_u64(rules_rng *rng)
{
    uint8_t input[RULES_SEED_BYTES + 8];
    uint8_t key[randombytes_SEEDBYTES];
    uint8_t out[8];
    uint64_t counter = rng->counter++;

    memcpy(input, rng->seed, RULES_SEED_BYTES);
    for (int i = 0; i < 8; i++)
        input[RULES_SEED_BYTES + i] = (uint8_t)(counter >> (8 * i));
    crypto_generichash(key, sizeof key, input, sizeof input, NULL, 0);
    randombytes_buf_deterministic(out, sizeof out, key);
    uint64_t value = 0;
    for (int i = 0; i < 8; i++)
        value |= (uint64_t)out[i] << (8 * i);
    return value;
}

uint32_t rules_rng_below(rules_rng *rng, uint32_t bound)
{
    if (bound == 0)
        abort();
    /* Rejection sampling: discard the top partial range of 2^64. */
    uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
    uint64_t value;
    do
        value = next_u64(rng);
    while (value >= limit);
    return (uint32_t)(value % bound);
}

void rules_rng_shuffle(rules_rng *rng, void *items, size_t count, size_t size)
{
    unsigned char *bytes = items;
    unsigned char tmp[256];
    if (size > sizeof tmp)
        abort();
    for (size_t i = count; i > 1; i--) {
        size_t j = rules_rng_below(rng, (uint32_t)i);
        if (j == i - 1)
            continue;
        memcpy(tmp, bytes + (i - 1) * size, size);
        memcpy(bytes + (i - 1) * size, bytes + j * size, size);
        memcpy(bytes + j * size, tmp, size);
    }
}

void rules_rng_seed_hex(const rules_rng *rng, char *out)
{
    sodium_bin2hex(out, 2 * RULES_SEED_BYTES + 1, rng->seed, RULES_SEED_BYTES);
}

bool rules_rng_seed_from_hex(rules_rng *rng, const char *hex)
{
    size_t len = 0;
    if (strlen(hex) != 2 * RULES_SEED_BYTES)
        return false;
    if (sodium_hex2bin(rng->seed, RULES_SEED_BYTES, hex, strlen(hex), NULL,
                       &len, NULL) != 0)
        return false;
    return len == RULES_SEED_BYTES;
}
