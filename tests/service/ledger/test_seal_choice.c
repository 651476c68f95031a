/* The one check of a reveal: a choice and nonce open a seat's commitment
 * only for that choice, that nonce, that seat, that decision and that
 * match, whatever the order of the choice's keys. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/seal.h"
#include "rules.h"

/* m_7's seat 1 commits to {"card": 3, "bid": "high"} in "auction-1". */
static void commit(uint8_t nonce[SEAL_NONCE_BYTES],
                   uint8_t commitment[SEAL_HASH_BYTES])
{
    memset(nonce, 0x5a, SEAL_NONCE_BYTES);
    json_t *choice = json_pack("{s:s,s:i}", "bid", "high", "card", 3);
    char *canonical = rules_sorted_json(choice);
    seal_choice_commitment("m_7", "auction-1", 1, canonical, nonce, commitment);
    free(canonical);
    json_decref(choice);
}

Test(seal_choice, the_committed_choice_and_nonce_open_it)
{
    uint8_t nonce[SEAL_NONCE_BYTES], commitment[SEAL_HASH_BYTES];
    commit(nonce, commitment);
    /* Keys in another order: the same canonical bytes. */
    json_t *choice = json_loads("{\"card\": 3, \"bid\": \"high\"}", 0, NULL);
    cr_expect(
        seal_choice_opens("m_7", "auction-1", 1, choice, nonce, commitment));
    json_decref(choice);
}

Test(seal_choice, another_choice_nonce_seat_decision_or_match_does_not)
{
    uint8_t nonce[SEAL_NONCE_BYTES], commitment[SEAL_HASH_BYTES];
    commit(nonce, commitment);
    json_t *choice = json_pack("{s:s,s:i}", "bid", "high", "card", 3);
    json_t *other = json_pack("{s:s,s:i}", "bid", "low", "card", 3);
    uint8_t other_nonce[SEAL_NONCE_BYTES];
    memcpy(other_nonce, nonce, sizeof other_nonce);
    other_nonce[31] ^= 1;
    cr_expect(
        !seal_choice_opens("m_7", "auction-1", 1, other, nonce, commitment));
    cr_expect(!seal_choice_opens("m_7", "auction-1", 1, choice, other_nonce,
                                 commitment));
    cr_expect(
        !seal_choice_opens("m_7", "auction-1", 0, choice, nonce, commitment));
    cr_expect(
        !seal_choice_opens("m_7", "auction-2", 1, choice, nonce, commitment));
    cr_expect(
        !seal_choice_opens("m_8", "auction-1", 1, choice, nonce, commitment));
    json_decref(other);
    json_decref(choice);
}
