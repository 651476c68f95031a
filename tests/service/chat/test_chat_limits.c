/* What the chats are sent stays within each platform's documented limits
 * (a message over them is refused whole by Discord or Slack, so the
 * player would see nothing): Discord's 2,000 characters of content, 256
 * of an embed's title, 4,096 of its description and 6,000 for a
 * message's embeds; Slack's 50 blocks and 3,000 characters a section.
 * Private answers are always ephemeral; a turn notice in a channel offers
 * "View my hand" and "Make a move" while someone must act, and nothing once it
 * is over. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chat/chat_discord.h"
#include "chat/chat_slack.h"
#include "notify/chat_formats.h"

static size_t characters(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* A long view: lines of "é", "<" and "&" (two bytes, and what Slack
 * escapes to five), 20,000 characters in all. */
static char *long_view(void)
{
    char *text = malloc(40000);
    cr_assert_not_null(text);
    size_t n = 0;
    for (int line = 0; line < 400; line++) {
        for (int i = 0; i < 16; i++) {
            memcpy(text + n, "\xc3\xa9<&", 4);
            n += 4;
        }
        text[n++] = '\n';
    }
    text[n] = '\0';
    return text;
}

static const char *data_str(const json_t *data, const char *key)
{
    return json_string_value(json_object_get(data, key));
}

Test(chat_limits, a_long_answer_on_discord_fits_one_ephemeral_embed)
{
    char *text = long_view();
    json_t *answer = chat_discord_message("/pbem view m_1", text);
    json_t *data = json_object_get(answer, "data");
    cr_expect_eq(json_integer_value(json_object_get(answer, "type")), 4);
    cr_expect_eq(json_integer_value(json_object_get(data, "flags")), 64,
                 "a private answer must be ephemeral");
    cr_expect_eq(json_array_size(json_object_get(
                     json_object_get(data, "allowed_mentions"), "parse")),
                 0);
    const json_t *embed = json_array_get(json_object_get(data, "embeds"), 0);
    size_t title = characters(data_str(embed, "title"));
    size_t description = characters(data_str(embed, "description"));
    cr_expect_leq(title, CHAT_DISCORD_TITLE_MAX);
    cr_expect_leq(description, CHAT_DISCORD_DESCRIPTION_MAX);
    cr_expect_gt(description, 4000, "the cut keeps what fits");
    cr_expect_leq(title + description, CHAT_DISCORD_EMBEDS_MAX);
    cr_expect(strstr(data_str(embed, "description"), "\xe2\x80\xa6") != NULL,
              "a cut answer ends in an ellipsis");
    json_decref(answer);
    free(text);
}

Test(chat_limits, a_long_answer_on_slack_fits_fifty_blocks_of_3000)
{
    char *text = long_view();
    json_t *answer = chat_slack_message("/pbem view m_1", text);
    cr_expect_str_eq(data_str(answer, "response_type"), "ephemeral");
    cr_expect_leq(characters(data_str(answer, "text")), CHAT_SLACK_TEXT_MAX);
    const json_t *blocks = json_object_get(answer, "blocks");
    cr_expect_leq(json_array_size(blocks), CHAT_SLACK_BLOCKS_MAX);
    cr_expect_gt(json_array_size(blocks), 2, "long text takes several");
    size_t i;
    const json_t *block;
    json_array_foreach(blocks, i, block)
    {
        const char *t = data_str(json_object_get(block, "text"), "text");
        cr_expect_leq(characters(t), CHAT_SLACK_TEXT_MAX, "block %zu", i);
        /* Escaped: no raw < or & that Slack would read as markup. */
        if (i > 0)
            cr_expect(strchr(t, '<') == NULL, "a raw < in block %zu", i);
    }
    json_decref(answer);

    /* Far longer than 50 blocks hold: the last one says it is cut. */
    size_t big = 200000;
    char *huge = malloc(big + 1);
    memset(huge, 'x', big);
    for (size_t at = 80; at < big; at += 81)
        huge[at] = '\n';
    huge[big] = '\0';
    answer = chat_slack_message("/pbem view m_1", huge);
    blocks = json_object_get(answer, "blocks");
    cr_expect_eq(json_array_size(blocks), CHAT_SLACK_BLOCKS_MAX);
    const char *last =
        data_str(json_object_get(
                     json_array_get(blocks, CHAT_SLACK_BLOCKS_MAX - 1), "text"),
                 "text");
    cr_expect(strstr(last, "cut here") != NULL, "%s", last);
    json_decref(answer);
    free(huge);
    free(text);
}

