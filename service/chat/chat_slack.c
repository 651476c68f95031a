/* chat_slack.c: see chat_slack.h. */
#include "chat/chat_slack.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chat/chat_door.h"
#include "core/config.h"
#include "core/log.h"
#include "notify/chat_formats.h"

/* Slack waits 3 seconds for the acknowledgement of a click. */
#define RESPONSE_TIMEOUT_MS 2000

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The value of field name in a form body, decoded (malloc'd), or NULL. */
static char *form_value(const char *body, size_t len, const char *name)
{
    size_t name_len = strlen(name);
    const char *end = body + len;
    for (const char *at = body; at < end;) {
        const char *amp = memchr(at, '&', (size_t)(end - at));
        const char *field_end = amp ? amp : end;
        if ((size_t)(field_end - at) > name_len &&
            memcmp(at, name, name_len) == 0 && at[name_len] == '=') {
            const char *v = at + name_len + 1;
            char *out = malloc((size_t)(field_end - v) + 1);
            if (out == NULL)
                abort();
            size_t n = 0;
            for (; v < field_end; v++) {
                if (*v == '+') {
                    out[n++] = ' ';
                } else if (*v == '%' && field_end - v >= 3 &&
                           hex_digit(v[1]) >= 0 && hex_digit(v[2]) >= 0) {
                    out[n++] = (char)(hex_digit(v[1]) * 16 + hex_digit(v[2]));
                    v += 2;
                } else {
                    out[n++] = *v;
                }
            }
            out[n] = '\0';
            /* A NUL written as %00 would cut the value short unseen. */
            if (strlen(out) != n) {
                free(out);
                return NULL;
            }
            return out;
        }
        at = field_end + 1;
    }
    return NULL;
}

/* Slack's mrkdwn reads &, < and > as markup; in a code block too. */
static void put_escaped(FILE *out, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '&')
            fputs("&amp;", out);
        else if (text[i] == '<')
            fputs("&lt;", out);
        else if (text[i] == '>')
            fputs("&gt;", out);
        else if (text[i] == '`')
            fputs("\xe2\x80\xb2", out);
        else
            fputc(text[i], out);
    }
}

/* The length of the longest start of text, ending at a line's end where
 * it can, that escapes to at most budget characters. */
static size_t piece(const char *text, size_t budget)
{
    size_t chars = 0, at = 0, last_line = 0;
    while (text[at] != '\0') {
        unsigned char c = (unsigned char)text[at];
        size_t cost = c == '&' ? 5 : c == '<' || c == '>' ? 4 : 1;
        if ((c & 0xc0) == 0x80)
            cost = 0;
        if (chars + cost > budget)
            break;
        chars += cost;
        at++;
        if (c == '\n')
            last_line = at;
    }
    /* Not in the middle of a character. */
    while (at > 0 && text[at] != '\0' &&
           ((unsigned char)text[at] & 0xc0) == 0x80)
        at--;
    return text[at] != '\0' && last_line > 0 ? last_line : at;
}

json_t *chat_slack_message(const char *title, const char *text)
{
    if (text[0] == '\0')
        text = "(nothing to show)";
    json_t *blocks = json_array();
    char *heading = chat_fit(title, 150);
    json_array_append_new(blocks, json_pack("{s:s,s:{s:s,s:s}}", "type",
                                            "header", "text", "type",
                                            "plain_text", "text", heading));
    free(heading);
    /* Each section is a code block: 6 characters of fences. */
    const char *at = text;
    while (*at != '\0' && json_array_size(blocks) < CHAT_SLACK_BLOCKS_MAX) {
        size_t n = piece(at, CHAT_SLACK_TEXT_MAX - 6);
        bool last = json_array_size(blocks) + 1 == CHAT_SLACK_BLOCKS_MAX;
        char *section = NULL;
        size_t section_len = 0;
        FILE *out = open_memstream(&section, &section_len);
        if (out == NULL)
            abort();
        fputs("```", out);
        put_escaped(out, at, n);
        fputs("```", out);
        fclose(out);
        at += n;
        if (last && *at != '\0') {
            /* The rest does not fit: say so in the last block. */
            free(section);
            section = strdup("(cut here: the rest is longer than Slack "
                             "shows; /pbem view on the page shows it all)");
        }
        json_array_append_new(blocks, json_pack("{s:s,s:{s:s,s:s}}", "type",
                                                "section", "text", "type",
                                                "mrkdwn", "text", section));
        free(section);
    }
    /* The fallback is mrkdwn too: escaped, so a name cannot mention. */
    char *escaped = NULL;
    size_t escaped_len = 0;
    FILE *out = open_memstream(&escaped, &escaped_len);
    if (out == NULL)
        abort();
    size_t kept = piece(text, CHAT_SLACK_TEXT_MAX - 1);
    put_escaped(out, text, kept);
    if (text[kept] != '\0')
        fputs("\xe2\x80\xa6", out);
    fclose(out);
    char *fallback = escaped;
    json_t *message = json_pack("{s:s,s:s,s:o}", "response_type", "ephemeral",
                                "text", fallback, "blocks", blocks);
    free(fallback);
    if (message == NULL)
        abort();
    return message;
}

