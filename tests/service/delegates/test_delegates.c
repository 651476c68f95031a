/* Delegated keys, through the real pbemd: a player grants a bot's key the
 * right to act for them; the bot signs with its own key and names the
 * player in Pbem-On-Behalf-Of, covered by its signature. What a bot author
 * and the player would check: the bot moves for the player, a grant that
 * does not cover a request refuses it with a sentence saying why, the
 * event records both the player and the bot's key, and an export of the
 * match verifies the bot's move as strictly as a player's own, grant
 * included. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "ledger/export_check.h"
#include "ledger/httpsig.h"

/* A bot: its own key, and the player it acts for. */
typedef struct bot {
    client_key key;
    const e2e_player *player;
} bot;

static void new_bot(bot *b, const e2e_player *player)
{
    client_new_key(&b->key);
    b->player = player;
}

static const char *error_code(const e2e_response *r)
{
    return e2e_error_code(r);
}

static const char *error_message(const e2e_response *r)
{
    const char *message = json_string_value(
        json_object_get(json_object_get(r->json, "error"), "message"));
    return message ? message : "(no message)";
}

static void format_time(long long seconds, char out[32])
{
    time_t t = (time_t)seconds;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* POST /v1/players/me/delegates by b's player: scope and matches are JSON
 * text; expires seconds from now. Returns the answer. */
static e2e_response grant(const e2e_table *t, const bot *b, const char *scope,
                          const char *matches, long long expires_in)
{
    char key[64], expires[32], body[512];
    sodium_bin2base64(key, sizeof key, b->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    format_time((long long)time(NULL) + expires_in, expires);
    snprintf(body, sizeof body,
             "{\"public_key\":\"%s\",\"name\":\"Table bot\",\"scope\":%s,"
             "\"matches\":%s,\"expires\":\"%s\"}",
             key, scope, matches, expires);
    return e2e_call(&t->server, "POST", "/v1/players/me/delegates", body,
                    b->player);
}

/* The grant's delegate_id (static buffer), asserting it was made. */
static const char *granted(const e2e_table *t, const bot *b, const char *scope,
                           const char *matches, long long expires_in)
{
    static char id[32];
    e2e_response r = grant(t, b, scope, matches, expires_in);
    cr_assert_eq(r.status, 201, "grant: %ld %s", r.status, r.body);
    const char *delegate =
        json_string_value(json_object_get(r.json, "delegate_id"));
    cr_assert_not_null(delegate);
    snprintf(id, sizeof id, "%s", delegate);
    e2e_response_free(&r);
    return id;
}

/* A request signed by the bot's key acting for its player. */
static e2e_response as_bot(const e2e_table *t, const bot *b,
                           const char *method, const char *path,
                           const char *body)
{
    client_send_options options = {.on_behalf_of = b->player->id};
    return e2e_call_with(&t->server, method, path, body, &b->key, &options);
}

/* The seat that must act now, and a legal move of it as a request body
 * (malloc'd), read as its player sees it. */
static char *a_legal_move(const e2e_table *t, int *seat)
{
    json_t *match = e2e_get(t, "", NULL);
    *seat = e2e_first_pending_seat(match);
    cr_assert_geq(*seat, 0);
    json_decref(match);
    json_t *view = e2e_get(t, "/view", &t->players[*seat]);
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    cr_assert_gt(json_array_size(moves), 0);
    json_t *body = json_pack(
        "{s:O,s:O}", "seq", json_object_get(json_object_get(view, "head"), "seq"),
        "action", json_array_get(moves, 0));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    json_decref(view);
    return text;
}

static void moves_path(const e2e_table *t, char out[96])
{
    snprintf(out, 96, "/v1/matches/%s/moves", t->match);
}

static void matches_list(const e2e_table *t, char out[64])
{
    snprintf(out, 64, "[\"%s\"]", t->match);
}

Test(delegates, a_bot_moves_for_its_player_and_the_event_says_so,
     .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    int seat;
    char *move = a_legal_move(&t, &seat);
    bot b;
    new_bot(&b, &t.players[seat]);
    char matches[64];
    matches_list(&t, matches);
    e2e_response r = grant(&t, &b, "[\"view\",\"move\"]", matches, 86400);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    char key_id[64];
    client_key_id(b.key.public_key, key_id);
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "key_id")),
                     key_id, "the grant names the bot's key id");
    char grant_id[32];
    snprintf(grant_id, sizeof grant_id, "%s",
             json_string_value(json_object_get(r.json, "delegate_id")));
    cr_expect_eq(strncmp(grant_id, "d_", 2), 0);
    e2e_response_free(&r);

    /* The bot sees its player's seat, then moves for it. */
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/view", t.match);
    r = as_bot(&t, &b, "GET", path, NULL);
    cr_expect_eq(r.status, 200, "view: %ld %s", r.status, r.body);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "seat")), seat);
    e2e_response_free(&r);
    moves_path(&t, path);
    r = as_bot(&t, &b, "POST", path, move);
    cr_assert_eq(r.status, 200, "move: %ld %s", r.status, r.body);
    long long seq = json_integer_value(json_object_get(r.json, "seq"));
    e2e_response_free(&r);
    free(move);

    /* The event: the player's seat, the bot's key, the grant. */
    json_t *events = e2e_all_events(&t);
    json_t *event = json_array_get(events, (size_t)seq - 1);
    cr_assert_not_null(event);
    cr_expect_eq(json_integer_value(json_object_get(event, "seat")), seat);
    json_t *data = json_object_get(event, "data");
    json_t *delegate = json_object_get(data, "delegate");
    cr_assert_not_null(delegate, "the event does not record the delegate");
    cr_expect_str_eq(json_string_value(json_object_get(delegate, "player")),
                     t.players[seat].id);
    cr_expect_str_eq(json_string_value(json_object_get(delegate, "key_id")),
                     key_id);
    cr_expect_str_eq(json_string_value(json_object_get(delegate, "grant")),
                     grant_id);
    json_t *request = json_object_get(data, "request");
    cr_expect_str_eq(json_string_value(json_object_get(request, "keyid")),
                     key_id, "the request kept is the bot's own");
    cr_expect_str_eq(
        json_string_value(json_object_get(request, "on_behalf_of")),
        t.players[seat].id);
    json_decref(events);

    /* The player's list shows the grant, in force. */
    r = e2e_call(&t.server, "GET", "/v1/players/me/delegates", NULL,
                 &t.players[seat]);
    cr_assert_eq(r.status, 200);
    json_t *first = json_array_get(json_object_get(r.json, "delegates"), 0);
    cr_expect_str_eq(json_string_value(json_object_get(first, "delegate_id")),
                     grant_id);
    cr_expect(json_is_null(json_object_get(first, "revoked")));
    e2e_response_free(&r);
    e2e_stop(&t.server);
}

