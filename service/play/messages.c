/* messages.c: see messages.h. */
#include "play/messages.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/log.h"
#include "play/request.h"
#include "play/retry.h"
#include "store/db.h"
#include "store/match_messages.h"
#include "store/matches.h"
#include "store/player_stream.h"
#include "store/store.h"

/* The next code point of UTF-8 text at *p (jansson gave valid UTF-8),
 * moving *p past it. */
static uint32_t next_code_point(const unsigned char **p)
{
    const unsigned char *s = *p;
    uint32_t c;
    int extra;
    if (s[0] < 0x80) {
        c = s[0];
        extra = 0;
    } else if ((s[0] & 0xE0) == 0xC0) {
        c = s[0] & 0x1F;
        extra = 1;
    } else if ((s[0] & 0xF0) == 0xE0) {
        c = s[0] & 0x0F;
        extra = 2;
    } else {
        c = s[0] & 0x07;
        extra = 3;
    }
    s++;
    for (int i = 0; i < extra && (*s & 0xC0) == 0x80; i++)
        c = (c << 6) | (*s++ & 0x3F);
    *p = s;
    return c;
}

/* Controls that reorder what a line shows (Unicode's bidi controls and
 * marks): a message must read as it is written. */
static bool is_bidi_control(uint32_t c)
{
    return c == 0x061C || c == 0x200E || c == 0x200F ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

static bool is_control(uint32_t c)
{
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F ||
           (c >= 0x80 && c <= 0x9F);
}

const char *messages_refusal(const char *text)
{
    size_t chars = 0;
    bool visible = false;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        uint32_t c = next_code_point(&p);
        chars++;
        if (is_bidi_control(c))
            return "a message may not hold bidi controls (U+202A to U+202E, "
                   "U+2066 to U+2069, U+200E, U+200F, U+061C): they make a "
                   "line read otherwise than it is written";
        if (is_control(c))
            return "a message may not hold control characters (line breaks "
                   "and tabs are fine)";
        if (c > 0x7F || !isspace((int)c))
            visible = true;
    }
    if (!visible)
        return "the message is empty: write something to say";
    if (chars > MESSAGES_MAX_CHARS)
        return "the message is too long: at most 1000 characters";
    return NULL;
}

/* text without white space at either end (malloc'd). */
static char *trimmed(const char *text)
{
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)*text)) {
        text++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    char *copy = strndup(text, n);
    if (copy == NULL)
        abort();
    return copy;
}

static json_t *seat_json(int seat)
{
    return seat >= 0 ? json_integer(seat) : json_null();
}

static json_t *name_json(const store_match *match, int seat)
{
    return seat >= 0 && seat < match->seat_count
               ? json_string(match->seat_name[seat])
               : json_null();
}

/* One message as readers get it. */
static json_t *message_json(const store_match *match, long long id,
                            long long seq, int from, int to, const char *text,
                            const char *at)
{
    json_t *message =
        json_pack("{s:I,s:I,s:i,s:o,s:o,s:o,s:s,s:s}", "id", (json_int_t)id,
                  "seq", (json_int_t)seq, "from", from, "from_name",
                  name_json(match, from), "to", seat_json(to), "to_name",
                  name_json(match, to), "text", text, "at", at);
    if (message == NULL)
        abort();
    return message;
}

/* The message's "to", or -1 for everyone; false with err filled. */
static bool read_to(const json_t *body, const store_match *match, int from,
                    int *to, apierr *err)
{
    const json_t *value = json_object_get(body, "to");
    *to = -1;
    if (value == NULL || json_is_null(value))
        return true;
    if (!json_is_integer(value))
        return apierr_set(err, 400, "bad_message",
                          "\"to\" is a seat number (or absent: everyone at "
                          "the table)");
    json_int_t seat = json_integer_value(value);
    if (seat < 0 || seat >= match->seat_count || match->seat_player[seat] == 0)
        return apierr_set(err, 422, "no_such_seat",
                          "nobody sits at seat %lld of this match: its seats "
                          "are 0 to %d",
                          (long long)seat, match->seat_count - 1);
    if (seat == from)
        return apierr_set(err, 422, "no_such_seat",
                          "that is your own seat: write to another seat, or "
                          "to everyone");
    *to = (int)seat;
    return true;
}

bool messages_match_over(const store_match *match)
{
    return strcmp(match->status, "finished") == 0 ||
           strcmp(match->status, "aborted") == 0;
}

