/* imap_order.h: which messages of an IMAP batch must be handled one after
 * the other. Messages from one sender (the address of their From header)
 * are handled in the order they arrived, on one thread (imap_pool.h);
 * messages from different senders may be handled at once.
 *
 * Why the sender is enough: two mails of one player (two moves mailed back
 * to back, a move and a word in the chat) must be applied in the order
 * they were written, the second may depend on the first. Between two
 * players there is no order to keep inside a batch: a player answers what
 * the service told them, and the service tells it only once the other's
 * mail is applied, so a mail that depends on another's never shares a
 * batch with it (a mail server's pipe runs its deliveries at once, with
 * no order at all). */
#ifndef SERVICE_MAILIN_IMAP_ORDER_H
#define SERVICE_MAILIN_IMAP_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* The key of the message's sender: equal for two messages whose From
 * header names one address (mail_message_sender, read with GMime as the
 * handler will read it; compared without case). raw is length bytes of a
 * message; only its header is read. A message without a From address has
 * key 0, which all such messages share. */
uint64_t imap_order_key(const char *raw, size_t length);

#endif