static bool user_of(chat_user *user, const char *team, const char *id,
                    const char *name, const char *interaction)
{
    if (!chat_door_user(user, "slack", team, id, name) || interaction == NULL ||
        interaction[0] == '\0')
        return false;
    snprintf(user->interaction, sizeof user->interaction, "%s", interaction);
    return true;
}

/* Slack writes &, < and > in a command's text as &amp;, &lt; and &gt;:
 * back to what the user typed, in place. */
static void unescape(char *text)
{
    static const struct {
        const char *escape;
        char c;
    } escapes[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}};
    char *out = text;
    for (const char *in = text; *in != '\0';) {
        size_t i = 0;
        while (i < 3 &&
               strncmp(in, escapes[i].escape, strlen(escapes[i].escape)) != 0)
            i++;
        if (i < 3) {
            *out++ = escapes[i].c;
            in += strlen(escapes[i].escape);
        } else {
            *out++ = *in++;
        }
    }
    *out = '\0';
}

json_t *chat_slack_command(const char *body, size_t body_len, apierr *err)
{
    /* Slack checks the certificate now and then with ssl_check=1 and no
     * user: a 200 is all it wants. */
    char *ssl_check = form_value(body, body_len, "ssl_check");
    bool checking = ssl_check != NULL && strcmp(ssl_check, "1") == 0;
    free(ssl_check);
    if (checking)
        return json_object();
    char *team = form_value(body, body_len, "team_id");
    char *id = form_value(body, body_len, "user_id");
    char *name = form_value(body, body_len, "user_name");
    char *text = form_value(body, body_len, "text");
    char *trigger = form_value(body, body_len, "trigger_id");
    json_t *answer = NULL;
    chat_user user;
    if (!user_of(&user, team, id, name, trigger)) {
        apierr_set(err, 400, "bad_command",
                   "the body is not a Slack slash command (team_id, "
                   "user_id and trigger_id)");
        goto done;
    }
    /* "/pbem move m_12 play B5": the first word is the command. */
    if (text != NULL)
        unescape(text);
    const char *at = text ? text : "";
    while (isspace((unsigned char)*at))
        at++;
    char verb[32];
    size_t n = 0;
    while (at[n] != '\0' && !isspace((unsigned char)at[n]) && n < 31)
        n++;
    snprintf(verb, sizeof verb, "%.*s", (int)n, at);
    at += n;
    while (isspace((unsigned char)*at))
        at++;
    answer = chat_door_answer(&user, verb[0] ? verb : "help", at,
                              chat_slack_message, err);
done:
    free(team);
    free(id);
    free(name);
    free(text);
    free(trigger);
    return answer;
}

static size_t ignore(char *data, size_t size, size_t count, void *ctx)
{
    (void)data;
    (void)ctx;
    return size * count;
}

/* Posts message to url; a failure is logged: the click then shows
 * nothing, and the user can type the command. */
static void post_response(const char *url, const json_t *message)
{
    char *body = json_dumps(message, JSON_COMPACT);
    CURL *curl = curl_easy_init();
    if (body == NULL || curl == NULL)
        abort();
    struct curl_slist *headers =
        curl_slist_append(NULL, "Content-Type: application/json");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)RESPONSE_TIMEOUT_MS);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ignore);
    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    if (code != CURLE_OK || status < 200 || status > 299)
        log_warn("slack: the answer to a click was not taken: %s, status "
                 "%ld",
                 curl_easy_strerror(code), status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    free(body);
}

/* Slack's static select: at most 100 options, each a plain text of at
 * most 75 characters and a value of at most 150. */
#define SELECT_OPTIONS_MAX 100
#define SELECT_TEXT_MAX 75

/* The private message offering user's moves in match as a static select
 * whose block_id names the match and the seat ("pbem_move:m_12:1"), or
 * saying why there is none. */
