/* admin_support.c */
#include "admin_support.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rules.h"
#include "store/store.h"

void admin_key(e2e_player *admin)
{
    memset(admin, 0, sizeof *admin);
    client_new_key(&admin->key);
    snprintf(admin->key.key_id, sizeof admin->key.key_id, "admin");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv("PBEM_ADMIN_KEY", b64, 1);
}

const char *admin_key_file(const e2e_player *admin, const char *dir)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/admin.key", dir);
    char seed[64];
    sodium_bin2base64(seed, sizeof seed, admin->key.secret_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    FILE *out = fopen(path, "w");
    cr_assert_not_null(out);
    fprintf(out, "%s\n", seed);
    fclose(out);
    return path;
}

void sit_down_on(e2e_table *t, const e2e_server *server, const char *game,
                 int seats)
{
    memset(t, 0, sizeof *t);
    t->server = *server;
    t->seats = seats;
    static const char *names[] = {"Ada", "Grace", "Alan", "Edsger"};
    for (int i = 0; i < seats; i++)
        e2e_register(&t->server, names[i], &t->players[i]);
    char body[256];
    snprintf(body, sizeof body, "{\"game\":\"%s\",\"seats\":%d}", game, seats);
    e2e_response r =
        e2e_call(&t->server, "POST", "/v1/matches", body, &t->players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(t->match, sizeof t->match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    for (int i = 1; i < seats; i++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/matches/%s/join", t->match);
        r = e2e_call(&t->server, "POST", path, "{}", &t->players[i]);
        cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
        e2e_response_free(&r);
    }
}

void start_beside(const e2e_server *source, e2e_server *target)
{
    char db[64];
    e2e_private_database(db, sizeof db);
    *target = (e2e_server){0};
    memcpy(target->key_file, source->key_file, sizeof target->key_file);
    e2e_start(target);
}

void replace_line(char **lines, int i, const json_t *value)
{
    free(lines[i]);
    lines[i] = json_dumps(value, JSON_COMPACT);
}

char *export_of(const e2e_server *s, const char *match, const e2e_player *admin)
{
    char path[128];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", match);
    e2e_response r = e2e_call(s, "GET", path, NULL, admin);
    cr_assert_eq(r.status, 200, "export %s: %ld %s", match, r.status, r.body);
    char *text = strdup(r.body);
    e2e_response_free(&r);
    return text;
}

e2e_response admin_import(const e2e_server *s, const char *text,
                          const char *query, const e2e_player *admin)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/admin/matches/import%s",
             query ? query : "");
    return e2e_call(s, "POST", path, text, admin);
}

e2e_response admin_post(const e2e_server *s, const char *path, const char *body,
                        const e2e_player *admin)
{
    return e2e_call(s, "POST", path, body, admin);
}

char **split_lines(const char *text, int *count)
{
    char **lines = calloc(strlen(text) + 2, sizeof *lines);
    int n = 0;
    const char *at = text;
    while (*at) {
        const char *nl = strchr(at, '\n');
        size_t len = nl ? (size_t)(nl - at) : strlen(at);
        lines[n++] = strndup(at, len);
        at += len + (nl ? 1 : 0);
    }
    *count = n;
    return lines;
}

char *join_lines(char **lines, int count)
{
    size_t size = 1;
    for (int i = 0; i < count; i++)
        size += strlen(lines[i]) + 1;
    char *text = malloc(size);
    text[0] = '\0';
    for (int i = 0; i < count; i++) {
        strcat(text, lines[i]);
        strcat(text, "\n");
    }
    return text;
}

void free_lines(char **lines, int count)
{
    for (int i = 0; i < count; i++)
        free(lines[i]);
    free(lines);
}

