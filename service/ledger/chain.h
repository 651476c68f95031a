/* chain.h: a match's event log is a hash chain. Each event's hash is
 * BLAKE2b-256 of the previous event's hash (32 zero bytes before the
 * first) followed by the event's canonical JSON (RFC 8785, canonical.h),
 * so changing, dropping or
 * reordering any event changes every hash after it. The store writes the
 * chain (store/events.h store_append); anyone can check it (verify.h). */
#ifndef SERVICE_LEDGER_CHAIN_H
#define SERVICE_LEDGER_CHAIN_H

#include <stdint.h>

#define CHAIN_HASH_BYTES 32

/* The most seats a logged match may have. */
#define CHAIN_MAX_SEATS 16

/* One step of the chain: out = BLAKE2b-256(prev || body), body being an
 * event's canonical JSON (NUL-terminated). */
void chain_hash(const uint8_t prev[CHAIN_HASH_BYTES], const char *body,
                uint8_t out[CHAIN_HASH_BYTES]);

#endif
