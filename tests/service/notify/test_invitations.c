/* Invitations by mail, end to end: POST /v1/matches/{id}/invitations on
 * the real pbemd, who may invite and when, the invitation's mail as a real
 * SMTP server receives it (its Reply-To token read back with the server's
 * key, as the mailin/ handler reads it), and `pbem invite`. */
#include <criterion/criterion.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "auth/reply_token.h"
#include "ledger/seal.h"
#include "../../support/notify_scene.h"
#include "store/store.h"

static const char *member(const json_t *object, const char *key)
{
    const char *value = json_string_value(json_object_get(object, key));
    return value ? value : "(none)";
}

/* A match of game for seats, created by creator: open, one seat taken. */
static void open_match(const e2e_server *s, const e2e_player *creator,
                       int seats, char match[32])
{
    char body[96];
    snprintf(body, sizeof body, "{\"game\":\"artifact_stack\",\"seats\":%d}",
             seats);
    e2e_response r = e2e_call(s, "POST", "/v1/matches", body, creator);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(match, 32, "%s",
             member(json_object_get(r.json, "match"), "id"));
    e2e_response_free(&r);
}

static e2e_response invite(const e2e_server *s, const char *match,
                           const char *email, const char *name,
                           const e2e_player *by)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/invitations", match);
    json_t *body = json_pack("{s:s,s:s}", "email", email, "name", name);
    char *text = json_dumps(body, JSON_COMPACT);
    e2e_response r = e2e_call(s, "POST", path, text, by);
    free(text);
    json_decref(body);
    return r;
}

static void join(const e2e_server *s, const char *match, const e2e_player *p)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    e2e_response r = e2e_call(s, "POST", path, "{}", p);
    cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

/* A server on a database of its own, sending mail through smtp (NULL:
 * none). */
static void scene(receiver *smtp, e2e_server *s)
{
    notify_server_env();
    setenv("PBEM_MAIL_FROM", "pbem <turns@pbem.example>", 1);
    setenv("PBEM_MAIL_REPLY_TO", "pbem@pbem.example", 1);
    setenv("PBEM_PUBLIC_URL", "https://pbem.example", 1);
    if (smtp != NULL) {
        receiver_start(smtp, "smtp-receiver.mjs", NULL);
        char url[64];
        snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp->port);
        setenv("PBEM_SMTP_URL", url, 1);
    }
    e2e_start(s);
}

