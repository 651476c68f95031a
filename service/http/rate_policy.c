/* rate_policy.c: the process's two budgets and how a request meets them. */
#include "http/rate_policy.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "core/log.h"
#include "core/metrics.h"
#include "http/peers.h"
#include "http/rate_limit.h"
#include "store/db.h"
#include "store/rate_buckets.h"

/* The budgets' defaults are config's (PBEM_RATE_ANONYMOUS 600/60,
 * PBEM_RATE_PLAYER 3000/60): far above what a person or a bot playing
 * turns needs, far below what hurts others. A verify of a long match costs
 * ~0.1 s of CPU: 20 a minute from one address is 3% of a core;
 * registrations come 20 a minute from one address too, instead of
 * thousands a second. */
#define QUOTA_MAX 1000000000LL

static const char *const party_names[RATE_PARTIES] = {"anonymous", "player"};
static const char *const class_names[RATE_CLASSES] = {"read", "write", "heavy"};

/* Routes whose cost PBEM_RATE_COSTS names itself. */
#define OVERRIDES_MAX 16

typedef struct route_cost {
    char route[96];
    long long cost;
} route_cost;

static struct {
    pthread_once_t once;
    long long costs[RATE_CLASSES];
    route_cost overrides[OVERRIDES_MAX];
    int override_count;
    rate_budget budgets[RATE_PARTIES];
    rate_limit *tables[RATE_PARTIES]; /* NULL: that budget is off */
    peers *proxies;      /* PBEM_TRUSTED_PROXIES, to read the client address */
    bool shared;         /* PBEM_RATE_SHARED: the buckets live in PostgreSQL */
    long long pruned_ms; /* when this process last pruned them (atomic) */
    bool shared_down;    /* the last shared charge failed (atomic) */
} policy = {.once = PTHREAD_ONCE_INIT};

/* One item of PBEM_RATE_COSTS, "name=N": true when name is a class or a
 * route ("METHOD pattern" as /metrics names it) and N a cost. */
static bool parse_cost(char *item)
{
    char *eq = strrchr(item, '=');
    if (eq == NULL)
        return false;
    *eq = '\0';
    char *end = NULL;
    long long cost = strtoll(eq + 1, &end, 10);
    if (end == eq + 1 || *end != '\0' || cost < 0 || cost > QUOTA_MAX)
        return false;
    for (int c = 0; c < RATE_CLASSES; c++) {
        if (strcmp(item, class_names[c]) == 0) {
            policy.costs[c] = cost;
            return true;
        }
    }
    size_t len = strlen(item);
    if (strchr(item, ' ') == NULL || policy.override_count == OVERRIDES_MAX ||
        len >= sizeof policy.overrides[0].route)
        return false;
    route_cost *o = &policy.overrides[policy.override_count++];
    memcpy(o->route, item, len + 1);
    o->cost = cost;
    return true;
}

/* "read=1,write=2,heavy=30,GET /v1/matches/{id}/events=5", any of them:
 * the classes' costs, then a route's own. */
static void parse_costs(const char *text)
{
    if (text == NULL)
        return;
    const char *at = text;
    while (*at != '\0') {
        size_t len = strcspn(at, ",");
        char item[128];
        snprintf(item, sizeof item, "%.*s", (int)len, at);
        if (len >= sizeof item || !parse_cost(item))
            log_warn("PBEM_RATE_COSTS: \"%.*s\" is not read=N, write=N, "
                     "heavy=N or a route's \"METHOD pattern=N\"; ignored",
                     (int)(len > 120 ? 120 : len), at);
        at += len;
        if (*at == ',')
            at++;
    }
}

static void setup(void)
{
    policy.costs[RATE_READ] = 1;
    policy.costs[RATE_WRITE] = 2;
    policy.costs[RATE_HEAVY] = 30;
    parse_costs(config_text(CONFIG_RATE_COSTS));
    long long slots = config_whole(CONFIG_RATE_TABLE);
    static const config_var budget_vars[RATE_PARTIES] = {CONFIG_RATE_ANONYMOUS,
                                                         CONFIG_RATE_PLAYER};
    for (int p = 0; p < RATE_PARTIES; p++) {
        if (!config_budget(budget_vars[p], &policy.budgets[p].quota,
                           &policy.budgets[p].window)) {
            metrics_rate_budget(party_names[p], 0, 0, 0);
            continue;
        }
        policy.tables[p] = rate_limit_new((size_t)slots, policy.budgets[p]);
        metrics_rate_budget(party_names[p], policy.budgets[p].quota,
                            policy.budgets[p].window,
                            rate_limit_slots(policy.tables[p]));
    }
    policy.shared = config_flag(CONFIG_RATE_SHARED);
    apierr err;
    policy.proxies = peers_new(config_text(CONFIG_TRUSTED_PROXIES), 0, &err);
    if (policy.proxies == NULL) {
        log_warn("rate limits: %s; every request is charged to its peer",
                 err.message);
        policy.proxies = peers_new(NULL, 0, &err);
    }
}

/* What one request of route costs: its own figure, else its class's. */
static long long cost_of(const char *route, rate_class cls)
{
    for (int i = 0; i < policy.override_count; i++)
        if (strcmp(policy.overrides[i].route, route) == 0)
            return policy.overrides[i].cost;
    return policy.costs[cls];
}

