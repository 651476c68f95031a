/* chat_discord.c: see chat_discord.h. */
#include "chat/chat_discord.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chat/chat_door.h"
#include "notify/chat_formats.h"

/* Interaction types and answers (Discord's numbers). */
enum {
    PING = 1,
    APPLICATION_COMMAND = 2,
    MESSAGE_COMPONENT = 3,
    AUTOCOMPLETE = 4,
    PONG = 1,
    CHANNEL_MESSAGE = 4,
    AUTOCOMPLETE_RESULT = 8,
    EPHEMERAL = 64,
};

/* Discord offers at most 25 choices, each name at most 100 characters. */
#define CHOICES_MAX 25
#define CHOICE_CHARS 100

static const char *str(const json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

/* Text in a code block, so a view keeps its columns and nobody's text is
 * read as markdown: a backtick inside could end the block, so it becomes
 * a prime. */
static char *code_block(const char *text)
{
    size_t len = strlen(text);
    char *out = malloc(len * 3 + 9);
    if (out == NULL)
        abort();
    size_t n = 0;
    memcpy(out, "```\n", 4);
    n = 4;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '`') {
            memcpy(out + n, "\xe2\x80\xb2", 3);
            n += 3;
        } else {
            out[n++] = text[i];
        }
    }
    memcpy(out + n, "\n```", 5);
    return out;
}

json_t *chat_discord_message(const char *title, const char *text)
{
    /* The block's fences take 8 characters; the title counts towards the
     * embeds' 6,000 too, and stays far below it. */
    char *fitted = chat_fit(text[0] ? text : "(nothing to show)",
                            CHAT_DISCORD_DESCRIPTION_MAX - 8);
    char *block = code_block(fitted);
    free(fitted);
    char *heading = chat_fit(title, CHAT_DISCORD_TITLE_MAX);
    json_t *answer = json_pack("{s:i,s:{s:[{s:s,s:s}],s:i,s:{s:[]}}}", "type",
                               CHANNEL_MESSAGE, "data", "embeds", "title",
                               heading, "description", block, "flags",
                               EPHEMERAL, "allowed_mentions", "parse");
    free(block);
    free(heading);
    if (answer == NULL)
        abort();
    return answer;
}

/* The user who interacted: member.user in a server, user in a DM. */
static bool who_interacted(const json_t *interaction, chat_user *user)
{
    const json_t *u =
        json_object_get(json_object_get(interaction, "member"), "user");
    if (u == NULL)
        u = json_object_get(interaction, "user");
    const char *name =
        str(u, "global_name") ? str(u, "global_name") : str(u, "username");
    if (!chat_door_user(user, "discord", NULL, str(u, "id"), name))
        return false;
    const char *id = str(interaction, "id");
    snprintf(user->interaction, sizeof user->interaction, "%s", id ? id : "");
    return id != NULL && id[0] != '\0';
}

/* An option's value as text ("" when absent). */
static void option_text(const json_t *options, const char *name, char *out,
                        size_t size)
{
    size_t i;
    const json_t *option;
    out[0] = '\0';
    json_array_foreach(options, i, option)
    {
        const char *n = str(option, "name");
        if (n == NULL || strcmp(n, name) != 0)
            continue;
        const json_t *value = json_object_get(option, "value");
        if (json_is_string(value))
            snprintf(out, size, "%s", json_string_value(value));
        else if (json_is_integer(value))
            snprintf(out, size, "%lld", (long long)json_integer_value(value));
    }
}

/* The arguments of a subcommand as the door reads them: "[MATCH] rest". */
static char *arguments(const char *verb, const json_t *options)
{
    char match[32], text[512], seats[16], extra[512];
    option_text(options, "match", match, sizeof match);
    char *args = NULL;
    int made;
    if (strcmp(verb, "link") == 0) {
        option_text(options, "code", text, sizeof text);
        made = asprintf(&args, "%s", text);
    } else if (strcmp(verb, "move") == 0) {
        option_text(options, "move", text, sizeof text);
        made = asprintf(&args, "%s %s", match, text);
    } else if (strcmp(verb, "log") == 0) {
        option_text(options, "count", text, sizeof text);
        made = asprintf(&args, "%s %s", match, text);
    } else if (strcmp(verb, "new") == 0) {
        option_text(options, "game", text, sizeof text);
        option_text(options, "seats", seats, sizeof seats);
        option_text(options, "options", extra, sizeof extra);
        made = asprintf(&args, "%s%s%s %s", text, seats[0] ? " seats=" : "",
                        seats, extra);
    } else if (strcmp(verb, "seek") == 0) {
        option_text(options, "game", text, sizeof text);
        option_text(options, "seats", seats, sizeof seats);
        option_text(options, "turn", match, sizeof match);
        option_text(options, "expires", extra, sizeof extra);
        made =
            asprintf(&args, "%s%s%s%s%s%s%s", text, seats[0] ? " seats=" : "",
                     seats, match[0] ? " turn=" : "", match,
                     extra[0] ? " expires=" : "", extra);
    } else if (strcmp(verb, "list") == 0) {
        option_text(options, "game", text, sizeof text);
        made = asprintf(&args, "%s", text);
    } else if (strcmp(verb, "unseek") == 0) {
        option_text(options, "seek", text, sizeof text);
        made = asprintf(&args, "%s", text);
    } else if (strcmp(verb, "rules") == 0) {
        option_text(options, "game", text, sizeof text);
        made = asprintf(&args, "%s", text);
    } else {
        made = asprintf(&args, "%s", match);
    }
    if (made < 0)
        abort();
    return args;
}

