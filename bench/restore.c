/* restore.c: restoring exported matches, through the whole service.
 *   restore PBEMD COUNT DATABASE_URL_A DATABASE_URL_B
 * Plays COUNT complete or half-played Artifact Stack matches through the
 * engine, every move signed by its player as the service records it, and
 * writes them as an export (a quarter stop halfway: those are active and
 * replayed from their sealed seed at import; the others are finished and
 * replayed from their revealed seed). Starts pbemd on database A and
 * restores them there; exports everything back from A (streamed); starts a
 * second pbemd on the empty database B with the same service key and
 * restores A's export there, timed. Each import request carries a batch
 * of matches; two clients send batches at once. Prints one line per phase
 * of key=value pairs; the last is the figure: events verified and replayed
 * per second while restoring A's export into B. */
#include <curl/curl.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "ledger/httpsig.h"
#include "rules.h"
#include "ledger/seal.h"
#include "store/store.h"

#define GAME "artifact_stack"
#define PLAYERS 64
#define BATCH_BYTES (6 * 1024 * 1024)
#define CLIENTS 2
#define KEY_FILE "var/bench-restore.key"

typedef struct player {
    long long id;
    char key_id[64];
    char public_b64[64];
    unsigned char secret_key[64];
} player;

typedef struct text {
    char *bytes;
    size_t len, cap;
} text;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void put(text *t, const char *bytes, size_t len)
{
    if (t->len + len + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1 << 20;
        while (cap < t->len + len + 1)
            cap *= 2;
        t->bytes = realloc(t->bytes, cap);
        if (t->bytes == NULL)
            abort();
        t->cap = cap;
    }
    memcpy(t->bytes + t->len, bytes, len);
    t->len += len;
    t->bytes[t->len] = '\0';
}

static void put_json_line(text *t, const json_t *value)
{
    char *line = json_dumps(value, JSON_COMPACT);
    put(t, line, strlen(line));
    put(t, "\n", 1);
    free(line);
}

