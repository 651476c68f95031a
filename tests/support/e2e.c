/* e2e.c */
#include "e2e.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


/* The longest pbemd may take to say it is serving. */
#define E2E_START_SECONDS 60

void e2e_start(e2e_server *server)
{
    cr_assert(sodium_init() >= 0);
    const char *bin = getenv("PBEM_BIN");
    cr_assert_not_null(bin, "PBEM_BIN is not set: run the tests with make test");
    if (server->key_file[0] == '\0') {
        /* In the run's own TMPDIR (scripts/test.sh removes it), since a
         * restarted server must find the key again after e2e_stop. */
        const char *tmp = getenv("TMPDIR");
        snprintf(server->key_file, sizeof server->key_file,
                 "%s/pbem-e2e-key-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        int fd = mkstemp(server->key_file);
        cr_assert_geq(fd, 0);
        close(fd);
        unlink(server->key_file); /* pbemd creates it with mode 0600 */
    }
    int out[2];
    cr_assert_eq(pipe(out), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        /* The server dies with the test process, even one that failed. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        const char *server_log = getenv("PBEM_E2E_SERVER_LOG");
        if (server_log != NULL && server_log[0] != '\0') {
            int fd = open(server_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                          0600);
            if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
                _exit(126);
            close(fd);
            unsetenv("PBEM_E2E_SERVER_LOG");
        }
        setenv("PBEM_LISTEN", "127.0.0.1:0", 1);
        setenv("PBEM_KEY_FILE", server->key_file, 1);
        setenv("PBEM_QUIET", "1", 1);
        execl(bin, bin, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    /* Migrations on a fresh database and a busy machine take seconds;
     * a minute without a word is a server that will not start. */
    struct pollfd said = {.fd = out[0], .events = POLLIN};
    cr_assert_eq(poll(&said, 1, E2E_START_SECONDS * 1000), 1,
                 "waited %d s for pbemd's \"serving on\" line; none came",
                 E2E_START_SECONDS);
    FILE *lines = fdopen(out[0], "r");
    char line[256] = {0};
    cr_assert_not_null(fgets(line, sizeof line, lines),
                       "pbemd exited before serving (see its stderr above)");
    const char *at = strstr(line, "http://127.0.0.1:");
    cr_assert_not_null(at, "unexpected first line: %s", line);
    server->port = atoi(at + strlen("http://127.0.0.1:"));
    server->pid = pid;
    fclose(lines);
    char base[64];
    snprintf(base, sizeof base, "http://127.0.0.1:%d", server->port);
    client_free(server->http);
    server->http = client_new(base);
}

int e2e_stop(e2e_server *server)
{
    int status = 0;
    kill(server->pid, SIGTERM);
    waitpid(server->pid, &status, 0);
    client_free(server->http);
    server->http = NULL;
    return status;
}

/* With PBEM_E2E_RECORD set, every answer is appended as one JSON line, so
 * tests/node/check-responses.mjs can hold it against openapi.yaml. One
 * write() per line keeps lines whole across parallel test processes. */
static void append_line(json_t *line)
{
    const char *file = getenv("PBEM_E2E_RECORD");
    if (file == NULL || file[0] == '\0')
        return;
    char *text = json_dumps(line, JSON_COMPACT);
    size_t len = strlen(text);
    text[len] = '\n';
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0644);
    cr_assert_geq(fd, 0, "cannot open %s", file);
    cr_assert_eq(write(fd, text, len + 1), (ssize_t)(len + 1));
    close(fd);
    free(text);
}

static void record(const char *method, const char *path,
                   const e2e_response *response)
{
    json_t *line = json_pack("{s:s,s:s,s:i}", "method", method, "path", path,
                             "status", (int)response->status);
    if (response->json != NULL)
        json_object_set(line, "json", response->json);
    else
        json_object_set_new(line, "text",
                            json_string(response->body ? response->body : ""));
    append_line(line);
    json_decref(line);
}

void e2e_record_stream_item(const json_t *item)
{
    json_t *line = json_pack("{s:s,s:O}", "item", "stream", "json", item);
    append_line(line);
    json_decref(line);
}

e2e_response e2e_call_signed(const e2e_server *server, const char *method,
                             const char *path, const char *body,
                             const e2e_player *signer, int64_t created,
                             const char *nonce, const char *const *extra_headers,
                             bool tamper_body_after_signing)
{
    client_send_options options = {
        .created = created,
        .nonce = nonce,
        .extra_headers = extra_headers,
        .tamper_body_after_signing = tamper_body_after_signing,
    };
    e2e_response response;
    char error[256];
    cr_assert(client_send(server->http, method, path, body,
                          signer ? &signer->key : NULL, &options, &response,
                          error),
              "%s", error);
    record(method, path, &response);
    return response;
}

e2e_response e2e_call_with(const e2e_server *server, const char *method,
                           const char *path, const char *body,
                           const client_key *key,
                           const client_send_options *options)
{
    e2e_response response;
    char error[256];
    cr_assert(client_send(server->http, method, path, body, key, options,
                          &response, error),
              "%s", error);
    record(method, path, &response);
    return response;
}

e2e_response e2e_call(const e2e_server *server, const char *method,
                      const char *path, const char *body,
                      const e2e_player *signer)
{
    return e2e_call_signed(server, method, path, body, signer,
                           (int64_t)time(NULL), NULL, NULL, false);
}

void e2e_register(const e2e_server *server, const char *name,
                  e2e_player *player)
{
    memset(player, 0, sizeof *player);
    client_new_key(&player->key);
    char error[256];
    /* Registered without the address, which is then set as its link
     * would: these players' mail is about play, not that link. */
    cr_assert(client_register(server->http, name, NULL, &player->key,
                              player->id, error),
              "register %s: %s", name, error);
    snprintf(player->name, sizeof player->name, "%s", name);
    e2e_confirm_address(player->id, "player@example.org");
}

/* One connection for a test process's address confirmations, kept while
 * DATABASE_URL names the same database: a test registers several players,
 * and a PostgreSQL connection cost its server some 35 ms of CPU on the
 * machines where a process start is slow. One that broke (a test ended
 * the database's sessions) is made again. */
static pthread_mutex_t confirm_lock = PTHREAD_MUTEX_INITIALIZER;
static PGconn *confirm_conn;
static char confirm_url[1024];

static PGresult *confirm(const char *player_ref, const char *email)
{
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url);
    if (confirm_conn == NULL || strcmp(url, confirm_url) != 0 ||
        PQstatus(confirm_conn) != CONNECTION_OK) {
        PQfinish(confirm_conn);
        confirm_conn = PQconnectdb(url);
        snprintf(confirm_url, sizeof confirm_url, "%s", url);
    }
    cr_assert_eq(PQstatus(confirm_conn), CONNECTION_OK, "%s",
                 PQerrorMessage(confirm_conn));
    const char *params[] = {player_ref + 2, email};
    return PQexecParams(confirm_conn,
                        "UPDATE players SET email = $2"
                        " WHERE player_id = $1::bigint",
                        2, NULL, params, NULL, NULL, 0);
}

