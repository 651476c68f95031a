/* rng.h: the deterministic randomness every engine draws from.
 *
 * A match's randomness comes only from its 32-byte seed, through libsodium's
 * randombytes_buf_deterministic, so replaying the same actions from the same
 * seed gives the same shuffles and rolls, bit for bit, on any machine. The
 * generator's whole state is (seed, counter): engines store both in their
 * snapshot, and a draw never depends on anything else.
 */
#ifndef RULES_RNG_H
#define RULES_RNG_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

typedef struct rules_rng {
    uint8_t seed[RULES_SEED_BYTES];
    uint64_t counter;   /* draws made so far */
} rules_rng;

/* Starts a generator on a match seed. */
void rules_rng_init(rules_rng *rng, const uint8_t seed[RULES_SEED_BYTES]);

/* A uniform integer in [0, bound), without modulo bias. bound must be > 0. */
uint32_t rules_rng_below(rules_rng *rng, uint32_t bound);

/* Shuffles count items of size bytes each in place (Fisher-Yates). */
void rules_rng_shuffle(rules_rng *rng, void *items, size_t count, size_t size);

/* Hex encoding of the seed for snapshots, and its inverse (false when hex is
 * not exactly 64 hex digits). out must hold 2*RULES_SEED_BYTES+1 bytes. */
void rules_rng_seed_hex(const rules_rng *rng, char *out);
bool rules_rng_seed_from_hex(rules_rng *rng, const char *hex);

#endif