/* Whether the match takes messages from who; its seat into *from. */
static bool may_write(const caller *who, const store_match *match, int *from,
                      apierr *err)
{
    *from = request_seat_of(match, who->player_id);
    if (*from < 0)
        return apierr_set(err, 403, "not_seated",
                          "only the players seated in this match write at "
                          "its table; others read its public messages once "
                          "it is over");
    if (messages_match_over(match))
        return apierr_set(err, 409, "match_over",
                          "the match is over: its table takes no more "
                          "messages");
    return true;
}

/* Whether seat's message just inserted keeps within the rate (counted
 * after the insert, under the match's message lock, so two messages at
 * once cannot both take the last place); 429 with retry_after. */
static bool within_rate(PGconn *conn, const store_match *match, int seat,
                        apierr *err)
{
    long long per_hour = config_whole(CONFIG_MESSAGES_PER_HOUR);
    long long leaves = 0;
    int recent =
        store_messages_recent(conn, match->match_id, seat, 3600, &leaves, err);
    if (recent < 0)
        return false;
    if (recent <= per_hour)
        return true;
    apierr_set(err, 429, "too_many_messages",
               "you have written %d messages here in the last hour, the most "
               "there may be; you can write again in %lld minutes",
               recent - 1, (leaves + 59) / 60);
    err->retry_after = leaves > 0 ? leaves : 1;
    return false;
}

/* The players whose streams get message: its writer, and those it is for
 * who have not muted the writer. */
static int stream_readers(PGconn *conn, const store_match *match, int from,
                          int to, long long *players, apierr *err)
{
    int count = 0;
    for (int s = 0; s < match->seat_count; s++) {
        long long player = match->seat_player[s];
        if (player == 0 || (to >= 0 && s != to && s != from))
            continue;
        bool muted = false;
        if (s != from &&
            !store_mutes_get(conn, player, match->seat_player[from], &muted,
                             err))
            return -1;
        if (!muted)
            players[count++] = player;
    }
    return count;
}

json_t *messages_stream_item(const store_match *match, const json_t *message)
{
    char ref[32];
    store_match_ref(match->match_id, ref);
    const json_t *at = json_object_get(message, "at");
    json_t *item = json_pack(
        "{s:s,s:O,s:{s:s,s:s,s:O,s:O}}", "type", "match.message", "timestamp",
        at, "data", "type", "match.message", "match", ref, "seq",
        json_object_get(message, "seq"), "message", message);
    if (item == NULL)
        abort();
    return item;
}

static bool to_streams(PGconn *conn, const store_match *match, int from, int to,
                       const json_t *message, apierr *err)
{
    long long players[STORE_MAX_SEATS];
    int count = stream_readers(conn, match, from, to, players, err);
    if (count < 0)
        return false;
    char reason[48];
    long long id =
        (long long)json_integer_value(json_object_get(message, "id"));
    snprintf(reason, sizeof reason, "message_%lld", id);
    /* The player stream wraps what it keeps as {type, timestamp, data}
     * (store/player_stream.h), as it does a notification's payload: it
     * keeps the item's data. */
    json_t *item = messages_stream_item(match, message);
    char *text = json_dumps(json_object_get(item, "data"), JSON_COMPACT);
    json_decref(item);
    if (text == NULL)
        abort();
    bool ok = store_player_stream_push(conn, players, count, match->match_id,
                                       match->head_seq, reason, text, err);
    free(text);
    return ok;
}

json_t *messages_post(const caller *who, long long match_id, const json_t *body,
                      apierr *err)
{
    const json_t *given = json_object_get(body, "text");
    if (!json_is_string(given)) {
        apierr_set(err, 400, "bad_message",
                   "the body is {\"text\": \"...\", \"to\": seat}, \"to\" "
                   "left out for everyone at the table");
        return NULL;
    }
    char *text = trimmed(json_string_value(given));
    const char *refusal = messages_refusal(text);
    if (refusal != NULL) {
        apierr_set(err, 422, "bad_message", "%s", refusal);
        free(text);
        return NULL;
    }
    json_t *answer = NULL;
    char *request = NULL;
    store_match match;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_load_match(conn, match_id, &match, err)) {
        free(text);
        return NULL;
    }
    int from, to;
    if (!may_write(who, &match, &from, err) ||
        !read_to(body, &match, from, &to, err))
        goto done;
    if (who->signature != NULL)
        request = json_dumps(who->signature, JSON_COMPACT | JSON_SORT_KEYS);
    if (!store_begin(conn, err))
        goto done;
    store_message row = {.match_id = match_id,
                         .seq = match.head_seq,
                         .from_seat = from,
                         .from_player = who->player_id,
                         .to_seat = to,
                         .text = text,
                         .request = request};
    long long id = 0;
    char at[32];
    if (!store_messages_insert(conn, &row, &id, at, err) ||
        !within_rate(conn, &match, from, err))
        goto fail;
    json_t *message =
        message_json(&match, id, match.head_seq, from, to, text, at);
    if (!to_streams(conn, &match, from, to, message, err)) {
        json_decref(message);
        goto fail;
    }
    answer = json_pack("{s:o}", "message", message);
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        answer = NULL;
    }
    goto done;