void e2e_confirm_address(const char *player_ref, const char *email)
{
    pthread_mutex_lock(&confirm_lock);
    PGresult *r = confirm(player_ref, email);
    if (PQresultStatus(r) != PGRES_COMMAND_OK &&
        PQstatus(confirm_conn) == CONNECTION_BAD) {
        PQclear(r);
        r = confirm(player_ref, email);
    }
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQerrorMessage(confirm_conn));
    PQclear(r);
    pthread_mutex_unlock(&confirm_lock);
}

void e2e_response_free(e2e_response *response)
{
    client_response_free(response);
}

void e2e_sit_down(e2e_table *t, const char *game, int seats,
                  const char *options)
{
    memset(t, 0, sizeof *t);
    e2e_start(&t->server);
    e2e_seat_players(t, game, seats, options);
}

void e2e_seat_players(e2e_table *t, const char *game, int seats,
                      const char *options)
{
    cr_assert_leq(seats, 8);
    t->seats = seats;
    static const char *names[] = {"Robert", "Eliza", "Nigel", "Tess",
                                  "Ada",    "Grace", "Alan",  "Edsger"};
    for (int i = 0; i < seats; i++)
        e2e_register(&t->server, names[i], &t->players[i]);
    char body[512];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":%d,\"options\":%s}",
             game, seats, options ? options : "{}");
    e2e_response r = e2e_call(&t->server, "POST", "/v1/matches", body,
                              &t->players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    json_t *match = json_object_get(r.json, "match");
    snprintf(t->match, sizeof t->match, "%s",
             json_string_value(json_object_get(match, "id")));
    cr_expect_str_eq(json_string_value(json_object_get(match, "status")), "open");
    e2e_response_free(&r);
    for (int i = 1; i < seats; i++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/matches/%s/join", t->match);
        r = e2e_call(&t->server, "POST", path, "{}", &t->players[i]);
        cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
        cr_expect_eq(json_integer_value(json_object_get(r.json, "seat")), i);
        e2e_response_free(&r);
    }
}

void e2e_admin_key(e2e_player *admin)
{
    memset(admin, 0, sizeof *admin);
    client_new_key(&admin->key);
    snprintf(admin->key.key_id, sizeof admin->key.key_id, "admin");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv("PBEM_ADMIN_KEY", b64, 1);
}

const char *e2e_error_code(const e2e_response *r)
{
    const char *code = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "code"));
    return code ? code : "(no error code)";
}

