/* bot.c: a pbem bot that plays a random legal move whenever it is the turn
 * of the player who granted its key; the same bot as ../js/bot.mjs, on the
 * C client (client/client.h, client/client_stream.h). It follows the
 * player's event stream with its own Ed25519 key (a delegated key,
 * docs/bots.md), names the player in Pbem-On-Behalf-Of (covered by its
 * signature), and resumes the stream after a dropped connection or a
 * restart from the last id it saved.
 *
 *   pbem-random-bot key KEYFILE      make the key if missing, print its
 *                                    public key and key id
 *   pbem-random-bot play URL PLAYER KEYFILE [STATEFILE] [--matches N]
 *
 * KEYFILE holds the key's 32-byte seed in hex. STATEFILE (default
 * KEYFILE.last-id) keeps the last stream id read. With --matches N the bot
 * stops after N "match.over" items; SIGTERM or SIGINT stop it. */
#include <curl/curl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "client_stream.h"

/* A stream silent for two heartbeats (15 s each) is taken for dead. */
#define SILENCE_MS 40000
#define REMEMBERED_TURNS 256

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
    (void)sig;
    stopping = 1;
}

typedef struct bot {
    const char *url, *player, *state_file;
    client_key key;
    client *http;
    char last_id[32];
    long matches, over;
    char turns[REMEMBERED_TURNS][48]; /* "match/seq" already played */
    unsigned next_turn;
} bot;

/* Reads the seed in file, making one first when the file is missing. */
static bool load_key(const char *file, client_key *key)
{
    unsigned char seed[32];
    char hex[80] = "";
    FILE *f = fopen(file, "r");
    if (f == NULL) {
        randombytes_buf(seed, sizeof seed);
        sodium_bin2hex(hex, sizeof hex, seed, sizeof seed);
        umask(077);
        f = fopen(file, "w");
        if (f == NULL || fprintf(f, "%s\n", hex) < 0 || fclose(f) != 0)
            return false;
    } else {
        bool read = fgets(hex, sizeof hex, f) != NULL;
        fclose(f);
        if (!read || sodium_hex2bin(seed, sizeof seed, hex, strlen(hex), "\n",
                                    NULL, NULL) != 0)
            return false;
    }
    crypto_sign_seed_keypair(key->public_key, key->secret_key, seed);
    client_key_id(key->public_key, key->key_id);
    sodium_memzero(seed, sizeof seed);
    return true;
}

static void save_last_id(bot *b, const char *id)
{
    char tmp[1024];
    snprintf(b->last_id, sizeof b->last_id, "%s", id);
    snprintf(tmp, sizeof tmp, "%s.tmp", b->state_file);
    FILE *f = fopen(tmp, "w");
    if (f != NULL && fprintf(f, "%s\n", id) > 0 && fclose(f) == 0)
        rename(tmp, b->state_file);
}

/* A signed request by the bot, acting for its player. A move's answer
 * holds the seat's new view (Prefer: return=representation). */
static bool call(bot *b, const char *method, const char *path,
                 const char *body, client_response *out)
{
    const char *prefer[] = {"Prefer: return=representation", NULL};
    client_send_options options = {.on_behalf_of = b->player,
                                   .extra_headers = prefer};
    char err[256];
    if (client_send(b->http, method, path, body, &b->key, &options, out, err))
        return true;
    fprintf(stderr, "bot: %s %s: %s\n", method, path, err);
    return false;
}

/* True the first time a turn (match and seq) is seen: a turn may be told
 * twice while the stream opens. */
static bool first_time(bot *b, const char *match, json_int_t seq)
{
    char id[48];
    snprintf(id, sizeof id, "%s/%lld", match, (long long)seq);
    for (int i = 0; i < REMEMBERED_TURNS; i++)
        if (strcmp(b->turns[i], id) == 0)
            return false;
    snprintf(b->turns[b->next_turn++ % REMEMBERED_TURNS], sizeof id, "%s", id);
    return true;
}