Test(invitations, a_seated_player_invites_someone_by_mail, .timeout = 60)
{
    receiver smtp;
    e2e_server s = {0};
    scene(&smtp, &s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    char match[32];
    open_match(&s, &a, 3, match);
    e2e_response r = invite(&s, match, "zoe@example.org", "Zoë", &a);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    const char *id = member(r.json, "invitation");
    cr_expect_eq(strncmp(id, "inv_", 4), 0, "%s", id);
    cr_expect_str_eq(member(r.json, "match"), match);
    cr_expect_str_eq(member(r.json, "email"), "zoe@example.org");
    cr_expect_str_eq(member(r.json, "name"), "Zoë");
    long long invitation_id = atoll(id + 4);
    e2e_response_free(&r);

    json_t *mails = receiver_wait(&smtp, 1, 20);
    cr_assert_eq(json_array_size(mails), 1);
    json_t *m = json_array_get(mails, 0);
    cr_expect_str_eq(member(json_array_get(json_object_get(m, "to"), 0),
                            "address"),
                     "zoe@example.org");
    char subject[128];
    snprintf(subject, sizeof subject,
             "Robert invites you to Artifact Stack (%s)", match);
    cr_expect_str_eq(member(m, "subject"), subject);
    cr_expect_str_eq(member(m, "auto_submitted"), "auto-generated");
    const char *text = member(m, "text");
    cr_expect_not_null(strstr(text, "Hello Zoë,\n"), "%s", text);
    cr_expect_not_null(strstr(text, "Artifact Stack is a card game where"),
                       "%s", text);
    /* Its rules a link away, and by mail. */
    cr_expect_not_null(
        strstr(text, "The rules in short: https://pbem.example/games/"
                     "artifact_stack\n(or answer with: rules artifact_stack)"),
        "%s", text);
    cr_expect_not_null(strstr(text, "\n\njoin\n\n"), "%s", text);
    char link[128];
    snprintf(link, sizeof link, "https://pbem.example/matches/%s", match);
    cr_expect_not_null(strstr(text, link), "%s", text);

    /* The Reply-To names this invitation, as the mailin/ side reads it. */
    const char *reply_to = json_string_value(
        json_array_get(json_object_get(m, "reply_to"), 0));
    cr_assert_not_null(reply_to, "no Reply-To: %s", member(m, "raw"));
    cr_assert_eq(strncmp(reply_to, "pbem+", 5), 0, "%s", reply_to);
    char token_text[REPLY_TOKEN_CHARS + 8];
    snprintf(token_text, sizeof token_text, "%.*s",
             (int)(strcspn(reply_to + 5, "@")), reply_to + 5);
    apierr err;
    cr_assert(seal_load_key(s.key_file, &err), "%s", err.message);
    reply_token token;
    char why[160] = "";
    cr_assert(reply_token_read(token_text, (long long)time(NULL), &token, why,
                               sizeof why),
              "%s", why);
    cr_expect_eq(token.kind, REPLY_TOKEN_INVITATION);
    cr_expect_eq(token.subject, invitation_id);
    cr_expect_eq(token.match_id, store_parse_match_ref(match));
    cr_expect_eq(token.seat, -1);

    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    char sql[200];
    snprintf(sql, sizeof sql,
             "SELECT email || ' ' || name || ' ' || invited_by"
             " || ' ' || (accepted_at IS NULL) FROM invitations"
             " WHERE invitation_id = %lld",
             invitation_id);
    PGresult *row = PQexec(db, sql);
    cr_assert_eq(PQntuples(row), 1);
    char expected[128];
    snprintf(expected, sizeof expected, "zoe@example.org Zoë %lld true",
             store_parse_player_ref(a.id));
    cr_expect_str_eq(PQgetvalue(row, 0, 0), expected);
    PQclear(row);
    PQfinish(db);
    json_decref(mails);
    stop_server(&s);
    receiver_stop(&smtp);
}

Test(invitations, seated_players_and_the_creator_may_invite, .timeout = 60)
{
    e2e_server s = {0};
    scene(NULL, &s);
    e2e_player a, b, c;
    e2e_register(&s, "Robert", &a);
    e2e_register(&s, "Eliza", &b);
    e2e_register(&s, "Nigel", &c);
    char match[32];
    open_match(&s, &a, 3, match);
    e2e_response r = invite(&s, match, "zoe@example.org", "Zoe", &c);
    cr_expect_eq(r.status, 403, "a stranger: %ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "not_allowed");
    e2e_response_free(&r);
    join(&s, match, &b);
    r = invite(&s, match, "zoe@example.org", "Zoe", &b);
    cr_expect_eq(r.status, 201, "a seated player: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = invite(&s, "m_1", "zoe@example.org", "Zoe", &a);
    cr_expect_eq(r.status, 404, "no such match: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* Once every seat is taken there is nothing to invite to. */
    join(&s, match, &c);
    r = invite(&s, match, "zoe@example.org", "Zoe", &a);
    cr_expect_eq(r.status, 409, "a started match: %ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "not_open");
    e2e_response_free(&r);
    stop_server(&s);
}

Test(invitations, a_bad_address_or_name_is_refused, .timeout = 60)
{
    e2e_server s = {0};
    scene(NULL, &s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    char match[32];
    open_match(&s, &a, 2, match);
    static const struct {
        const char *email, *name, *code;
    } bad[] = {
        {"zoe", "Zoe", "bad_email"},
        {"zoe@example.org\r\nBcc: all@example.org", "Zoe", "bad_email"},
        {"zoe@exa\tmple.org", "Zoe", "bad_email"},
        {"<zoe@example.org>", "Zoe", "bad_email"},
        {"@example.org", "Zoe", "bad_email"},
        {"zoe@example.org", "", "bad_name"},
        {"zoe@example.org", "Zoe\nBcc: x", "bad_name"},
        {"zoe@example.org", "Zo\x7f", "bad_name"},
        {"zoe@example.org", "Zo\xc2\x85", "bad_name"},
        {"zoe@example.org", "Zoe\xe2\x80\xaegnp.exe", "bad_name"},
        {"zoe@example.org", "Zoe\xe2\x81\xa7", "bad_name"},
        {"zoe@example.org",
         "Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe Zoe "
         "Zoe Zoe Zoe Zoe Zoe",
         "bad_name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e2e_response r = invite(&s, match, bad[i].email, bad[i].name, &a);
        cr_expect_eq(r.status, 400, "%zu: %ld %s", i, r.status, r.body);
        cr_expect_str_eq(e2e_error_code(&r), bad[i].code, "%zu", i);
        e2e_response_free(&r);
    }
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/invitations", match);
    e2e_response r = e2e_call(&s, "POST", path, "{\"name\":\"Zoe\"}", &a);
    cr_expect_eq(r.status, 400, "no email: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    stop_server(&s);
}

Test(invitations, a_retried_request_invites_once, .timeout = 60)
{
    e2e_server s = {0};
    scene(NULL, &s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    char match[32];
    open_match(&s, &a, 2, match);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/invitations", match);
    const char *body = "{\"email\":\"zoe@example.org\",\"name\":\"Zoe\"}";
    e2e_response first = e2e_call_signed(&s, "POST", path, body, &a,
                                         (int64_t)time(NULL), "invite-once",
                                         NULL, false);
    e2e_response again = e2e_call_signed(&s, "POST", path, body, &a,
                                         (int64_t)time(NULL), "invite-once",
                                         NULL, false);
    cr_assert_eq(first.status, 201, "%s", first.body);
    cr_expect_eq(again.status, 201, "%ld %s", again.status, again.body);
    cr_expect_str_eq(member(again.json, "invitation"),
                     member(first.json, "invitation"));
    e2e_response_free(&first);
    e2e_response_free(&again);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    cr_assert_eq(PQstatus(db), CONNECTION_OK);
    PGresult *r = PQexec(db, "SELECT (SELECT count(*) FROM invitations) || '/'"
                             " || (SELECT count(*) FROM mail_answers"
                             "      WHERE kind = 'invitation')");
    cr_expect_str_eq(PQgetvalue(r, 0, 0), "1/1");
    PQclear(r);
    PQfinish(db);
    stop_server(&s);
}

Test(invitations, pbem_invite_sends_one_with_the_players_key, .timeout = 60)
{
    e2e_server s = {0};
    scene(NULL, &s);
    e2e_player a;
    e2e_register(&s, "Robert", &a);
    char match[32];
    open_match(&s, &a, 2, match);
    /* The key file: the player's Ed25519 seed in base64. */
    char key_file[256];
    const char *tmp = getenv("TMPDIR");
    snprintf(key_file, sizeof key_file, "%s/pbem-player-key-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(key_file);
    cr_assert_geq(fd, 0);
    char seed[sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_ORIGINAL)];
    sodium_bin2base64(seed, sizeof seed, a.key.secret_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    cr_assert_eq(write(fd, seed, strlen(seed)), (ssize_t)strlen(seed));
    close(fd);
    const char *cli = getenv("PBEM_CLI");
    cr_assert_not_null(cli, "PBEM_CLI is not set: run the tests with make test");
    char command[1024];
    snprintf(command, sizeof command,
             "%s invite %s zoe@example.org 'Zoë Q' --key %s"
             " --url http://127.0.0.1:%d",
             cli, match, key_file, s.port);
    FILE *out = popen(command, "r");
    cr_assert_not_null(out);
    char answer[1024] = "";
    size_t got = fread(answer, 1, sizeof answer - 1, out);
    answer[got] = '\0';
    int status = pclose(out);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "pbem invite: %d %s", status, answer);
    json_t *json = json_loads(answer, 0, NULL);
    cr_assert_not_null(json, "%s", answer);
    cr_expect_eq(strncmp(member(json, "invitation"), "inv_", 4), 0);
    cr_expect_str_eq(member(json, "name"), "Zoë Q");
    json_decref(json);
    /* Without a key, or with a refused request, it says so. */
    snprintf(command, sizeof command,
             "%s invite %s zoe@example.org Zoe 2>/dev/null", cli, match);
    cr_expect_eq(WEXITSTATUS(system(command)), 2);
    snprintf(command, sizeof command,
             "%s invite m_1 zoe@example.org Zoe --key %s"
             " --url http://127.0.0.1:%d 2>/dev/null",
             cli, key_file, s.port);
    cr_expect_eq(WEXITSTATUS(system(command)), 1);
    unlink(key_file);
    stop_server(&s);
}
