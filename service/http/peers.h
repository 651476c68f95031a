/* peers.h: who is at the other end of a connection. The peer is the
 * address the socket comes from; behind a TLS proxy that is the proxy for
 * everyone, so the proxies named in PBEM_TRUSTED_PROXIES are believed
 * about the client they forward for (Forwarded, else X-Forwarded-For) and
 * are exempt from the limit of connections from one address, which would
 * otherwise lock out every user at once. Any other peer's forwarding
 * headers are ignored: a client could write anything there. */
#ifndef SERVICE_HTTP_PEERS_H
#define SERVICE_HTTP_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "core/apierr.h"

typedef struct peers peers;

/* trusted: comma-separated IPv4 addresses ("10.0.0.1, 10.0.0.2"), may be
 * NULL or empty. per_address: the connections one untrusted address may
 * hold at once. NULL with err filled (500) when an entry of trusted is
 * not an address. */
peers *peers_new(const char *trusted, unsigned per_address, apierr *err);

void peers_free(peers *p);

/* Whether addr (the socket's peer) is a trusted proxy. */
bool peers_trusted(const peers *p, const struct sockaddr *addr);

/* Whether a connection from addr may be accepted now: a trusted proxy
 * always, anyone else while under the per-address limit. */
bool peers_admit(peers *p, const struct sockaddr *addr);

/* A connection from addr opened, or closed: the counts peers_admit reads.
 * Each opened is matched by one closed. */
void peers_opened(peers *p, const struct sockaddr *addr);
void peers_closed(peers *p, const struct sockaddr *addr);

/* The client's address as text into out: the peer's own, unless the peer
 * is a trusted proxy, then the nearest address in forwarded (the
 * Forwarded header's for= parameters) or, without it, x_forwarded_for
 * that is not itself a trusted proxy, read from the right (the hops the
 * proxies added); either header may be NULL. */
void peers_client(const peers *p, const struct sockaddr *addr,
                  const char *forwarded, const char *x_forwarded_for,
                  char *out, size_t size);

#endif
