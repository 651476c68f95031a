/* ports.h: a TCP port on 127.0.0.1 for a server a test starts (pbemd,
 * Dovecot, nginx, PostgreSQL under pg_auto_failover). */
#ifndef TESTS_SUPPORT_PORTS_H
#define TESTS_SUPPORT_PORTS_H

/* A port nothing listens on now, as the kernel hands out. Another process
 * may take it before the caller's server binds it: a caller that cannot
 * bear that tries another (dovecot.c does). Fails the running Criterion
 * test when no socket can be had. */
int ports_free(void);

#endif
