/* players_scene.c */
#include "players_scene.h"

#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long long scene_t0;
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

void scene_start(e2e_server *s, receiver *smtp)
{
    char name[64];
    e2e_private_database(name, sizeof name);
    strcpy(clock_path, "/tmp/pbem-clock-XXXXXX");
    int fd = mkstemp(clock_path);
    cr_assert_geq(fd, 0);
    close(fd);
    scene_t0 = (long long)time(NULL);
    scene_clock(scene_t0);
    atexit(remove_clock);
    setenv("PBEM_CLOCK_FILE", clock_path, 1);
    setenv("PBEM_PUBLIC_URL", "https://pbem.example", 1);
    setenv("PBEM_MAIL_FROM", "pbem <turns@pbem.example>", 1);
    setenv("PBEM_NOTIFY_BACKOFF_MS", "200", 1);
    setenv("PBEM_NOTIFY_POLL_MS", "500", 1);
    unsetenv("PBEM_SMTP_URL");
    unsetenv("PBEM_MAIL_REPLY_TO");
    if (smtp != NULL) {
        receiver_start(smtp, "smtp-receiver.mjs", NULL);
        char url[64];
        snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp->port);
        setenv("PBEM_SMTP_URL", url, 1);
    }
    memset(s, 0, sizeof *s);
    e2e_start(s);
}

void scene_register(const e2e_server *s, const char *name, const char *email,
                    e2e_player *p)
{
    memset(p, 0, sizeof *p);
    client_new_key(&p->key);
    char error[256];
    cr_assert(client_register(s->http, name, NULL, &p->key, p->id, error),
              "register %s: %s", name, error);
    snprintf(p->name, sizeof p->name, "%s", name);
    if (email != NULL)
        e2e_confirm_address(p->id, email);
}

void scene_email_only_player(const char *name, const char *email,
                             char ref[32])
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    long long id = 0;
    randombytes_buf(&id, sizeof id);
    id = (long long)((unsigned long long)id >> 2) + 1;
    char id_text[24];
    snprintf(id_text, sizeof id_text, "%lld", id);
    const char *params[] = {id_text, name, email};
    PGresult *r = PQexecParams(conn,
                               "INSERT INTO players (player_id, name, email)"
                               " VALUES ($1, $2, $3)",
                               3, NULL, params, NULL, NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s",
                 PQerrorMessage(conn));
    PQclear(r);
    PQfinish(conn);
    snprintf(ref, 32, "p_%lld", id);
}

void scene_new_key(e2e_player *p)
{
    memset(p, 0, sizeof *p);
    client_new_key(&p->key);
    snprintf(p->name, sizeof p->name, "new key");
}

e2e_response scene_add_key(const e2e_server *s, const e2e_player *key,
                           const char *name, const char *token,
                           const e2e_player *signer)
{
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, key->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    json_t *body = json_pack("{s:s}", "public_key", b64);
    if (name != NULL)
        json_object_set_new(body, "name", json_string(name));
    if (token != NULL)
        json_object_set_new(body, "sign_in_token", json_string(token));
    char *text = json_dumps(body, JSON_COMPACT);
    e2e_response r = e2e_call(s, "POST", "/v1/players/me/keys", text, signer);
    free(text);
    json_decref(body);
    return r;
}

e2e_response scene_ask_link(const e2e_server *s, const char *email)
{
    json_t *body = json_pack("{s:s}", "email", email);
    char *text = json_dumps(body, JSON_COMPACT);
    e2e_response r =
        e2e_call(s, "POST", "/v1/players/sign-in-links", text, NULL);
    free(text);
    json_decref(body);
    return r;
}

const char *scene_link_token(const receiver *smtp, size_t count,
                             const char *email)
{
    static char token[128];
    json_t *mails = receiver_wait(smtp, count, 20);
    cr_assert_geq(json_array_size(mails), count, "no sign-in mail came");
    json_t *m = json_array_get(mails, count - 1);
    cr_expect_str_eq(
        scene_member(json_array_get(json_object_get(m, "to"), 0), "address"),
        email);
    cr_expect_str_eq(scene_member(m, "subject"), "Your sign-in link for pbem");
    const char *text = scene_member(m, "text");
    const char *prefix = "https://pbem.example/sign-in/";
    const char *at = strstr(text, prefix);
    cr_assert_not_null(at, "no link in: %s", text);
    at += strlen(prefix);
    size_t len = strspn(at, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                            "0123456789-_");
    cr_assert_lt(len, sizeof token);
    memcpy(token, at, len);
    token[len] = '\0';
    json_decref(mails);
    return token;
}

long long scene_sql_number(const char *sql, const char *param)
{
    PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(conn), CONNECTION_OK, "%s", PQerrorMessage(conn));
    const char *params[] = {param};
    PGresult *r = PQexecParams(conn, sql, param ? 1 : 0, NULL, params, NULL,
                               NULL, 0);
    cr_assert_eq(PQresultStatus(r), PGRES_TUPLES_OK, "%s",
                 PQerrorMessage(conn));
    long long n = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    PQfinish(conn);
    return n;
}

const char *scene_member(const json_t *object, const char *key)
{
    const char *value = json_string_value(json_object_get(object, key));
    return value ? value : "(none)";
}
