/* The example bots (examples/bots/), through the real pbemd: two players
 * each grant a bot's key (one the JavaScript bot, the other the C bot);
 * the bots, separate processes following their player's event stream,
 * play a match to its end. What a bot author would check: the match is
 * finished and verifies, every move names the bot that made it, and a bot
 * killed mid-match and started again resumes its stream where it left off
 * without playing a turn twice. A second match has them make sealed choices
 * (Adel Verplichtet) through /moves, which the service seals. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "client_stream.h"

/* A bot process: how to run it, its key, and its log. */
typedef struct bot {
    const char *argv0[3]; /* the program (and its script), NULL-ended */
    char key_file[200], state_file[256], log_file[256];
    char public_key[64], key_id[64];
    pid_t pid;
} bot;

static void bot_files(bot *b, const char *name)
{
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(b->key_file, sizeof b->key_file, "%s/%s-%d.key", tmp, name, getpid());
    snprintf(b->state_file, sizeof b->state_file, "%s.last-id", b->key_file);
    snprintf(b->log_file, sizeof b->log_file, "%s.log", b->key_file);
    unlink(b->key_file);
    unlink(b->state_file);
    unlink(b->log_file);
}

/* The JavaScript bot, run from the checkout (make test runs from its top). */
static void js_bot(bot *b, const char *name)
{
    b->argv0[0] = "node";
    b->argv0[1] = "examples/bots/js/bot.mjs";
    cr_assert_eq(access(b->argv0[1], R_OK), 0, "examples/bots/js/bot.mjs is missing");
    cr_assert_eq(access("examples/bots/js/node_modules", R_OK), 0,
                 "examples/bots/js is not installed (scripts/test.sh runs npm ci)");
    bot_files(b, name);
}

/* The C bot, built beside pbemd. */
static void c_bot(bot *b, const char *name)
{
    static char path[512];
    const char *bin = getenv("PBEM_BIN");
    cr_assert_not_null(bin, "PBEM_BIN is not set: run the tests with make test");
    char dir[512];
    snprintf(dir, sizeof dir, "%s", bin);
    snprintf(path, sizeof path, "%s/examples/bots/c/pbem-random-bot", dirname(dir));
    cr_assert_eq(access(path, X_OK), 0, "%s is not built (make all)", path);
    b->argv0[0] = path;
    bot_files(b, name);
}

/* "<bot> key FILE": the bot makes its key and prints it. */
static void bot_key(bot *b)
{
    char command[1200];
    snprintf(command, sizeof command, "'%s' %s key '%s'", b->argv0[0],
             b->argv0[1] ? b->argv0[1] : "", b->key_file);
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    char line[512] = "";
    cr_assert_not_null(fgets(line, sizeof line, p), "%s printed nothing", command);
    cr_assert_eq(pclose(p), 0, "%s failed", command);
    json_t *key = json_loads(line, 0, NULL);
    cr_assert_not_null(key, "%s printed %s", command, line);
    snprintf(b->public_key, sizeof b->public_key, "%s",
             json_string_value(json_object_get(key, "public_key")));
    snprintf(b->key_id, sizeof b->key_id, "%s",
             json_string_value(json_object_get(key, "key_id")));
    json_decref(key);
}

/* "<bot> play URL PLAYER KEYFILE STATEFILE --matches 1", its output
 * appended to its log. */
