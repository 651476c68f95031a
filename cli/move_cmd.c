/* move_cmd.c: pbem move.
 *
 * A move is decided on what the player saw, so it carries the seq of the
 * last pbem view. When the match has moved on since (409 stale_seq), the
 * player is shown what happened, and the move is sent once more at the
 * new seq only when it is still theirs to make and still among their
 * legal moves; the server judges it again anyway.
 *
 * Sealed choices (every seat choosing in secret) are moves like any
 * other: the server seals them (server-sealed commit), so a person at a
 * terminal never handles a commitment or a nonce.
 */
#include "player_cmd.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_text.h"
#include "player_client.h"
#include "player_config.h"
#include "seat_view.h"

static int usage(FILE *out)
{
    fputs("usage: pbem move MATCH \"MOVE\"\n"
          "Plays MOVE (as pbem view lists them) at the seq of your last "
          "pbem view.\nWhen the match has moved on since, pbem shows what "
          "changed and tries once more\nif the move is still yours to "
          "make. A sealed choice is sent the same way:\nthe server keeps "
          "it secret until every seat has chosen.\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* text lower-cased with runs of blanks as one space, trimmed (size). */
static void normalise(const char *text, char *out, size_t size)
{
    size_t n = 0;
    bool blank = false;
    for (; *text != '\0' && n + 2 < size; text++) {
        if (isspace((unsigned char)*text)) {
            blank = n > 0;
            continue;
        }
        if (blank)
            out[n++] = ' ';
        blank = false;
        out[n++] = (char)tolower((unsigned char)*text);
    }
    out[n] = '\0';
}

/* False when view's complete list of legal moves lacks text. A sample
 * (complete false) cannot tell, so the server judges. */
static bool still_listed(const json_t *view, const char *text)
{
    const json_t *legal = json_object_get(view, "legal");
    if (!json_is_true(json_object_get(legal, "complete")))
        return true;
    char wanted[1100], each[1100];
    normalise(text, wanted, sizeof wanted);
    size_t i;
    const json_t *item;
    json_array_foreach(json_object_get(legal, "texts"), i, item)
    {
        if (!json_is_string(item))
            continue;
        normalise(json_string_value(item), each, sizeof each);
        if (strcmp(each, wanted) == 0)
            return true;
    }
    return false;
}

/* POST the move at seq; PLAYER_OK with out, or an exit code. */
static int send_move(player_session *s, const char *path, long long seq,
                     const char *text, client_response *out)
{
    json_t *body = json_pack("{s:I,s:s}", "seq", (json_int_t)seq, "move", text);
    if (body == NULL) {
        fputs("pbem: MOVE must be UTF-8 text.\n", stderr);
        return PLAYER_USAGE;
    }
    char *json = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int code = player_send(s, "POST", path, json, true, out);
    free(json);
    return code;
}

/* Prints the events of match after seq (public log). */
static int show_events_since(player_session *s, const char *match,
                             long long seq, const json_t *seats)
{
    char path[160];
    char suffix[48];
    snprintf(suffix, sizeof suffix, "/events?after=%lld", seq);
    if (!player_match_path(path, sizeof path, match, suffix))
        return PLAYER_USAGE;
    client_response r;
    int code = player_call(s, "GET", path, NULL, &r);
    if (code != PLAYER_OK)
        return code;
    size_t i;
    const json_t *event;
    json_array_foreach(json_object_get(r.json, "events"), i, event)
    {
        event_text_print(stdout, event, seats);
    }
    client_response_free(&r);
    return PLAYER_OK;
}

/* What an accepted move's answer says to the player. */
static void print_accepted(const char *match, const char *text,
                           const json_t *answer)
{
    const char *decision =
        json_string_value(json_object_get(answer, "decision"));
    long long seq = json_integer_value(json_object_get(answer, "seq"));
    const char *told = json_string_value(json_object_get(answer, "text"));
    const json_t *view = json_object_get(answer, "seat_view");
    if (decision != NULL) {
        printf("Your choice \"%s\" is sealed (decision %s, seq %lld)", text,
               decision, seq);
        puts(json_is_true(json_object_get(answer, "decided"))
                 ? "; every seat has chosen and the choices are applied."
                 : "; it is revealed when every seat has chosen.");
    } else if (told != NULL && told[0] != '\0') {
        /* What the move did, as the server tells it to its player. */
        printf("%s (seq %lld)\n", told, seq);
    } else {
        printf("Played \"%s\" (seq %lld).\n", text, seq);
    }
    const json_t *result = json_object_get(answer, "result");
    if (json_is_true(json_object_get(answer, "over"))) {
        seat_view_print_result(stdout, result, json_object_get(view, "seats"));
        return;
    }
    const char *moves = json_string_value(json_object_get(view, "moves_text"));
    if (view != NULL && seat_view_must_act(view) && moves && moves[0]) {
        printf("Your move again:\n%s", moves);
        if (moves[strlen(moves) - 1] != '\n')
            putchar('\n');
        printf("Play one with: pbem move %s \"MOVE\"\n", match);
    }
}

int move_cmd_main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0)
        return usage(stdout);
    if (argc != 3 || argv[1][0] == '-')
        return usage(stderr);
    const char *match = argv[1], *text = argv[2];
    char path[128];
    if (!player_match_path(path, sizeof path, match, "/moves"))
        return PLAYER_USAGE;
    if (strlen(text) == 0 || strlen(text) > 1000) {
        fputs("pbem: MOVE must be between 1 and 1000 characters.\n", stderr);
        return PLAYER_USAGE;
    }
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_REGISTRATION);
    if (code != PLAYER_OK)
        return code;
    long long seq = player_config_seen(match);
    if (seq < 0) {
        fprintf(stderr,
                "pbem: you have not looked at %s yet: run pbem view "
                "%s first, so your move is made on what you saw.\n",
                match, match);
        player_close(&s);
        return PLAYER_NOT_SET_UP;
    }
    client_response r;
    code = send_move(&s, path, seq, text, &r);
    if (code == PLAYER_OK && r.status == 409 &&
        strcmp(player_error_code(&r), "stale_seq") == 0) {
        client_response_free(&r);
        client_response view;
        code = seat_view_fetch(&s, match, &view);
        if (code != PLAYER_OK) {
            player_close(&s);
            return code;
        }
        long long head = seat_view_seq(view.json);
        printf("The match has moved on since you looked (seq %lld, now "
               "%lld):\n",
               seq, head);
        code = show_events_since(&s, match, seq,
                                 json_object_get(view.json, "seats"));
        player_config_remember(match, head);
        if (code == PLAYER_OK && !seat_view_must_act(view.json)) {
            fprintf(stderr,
                    "pbem: it is no longer your move, so \"%s\" was "
                    "not sent again (pbem view %s shows the match).\n",
                    text, match);
            code = PLAYER_REFUSED;
        } else if (code == PLAYER_OK && !still_listed(view.json, text)) {
            fprintf(stderr,
                    "pbem: \"%s\" is no longer one of your moves, so "
                    "it was not sent again (pbem view %s lists "
                    "them).\n",
                    text, match);
            code = PLAYER_REFUSED;
        } else if (code == PLAYER_OK) {
            printf("\"%s\" is still one of your moves: sending it at seq "
                   "%lld.\n",
                   text, head);
            code = send_move(&s, path, head, text, &r);
        }
        client_response_free(&view);
        if (code != PLAYER_OK) {
            player_close(&s);
            return code;
        }
    }
    if (code != PLAYER_OK) {
        player_close(&s);
        return code;
    }
    if (r.status != 200) {
        code = player_refused(&r);
    } else {
        player_config_remember(
            match, json_integer_value(json_object_get(r.json, "seq")));
        print_accepted(match, text, r.json);
    }
    client_response_free(&r);
    player_close(&s);
    return code;
}
