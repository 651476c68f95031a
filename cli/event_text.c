/* event_text.c: see event_text.h. */
#include "event_text.h"

#include <stdlib.h>
#include <string.h>

/* "Bob (seat 1)", or "seat 1" when the name is unknown, into who. */
static void seat_name(const json_t *seats, json_int_t seat, char *who,
                      size_t size)
{
    size_t i;
    const json_t *item;
    json_array_foreach(seats, i, item)
    {
        const char *name = json_string_value(json_object_get(item, "name"));
        if (json_integer_value(json_object_get(item, "seat")) == seat &&
            name != NULL) {
            snprintf(who, size, "%.60s (seat %lld)", name, (long long)seat);
            return;
        }
    }
    snprintf(who, size, "seat %lld", (long long)seat);
}

/* A string's text, or "?". */
static const char *text_or(const json_t *value)
{
    const char *text = json_string_value(value);
    return text != NULL ? text : "?";
}

/* Prints value as compact JSON. */
static void print_json(FILE *out, const json_t *value)
{
    char *text =
        json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    fputs(text != NULL ? text : "null", out);
    free(text);
}

/* A move's text as it was typed, else its action. */
static void print_move(FILE *out, const json_t *data)
{
    const char *text = json_string_value(json_object_get(data, "text"));
    if (text != NULL)
        fputs(text, out);
    else
        print_json(out, json_object_get(data, "action"));
}

/* "Alice 12, Bob 9; Alice wins" from a finished event's result. */
static void print_result(FILE *out, const json_t *result, const json_t *seats)
{
    const json_t *scores = json_object_get(result, "scores");
    char who[96];
    size_t i;
    const json_t *score;
    json_array_foreach(scores, i, score)
    {
        seat_name(seats, (json_int_t)i, who, sizeof who);
        fprintf(out, "%s%s %lld", i ? ", " : "", who,
                (long long)json_integer_value(score));
    }
    const json_t *first = json_array_get(json_object_get(result, "ranking"), 0);
    if (json_array_size(first) == 1) {
        seat_name(seats, json_integer_value(json_array_get(first, 0)), who,
                  sizeof who);
        fprintf(out, "; %s wins", who);
    } else if (json_array_size(first) > 1) {
        fputs("; first place shared by ", out);
        json_array_foreach(first, i, score)
        {
            seat_name(seats, json_integer_value(score), who, sizeof who);
            fprintf(out, "%s%s", i ? " and " : "", who);
        }
    }
}

void event_text_print(FILE *out, const json_t *event, const json_t *seats)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    const json_t *data = json_object_get(event, "data");
    const json_t *seat = json_object_get(event, "seat");
    char who[96] = "";
    if (json_is_integer(seat))
        seat_name(seats, json_integer_value(seat), who, sizeof who);
    const char *reason = json_string_value(json_object_get(data, "reason"));
    const char *decision = json_string_value(json_object_get(data, "decision"));
    fprintf(out, "#%-4lld ",
            (long long)json_integer_value(json_object_get(event, "seq")));
    /* The server's own sentence, with the move's outcome; a server that
     * tells none gets the line made of the event. */
    const char *told = json_string_value(json_object_get(event, "text"));
    if (told != NULL && told[0] != '\0') {
        fprintf(out, "%s\n", told);
        return;
    }
    if (kind == NULL)
        kind = "?";
    if (strcmp(kind, "created") == 0)
        fprintf(out, "match created: %s for %lld seats",
                text_or(json_object_get(data, "game")),
                (long long)json_integer_value(json_object_get(data, "seats")));
    else if (strcmp(kind, "joined") == 0)
        fprintf(out, "%s joined", who);
    else if (strcmp(kind, "started") == 0)
        fputs("the match started", out);
    else if (strcmp(kind, "move") == 0) {
        fprintf(out, "%s: ", who);
        print_move(out, data);
    } else if (strcmp(kind, "committed") == 0)
        fprintf(out, "%s sealed a choice (decision %s)", who,
                decision ? decision : "?");
    else if (strcmp(kind, "revealed") == 0) {
        fprintf(out, "%s revealed: ", who);
        print_json(out, json_object_get(data, "action"));
    } else if (strcmp(kind, "voided") == 0) {
        fprintf(out, "%s's sealed choice is void (%s); instead: ", who,
                reason ? reason : "?");
        print_json(out, json_object_get(data, "choice"));
    } else if (strcmp(kind, "decided") == 0)
        fprintf(out, "every sealed choice of decision %s is applied",
                decision ? decision : "?");
    else if (strcmp(kind, "timeout") == 0)
        fprintf(out, "%s's deadline passed (%s)", who, reason ? reason : "?");
    else if (strcmp(kind, "forfeited") == 0)
        fprintf(out, "%s forfeited (%s)", who, reason ? reason : "?");
    else if (strcmp(kind, "finished") == 0) {
        fputs("the match is over: ", out);
        print_result(out, json_object_get(data, "result"), seats);
    } else if (strcmp(kind, "rewound") == 0)
        fprintf(out, "an admin rewound the match to #%lld (%s)",
                (long long)json_integer_value(json_object_get(data, "to_seq")),
                reason ? reason : "?");
    else if (strcmp(kind, "seat_replaced") == 0)
        fprintf(out, "an admin gave %s to another player (%s)", who,
                reason ? reason : "?");
    else if (strcmp(kind, "aborted") == 0)
        fprintf(out, "an admin aborted the match (%s)", reason ? reason : "?");
    else if (strcmp(kind, "imported") == 0)
        fprintf(out, "imported from %s",
                text_or(json_object_get(data, "from")));
    else
        fprintf(out, "%s%s%s", kind, who[0] ? " by " : "", who);
    fputc('\n', out);
}

int event_text_is_end(const json_t *event)
{
    const char *kind = json_string_value(json_object_get(event, "kind"));
    return kind != NULL &&
           (strcmp(kind, "finished") == 0 || strcmp(kind, "aborted") == 0);
}
