/* metrics.c: fixed tables of atomic counters (routes are few and static). */
#include "core/metrics.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"

/* Room for every route name routes.c reports (about 40), with margin. */
#define ROUTES_MAX 64
#define STATUSES 600
static const double bucket_bounds[] = {0.001, 0.0025, 0.005, 0.01, 0.025,
                                       0.05,  0.1,    0.25,  0.5,  1,     2.5};
#define BUCKETS (sizeof bucket_bounds / sizeof bucket_bounds[0])

typedef struct route_counters {
    const char *route;
    unsigned long by_status[STATUSES];
    unsigned long buckets[BUCKETS];
    unsigned long count;
    unsigned long long micros_sum;
} route_counters;

static route_counters routes[ROUTES_MAX];
static unsigned long events_appended;
static unsigned long deadline_rounds, deadline_reminders, deadline_actions;
static unsigned long mail_received[METRICS_MAIL_OUTCOMES];
static const char *const mail_outcome_names[METRICS_MAIL_OUTCOMES] = {
    "answered", "ignored", "limited", "bounce", "unreadable"};
static unsigned long mail_answers_sent, mail_answers_failed, mail_answers_dead;

/* Rate limits: a few budgets, and a cost and refusals per route. */
#define RATE_POLICIES_MAX 4
typedef struct rate_budget_gauges {
    const char *policy;
    long long quota, window;
    size_t slots, in_use;
    unsigned long limited;
} rate_budget_gauges;
typedef struct rate_route_counters {
    const char *route;
    long long cost;
    unsigned long limited;
} rate_route_counters;
static rate_budget_gauges rate_budgets[RATE_POLICIES_MAX];
static rate_route_counters rate_routes[ROUTES_MAX];
static unsigned long verify_cache_hits, verify_cache_misses;
static unsigned long long event_texts_read;
static unsigned long shared_commits, shared_transactions, set_aside;
static int imap_handler_threads, imap_handlers_busiest;
static int http_threads;
static unsigned http_thread_connections[METRICS_HTTP_THREADS_MAX];

static route_counters *counters_for(const char *route)
{
    for (int i = 0; i < ROUTES_MAX; i++) {
        const char *known = __atomic_load_n(&routes[i].route, __ATOMIC_ACQUIRE);
        if (known == route || (known && strcmp(known, route) == 0))
            return &routes[i];
        if (known == NULL) {
            const char *expected = NULL;
            if (__atomic_compare_exchange_n(&routes[i].route, &expected, route,
                                            false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return &routes[i];
            if (strcmp(expected, route) == 0)
                return &routes[i];
        }
    }
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_ACQ_REL))
        log_warn("metrics: more than %d routes; \"%s\" and later ones are not "
                 "counted (raise ROUTES_MAX in service/core/metrics.c)",
                 ROUTES_MAX, route);
    return NULL;
}

void metrics_request(const char *route, int status, double seconds)
{
    route_counters *c = counters_for(route);
    if (c == NULL || status < 0 || status >= STATUSES)
        return;
    __atomic_add_fetch(&c->by_status[status], 1, __ATOMIC_RELAXED);
    for (size_t b = 0; b < BUCKETS; b++) {
        if (seconds <= bucket_bounds[b])
            __atomic_add_fetch(&c->buckets[b], 1, __ATOMIC_RELAXED);
    }
    __atomic_add_fetch(&c->count, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&c->micros_sum, (unsigned long long)(seconds * 1e6),
                       __ATOMIC_RELAXED);
}

void metrics_events_appended(int count)
{
    __atomic_add_fetch(&events_appended, (unsigned long)count, __ATOMIC_RELAXED);
}

void metrics_deadline_round(int reminders, int actions)
{
    __atomic_add_fetch(&deadline_reminders, (unsigned long)reminders,
                       __ATOMIC_RELAXED);
    __atomic_add_fetch(&deadline_actions, (unsigned long)actions,
                       __ATOMIC_RELAXED);
    /* Last, so a reader that sees the round sees what it did. */
    __atomic_add_fetch(&deadline_rounds, 1, __ATOMIC_RELEASE);
}