static void bot_start(bot *b, const e2e_server *server, const char *player)
{
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", server->port);
    const char *argv[12];
    int n = 0;
    for (int i = 0; b->argv0[i] != NULL; i++)
        argv[n++] = b->argv0[i];
    const char *rest[] = {"play", url, player, b->key_file, b->state_file,
                          "--matches", "1", NULL};
    for (int i = 0; rest[i] != NULL; i++)
        argv[n++] = rest[i];
    argv[n] = NULL;
    b->pid = fork();
    cr_assert_neq(b->pid, -1);
    if (b->pid == 0) {
        /* The bot dies with the test process, even one that failed. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int fd = open(b->log_file, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
}

/* Waits at most timeout_ms for the bot to exit; its exit status, or -1
 * when it did not (it is then killed). */
static int bot_wait(bot *b, int timeout_ms)
{
    for (int waited = 0; waited <= timeout_ms; waited += 50) {
        int status;
        if (waitpid(b->pid, &status, WNOHANG) == b->pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
    }
    kill(b->pid, SIGKILL);
    waitpid(b->pid, NULL, 0);
    return -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s: %s", path, strerror(errno));
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* The stream id the bot saved, or -1. */
static long long saved_id(const bot *b)
{
    FILE *f = fopen(b->state_file, "r");
    long long id = -1;
    if (f != NULL) {
        if (fscanf(f, "%lld", &id) != 1)
            id = -1;
        fclose(f);
    }
    return id;
}

/* POST /v1/players/me/delegates by player for the bot's key: view and
 * move in every match, for a day. */
static void grant(const e2e_table *t, const e2e_player *player, const bot *b)
{
    char expires[32], body[512];
    time_t day = time(NULL) + 86400;
    strftime(expires, sizeof expires, "%Y-%m-%dT%H:%M:%SZ", gmtime(&day));
    snprintf(body, sizeof body,
             "{\"public_key\":\"%s\",\"name\":\"Random bot\","
             "\"scope\":[\"view\",\"move\"],\"matches\":\"all\","
             "\"expires\":\"%s\"}",
             b->public_key, expires);
    e2e_response r = e2e_call(&t->server, "POST", "/v1/players/me/delegates",
                              body, player);
    cr_assert_eq(r.status, 201, "grant: %ld %s", r.status, r.body);
    cr_assert_str_eq(json_string_value(json_object_get(r.json, "key_id")),
                     b->key_id, "the grant names the key the bot printed");
    e2e_response_free(&r);
}

/* The moves in the log made by the bot holding key_id. */
static int moves_by(const json_t *events, const char *key_id)
{
    int n = 0;
    size_t i;
    json_t *event;
    json_array_foreach(events, i, event) {
        json_t *delegate = json_object_get(json_object_get(event, "data"), "delegate");
        const char *kind = json_string_value(json_object_get(event, "kind"));
        const char *by = json_string_value(json_object_get(delegate, "key_id"));
        if (strcmp(kind, "move") == 0 && by != NULL && strcmp(by, key_id) == 0)
            n++;
    }
    return n;
}

/* What the players' streams and the match say, for a failure message. */
static char *diagnosis(const e2e_table *t, const bot *js, const bot *c)
{
    static char text[1 << 16];
    json_t *m = e2e_get(t, "", NULL);
    char *match = json_dumps(json_object_get(m, "pending"), JSON_COMPACT);
    char url[64], err[256];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", t->server.port);
    const char *headers[] = {"Accept: application/x-ndjson", NULL};
    char streams[2][8192];
    for (int p = 0; p < 2; p++) {
        client_stream *s = client_stream_open(url, "/v1/players/me/stream?after=0",
                                              &t->players[p].key, headers, 5000, err);
        if (s == NULL) {
            snprintf(streams[p], sizeof streams[p], "(%s)", err);
            continue;
        }
        /* Whatever it holds within a second and a half. */
        client_stream_wait_for(s, "}\n", 0, 1000);
        client_stream_wait_for(s, "(nothing)", 0, 500);
        snprintf(streams[p], sizeof streams[p], "%ld %s", client_stream_status(s),
                 client_stream_body(s, NULL));
        client_stream_close(s);
    }
    snprintf(text, sizeof text, "pending %s\nstream 0: %s\nstream 1: %s\njs log:\n%s\n",
             match, streams[0], streams[1], read_file(js->log_file));
    snprintf(text + strlen(text), sizeof text - strlen(text), "c log:\n%s",
             read_file(c->log_file));
    free(match);
    json_decref(m);
    return text;
}

static const char *match_status(const e2e_table *t)
{
    static char status[16];
    json_t *match = e2e_get(t, "", NULL);
    json_t *inner = json_object_get(match, "match");
    snprintf(status, sizeof status, "%s",
             json_string_value(json_object_get(inner ? inner : match, "status")));
    json_decref(match);
    return status;
}

/* Each turn (match and seq) the bot's log shows accepted, at most once. */
static void expect_no_turn_twice(const char *log)
{
    char seen[512][48];
    int n = 0;
    for (const char *line = log; *line; line = strchr(line, '\n') + 1) {
        char match[32], status[8];
        long long seq;
        if (sscanf(line, "bot: %31s seq %lld: %*[^>]> %7s", match, &seq, status) == 3 &&
            status[0] == '2') {
            char turn[48];
            snprintf(turn, sizeof turn, "%s/%lld", match, seq);
            for (int i = 0; i < n; i++)
                cr_expect_str_neq(seen[i], turn, "the bot played %s twice", turn);
            if (n < 512)
                snprintf(seen[n++], sizeof seen[0], "%s", turn);
        }
        if (strchr(line, '\n') == NULL)
            break;
    }
    cr_expect_gt(n, 0, "the bot's log shows no move it made:\n%s", log);
}

/* Each bot's key granted by its seat's player, and the bots started. */
static void start_bots(e2e_table *t, bot *bots)
{
    for (int seat = 0; seat < t->seats; seat++) {
        bot_key(&bots[seat]);
        grant(t, &t->players[seat], &bots[seat]);
    }
    for (int seat = 0; seat < t->seats; seat++)
        bot_start(&bots[seat], &t->server, t->players[seat].id);
}

/* Every bot stops by itself once its match is over; then the match is
 * finished, verifies from its public log, and each event a seat made
 * (a move, a sealed choice) names that seat's bot and player. Each bot's
 * log shows moves it made, none of them twice. */
static void expect_played_to_the_end(e2e_table *t, bot *bots)
{
    for (int seat = 0; seat < t->seats; seat++)
        if (bot_wait(&bots[seat], 60000) != 0)
            cr_assert_fail("seat %d's bot did not finish:\n%s", seat,
                           diagnosis(t, &bots[0], &bots[1]));
    cr_expect_str_eq(match_status(t), "finished");
    for (int seat = 0; seat < t->seats; seat++)
        expect_no_turn_twice(read_file(bots[seat].log_file));

    json_t *verdict = e2e_get(t, "/verify", NULL);
    char *text = json_dumps(verdict, JSON_COMPACT);
    cr_expect(json_is_true(json_object_get(verdict, "ok")), "verify: %s", text);
    free(text);
    json_decref(verdict);
    json_t *events = e2e_all_events(t);
    size_t i;
    json_t *event;
    int made[8] = {0};
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (strcmp(kind, "move") != 0 && strcmp(kind, "committed") != 0)
            continue;
        int seat = (int)json_integer_value(json_object_get(event, "seat"));
        cr_assert(seat >= 0 && seat < t->seats);
        json_t *delegate = json_object_get(json_object_get(event, "data"), "delegate");
        const char *key_id = json_string_value(json_object_get(delegate, "key_id"));
        cr_expect_str_eq(key_id ? key_id : "(none)", bots[seat].key_id,
                         "event %zu (%s) was not made by seat %d's bot", i + 1,
                         kind, seat);
        cr_expect_str_eq(json_string_value(json_object_get(delegate, "player")),
                         t->players[seat].id);
        made[seat]++;
    }
    for (int seat = 0; seat < t->seats; seat++)
        cr_expect_gt(made[seat], 0, "seat %d's bot made no move", seat);
    json_decref(events);
}

Test(bots, the_example_bots_play_a_match_to_its_end, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "artifact_stack", 2, NULL);
    bot bots[2] = {0};
    bot *js = &bots[0];
    js_bot(&bots[0], "js-bot");
    c_bot(&bots[1], "c-bot");
    start_bots(&t, bots);

    /* Once the JavaScript bot has played a few moves and saved the id of
     * a turn told as it came (not only the list the stream starts with),
     * it is killed and started again. */
    json_t *events = NULL;
    for (int waited = 0; waited < 30000; waited += 20) {
        json_decref(events);
        events = e2e_all_events(&t);
        if (moves_by(events, js->key_id) >= 2 && saved_id(js) > 0)
            break;
        nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    }
    cr_assert_geq(moves_by(events, js->key_id), 2,
                  "the JavaScript bot did not play:\n%s", diagnosis(&t, js, &bots[1]));
    json_decref(events);
    kill(js->pid, SIGKILL);
    waitpid(js->pid, NULL, 0);
    cr_assert_str_neq(match_status(&t), "finished",
                      "the match ended before the bot could be killed");
    long long saved = saved_id(js);
    cr_assert_gt(saved, 0);
    bot_start(js, &t.server, t.players[0].id);

    expect_played_to_the_end(&t, bots);
    /* The restarted bot resumed after the id it had saved. */
    char resumed[64];
    snprintf(resumed, sizeof resumed, "stream after %lld\n", saved);
    const char *js_log = read_file(js->log_file);
    cr_expect_not_null(strstr(js_log, resumed),
                       "the restarted bot did not resume after %lld:\n%s", saved, js_log);
    e2e_stop(&t.server);
}

/* Adel Verplichtet's secret choices, posted to /moves like any move: the
 * service seals them (a committed event each) and reveals them when every
 * seat has chosen. Two JavaScript bots and a C bot. */
Test(bots, the_example_bots_make_sealed_choices_through_moves, .timeout = 120)
{
    e2e_table t;
    e2e_sit_down(&t, "adel_verplichtet", 3, NULL);
    bot bots[3] = {0};
    js_bot(&bots[0], "js-bot-a");
    c_bot(&bots[1], "c-bot");
    js_bot(&bots[2], "js-bot-b");
    start_bots(&t, bots);
    expect_played_to_the_end(&t, bots);
    json_t *events = e2e_all_events(&t);
    size_t i;
    json_t *event;
    int sealed = 0;
    json_array_foreach(events, i, event)
        sealed += strcmp(json_string_value(json_object_get(event, "kind")), "committed") == 0;
    cr_expect_gt(sealed, 0, "the match had no sealed choice");
    json_decref(events);
    e2e_stop(&t.server);
}
