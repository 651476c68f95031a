/* watch_cmd.c: pbem watch.
 *
 * Polls the public log (GET /v1/matches/{id}/events?after=N) every few
 * seconds and prints each new event as a line, until the match is over
 * or Ctrl-C. Reads only public things, so it needs no key.
 */
#include "player_cmd.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event_text.h"
#include "player_client.h"
#include "player_config.h"

static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
}

static int usage(FILE *out)
{
    fputs("usage: pbem watch MATCH [--interval SECONDS]\n"
          "Prints every event of MATCH as a line, then each new one as it "
          "comes\n(asking every SECONDS, 1 to 60, default 2), until the "
          "match is over\n(exit 0) or Ctrl-C (exit 0).\n",
          out);
    return out == stdout ? PLAYER_OK : PLAYER_USAGE;
}

/* The public match (for the players' names): PLAYER_OK or an exit code. */
static int fetch_match(player_session *s, const char *match, json_t **seats)
{
    char path[128];
    if (!player_match_path(path, sizeof path, match, ""))
        return PLAYER_USAGE;
    client_response r;
    int code = player_call(s, "GET", path, NULL, &r);
    if (code != PLAYER_OK)
        return code;
    json_decref(*seats);
    *seats = json_incref(json_object_get(r.json, "seats"));
    client_response_free(&r);
    return PLAYER_OK;
}

int watch_cmd_main(int argc, char **argv)
{
    const char *match = NULL;
    long interval = 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0)
            return usage(stdout);
        if (strcmp(argv[i], "--interval") == 0 && i + 1 < argc) {
            char *end = NULL;
            interval = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || interval < 1 || interval > 60)
                return usage(stderr);
        } else if (argv[i][0] != '-' && match == NULL)
            match = argv[i];
        else
            return usage(stderr);
    }
    if (match == NULL)
        return usage(stderr);
    if (!player_config_match_id_ok(match)) {
        fprintf(stderr, "pbem: \"%.60s\" is not a match id (like m_12).\n",
                match);
        return PLAYER_USAGE;
    }
    player_session s;
    int code = player_open(&s, PLAYER_NEEDS_NOTHING);
    json_t *seats = NULL;
    if (code == PLAYER_OK)
        code = fetch_match(&s, match, &seats);
    struct sigaction action = {.sa_handler = on_interrupt};
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    long long after = 0;
    bool over = false;
    while (code == PLAYER_OK && !over && !interrupted) {
        char path[160], suffix[64];
        snprintf(suffix, sizeof suffix, "/events?after=%lld&limit=500", after);
        player_match_path(path, sizeof path, match, suffix);
        client_response r;
        code = player_call(&s, "GET", path, NULL, &r);
        if (code != PLAYER_OK)
            break;
        const json_t *events = json_object_get(r.json, "events");
        size_t i;
        const json_t *event;
        json_array_foreach(events, i, event)
        {
            const char *kind =
                json_string_value(json_object_get(event, "kind"));
            /* A newcomer's name is in the match, not in the event. */
            if (kind != NULL && (strcmp(kind, "joined") == 0 ||
                                 strcmp(kind, "seat_replaced") == 0))
                code = fetch_match(&s, match, &seats);
            event_text_print(stdout, event, seats);
            after = json_integer_value(json_object_get(event, "seq"));
            over = over || event_text_is_end(event);
        }
        fflush(stdout);
        bool full_page = json_array_size(events) == 500;
        client_response_free(&r);
        if (over || full_page || code != PLAYER_OK)
            continue;
        /* nanosleep returns early on Ctrl-C, which ends the loop. */
        struct timespec pause = {.tv_sec = interval};
        nanosleep(&pause, NULL);
    }
    json_decref(seats);
    player_close(&s);
    return code;
}