void metrics_mail_received(metrics_mail outcome)
{
    if (outcome >= 0 && outcome < METRICS_MAIL_OUTCOMES)
        __atomic_add_fetch(&mail_received[outcome], 1, __ATOMIC_RELAXED);
}

void metrics_mail_answers(int sent, int failed, int dead)
{
    __atomic_add_fetch(&mail_answers_sent, (unsigned long)sent,
                       __ATOMIC_RELAXED);
    __atomic_add_fetch(&mail_answers_failed, (unsigned long)failed,
                       __ATOMIC_RELAXED);
    __atomic_add_fetch(&mail_answers_dead, (unsigned long)dead,
                       __ATOMIC_RELAXED);
}

/* The entry named name among n entries whose names sit stride bytes
 * apart from first, claimed when new; NULL when every entry is taken. */
static void *named_slot(const char **first, size_t stride, int n,
                        const char *name)
{
    for (int i = 0; i < n; i++) {
        const char **at = (const char **)((char *)first + (size_t)i * stride);
        const char *known = __atomic_load_n(at, __ATOMIC_ACQUIRE);
        if (known == NULL) {
            const char *expected = NULL;
            if (__atomic_compare_exchange_n(at, &expected, name, false,
                                            __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return at;
            known = expected;
        }
        if (strcmp(known, name) == 0)
            return at;
    }
    return NULL;
}

static rate_budget_gauges *budget_named(const char *policy)
{
    return named_slot(&rate_budgets[0].policy, sizeof rate_budgets[0],
                      RATE_POLICIES_MAX, policy);
}

static rate_route_counters *rate_route_named(const char *route)
{
    return named_slot(&rate_routes[0].route, sizeof rate_routes[0],
                      ROUTES_MAX, route);
}

void metrics_rate_budget(const char *policy, long long quota,
                         long long window, size_t slots)
{
    rate_budget_gauges *g = budget_named(policy);
    if (g == NULL)
        return;
    __atomic_store_n(&g->quota, quota, __ATOMIC_RELAXED);
    __atomic_store_n(&g->window, window, __ATOMIC_RELAXED);
    __atomic_store_n(&g->slots, slots, __ATOMIC_RELAXED);
}

void metrics_rate_buckets(const char *policy, size_t in_use)
{
    rate_budget_gauges *g = budget_named(policy);
    if (g != NULL)
        __atomic_store_n(&g->in_use, in_use, __ATOMIC_RELAXED);
}

void metrics_rate_route(const char *route, long long cost)
{
    rate_route_counters *c = rate_route_named(route);
    if (c != NULL)
        __atomic_store_n(&c->cost, cost, __ATOMIC_RELAXED);
}

void metrics_rate_limited(const char *route, const char *policy)
{
    rate_route_counters *c = rate_route_named(route);
    if (c != NULL)
        __atomic_add_fetch(&c->limited, 1, __ATOMIC_RELAXED);
    rate_budget_gauges *g = budget_named(policy);
    if (g != NULL)
        __atomic_add_fetch(&g->limited, 1, __ATOMIC_RELAXED);
}

void metrics_shared_commit(int transactions)
{
    __atomic_add_fetch(&shared_commits, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&shared_transactions, (unsigned long)transactions,
                       __ATOMIC_RELAXED);
}

void metrics_shared_commit_set_aside(void)
{
    __atomic_add_fetch(&set_aside, 1, __ATOMIC_RELAXED);
}

void metrics_imap_handlers(int threads, int busiest)
{
    __atomic_store_n(&imap_handler_threads, threads, __ATOMIC_RELAXED);
    int seen = __atomic_load_n(&imap_handlers_busiest, __ATOMIC_RELAXED);
    while (busiest > seen && !__atomic_compare_exchange_n(
                                 &imap_handlers_busiest, &seen, busiest, false,
                                 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void metrics_http_threads(int count)
{
    __atomic_store_n(&http_threads,
                     count < METRICS_HTTP_THREADS_MAX ? count
                                                      : METRICS_HTTP_THREADS_MAX,
                     __ATOMIC_RELAXED);
}

void metrics_http_thread_connections(int thread, unsigned connections)
{
    if (thread >= 0 && thread < METRICS_HTTP_THREADS_MAX)
        __atomic_store_n(&http_thread_connections[thread], connections,
                         __ATOMIC_RELAXED);
}

static void render_http_threads(FILE *out)
{
    int threads = __atomic_load_n(&http_threads, __ATOMIC_RELAXED);
    if (threads == 0)
        return;
    fprintf(out, "# HELP pbem_http_thread_connections Connections each HTTP "
                 "thread holds now.\n"
                 "# TYPE pbem_http_thread_connections gauge\n");
    for (int i = 0; i < threads; i++)
        fprintf(out, "pbem_http_thread_connections{thread=\"%d\"} %u\n", i,
                __atomic_load_n(&http_thread_connections[i],
                                __ATOMIC_RELAXED));
}

void metrics_event_texts_read(long long rows)
{
    __atomic_add_fetch(&event_texts_read, (unsigned long long)rows,
                       __ATOMIC_RELAXED);
}

void metrics_verify_cache(int hit)
{
    __atomic_add_fetch(hit ? &verify_cache_hits : &verify_cache_misses, 1,
                       __ATOMIC_RELAXED);
}

static void render_rate_limits(FILE *out)
{
    fprintf(out,
            "# HELP pbem_rate_limit_quota Points a client may spend per "
            "window (0: the budget is off).\n"
            "# TYPE pbem_rate_limit_quota gauge\n");
    for (int i = 0; i < RATE_POLICIES_MAX && rate_budgets[i].policy; i++)
        fprintf(out, "pbem_rate_limit_quota{policy=\"%s\"} %lld\n",
                rate_budgets[i].policy,
                __atomic_load_n(&rate_budgets[i].quota, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_rate_limit_window_seconds The window the quota "
                 "refills over.\n"
                 "# TYPE pbem_rate_limit_window_seconds gauge\n");
    for (int i = 0; i < RATE_POLICIES_MAX && rate_budgets[i].policy; i++)
        fprintf(out, "pbem_rate_limit_window_seconds{policy=\"%s\"} %lld\n",
                rate_budgets[i].policy,
                __atomic_load_n(&rate_budgets[i].window, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_rate_limit_buckets Clients the budget's table "
                 "holds now (never more than its slots).\n"
                 "# TYPE pbem_rate_limit_buckets gauge\n");
    for (int i = 0; i < RATE_POLICIES_MAX && rate_budgets[i].policy; i++)
        fprintf(out, "pbem_rate_limit_buckets{policy=\"%s\"} %zu\n",
                rate_budgets[i].policy,
                __atomic_load_n(&rate_budgets[i].in_use, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_rate_limit_slots The most clients the budget's "
                 "table holds.\n"
                 "# TYPE pbem_rate_limit_slots gauge\n");
    for (int i = 0; i < RATE_POLICIES_MAX && rate_budgets[i].policy; i++)
        fprintf(out, "pbem_rate_limit_slots{policy=\"%s\"} %zu\n",
                rate_budgets[i].policy,
                __atomic_load_n(&rate_budgets[i].slots, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_rate_limited_by_policy_total Requests refused "
                 "with 429, by budget.\n"
                 "# TYPE pbem_rate_limited_by_policy_total counter\n");
    for (int i = 0; i < RATE_POLICIES_MAX && rate_budgets[i].policy; i++)
        fprintf(out, "pbem_rate_limited_by_policy_total{policy=\"%s\"} %lu\n",
                rate_budgets[i].policy,
                __atomic_load_n(&rate_budgets[i].limited, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_rate_limit_cost Points one request of the route "
                 "costs (its budget: quota / cost requests per window).\n"
                 "# TYPE pbem_rate_limit_cost gauge\n");
    for (int i = 0; i < ROUTES_MAX && rate_routes[i].route; i++)
        fprintf(out, "pbem_rate_limit_cost{route=\"%s\"} %lld\n",
                rate_routes[i].route,
                __atomic_load_n(&rate_routes[i].cost, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_rate_limited_total Requests refused with 429, "
                 "by route.\n"
                 "# TYPE pbem_rate_limited_total counter\n");
    for (int i = 0; i < ROUTES_MAX && rate_routes[i].route; i++)
        fprintf(out, "pbem_rate_limited_total{route=\"%s\"} %lu\n",
                rate_routes[i].route,
                __atomic_load_n(&rate_routes[i].limited, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_verify_cache_total GET verify answered from "
                 "the cache of finished matches (hit) or computed (miss).\n"
                 "# TYPE pbem_verify_cache_total counter\n"
                 "pbem_verify_cache_total{outcome=\"hit\"} %lu\n"
                 "pbem_verify_cache_total{outcome=\"miss\"} %lu\n",
            __atomic_load_n(&verify_cache_hits, __ATOMIC_RELAXED),
            __atomic_load_n(&verify_cache_misses, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_event_texts_read_rows_total Sentences read "
                 "back from the database to tell a seat's view or a "
                 "match's log.\n"
                 "# TYPE pbem_event_texts_read_rows_total counter\n"
                 "pbem_event_texts_read_rows_total %llu\n",
            __atomic_load_n(&event_texts_read, __ATOMIC_RELAXED));
}

char *metrics_render(void)
{
    char *page = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&page, &size);
    fprintf(out, "# HELP pbem_http_requests_total HTTP requests by route and "
                 "status.\n# TYPE pbem_http_requests_total counter\n");
    for (int i = 0; i < ROUTES_MAX && routes[i].route; i++) {
        for (int s = 0; s < STATUSES; s++) {
            unsigned long n = __atomic_load_n(&routes[i].by_status[s],
                                              __ATOMIC_RELAXED);
            if (n)
                fprintf(out,
                        "pbem_http_requests_total{route=\"%s\",status=\"%d\"} "
                        "%lu\n",
                        routes[i].route, s, n);
        }
    }
    fprintf(out, "# HELP pbem_http_request_seconds Request latency.\n"
                 "# TYPE pbem_http_request_seconds histogram\n");
    for (int i = 0; i < ROUTES_MAX && routes[i].route; i++) {
        route_counters *c = &routes[i];
        for (size_t b = 0; b < BUCKETS; b++)
            fprintf(out,
                    "pbem_http_request_seconds_bucket{route=\"%s\",le=\"%g\"} "
                    "%lu\n",
                    c->route, bucket_bounds[b],
                    __atomic_load_n(&c->buckets[b], __ATOMIC_RELAXED));
        unsigned long count = __atomic_load_n(&c->count, __ATOMIC_RELAXED);
        fprintf(out,
                "pbem_http_request_seconds_bucket{route=\"%s\",le=\"+Inf\"} "
                "%lu\n",
                c->route, count);
        fprintf(out, "pbem_http_request_seconds_sum{route=\"%s\"} %.6f\n",
                c->route,
                (double)__atomic_load_n(&c->micros_sum, __ATOMIC_RELAXED) / 1e6);
        fprintf(out, "pbem_http_request_seconds_count{route=\"%s\"} %lu\n",
                c->route, count);
    }
    fprintf(out, "# HELP pbem_db_shared_commits_total Transactions PostgreSQL "
                 "committed together (moves of different matches).\n"
                 "# TYPE pbem_db_shared_commits_total counter\n"
                 "pbem_db_shared_commits_total %lu\n"
                 "# HELP pbem_db_shared_commit_transactions_total The "
                 "transactions those commits held.\n"
                 "# TYPE pbem_db_shared_commit_transactions_total counter\n"
                 "pbem_db_shared_commit_transactions_total %lu\n",
            __atomic_load_n(&shared_commits, __ATOMIC_RELAXED),
            __atomic_load_n(&shared_transactions, __ATOMIC_RELAXED));
    fprintf(out,
            "# HELP pbem_db_shared_commit_set_aside_total Requests "
            "whose connection was suspended while their transaction "
            "waited for a shared commit, their thread serving "
            "others.\n"
            "# TYPE pbem_db_shared_commit_set_aside_total counter\n"
            "pbem_db_shared_commit_set_aside_total %lu\n",
            __atomic_load_n(&set_aside, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_events_appended_total Events appended to match "
                 "logs.\n# TYPE pbem_events_appended_total counter\n"
                 "pbem_events_appended_total %lu\n",
            __atomic_load_n(&events_appended, __ATOMIC_RELAXED));
    unsigned long rounds = __atomic_load_n(&deadline_rounds, __ATOMIC_ACQUIRE);
    fprintf(out,
            "# HELP pbem_deadline_rounds_total Passes of this process's "
            "deadline worker over the due rows.\n"
            "# TYPE pbem_deadline_rounds_total counter\n"
            "pbem_deadline_rounds_total %lu\n"
            "# HELP pbem_deadline_reminders_total Deadline reminders this "
            "process queued.\n"
            "# TYPE pbem_deadline_reminders_total counter\n"
            "pbem_deadline_reminders_total %lu\n"
            "# HELP pbem_deadline_actions_total Deadline actions this process "
            "applied.\n"
            "# TYPE pbem_deadline_actions_total counter\n"
            "pbem_deadline_actions_total %lu\n",
            rounds, __atomic_load_n(&deadline_reminders, __ATOMIC_RELAXED),
            __atomic_load_n(&deadline_actions, __ATOMIC_RELAXED));
    fprintf(out, "# HELP pbem_mail_received_total Mail this process took in, "
                 "by what became of it (limited: dropped over the sender's "
                 "hourly answers).\n"
                 "# TYPE pbem_mail_received_total counter\n");
    for (int i = 0; i < METRICS_MAIL_OUTCOMES; i++)
        fprintf(out, "pbem_mail_received_total{outcome=\"%s\"} %lu\n",
                mail_outcome_names[i],
                __atomic_load_n(&mail_received[i], __ATOMIC_RELAXED));
    fprintf(out,
            "# HELP pbem_mail_answers_total Attempts of this process at mail "
            "that answers mail, confirmations and invitations, by outcome.\n"
            "# TYPE pbem_mail_answers_total counter\n"
            "pbem_mail_answers_total{outcome=\"sent\"} %lu\n"
            "pbem_mail_answers_total{outcome=\"failed\"} %lu\n"
            "pbem_mail_answers_total{outcome=\"dead\"} %lu\n",
            __atomic_load_n(&mail_answers_sent, __ATOMIC_RELAXED),
            __atomic_load_n(&mail_answers_failed, __ATOMIC_RELAXED),
            __atomic_load_n(&mail_answers_dead, __ATOMIC_RELAXED));
    int imap_threads = __atomic_load_n(&imap_handler_threads, __ATOMIC_RELAXED);
    if (imap_threads > 0)
        fprintf(out,
                "# HELP pbem_imap_handler_threads Threads of the IMAP worker "
                "that handle a round's messages at once.\n"
                "# TYPE pbem_imap_handler_threads gauge\n"
                "pbem_imap_handler_threads %d\n"
                "# HELP pbem_imap_handlers_busiest The most of them busy at "
                "one moment since the start.\n"
                "# TYPE pbem_imap_handlers_busiest gauge\n"
                "pbem_imap_handlers_busiest %d\n",
                imap_threads,
                __atomic_load_n(&imap_handlers_busiest, __ATOMIC_RELAXED));
    render_rate_limits(out);
    render_http_threads(out);
    fclose(out);
    return page;
}