static json_t *notice(const char *type, const char *prompt)
{
    return json_pack("{s:s,s:s,s:s,s:[s,s],s:[i],s:s}", "type", type, "match",
                     "m_7", "game_title", "Antiquity Quest", "players", "Ada",
                     "Bob", "seats", 1, "prompt", prompt);
}

Test(chat_limits, a_discord_turn_notice_is_an_embed_with_a_button)
{
    char *prompt = malloc(9000 * 2 + 1);
    for (int i = 0; i < 9000; i++)
        memcpy(prompt + 2 * i, "\xc3\xa9", 2);
    prompt[18000] = '\0';
    json_t *payload = notice("match.your_turn", prompt);
    char *last_move = malloc(9000 + 1);
    memset(last_move, 'm', 9000);
    last_move[9000] = '\0';
    char *text = chat_body(CHAT_DISCORD, payload, last_move,
                           "https://pbem.example.org/matches/m_7");
    json_t *body = json_loads(text, 0, NULL);
    cr_assert_not_null(body, "%s", text);
    cr_expect_leq(characters(data_str(body, "content")), CHAT_DISCORD_MAX);
    const json_t *embed = json_array_get(json_object_get(body, "embeds"), 0);
    size_t title = characters(data_str(embed, "title"));
    size_t description = characters(data_str(embed, "description"));
    cr_expect_str_eq(data_str(embed, "title"), "Antiquity Quest m_7");
    cr_expect_str_eq(data_str(embed, "url"),
                     "https://pbem.example.org/matches/m_7");
    cr_expect_leq(description, CHAT_DISCORD_DESCRIPTION_MAX);
    cr_expect_leq(title + description, CHAT_DISCORD_EMBEDS_MAX);
    const json_t *button = json_array_get(
        json_object_get(json_array_get(json_object_get(body, "components"), 0),
                        "components"),
        0);
    cr_expect_str_eq(data_str(button, "label"), "View my hand");
    cr_expect_str_eq(data_str(button, "custom_id"), "pbem:view:m_7");
    /* The moves are offered to the one who clicks, never listed here. */
    button = json_array_get(
        json_object_get(json_array_get(json_object_get(body, "components"), 0),
                        "components"),
        1);
    cr_expect_str_eq(data_str(button, "label"), "Make a move");
    cr_expect_str_eq(data_str(button, "custom_id"), "pbem:moves:m_7");
    json_decref(body);
    free(text);
    json_decref(payload);

    /* Over: nobody has anything to do, so no button. */
    payload = notice("match.over", "");
    text = chat_body(CHAT_DISCORD, payload, NULL, "https://x.org/m_7");
    body = json_loads(text, 0, NULL);
    cr_expect_null(json_object_get(body, "components"), "%s", text);
    cr_expect_str_eq(data_str(body, "content"), "The match is over.");
    json_decref(body);
    free(text);
    json_decref(payload);
    free(prompt);
    free(last_move);
}

Test(chat_limits, a_slack_turn_notice_is_blocks_with_a_text_fallback)
{
    char *prompt = malloc(5000 + 1);
    memset(prompt, '<', 5000);
    prompt[5000] = '\0';
    json_t *payload = notice("match.your_turn", prompt);
    char *text = chat_body(CHAT_SLACK, payload, "Ada: dig 3",
                           "https://pbem.example.org/matches/m_7");
    json_t *body = json_loads(text, 0, NULL);
    cr_assert_not_null(body, "%s", text);
    cr_expect(strstr(data_str(body, "text"), "Waiting for *Bob*") != NULL);
    const json_t *blocks = json_object_get(body, "blocks");
    cr_expect_eq(json_array_size(blocks), 2);
    const char *section =
        data_str(json_object_get(json_array_get(blocks, 0), "text"), "text");
    cr_expect_leq(characters(section), CHAT_SLACK_TEXT_MAX);
    const json_t *button = json_array_get(
        json_object_get(json_array_get(blocks, 1), "elements"), 0);
    cr_expect_str_eq(data_str(button, "action_id"), "pbem_view");
    cr_expect_str_eq(data_str(button, "value"), "m_7");
    button = json_array_get(
        json_object_get(json_array_get(blocks, 1), "elements"), 1);
    cr_expect_str_eq(data_str(button, "action_id"), "pbem_moves");
    cr_expect_str_eq(data_str(button, "value"), "m_7");
    cr_expect_str_eq(data_str(json_object_get(button, "text"), "text"),
                     "Make a move");
    json_decref(body);
    free(text);
    json_decref(payload);
    free(prompt);
}