/* The answer must be a 403 whose code and sentence say what is wrong. */
static void expect_refused(e2e_response *r, int status, const char *code,
                           const char *words)
{
    cr_expect_eq(r->status, status, "%ld %s", r->status, r->body);
    cr_expect_str_eq(error_code(r), code);
    cr_expect(strstr(error_message(r), words) != NULL,
              "the sentence does not say \"%s\": %s", words,
              error_message(r));
    e2e_response_free(r);
}

Test(delegates, a_bot_joins_an_open_match_for_its_player, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    memset(&t, 0, sizeof t);
    e2e_start(&t.server);
    e2e_register(&t.server, "Ada", &t.players[0]);
    e2e_register(&t.server, "Grace", &t.players[1]);
    t.seats = 2;
    e2e_response r = e2e_call(&t.server, "POST", "/v1/matches",
                              "{\"game\":\"antiquity_quest\",\"seats\":2}",
                              &t.players[0]);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    snprintf(t.match, sizeof t.match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", t.match);

    /* A bot that may only watch may not take a seat. */
    bot watcher;
    new_bot(&watcher, &t.players[1]);
    granted(&t, &watcher, "[\"view\"]", "\"all\"", 86400);
    r = as_bot(&t, &watcher, "POST", path, "{}");
    expect_refused(&r, 403, "delegate_scope", "to join");

    bot joiner;
    new_bot(&joiner, &t.players[1]);
    char grant_id[32];
    snprintf(grant_id, sizeof grant_id, "%s",
             granted(&t, &joiner, "[\"join\"]", "\"all\"", 86400));
    r = as_bot(&t, &joiner, "POST", path, "{}");
    cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
    e2e_response_free(&r);

    /* Grace sits in seat 1, and the log says her bot seated her. */
    json_t *events = e2e_all_events(&t);
    json_t *joined = NULL;
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (strcmp(kind, "joined") == 0 &&
            json_integer_value(json_object_get(event, "seat")) == 1)
            joined = event;
    }
    cr_assert_not_null(joined, "nobody joined seat 1");
    json_t *data = json_object_get(joined, "data");
    cr_expect_str_eq(json_string_value(json_object_get(data, "player")),
                     t.players[1].id);
    json_t *delegate = json_object_get(data, "delegate");
    cr_expect_str_eq(json_string_value(json_object_get(delegate, "grant")),
                     grant_id);
    char key_id[64];
    client_key_id(joiner.key.public_key, key_id);
    cr_expect_str_eq(json_string_value(json_object_get(delegate, "key_id")),
                     key_id);
    json_decref(events);
    e2e_stop(&t.server);
}