json_t *e2e_get(const e2e_table *t, const char *suffix,
                const e2e_player *signer)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/matches/%s%s", t->match, suffix);
    e2e_response r = e2e_call(&t->server, "GET", path, NULL, signer);
    cr_assert_eq(r.status, 200, "GET %s: %ld %s", path, r.status, r.body);
    json_t *value = json_incref(r.json);
    e2e_response_free(&r);
    return value;
}

long long e2e_head_seq(const e2e_table *t)
{
    json_t *match = e2e_get(t, "", NULL);
    long long seq = (long long)json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    return seq;
}

int e2e_first_pending_seat(const json_t *match)
{
    json_t *seats = json_object_get(json_object_get(match, "pending"), "seats");
    return json_array_size(seats)
               ? (int)json_integer_value(json_array_get(seats, 0))
               : -1;
}

e2e_response e2e_post_move(const e2e_table *t, int seat, long long seq,
                           const json_t *action)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t->match);
    json_t *body = json_pack("{s:I,s:O}", "seq", (json_int_t)seq, "action",
                             action);
    char *text = json_dumps(body, JSON_COMPACT);
    e2e_response r = e2e_call(&t->server, "POST", path, text, &t->players[seat]);
    free(text);
    json_decref(body);
    return r;
}

bool e2e_play_one(e2e_table *t)
{
    json_t *match = e2e_get(t, "", NULL);
    const char *status = json_string_value(json_object_get(match, "status"));
    if (strcmp(status, "finished") == 0) {
        json_decref(match);
        return false;
    }
    int seat = e2e_first_pending_seat(match);
    cr_assert_geq(seat, 0, "an active match waits for nobody");
    json_decref(match);
    json_t *view = e2e_get(t, "/view", &t->players[seat]);
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    cr_assert_gt(json_array_size(moves), 0, "seat %d has no legal move", seat);
    json_int_t seq = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    json_t *action = json_array_get(
        moves, randombytes_uniform((uint32_t)json_array_size(moves)));
    e2e_response r = e2e_post_move(t, seat, seq, action);
    char *text = json_dumps(action, JSON_COMPACT);
    cr_assert_eq(r.status, 200, "move %s: %ld %s", text, r.status, r.body);
    free(text);
    cr_expect_gt(json_integer_value(json_object_get(r.json, "seq")), seq);
    e2e_response_free(&r);
    json_decref(view);
    return true;
}

json_t *e2e_all_events(const e2e_table *t)
{
    json_t *all = json_array();
    for (;;) {
        char suffix[64];
        snprintf(suffix, sizeof suffix, "/events?after=%zu&limit=500",
                 json_array_size(all));
        json_t *page = e2e_get(t, suffix, NULL);
        json_t *events = json_object_get(page, "events");
        size_t got = json_array_size(events);
        json_array_extend(all, events);
        json_decref(page);
        if (got < 500)
            return all;
    }
}

void e2e_private_database(char *name, size_t size)
{
    const char *url = getenv("DATABASE_URL");
    cr_assert_not_null(url);
    /* Same server, other database: swap the database part of the URL,
     * the path of postgresql://host/db or postgresql:///db?host=... */
    const char *scheme_end = strstr(url, "://");
    cr_assert_not_null(scheme_end, "unexpected DATABASE_URL form");
    const char *path = strchr(scheme_end + 3, '/');
    cr_assert_not_null(path, "DATABASE_URL names no database");
    size_t db_len = strcspn(path + 1, "?");
    const char *query = path + 1 + db_len;
    /* Named after the run's database, so scripts/test.sh drops them. */
    uint8_t random[6];
    char hex[13];
    randombytes_buf(random, sizeof random);
    sodium_bin2hex(hex, sizeof hex, random, sizeof random);
    snprintf(name, size, "%.*s_p_%s", (int)(db_len < 40 ? db_len : 40),
             path + 1, hex);
    /* A copy of the run's migrated template when scripts/test.sh names
     * one: pbemd then has no migration to apply. */
    const char *template = getenv("PBEM_TEST_TEMPLATE");
    char sql[256];
    if (template != NULL && template[0] != '\0')
        snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\" TEMPLATE \"%s\"",
                 name, template);
    else
        snprintf(sql, sizeof sql, "CREATE DATABASE \"%s\"", name);
    PGconn *conn = PQconnectdb(url);
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    PGresult *r = PQexec(conn, sql);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK,
                 "cannot create database %s: %s", name, PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
    char new_url[1024];
    snprintf(new_url, sizeof new_url, "%.*s/%s%s", (int)(path - url), url,
             name, query);
    setenv("PBEM_ADMIN_DATABASE_URL", url, 1);
    setenv("DATABASE_URL", new_url, 1);
}
