/* public_event.h: what of an event everyone may read. A match's log is
 * public (GET /v1/matches/{id}/events, replay, streams), and a move made
 * by mail must still say who sent it without publishing the address: the
 * log names the sender by a pseudonym, a keyed hash of the address under a
 * key derived from the service key, the same for one address everywhere,
 * which only the service (and so an admin) can recompute from an address.
 * The address itself stays in the mail's record (mail_messages), which
 * only admins read.
 *
 * Events logged before the pseudonym carry the address in the hashed
 * bytes ("from" in the request, and the mail's own Message-ID, which
 * some mail programs make of the address). Their public form withholds
 * both: "from" becomes the pseudonym under "sender", "message_id" goes,
 * and the event names what was withheld ("withheld":
 * ["data.request.from", "data.request.message_id"]) beside its recorded
 * hash. Such an event can only be hashed again by whoever holds the mail
 * (put both back, drop "sender" and "withheld"); a verifier without it
 * takes the recorded hash and still checks every link after it. An
 * admin's export holds the stored bytes and checks whole. */
#ifndef SERVICE_LEDGER_PUBLIC_EVENT_H
#define SERVICE_LEDGER_PUBLIC_EVENT_H

#include <jansson.h>
#include <stdbool.h>

/* "s_" and 32 lower-case hex digits. */
#define PUBLIC_EVENT_SENDER_CHARS 34

/* The pseudonym of a mail address: "s_" + hex of the keyed BLAKE2b-128 of
 * the address in lower case. Needs the service key (seal_load_key). */
void public_event_sender(const char *address,
                         char out[PUBLIC_EVENT_SENDER_CHARS + 1]);

/* Turns a stored event (borrowed, changed in place) into its public form:
 * a request's "from" address is replaced as said above. True when
 * something was withheld. */
bool public_event_withhold(json_t *event);

/* Whether event (borrowed) is a public form with something withheld, so
 * its content cannot be hashed again without it. */
bool public_event_is_withheld(const json_t *event);

#endif