Test(delegates, out_of_scope_or_another_match_is_refused, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    int seat;
    char *move = a_legal_move(&t, &seat);
    char path[96], matches[64];
    moves_path(&t, path);
    matches_list(&t, matches);

    bot viewer;
    new_bot(&viewer, &t.players[seat]);
    granted(&t, &viewer, "[\"view\"]", matches, 86400);
    e2e_response r = as_bot(&t, &viewer, "POST", path, move);
    expect_refused(&r, 403, "delegate_scope", "does not allow this key to move");

    bot elsewhere;
    new_bot(&elsewhere, &t.players[seat]);
    granted(&t, &elsewhere, "[\"view\",\"move\"]", "[\"m_999999\"]", 86400);
    r = as_bot(&t, &elsewhere, "POST", path, move);
    expect_refused(&r, 403, "delegate_match", t.match);

    /* What only the player may do: not even a grant of everything. */
    bot all;
    new_bot(&all, &t.players[seat]);
    granted(&t, &all, "[\"view\",\"move\",\"join\"]", "\"all\"", 86400);
    r = as_bot(&t, &all, "POST", "/v1/matches",
               "{\"game\":\"antiquity_quest\",\"seats\":2}");
    expect_refused(&r, 403, "delegate_not_allowed", "player's own key");
    r = as_bot(&t, &all, "GET", "/v1/players/me/delegates", NULL);
    expect_refused(&r, 403, "delegate_not_allowed", "player's own key");

    /* Nothing was played: the grant of everything still moves. */
    r = as_bot(&t, &all, "POST", path, move);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    free(move);
    e2e_stop(&t.server);
}

/* Sets the match clock pbemd reads (PBEM_CLOCK_FILE) to seconds. */
static void set_clock(const char *file, long long seconds)
{
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s.new", file);
    FILE *f = fopen(tmp, "w");
    cr_assert_not_null(f);
    fprintf(f, "%lld\n", seconds);
    fclose(f);
    cr_assert_eq(rename(tmp, file), 0);
}

Test(delegates, an_expired_grant_is_refused, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    char clock_file[] = "/tmp/pbem-deleg-clock-XXXXXX";
    int fd = mkstemp(clock_file);
    cr_assert_geq(fd, 0);
    close(fd);
    long long now = (long long)time(NULL);
    set_clock(clock_file, now);
    setenv("PBEM_CLOCK_FILE", clock_file, 1);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    int seat;
    char *move = a_legal_move(&t, &seat);
    char path[96], matches[64];
    moves_path(&t, path);
    matches_list(&t, matches);
    bot b;
    new_bot(&b, &t.players[seat]);
    granted(&t, &b, "[\"move\"]", matches, 3600);
    /* Two hours on: the grant ended an hour ago. */
    set_clock(clock_file, now + 7200);
    e2e_response r = as_bot(&t, &b, "POST", path, move);
    expect_refused(&r, 403, "delegate_expired", "expired at");
    free(move);
    e2e_stop(&t.server);
    unlink(clock_file);
}

