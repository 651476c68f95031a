/* test_players.c: two people play whole matches with `pbem` alone, each
 * with their own key folder, against a real pbemd; and what they see when
 * something goes wrong (a stale view, a refused move, no key, no server).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "players_run.h"

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

typedef struct table {
    e2e_server server;
    char url[64];
    pl_person alice, bob;
    char match[48];
} table;

/* Alice and Bob sign up; Alice starts a match of game, Bob joins it. */
static void sit_down(table *t, const char *game)
{
    pl_server(&t->server, t->url);
    pl_person_new(&t->alice, "alice");
    pl_person_new(&t->bob, "bob");
    pl_sign_up(&t->alice, t->url, "Alice");
    pl_sign_up(&t->bob, t->url, "Bob");
    snprintf(t->match, sizeof t->match, "%s",
             pl_new_match(&t->alice, t->url, game, 2));
    pl_result r = pl_run(&t->bob, t->url, ARGS("join", t->match));
    cr_assert_eq(r.status, 0, "join: %s", r.err);
    cr_expect(strstr(r.out, "You have seat 1") != NULL, "%s", r.out);
    pl_free(&r);
}

/* `pbem view` as person, asserted to succeed. */
static pl_result view(const table *t, const pl_person *person)
{
    pl_result r = pl_run(person, t->url, ARGS("view", t->match));
    cr_assert_eq(r.status, 0, "view: %s", r.err);
    return r;
}

/* The last place text holds what, or NULL. */
static const char *last_of(const char *text, const char *what)
{
    const char *last = NULL;
    for (const char *at = text; (at = strstr(at, what)) != NULL; at++)
        last = at;
    return last;
}

/* The person whose move it is plays the first move their view lists,
 * until it is the other's; returns the number of moves played. */
static int play_turn(const table *t, const pl_person *person)
{
    int played = 0;
    pl_result r = view(t, person);
    char *move = pl_first_move(r.out);
    while (move != NULL) {
        pl_free(&r);
        r = pl_run(person, t->url, ARGS("move", t->match, move));
        cr_assert_eq(r.status, 0, "move %s: %s", move, r.err);
        played++;
        free(move);
        move = pl_first_move(r.out); /* "Your move again:" */
    }
    pl_free(&r);
    return played;
}

/* Alice and Bob play turns until the match is over; returns the number of
 * moves played. */
static int play_to_the_end(const table *t)
{
    int moves = 0;
    bool over = false;
    for (int round = 0; round < 400 && !over; round++) {
        int before = moves;
        moves += play_turn(t, &t->alice);
        moves += play_turn(t, &t->bob);
        pl_result r = view(t, &t->alice);
        over = strstr(r.out, "The match is over:") != NULL;
        pl_free(&r);
        cr_assert(over || moves > before, "nobody could move");
    }
    cr_assert(over, "the match did not end");
    return moves;
}

Test(pbem_players, two_players_play_a_match_to_the_end, .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");

    /* The key is the player's alone. */
    char path[400];
    struct stat st;
    snprintf(path, sizeof path, "%s/pbem", t.alice.config_home);
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0700);
    snprintf(path, sizeof path, "%s/pbem/key", t.alice.config_home);
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0600);

    int moves = play_to_the_end(&t);
    cr_expect_gt(moves, 10);

    /* Both see the same result (the last line saying so: the log above it
     * tells each "You won" or "Alice won"). */
    pl_result a = view(&t, &t.alice), b = view(&t, &t.bob);
    const char *result_a = last_of(a.out, "The match is over:");
    const char *result_b = last_of(b.out, "The match is over:");
    cr_assert_not_null(result_b);
    cr_expect_eq(strcspn(result_a, "\n"), strcspn(result_b, "\n"));
    cr_expect_eq(strncmp(result_a, result_b, strcspn(result_a, "\n")), 0);

    /* A finished match is watched to its end at once: every event is a
     * line told in words, the last one the result. Anyone may watch, key
     * or not. */
    pl_person carol;
    pl_person_new(&carol, "carol");
    pl_result w = pl_run(&carol, t.url, ARGS("watch", t.match));
    cr_assert_eq(w.status, 0, "watch: %s", w.err);
    int event_lines = 0;
    for (const char *line = w.out; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        if (line[0] == '#')
            event_lines++;
        line += len + (line[len] == '\n');
    }
    /* created, two joins, started, the moves, finished */
    cr_expect_eq(event_lines, moves + 5, "%s", w.out);
    cr_expect(strstr(w.out, "#1    A match of Artifact Stack for 2 players "
                            "was created.\n") == w.out,
              "%s",
              w.out);
    cr_expect(strstr(w.out, "#2    Alice joined the match.\n") != NULL, "%s",
              w.out);
    const char *last = strstr(w.out, "The match is over: ");
    cr_assert_not_null(last, "%s", w.out);
    cr_expect_eq(strchr(last, '\n')[1], '\0', "the result is the last line");
    pl_free(&w);
    pl_free(&a);
    pl_free(&b);

    /* The finished match checks out from its public log. */
    pl_result v = pl_run(&carol, NULL, ARGS("verify", "--url", t.url, t.match));
    cr_expect_eq(v.status, 0, "verify: %s %s", v.out, v.err);
    pl_free(&v);

    /* No move after the end. */
    pl_result late = pl_run(&t.bob, t.url, ARGS("move", t.match, "done"));
    cr_expect_eq(late.status, 1);
    cr_expect(strstr(late.err, "finished") != NULL, "%s", late.err);
    pl_free(&late);
    e2e_stop(&t.server);
}