fail:
    store_rollback(conn);
done:
    if (answer != NULL)
        log_info("match m_%lld: seat %d wrote message to %s", match_id, from,
                 to < 0 ? "the table" : "one seat");
    free(request);
    free(text);
    store_match_free(&match);
    return answer;
}

/* The rows of a read as messages (a new array). */
static json_t *messages_json(const store_match *match, PGresult *r,
                             long long *last)
{
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        long long id = atoll(PQgetvalue(r, i, STORE_MESSAGE_ID));
        int to = PQgetisnull(r, i, STORE_MESSAGE_TO_SEAT)
                     ? -1
                     : atoi(PQgetvalue(r, i, STORE_MESSAGE_TO_SEAT));
        json_array_append_new(
            list,
            message_json(match, id, atoll(PQgetvalue(r, i, STORE_MESSAGE_SEQ)),
                         atoi(PQgetvalue(r, i, STORE_MESSAGE_FROM_SEAT)), to,
                         PQgetvalue(r, i, STORE_MESSAGE_TEXT),
                         PQgetvalue(r, i, STORE_MESSAGE_CREATED)));
        *last = id;
    }
    return list;
}

json_t *messages_readable(PGconn *conn, const store_match *match, int seat,
                          long long reader, long long after, int limit,
                          long long *last, apierr *err)
{
    PGresult *r = store_messages_read(conn, match->match_id, seat, reader,
                                      after, limit, err);
    if (r == NULL)
        return NULL;
    *last = after;
    json_t *list = messages_json(match, r, last);
    PQclear(r);
    return list;
}

json_t *messages_read(const caller *who, long long match_id, long long after,
                      int limit, apierr *err)
{
    store_match match;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *answer = NULL;
    long long reader = who != NULL ? who->player_id : 0;
    int seat = reader != 0 ? request_seat_of(&match, reader) : -1;
    if (seat < 0 && !messages_match_over(&match)) {
        apierr_set(err, 403, "not_seated",
                   "the match is not over: its messages are for its players "
                   "until then");
        goto done;
    }
    long long last;
    json_t *list =
        messages_readable(conn, &match, seat, reader, after, limit, &last, err);
    if (list == NULL)
        goto done;
    answer = json_pack("{s:o,s:I}", "messages", list, "last", (json_int_t)last);
done:
    store_match_free(&match);
    return answer;
}

json_t *messages_public_at(PGconn *conn, const store_match *match,
                           long long seq, apierr *err)
{
    PGresult *r = store_messages_public_at(conn, match->match_id, seq,
                                           MESSAGES_PAGE_MAX, err);
    if (r == NULL)
        return NULL;
    long long last = 0;
    json_t *list = messages_json(match, r, &last);
    PQclear(r);
    return list;
}

json_t *messages_mute(const caller *who, long long match_id, int seat,
                      bool muted, apierr *err)
{
    store_match match;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *answer = NULL;
    int own = request_seat_of(&match, who->player_id);
    if (own < 0) {
        apierr_set(err, 403, "not_seated",
                   "only the players seated in this match mute its players");
        goto done;
    }
    if (seat < 0 || seat >= match.seat_count || match.seat_player[seat] == 0 ||
        seat == own) {
        apierr_set(err, 422, "no_such_seat",
                   seat == own ? "that is your own seat"
                               : "nobody sits at that seat of this match");
        goto done;
    }
    if (store_mutes_set(conn, who->player_id, match.seat_player[seat], muted,
                        err))
        answer = json_pack("{s:i,s:s,s:b}", "seat", seat, "name",
                           match.seat_name[seat], "muted", muted);
done:
    store_match_free(&match);
    return answer;
}