static void new_player(player *p, int n)
{
    unsigned char public_key[32];
    crypto_sign_keypair(public_key, p->secret_key);
    client_key_id(public_key, p->key_id);
    sodium_bin2base64(p->public_b64, sizeof p->public_b64, public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    p->id = (long long)(random_id >> 1) | 1;
    (void)n;
}

/* One match being written: its chain and its lines. */
typedef struct writer {
    text *out;
    char ref[32];
    long long seq;
    uint8_t prev[STORE_HASH_BYTES];
    long long clock;
} writer;

static void event(writer *w, const char *kind, int seat, json_t *data)
{
    char at[40];
    time_t secs = (time_t)(w->clock / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    size_t n = strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(at + n, sizeof at - n, ".%03lldZ", w->clock % 1000);
    w->clock += 1500;
    json_t *body = json_pack("{s:s,s:I,s:s,s:o,s:s,s:o}", "match", w->ref,
                             "seq", (json_int_t)++w->seq, "kind", kind, "seat",
                             seat >= 0 ? json_integer(seat) : json_null(), "at",
                             at, "data", data);
    char *bytes = rules_sorted_json(body);
    json_decref(body);
    uint8_t hash[STORE_HASH_BYTES];
    chain_hash(w->prev, bytes, hash);
    char prev_hex[2 * STORE_HASH_BYTES + 1], hash_hex[2 * STORE_HASH_BYTES + 1];
    sodium_bin2hex(prev_hex, sizeof prev_hex, w->prev, sizeof w->prev);
    sodium_bin2hex(hash_hex, sizeof hash_hex, hash, sizeof hash);
    memcpy(w->prev, hash, sizeof hash);
    put(w->out, bytes, strlen(bytes) - 1);
    put(w->out, ",\"hash\":\"", 9);
    put(w->out, hash_hex, strlen(hash_hex));
    put(w->out, "\",\"prev_hash\":\"", 15);
    put(w->out, prev_hex, strlen(prev_hex));
    put(w->out, "\"}\n", 3);
    free(bytes);
}

/* The signed request of a move, as the service keeps it in the event. */
static json_t *signed_move(const writer *w, const player *p, long long head,
                           const json_t *action)
{
    char target[64];
    snprintf(target, sizeof target, "/v1/matches/%s/moves", w->ref);
    json_t *body =
        json_pack("{s:I,s:O}", "seq", (json_int_t)head, "action", action);
    char *bytes = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    httpsig_request req = {.method = "POST",
                           .target = target,
                           .body = (const unsigned char *)bytes,
                           .body_len = strlen(bytes)};
    static const char *const components[] = {"@method", "@path",
                                             "content-digest"};
    char nonce[33];
    uint8_t random[16];
    randombytes_buf(random, sizeof random);
    sodium_bin2hex(nonce, sizeof nonce, random, sizeof random);
    httpsig_headers headers;
    httpsig_error err;
    if (!httpsig_sign(&req, components, 3, p->key_id, nonce, w->clock / 1000,
                      NULL, p->secret_key, &headers, &err)) {
        fprintf(stderr, "restore: cannot sign: %s\n", err.message);
        exit(1);
    }
    json_t *request =
        json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "keyid", p->key_id,
                  "signature_input", headers.signature_input, "signature",
                  headers.signature, "method", "POST", "content_digest",
                  headers.content_digest, "body", bytes, "target", target);
    httpsig_headers_free(&headers);
    free(bytes);
    return request;
}

static json_t *seat_entry(const player *p, int seat)
{
    char ref[32];
    store_player_ref(p->id, ref);
    return json_pack("{s:i,s:s,s:s,s:n,s:s,s:s}", "seat", seat, "player", ref,
                     "name", "bench", "email", "public_key", p->public_b64,
                     "key_id", p->key_id);
}

/* Writes one match's export; returns its events. */
static long write_match(text *out, const rules_engine *engine, long n,
                        const player *players, bool finish)
{
    const player *seat_player[2] = {&players[(2 * n) % PLAYERS],
                                    &players[(2 * n + 1) % PLAYERS]};
    writer w = {.out = out, .clock = 1767225600000LL + n * 1000000LL};
    uint64_t random_id;
    randombytes_buf(&random_id, sizeof random_id);
    long long match_id = (long long)(random_id >> 1) | 1;
    store_match_ref(match_id, w.ref);
    uint8_t seed[SEAL_SEED_BYTES], commitment[SEAL_HASH_BYTES];
    uint8_t sealed[SEAL_SEED_BYTES + SEAL_OVERHEAD];
    seal_new_seed(seed);
    seal_seed_commitment(seed, commitment);
    seal_encrypt(match_id, seed, sizeof seed, sealed);
    char commitment_hex[2 * SEAL_HASH_BYTES + 1],
        seed_hex[2 * SEAL_SEED_BYTES + 1];
    char sealed_b64[128], creator[32];
    sodium_bin2hex(commitment_hex, sizeof commitment_hex, commitment,
                   sizeof commitment);
    sodium_bin2hex(seed_hex, sizeof seed_hex, seed, sizeof seed);
    sodium_bin2base64(sealed_b64, sizeof sealed_b64, sealed, sizeof sealed,
                      sodium_base64_VARIANT_ORIGINAL);
    store_player_ref(seat_player[0]->id, creator);
    json_t *declared = engine->describe_options();
    rules_error rerr;
    json_t *options = rules_resolve_options(declared, NULL, &rerr);
    json_decref(declared);

    /* Play first: the header says whether the match finished. */
    uint8_t no_entropy[2][32] = {{0}};
    uint8_t match_seed[RULES_SEED_BYTES];
    seal_match_seed(seed, (const uint8_t(*)[32])no_entropy, 2, match_seed);
    rules_state *state = engine->setup(options, 2, match_seed, &rerr);
    json_t *moves = json_array();
    for (int k = 0; k < 100000; k++) {
        rules_pending pending;
        engine->pending(state, &pending);
        if (pending.wait == RULES_WAIT_NOBODY)
            break;
        int seat = __builtin_ctz(pending.seats);
        json_t *legal = engine->legal(state, seat);
        json_t *list = json_object_get(legal, "moves");
        json_t *action = json_incref(json_array_get(
            list, randombytes_uniform((uint32_t)json_array_size(list))));
        json_decref(legal);
        char *move_text = engine->format_move(state, seat, action);
        if (!engine->apply(state, seat, action, &rerr)) {
            fprintf(stderr, "restore: a listed move was refused: %s\n",
                    rerr.message);
            exit(1);
        }
        json_array_append_new(moves,
                              json_pack("{s:i,s:o,s:s}", "seat", seat, "action",
                                        action, "text", move_text));
        free(move_text);
    }
    size_t played = json_array_size(moves);
    size_t keep = finish ? played : played / 2;
    bool over = keep == played;
    json_t *result = engine->result(state);
    engine->destroy(state);

    char ref0[32], ref1[32];
    store_player_ref(seat_player[0]->id, ref0);
    store_player_ref(seat_player[1]->id, ref1);
    json_t *header = json_pack(
        "{s:s,s:s,s:s,s:i,s:O,s:i,s:s,s:[o,o],s:[],s:[],s:s,s:s}", "format",
        "pbem-export/1", "match", w.ref, "game", engine->name, "engine_version",
        engine->version, "options", options, "seat_count", 2, "status",
        over ? "finished" : "active", "seats", seat_entry(seat_player[0], 0),
        seat_entry(seat_player[1], 1), "replacements", "sealed_choices",
        "seed_commitment", commitment_hex, "sealed_seed", sealed_b64);
    put_json_line(out, header);
    json_decref(header);
    event(&w, "created", -1,
          json_pack("{s:s,s:i,s:O,s:i,s:s,s:s}", "game", engine->name,
                    "engine_version", engine->version, "options", options,
                    "seats", 2, "seed_commitment", commitment_hex, "created_by",
                    creator));
    event(&w, "joined", 0, json_pack("{s:s}", "player", ref0));
    event(&w, "joined", 1, json_pack("{s:s}", "player", ref1));
    event(&w, "started", -1,
          json_pack("{s:s,s:i}", "engine", engine->name, "engine_version",
                    engine->version));
    for (size_t k = 0; k < keep; k++) {
        json_t *move = json_array_get(moves, k);
        int seat = (int)json_integer_value(json_object_get(move, "seat"));
        json_t *action = json_object_get(move, "action");
        json_t *request = signed_move(&w, seat_player[seat], w.seq, action);
        event(&w, "move", seat,
              json_pack("{s:O,s:O,s:o}", "action", action, "text",
                        json_object_get(move, "text"), "request", request));
    }
    if (over)
        event(&w, "finished", -1,
              json_pack("{s:O,s:s}", "result", result, "seed", seed_hex));
    json_decref(result);
    json_decref(moves);
    json_decref(options);
    sodium_memzero(seed, sizeof seed);
    return (long)w.seq;
}

typedef struct server {
    pid_t pid;
    char base[64];
} server;

static void start_server(server *s, const char *pbemd, const char *url,
                         const char *admin_b64)
{
    int out[2];
    if (pipe(out) != 0)
        exit(1);
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
        setenv("DATABASE_URL", url, 1);
        setenv("PBEM_LISTEN", "127.0.0.1:0", 1);
        setenv("PBEM_KEY_FILE", KEY_FILE, 1);
        setenv("PBEM_QUIET", "1", 1);
        setenv("PBEM_NOTIFY", "0", 1);
        setenv("PBEM_ADMIN_KEY", admin_b64, 1);
        execl(pbemd, pbemd, (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    FILE *lines = fdopen(out[0], "r");
    char line[256] = {0};
    const char *at = fgets(line, sizeof line, lines)
                         ? strstr(line, "http://127.0.0.1:")
                         : NULL;
    if (at == NULL) {
        fprintf(stderr, "restore: pbemd did not start\n");
        exit(1);
    }
    fclose(lines);
    s->pid = pid;
    snprintf(s->base, sizeof s->base, "http://127.0.0.1:%d",
             atoi(at + strlen("http://127.0.0.1:")));
}

static void stop_server(server *s)
{
    kill(s->pid, SIGTERM);
    waitpid(s->pid, NULL, 0);
}

/* Batches of whole matches, each under BATCH_BYTES. */
typedef struct batches {
    const char *base;
    const client_key *admin;
    const char *text;
    size_t *starts; /* batch i is text[starts[i], starts[i+1]) */
    int count;
    int next; /* taken under lock */
    pthread_mutex_t lock;
    char error[300];
} batches;

static void split(batches *b, const char *text)
{
    b->text = text;
    size_t len = strlen(text), cap = 16;
    b->starts = malloc(cap * sizeof *b->starts);
    b->count = 0;
    b->starts[0] = 0;
    size_t start = 0, last_header = 0;
    for (const char *at = strstr(text, "{\"format\""); at != NULL;
         at = strstr(at + 1, "\n{\"format\"")) {
        size_t offset = (size_t)(at - text) + (at[0] == '\n');
        if (offset - start > BATCH_BYTES && last_header > start) {
            if ((size_t)b->count + 2 >= cap)
                b->starts = realloc(b->starts, (cap *= 2) * sizeof *b->starts);
            b->starts[++b->count] = last_header;
            start = last_header;
        }
        last_header = offset;
    }
    if ((size_t)b->count + 2 >= cap)
        b->starts = realloc(b->starts, (cap + 2) * sizeof *b->starts);
    b->starts[++b->count] = len;
}

static void *send_batches(void *arg)
{
    batches *b = arg;
    client *http = client_new(b->base);
    for (;;) {
        pthread_mutex_lock(&b->lock);
        int i = b->next < b->count ? b->next++ : -1;
        pthread_mutex_unlock(&b->lock);
        if (i < 0)
            break;
        size_t len = b->starts[i + 1] - b->starts[i];
        char *body = strndup(b->text + b->starts[i], len);
        client_response r;
        char error[256];
        if (!client_send(http, "POST", "/v1/admin/matches/import", body,
                         b->admin, NULL, &r, error)) {
            snprintf(b->error, sizeof b->error, "%s", error);
        } else {
            if (r.status != 201)
                snprintf(b->error, sizeof b->error, "import: %ld %.200s",
                         r.status, r.body ? r.body : "");
            client_response_free(&r);
        }
        free(body);
    }
    client_free(http);
    return NULL;
}

/* Imports text into the server at base with CLIENTS clients; seconds. */
static double restore(const char *base, const client_key *admin,
                      const char *text)
{
    batches b = {.base = base, .admin = admin};
    pthread_mutex_init(&b.lock, NULL);
    split(&b, text);
    double start = now_seconds();
    pthread_t threads[CLIENTS];
    for (int i = 0; i < CLIENTS; i++)
        pthread_create(&threads[i], NULL, send_batches, &b);
    for (int i = 0; i < CLIENTS; i++)
        pthread_join(threads[i], NULL);
    double took = now_seconds() - start;
    if (b.error[0]) {
        fprintf(stderr, "restore: %s\n", b.error);
        exit(1);
    }
    free(b.starts);
    return took;
}

static size_t count_of(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
        n++;
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s PBEMD COUNT DATABASE_URL_A DATABASE_URL_B\n",
                argv[0]);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    apierr err;
    if (sodium_init() < 0 || !seal_load_key(KEY_FILE, &err)) {
        fprintf(stderr, "restore: no service key\n");
        return 1;
    }
    long count = atol(argv[2]);
    const rules_engine *engine = rules_find(GAME);
    client_key admin;
    client_new_key(&admin);
    snprintf(admin.key_id, sizeof admin.key_id, "admin");
    char admin_b64[64];
    sodium_bin2base64(admin_b64, sizeof admin_b64, admin.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    player players[PLAYERS];
    for (int i = 0; i < PLAYERS; i++)
        new_player(&players[i], i);

    double start = now_seconds();
    text made = {0};
    long events = 0;
    for (long n = 0; n < count; n++)
        events += write_match(&made, engine, n, players, n % 4 != 3);
    printf("generate matches=%ld events=%ld seconds=%.2f\n", count, events,
           now_seconds() - start);

    server a, b;
    start_server(&a, argv[1], argv[3], admin_b64);
    double took = restore(a.base, &admin, made.bytes);
    printf("restore_generated matches=%ld events=%ld seconds=%.2f "
           "matches_per_second=%.1f events_per_second=%.0f\n",
           count, events, took, (double)count / took, (double)events / took);
    free(made.bytes);

    client *http = client_new(a.base);
    client_response r;
    char error[256];
    start = now_seconds();
    if (!client_send(http, "GET", "/v1/admin/export", NULL, &admin, NULL, &r,
                     error) ||
        r.status != 200) {
        fprintf(stderr, "restore: export failed: %s\n", error);
        return 1;
    }
    took = now_seconds() - start;
    client_free(http);
    size_t exported = count_of(r.body, "{\"format\"");
    size_t bytes = strlen(r.body);
    printf("export matches=%zu mib=%.1f seconds=%.2f mib_per_second=%.1f\n",
           exported, (double)bytes / 1048576.0, took,
           (double)bytes / 1048576.0 / took);
    stop_server(&a);

    start_server(&b, argv[1], argv[4], admin_b64);
    took = restore(b.base, &admin, r.body);
    printf(
        "restore matches=%zu events=%ld seconds=%.2f matches_per_second=%.1f "
        "events_verified_and_replayed_per_second=%.0f\n",
        exported, events, took, (double)exported / took, (double)events / took);
    client_response_free(&r);
    stop_server(&b);
    curl_global_cleanup();
    return exported == (size_t)count ? 0 : 1;
}