/* Who must move first: the person whose view lists moves. Both look. */
static void first_and_second(table *t, pl_person **first, pl_person **second)
{
    pl_result a = view(t, &t->alice), b = view(t, &t->bob);
    bool alice_first = strstr(a.out, "\nYour moves:") != NULL;
    cr_assert_neq(alice_first, strstr(b.out, "\nYour moves:") != NULL);
    pl_free(&a);
    pl_free(&b);
    *first = alice_first ? &t->alice : &t->bob;
    *second = alice_first ? &t->bob : &t->alice;
}

/* The same player on a second terminal: a copy of their folder. */
static void second_terminal(const pl_person *person, pl_person *twin)
{
    pl_person_new(twin, person->name);
    char command[700];
    snprintf(command, sizeof command, "cp -R '%s/pbem' '%s/'",
             person->config_home, twin->config_home);
    cr_assert_eq(system(command), 0);
}

Test(pbem_players, a_stale_view_shows_what_changed_and_retries_once,
     .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");
    pl_person *first, *second;
    first_and_second(&t, &first, &second);
    /* second looks while it is first's turn, then first plays a turn. */
    pl_result r = view(&t, second);
    long long seen = pl_seq(r.out);
    pl_free(&r);
    int played = play_turn(&t, first);
    cr_assert_gt(played, 0);
    /* On another terminal second sees a move they may make now ... */
    pl_person twin;
    second_terminal(second, &twin);
    r = view(&t, &twin);
    char *move = pl_first_move(r.out);
    cr_assert_not_null(move, "%s", r.out);
    long long head = pl_seq(r.out);
    pl_free(&r);
    /* ... and makes it from the first, whose view is stale. */
    r = pl_run(second, t.url, ARGS("move", t.match, move));
    cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
    char moved_on[160];
    snprintf(moved_on, sizeof moved_on,
             "The match has moved on since you looked (seq %lld, now %lld):\n",
             seen, head);
    cr_expect(strncmp(r.out, moved_on, strlen(moved_on)) == 0, "%s", r.out);
    int event_lines = 0;
    for (const char *at = r.out; (at = strstr(at, "\n#")) != NULL; at++)
        event_lines++;
    cr_expect_eq(event_lines, head - seen, "one line per new event: %s", r.out);
    char line[64];
    snprintf(line, sizeof line, "\n#%lld    %s", head,
             first == &t.alice ? "Alice" : "Bob");
    cr_expect(strstr(r.out, line) != NULL, "%s", r.out);
    /* Then what the move did, told to its player. */
    char sent[200];
    snprintf(sent, sizeof sent,
             "\"%s\" is still one of your moves: sending "
             "it at seq %lld.\nYou",
             move, head);
    const char *told = strstr(r.out, sent);
    cr_expect(told != NULL, "%s", r.out);
    char seq[32];
    snprintf(seq, sizeof seq, " (seq %lld)\n", head + 1);
    cr_expect(told != NULL && strstr(told, seq) != NULL, "%s", r.out);
    free(move);
    pl_free(&r);
    e2e_stop(&t.server);
}