static json_t *offer_moves(const chat_user *user, const char *match)
{
    chat_reply reply;
    int seat = -1;
    json_t *moves = chat_door_turn(user, match, SELECT_OPTIONS_MAX,
                                   SELECT_TEXT_MAX, &seat, &reply);
    if (moves == NULL) {
        json_t *answer = chat_slack_message("pbem", reply.text);
        chat_door_reply_free(&reply);
        return answer;
    }
    json_t *options = json_array();
    size_t i;
    const json_t *move;
    json_array_foreach(moves, i, move)
    {
        const char *text = json_string_value(move);
        json_array_append_new(options, json_pack("{s:{s:s,s:s},s:s}", "text",
                                                 "type", "plain_text", "text",
                                                 text, "value", text));
    }
    json_decref(moves);
    char block[64];
    snprintf(block, sizeof block, "pbem_move:%s:%d", reply.match, seat);
    json_t *answer = chat_slack_message("Make a move", reply.text);
    chat_door_reply_free(&reply);
    json_array_append_new(
        json_object_get(answer, "blocks"),
        json_pack("{s:s,s:s,s:[{s:s,s:s,s:{s:s,s:s},s:o}]}", "type", "actions",
                  "block_id", block, "elements", "type", "static_select",
                  "action_id", "pbem_move", "placeholder", "type", "plain_text",
                  "text", "Your move", "options", options));
    return answer;
}

/* The answer to a click on one of pbem's: a turn notice's buttons
 * (pbem_view, pbem_moves; value the match) or a move chosen in
 * offer_moves's select; NULL when it is none of these (or err is
 * filled). */
static json_t *click_answer(const chat_user *user, const json_t *action,
                            apierr *err)
{
    const char *action_id =
        json_string_value(json_object_get(action, "action_id"));
    const char *value = json_string_value(json_object_get(action, "value"));
    if (action_id == NULL)
        return NULL;
    if (strcmp(action_id, "pbem_view") == 0 && value != NULL)
        return chat_door_answer(user, "view", value, chat_slack_message, err);
    if (strcmp(action_id, "pbem_moves") == 0 && value != NULL)
        return offer_moves(user, value);
    const char *block = json_string_value(json_object_get(action, "block_id"));
    const char *chosen = json_string_value(
        json_object_get(json_object_get(action, "selected_option"), "value"));
    char match[32];
    int seat, end = 0;
    if (strcmp(action_id, "pbem_move") == 0 && block != NULL &&
        chosen != NULL &&
        sscanf(block, "pbem_move:%31[m_0-9]:%d%n", match, &seat, &end) == 2 &&
        block[end] == '\0')
        return chat_door_play(user, match, seat, chosen, chat_slack_message,
                              err);
    return NULL;
}

json_t *chat_slack_click(const char *body, size_t body_len, apierr *err)
{
    char *payload_text = form_value(body, body_len, "payload");
    json_t *payload = payload_text ? json_loads(payload_text, 0, NULL) : NULL;
    free(payload_text);
    json_t *answer = NULL;
    const json_t *action =
        json_array_get(json_object_get(payload, "actions"), 0);
    const char *url =
        json_string_value(json_object_get(payload, "response_url"));
    const json_t *u = json_object_get(payload, "user");
    chat_user user;
    const char *prefix = config_text(CONFIG_SLACK_RESPONSE_URL);
    if (!user_of(&user,
                 json_string_value(
                     json_object_get(json_object_get(payload, "team"), "id")),
                 json_string_value(json_object_get(u, "id")),
                 json_string_value(json_object_get(u, "username")),
                 json_string_value(json_object_get(payload, "trigger_id")))) {
        apierr_set(err, 400, "bad_click",
                   "the body is not a click on a pbem button (block_actions "
                   "with user, team and trigger_id)");
        goto done;
    }
    if (url == NULL || prefix == NULL ||
        strncmp(url, prefix, strlen(prefix)) != 0) {
        apierr_set(err, 400, "bad_click",
                   "the click's response_url is not Slack's");
        goto done;
    }
    apierr failed = {.status = 0};
    json_t *message = click_answer(&user, action, &failed);
    if (message == NULL) {
        if (failed.status == 0)
            apierr_set(&failed, 400, "bad_click",
                       "the body is not a click on a pbem button "
                       "(pbem_view, pbem_moves or pbem_move)");
        *err = failed;
        goto done;
    }
    post_response(url, message);
    json_decref(message);
    answer = json_object();
done:
    json_decref(payload);
    return answer;
}
