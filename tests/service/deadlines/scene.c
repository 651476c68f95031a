/* scene.c */
#include "scene.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"

static char clock_path[64];

void scene_clock(long long now)
{
    char next[80];
    snprintf(next, sizeof next, "%s.next", clock_path);
    FILE *f = fopen(next, "w");
    cr_assert_not_null(f);
    fprintf(f, "%lld\n", now);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(rename(next, clock_path), 0);
}

static void remove_clock(void)
{
    unlink(clock_path);
}

void scene_env(void)
{
    notify_server_env();
    strcpy(clock_path, "/tmp/pbem-clock-XXXXXX");
    int fd = mkstemp(clock_path);
    cr_assert_geq(fd, 0);
    close(fd);
    scene_clock(T0);
    atexit(remove_clock);
    setenv("PBEM_CLOCK_FILE", clock_path, 1);
    setenv("PBEM_DEADLINE_POLL_MS", "50", 1);
    unsetenv("PBEM_ADMIN_EMAIL");
}

void scene_start_twin(e2e_server *twin, const e2e_server *first)
{
    memset(twin, 0, sizeof *twin);
    snprintf(twin->key_file, sizeof twin->key_file, "%s", first->key_file);
    e2e_start(twin);
}

void scene_match(const e2e_server *s, const e2e_player *players, int seats,
                 const char *game, const char *deadline, char match[32])
{
    scene_match_options(s, players, seats, game, NULL, deadline, match);
}

void scene_match_options(const e2e_server *s, const e2e_player *players,
                         int seats, const char *game, const char *options,
                         const char *deadline, char match[32])
{
    char body[768];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":%d%s%s%s%s}", game,
             seats, options ? ",\"options\":" : "", options ? options : "",
             deadline ? ",\"deadline\":" : "", deadline ? deadline : "");
    e2e_response r = e2e_call(s, "POST", "/v1/matches", body, &players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(match, 32, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    for (int i = 1; i < seats; i++) {
        r = e2e_call(s, "POST", path, "{}", &players[i]);
        cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
        e2e_response_free(&r);
    }
}

json_t *scene_public(const e2e_server *s, const char *match)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "GET %s: %ld %s", path, r.status, r.body);
    json_t *view = json_incref(r.json);
    e2e_response_free(&r);
    return view;
}

json_t *scene_events(const e2e_server *s, const char *match, const char *kind)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/events?limit=500", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "events: %ld %s", r.status, r.body);
    json_t *found = json_array();
    size_t i;
    json_t *event;
    json_array_foreach(json_object_get(r.json, "events"), i, event)
    {
        const char *k = json_string_value(json_object_get(event, "kind"));
        if (kind == NULL || (k != NULL && strcmp(k, kind) == 0))
            json_array_append(found, event);
    }
    e2e_response_free(&r);
    return found;
}

json_t *scene_wait_events(const e2e_server *s, const char *match,
                          const char *kind, size_t count, int seconds)
{
    for (int i = 0; i < seconds * 20; i++) {
        json_t *found = scene_events(s, match, kind);
        if (json_array_size(found) >= count)
            return found;
        json_decref(found);
        pause_ms(50);
    }
    return scene_events(s, match, kind);
}

long long scene_metric(const e2e_server *s, const char *name)
{
    e2e_response r = e2e_call(s, "GET", "/metrics", NULL, NULL);
    cr_assert_eq(r.status, 200);
    char needle[128];
    snprintf(needle, sizeof needle, "\n%s ", name);
    const char *at = r.body ? strstr(r.body, needle) : NULL;
    cr_assert_not_null(at, "no %s in /metrics", name);
    long long value = atoll(at + strlen(needle));
    e2e_response_free(&r);
    return value;
}

void scene_worker_passes(const e2e_server *s, int passes)
{
    /* A pass under way may have read the clock before it moved: it counts
     * only once the next one has ended. */
    long long start = scene_metric(s, "pbem_deadline_rounds_total");
    for (int i = 0; i < 400; i++) {
        if (scene_metric(s, "pbem_deadline_rounds_total") >= start + passes + 1)
            return;
        pause_ms(25);
    }
    cr_assert_fail("the deadline worker of port %d made no %d passes in 10 s",
                   s->port, passes);
}

long long scene_sql_number(const char *sql)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s: %s", sql,
                 PQerrorMessage(conn));
    cr_assert_eq(PQntuples(r), 1, "%s gave %d rows", sql, PQntuples(r));
    long long value = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(conn);
    return value;
}

json_t *scene_clock_of(const json_t *view, int seat)
{
    size_t i;
    json_t *clock;
    json_array_foreach(json_object_get(view, "clocks"), i, clock)
    {
        if (json_integer_value(json_object_get(clock, "seat")) == seat)
            return clock;
    }
    return NULL;
}

long long scene_time(const json_t *text)
{
    long long seconds = 0;
    cr_assert(clock_parse(json_string_value(text), false, &seconds),
              "not a time: %s", json_string_value(text));
    return seconds;
}