Test(delegates, a_revoked_grant_is_refused_at_once, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    int seat;
    char *move = a_legal_move(&t, &seat);
    char path[96], matches[64];
    matches_list(&t, matches);
    bot b;
    new_bot(&b, &t.players[seat]);
    char id[32];
    snprintf(id, sizeof id, "%s",
             granted(&t, &b, "[\"view\",\"move\"]", matches, 86400));
    snprintf(path, sizeof path, "/v1/matches/%s/view", t.match);
    e2e_response r = as_bot(&t, &b, "GET", path, NULL);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);

    char revoke[96];
    snprintf(revoke, sizeof revoke, "/v1/players/me/delegates/%s", id);
    r = e2e_call(&t.server, "DELETE", revoke, NULL, &t.players[seat]);
    cr_expect_eq(r.status, 204, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* Another player cannot revoke it, nor see it. */
    r = e2e_call(&t.server, "DELETE", revoke, NULL, &t.players[1 - seat]);
    cr_expect_eq(r.status, 404, "%ld %s", r.status, r.body);
    e2e_response_free(&r);

    r = as_bot(&t, &b, "GET", path, NULL);
    expect_refused(&r, 403, "delegate_revoked", "was revoked");
    moves_path(&t, path);
    r = as_bot(&t, &b, "POST", path, move);
    expect_refused(&r, 403, "delegate_revoked", "was revoked");

    r = e2e_call(&t.server, "GET", "/v1/players/me/delegates", NULL,
                 &t.players[seat]);
    json_t *first = json_array_get(json_object_get(r.json, "delegates"), 0);
    cr_expect(json_is_string(json_object_get(first, "revoked")),
              "the list does not show the revocation: %s", r.body);
    e2e_response_free(&r);
    free(move);
    e2e_stop(&t.server);
}

Test(delegates, the_signature_must_cover_on_behalf_of, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    int seat;
    char *move = a_legal_move(&t, &seat);
    char path[96], matches[64], header[64];
    moves_path(&t, path);
    matches_list(&t, matches);
    bot b;
    new_bot(&b, &t.players[seat]);
    granted(&t, &b, "[\"move\"]", matches, 86400);
    /* The header sent, but not signed: anyone on the way could have
     * added it or changed whom it names. */
    snprintf(header, sizeof header, "Pbem-On-Behalf-Of: %s",
             t.players[seat].id);
    const char *const extra[] = {header, NULL};
    client_send_options options = {.extra_headers = extra};
    e2e_response r =
        e2e_call_with(&t.server, "POST", path, move, &b.key, &options);
    expect_refused(&r, 401, "on_behalf_of_unsigned", "Pbem-On-Behalf-Of");

    /* Signed, but naming the other player, who granted nothing. */
    bot stranger = {.key = b.key, .player = &t.players[1 - seat]};
    r = as_bot(&t, &stranger, "POST", path, move);
    expect_refused(&r, 401, "unknown_delegate", "is not a delegate of");

    /* A key nobody granted. */
    bot unknown;
    new_bot(&unknown, &t.players[seat]);
    r = as_bot(&t, &unknown, "POST", path, move);
    expect_refused(&r, 401, "unknown_delegate", "POST /v1/players/me/delegates");
    free(move);
    e2e_stop(&t.server);
}

