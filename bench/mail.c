/* mail.c: messages handled per second by the mail door, through
 * `pbem mail-in` (one process per message, as a mail server's pipe runs it)
 * or through pbemd's IMAP worker reading a private Dovecot.
 *
 *   mail URL MODE MATCHES ROUNDS SERVICE_KEY MAIL_KEY PBEM [IMAP_URL]
 *   mail keygen FILE     (the mail key: seed to FILE, public half printed)
 *
 * MODE: mailin (one `pbem mail-in` at a time), mailin:N (up to N at once,
 * as a mail server runs its pipe deliveries in parallel) or imap.
 *
 * MATCHES Antiquity Quest matches of two players with keys and addresses
 * are set up over HTTP. Each round writes, for every match, the mail its
 * waiting player would send: the first legal move, to a reply address made
 * with the service's key (SERVICE_KEY, pbemd's own), as the "your turn"
 * mail carries. Only handing the round's mails in and their handling are
 * timed: for mail-in, from the first `pbem mail-in` process's start to the
 * last one's exit; for IMAP, from the first APPEND until the database has
 * recorded every message (seconds), and from the moment the round's
 * messages are in the mailbox unseen, as a mail server delivers them
 * (handled_seconds: the worker's own part). Prints one line of figures;
 * asserts nothing. */
#include <curl/curl.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "auth/reply_token.h"
#include "client.h"
#include "ledger/seal.h"
#include "store/store.h"

#define MATCHES_MAX 64
#define AT_ONCE_MAX 64

typedef struct seat_player {
    client_key key;
    char id[32];
    char email[64];
} seat_player;

typedef struct bench_match {
    char ref[32];
    seat_player players[2];
    long long head;
} bench_match;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* CPU seconds of the reaped child processes (the mail-in processes). */
static double children_cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec / 1e6 +
           (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec / 1e6;
}

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "bench/mail: %s: %s\n", what, detail ? detail : "");
    exit(1);
}

static json_t *call(client *c, const char *method, const char *path,
                    const char *body, const client_key *key, long expect)
{
    client_response r;
    char error[256];
    if (!client_send(c, method, path, body, key, NULL, &r, error))
        die(path, error);
    if (r.status != expect)
        die(path, r.body);
    json_t *json = json_incref(r.json);
    client_response_free(&r);
    return json;
}

/* An address is a player's once the link mailed to it was opened
 * (play/email_links); the bench has no mailbox to open it from, so it
 * writes the address in, as the tests do (e2e_confirm_address). Without
 * it every benched mail came from a stranger and moved nothing. */
