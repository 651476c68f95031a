/* proxy.h: a real reverse proxy in front of several pbemd, as a deployment
 * runs one: Debian's nginx, terminating TLS with a certificate signed by a
 * CA the test makes (openssl), spreading requests over the pbemd on
 * loopback, and naming the client in Forwarded and X-Forwarded-For, which
 * it always replaces, never passes on. It talks to the pbemd from
 * 127.0.0.2, so a pbemd told to trust only that address
 * (PBEM_TRUSTED_PROXIES=127.0.0.2) can tell the proxy from a client on
 * 127.0.0.1 that writes Forwarded itself.
 *
 * The configuration is deploy/nginx/pbem.conf, the file a deployment
 * uses, with the test's addresses and folders put in. nginx runs in the
 * foreground as a child of the test (as root its workers run as
 * 'nobody'), in a folder of its own under /tmp. Every helper fails the
 * running Criterion test when nginx does not do its part. */
#ifndef TESTS_SUPPORT_PROXY_H
#define TESTS_SUPPORT_PROXY_H

#include <sys/types.h>

#define PROXY_BACKENDS_MAX 8
/* The address the proxy connects to pbemd from. */
#define PROXY_SOURCE_ADDRESS "127.0.0.2"

typedef struct proxy {
    pid_t pid;          /* nginx's master; 0 while stopped */
    int port;           /* https://127.0.0.1:port */
    char dir[64];       /* its folder: config, certificates, logs */
    char ca_file[128];  /* the CA that signed its certificate, to trust */
    char base_url[64];  /* "https://127.0.0.1:port" */
} proxy;

/* Makes the CA and the certificate, writes the configuration for the
 * pbemd on ports (count of them, on 127.0.0.1) and starts nginx; waits
 * (10 s at most) until it completes a TLS handshake. */
void proxy_start(proxy *p, const int *ports, int count);

/* Stops nginx (SIGQUIT: it finishes what it serves) and removes its
 * folder. Safe on a proxy never started. */
void proxy_remove(proxy *p);

#endif