Test(delegates, a_grant_is_checked_before_it_is_kept, .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    bot b;
    new_bot(&b, &t.players[0]);
    e2e_response r = grant(&t, &b, "[]", "\"all\"", 86400);
    expect_refused(&r, 400, "bad_delegate", "scope");
    r = grant(&t, &b, "[\"view\",\"dance\"]", "\"all\"", 86400);
    expect_refused(&r, 400, "bad_delegate", "scope");
    r = grant(&t, &b, "[\"view\"]", "\"some\"", 86400);
    expect_refused(&r, 400, "bad_delegate", "matches");
    r = grant(&t, &b, "[\"view\"]", "\"all\"", -60);
    expect_refused(&r, 422, "bad_delegate", "in the past");
    r = grant(&t, &b, "[\"view\"]", "\"all\"", 400LL * 86400);
    expect_refused(&r, 422, "bad_delegate", "within 366 days");
    /* The player's own key needs no grant. */
    bot self = {.key = t.players[0].key, .player = &t.players[0]};
    r = grant(&t, &self, "[\"view\"]", "\"all\"", 86400);
    expect_refused(&r, 422, "bad_delegate", "your own key");
    e2e_stop(&t.server);
}

/* A fresh admin key pair (keyid "admin"), for servers started after. */
static void admin_key(e2e_player *admin)
{
    memset(admin, 0, sizeof *admin);
    client_new_key(&admin->key);
    snprintf(admin->key.key_id, sizeof admin->key.key_id, "admin");
    char b64[64];
    sodium_bin2base64(b64, sizeof b64, admin->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    setenv("PBEM_ADMIN_KEY", b64, 1);
}

/* The check of an export text: true when it verifies, else *reason. */
static bool export_verifies(const char *text, char *reason, size_t size)
{
    export_match *matches = NULL;
    verify_report report;
    int count = export_parse(text, strlen(text), &matches, &report);
    if (count != 1) {
        snprintf(reason, size, "%s", count < 0 ? report.reason : "not one");
        export_matches_free(matches, count < 0 ? 0 : count);
        return false;
    }
    export_check(&matches[0], &report);
    snprintf(reason, size, "%s", report.reason);
    export_matches_free(matches, count);
    return report.ok;
}

/* The export with its header changed by edit (a new text, malloc'd). */
static char *with_header(const char *text, void (*edit)(json_t *header))
{
    const char *nl = strchr(text, '\n');
    cr_assert_not_null(nl);
    json_t *header = json_loadb(text, (size_t)(nl - text), 0, NULL);
    cr_assert_not_null(header);
    edit(header);
    char *line = json_dumps(header, JSON_COMPACT);
    json_decref(header);
    char *out = NULL;
    cr_assert_geq(asprintf(&out, "%s%s", line, nl), 0);
    free(line);
    return out;
}

static json_t *first_grant(json_t *header)
{
    json_t *grant = json_array_get(json_object_get(header, "delegates"), 0);
    cr_assert_not_null(grant, "the export carries no grant");
    return grant;
}

/* The header says the grant allowed more than the player signed. */
static void widen_scope(json_t *header)
{
    json_object_set_new(first_grant(header), "scope",
                        json_pack("[s,s,s]", "view", "move", "join"));
}

/* The signed body itself says "move" instead of "view". */
static void rewrite_signed_scope(json_t *header)
{
    json_t *request = json_object_get(first_grant(header), "request");
    const char *body = json_string_value(json_object_get(request, "body"));
    cr_assert_not_null(body);
    char *changed = strdup(body);
    char *at = strstr(changed, "\"view\"");
    cr_assert_not_null(at);
    memcpy(at, "\"join\"", 6);
    json_object_set_new(request, "body", json_string(changed));
    free(changed);
}

/* The grant was revoked before the move, says the header. */
static void revoked_long_ago(json_t *header)
{
    json_object_set_new(first_grant(header), "revoked",
                        json_string("2020-01-01T00:00:00Z"));
}

/* The player whose grant only_view signs anew. */
static const e2e_player *granting;

/* The grant as if the player had signed one to view only: a genuine
 * signature by the player's key, over a body that says so, and a header
 * that agrees. Only the rule that a commitment needs "move" can tell. */
static void only_view(json_t *header)
{
    json_t *grant = first_grant(header);
    json_t *request = json_object_get(grant, "request");
    json_t *body = json_loads(
        json_string_value(json_object_get(request, "body")), 0, NULL);
    cr_assert_not_null(body);
    json_object_set_new(body, "scope", json_pack("[s]", "view"));
    json_object_set_new(grant, "scope", json_pack("[s]", "view"));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    httpsig_request req = {.method = "POST",
                           .target = "/v1/players/me/delegates",
                           .body = (const unsigned char *)text,
                           .body_len = strlen(text)};
    const char *components[] = {"@method", "@path", "content-digest"};
    httpsig_headers signed_headers;
    httpsig_error herr;
    cr_assert(httpsig_sign(&req, components, 3, granting->key.key_id,
                           "resigned-view-only", (int64_t)time(NULL), NULL,
                           granting->key.secret_key, &signed_headers, &herr),
              "%s", herr.message);
    json_object_set_new(request, "body", json_string(text));
    json_object_set_new(request, "signature_input",
                        json_string(signed_headers.signature_input));
    json_object_set_new(request, "signature",
                        json_string(signed_headers.signature));
    json_object_set_new(request, "content_digest",
                        json_string(signed_headers.content_digest));
    httpsig_headers_free(&signed_headers);
    free(text);
}

static void drop_grants(json_t *header)
{
    json_object_del(header, "delegates");
}

Test(delegates, an_export_verifies_the_bots_move_and_its_grant,
     .timeout = 180)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    cr_assert(e2e_play_one(&t));
    int seat;
    char *move = a_legal_move(&t, &seat);
    char path[96], matches[64];
    moves_path(&t, path);
    matches_list(&t, matches);
    bot b;
    new_bot(&b, &t.players[seat]);
    granted(&t, &b, "[\"view\",\"move\"]", matches, 86400);
    e2e_response r = as_bot(&t, &b, "POST", path, move);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    free(move);
    cr_assert(e2e_play_one(&t));

    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", t.match);
    r = e2e_call(&t.server, "GET", path, NULL, &admin);
    cr_assert_eq(r.status, 200, "export: %ld %s", r.status, r.body);
    char *text = strdup(r.body);
    e2e_response_free(&r);
    char reason[512];
    cr_expect(export_verifies(text, reason, sizeof reason),
              "the export does not verify: %s", reason);

    /* pbem verify --export, as anyone holding the file would run it. */
    const char *cli = getenv("PBEM_CLI");
    cr_assert_not_null(cli, "PBEM_CLI is not set");
    char file[] = "/tmp/pbem-deleg-export-XXXXXX";
    int fd = mkstemp(file);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char command[512];
    snprintf(command, sizeof command, "'%s' verify --export '%s' >/dev/null",
             cli, file);
    int status = system(command);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "pbem verify --export refuses the export");

    static void (*const tampers[])(json_t *) = {
        widen_scope, rewrite_signed_scope, revoked_long_ago, drop_grants};
    static const char *const names[] = {
        "a widened scope", "a rewritten signed scope", "a revocation before "
        "the move", "no grants"};
    for (size_t i = 0; i < sizeof tampers / sizeof *tampers; i++) {
        char *bad = with_header(text, tampers[i]);
        cr_expect(!export_verifies(bad, reason, sizeof reason),
                  "an export with %s verifies", names[i]);
        cr_expect(strstr(reason, "grant") != NULL ||
                      strstr(reason, "d_") != NULL,
                  "%s: the reason does not name the grant: %s", names[i],
                  reason);
        if (i == 0) {
            FILE *out = fopen(file, "w");
            cr_assert_not_null(out);
            fputs(bad, out);
            fclose(out);
            snprintf(command, sizeof command,
                     "'%s' verify --export '%s' >/dev/null 2>&1", cli, file);
            status = system(command);
            cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1,
                      "pbem verify --export accepts a widened grant");
        }
        free(bad);
    }
    unlink(file);

    /* Restored elsewhere, the match is exported with its grant again, and
     * verifies there too. */
    char db[64];
    e2e_private_database(db, sizeof db);
    e2e_server target = {0};
    memcpy(target.key_file, t.server.key_file, sizeof target.key_file);
    e2e_start(&target);
    r = e2e_call(&target, "POST", "/v1/admin/matches/import", text, &admin);
    cr_assert_eq(r.status, 201, "import: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = e2e_call(&target, "GET", path, NULL, &admin);
    cr_assert_eq(r.status, 200, "export again: %ld %s", r.status, r.body);
    cr_expect(export_verifies(r.body, reason, sizeof reason),
              "the restored match's export does not verify: %s", reason);
    e2e_response_free(&r);
    r = e2e_call(&target, "GET", "/v1/players/me/delegates", NULL,
                 &t.players[seat]);
    cr_expect_eq(json_array_size(json_object_get(r.json, "delegates")), 1,
                 "the player's grant is not restored: %s", r.body);
    e2e_response_free(&r);
    e2e_stop(&target);
    free(text);
    e2e_stop(&t.server);
}