/* A random element of array (borrowed), or NULL when it is empty. */
static json_t *any(const json_t *array)
{
    size_t n = json_array_size(array);
    return n ? json_array_get(array, randombytes_uniform((uint32_t)n)) : NULL;
}

/* A random legal move from a seat's view (GET .../view, or a move's
 * seat_view); NULL when the seat has nothing to do or played it already. */
static json_t *pick(bot *b, const char *match, const json_t *view)
{
    json_t *action = any(json_object_get(json_object_get(view, "legal"), "moves"));
    json_int_t seq = json_integer_value(
        json_object_get(json_object_get(view, "head"), "seq"));
    if (action == NULL || !first_time(b, match, seq))
        return NULL;
    return json_pack("{s:I,s:O}", "seq", seq, "action", action);
}

/* The same from GET .../view. */
static json_t *pick_from_view(bot *b, const char *match)
{
    char path[128];
    client_response view = {0};
    json_t *move = NULL;
    snprintf(path, sizeof path, "/v1/matches/%s/view", match);
    if (call(b, "GET", path, NULL, &view) && view.status == 200)
        move = pick(b, match, view.json);
    client_response_free(&view);
    return move;
}

/* One turn: a random move among those the item lists (text notation), else
 * among the legal moves of the seat's view; then, while the turn stays ours
 * (draw, then play), the next from the answer's seat_view: the stream tells
 * of a turn only when it comes to us. A stale seq (409) means the turn was
 * played already (by us before a restart) or moved on: the view says whether
 * it is still ours. */
static void play(bot *b, const json_t *turn)
{
    const char *match = json_string_value(json_object_get(turn, "match"));
    json_int_t seq = json_integer_value(json_object_get(turn, "seq"));
    json_t *text = any(json_object_get(turn, "moves"));
    char path[128];
    json_t *move = NULL;
    if (match == NULL)
        return;
    if (text == NULL) {
        move = pick_from_view(b, match);
    } else if (first_time(b, match, seq)) {
        move = json_pack("{s:I,s:O}", "seq", seq, "move", text);
    }
    snprintf(path, sizeof path, "/v1/matches/%s/moves", match);
    while (move != NULL) {
        char *body = json_dumps(move, JSON_COMPACT);
        json_t *shown = json_object_get(move, "action");
        char *action = shown ? json_dumps(shown, JSON_COMPACT) : NULL;
        client_response answer = {0};
        json_t *next = NULL;
        if (body != NULL && call(b, "POST", path, body, &answer)) {
            const char *code = json_string_value(json_object_get(
                json_object_get(answer.json, "error"), "code"));
            fprintf(stderr, "bot: %s seq %lld: %s -> %ld %s\n", match,
                    (long long)json_integer_value(json_object_get(move, "seq")),
                    action ? action
                           : json_string_value(json_object_get(move, "move")),
                    answer.status, code ? code : "");
            if (answer.status == 200)
                next = pick(b, match, json_object_get(answer.json, "seat_view"));
            else if (answer.status == 409)
                next = pick_from_view(b, match);
        }
        client_response_free(&answer);
        free(action);
        free(body);
        json_decref(move);
        move = next;
    }
}

/* One line of the stream. Its id is saved once it is handled, so a bot
 * killed in between reads it again (and its move, then stale, is refused). */
static void handle(bot *b, const char *line)
{
    json_t *item = json_loads(line, 0, NULL);
    const char *type = json_string_value(json_object_get(item, "type"));
    if (type != NULL && strcmp(type, "match.your_turn") == 0)
        play(b, json_object_get(item, "data"));
    if (type != NULL && strcmp(type, "match.over") == 0 &&
        ++b->over >= b->matches)
        stopping = 1;
    json_t *id = json_object_get(item, "stream_id");
    if (json_is_integer(id)) {
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)json_integer_value(id));
        save_last_id(b, text);
    }
    json_decref(item);
}

/* Reads the stream, one JSON object a line, until it ends or stays silent
 * too long; returns the seconds to wait before reconnecting. */
