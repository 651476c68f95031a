/* Match relays in a chat channel: webhooks registered with "format":
 * "slack" or "discord" deliver the body that service's incoming webhooks
 * accept, checked by tests/node/chat-receiver.mjs against the documented
 * shape. What a group reading the channel would check: whose turn it is,
 * the last move, a link to the match, and players' names shown as
 * written, never as markup or a mention. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/chat_formats.h"
#include "../../support/notify_scene.h"

#define PUBLIC_URL "https://pbem.example.org"

/* A server with a relay of format at the chat receiver, in a match
 * between a (named a_name) and b; the match has started. */
static void chat_scene(receiver *chat, const char *format, e2e_table *t,
                       const char *a_name, const char *b_name)
{
    notify_server_env();
    setenv("PBEM_PUBLIC_URL", PUBLIC_URL, 1);
    const char *args[] = {"--format", format, NULL};
    receiver_start(chat, "chat-receiver.mjs", args);
    memset(t, 0, sizeof *t);
    e2e_start(&t->server);
    e2e_register(&t->server, a_name, &t->players[0]);
    e2e_register(&t->server, b_name, &t->players[1]);
    t->seats = 2;
    e2e_response r = e2e_call(&t->server, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}",
                              &t->players[0]);
    cr_assert_eq(r.status, 201, "create: %ld %s", r.status, r.body);
    snprintf(t->match, sizeof t->match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96], body[256];
    snprintf(path, sizeof path, "/v1/matches/%s/webhooks", t->match);
    snprintf(body, sizeof body,
             "{\"url\":\"http://127.0.0.1:%d/services/T0/B0/x\","
             "\"format\":\"%s\"}",
             chat->port, format);
    r = e2e_call(&t->server, "POST", path, body, &t->players[0]);
    cr_assert_eq(r.status, 201, "register: %ld %s", r.status, r.body);
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(r.json, "webhook"), "format")),
                     format);
    e2e_response_free(&r);
    snprintf(path, sizeof path, "/v1/matches/%s/join", t->match);
    r = e2e_call(&t->server, "POST", path, "{}", &t->players[1]);
    cr_assert_eq(r.status, 200, "join: %ld %s", r.status, r.body);
    e2e_response_free(&r);
}

/* Delivery i (0-based) as the receiver judged it: it must be valid; its
 * body's member (text or content) is returned (malloc'd). */
static char *delivered(const receiver *chat, size_t i, const char *member)
{
    json_t *lines = receiver_wait(chat, i + 1, 20);
    cr_assert_gt(json_array_size(lines), i, "only %zu deliveries",
                 json_array_size(lines));
    json_t *line = json_array_get(lines, i);
    json_t *problems = json_object_get(line, "problems");
    char *listed = json_dumps(problems, JSON_COMPACT);
    cr_expect(json_is_true(json_object_get(line, "valid")),
              "the receiver refuses the body: %s", listed);
    free(listed);
    cr_expect(json_object_get(line, "webhook-signature") == NULL,
              "a chat delivery carries Standard Webhooks headers");
    json_t *body = json_loads(
        json_string_value(json_object_get(line, "body")), 0, NULL);
    cr_assert_not_null(body);
    /* "embed.url": a member of the first of Discord's embeds. */
    const json_t *holder = body;
    if (strncmp(member, "embed.", 6) == 0) {
        holder = json_array_get(json_object_get(body, "embeds"), 0);
        member += 6;
    }
    const char *value = json_string_value(json_object_get(holder, member));
    cr_assert_not_null(value, "no %s in the body", member);
    char *copy = strdup(value);
    json_decref(body);
    json_decref(lines);
    return copy;
}

/* Plays the seat that must act until another must (a relay is told only
 * then); returns that seat. */
static int play_until_the_turn_passes(e2e_table *t)
{
    json_t *match = e2e_get(t, "", NULL);
    int mover = e2e_first_pending_seat(match);
    json_decref(match);
    for (int moves = 0; moves < 20; moves++) {
        cr_assert(e2e_play_one(t));
        match = e2e_get(t, "", NULL);
        int next = e2e_first_pending_seat(match);
        json_decref(match);
        if (next != mover)
            return mover;
    }
    cr_assert_fail("seat %d still has to act after 20 moves", mover);
    return mover;
}

static void expect_has(const char *text, const char *part)
{
    cr_expect(strstr(text, part) != NULL, "\"%s\" is not in:\n%s", part,
              text);
}

Test(chat_formats, a_slack_channel_reads_whose_turn_and_the_last_move,
     .timeout = 90)
{
    receiver chat;
    e2e_table t;
    chat_scene(&chat, "slack", &t, "Ann & <!channel>", "Bo");
    char *text = delivered(&chat, 0, "text");
    char link[160];
    snprintf(link, sizeof link, "<%s/matches/%s|%s>", PUBLIC_URL, t.match,
             t.match);
    expect_has(text, link);
    expect_has(text, "Waiting for *");
    /* Ann's name is text, not a mention of the whole channel. */
    cr_expect(strstr(text, "<!channel>") == NULL, "a raw mention: %s", text);
    free(text);

    /* Moves until another seat must act: that notice says who made the
     * last move and what it was. */
    int mover = play_until_the_turn_passes(&t);
    json_t *events = e2e_all_events(&t);
    json_t *last = json_array_get(events, json_array_size(events) - 1);
    const char *move_text = json_string_value(
        json_object_get(json_object_get(last, "data"), "text"));
    cr_assert_not_null(move_text);
    text = delivered(&chat, 1, "text");
    char line[256];
    snprintf(line, sizeof line, "Last move: %s: %s",
             mover == 0 ? "Ann &amp; &lt;!channel&gt;" : "Bo", move_text);
    expect_has(text, line);
    free(text);
    json_decref(events);
    stop_server(&t.server);
    receiver_stop(&chat);
}

