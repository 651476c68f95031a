/* seat_view.c: see seat_view.h. */
#include "seat_view.h"

#include <string.h>

int seat_view_fetch(player_session *s, const char *match, client_response *out)
{
    char path[128];
    if (!player_match_path(path, sizeof path, match, "/view"))
        return PLAYER_USAGE;
    return player_call(s, "GET", path, NULL, out);
}

long long seat_view_seq(const json_t *view)
{
    return json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
}

static bool holds(const json_t *seats, json_int_t seat)
{
    size_t i;
    const json_t *item;
    json_array_foreach(seats, i, item)
    {
        if (json_integer_value(item) == seat)
            return true;
    }
    return false;
}

bool seat_view_must_act(const json_t *view)
{
    const json_t *pending = json_object_get(view, "pending");
    json_int_t seat = json_integer_value(json_object_get(view, "seat"));
    return holds(json_object_get(pending, "seats"), seat);
}

/* "Alice (seat 0)" */
static void print_seat(FILE *out, const json_t *seats, json_int_t seat)
{
    size_t i;
    const json_t *item;
    json_array_foreach(seats, i, item)
    {
        const char *name = json_string_value(json_object_get(item, "name"));
        if (json_integer_value(json_object_get(item, "seat")) == seat &&
            name != NULL) {
            fprintf(out, "%s (seat %lld)", name, (long long)seat);
            return;
        }
    }
    fprintf(out, "seat %lld", (long long)seat);
}

static void print_seat_list(FILE *out, const json_t *list, const json_t *seats)
{
    size_t i;
    const json_t *item;
    json_array_foreach(list, i, item)
    {
        fputs(i == 0 ? "" : ", ", out);
        print_seat(out, seats, json_integer_value(item));
    }
}

void seat_view_print_result(FILE *out, const json_t *result,
                            const json_t *seats)
{
    fputs("The match is over:", out);
    size_t i;
    const json_t *score;
    json_array_foreach(json_object_get(result, "scores"), i, score)
    {
        fputs(i == 0 ? " " : ", ", out);
        print_seat(out, seats, (json_int_t)i);
        fprintf(out, " %lld", (long long)json_integer_value(score));
    }
    const json_t *first = json_array_get(json_object_get(result, "ranking"), 0);
    if (json_array_size(first) == 1) {
        fputs("; ", out);
        print_seat(out, seats, json_integer_value(json_array_get(first, 0)));
        fputs(" wins", out);
    } else if (json_array_size(first) > 1) {
        fputs("; first place shared by ", out);
        print_seat_list(out, first, seats);
    }
    fputs(".\n", out);
}

/* At most this many lines of "since your last turn": the rest is one
 * pbem watch away. */
#define SINCE_LINES 12

/* What happened since the seat last acted, told to it (the view's "log"
 * after "since_seq"); nothing from a server that tells no log. */
static void print_since(FILE *out, const char *match, const json_t *view)
{
    const json_t *log = json_object_get(view, "log");
    json_int_t since = json_integer_value(json_object_get(view, "since_seq"));
    size_t n = json_array_size(log), first = n;
    while (first > 0 && json_integer_value(json_object_get(
                            json_array_get(log, first - 1), "seq")) > since)
        first--;
    if (first == n)
        return;
    fputs(since > 0 ? "Since your last turn:\n" : "So far:\n", out);
    if (n - first > SINCE_LINES) {
        fprintf(out, "  (%zu earlier: pbem watch %s)\n",
                n - first - SINCE_LINES, match);
        first = n - SINCE_LINES;
    }
    for (size_t i = first; i < n; i++)
        fprintf(
            out, "  %s\n",
            json_string_value(json_object_get(json_array_get(log, i), "text"))
                ?: "");
    fputc('\n', out);
}

void seat_view_print(FILE *out, const char *match, const json_t *view)
{
    const char *text = json_string_value(json_object_get(view, "text"));
    const char *moves = json_string_value(json_object_get(view, "moves_text"));
    const char *status = json_string_value(json_object_get(view, "status"));
    const json_t *seats = json_object_get(view, "seats");
    const json_t *pending = json_object_get(view, "pending");
    const char *wait = json_string_value(json_object_get(pending, "wait"));
    bool sealed = wait != NULL && strcmp(wait, "simultaneous") == 0;
    if (status != NULL && strcmp(status, "open") == 0) {
        long long taken = 0;
        size_t i;
        const json_t *seat;
        json_array_foreach(seats, i, seat) taken +=
            !json_is_null(json_object_get(seat, "player"));
        fprintf(
            out,
            "%s is waiting for players: %lld of %lld seats are "
            "taken.\n",
            match, taken,
            (long long)json_integer_value(json_object_get(view, "seat_count")));
    }
    print_since(out, match, view);
    if (text != NULL) {
        fputs(text, out);
        if (text[0] != '\0' && text[strlen(text) - 1] != '\n')
            fputc('\n', out);
    }
    if (status != NULL && strcmp(status, "finished") == 0)
        seat_view_print_result(out, json_object_get(view, "result"), seats);
    else if (status != NULL && strcmp(status, "aborted") == 0)
        fputs("An admin aborted this match.\n", out);
    else if (seat_view_must_act(view) && moves != NULL && moves[0] != '\0') {
        fprintf(out, "\nYour move%s:\n%s",
                sealed ? " (a sealed choice: "
                         "nobody sees it until "
                         "every seat has chosen)"
                       : "s",
                moves);
        if (moves[strlen(moves) - 1] != '\n')
            fputc('\n', out);
        fprintf(out, "Play one with: pbem move %s \"MOVE\"\n", match);
    } else if (json_array_size(json_object_get(pending, "seats")) > 0) {
        fputs("\nWaiting for ", out);
        print_seat_list(out, json_object_get(pending, "seats"), seats);
        const char *prompt =
            json_string_value(json_object_get(pending, "prompt"));
        if (prompt != NULL && prompt[0] != '\0')
            fprintf(out, ": %s", prompt);
        fputs(sealed ? " (sealed choices; yours is made)\n" : "\n", out);
    } else if (json_array_size(json_object_get(pending, "reveal")) > 0) {
        fputs("\nWaiting for the reveal of ", out);
        print_seat_list(out, json_object_get(pending, "reveal"), seats);
        fputc('\n', out);
    }
    fprintf(out, "seq %lld\n", seat_view_seq(view));
}
