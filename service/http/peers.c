/* peers.c */
#include "http/peers.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PEERS_BUCKETS 1024

typedef struct address_count {
    uint32_t address; /* network order */
    unsigned count;
    struct address_count *next;
} address_count;

struct peers {
    uint32_t *trusted; /* network order */
    size_t trusted_len;
    unsigned per_address;
    pthread_mutex_t lock; /* guards buckets */
    address_count *buckets[PEERS_BUCKETS];
};

/* The IPv4 address of addr, or false for another family. */
static bool ipv4_of(const struct sockaddr *addr, uint32_t *out)
{
    if (addr == NULL || addr->sa_family != AF_INET)
        return false;
    struct sockaddr_in in;
    memcpy(&in, addr, sizeof in);
    *out = in.sin_addr.s_addr;
    return true;
}

static bool is_trusted(const peers *p, uint32_t address)
{
    for (size_t i = 0; i < p->trusted_len; i++)
        if (p->trusted[i] == address)
            return true;
    return false;
}

peers *peers_new(const char *trusted, unsigned per_address, apierr *err)
{
    peers *p = calloc(1, sizeof *p);
    if (p == NULL)
        abort();
    p->per_address = per_address;
    pthread_mutex_init(&p->lock, NULL);
    const char *at = trusted != NULL ? trusted : "";
    while (*at != '\0') {
        while (*at == ' ' || *at == ',')
            at++;
        size_t len = strcspn(at, ", ");
        if (len == 0)
            break;
        char text[INET_ADDRSTRLEN];
        struct in_addr address;
        if (len >= sizeof text) {
            apierr_set(err, 500, "bad_trusted_proxies",
                       "PBEM_TRUSTED_PROXIES: \"%.*s\" is not an IPv4 address",
                       (int)(len > 64 ? 64 : len), at);
            peers_free(p);
            return NULL;
        }
        memcpy(text, at, len);
        text[len] = '\0';
        if (inet_pton(AF_INET, text, &address) != 1) {
            apierr_set(err, 500, "bad_trusted_proxies",
                       "PBEM_TRUSTED_PROXIES: \"%s\" is not an IPv4 address",
                       text);
            peers_free(p);
            return NULL;
        }
        uint32_t *grown =
            realloc(p->trusted, (p->trusted_len + 1) * sizeof *grown);
        if (grown == NULL)
            abort();
        p->trusted = grown;
        p->trusted[p->trusted_len++] = address.s_addr;
        at += len;
    }
    return p;
}

void peers_free(peers *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < PEERS_BUCKETS; i++)
        while (p->buckets[i] != NULL) {
            address_count *next = p->buckets[i]->next;
            free(p->buckets[i]);
            p->buckets[i] = next;
        }
    pthread_mutex_destroy(&p->lock);
    free(p->trusted);
    free(p);
}

bool peers_trusted(const peers *p, const struct sockaddr *addr)
{
    uint32_t address;
    return ipv4_of(addr, &address) && is_trusted(p, address);
}

static address_count **slot(peers *p, uint32_t address)
{
    address_count **at = &p->buckets[(address * 2654435761u) % PEERS_BUCKETS];
    while (*at != NULL && (*at)->address != address)
        at = &(*at)->next;
    return at;
}

bool peers_admit(peers *p, const struct sockaddr *addr)
{
    uint32_t address;
    if (!ipv4_of(addr, &address) || is_trusted(p, address))
        return true;
    pthread_mutex_lock(&p->lock);
    address_count *found = *slot(p, address);
    bool admit = found == NULL || found->count < p->per_address;
    pthread_mutex_unlock(&p->lock);
    return admit;
}

void peers_opened(peers *p, const struct sockaddr *addr)
{
    uint32_t address;
    if (!ipv4_of(addr, &address) || is_trusted(p, address))
        return;
    pthread_mutex_lock(&p->lock);
    address_count **at = slot(p, address);
    if (*at == NULL) {
        *at = calloc(1, sizeof **at);
        if (*at == NULL)
            abort();
        (*at)->address = address;
    }
    (*at)->count++;
    pthread_mutex_unlock(&p->lock);
}