void rechain(char **lines, int count, int from)
{
    uint8_t prev[STORE_HASH_BYTES];
    json_t *first = json_loads(lines[from], 0, NULL);
    cr_assert_not_null(first);
    const char *hex = json_string_value(json_object_get(first, "prev_hash"));
    size_t got = 0;
    sodium_hex2bin(prev, sizeof prev, hex, strlen(hex), NULL, &got, NULL);
    json_decref(first);
    for (int i = from; i < count; i++) {
        json_t *event = json_loads(lines[i], 0, NULL);
        cr_assert_not_null(event);
        char hash_hex[2 * STORE_HASH_BYTES + 1];
        sodium_bin2hex(hash_hex, sizeof hash_hex, prev, sizeof prev);
        json_object_del(event, "hash");
        json_object_del(event, "prev_hash");
        char *bytes = rules_sorted_json(event);
        uint8_t hash[STORE_HASH_BYTES];
        chain_hash(prev, bytes, hash);
        free(bytes);
        json_object_set_new(event, "prev_hash", json_string(hash_hex));
        sodium_bin2hex(hash_hex, sizeof hash_hex, hash, sizeof hash);
        json_object_set_new(event, "hash", json_string(hash_hex));
        memcpy(prev, hash, sizeof prev);
        free(lines[i]);
        lines[i] = json_dumps(event, JSON_COMPACT);
        json_decref(event);
    }
}

int line_of_kind(char **lines, int count, const char *kind)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\"kind\":\"%s\"", kind);
    for (int i = 1; i < count; i++) {
        if (strstr(lines[i], needle) != NULL)
            return i;
    }
    return -1;
}

static PGconn *connect_test_database(void)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    return conn;
}

json_t *outbox_rows(const char *match, const char *reason)
{
    PGconn *conn = connect_test_database();
    long long id = store_parse_match_ref(match);
    char id_text[24];
    snprintf(id_text, sizeof id_text, "%lld", id);
    const char *params[] = {id_text, reason};
    PGresult *r = PQexecParams(conn,
                               "SELECT seq, player_id, channel FROM outbox"
                               " WHERE match_id = $1 AND reason = $2"
                               " ORDER BY seq, player_id, channel",
                               2, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    json_t *rows = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        char player[32];
        store_player_ref(atoll(PQgetvalue(r, i, 1)), player);
        json_array_append_new(
            rows, json_pack("{s:I,s:s,s:s}", "seq",
                            (json_int_t)atoll(PQgetvalue(r, i, 0)), "player",
                            player, "channel", PQgetvalue(r, i, 2)));
    }
    PQclear(r);
    PQfinish(conn);
    return rows;
}

void sql(const char *statement)
{
    PGconn *conn = connect_test_database();
    PGresult *r = PQexec(conn, statement);
    cr_assert(PQresultStatus(r) == PGRES_COMMAND_OK ||
                  PQresultStatus(r) == PGRES_TUPLES_OK,
              "%s: %s", statement, PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
}

void queue_only_notifications(void)
{
    setenv("PBEM_SMTP_URL", "smtp://127.0.0.1:9", 1);
    setenv("PBEM_NOTIFY", "0", 1);
}

int run(const char *command)
{
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

long long play_text_move(e2e_table *t)
{
    json_t *match = e2e_get(t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    cr_assert_geq(seat, 0);
    json_decref(match);
    json_t *view = e2e_get(t, "/view", &t->players[seat]);
    json_t *legal = json_object_get(view, "legal");
    const char *text =
        json_string_value(json_array_get(json_object_get(legal, "texts"), 0));
    cr_assert_not_null(text, "no text for the first legal move");
    json_t *body = json_pack(
        "{s:O,s:s}", "seq",
        json_object_get(json_object_get(view, "head"), "seq"), "move", text);
    char *bytes = json_dumps(body, JSON_COMPACT);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/moves", t->match);
    e2e_response r =
        e2e_call(&t->server, "POST", path, bytes, &t->players[seat]);
    cr_assert_eq(r.status, 200, "text move %s: %ld %s", bytes, r.status,
                 r.body);
    long long seq = json_integer_value(json_object_get(r.json, "seq"));
    e2e_response_free(&r);
    free(bytes);
    json_decref(body);
    json_decref(view);
    return seq;
}

void admin_scene(e2e_player *admin, e2e_table *t, const char *game, int seats,
                 const char *options, int moves)
{
    cr_assert(sodium_init() >= 0);
    admin_key(admin);
    queue_only_notifications();
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_sit_down(t, game, seats, options);
    for (int i = 0; i < moves; i++)
        cr_assert(e2e_play_one(t), "the match ended after %d moves", i);
}