static int follow(bot *b)
{
    char last[64], err[256];
    snprintf(last, sizeof last, "Last-Event-ID: %s", b->last_id);
    const char *headers[] = {"Accept: application/x-ndjson",
                             b->last_id[0] ? last : NULL, NULL};
    client_stream *s =
        client_stream_open_for(b->url, "/v1/players/me/stream", &b->key,
                               b->player, headers, 10000, err);
    if (s == NULL) {
        fprintf(stderr, "bot: stream: %s\n", err);
        return 1;
    }
    long status = client_stream_status(s);
    if (status != 200) {
        const char *retry = client_stream_header(s, "Retry-After");
        client_stream_wait_end(s, 2000);
        fprintf(stderr, "bot: stream: %ld %s\n", status,
                client_stream_body(s, NULL));
        if (status == 410)
            b->last_id[0] = '\0'; /* resume point too old: start afresh */
        int wait = retry ? atoi(retry) : 2;
        client_stream_close(s);
        return wait > 0 ? wait : 1;
    }
    fprintf(stderr, "bot: following %s's stream%s%s\n", b->player,
            b->last_id[0] ? " after " : "", b->last_id);
    int silent_ms = 0;
    while (!stopping && silent_ms < SILENCE_MS) {
        size_t len;
        const char *body = client_stream_body(s, &len);
        const char *end = memchr(body, '\n', len);
        if (end != NULL) {
            char *line = strndup(body, (size_t)(end - body));
            client_stream_drop(s, (size_t)(end - body) + 1);
            if (line != NULL && line[0] != '\0')
                handle(b, line);
            free(line);
            silent_ms = 0;
        } else if (client_stream_ended(s)) {
            break;
        } else if (!client_stream_wait_for(s, "\n", 0, 1000)) {
            silent_ms += 1000; /* waits in short steps to notice a signal */
        }
    }
    client_stream_close(s);
    return 1;
}

int main(int argc, char **argv)
{
    if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
        return 1;
    bot b = {.matches = LONG_MAX};
    if (argc == 3 && strcmp(argv[1], "key") == 0) {
        char public_key[64];
        if (!load_key(argv[2], &b.key)) {
            fprintf(stderr, "bot: cannot read or write the key in %s\n", argv[2]);
            return 1;
        }
        sodium_bin2base64(public_key, sizeof public_key, b.key.public_key, 32,
                          sodium_base64_VARIANT_ORIGINAL);
        printf("{\"public_key\":\"%s\",\"key_id\":\"%s\"}\n", public_key,
               b.key.key_id);
        return 0;
    }
    if (argc >= 6 && strcmp(argv[argc - 2], "--matches") == 0) {
        b.matches = atol(argv[argc - 1]);
        argc -= 2;
    }
    if (argc < 5 || argc > 6 || strcmp(argv[1], "play") != 0) {
        fprintf(stderr, "usage: pbem-random-bot key KEYFILE\n"
                        "       pbem-random-bot play URL PLAYER KEYFILE "
                        "[STATEFILE] [--matches N]\n");
        return 2;
    }
    char state_file[1024];
    snprintf(state_file, sizeof state_file, "%s.last-id", argv[4]);
    b.url = argv[2];
    b.player = argv[3];
    b.state_file = argc == 6 ? argv[5] : state_file;
    if (!load_key(argv[4], &b.key)) {
        fprintf(stderr, "bot: cannot read or write the key in %s\n", argv[4]);
        return 1;
    }
    FILE *f = fopen(b.state_file, "r");
    if (f != NULL) {
        if (fgets(b.last_id, sizeof b.last_id, f) != NULL)
            b.last_id[strcspn(b.last_id, "\n")] = '\0';
        fclose(f);
    }
    b.http = client_new(b.url);
    if (b.http == NULL)
        return 1;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    while (!stopping) {
        int wait = follow(&b);
        for (int i = 0; i < wait * 10 && !stopping; i++)
            usleep(100000);
    }
    client_free(b.http);
    curl_global_cleanup();
    return 0;
}