static void confirm_address(PGconn *db, const char *player_ref,
                            const char *email)
{
    const char *params[] = {player_ref + 2, email};
    PGresult *r = PQexecParams(db,
                               "UPDATE players SET email = $2"
                               " WHERE player_id = $1::bigint",
                               2, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        die("confirm address", PQerrorMessage(db));
    PQclear(r);
}

static void set_up(client *c, PGconn *db, bench_match *m, int n)
{
    for (int s = 0; s < 2; s++) {
        seat_player *p = &m->players[s];
        snprintf(p->email, sizeof p->email, "p%d%c@bench.example", n, 'a' + s);
        client_new_key(&p->key);
        char error[256];
        if (!client_register(c, s ? "Bob" : "Alice", p->email, &p->key, p->id,
                             error))
            die("register", error);
        confirm_address(db, p->id, p->email);
    }
    json_t *made = call(c, "POST", "/v1/matches",
                        "{\"game\":\"antiquity_quest\",\"seats\":2}",
                        &m->players[0].key, 201);
    snprintf(m->ref, sizeof m->ref, "%s",
             json_string_value(
                 json_object_get(json_object_get(made, "match"), "id")));
    json_decref(made);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", m->ref);
    json_decref(call(c, "POST", path, "{}", &m->players[1].key, 200));
}

/* The mail the match's waiting player writes now, or NULL when the match
 * waits for nobody. Updates m->head. */
static char *next_mail(client *c, bench_match *m, int index, int round)
{
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", m->ref);
    json_t *match = call(c, "GET", path, NULL, NULL, 200);
    m->head = (long long)json_integer_value(
        json_object_get(json_object_get(match, "head"), "seq"));
    const json_t *seats =
        json_object_get(json_object_get(match, "pending"), "seats");
    int seat = json_array_size(seats)
                   ? (int)json_integer_value(json_array_get(seats, 0))
                   : -1;
    json_decref(match);
    if (seat < 0)
        return NULL;
    snprintf(path, sizeof path, "/v1/matches/%s/view", m->ref);
    json_t *view = call(c, "GET", path, NULL, &m->players[seat].key, 200);
    const char *move = json_string_value(json_array_get(
        json_object_get(json_object_get(view, "legal"), "texts"), 0));
    char token[REPLY_TOKEN_CHARS + 1], to[128];
    reply_token_make(REPLY_TOKEN_SEAT,
                     store_parse_player_ref(m->players[seat].id),
                     store_parse_match_ref(m->ref), seat, time(NULL), token);
    reply_token_address(token, to, sizeof to);
    char *raw = NULL;
    if (asprintf(&raw,
                 "From: %s\r\nTo: %s\r\nSubject: Re: your turn\r\n"
                 "Message-ID: <bench.%d.%d.%lld.%d@bench.example>\r\n"
                 "Date: Wed, 25 Nov 2026 10:00:00 +0000\r\n"
                 "Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n"
                 "On Wed, 25 Nov 2026, pbem wrote:\r\n> Your turn.\r\n",
                 m->players[seat].email, to, index, round, m->head, getpid(),
                 move ? move : "view") < 0)
        abort();
    json_decref(view);
    return raw;
}

/* Starts one `pbem mail-in` with raw on its standard input (a message
 * fits in a pipe's buffer, so this never waits for the process); its pid. */
static pid_t mail_in_start(const char *pbem, const char *url, const char *key,
                           const char *raw)
{
    int pipefd[2];
    if (pipe(pipefd) != 0)
        die("pipe", NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork", NULL);
    if (pid == 0) {
        dup2(pipefd[0], 0);
        close(pipefd[0]);
        close(pipefd[1]);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        execl(pbem, pbem, "mail-in", "--url", url, "--key", key, (char *)NULL);
        _exit(127);
    }
    close(pipefd[0]);
    size_t length = strlen(raw);
    if (write(pipefd[1], raw, length) != (ssize_t)length)
        die("write", NULL);
    close(pipefd[1]);
    return pid;
}

/* Waits for one of the mail-in processes; whether it exited 0. */
static bool mail_in_reap(void)
{
    int status;
    if (waitpid(-1, &status, 0) < 0)
        die("waitpid", NULL);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

typedef struct upload {
    const char *data;
    size_t left;
} upload;

static size_t feed(char *out, size_t size, size_t n, void *ctx)
{
    upload *u = ctx;
    size_t take = size * n < u->left ? size * n : u->left;
    memcpy(out, u->data, take);
    u->data += take;
    u->left -= take;
    return take;
}

/* One APPEND through curl, whose session (one login) serves the round's
 * APPENDs, as a mail server's delivery agent keeps its connection. */
static void imap_append(CURL *curl, const char *imap_url, const char *raw)
{
    upload u = {raw, strlen(raw)};
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, imap_url);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, feed);
    curl_easy_setopt(curl, CURLOPT_READDATA, &u);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE, (long)u.left);
    CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK)
        die("IMAP APPEND", curl_easy_strerror(rc));
}

static size_t discard(char *data, size_t size, size_t n, void *ctx)
{
    (void)data;
    (void)ctx;
    return size * n;
}

/* libcurl's APPEND (7.88) always sets \Seen, and the worker reads unseen
 * mail: the round's messages are made unseen again, as a mail server
 * delivers them. */
static void imap_unsee(CURL *curl, const char *imap_url)
{
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, imap_url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, "STORE 1:* -FLAGS (\\Seen)");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK)
        die("IMAP STORE", curl_easy_strerror(rc));
}

static long handled(PGconn *db)
{
    PGresult *r = PQexec(db, "SELECT count(*) FROM mail_messages");
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        die("count", PQerrorMessage(db));
    long n = atol(PQgetvalue(r, 0, 0));
    PQclear(r);
    return n;
}

/* mail keygen FILE: a new mail key, its seed in FILE (for pbem mail-in),
 * its public half printed (for PBEM_MAIL_INBOUND_KEY). */