void rate_policy_route(const char *route, rate_class cls)
{
    pthread_once(&policy.once, setup);
    metrics_rate_route(route, cost_of(route, cls));
}

static long long now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Buckets that are full again are forgotten once a minute by each
 * process (any one would do; a few DELETEs of nothing cost little). */
#define PRUNE_MS 60000

static void prune_shared(PGconn *conn, long long now)
{
    long long last = __atomic_load_n(&policy.pruned_ms, __ATOMIC_RELAXED);
    if (now - last < PRUNE_MS ||
        !__atomic_compare_exchange_n(&policy.pruned_ms, &last, now, false,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return;
    apierr err;
    if (store_rate_buckets_prune(conn, &err) < 0)
        log_warn("rate limits: forgetting full shared buckets failed: %s",
                 err.message);
}

/* The shared bucket of party's client (store/rate_buckets.h), named by
 * the budget too, so processes configured alike share it and a changed
 * budget starts afresh. The local bucket mirrors it: a client it already
 * refuses is refused without a statement. Without the database the local
 * bucket alone decides, as without PBEM_RATE_SHARED (logged once per
 * outage): a database outage must not turn into 429s. */
static bool take_shared(rate_party party, rate_limit *table, const char *client,
                        long long cost, rate_verdict *verdict)
{
    long long now = now_ms();
    if (!rate_limit_peek(table, client, cost, now, verdict))
        return false;
    const rate_budget *b = &policy.budgets[party];
    char bucket[160];
    snprintf(bucket, sizeof bucket, "%s %lld/%lld %s", party_names[party],
             b->quota, b->window, client);
    apierr err;
    long long owed_us = 0;
    PGconn *conn = db_conn(&err);
    int allowed = conn == NULL
                      ? -1
                      : store_rate_buckets_take(
                            conn, bucket, rate_limit_cost_us(table, cost),
                            b->window * 1000000LL, &owed_us, &err);
    if (allowed < 0) {
        if (!__atomic_exchange_n(&policy.shared_down, true, __ATOMIC_RELAXED))
            log_warn("rate limits: the shared budgets cannot be reached "
                     "(%s); each process counts on its own until they can",
                     err.message);
        return rate_limit_take(table, client, cost, now, verdict);
    }
    if (__atomic_exchange_n(&policy.shared_down, false, __ATOMIC_RELAXED))
        log_info("rate limits: the shared budgets are back");
    rate_limit_mirror(table, client, allowed == 1, owed_us, cost, now, verdict);
    prune_shared(conn, now);
    return allowed == 1;
}

/* The client's address: the peer's, or behind a trusted proxy the one it
 * forwards for. */
static void client_address(struct MHD_Connection *conn, char *out, size_t size)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *addr = info != NULL ? info->client_addr : NULL;
    const char *forwarded =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Forwarded");
    const char *xff =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Forwarded-For");
    peers_client(policy.proxies, addr, forwarded, xff, out, size);
}

bool rate_policy_take(struct MHD_Connection *conn, rate_party party,
                      const char *key_id, const char *route, rate_class cls,
                      rate_ticket *ticket, answer *out)
{
    pthread_once(&policy.once, setup);
    *ticket = (rate_ticket){.taken = true, .party = party};
    rate_limit *table = policy.tables[party];
    if (table == NULL)
        return true;
    char client[64];
    if (party == RATE_ANONYMOUS)
        client_address(conn, client, sizeof client);
    else
        snprintf(client, sizeof client, "%s", key_id);
    rate_verdict verdict;
    long long cost = cost_of(route, cls);
    bool allowed =
        policy.shared
            ? take_shared(party, table, client, cost, &verdict)
            : rate_limit_take(table, client, cost, now_ms(), &verdict);
    metrics_rate_buckets(party_names[party], rate_limit_count(table));
    ticket->limited = true;
    ticket->remaining = verdict.remaining;
    ticket->reset = verdict.reset;
    if (allowed)
        return true;
    metrics_rate_limited(route, party_names[party]);
    free(out->body);
    if (out->stream_free != NULL)
        out->stream_free(out->stream);
    *out = (answer){.route = route};
    char message[200];
    snprintf(message, sizeof message,
             "too many requests from this %s: wait %lld s before the next "
             "(the budget is %lld points per %lld s, and this request costs "
             "%lld)",
             party == RATE_ANONYMOUS ? "address" : "key", verdict.retry_after,
             policy.budgets[party].quota, policy.budgets[party].window, cost);
    answer_error(out, 429, "rate_limited", message);
    out->retry_after = verdict.retry_after;
    return false;
}

void rate_policy_label(const rate_ticket *ticket, answer *out)
{
    if (!ticket->limited)
        return;
    const char *name = party_names[ticket->party];
    const rate_budget *b = &policy.budgets[ticket->party];
    snprintf(out->ratelimit_policy, sizeof out->ratelimit_policy,
             "\"%s\";q=%lld;w=%lld", name, b->quota, b->window);
    snprintf(out->ratelimit, sizeof out->ratelimit, "\"%s\";r=%lld;t=%lld",
             name, ticket->remaining, ticket->reset);
}
