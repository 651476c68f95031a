/* test_peers.c: who the client is, as http/peers.h reads it: forwarding
 * headers believed from a trusted proxy only, and the per-address limit
 * that spares the proxies. Pure: no server, no database. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <string.h>

#include "http/peers.h"

static struct sockaddr_in from(const char *text)
{
    struct sockaddr_in addr = {.sin_family = AF_INET};
    cr_assert_eq(inet_pton(AF_INET, text, &addr.sin_addr), 1);
    return addr;
}

static peers *with_proxies(const char *trusted)
{
    apierr err = {0};
    peers *p = peers_new(trusted, 2, &err);
    cr_assert_not_null(p, "%s", err.message);
    return p;
}

static const char *client(peers *p, const char *peer, const char *forwarded,
                          const char *xff)
{
    static char out[64];
    struct sockaddr_in addr = from(peer);
    peers_client(p, (struct sockaddr *)&addr, forwarded, xff, out, sizeof out);
    return out;
}

Test(peers, anyone_but_a_trusted_proxy_is_the_client_itself)
{
    peers *p = with_proxies("10.0.0.1");
    cr_expect_str_eq(client(p, "192.0.2.7", NULL, "198.51.100.1"),
                     "192.0.2.7");
    cr_expect_str_eq(client(p, "192.0.2.7", "for=198.51.100.1", NULL),
                     "192.0.2.7");
    peers_free(p);
}

Test(peers, a_trusted_proxy_names_the_client)
{
    peers *p = with_proxies("10.0.0.1, 10.0.0.2");
    cr_expect_str_eq(client(p, "10.0.0.1", NULL, "198.51.100.1"),
                     "198.51.100.1");
    /* What the client wrote itself is on the left; the proxy appended
     * the address it saw. */
    cr_expect_str_eq(client(p, "10.0.0.1", NULL, "6.6.6.6, 198.51.100.1"),
                     "198.51.100.1");
    /* Two trusted proxies in a row. */
    cr_expect_str_eq(
        client(p, "10.0.0.1", NULL, "6.6.6.6, 198.51.100.1, 10.0.0.2"),
        "198.51.100.1");
    cr_expect_str_eq(client(p, "10.0.0.1",
                            "for=6.6.6.6, for=\"198.51.100.1:4711\";proto=https",
                            "7.7.7.7"),
                     "198.51.100.1");
    cr_expect_str_eq(client(p, "10.0.0.1", "for=\"[2001:db8::1]:80\"", NULL),
                     "2001:db8::1");
    /* Nothing readable: the proxy itself. */
    cr_expect_str_eq(client(p, "10.0.0.1", "for=unknown", NULL), "10.0.0.1");
    cr_expect_str_eq(client(p, "10.0.0.1", NULL, NULL), "10.0.0.1");
    peers_free(p);
}

Test(peers, the_per_address_limit_spares_a_trusted_proxy)
{
    peers *p = with_proxies("10.0.0.1");
    struct sockaddr_in proxy = from("10.0.0.1");
    struct sockaddr_in user = from("192.0.2.7");
    for (int i = 0; i < 5; i++) {
        cr_expect(peers_admit(p, (struct sockaddr *)&proxy));
        peers_opened(p, (struct sockaddr *)&proxy);
    }
    cr_expect(peers_admit(p, (struct sockaddr *)&user));
    peers_opened(p, (struct sockaddr *)&user);
    peers_opened(p, (struct sockaddr *)&user);
    cr_expect_not(peers_admit(p, (struct sockaddr *)&user));
    peers_closed(p, (struct sockaddr *)&user);
    cr_expect(peers_admit(p, (struct sockaddr *)&user));
    peers_closed(p, (struct sockaddr *)&user);
    peers_free(p);
}

Test(peers, a_trusted_proxy_must_be_an_address)
{
    apierr err = {0};
    cr_expect_null(peers_new("10.0.0.1,proxy.example", 2, &err));
    cr_expect_str_eq(err.code, "bad_trusted_proxies");
    peers *p = peers_new("", 2, &err);
    cr_expect_not_null(p);
    peers_free(p);
}