void peers_closed(peers *p, const struct sockaddr *addr)
{
    uint32_t address;
    if (!ipv4_of(addr, &address) || is_trusted(p, address))
        return;
    pthread_mutex_lock(&p->lock);
    address_count **at = slot(p, address);
    /* An address's entry goes with its last connection, so the table
     * holds only the addresses connected now. */
    if (*at != NULL && --(*at)->count == 0) {
        address_count *gone = *at;
        *at = gone->next;
        free(gone);
    }
    pthread_mutex_unlock(&p->lock);
}

/* The address in one hop's text ("192.0.2.1", "\"192.0.2.1:4711\"",
 * "\"[2001:db8::1]:80\"", "unknown") into out; false when it names none. */
static bool hop_address(const char *hop, size_t len, char *out, size_t size)
{
    while (len > 0 && isspace((unsigned char)*hop)) {
        hop++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)hop[len - 1]))
        len--;
    if (len >= 2 && hop[0] == '"' && hop[len - 1] == '"') {
        hop++;
        len -= 2;
    }
    size_t end = len;
    if (len > 0 && hop[0] == '[') {
        const char *close = memchr(hop, ']', len);
        if (close == NULL)
            return false;
        hop++;
        end = (size_t)(close - hop);
    } else {
        const char *colon = memchr(hop, ':', len);
        /* One colon: IPv4 with a port; more: bare IPv6. */
        if (colon != NULL && memchr(colon + 1, ':', len - (size_t)(colon + 1 - hop)) == NULL)
            end = (size_t)(colon - hop);
    }
    char text[INET6_ADDRSTRLEN];
    if (end == 0 || end >= sizeof text)
        return false;
    memcpy(text, hop, end);
    text[end] = '\0';
    unsigned char raw[sizeof(struct in6_addr)];
    if (inet_pton(AF_INET, text, raw) != 1 &&
        inet_pton(AF_INET6, text, raw) != 1)
        return false;
    snprintf(out, size, "%s", text);
    return true;
}

/* The for= value of one Forwarded element ("for=x;proto=https"), or
 * NULL; *len receives its length. */
static const char *forwarded_for(const char *element, size_t len,
                                 size_t *for_len)
{
    const char *at = element;
    const char *end = element + len;
    while (at < end) {
        while (at < end && (*at == ' ' || *at == ';'))
            at++;
        const char *pair_end = memchr(at, ';', (size_t)(end - at));
        if (pair_end == NULL)
            pair_end = end;
        if (pair_end - at > 4 && strncasecmp(at, "for=", 4) == 0) {
            *for_len = (size_t)(pair_end - at - 4);
            return at + 4;
        }
        at = pair_end;
    }
    return NULL;
}

/* Walks list (comma-separated hops) from the right: the first address that
 * is not a trusted proxy into out. An unreadable hop ends the walk, as
 * nothing to its left can be believed. */
static bool nearest_untrusted(const peers *p, const char *list,
                              bool forwarded, char *out, size_t size)
{
    size_t end = strlen(list);
    while (end > 0) {
        size_t start = end;
        while (start > 0 && list[start - 1] != ',')
            start--;
        const char *hop = list + start;
        size_t len = end - start;
        if (forwarded) {
            hop = forwarded_for(list + start, end - start, &len);
            if (hop == NULL)
                return false;
        }
        char text[INET6_ADDRSTRLEN];
        if (!hop_address(hop, len, text, sizeof text))
            return false;
        struct in_addr v4;
        if (inet_pton(AF_INET, text, &v4) != 1 || !is_trusted(p, v4.s_addr)) {
            snprintf(out, size, "%s", text);
            return true;
        }
        end = start > 0 ? start - 1 : 0;
    }
    return false;
}

void peers_client(const peers *p, const struct sockaddr *addr,
                  const char *forwarded, const char *x_forwarded_for,
                  char *out, size_t size)
{
    uint32_t address = 0;
    bool v4 = ipv4_of(addr, &address);
    char own[INET_ADDRSTRLEN] = "unknown";
    if (v4)
        inet_ntop(AF_INET, &address, own, sizeof own);
    snprintf(out, size, "%s", own);
    if (!v4 || !is_trusted(p, address))
        return;
    if (forwarded != NULL)
        nearest_untrusted(p, forwarded, true, out, size);
    else if (x_forwarded_for != NULL)
        nearest_untrusted(p, x_forwarded_for, false, out, size);
}
