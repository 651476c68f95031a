#include "ledger/public_event.h"

#include <ctype.h>
#include <sodium.h>
#include <string.h>

#include "ledger/seal.h"

#define SENDER_BYTES 16

void public_event_sender(const char *address,
                         char out[PUBLIC_EVENT_SENDER_CHARS + 1])
{
    uint8_t key[32], digest[SENDER_BYTES];
    seal_derive_key("senderid", key, sizeof key);
    crypto_generichash_state state;
    crypto_generichash_init(&state, key, sizeof key, sizeof digest);
    /* Mail addresses are compared without case everywhere in the
     * service, so one person's two spellings get one pseudonym. */
    for (const char *c = address; *c; c++) {
        unsigned char lower = (unsigned char)tolower((unsigned char)*c);
        crypto_generichash_update(&state, &lower, 1);
    }
    crypto_generichash_final(&state, digest, sizeof digest);
    sodium_memzero(key, sizeof key);
    memcpy(out, "s_", 2);
    sodium_bin2hex(out + 2, 2 * SENDER_BYTES + 1, digest, sizeof digest);
}

bool public_event_withhold(json_t *event)
{
    json_t *request =
        json_object_get(json_object_get(event, "data"), "request");
    const char *from = json_string_value(json_object_get(request, "from"));
    if (from == NULL)
        return false;
    char sender[PUBLIC_EVENT_SENDER_CHARS + 1];
    public_event_sender(from, sender);
    json_object_set_new(request, "sender", json_string(sender));
    json_object_del(request, "from");
    json_t *withheld = json_pack("[s]", "data.request.from");
    /* A Message-ID is made by the sender's mail program, and some make it
     * of the address; whoever holds the mail has it, and its hash
     * (message_sha256) stays. */
    if (json_object_get(request, "message_id") != NULL) {
        json_object_del(request, "message_id");
        json_array_append_new(withheld, json_string("data.request.message_id"));
    }
    json_object_set_new(event, "withheld", withheld);
    return true;
}

bool public_event_is_withheld(const json_t *event)
{
    return json_array_size(json_object_get(event, "withheld")) > 0;
}
