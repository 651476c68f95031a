/* Playing from Discord and Slack, through the real pbemd, with requests
 * shaped as the platforms' documentation shows them and signed as they
 * sign them (Ed25519 over timestamp and body; Slack's v0 HMAC-SHA256).
 * What a player and an admin setting the apps up would check: Discord's
 * endpoint check (PING, and 401 for a bad or stale signature) passes; a
 * player links a chat account with the code they got; two linked users
 * play a whole match from the chats, every answer to them private; the
 * events say which chat each move came from, without the chat user's id;
 * and the match's export verifies. A turn notice's "Make a move" offers
 * the clicker their own moves and plays only their own seat's choice;
 * a Discord user, a Slack user and a mail player finish one match
 * together; and strangers in Discord and Slack find each other through
 * the lobby's list and quick match. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../support/notify_scene.h"
#include "../mailin/mail_people.h"
#include "ledger/export_check.h"

#define SLACK_SECRET "8f742231b10e8888abcd99yyyzzz85a5"
#define SLACK_TEAM "T1DC2JH3J"

static uint8_t discord_pk[32], discord_sk[64];

/* The apps' keys in pbemd's environment (before it starts). */
static void chat_env(void)
{
    cr_assert(sodium_init() >= 0);
    uint8_t seed[32];
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(i + 1);
    crypto_sign_seed_keypair(discord_pk, discord_sk, seed);
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, discord_pk, sizeof discord_pk);
    setenv("PBEM_DISCORD_PUBLIC_KEY", hex, 1);
    setenv("PBEM_SLACK_SIGNING_SECRET", SLACK_SECRET, 1);
}

/* A new interaction id (Discord's are snowflakes; Slack's trigger ids). */
static const char *next_id(void)
{
    static int n;
    static char id[32];
    snprintf(id, sizeof id, "1186%015d", ++n + (int)(time(NULL) % 100000));
    return id;
}

/* A chat user id of this test's own: the tests share a database, and a
 * chat user linked in one must not act in another. prefix "" gives a
 * Discord snowflake's digits, "U" a Slack user id. */
static const char *fresh_user(const char *prefix)
{
    static char ids[8][32];
    static int n;
    char *id = ids[n % 8];
    snprintf(id, 32, "%s%d%04d", prefix, (int)getpid(), ++n);
    return id;
}

/* POST body to Discord's endpoint, signed at ts as signed_body (NULL:
 * body itself: a different one is a tampered request). */
static e2e_response discord_post(const e2e_server *s, const char *body,
                                 const char *signed_body, long long ts)
{
    char stamp[24], sig_hex[129], sig_header[160], ts_header[64];
    snprintf(stamp, sizeof stamp, "%lld", ts);
    const char *what = signed_body ? signed_body : body;
    size_t len = strlen(stamp) + strlen(what);
    char *message = malloc(len + 1);
    snprintf(message, len + 1, "%s%s", stamp, what);
    uint8_t sig[64];
    crypto_sign_detached(sig, NULL, (const uint8_t *)message, len, discord_sk);
    free(message);
    sodium_bin2hex(sig_hex, sizeof sig_hex, sig, sizeof sig);
    snprintf(sig_header, sizeof sig_header, "X-Signature-Ed25519: %s", sig_hex);
    snprintf(ts_header, sizeof ts_header, "X-Signature-Timestamp: %s", stamp);
    const char *headers[] = {sig_header, ts_header, NULL};
    client_send_options options = {.extra_headers = headers};
    return e2e_call_with(s, "POST", "/v1/chat/discord/interactions", body, NULL,
                         &options);
}

/* A Discord user of a server. */
typedef struct discord_user {
    const char *id;
    const char *name;
} discord_user;

/* An interaction of type (2 a command, 4 its autocomplete) for /pbem sub
 * with options (stolen) by u, as Discord sends it; its answer, which must
 * be 200. */
static json_t *discord(const e2e_server *s, const discord_user *u, int type,
                       const char *sub, json_t *options)
{
    json_t *interaction = json_pack(
        "{s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:{s:{s:s,s:s,s:n}},"
        "s:{s:s,s:s,s:i,s:[{s:s,s:i,s:o}]}}",
        "id", next_id(), "application_id", "1186000000000000000", "token",
        "aW50ZXJhY3Rpb24", "version", 1, "type", type, "guild_id",
        "290926798626357999", "channel_id", "645027906669510667", "member",
        "user", "id", u->id, "username", u->name, "global_name", "data", "id",
        "1186000000000000077", "name", "pbem", "type", 1, "options", "name",
        sub, "type", 1, "options", options);
    cr_assert_not_null(interaction);
    char *body = json_dumps(interaction, JSON_COMPACT);
    json_decref(interaction);
    e2e_response r = discord_post(s, body, NULL, (long long)time(NULL));
    free(body);
    cr_assert_eq(r.status, 200, "/pbem %s: %ld %s", sub, r.status, r.body);
    json_t *answer = json_incref(r.json);
    e2e_response_free(&r);
    return answer;
}

/* The text of a Discord command's answer (malloc'd), which must be a
 * private message: ephemeral, mentioning nobody. */
static char *discord_private_text(json_t *answer)
{
    cr_assert_eq(json_integer_value(json_object_get(answer, "type")), 4);
    const json_t *data = json_object_get(answer, "data");
    cr_assert_eq(json_integer_value(json_object_get(data, "flags")), 64,
                 "an answer posted to the channel: %s", json_dumps(answer, 0));
    const json_t *embed = json_array_get(json_object_get(data, "embeds"), 0);
    const char *text = json_string_value(json_object_get(embed, "description"));
    cr_assert_not_null(text);
    char *copy = strdup(text);
    json_decref(answer);
    return copy;
}

static char *discord_say(const e2e_server *s, const discord_user *u,
                         const char *sub, json_t *options)
{
    return discord_private_text(discord(s, u, 2, sub, options));
}

/* One option of a subcommand, as Discord sends it. */
static json_t *option(const char *name, const char *value, bool focused)
{
    json_t *o =
        json_pack("{s:s,s:i,s:s}", "name", name, "type", 3, "value", value);
    if (focused)
        json_object_set_new(o, "focused", json_true());
    return o;
}