Test(pbem_players, a_stale_move_no_longer_possible_is_not_sent_again,
     .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");
    pl_person *first, *second;
    first_and_second(&t, &first, &second);
    pl_result r = view(&t, second);
    cr_assert(strstr(r.out, "Free to take: 2.0.0") != NULL, "%s", r.out);
    pl_free(&r);
    /* The first move of the match takes the top card 2.0.0 ... */
    r = pl_run(first, t.url, ARGS("move", t.match, "take 2.0.0"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    pl_free(&r);
    play_turn(&t, first);
    r = view(&t, first);
    long long head = pl_seq(r.out);
    pl_free(&r);
    /* ... which second, on their stale view, wants too. */
    r = pl_run(second, t.url, ARGS("move", t.match, "take 2.0.0"));
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.out, "The match has moved on since you looked") == r.out,
              "%s", r.out);
    cr_expect(strstr(r.out, first == &t.alice ? "\n#5    Alice"
                                              : "\n#5    Bob") != NULL,
              "%s", r.out);
    /* Stopped before the server (the move is not listed), or refused by
     * it (a sample of the moves could not tell): one sentence either way. */
    cr_expect(strstr(r.err, "\"take 2.0.0\" is no longer one of your moves, "
                            "so it was not sent again") != NULL ||
                  strstr(r.err, "sending it") == NULL,
              "%s", r.err);
    cr_expect_eq(strchr(r.err, '\n')[1], '\0', "one sentence: %s", r.err);
    pl_free(&r);
    r = view(&t, first);
    cr_expect_eq(pl_seq(r.out), head, "nothing was played");
    pl_free(&r);
    e2e_stop(&t.server);
}

Test(pbem_players, a_refused_move_says_the_rule, .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");
    pl_person *first, *second;
    first_and_second(&t, &first, &second);
    pl_result r = view(&t, second);
    pl_free(&r);
    r = pl_run(second, t.url, ARGS("move", t.match, "take 2.0.0"));
    cr_expect_eq(r.status, 1);
    cr_expect(strncmp(r.err, "pbem: it is not your turn", 25) == 0, "%s",
              r.err);
    pl_free(&r);
    /* Every player starts with 2 silver; 0.2.1 lies under four cards. */
    r = pl_run(first, t.url, ARGS("move", t.match, "dig 0.2.1"));
    cr_expect_eq(r.status, 1);
    cr_expect_str_eq(r.err, "pbem: digging out that card costs 4 silver (1 "
                            "per covering card) and you have 2.\n");
    cr_expect_str_eq(r.out, "");
    pl_free(&r);
    r = pl_run(first, t.url, ARGS("move", t.match, "fly away"));
    cr_expect_eq(r.status, 1);
    cr_expect(strncmp(r.err, "pbem: \"fly\" is not a move: write take L.C.R",
                      43) == 0,
              "%s", r.err);
    pl_free(&r);
    r = view(&t, first);
    cr_expect_eq(pl_seq(r.out), 4, "created, two joins, started: %s", r.out);
    pl_free(&r);
    e2e_stop(&t.server);
}

Test(pbem_players, sealed_choices_are_moves_the_server_seals, .timeout = 60)
{
    table t;
    sit_down(&t, "adel_verplichtet");
    pl_result a = view(&t, &t.alice), b = view(&t, &t.bob);
    cr_expect(strstr(a.out, "Your move (a sealed choice: nobody sees it "
                            "until every seat has chosen):\n") != NULL,
              "%s", a.out);
    char *alice_choice = pl_first_move(a.out);
    char *bob_choice = pl_first_move(b.out);
    cr_assert_not_null(alice_choice);
    cr_assert_not_null(bob_choice);
    pl_free(&a);
    pl_free(&b);
    a = pl_run(&t.alice, t.url, ARGS("move", t.match, alice_choice));
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_expect(strstr(a.out, "is sealed (decision ") != NULL, "%s", a.out);
    cr_expect(strstr(a.out, "it is revealed when every seat has chosen.") !=
                  NULL,
              "%s", a.out);
    pl_free(&a);
    /* Bob's view is older than Alice's commitment: a sealed choice does
     * not race the other seats' commitments. */
    b = pl_run(&t.bob, t.url, ARGS("move", t.match, bob_choice));
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_expect(strstr(b.out, "The match has moved on") == NULL, "%s", b.out);
    cr_expect(strstr(b.out, "every seat has chosen and the choices are "
                            "applied.") != NULL,
              "%s", b.out);
    pl_free(&b);
    /* The public log holds both commitments and one decision applied. */
    json_t *events = NULL;
    {
        char path[128];
        snprintf(path, sizeof path, "/v1/matches/%s/events", t.match);
        e2e_response r = e2e_call(&t.server, "GET", path, NULL, NULL);
        events = json_incref(json_object_get(r.json, "events"));
        e2e_response_free(&r);
    }
    size_t i;
    json_t *event;
    int committed = 0, applied = 0;
    json_array_foreach(events, i, event)
    {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        committed += strcmp(kind, "committed") == 0;
        applied += strcmp(kind, "decided") == 0;
    }
    cr_expect_eq(committed, 2);
    cr_expect_eq(applied, 1);
    json_decref(events);
    free(alice_choice);
    free(bob_choice);
    e2e_stop(&t.server);
}

