/* notify_scene.c: see notify_scene.h. */
#include "notify_scene.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

void notify_server_env(void)
{
    char name[64];
    e2e_private_database(name, sizeof name);
    setenv("PBEM_WEBHOOK_ALLOW_LOOPBACK", "1", 1);
    setenv("PBEM_NOTIFY_BACKOFF_MS", "200", 1);
    setenv("PBEM_NOTIFY_POLL_MS", "1000", 1);
    setenv("PBEM_NOTIFY_LEASE_SECONDS", "3", 1);
    unsetenv("PBEM_SMTP_URL");
}

char last_webhook_channel[64];

const char *register_webhook(const e2e_server *s, const e2e_player *p,
                             const char *match, const char *url)
{
    static char secret[128];
    char path[96], body[256];
    if (match)
        snprintf(path, sizeof path, "/v1/matches/%s/webhooks", match);
    else
        snprintf(path, sizeof path, "/v1/players/me/webhooks");
    snprintf(body, sizeof body, "{\"url\":\"%s\"}", url);
    e2e_response r = e2e_call(s, "POST", path, body, p);
    cr_assert_eq(r.status, 201, "register webhook: %ld %s", r.status, r.body);
    const char *value = json_string_value(
        json_object_get(json_object_get(r.json, "webhook"), "secret"));
    cr_assert_not_null(value);
    cr_assert_eq(strncmp(value, "whsec_", 6), 0);
    snprintf(secret, sizeof secret, "%s", value);
    snprintf(last_webhook_channel, sizeof last_webhook_channel, "webhook:%s",
             json_string_value(json_object_get(json_object_get(r.json, "webhook"),
                                               "id")) + 3);
    e2e_response_free(&r);
    return secret;
}

json_t *my_notifications(const e2e_server *s, const e2e_player *p)
{
    e2e_response r = e2e_call(s, "GET", "/v1/players/me/notifications", NULL, p);
    cr_assert_eq(r.status, 200, "notifications: %ld %s", r.status, r.body);
    json_t *list = json_incref(json_object_get(r.json, "notifications"));
    e2e_response_free(&r);
    return list;
}

/* The first notification of list in status on a channel starting with
 * prefix (new reference), or NULL. */
static json_t *find_notification(json_t *list, const char *prefix,
                                 const char *status)
{
    size_t k;
    json_t *n;
    json_array_foreach(list, k, n)
    {
        const char *channel = json_string_value(json_object_get(n, "channel"));
        if (strncmp(channel, prefix, strlen(prefix)) == 0 &&
            strcmp(json_string_value(json_object_get(n, "status")), status) ==
                0)
            return json_incref(n);
    }
    return NULL;
}

/* Waits for the first of players (count of them) whose list holds such a
 * notification, asking each in turn every 100 ms until seconds pass. */
static json_t *wait_among(const e2e_server *s, const e2e_player *const *players,
                          int count, const char *prefix, const char *status,
                          int seconds, int *whose)
{
    double until = receiver_now() + seconds;
    for (;;) {
        for (int i = 0; i < count; i++) {
            json_t *list = my_notifications(s, players[i]);
            json_t *found = find_notification(list, prefix, status);
            json_decref(list);
            if (found != NULL) {
                if (whose != NULL)
                    *whose = i;
                return found;
            }
        }
        if (receiver_now() > until)
            return NULL;
        pause_ms(100);
    }
}

json_t *wait_notification(const e2e_server *s, const e2e_player *p,
                          const char *channel_prefix, const char *status,
                          int seconds)
{
    const e2e_player *players[] = {p};
    return wait_among(s, players, 1, channel_prefix, status, seconds, NULL);
}

json_t *wait_notification_of_either(const e2e_server *s, const e2e_player *a,
                                    const e2e_player *b,
                                    const char *channel_prefix,
                                    const char *status, int seconds, int *whose)
{
    const e2e_player *players[] = {a, b};
    return wait_among(s, players, 2, channel_prefix, status, seconds, whose);
}

void two_player_match(const e2e_server *s, const e2e_player *a,
                      const e2e_player *b, char match[32])
{
    e2e_response r = e2e_call(s, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}", a);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(match, 32, "%s",
             json_string_value(json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    r = e2e_call(s, "POST", path, "{}", b);
    cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

void stop_server(e2e_server *s)
{
    int status = e2e_stop(s);
    cr_assert(WIFEXITED(status), "pbemd did not exit by itself");
    cr_assert_eq(WEXITSTATUS(status), 0, "pbemd exited with %d",
                 WEXITSTATUS(status));
}

void notify_scene(receiver *hook, const char *const *args, e2e_server *s,
                  e2e_player *a, e2e_player *b)
{
    notify_server_env();
    receiver_start(hook, "webhook-receiver.mjs", args);
    e2e_start(s);
    e2e_register(s, "Robert", a);
    e2e_register(s, "Eliza", b);
}