Test(chat_formats, a_discord_channel_is_never_pinged_by_a_name,
     .timeout = 90)
{
    receiver chat;
    e2e_table t;
    chat_scene(&chat, "discord", &t, "@everyone", "**Bo**");
    char *content = delivered(&chat, 0, "content");
    char link[160];
    snprintf(link, sizeof link, "%s/matches/%s", PUBLIC_URL, t.match);
    char *url = delivered(&chat, 0, "embed.url");
    cr_expect_str_eq(url, link);
    free(url);
    expect_has(content, "Waiting for **");
    /* The names as written, neither a mention nor bold markup. */
    cr_expect(strstr(content, "@everyone") == NULL, "a mention: %s",
              content);
    free(content);
    play_until_the_turn_passes(&t);
    content = delivered(&chat, 1, "embed.description");
    expect_has(content, "Last move: ");
    free(content);
    stop_server(&t.server);
    receiver_stop(&chat);
}

Test(chat_formats, an_unknown_format_is_refused_with_the_ones_there_are,
     .timeout = 60)
{
    notify_server_env();
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player a;
    e2e_register(&s, "Ann", &a);
    e2e_response r = e2e_call(&s, "POST", "/v1/players/me/webhooks",
                              "{\"url\":\"https://chat.example.org/h\","
                              "\"format\":\"teams\"}",
                              &a);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect_str_eq(e2e_error_code(&r), "bad_format");
    e2e_response_free(&r);
    r = e2e_call(&s, "POST", "/v1/players/me/webhooks",
                 "{\"url\":\"https://chat.example.org/h\"}", &a);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(json_string_value(json_object_get(
                         json_object_get(r.json, "webhook"), "format")),
                     "standard", "the default is Standard Webhooks");
    e2e_response_free(&r);
    stop_server(&s);
}

/* The UTF-8 characters of s. */
static size_t characters(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

Test(chat_formats, a_long_discord_message_is_cut_to_2000_characters)
{
    /* A prompt of 3000 "é" (two bytes each), ending in markup. */
    char *prompt = malloc(3000 * 2 + 1);
    cr_assert_not_null(prompt);
    for (int i = 0; i < 3000; i++)
        memcpy(prompt + 2 * i, "\xc3\xa9", 2);
    prompt[6000] = '\0';
    json_t *payload = json_pack(
        "{s:s,s:s,s:s,s:[s,s],s:[i],s:s}", "type", "match.your_turn",
        "match", "m_7", "game_title", "Artifact Stack", "players", "A", "B",
        "seats", 1, "prompt", prompt);
    char *body = chat_body(CHAT_DISCORD, payload, "A: draw",
                           "https://pbem.example.org/matches/m_7");
    json_t *parsed = json_loads(body, 0, NULL);
    cr_assert_not_null(parsed, "not JSON (a cut in a character?): %s", body);
    const char *content =
        json_string_value(json_object_get(parsed, "content"));
    cr_assert_not_null(content);
    cr_expect_eq(characters(content), CHAT_DISCORD_MAX);
    cr_expect(strstr(content, "Waiting for **B** to ") != NULL);
    const char *end = content + strlen(content) - 3;
    cr_expect_eq(memcmp(end, "\xe2\x80\xa6", 3), 0, "no ellipsis at the cut");
    json_decref(parsed);
    free(body);

    /* Slack has no such limit, and escapes only &, < and >. */
    body = chat_body(CHAT_SLACK, payload, "A: <b> & *c*", "https://x.org/m");
    parsed = json_loads(body, 0, NULL);
    const char *text = json_string_value(json_object_get(parsed, "text"));
    cr_expect(strstr(text, "Last move: A: &lt;b&gt; &amp; *c*") != NULL,
              "%s", text);
    json_decref(parsed);
    free(body);
    json_decref(payload);
    free(prompt);
}

Test(chat_formats, an_aborted_match_says_so_with_the_admins_reason)
{
    json_t *payload = json_pack(
        "{s:s,s:s,s:s,s:[s,s],s:[],s:s}", "type", "match.aborted", "match",
        "m_9", "game_title", "Artifact Stack", "players", "A", "B", "seats",
        "reason", "cheating <@123>");
    char *body = chat_body(CHAT_DISCORD, payload, NULL,
                           "https://pbem.example.org/matches/m_9");
    json_t *parsed = json_loads(body, 0, NULL);
    const char *content =
        json_string_value(json_object_get(parsed, "content"));
    cr_assert_not_null(content);
    cr_expect(strstr(content, "The match was aborted by an admin: cheating "
                              "\\<@\xe2\x80\x8b" "123\\>.") != NULL,
              "%s", content);
    cr_expect(strstr(content, "Last move") == NULL, "%s", content);
    json_decref(parsed);
    free(body);
    json_decref(payload);
}
