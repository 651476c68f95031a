/* notify.c: notifications delivered per second to local receivers.
 *   notify BASE_URL HOOK_URL SECRETS_FILE COUNT
 * Against a pbemd with SMTP and loopback webhooks configured (DATABASE_URL
 * names its database): registers two players with an email address and a
 * webhook at HOOK_URL (writing its whsec_ secret to SECRETS_FILE for the
 * receiver to verify with), starts a match so the service queues a real
 * "your turn" row per channel, then copies that row COUNT times into the
 * outbox in one transaction and times the worker until every copy is
 * sent: once for the webhook rows, once for the email rows. Prints one
 * key=value line per channel. */
#include <curl/curl.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "notify bench: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

static json_t *call(client *c, const char *method, const char *path,
                    const char *body, const client_key *key, long expect)
{
    client_response r;
    char error[256];
    if (!client_send(c, method, path, body, key, NULL, &r, error))
        die(path, error);
    if (r.status != expect)
        die(path, r.body);
    json_t *json = json_incref(r.json);
    client_response_free(&r);
    return json;
}

static long long count_of(PGconn *db, const char *sql)
{
    PGresult *r = PQexec(db, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        die(sql, PQresultErrorMessage(r));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

static void wait_until_none_pending(PGconn *db, double limit)
{
    double deadline = now_seconds() + limit;
    while (count_of(db, "SELECT count(*) FROM outbox WHERE status = 'pending'") > 0) {
        if (now_seconds() > deadline)
            die("timeout", "notifications still pending");
        usleep(2000);
    }
}

/* Copies the row of channel (LIKE pattern) count times; times delivery. */
static void measure(PGconn *db, const char *label, const char *channel,
                    int count)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "INSERT INTO outbox (match_id, seq, player_id, channel, reason,"
             " payload, webhook_id)"
             " SELECT o.match_id, 1000000 + g, o.player_id, o.channel, o.reason,"
             "        o.payload, o.webhook_id"
             "   FROM (SELECT * FROM outbox WHERE channel LIKE '%s'"
             "          AND seq < 1000000 LIMIT 1) o,"
             "        generate_series(1, %d) g",
             channel, count);
    long long before = count_of(db, "SELECT count(*) FROM outbox WHERE status = 'sent'");
    double started = now_seconds();
    PGresult *r = PQexec(db, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die(sql, PQresultErrorMessage(r));
    PQclear(r);
    wait_until_none_pending(db, 600);
    double took = now_seconds() - started;
    long long sent = count_of(db, "SELECT count(*) FROM outbox WHERE status = 'sent'") - before;
    long long dead = count_of(db, "SELECT count(*) FROM outbox WHERE status = 'dead'");
    printf("channel=%s delivered=%lld dead=%lld seconds=%.2f "
           "notifications_per_second=%.1f\n",
           label, sent, dead, took, (double)sent / took);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s BASE_URL HOOK_URL SECRETS_FILE COUNT\n", argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    if (sodium_init() < 0)
        return 1;
    int count = atoi(argv[4]);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL") ? getenv("DATABASE_URL") : "");
    if (PQstatus(db) != CONNECTION_OK)
        die("DATABASE_URL", PQerrorMessage(db));
    client *c = client_new(argv[1]);
    client_key keys[2];
    char player[32], error[256], body[512];
    FILE *secrets = fopen(argv[3], "a");
    if (secrets == NULL)
        die("secrets file", argv[3]);
    for (int i = 0; i < 2; i++) {
        client_new_key(&keys[i]);
        if (!client_register(c, "Bench Player", "bench@example.org", &keys[i],
                             player, error))
            die("register", error);
        snprintf(body, sizeof body, "{\"url\":\"%s\"}", argv[2]);
        json_t *hook = call(c, "POST", "/v1/players/me/webhooks", body, &keys[i], 201);
        fprintf(secrets, "%s\n",
                json_string_value(json_object_get(json_object_get(hook, "webhook"),
                                                  "secret")));
        json_decref(hook);
    }
    fclose(secrets);
    json_t *created = call(c, "POST", "/v1/matches",
                           "{\"game\":\"artifact_stack\",\"seats\":2}", &keys[0], 201);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join",
             json_string_value(json_object_get(json_object_get(created, "match"), "id")));
    json_decref(created);
    json_decref(call(c, "POST", path, "{}", &keys[1], 200));
    wait_until_none_pending(db, 60);
    if (count_of(db, "SELECT count(*) FROM outbox WHERE status = 'sent'") < 2)
        die("setup", "the match's own notifications were not delivered");
    measure(db, "webhook", "webhook:%", count);
    measure(db, "email", "email", count);
    client_free(c);
    PQfinish(db);
    curl_global_cleanup();
    return 0;
}