static int keygen(const char *file)
{
    unsigned char seed[crypto_sign_SEEDBYTES], pk[32], sk[64];
    randombytes_buf(seed, sizeof seed);
    crypto_sign_seed_keypair(pk, sk, seed);
    char seed_b64[64], pk_b64[64];
    sodium_bin2base64(seed_b64, sizeof seed_b64, seed, sizeof seed,
                      sodium_base64_VARIANT_ORIGINAL);
    sodium_bin2base64(pk_b64, sizeof pk_b64, pk, sizeof pk,
                      sodium_base64_VARIANT_ORIGINAL);
    FILE *f = fopen(file, "w");
    if (f == NULL)
        die("keygen", file);
    fprintf(f, "%s\n", seed_b64);
    fclose(f);
    printf("%s\n", pk_b64);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "keygen") == 0)
        return sodium_init() < 0 ? 1 : keygen(argv[2]);
    if (argc < 8) {
        fprintf(stderr, "usage: mail URL mailin|mailin:N|imap MATCHES ROUNDS "
                        "SERVICE_KEY MAIL_KEY PBEM [IMAP_URL]\n");
        return 2;
    }
    const char *url = argv[1], *mode = argv[2];
    int matches = atoi(argv[3]), rounds = atoi(argv[4]);
    bool imap = strcmp(mode, "imap") == 0;
    int at_once = 1;
    if (strncmp(mode, "mailin:", 7) == 0)
        at_once = atoi(mode + 7);
    else if (!imap && strcmp(mode, "mailin") != 0)
        die("arguments", "MODE is mailin, mailin:N or imap");
    if (matches < 1 || matches > MATCHES_MAX || rounds < 1 ||
        (imap && argc < 9) || at_once < 1 || at_once > AT_ONCE_MAX)
        die("arguments", "MATCHES 1..64, ROUNDS >= 1, N 1..64, IMAP_URL for "
                         "imap");
    if (sodium_init() < 0)
        die("libsodium", NULL);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    apierr err;
    if (!seal_load_key(argv[5], &err))
        die("service key", err.message);
    PGconn *db = PQconnectdb(getenv("DATABASE_URL"));
    if (PQstatus(db) != CONNECTION_OK)
        die("database", PQerrorMessage(db));
    client *c = client_new(url);
    bench_match *all = calloc((size_t)matches, sizeof *all);
    for (int m = 0; m < matches; m++)
        set_up(c, db, &all[m], m);
    long sent = 0, moves = 0, refused = 0;
    long before = handled(db);
    double timed = 0, handled_timed = 0;
    char **batch = calloc((size_t)matches, sizeof *batch);
    CURL *imap_session = imap ? curl_easy_init() : NULL;
    double cpu_before = children_cpu_s();
    for (int r = 0; r < rounds; r++) {
        long long heads[MATCHES_MAX];
        int count = 0;
        for (int m = 0; m < matches; m++) {
            batch[m] = next_mail(c, &all[m], m, r);
            heads[m] = all[m].head;
            count += batch[m] != NULL;
        }
        if (count == 0)
            break;
        double start = now_s();
        int running = 0;
        for (int m = 0; m < matches; m++) {
            if (batch[m] == NULL)
                continue;
            if (imap) {
                imap_append(imap_session, argv[8], batch[m]);
            } else {
                if (running == at_once) {
                    refused += !mail_in_reap();
                    running--;
                }
                mail_in_start(argv[7], url, argv[6], batch[m]);
                running++;
            }
            sent++;
        }
        for (; running > 0; running--)
            refused += !mail_in_reap();
        double delivered = now_s();
        if (imap)
            imap_unsee(imap_session, argv[8]);
        while (imap && handled(db) - before < sent)
            usleep(1000);
        timed += now_s() - start;
        handled_timed += now_s() - delivered;
        for (int m = 0; m < matches; m++) {
            free(batch[m]);
            batch[m] = NULL;
            char path[96];
            snprintf(path, sizeof path, "/v1/matches/%s", all[m].ref);
            json_t *now = call(c, "GET", path, NULL, NULL, 200);
            moves += json_integer_value(json_object_get(
                         json_object_get(now, "head"), "seq")) > heads[m];
            json_decref(now);
        }
    }
    if (imap_session != NULL)
        curl_easy_cleanup(imap_session);
    /* A rate of mails that move nothing measures the wrong thing. */
    if (sent > 0 && moves == 0)
        die("mail", "not one mailed move was applied");
    printf("mode=%s messages=%ld moves_applied=%ld refused_by_mail_in=%ld "
           "seconds=%.2f messages_per_second=%.1f",
           imap ? "imap" : "mailin", sent, moves, refused, timed,
           timed > 0 ? sent / timed : 0.0);
    if (at_once > 1)
        printf(" at_once=%d", at_once);
    if (!imap && sent > 0)
        printf(" mail_in_cpu_ms=%.2f",
               (children_cpu_s() - cpu_before) * 1000 / (double)sent);
    if (imap)
        printf(" handled_seconds=%.2f handled_per_second=%.1f", handled_timed,
               handled_timed > 0 ? sent / handled_timed : 0.0);
    printf("\n");
    free(batch);
    free(all);
    client_free(c);
    PQfinish(db);
    return 0;
}
