/* lobby_scene.c */
#include "lobby_scene.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char clock_path[64];
static long long clock_now;

static void write_clock(void)
{
    char next[80];
    snprintf(next, sizeof next, "%s.next", clock_path);
    FILE *f = fopen(next, "w");
    cr_assert_not_null(f);
    fprintf(f, "%lld\n", clock_now);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(rename(next, clock_path), 0);
}

static void remove_clock(void)
{
    unlink(clock_path);
}

void lobby_clock_advance(long long seconds)
{
    clock_now += seconds;
    write_clock();
}

void lobby_start(e2e_server *s)
{
    char name[64];
    e2e_private_database(name, sizeof name);
    strcpy(clock_path, "/tmp/pbem-lobby-clock-XXXXXX");
    int fd = mkstemp(clock_path);
    cr_assert_geq(fd, 0);
    close(fd);
    clock_now = (long long)time(NULL);
    write_clock();
    atexit(remove_clock);
    setenv("PBEM_CLOCK_FILE", clock_path, 1);
    setenv("PBEM_DEADLINE_POLL_MS", "50", 1);
    unsetenv("PBEM_SMTP_URL");
    memset(s, 0, sizeof *s);
    e2e_start(s);
}

void lobby_register(const e2e_server *s, const char *name, e2e_player *p)
{
    memset(p, 0, sizeof *p);
    client_new_key(&p->key);
    char error[256];
    cr_assert(client_register(s->http, name, NULL, &p->key, p->id, error),
              "register %s: %s", name, error);
    snprintf(p->name, sizeof p->name, "%s", name);
}

void lobby_set_rating(const e2e_player *p, const char *game, double rating)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    char value[32];
    snprintf(value, sizeof value, "%.17g", rating);
    const char *params[] = {game, p->id + 2, value};
    PGresult *r = PQexecParams(
        conn,
        "INSERT INTO ratings (game, player_id, rating, deviation, volatility,"
        " matches, wins) VALUES ($1, $2::bigint, $3::float8, 60, 0.06, 30, 15)"
        " ON CONFLICT (game, player_id) DO UPDATE SET rating = $3::float8",
        3, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
}

void lobby_create(const e2e_server *s, const e2e_player *p, const char *body,
                  char ref[32])
{
    e2e_response r = e2e_call(s, "POST", "/v1/matches", body, p);
    cr_assert_eq(r.status, 201, "create %s: %ld %s", body, r.status, r.body);
    snprintf(ref, 32, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
}

json_t *lobby_get(const e2e_server *s, const char *path)
{
    e2e_response r = e2e_call(s, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, 200, "GET %s: %ld %s", path, r.status, r.body);
    json_t *json = json_incref(r.json);
    e2e_response_free(&r);
    return json;
}

const json_t *lobby_row(const json_t *list, const char *ref)
{
    size_t i;
    const json_t *row;
    json_array_foreach(list, i, row)
    {
        const char *id = json_string_value(json_object_get(row, "id"));
        if (id != NULL && strcmp(id, ref) == 0)
            return row;
    }
    return NULL;
}

e2e_response lobby_join(const e2e_server *s, const char *ref,
                        const e2e_player *p)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", ref);
    return e2e_call(s, "POST", path, "{}", p);
}

void lobby_play_to_the_end(e2e_table *t, int max_moves)
{
    for (int i = 0; i < max_moves; i++)
        if (!e2e_play_one(t))
            return;
    cr_assert_fail("match %s did not end within %d moves", t->match, max_moves);
}

const char *lobby_wait_status(const e2e_server *s, const char *ref,
                              const char *status)
{
    static char last[16];
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", ref);
    for (int i = 0; i < 400; i++) {
        json_t *match = lobby_get(s, path);
        snprintf(last, sizeof last, "%s",
                 json_string_value(json_object_get(match, "status")));
        json_decref(match);
        if (strcmp(last, status) == 0)
            return last;
        usleep(50 * 1000);
    }
    cr_assert_fail("match %s is still %s after 20 s, not %s", ref, last,
                   status);
    return last;
}