Test(pbem_players, without_a_key_or_registration_nothing_is_sent)
{
    pl_person dora;
    pl_person_new(&dora, "dora");
    /* No server at all: the missing key is said first. */
    const char *nowhere = "http://127.0.0.1:9";
    pl_result r = pl_run(&dora, nowhere, ARGS("view", "m_1"));
    cr_expect_eq(r.status, 4);
    cr_expect(strstr(r.err, "there is no key in ") != NULL, "%s", r.err);
    cr_expect(strstr(r.err, ": run pbem keygen, then pbem register NAME.\n") !=
                  NULL,
              "%s", r.err);
    pl_free(&r);
    r = pl_run(&dora, nowhere, ARGS("register", "Dora"));
    cr_expect_eq(r.status, 4, "%s", r.err);
    pl_free(&r);
    r = pl_run(&dora, nowhere, ARGS("keygen"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    pl_free(&r);
    r = pl_run(&dora, nowhere, ARGS("move", "m_1", "take 2.0.0"));
    cr_expect_eq(r.status, 4);
    cr_expect_str_eq(r.err, "pbem: your key is not registered yet: run pbem "
                            "register NAME [EMAIL] first.\n");
    pl_free(&r);
    /* A key is never replaced by accident. */
    r = pl_run(&dora, nowhere, ARGS("keygen"));
    cr_expect_eq(r.status, 1);
    cr_expect(strstr(r.err, "pass --force to replace it") != NULL, "%s", r.err);
    pl_free(&r);
    r = pl_run(&dora, nowhere, ARGS("keygen", "--force"));
    cr_expect_eq(r.status, 0, "%s", r.err);
    pl_free(&r);
    /* A key others may read is not used. */
    char key[400];
    snprintf(key, sizeof key, "%s/pbem/key", dora.config_home);
    cr_assert_eq(chmod(key, 0644), 0);
    r = pl_run(&dora, nowhere, ARGS("register", "Dora"));
    cr_expect_eq(r.status, 4);
    cr_expect(strstr(r.err, "can be read by others: make it yours alone") !=
                  NULL,
              "%s", r.err);
    pl_free(&r);
}

Test(pbem_players, a_server_that_is_down_is_exit_3, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person erin;
    pl_person_new(&erin, "erin");
    pl_sign_up(&erin, url, "Erin");
    const char *match = pl_new_match(&erin, url, "artifact_stack", 2);
    char match_id[48];
    snprintf(match_id, sizeof match_id, "%s", match);
    pl_result seen = pl_run(&erin, url, ARGS("view", match_id));
    cr_assert_eq(seen.status, 0, "%s", seen.err);
    pl_free(&seen);
    e2e_stop(&server);
    const char *const *commands[] = {ARGS("view", match_id),
                                     ARGS("move", match_id, "take 2.0.0"),
                                     ARGS("games"), ARGS("watch", match_id)};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        pl_result r = pl_run(&erin, url, commands[i]);
        cr_expect_eq(r.status, 3, "%s: %s", commands[i][0], r.err);
        char said[120];
        snprintf(said, sizeof said, "pbem: the server at %s cannot be reached",
                 url);
        cr_expect(strncmp(r.err, said, strlen(said)) == 0, "%s", r.err);
        cr_expect_eq(strchr(r.err, '\n')[1], '\0', "one sentence: %s", r.err);
        pl_free(&r);
    }
}

Test(pbem_players, registering_with_an_address_says_a_link_went_there,
     .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person gil;
    pl_person_new(&gil, "gil");
    pl_result r = pl_run(&gil, url, ARGS("keygen"));
    cr_assert_eq(r.status, 0, "keygen: %s", r.err);
    pl_free(&r);
    r = pl_run(&gil, url, ARGS("register", "Gil", "gil@example.org"));
    cr_assert_eq(r.status, 0, "register: %s", r.err);
    cr_expect(strstr(r.out, "A link went to gil@example.org: open it to "
                            "receive your turns by mail there.") != NULL,
              "%s", r.out);
    pl_free(&r);
    cr_assert_eq(e2e_stop(&server), 0);
}

Test(pbem_players, games_game_prints_the_rules_in_short, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person finn;
    pl_person_new(&finn, "finn");
    pl_result r = pl_run(&finn, url, ARGS("games", "artifact_stack"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.out, "Artifact Stack: the rules in short\n", 35) == 0,
              "%s", r.out);
    cr_expect(strstr(r.out, "\nNotation, one example each\n  take 2.1.0") !=
                  NULL,
              "%s", r.out);
    pl_free(&r);
    r = pl_run(&finn, url, ARGS("games", "chess"));
    cr_expect_neq(r.status, 0);
    cr_expect(strstr(r.err, "there is no game called \"chess\"") != NULL,
              "%s", r.err);
    pl_free(&r);
    r = pl_run(&finn, url, ARGS("games", "../etc"));
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "is not a game's name") != NULL, "%s", r.err);
    pl_free(&r);
    cr_assert_eq(e2e_stop(&server), 0);
}