/* A form field, percent-encoded as Slack sends forms. */
static void put_field(char *out, size_t size, const char *name,
                      const char *value)
{
    size_t n = strlen(out);
    n += (size_t)snprintf(out + n, size - n, "%s%s=", n ? "&" : "", name);
    for (const unsigned char *c = (const unsigned char *)value;
         *c && n + 4 < size; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
            (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' || *c == '.')
            out[n++] = (char)*c;
        else if (*c == ' ')
            out[n++] = '+';
        else
            n += (size_t)snprintf(out + n, size - n, "%%%02X", *c);
    }
    out[n] = '\0';
}

/* POST a form to a Slack endpoint, signed at ts with secret. */
static e2e_response slack_post(const e2e_server *s, const char *path,
                               const char *form, long long ts,
                               const char *secret)
{
    char stamp[24], sig_header[128], ts_header[64];
    snprintf(stamp, sizeof stamp, "%lld", ts);
    crypto_auth_hmacsha256_state state;
    uint8_t mac[32];
    crypto_auth_hmacsha256_init(&state, (const uint8_t *)secret,
                                strlen(secret));
    crypto_auth_hmacsha256_update(&state, (const uint8_t *)"v0:", 3);
    crypto_auth_hmacsha256_update(&state, (const uint8_t *)stamp,
                                  strlen(stamp));
    crypto_auth_hmacsha256_update(&state, (const uint8_t *)":", 1);
    crypto_auth_hmacsha256_update(&state, (const uint8_t *)form, strlen(form));
    crypto_auth_hmacsha256_final(&state, mac);
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
    snprintf(sig_header, sizeof sig_header, "X-Slack-Signature: v0=%s", hex);
    snprintf(ts_header, sizeof ts_header, "X-Slack-Request-Timestamp: %s",
             stamp);
    const char *headers[] = {sig_header, ts_header, NULL};
    client_send_options options = {.extra_headers = headers,
                                   .content_type =
                                       "application/x-www-form-urlencoded"};
    return e2e_call_with(s, "POST", path, form, NULL, &options);
}

/* /pbem text by Slack user id: the command's form as Slack documents it. */
static char *slack_form(const char *user, const char *text)
{
    char *form = calloc(1, 2048);
    put_field(form, 2048, "token", "gIkuvaNzQIHg97ATvDxqgjtO");
    put_field(form, 2048, "team_id", SLACK_TEAM);
    put_field(form, 2048, "team_domain", "example");
    put_field(form, 2048, "channel_id", "C2147483705");
    put_field(form, 2048, "channel_name", "games");
    put_field(form, 2048, "user_id", user);
    put_field(form, 2048, "user_name", "bob");
    put_field(form, 2048, "command", "/pbem");
    put_field(form, 2048, "text", text);
    put_field(form, 2048, "api_app_id", "A123456");
    put_field(form, 2048, "response_url",
              "https://hooks.slack.com/commands/1234/5678");
    put_field(form, 2048, "trigger_id", next_id());
    return form;
}

/* The answer to /pbem text by a Slack user (malloc'd plain text), which
 * must be 200 and ephemeral. */
static char *slack_say(const e2e_server *s, const char *user, const char *text)
{
    char *form = slack_form(user, text);
    e2e_response r = slack_post(s, "/v1/chat/slack/commands", form,
                                (long long)time(NULL), SLACK_SECRET);
    free(form);
    cr_assert_eq(r.status, 200, "/pbem %s: %ld %s", text, r.status, r.body);
    cr_assert_str_eq(
        json_string_value(json_object_get(r.json, "response_type")),
        "ephemeral", "an answer posted to the channel: %s", r.body);
    cr_assert_gt(json_array_size(json_object_get(r.json, "blocks")), 1);
    char *copy =
        strdup(json_string_value(json_object_get(r.json, "text")) ?: "");
    e2e_response_free(&r);
    return copy;
}

/* A link code for player (POST /v1/players/me/chat-links), malloc'd. */
static char *link_code(const e2e_server *s, const e2e_player *player)
{
    e2e_response r =
        e2e_call(s, "POST", "/v1/players/me/chat-links", NULL, player);
    cr_assert_eq(r.status, 201, "chat-links: %ld %s", r.status, r.body);
    char *code =
        strdup(json_string_value(json_object_get(r.json, "code")) ?: "");
    e2e_response_free(&r);
    cr_assert_eq(strlen(code), 11, "a code looks like K7QM3-XPA9R: %s", code);
    return code;
}

static void expect_has(const char *text, const char *part)
{
    cr_expect(strstr(text, part) != NULL, "\"%s\" is not in:\n%s", part, text);
}

Test(chat_play, discords_endpoint_check_pings_and_refuses_bad_signatures,
     .timeout = 60)
{
    chat_env();
    e2e_server s = {0};
    e2e_start(&s);
    const char *ping = "{\"application_id\":\"1186000000000000000\",\"id\":"
                       "\"1186000000000000001\",\"token\":\"dG9rZW4\","
                       "\"type\":1,\"version\":1}";
    long long now = (long long)time(NULL);
    e2e_response r = discord_post(&s, ping, NULL, now);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    cr_expect_eq(json_integer_value(json_object_get(r.json, "type")), 1,
                 "no PONG: %s", r.body);
    e2e_response_free(&r);
    /* Discord's check sends a request whose signature does not hold. */
    r = discord_post(&s, ping, "{\"type\":1}", now);
    cr_expect_eq(r.status, 401, "a tampered ping: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* A request recorded ten minutes ago, replayed. */
    r = discord_post(&s, ping, NULL, now - 600);
    cr_expect_eq(r.status, 401, "a replay: %ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "stale_signature");
    e2e_response_free(&r);
    r = e2e_call(&s, "POST", "/v1/chat/discord/interactions", ping, NULL);
    cr_expect_eq(r.status, 401, "unsigned: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    /* Slack: the wrong secret, and a stale request. */
    char *form = slack_form("U2CERLKJA", "help");
    r = slack_post(&s, "/v1/chat/slack/commands", form, now,
                   "another-apps-secret");
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    r = slack_post(&s, "/v1/chat/slack/commands", form, now - 301,
                   SLACK_SECRET);
    cr_expect_eq(r.status, 401, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "stale_signature");
    e2e_response_free(&r);
    r = slack_post(&s, "/v1/chat/slack/commands", form, now, SLACK_SECRET);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    free(form);
    /* Slack's certificate check: signed, no user, wants a 200. */
    r = slack_post(&s, "/v1/chat/slack/commands", "ssl_check=1&token=x", now,
                   SLACK_SECRET);
    cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    e2e_stop(&s);
}

Test(chat_play, a_code_links_a_chat_user_once_and_unlinked_users_are_told,
     .timeout = 60)
{
    chat_env();
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    discord_user ada = {fresh_user(""), "ada"};
    /* Not linked yet: told how, privately. */
    char *text = discord_say(&t.server, &ada, "view", json_array());
    expect_has(text, "not linked");
    expect_has(text, "/pbem link");
    free(text);
    char *code = link_code(&t.server, &t.players[0]);
    /* Typed as people type it: lower case, without the dash. */
    char typed[16];
    snprintf(typed, sizeof typed, "%.5s %s", code, code + 6);
    for (char *c = typed; *c; c++)
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
    json_t *options = json_pack("[o]", option("code", typed, false));
    text = discord_say(&t.server, &ada, "link", options);
    expect_has(text, "Linked");
    expect_has(text, t.players[0].id);
    free(text);
    /* The code works once: another user cannot take it again. */
    discord_user eve = {fresh_user(""), "eve"};
    options = json_pack("[o]", option("code", code, false));
    text = discord_say(&t.server, &eve, "link", options);
    expect_has(text, "Refused: no such code");
    free(text);
    /* The link is one of the player's grants, to revoke on the page. */
    e2e_response r = e2e_call(&t.server, "GET", "/v1/players/me/delegates",
                              NULL, &t.players[0]);
    cr_assert_eq(r.status, 200);
    const json_t *grant =
        json_array_get(json_object_get(r.json, "delegates"), 0);
    char key_id[48];
    snprintf(key_id, sizeof key_id, "discord:%s", ada.id);
    cr_expect_str_eq(json_string_value(json_object_get(grant, "key_id")),
                     key_id);
    char path[96];
    snprintf(path, sizeof path, "/v1/players/me/delegates/%s",
             json_string_value(json_object_get(grant, "delegate_id")));
    e2e_response_free(&r);
    text = discord_say(&t.server, &ada, "matches", json_array());
    expect_has(text, t.match);
    free(text);
    /* A move, and only a move: the mail door's other commands are the
     * player's own, not a link's. */
    options = json_pack("[o]", option("move", "settings email off", false));
    text = discord_say(&t.server, &ada, "move", options);
    expect_has(text, "Refused: \"settings\" is a command, not a move");
    free(text);
    r = e2e_call(&t.server, "DELETE", path, NULL, &t.players[0]);
    cr_expect_lt(r.status, 300, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    text = discord_say(&t.server, &ada, "matches", json_array());
    expect_has(text, "Refused");
    expect_has(text, "revoked");
    free(text);
    free(code);
    e2e_stop(&t.server);
}

/* The moves seat's player may make now, as the page's view lists them. */
static json_t *legal_texts(const e2e_table *t, int seat)
{
    json_t *view = e2e_get(t, "/view", &t->players[seat]);
    json_t *texts =
        json_incref(json_object_get(json_object_get(view, "legal"), "texts"));
    json_decref(view);
    return texts;
}

/* Discord's autocomplete of the move being typed: its choices' values. */
static json_t *discord_choices(const e2e_table *t, const discord_user *u,
                               const char *typed)
{
    json_t *options = json_pack("[o,o]", option("match", t->match, false),
                                option("move", typed, true));
    json_t *answer = discord(&t->server, u, 4, "move", options);
    cr_assert_eq(json_integer_value(json_object_get(answer, "type")), 8,
                 "not an autocomplete result");
    json_t *values = json_array();
    size_t i;
    const json_t *choice;
    json_array_foreach(
        json_object_get(json_object_get(answer, "data"), "choices"), i, choice)
        json_array_append(values, json_object_get(choice, "value"));
    cr_expect_leq(json_array_size(values), 25);
    json_decref(answer);
    return values;
}

/* Counts the moves made from each chat, checking what they record and
 * that no chat user's id (ids) is in the public log. */
static void expect_moves_recorded(const e2e_table *t, const char *const ids[2],
                                  int *from_discord, int *from_slack)
{
    json_t *events = e2e_all_events(t);
    size_t i;
    const json_t *event;
    *from_discord = *from_slack = 0;
    json_array_foreach(events, i, event)
    {
        const json_t *request =
            json_object_get(json_object_get(event, "data"), "request");
        const char *via = json_string_value(json_object_get(request, "via"));
        /* Mailed moves record their message instead. */
        if (via == NULL || strcmp(via, "email") == 0)
            continue;
        const char *user =
            json_string_value(json_object_get(request, "chat_user"));
        cr_expect(user && strncmp(user, "s_", 2) == 0,
                  "the chat user is not a pseudonym: %s", user);
        cr_expect(
            strncmp(json_string_value(json_object_get(request, "grant")) ?: "",
                    "d_", 2) == 0);
        cr_expect_not_null(json_object_get(request, "command"));
        char *text = json_dumps(event, JSON_COMPACT);
        cr_expect(strstr(text, ids[0]) == NULL && strstr(text, ids[1]) == NULL,
                  "a chat user's id in the public log: %s", text);
        free(text);
        *from_discord += strcmp(via, "discord") == 0;
        *from_slack += strcmp(via, "slack") == 0;
    }
    json_decref(events);
}

static void expect_export_verifies(const e2e_table *t, const e2e_player *admin)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/admin/matches/%s/export", t->match);
    e2e_response r = e2e_call(&t->server, "GET", path, NULL, admin);
    cr_assert_eq(r.status, 200, "export: %ld %s", r.status, r.body);
    export_match *matches = NULL;
    verify_report report;
    int count = export_parse(r.body, strlen(r.body), &matches, &report);
    cr_assert_eq(count, 1, "%s", report.reason);
    export_check(&matches[0], &report);
    cr_expect(report.ok, "the export does not verify: %s", report.reason);
    export_matches_free(matches, count);
    e2e_response_free(&r);
}

/* A relay of the match's notices into a channel of format, at a
 * receiver standing in for the platform's incoming webhook. */
static void relay_to(receiver *channel, const e2e_table *t, const char *format)
{
    const char *args[] = {"--format", format, NULL};
    receiver_start(channel, "chat-receiver.mjs", args);
    char path[96], body[256];
    snprintf(path, sizeof path, "/v1/matches/%s/webhooks", t->match);
    snprintf(body, sizeof body,
             "{\"url\":\"http://127.0.0.1:%d/hook\",\"format\":\"%s\"}",
             channel->port, format);
    e2e_response r = e2e_call(&t->server, "POST", path, body, &t->players[0]);
    cr_assert_eq(r.status, 201, "relay: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

/* The cards of the "Your hand (N cards): …" line of a private view, or
 * "" (malloc'd). */
static char *hand_line(const char *view)
{
    const char *at = strstr(view, "Your hand (");
    const char *colon = at ? strstr(at, "): ") : NULL;
    if (colon == NULL)
        return strdup("");
    colon += 3;
    size_t n = strcspn(colon, "\n");
    char *line = malloc(n + 1);
    memcpy(line, colon, n);
    line[n] = '\0';
    return line;
}

/* Waits (bounded) for the channel's notices and checks each one: valid
 * for the platform, and holding none of the hands seen. */
static void expect_no_hand_in(const receiver *channel, char **hands,
                              int hand_count)
{
    json_t *lines = receiver_wait(channel, 3, 30);
    cr_expect_geq(json_array_size(lines), 3, "the channel got %zu notices",
                  json_array_size(lines));
    size_t i;
    const json_t *line;
    json_array_foreach(lines, i, line)
    {
        const char *body = json_string_value(json_object_get(line, "body"));
        cr_expect(json_is_true(json_object_get(line, "valid")), "%s",
                  json_dumps(json_object_get(line, "problems"), 0));
        cr_expect(strstr(body, "Your hand") == NULL, "%s", body);
        for (int h = 0; h < hand_count; h++)
            cr_expect(strstr(body, hands[h]) == NULL,
                      "a hand (%s) in the channel: %s", hands[h], body);
    }
    json_decref(lines);
}

Test(chat_play, two_linked_chat_users_play_a_whole_match, .timeout = 240)
{
    chat_env();
    notify_server_env();
    e2e_player admin;
    e2e_admin_key(&admin);
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    receiver discord_channel, slack_channel;
    relay_to(&discord_channel, &t, "discord");
    relay_to(&slack_channel, &t, "slack");
    /* Hands seen in private views: their first line of cards, 2 or more. */
    char *hands[64];
    int hand_count = 0;
    discord_user ada = {fresh_user(""), "Ada"};
    const char *bob = fresh_user("U");
    char *code = link_code(&t.server, &t.players[0]);
    char *text = discord_say(&t.server, &ada, "link",
                             json_pack("[o]", option("code", code, false)));
    expect_has(text, "Linked");
    free(text);
    free(code);
    code = link_code(&t.server, &t.players[1]);
    char line[64];
    snprintf(line, sizeof line, "link %s", code);
    text = slack_say(&t.server, bob, line);
    expect_has(text, "Linked");
    free(text);
    free(code);
    /* Each sees their own seat, privately. */
    text = slack_say(&t.server, bob, "view");
    expect_has(text, t.match);
    free(text);

    srand(40);
    int moves = 0;
    for (; moves < 1000; moves++) {
        json_t *match = e2e_get(&t, "", NULL);
        const char *status =
            json_string_value(json_object_get(match, "status"));
        bool over = status && strcmp(status, "finished") == 0;
        int seat = over ? -1 : e2e_first_pending_seat(match);
        json_decref(match);
        if (over)
            break;
        cr_assert(seat == 0 || seat == 1, "nobody to move");
        json_t *texts = legal_texts(&t, seat);
        cr_assert_gt(json_array_size(texts), 0, "seat %d has no move", seat);
        const char *move = json_string_value(
            json_array_get(texts, (size_t)rand() % json_array_size(texts)));
        char *said;
        if (moves % 10 == 0 && hand_count < 64) {
            /* The seat's own view, privately: its hand is there. */
            char *view =
                seat == 0 ? discord_say(&t.server, &ada, "view", json_array())
                          : slack_say(&t.server, bob, "view");
            char *hand = hand_line(view);
            if (strchr(hand, ' ') != NULL)
                hands[hand_count++] = hand;
            else
                free(hand);
            free(view);
        }
        if (seat == 0) {
            /* Ada picks what the autocomplete offers for the first
             * letters she typed. */
            char typed[3];
            snprintf(typed, sizeof typed, "%.2s", move);
            json_t *offered = discord_choices(&t, &ada, typed);
            cr_expect_gt(json_array_size(offered), 0,
                         "nothing offered for \"%s\"", typed);
            json_decref(offered);
            said =
                discord_say(&t.server, &ada, "move",
                            json_pack("[o,o]", option("match", t.match, false),
                                      option("move", move, false)));
        } else {
            snprintf(line, sizeof line, "move %s", move);
            said = slack_say(&t.server, bob, line);
        }
        cr_assert(strstr(said, "Refused") == NULL &&
                      strstr(said, "Not a move") == NULL,
                  "\"%s\" by seat %d: %s", move, seat, said);
        free(said);
        json_decref(texts);
    }
    cr_assert_lt(moves, 1000, "the match did not end");
    int from_discord, from_slack;
    const char *ids[2] = {ada.id, bob};
    expect_moves_recorded(&t, ids, &from_discord, &from_slack);
    cr_expect_gt(from_discord, 0);
    cr_expect_gt(from_slack, 0);
    cr_expect_eq(from_discord + from_slack, moves, "%d + %d of %d moves",
                 from_discord, from_slack, moves);
    expect_export_verifies(&t, &admin);
    cr_expect_gt(hand_count, 2, "hands seen in views: %d", hand_count);
    expect_no_hand_in(&discord_channel, hands, hand_count);
    expect_no_hand_in(&slack_channel, hands, hand_count);
    for (int h = 0; h < hand_count; h++)
        free(hands[h]);
    e2e_stop(&t.server);
    receiver_stop(&discord_channel);
    receiver_stop(&slack_channel);
}

/* A Slack stand-in for the answers to clicks (its address in prefix, 64
 * bytes) and a match of antiquity_quest whose pbemd posts them there. */
static void slack_scene(receiver *slack, e2e_table *t, char *prefix)
{
    chat_env();
    const char *args[] = {"--format", "slack", NULL};
    receiver_start(slack, "chat-receiver.mjs", args);
    snprintf(prefix, 64, "http://127.0.0.1:%d/", slack->port);
    setenv("PBEM_SLACK_RESPONSE_URL", prefix, 1);
    e2e_sit_down(t, "antiquity_quest", 2, NULL);
    unsetenv("PBEM_SLACK_RESPONSE_URL");
}

Test(chat_play, a_slack_click_on_view_my_hand_answers_only_the_clicker,
     .timeout = 60)
{
    receiver slack;
    e2e_table t;
    char prefix[64];
    slack_scene(&slack, &t, prefix);
    const char *bob = fresh_user("U");
    char *code = link_code(&t.server, &t.players[1]);
    char line[64];
    snprintf(line, sizeof line, "link %s", code);
    free(slack_say(&t.server, bob, line));
    free(code);
    /* A click as Slack sends it: block_actions in a form's payload. */
    const char *urls[] = {"actions/T1DC2JH3J/1/x", NULL};
    char url[128];
    snprintf(url, sizeof url, "%s%s", prefix, urls[0]);
    for (int forged = 0; forged < 2; forged++) {
        json_t *payload = json_pack(
            "{s:s,s:{s:s,s:s},s:{s:s},s:s,s:s,s:[{s:s,s:s,s:s,s:s}]}", "type",
            "block_actions", "user", "id", bob, "username", "bob", "team", "id",
            SLACK_TEAM, "trigger_id", next_id(), "response_url",
            forged ? "https://attacker.example/collect" : url, "actions",
            "action_id", "pbem_view", "block_id", "b1", "type", "button",
            "value", t.match);
        char *json = json_dumps(payload, JSON_COMPACT);
        json_decref(payload);
        char *form = calloc(1, 4096);
        put_field(form, 4096, "payload", json);
        free(json);
        e2e_response r = slack_post(&t.server, "/v1/chat/slack/interactions",
                                    form, (long long)time(NULL), SLACK_SECRET);
        free(form);
        if (forged) {
            /* Never called: the service posts only to Slack's hooks. */
            cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
            cr_expect_str_eq(e2e_error_code(&r), "bad_click");
        } else {
            cr_expect_eq(r.status, 200, "%ld %s", r.status, r.body);
        }
        e2e_response_free(&r);
    }
    json_t *lines = receiver_wait(&slack, 1, 10);
    cr_assert_eq(json_array_size(lines), 1, "answers posted: %zu",
                 json_array_size(lines));
    const json_t *posted = json_array_get(lines, 0);
    cr_expect(json_is_true(json_object_get(posted, "valid")), "%s",
              json_dumps(json_object_get(posted, "problems"), 0));
    json_t *body =
        json_loads(json_string_value(json_object_get(posted, "body")), 0, NULL);
    cr_expect_str_eq(json_string_value(json_object_get(body, "response_type")),
                     "ephemeral");
    expect_has(json_string_value(json_object_get(body, "text")), "Your hand");
    json_decref(body);
    json_decref(lines);
    e2e_stop(&t.server);
    receiver_stop(&slack);
}

/* Links u's Discord account to player with a fresh code. */
static void discord_link(const e2e_server *s, const discord_user *u,
                         const e2e_player *player)
{
    char *code = link_code(s, player);
    char *text = discord_say(s, u, "link",
                             json_pack("[o]", option("code", code, false)));
    expect_has(text, "Linked");
    free(text);
    free(code);
}

/* Links Slack user's account to player with a fresh code. */
static void slack_link(const e2e_server *s, const char *user,
                       const e2e_player *player)
{
    char *code = link_code(s, player);
    char line[64];
    snprintf(line, sizeof line, "link %s", code);
    char *text = slack_say(s, user, line);
    expect_has(text, "Linked");
    free(text);
    free(code);
}

Test(chat_play, a_match_is_started_and_joined_from_the_chats, .timeout = 60)
{
    chat_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player ann, ben;
    e2e_register(&s, "Ann", &ann);
    e2e_register(&s, "Ben", &ben);
    discord_user ada = {fresh_user(""), "Ada"};
    const char *bob = fresh_user("U");
    discord_link(&s, &ada, &ann);
    slack_link(&s, bob, &ben);
    char line[96];
    char *text = discord_say(&s, &ada, "new",
                             json_pack("[o,{s:s,s:i,s:i}]",
                                       option("game", "antiquity_quest", false),
                                       "name", "seats", "type", 4, "value", 2));
    expect_has(text, "is open and you have seat 0");
    const char *ref = strstr(text, "m_");
    cr_assert_not_null(ref, "%s", text);
    char match[32];
    snprintf(match, sizeof match, "%.*s", (int)strspn(ref, "m_0123456789"),
             ref);
    free(text);
    snprintf(line, sizeof line, "join %s", match);
    text = slack_say(&s, bob, line);
    expect_has(text, "You have a seat in match");
    free(text);
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    e2e_response r = e2e_call(&s, "GET", path, NULL, NULL);
    cr_expect_str_eq(json_string_value(json_object_get(r.json, "status")),
                     "active", "%s", r.body);
    e2e_response_free(&r);
    e2e_stop(&s);
}

Test(chat_play, an_interaction_sent_twice_moves_once, .timeout = 60)
{
    chat_env();
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    discord_user users[2] = {{fresh_user(""), "Ada"}, {fresh_user(""), "Bob"}};
    discord_link(&t.server, &users[0], &t.players[0]);
    discord_link(&t.server, &users[1], &t.players[1]);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    long long head = json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    json_decref(match);
    cr_assert(seat == 0 || seat == 1);
    json_t *texts = legal_texts(&t, seat);
    json_t *interaction = json_pack(
        "{s:s,s:s,s:s,s:i,s:i,s:{s:{s:s,s:s}},s:{s:s,s:s,s:i,s:[{s:s,s:i,"
        "s:[o,o]}]}}",
        "id", next_id(), "application_id", "1186000000000000000", "token",
        "aW50ZXJhY3Rpb24", "version", 1, "type", 2, "member", "user", "id",
        users[seat].id, "username", users[seat].name, "data", "id",
        "1186000000000000077", "name", "pbem", "type", 1, "options", "name",
        "move", "type", 1, "options",
        option("move", json_string_value(json_array_get(texts, 0)), false),
        option("match", t.match, false));
    char *body = json_dumps(interaction, JSON_COMPACT);
    json_decref(interaction);
    json_decref(texts);
    long long ts = (long long)time(NULL);
    /* Discord, or a proxy, delivering one interaction twice. */
    e2e_response first = discord_post(&t.server, body, NULL, ts);
    e2e_response again = discord_post(&t.server, body, NULL, ts);
    free(body);
    cr_assert_eq(first.status, 200, "%s", first.body);
    cr_assert_eq(again.status, 200, "%s", again.body);
    cr_expect(strstr(again.body, "Refused") == NULL, "%s", again.body);
    match = e2e_get(&t, "", NULL);
    cr_expect_eq(json_integer_value(
                     json_object_get(json_object_get(match, "head"), "seq")),
                 head + 1, "the move was applied %s",
                 json_dumps(json_object_get(match, "head"), 0));
    json_decref(match);
    e2e_response_free(&first);
    e2e_response_free(&again);
    e2e_stop(&t.server);
}

/* A click on the component custom_id (a button; with chosen, the move
 * chosen in a string select) by u, as Discord sends it; its answer,
 * which must be 200. */
static json_t *discord_click(const e2e_server *s, const discord_user *u,
                             const char *custom_id, const char *chosen)
{
    json_t *data = json_pack("{s:s,s:i}", "custom_id", custom_id,
                             "component_type", chosen ? 3 : 2);
    if (chosen != NULL)
        json_object_set_new(data, "values", json_pack("[s]", chosen));
    json_t *interaction = json_pack(
        "{s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:{s:{s:s,s:s}},s:o}", "id", next_id(),
        "application_id", "1186000000000000000", "token", "aW50ZXJhY3Rpb24",
        "version", 1, "type", 3, "guild_id", "290926798626357999", "channel_id",
        "645027906669510667", "member", "user", "id", u->id, "username",
        u->name, "data", data);
    char *body = json_dumps(interaction, JSON_COMPACT);
    json_decref(interaction);
    e2e_response r = discord_post(s, body, NULL, (long long)time(NULL));
    free(body);
    cr_assert_eq(r.status, 200, "click %s: %ld %s", custom_id, r.status,
                 r.body);
    json_t *answer = json_incref(r.json);
    e2e_response_free(&r);
    return answer;
}

Test(chat_play, make_a_move_offers_the_clickers_moves_and_plays_only_its_own,
     .timeout = 60)
{
    chat_env();
    e2e_table t;
    e2e_sit_down(&t, "antiquity_quest", 2, NULL);
    discord_user users[2] = {{fresh_user(""), "Ada"}, {fresh_user(""), "Bob"}};
    discord_user eve = {fresh_user(""), "Eve"};
    discord_link(&t.server, &users[0], &t.players[0]);
    discord_link(&t.server, &users[1], &t.players[1]);
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    cr_assert(seat == 0 || seat == 1);
    long long head = e2e_head_seq(&t);
    char button[64];
    snprintf(button, sizeof button, "pbem:moves:%s", t.match);

    /* Someone with no link is told so, privately; nothing is offered. */
    char *text =
        discord_private_text(discord_click(&t.server, &eve, button, NULL));
    expect_has(text, "Refused");
    free(text);

    /* The seat to move gets its own legal moves, privately, as a select. */
    json_t *answer = discord_click(&t.server, &users[seat], button, NULL);
    cr_assert_eq(json_integer_value(json_object_get(answer, "type")), 4);
    const json_t *data = json_object_get(answer, "data");
    cr_expect_eq(json_integer_value(json_object_get(data, "flags")), 64,
                 "the moves posted to the channel");
    const json_t *select = json_array_get(
        json_object_get(json_array_get(json_object_get(data, "components"), 0),
                        "components"),
        0);
    cr_assert_eq(json_integer_value(json_object_get(select, "type")), 3, "%s",
                 json_dumps(answer, 0));
    char select_id[64];
    snprintf(select_id, sizeof select_id, "pbem:move:%s:%d", t.match, seat);
    cr_expect_str_eq(json_string_value(json_object_get(select, "custom_id")),
                     select_id);
    const json_t *options = json_object_get(select, "options");
    json_t *texts = legal_texts(&t, seat);
    cr_assert_gt(json_array_size(options), 0);
    cr_expect_leq(json_array_size(options), 25);
    size_t i;
    const json_t *o;
    json_array_foreach(options, i, o)
    {
        const char *value = json_string_value(json_object_get(o, "value"));
        bool legal = false;
        for (size_t k = 0; k < json_array_size(texts); k++)
            legal |=
                strcmp(json_string_value(json_array_get(texts, k)), value) == 0;
        cr_expect(legal, "offered \"%s\", not a legal move", value);
    }
    char *chosen = strdup(json_string_value(
        json_object_get(json_array_get(options, 0), "value")));
    json_decref(texts);
    json_decref(answer);

    /* The other seat's player, choosing in this seat's select (a forged
     * or forwarded one), is told it is not theirs; nothing moves. */
    text = discord_private_text(
        discord_click(&t.server, &users[1 - seat], select_id, chosen));
    expect_has(text, "Not your seat");
    free(text);
    cr_expect_eq(e2e_head_seq(&t), head,
                 "a move by the wrong seat was applied");

    /* The seat's own choice is played as /pbem move plays it. */
    text = discord_private_text(
        discord_click(&t.server, &users[seat], select_id, chosen));
    cr_expect(strstr(text, "Refused") == NULL, "%s", text);
    free(text);
    cr_expect_eq(e2e_head_seq(&t), head + 1, "the chosen move was not applied");
    const char *ids[2] = {users[0].id, users[1].id};
    int from_discord, from_slack;
    expect_moves_recorded(&t, ids, &from_discord, &from_slack);
    cr_expect_eq(from_discord, 1);
    free(chosen);

    /* A seat with nothing to do now is not offered anything. */
    match = e2e_get(&t, "", NULL);
    const json_t *pending =
        json_object_get(json_object_get(match, "pending"), "seats");
    bool idle = true;
    json_array_foreach(pending, i, o) idle &= json_integer_value(o) != seat;
    json_decref(match);
    if (idle) {
        text = discord_private_text(
            discord_click(&t.server, &users[seat], button, NULL));
        expect_has(text, "Not your seat");
        free(text);
    }
    e2e_stop(&t.server);
}

/* A click by Slack user on action_id (a button with value, or with
 * chosen a static select's option in block_id), posted as Slack posts
 * it with response_url; the click must be acknowledged with 200. */
static void slack_click(const e2e_server *s, const char *user, const char *url,
                        const char *action_id, const char *block_id,
                        const char *value, const char *chosen)
{
    json_t *action =
        json_pack("{s:s,s:s,s:s}", "action_id", action_id, "block_id", block_id,
                  "type", chosen ? "static_select" : "button");
    if (chosen != NULL)
        json_object_set_new(action, "selected_option",
                            json_pack("{s:{s:s,s:s},s:s}", "text", "type",
                                      "plain_text", "text", chosen, "value",
                                      chosen));
    else
        json_object_set_new(action, "value", json_string(value));
    json_t *payload = json_pack(
        "{s:s,s:{s:s,s:s},s:{s:s},s:s,s:s,s:[o]}", "type", "block_actions",
        "user", "id", user, "username", user, "team", "id", SLACK_TEAM,
        "trigger_id", next_id(), "response_url", url, "actions", action);
    char *json = json_dumps(payload, JSON_COMPACT);
    json_decref(payload);
    char *form = calloc(1, 8192);
    put_field(form, 8192, "payload", json);
    free(json);
    e2e_response r = slack_post(s, "/v1/chat/slack/interactions", form,
                                (long long)time(NULL), SLACK_SECRET);
    free(form);
    cr_assert_eq(r.status, 200, "%s: %ld %s", action_id, r.status, r.body);
    e2e_response_free(&r);
}

/* The index'th answer posted to the Slack receiver (new reference),
 * which must be ephemeral. */
static json_t *slack_answer(const receiver *slack, size_t index)
{
    json_t *lines = receiver_wait(slack, index + 1, 10);
    cr_assert_gt(json_array_size(lines), index, "answer %zu was not posted",
                 index);
    json_t *body = json_loads(json_string_value(json_object_get(
                                  json_array_get(lines, index), "body")),
                              0, NULL);
    json_decref(lines);
    cr_assert_not_null(body);
    cr_expect_str_eq(json_string_value(json_object_get(body, "response_type")),
                     "ephemeral");
    return body;
}

Test(chat_play, a_slack_make_a_move_plays_the_seats_choice_only, .timeout = 60)
{
    receiver slack;
    e2e_table t;
    char prefix[64], url[128];
    slack_scene(&slack, &t, prefix);
    snprintf(url, sizeof url, "%sactions/%s/1/x", prefix, SLACK_TEAM);
    const char *users[2] = {strdup(fresh_user("U")), strdup(fresh_user("U"))};
    for (int s = 0; s < 2; s++) {
        char *code = link_code(&t.server, &t.players[s]);
        char line[64];
        snprintf(line, sizeof line, "link %s", code);
        free(slack_say(&t.server, users[s], line));
        free(code);
    }
    json_t *match = e2e_get(&t, "", NULL);
    int seat = e2e_first_pending_seat(match);
    json_decref(match);
    cr_assert(seat == 0 || seat == 1);
    long long head = e2e_head_seq(&t);

    slack_click(&t.server, users[seat], url, "pbem_moves", "b1", t.match, NULL);
    json_t *offer = slack_answer(&slack, 0);
    const json_t *blocks = json_object_get(offer, "blocks");
    const json_t *actions = json_array_get(blocks, json_array_size(blocks) - 1);
    char block_id[64];
    snprintf(block_id, sizeof block_id, "pbem_move:%s:%d", t.match, seat);
    cr_expect_str_eq(json_string_value(json_object_get(actions, "block_id")),
                     block_id);
    const json_t *select =
        json_array_get(json_object_get(actions, "elements"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(select, "type")),
                     "static_select");
    const json_t *options = json_object_get(select, "options");
    cr_assert_gt(json_array_size(options), 0);
    cr_expect_leq(json_array_size(options), 100);
    char *chosen = strdup(json_string_value(
        json_object_get(json_array_get(options, 0), "value")));
    json_decref(offer);

    /* The other seat's choice in this select is refused. */
    slack_click(&t.server, users[1 - seat], url, "pbem_move", block_id, NULL,
                chosen);
    json_t *answer = slack_answer(&slack, 1);
    expect_has(json_string_value(json_object_get(answer, "text")),
               "Not your seat");
    json_decref(answer);
    cr_expect_eq(e2e_head_seq(&t), head,
                 "a move by the wrong seat was applied");

    slack_click(&t.server, users[seat], url, "pbem_move", block_id, NULL,
                chosen);
    answer = slack_answer(&slack, 2);
    cr_expect(strstr(json_string_value(json_object_get(answer, "text")),
                     "Refused") == NULL,
              "%s", json_string_value(json_object_get(answer, "text")));
    json_decref(answer);
    cr_expect_eq(e2e_head_seq(&t), head + 1, "the chosen move was not applied");
    int from_discord, from_slack;
    expect_moves_recorded(&t, users, &from_discord, &from_slack);
    cr_expect_eq(from_slack, 1);
    free(chosen);
    free((char *)users[0]);
    free((char *)users[1]);
    e2e_stop(&t.server);
    receiver_stop(&slack);
}

/* The seat t's match waits for (-1: none can act now, sealed choices
 * being revealed); false once it is no longer active. */
static bool waiting_seat(const e2e_table *t, int *seat)
{
    json_t *match = e2e_get(t, "", NULL);
    const char *status = json_string_value(json_object_get(match, "status"));
    bool going = status != NULL && strcmp(status, "active") == 0;
    *seat = going ? e2e_first_pending_seat(match) : -1;
    json_decref(match);
    return going;
}

/* The value of a random one of a select's options, of which there must
 * be some (offer: the message, for the failure). */
static const char *any_option(const json_t *options, const json_t *offer)
{
    cr_assert_gt(json_array_size(options), 0, "nothing offered: %s",
                 json_dumps(offer, 0));
    return json_string_value(json_object_get(
        json_array_get(options, (size_t)rand() % json_array_size(options)),
        "value"));
}

/* u plays a move of their seat from the turn notice's "Make a move": a
 * random one of the select's options. */
static void discord_plays(const e2e_table *t, const discord_user *u, int seat)
{
    char button[64], select_id[64];
    snprintf(button, sizeof button, "pbem:moves:%s", t->match);
    snprintf(select_id, sizeof select_id, "pbem:move:%s:%d", t->match, seat);
    json_t *offer = discord_click(&t->server, u, button, NULL);
    const json_t *data = json_object_get(offer, "data");
    cr_assert_eq(json_integer_value(json_object_get(data, "flags")), 64);
    const json_t *options = json_object_get(
        json_array_get(
            json_object_get(
                json_array_get(json_object_get(data, "components"), 0),
                "components"),
            0),
        "options");
    const char *move = any_option(options, offer);
    char *said =
        discord_private_text(discord_click(&t->server, u, select_id, move));
    cr_assert(strstr(said, "Refused") == NULL, "\"%s\": %s", move, said);
    free(said);
    json_decref(offer);
}

/* The same from Slack, the answers posted to slack (*posted read so far). */
static void slack_plays(const e2e_table *t, const char *user,
                        const receiver *slack, const char *prefix,
                        size_t *posted, int seat)
{
    char url[128], block_id[64];
    snprintf(url, sizeof url, "%sactions/%s/1/x", prefix, SLACK_TEAM);
    snprintf(block_id, sizeof block_id, "pbem_move:%s:%d", t->match, seat);
    slack_click(&t->server, user, url, "pbem_moves", "b1", t->match, NULL);
    json_t *offer = slack_answer(slack, (*posted)++);
    const json_t *blocks = json_object_get(offer, "blocks");
    const json_t *options = json_object_get(
        json_array_get(
            json_object_get(json_array_get(blocks, json_array_size(blocks) - 1),
                            "elements"),
            0),
        "options");
    const char *move = any_option(options, offer);
    slack_click(&t->server, user, url, "pbem_move", block_id, NULL, move);
    json_t *answer = slack_answer(slack, (*posted)++);
    const char *said = json_string_value(json_object_get(answer, "text"));
    cr_assert(strstr(said, "Refused") == NULL, "\"%s\": %s", move, said);
    json_decref(answer);
    json_decref(offer);
}

/* Person p of a mail table asks for a chat link code by mail. */
static void mailed_code(mail_table *m, int p, char code[16])
{
    json_t *answer = mail_table_answer(m, p, "chat");
    const char *at = strstr(mail_text(answer), "/pbem link ");
    cr_assert_not_null(at, "no code in: %s", mail_text(answer));
    snprintf(code, 16, "%.11s", at + strlen("/pbem link "));
    json_decref(answer);
}

/* The whole match by three doors at once: everyone starts by mail (how a
 * mail player's friends are invited), two ask for a chat link code by
 * mail and move from then on with the turn notice's "Make a move" in
 * Discord and in Slack, the third keeps answering mail. Every answer to
 * a chat user is private (checked by discord_private_text and
 * slack_answer), and each move is recorded with the door it came
 * through. */
Test(chat_play, two_chat_users_and_a_mail_player_play_one_match, .timeout = 120)
{
    srand(41);
    chat_env();
    receiver slack;
    const char *args[] = {"--format", "slack", NULL};
    receiver_start(&slack, "chat-receiver.mjs", args);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "http://127.0.0.1:%d/", slack.port);
    setenv("PBEM_SLACK_RESPONSE_URL", prefix, 1);
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=100000",
                                      NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    unsetenv("PBEM_SLACK_RESPONSE_URL");
    mail_table m;
    mail_table_sit_down(&m, &scene, "antiquity_quest", 3, "");
    e2e_table t = {.server = scene.server, .seats = 3};
    snprintf(t.match, sizeof t.match, "%s", m.match);

    /* Seat 1 plays from Discord, seat 2 from Slack, seat 0 by mail. */
    discord_user ada = {fresh_user(""), "Ada"};
    char bob[32], code[16], line[64];
    snprintf(bob, sizeof bob, "%s", fresh_user("U"));
    mailed_code(&m, 1, code);
    char *text = discord_say(&t.server, &ada, "link",
                             json_pack("[o]", option("code", code, false)));
    expect_has(text, "Linked");
    free(text);
    mailed_code(&m, 2, code);
    snprintf(line, sizeof line, "link %s", code);
    text = slack_say(&t.server, bob, line);
    expect_has(text, "Linked");
    free(text);

    size_t posted = 0;
    int by_door[3] = {0}, seat;
    for (int turns = 0; waiting_seat(&t, &seat); turns++) {
        cr_assert_lt(turns, 3000, "no end after %d turns", turns);
        if (seat == 1) {
            discord_plays(&t, &ada, seat);
        } else if (seat == 2) {
            slack_plays(&t, bob, &slack, prefix, &posted, seat);
        } else if (seat == 0) {
            mail_table_wait(&m, 0);
            json_t *moves = mail_offered_moves(m.people[0].latest);
            if (json_array_size(moves) == 0) {
                /* The latest mail answered the last move: a fresh view
                 * lists the moves, as a person would ask for it. */
                json_decref(mail_table_answer(&m, 0, "view"));
                json_decref(moves);
                continue;
            }
            const char *move = json_string_value(
                json_array_get(moves, (size_t)rand() % json_array_size(moves)));
            json_t *answer = mail_table_answer(&m, 0, move);
            cr_assert(strstr(mail_text(answer), "Refused:") == NULL, "%s",
                      mail_text(answer));
            json_decref(answer);
            json_decref(moves);
        }
        if (seat >= 0)
            by_door[seat]++;
    }
    const char *ids[2] = {ada.id, bob};
    int from_discord, from_slack;
    expect_moves_recorded(&t, ids, &from_discord, &from_slack);
    cr_expect_eq(from_discord, by_door[1]);
    cr_expect_eq(from_slack, by_door[2]);
    cr_expect(by_door[0] > 0 && by_door[1] > 0 && by_door[2] > 0,
              "a door was not used: mail %d, Discord %d, Slack %d", by_door[0],
              by_door[1], by_door[2]);
    json_t *events = e2e_all_events(&t);
    int by_mail = 0;
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event)
    {
        const char *via = json_string_value(json_object_get(
            json_object_get(json_object_get(event, "data"), "request"), "via"));
        by_mail += via != NULL && strcmp(via, "email") == 0;
    }
    json_decref(events);
    cr_expect_eq(by_mail, by_door[0], "moves recorded as mailed");
    mail_table_free(&m);
    mail_scene_stop(&scene);
    receiver_stop(&slack);
}

/* The first line of r whose body holds needle, waiting 20 s at most for
 * it; NULL when none came. Borrowed. */
static const json_t *delivered(const receiver *r, const char *needle)
{
    double until = receiver_now() + 20;
    for (size_t i = 0;; i++) {
        const json_t *line = receiver_await(r, i, until);
        if (line == NULL)
            return NULL;
        const char *body = json_string_value(json_object_get(line, "body"));
        if (body != NULL && strstr(body, needle) != NULL)
            return line;
    }
}

/* Quick match from the chats: a Discord user and a Slack user, strangers,
 * list what waits, seek, and meet; the one who waited hears of it by her
 * player's usual channel (here her webhook), as any seeker does. */
Test(chat_play, strangers_find_each_other_from_discord_and_slack, .timeout = 60)
{
    chat_env();
    receiver hook;
    e2e_server s = {0};
    e2e_player ann, ben;
    notify_scene(&hook, NULL, &s, &ann, &ben);
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook.port);
    receiver_add_secret(&hook, register_webhook(&s, &ann, NULL, url));
    discord_user ada = {fresh_user(""), "Ada"};
    const char *bob = fresh_user("U");
    discord_link(&s, &ada, &ann);
    slack_link(&s, bob, &ben);

    /* Nothing waits yet; the list says how to wait for a match. */
    char *text = discord_say(&s, &ada, "list", json_array());
    expect_has(text, "No open match is waiting");
    expect_has(text, "/pbem seek GAME");
    free(text);
    text = discord_say(&s, &ada, "seek",
                       json_pack("[o,{s:s,s:i,s:i},o]",
                                 option("game", "antiquity_quest", false),
                                 "name", "seats", "type", 4, "value", 2,
                                 option("turn", "1d", false)));
    expect_has(text, "You wait for a quick match (seek s_");
    expect_has(text, "2 players, 24 h turns");
    free(text);
    /* Bob sees a seek waiting, naming nobody, and answers it. */
    text = slack_say(&s, bob, "list antiquity_quest");
    expect_has(text, "/pbem seek antiquity_quest seats=2 turn=24h");
    cr_expect(strstr(text, ben.name) == NULL && strstr(text, "Ann") == NULL,
              "a seeker named: %s", text);
    free(text);
    text = slack_say(&s, bob, "seek antiquity_quest seats=2 turn=24h");
    expect_has(text, "found its players: match m_");
    const char *at = strstr(text, "match m_");
    cr_assert_not_null(at, "%s", text);
    char match[32];
    snprintf(match, sizeof match, "%.*s", (int)strspn(at + 6, "m_0123456789"),
             at + 6);
    free(text);
    /* Ada waited: her player's webhook tells her, and her matches list
     * it. */
    const json_t *found = delivered(&hook, "\"match.found\"");
    cr_assert_not_null(found, "no match.found for Ann's webhook");
    cr_expect(strstr(json_string_value(json_object_get(found, "body")),
                     match) != NULL,
              "%s", json_string_value(json_object_get(found, "body")));
    text = discord_say(&s, &ada, "matches", json_array());
    expect_has(text, match);
    free(text);

    /* A seek withdrawn: by its id, or every one; nobody else's. */
    text = slack_say(&s, bob, "seek antiquity_quest seats=3");
    expect_has(text, "You wait for a quick match");
    const char *id = strstr(text, "s_");
    cr_assert_not_null(id);
    char seek_ref[32];
    snprintf(seek_ref, sizeof seek_ref, "%.*s", (int)strspn(id, "s_0123456789"),
             id);
    free(text);
    text = discord_say(&s, &ada, "unseek",
                       json_pack("[o]", option("seek", seek_ref, false)));
    expect_has(text, "Refused: you have no seek");
    free(text);
    text = slack_say(&s, bob, "unseek");
    expect_has(text, "Withdrawn: you no longer wait");
    free(text);
    text = slack_say(&s, bob, "unseek");
    expect_has(text, "You had no seek waiting");
    free(text);
    text = slack_say(&s, bob, "seek chess seats=2");
    expect_has(text, "Refused: write \"seek GAME seats=N turn=1d\"");
    free(text);

    /* An open match Bob starts is listed to join. */
    text = slack_say(&s, bob, "new artifact_stack seats=2 open=yes");
    expect_has(text, "is open and you have seat 0");
    at = strstr(text, "m_");
    cr_assert_not_null(at, "%s", text);
    char open_ref[32];
    snprintf(open_ref, sizeof open_ref, "%.*s", (int)strspn(at, "m_0123456789"),
             at);
    free(text);
    text =
        discord_say(&s, &ada, "list",
                    json_pack("[o]", option("game", "artifact_stack", false)));
    expect_has(text, open_ref);
    expect_has(text, "1 of 2 seats taken");
    expect_has(text, "/pbem join m_1234 takes a seat");
    free(text);
    stop_server(&s);
    receiver_stop(&hook);
}