static json_t *autocomplete(const chat_user *user, const json_t *options)
{
    char match[32], typed[CHOICE_CHARS + 1];
    option_text(options, "match", match, sizeof match);
    option_text(options, "move", typed, sizeof typed);
    json_t *moves = chat_door_moves(user, match, typed, CHOICES_MAX);
    json_t *choices = json_array();
    size_t i;
    const json_t *move;
    json_array_foreach(moves, i, move)
    {
        const char *text = json_string_value(move);
        /* A longer move could not be chosen whole: leave it to typing. */
        if (strlen(text) > CHOICE_CHARS)
            continue;
        json_array_append_new(
            choices, json_pack("{s:s,s:s}", "name", text, "value", text));
    }
    json_decref(moves);
    return json_pack("{s:i,s:{s:o}}", "type", AUTOCOMPLETE_RESULT, "data",
                     "choices", choices);
}

/* The private message offering user's moves in match as a string
 * select whose custom_id names the match and the seat
 * ("pbem:move:m_12:1"), or saying why there is none. */
static json_t *offer_moves(const chat_user *user, const char *match)
{
    chat_reply reply;
    int seat = -1;
    json_t *moves =
        chat_door_turn(user, match, CHOICES_MAX, CHOICE_CHARS, &seat, &reply);
    if (moves == NULL) {
        json_t *answer = chat_discord_message("pbem", reply.text);
        chat_door_reply_free(&reply);
        return answer;
    }
    json_t *options = json_array();
    size_t i;
    const json_t *move;
    json_array_foreach(moves, i, move)
    {
        const char *text = json_string_value(move);
        json_array_append_new(
            options, json_pack("{s:s,s:s}", "label", text, "value", text));
    }
    json_decref(moves);
    char id[64];
    snprintf(id, sizeof id, "pbem:move:%s:%d", reply.match, seat);
    char *content = chat_fit(reply.text, CHAT_DISCORD_MAX);
    chat_door_reply_free(&reply);
    json_t *answer =
        json_pack("{s:i,s:{s:s,s:i,s:{s:[]},s:[{s:i,s:[{s:i,s:s,s:s,s:o}]}]}}",
                  "type", CHANNEL_MESSAGE, "data", "content", content, "flags",
                  EPHEMERAL, "allowed_mentions", "parse", "components", "type",
                  1, "components", "type", 3, "custom_id", id, "placeholder",
                  "Your move", "options", options);
    free(content);
    if (answer == NULL)
        abort();
    return answer;
}

/* A click on one of pbem's components: a turn notice's buttons
 * ("pbem:view:m_12", "pbem:moves:m_12"; chat_formats.h) or the move
 * chosen in offer_moves's select ("pbem:move:m_12:1", data.values). */
static json_t *component(const chat_user *user, const json_t *data, apierr *err)
{
    const char *id = str(data, "custom_id");
    if (id != NULL && strncmp(id, "pbem:view:", 10) == 0)
        return chat_door_answer(user, "view", id + 10, chat_discord_message,
                                err);
    if (id != NULL && strncmp(id, "pbem:moves:", 11) == 0)
        return offer_moves(user, id + 11);
    const char *chosen =
        json_string_value(json_array_get(json_object_get(data, "values"), 0));
    char match[32];
    int seat, end = 0;
    if (id != NULL && chosen != NULL &&
        sscanf(id, "pbem:move:%31[m_0-9]:%d%n", match, &seat, &end) == 2 &&
        id[end] == '\0')
        return chat_door_play(user, match, seat, chosen, chat_discord_message,
                              err);
    return chat_discord_message("pbem", "That button is not one of pbem's.");
}

json_t *chat_discord_answer(const char *body, size_t body_len, apierr *err)
{
    json_error_t jerr;
    json_t *interaction = json_loadb(body, body_len, 0, &jerr);
    json_int_t type = json_integer_value(json_object_get(interaction, "type"));
    json_t *answer = NULL;
    chat_user user;
    if (!json_is_object(interaction)) {
        apierr_set(err, 400, "bad_interaction",
                   "the body is not a Discord interaction (JSON object)");
        goto done;
    }
    if (type == PING) {
        answer = json_pack("{s:i}", "type", PONG);
        goto done;
    }
    if (!who_interacted(interaction, &user)) {
        apierr_set(err, 400, "bad_interaction",
                   "the interaction names no user or has no id");
        goto done;
    }
    const json_t *data = json_object_get(interaction, "data");
    if (type == MESSAGE_COMPONENT) {
        answer = component(&user, data, err);
        goto done;
    }
    const json_t *sub = json_array_get(json_object_get(data, "options"), 0);
    const char *verb = str(sub, "name");
    const json_t *options = json_object_get(sub, "options");
    if ((type != APPLICATION_COMMAND && type != AUTOCOMPLETE) || verb == NULL) {
        apierr_set(err, 400, "bad_interaction",
                   "pbem answers PING, /pbem commands, their autocomplete "
                   "and its buttons");
        goto done;
    }
    if (type == AUTOCOMPLETE) {
        answer = autocomplete(&user, options);
        goto done;
    }
    char *args = arguments(verb, options);
    answer = chat_door_answer(&user, verb, args, chat_discord_message, err);
    free(args);
done:
    json_decref(interaction);
    return answer;
}