/* The first legal choice of a seat's view, as a commit's body
 * (malloc'd). */
static char *first_choice(const e2e_response *view)
{
    json_t *action = json_array_get(
        json_object_get(json_object_get(view->json, "legal"), "moves"), 0);
    cr_assert_not_null(action, "no legal choice");
    json_t *body = json_pack("{s:O}", "action", action);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return text;
}

Test(delegates, a_bot_seals_a_secret_choice_and_the_export_verifies_it,
     .timeout = 180)
{
    cr_assert(sodium_init() >= 0);
    e2e_player admin;
    admin_key(&admin);
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    json_t *match = e2e_get(&t, "", NULL);
    json_t *pending = json_object_get(match, "pending");
    cr_assert_str_eq(json_string_value(json_object_get(pending, "wait")),
                     "simultaneous");
    char decision[64];
    snprintf(decision, sizeof decision, "%s",
             json_string_value(json_object_get(pending, "decision")));
    json_decref(match);
    char matches[64], view_path[96], commit_path[192], decision_path[160];
    matches_list(&t, matches);
    snprintf(view_path, sizeof view_path, "/v1/matches/%s/view", t.match);
    snprintf(commit_path, sizeof commit_path,
             "/v1/matches/%s/decisions/%s/commit", t.match, decision);
    snprintf(decision_path, sizeof decision_path,
             "/v1/matches/%s/decisions/%s", t.match, decision);

    /* Seat 0's bot reads the choices, seals one, and reads it back. */
    bot b;
    new_bot(&b, &t.players[0]);
    granted(&t, &b, "[\"view\",\"move\"]", matches, 86400);
    e2e_response view = as_bot(&t, &b, "GET", view_path, NULL);
    cr_assert_eq(view.status, 200, "%ld %s", view.status, view.body);
    char *choice = first_choice(&view);
    e2e_response_free(&view);
    e2e_response r = as_bot(&t, &b, "POST", commit_path, choice);
    cr_assert_eq(r.status, 200, "commit: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    free(choice);
    r = as_bot(&t, &b, "GET", decision_path, NULL);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    json_t *mine = json_array_get(json_object_get(r.json, "seats"), 0);
    cr_expect_not_null(json_object_get(mine, "your_choice"),
                       "the bot cannot read back its player's choice: %s",
                       r.body);
    e2e_response_free(&r);

    /* The others seal theirs themselves; the decision is made. */
    for (int seat = 1; seat < 3; seat++) {
        view = e2e_call(&t.server, "GET", view_path, NULL, &t.players[seat]);
        cr_assert_eq(view.status, 200);
        choice = first_choice(&view);
        e2e_response_free(&view);
        r = e2e_call(&t.server, "POST", commit_path, choice, &t.players[seat]);
        cr_assert_eq(r.status, 200, "commit %d: %ld %s", seat, r.status,
                     r.body);
        e2e_response_free(&r);
        free(choice);
    }

    json_t *events = e2e_all_events(&t);
    size_t delegated = 0, i;
    json_t *event;
    json_array_foreach(events, i, event) {
        json_t *data = json_object_get(event, "data");
        if (json_object_get(data, "delegate") != NULL) {
            delegated++;
            cr_expect_str_eq(
                json_string_value(json_object_get(event, "kind")),
                "committed");
            cr_expect_eq(json_integer_value(json_object_get(event, "seat")),
                         0);
        }
    }
    cr_expect_eq(delegated, 1, "%zu events name the delegate", delegated);
    json_decref(events);

    char path[96];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", t.match);
    r = e2e_call(&t.server, "GET", path, NULL, &admin);
    cr_assert_eq(r.status, 200, "export: %ld %s", r.status, r.body);
    char reason[512];
    cr_expect(export_verifies(r.body, reason, sizeof reason),
              "the export does not verify: %s", reason);
    /* A commitment counts as a move: a grant to view only, however well
     * signed, would not have allowed it. */
    granting = &t.players[0];
    char *narrowed = with_header(r.body, only_view);
    cr_expect(!export_verifies(narrowed, reason, sizeof reason),
              "a view-only grant lets a commitment stand");
    cr_expect(strstr(reason, "does not allow a delegate to make a committed") !=
                  NULL,
              "not refused for its scope: %s", reason);
    free(narrowed);
    e2e_response_free(&r);
    e2e_stop(&t.server);
}

/* Signs one request with the independent npm http-message-signatures
 * package (tests/node/sign-request.mjs), covering Pbem-On-Behalf-Of as a
 * JavaScript bot would; fills headers with "Name: value" lines of the
 * signature, the digest and the header itself, NULL-terminated. */
static void node_sign_for(const char *seed_hex, const char *keyid,
                          const char *url, const char *body,
                          const char *player, char lines[4][9000],
                          const char *headers[5])
{
    json_t *input = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:[s,s,s,s],s:{s:s}}", "seed_hex", seed_hex,
        "keyid", keyid, "method", "POST", "url", url, "body", body,
        "components", "@method", "@path", "content-digest",
        "pbem-on-behalf-of", "headers", "pbem-on-behalf-of", player);
    char *text = json_dumps(input, JSON_COMPACT);
    json_decref(input);
    char path[] = "/tmp/pbem-deleg-node-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    free(text);
    char command[256];
    snprintf(command, sizeof command,
             "node tests/node/sign-request.mjs < %s 2>&1", path);
    FILE *run = popen(command, "r");
    cr_assert_not_null(run);
    char output[20000];
    size_t n = fread(output, 1, sizeof output - 1, run);
    output[n] = '\0';
    cr_assert_eq(pclose(run), 0, "the npm signer failed: %s", output);
    unlink(path);
    json_t *answer = json_loads(output, 0, NULL);
    json_t *signed_headers = json_object_get(answer, "headers");
    cr_assert_not_null(signed_headers, "unexpected signer output: %s", output);
    int k = 0;
    const char *name;
    json_t *value;
    json_object_foreach(signed_headers, name, value) {
        cr_assert_lt(k, 3);
        snprintf(lines[k], 9000, "%s: %s", name, json_string_value(value));
        headers[k] = lines[k];
        k++;
    }
    snprintf(lines[k], 9000, "Pbem-On-Behalf-Of: %s", player);
    headers[k] = lines[k];
    headers[k + 1] = NULL;
    json_decref(answer);
}

Test(delegates, a_bot_signing_with_an_independent_npm_signer_moves,
     .timeout = 120)
{
    cr_assert(sodium_init() >= 0);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    int seat;
    char *move = a_legal_move(&t, &seat);
    /* The bot's key: a seed the npm signer holds. */
    uint8_t seed[32];
    char seed_hex[65];
    randombytes_buf(seed, sizeof seed);
    sodium_bin2hex(seed_hex, sizeof seed_hex, seed, sizeof seed);
    bot b = {.player = &t.players[seat]};
    crypto_sign_seed_keypair(b.key.public_key, b.key.secret_key, seed);
    client_key_id(b.key.public_key, b.key.key_id);
    char matches[64], url[160], path[96];
    matches_list(&t, matches);
    granted(&t, &b, "[\"move\"]", matches, 86400);
    moves_path(&t, path);
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", t.server.port, path);
    char lines[4][9000];
    const char *headers[5];
    node_sign_for(seed_hex, b.key.key_id, url, move, t.players[seat].id,
                  lines, headers);
    client_send_options options = {.extra_headers = headers};
    e2e_response r =
        e2e_call_with(&t.server, "POST", path, move, NULL, &options);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    free(move);
    e2e_stop(&t.server);
}