Test(pbem_players, options_are_typed_as_the_game_declares, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person finn;
    pl_person_new(&finn, "finn");
    pl_sign_up(&finn, url, "Finn");
    pl_result r = pl_run(&finn, url, ARGS("games"));
    cr_assert_eq(r.status, 0);
    cr_expect(strstr(r.out, "antiquity_quest        Antiquity Quest, 2-8 "
                            "players; options: rounds (integer 1-3, default "
                            "1)") != NULL,
              "%s", r.out);
    pl_free(&r);
    r = pl_run(&finn, url,
               ARGS("new", "antiquity_quest", "--seats", "2", "--option",
                    "rounds=three"));
    cr_expect_eq(r.status, 2);
    cr_expect_str_eq(r.err, "pbem: option rounds of antiquity_quest is a "
                            "whole number, not \"three\".\n");
    pl_free(&r);
    r = pl_run(
        &finn, url,
        ARGS("new", "antiquity_quest", "--seats", "2", "--option", "speed=9"));
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "antiquity_quest has no option called speed") !=
                  NULL,
              "%s", r.err);
    pl_free(&r);
    r = pl_run(&finn, url,
               ARGS("new", "antiquity_quest", "--seats", "2", "--option",
                    "rounds=3", "--option", "pairs=no", "--option",
                    "revoked_visas=true"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char match[48];
    cr_assert_eq(sscanf(r.out, "Created %40[m_0-9]:", match), 1);
    pl_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s", match);
    e2e_response m = e2e_call(&server, "GET", path, NULL, NULL);
    json_t *options = json_object_get(m.json, "options");
    cr_expect_eq(json_integer_value(json_object_get(options, "rounds")), 3);
    cr_expect(json_is_false(json_object_get(options, "pairs")));
    cr_expect(json_is_true(json_object_get(options, "revoked_visas")));
    e2e_response_free(&m);
    /* The rules' own limits are the server's to say. */
    r = pl_run(
        &finn, url,
        ARGS("new", "antiquity_quest", "--seats", "2", "--option", "rounds=9"));
    cr_expect_eq(r.status, 1);
    cr_expect(strncmp(r.err, "pbem: ", 6) == 0, "%s", r.err);
    pl_free(&r);
    e2e_stop(&server);
}

Test(pbem_players, watch_follows_a_match_until_it_ends, .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");
    pl_person carol;
    pl_person_new(&carol, "carol");
    pl_background watch =
        pl_start(&carol, t.url, ARGS("watch", t.match, "--interval", "1"));
    cr_assert(pl_wait_for(&watch, "#4    The match started.\n"));
    play_to_the_end(&t);
    /* It stops by itself once the match is over. */
    cr_assert(pl_wait_for(&watch, "The match is over: "));
    char *out = NULL;
    cr_expect_eq(pl_finish(&watch, 0, &out), 0);
    const char *last = strstr(out, "The match is over: ");
    cr_expect_eq(strchr(last, '\n')[1], '\0', "%s", out);
    free(out);
    e2e_stop(&t.server);
}

Test(pbem_players, watch_stops_at_ctrl_c, .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");
    pl_person *first, *second;
    first_and_second(&t, &first, &second);
    pl_background watch =
        pl_start(second, t.url, ARGS("watch", t.match, "--interval", "1"));
    cr_assert(pl_wait_for(&watch, "#4    The match started.\n"));
    pl_result r = pl_run(first, t.url, ARGS("move", t.match, "take 2.0.0"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    pl_free(&r);
    cr_assert(
        pl_wait_for(&watch, first == &t.alice ? "#5    Alice" : "#5    Bob"));
    char *out = NULL;
    cr_expect_eq(pl_finish(&watch, SIGINT, &out), 0);
    free(out);
    e2e_stop(&t.server);
}

Test(pbem_players, a_move_needs_a_view_first_and_seats_go_in_order,
     .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person gina, hal, ivy;
    pl_person_new(&gina, "gina");
    pl_person_new(&hal, "hal");
    pl_person_new(&ivy, "ivy");
    pl_sign_up(&gina, url, "Gina");
    pl_sign_up(&hal, url, "Hal");
    pl_sign_up(&ivy, url, "Ivy");
    char match[48];
    snprintf(match, sizeof match, "%s",
             pl_new_match(&gina, url, "artifact_stack", 3));
    /* The server seats joiners in order: seat 1 is next, not seat 2. */
    pl_result r = pl_run(&hal, url, ARGS("join", match, "--seat", "2"));
    cr_expect_eq(r.status, 1);
    char said[200];
    snprintf(said, sizeof said,
             "pbem: seat 2 of %s is not the one the server "
             "gives next: that is seat 1.\n",
             match);
    cr_expect_str_eq(r.err, said);
    pl_free(&r);
    r = pl_run(&hal, url, ARGS("join", match, "--seat", "1"));
    cr_expect_eq(r.status, 0, "%s", r.err);
    pl_free(&r);
    /* --url before the command works as well as PBEM_URL. */
    r = pl_run(&ivy, NULL, ARGS("--url", url, "join", match));
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "You have seat 2 of") == r.out, "%s", r.out);
    pl_free(&r);
    /* Nobody has looked yet, so nobody's move can be judged on a view. */
    pl_person *seats[] = {&gina, &hal, &ivy};
    for (int i = 0; i < 3; i++) {
        r = pl_run(seats[i], url, ARGS("move", match, "take 2.0.0"));
        cr_expect_eq(r.status, 4);
        snprintf(said, sizeof said,
                 "pbem: you have not looked at %s yet: run "
                 "pbem view %s first, so your move is made "
                 "on what you saw.\n",
                 match, match);
        cr_expect_str_eq(r.err, said);
        pl_free(&r);
    }
    e2e_stop(&server);
}

/* pbem move answers with what the move did, told to its player; pbem view
 * starts with what happened since the player's last turn, each event a
 * sentence. */
Test(pbem_players, move_and_view_tell_what_happened, .timeout = 60)
{
    table t;
    sit_down(&t, "artifact_stack");
    pl_person *first, *second;
    first_and_second(&t, &first, &second);
    pl_result r = pl_run(first, t.url, ARGS("move", t.match, "take 2.0.0"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.out, "You", 3) == 0 &&
                  strstr(r.out, " (seq 5)\n") != NULL,
              "%s", r.out);
    cr_expect_null(strstr(r.out, "Played"), "%s", r.out);
    pl_free(&r);
    int played = 1 + play_turn(&t, first);
    cr_assert_gt(play_turn(&t, second), 0);
    played = play_turn(&t, first);
    cr_assert_gt(played, 0);
    cr_assert_leq(played, 12);
    r = view(&t, second);
    const char *since = strstr(r.out, "Since your last turn:\n");
    cr_assert(since == r.out, "%s", r.out);
    const char *name = first == &t.alice ? "  Alice" : "  Bob";
    const char *line = since + strlen("Since your last turn:\n");
    for (int i = 0; i < played; i++) {
        cr_expect(strncmp(line, name, strlen(name)) == 0, "line %d: %s", i,
                  r.out);
        line = strchr(line, '\n') + 1;
    }
    cr_expect(line[0] == '\n', "one line per move since: %s", r.out);
    pl_free(&r);
    e2e_stop(&t.server);
}
