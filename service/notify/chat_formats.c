/* chat_formats.c */
#include "notify/chat_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool chat_format_parse(const char *name, chat_format *out)
{
    if (name == NULL || strcmp(name, "standard") == 0)
        *out = CHAT_STANDARD;
    else if (strcmp(name, "slack") == 0)
        *out = CHAT_SLACK;
    else if (strcmp(name, "discord") == 0)
        *out = CHAT_DISCORD;
    else
        return false;
    return true;
}

const char *chat_format_name(chat_format format)
{
    return format == CHAT_SLACK     ? "slack"
           : format == CHAT_DISCORD ? "discord"
                                    : "standard";
}

/* A text being written; aborts when memory runs out. */
typedef struct text {
    char *bytes;
    size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *grown = realloc(t->bytes, cap);
        if (grown == NULL)
            abort();
        t->bytes = grown;
        t->cap = cap;
    }
    memcpy(t->bytes + t->len, s, n);
    t->len += n;
    t->bytes[t->len] = '\0';
}

static void put_s(text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* Text someone else wrote (a player's name, a move), made inert for the
 * format: Slack reads &, < and > as markup (links, mentions such as
 * <!channel>), and nothing else needs escaping; Discord reads markdown
 * and mentions, so each markdown character gets a backslash and an @ a
 * zero-width space after it (allowed_mentions stops the ping as well). */
static void put_escaped(text *t, chat_format format, const char *s)
{
    for (const char *c = s; *c != '\0'; c++) {
        if (format == CHAT_SLACK && *c == '&')
            put_s(t, "&amp;");
        else if (format == CHAT_SLACK && *c == '<')
            put_s(t, "&lt;");
        else if (format == CHAT_SLACK && *c == '>')
            put_s(t, "&gt;");
        else if (format == CHAT_DISCORD && *c == '@')
            put_s(t, "@\xe2\x80\x8b");
        else if (format == CHAT_DISCORD && strchr("\\*_~`|>#-[]()<:", *c)) {
            put(t, "\\", 1);
            put(t, c, 1);
        } else if (*c == '\n' || *c == '\r') {
            put(t, " ", 1);
        } else {
            put(t, c, 1);
        }
    }
}

/* Bold in either format. */
static void put_bold(text *t, chat_format format, const char *s)
{
    const char *mark = format == CHAT_SLACK ? "*" : "**";
    put_s(t, mark);
    put_escaped(t, format, s);
    put_s(t, mark);
}

static const char *str(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

/* "Ada", "Ada and Bob", "Ada, Bob and Cy": the seats that must act. */
static void put_seats(text *t, chat_format format, const json_t *payload)
{
    const json_t *seats = json_object_get(payload, "seats");
    const json_t *players = json_object_get(payload, "players");
    size_t n = json_array_size(seats);
    for (size_t i = 0; i < n; i++) {
        json_int_t seat = json_integer_value(json_array_get(seats, i));
        const char *name =
            json_string_value(json_array_get(players, (size_t)seat));
        char fallback[32];
        if (name == NULL || name[0] == '\0') {
            snprintf(fallback, sizeof fallback, "seat %lld", (long long)seat);
            name = fallback;
        }
        if (i > 0)
            put_s(t, i + 1 == n ? " and " : ", ");
        put_bold(t, format, name);
    }
}

/* The first line: the game and the match (linked, in Slack). */
static void heading(text *t, chat_format format, const json_t *payload,
                    const char *match_url)
{
    const char *match = str(payload, "match");
    const char *title = str(payload, "game_title");
    put_bold(t, format, title ? title : "pbem");
    put_s(t, " ");
    if (format == CHAT_SLACK) {
        put_s(t, "<");
        put_escaped(t, format, match_url);
        put_s(t, "|");
        put_escaped(t, format, match ? match : "match");
        put_s(t, ">");
    } else {
        put_escaped(t, format, match ? match : "match");
    }
}

/* Whether the notice asks seats to act (so it offers "View my hand"). */
static bool waiting(const json_t *payload)
{
    const char *type = str(payload, "type");
    return (type == NULL || (strcmp(type, "match.over") != 0 &&
                             strcmp(type, "match.aborted") != 0)) &&
           json_array_size(json_object_get(payload, "seats")) > 0;
}

/* What the match waits for, or that it is over. */
static void status(text *t, chat_format format, const json_t *payload)
{
    const char *type = str(payload, "type");
    bool over = type != NULL && strcmp(type, "match.over") == 0;
    if (over) {
        put_s(t, "The match is over.");
    } else if (type != NULL && strcmp(type, "match.aborted") == 0) {
        const char *reason = str(payload, "reason");
        put_s(t, "The match was aborted by an admin");
        if (reason != NULL && reason[0] != '\0') {
            put_s(t, ": ");
            put_escaped(t, format, reason);
        }
        put_s(t, ".");
    } else if (waiting(payload)) {
        if (type != NULL && strcmp(type, "match.deadline_reminder") == 0)
            put_s(t, "Reminder: ");
        else if (type != NULL && strcmp(type, "match.nudge") == 0)
            put_s(t, "Nudge: ");
        put_s(t, "Waiting for ");
        put_seats(t, format, payload);
        const char *prompt = str(payload, "prompt");
        if (prompt != NULL && prompt[0] != '\0') {
            put_s(t, " to ");
            put_escaped(t, format, prompt);
        }
        put_s(t, ".");
    } else {
        put_s(t, "Something happened in the match.");
    }
}

static void last(text *t, chat_format format, const char *last_move)
{
    if (last_move != NULL && last_move[0] != '\0') {
        put_s(t, "Last move: ");
        put_escaped(t, format, last_move);
    }
}

/* The Slack message as one text: heading, status, last move. */
static void slack_text(text *t, const json_t *payload, const char *last_move,
                       const char *match_url)
{
    heading(t, CHAT_SLACK, payload, match_url);
    put_s(t, "\n");
    status(t, CHAT_SLACK, payload);
    if (last_move != NULL && last_move[0] != '\0') {
        put_s(t, "\n");
        last(t, CHAT_SLACK, last_move);
    }
}

/* Cuts t to at most max characters (UTF-8 code points), ending in "…"
 * when it was longer, and never in the middle of an escape. */
static void cut_to(text *t, size_t max)
{
    size_t chars = 0, at = 0;
    for (; at < t->len; at++) {
        if (((unsigned char)t->bytes[at] & 0xc0) == 0x80)
            continue;
        if (chars == max - 1)
            break;
        chars++;
    }
    size_t total = chars;
    for (size_t i = at; i < t->len; i++)
        total += ((unsigned char)t->bytes[i] & 0xc0) != 0x80;
    if (total <= max)
        return;
    size_t backslashes = 0;
    while (backslashes < at && t->bytes[at - 1 - backslashes] == '\\')
        backslashes++;
    if (backslashes % 2 == 1)
        at--;
    t->len = at;
    t->bytes[at] = '\0';
    put_s(t, "\xe2\x80\xa6");
}

char *chat_fit(const char *text, size_t max)
{
    size_t chars = 0, at = 0, len = strlen(text);
    for (; at < len; at++)
        chars += ((unsigned char)text[at] & 0xc0) != 0x80;
    if (chars <= max)
        return strdup(text);
    /* Keep max - 1 characters, then the ellipsis. */
    chars = 0;
    for (at = 0; at < len; at++) {
        if (((unsigned char)text[at] & 0xc0) == 0x80)
            continue;
        if (chars == max - 1)
            break;
        chars++;
    }
    char *out = malloc(at + 4);
    if (out == NULL)
        abort();
    memcpy(out, text, at);
    memcpy(out + at, "\xe2\x80\xa6", 4);
    return out;
}

/* The buttons that show the one who clicks their own seat's view, or
 * the moves it may make to choose one, privately: a hand stays out of
 * the channel (chat/chat_discord.h, chat/chat_slack.h). */
static json_t *discord_buttons(const char *match)
{
    char view[64], moves[64];
    snprintf(view, sizeof view, "pbem:view:%s", match);
    snprintf(moves, sizeof moves, "pbem:moves:%s", match);
    return json_pack("[{s:i,s:[{s:i,s:i,s:s,s:s},{s:i,s:i,s:s,s:s}]}]", "type",
                     1, "components", "type", 2, "style", 2, "label",
                     "View my hand", "custom_id", view, "type", 2, "style", 1,
                     "label", "Make a move", "custom_id", moves);
}

static json_t *discord_body(const json_t *payload, const char *last_move,
                            const char *match_url)
{
    /* The status is the content, what a notification shows; the embed
     * names the match, links it and tells the last move. */
    text content = {0}, title = {0}, description = {0};
    status(&content, CHAT_DISCORD, payload);
    cut_to(&content, CHAT_DISCORD_MAX);
    const char *game = str(payload, "game_title");
    const char *match = str(payload, "match");
    put_s(&title, game ? game : "pbem");
    put_s(&title, " ");
    put_s(&title, match ? match : "match");
    char *fitted_title = chat_fit(title.bytes, CHAT_DISCORD_TITLE_MAX);
    json_t *embed =
        json_pack("{s:s,s:s}", "title", fitted_title, "url", match_url);
    free(fitted_title);
    last(&description, CHAT_DISCORD, last_move);
    if (description.len > 0) {
        cut_to(&description, CHAT_DISCORD_DESCRIPTION_MAX);
        json_object_set_new(embed, "description",
                            json_string(description.bytes));
    }
    json_t *body = json_pack("{s:s,s:[o],s:{s:[]}}", "content", content.bytes,
                             "embeds", embed, "allowed_mentions", "parse");
    if (body != NULL && match != NULL && waiting(payload))
        json_object_set_new(body, "components", discord_buttons(match));
    free(content.bytes);
    free(title.bytes);
    free(description.bytes);
    return body;
}

static json_t *slack_body(const json_t *payload, const char *last_move,
                          const char *match_url)
{
    /* The text is the fallback (notifications, clients without blocks);
     * the blocks show the same, with the button. */
    text t = {0};
    slack_text(&t, payload, last_move, match_url);
    char *section = chat_fit(t.bytes, CHAT_SLACK_TEXT_MAX);
    json_t *blocks = json_pack("[{s:s,s:{s:s,s:s}}]", "type", "section", "text",
                               "type", "mrkdwn", "text", section);
    free(section);
    const char *match = str(payload, "match");
    if (blocks != NULL && match != NULL && waiting(payload))
        json_array_append_new(
            blocks,
            json_pack("{s:s,s:[{s:s,s:{s:s,s:s},s:s,s:s},"
                      "{s:s,s:{s:s,s:s},s:s,s:s,s:s}]}",
                      "type", "actions", "elements", "type", "button", "text",
                      "type", "plain_text", "text", "View my hand", "action_id",
                      "pbem_view", "value", match, "type", "button", "text",
                      "type", "plain_text", "text", "Make a move", "action_id",
                      "pbem_moves", "value", match, "style", "primary"));
    json_t *body = json_pack("{s:s,s:b,s:o}", "text", t.bytes, "unfurl_links",
                             0, "blocks", blocks);
    free(t.bytes);
    return body;
}

char *chat_body(chat_format format, const json_t *payload,
                const char *last_move, const char *match_url)
{
    json_t *body = format == CHAT_SLACK
                       ? slack_body(payload, last_move, match_url)
                       : discord_body(payload, last_move, match_url);
    if (body == NULL)
        abort();
    char *out = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    if (out == NULL)
        abort();
    return out;
}
