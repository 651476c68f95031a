/* Talk at the table from a terminal: a player on `pbem` says things to
 * everyone and to one seat beside two players on the API, and `pbem
 * messages` prints what that seat may read, never another pair's private
 * talk. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cli/players/players_run.h"
#include "../../support/e2e.h"
#include "talk.h"

static pl_result pbem(const pl_person *carol, const char *url,
                      const char *const *args)
{
    return pl_run(carol, url, args);
}

Test(terminal, pbem_says_and_reads_only_what_its_seat_may, .timeout = 180)
{
    e2e_table t;
    memset(&t, 0, sizeof t);
    e2e_start(&t.server);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", t.server.port);
    e2e_register(&t.server, "Robert", &t.players[0]);
    e2e_register(&t.server, "Eliza", &t.players[1]);
    e2e_response r =
        e2e_call(&t.server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":3}", &t.players[0]);
    cr_assert_eq(r.status, 201, "%s", r.body);
    snprintf(t.match, sizeof t.match, "%s",
             json_string_value(
                 json_object_get(json_object_get(r.json, "match"), "id")));
    e2e_response_free(&r);
    char path[96];
    snprintf(path, sizeof path, "/v1/matches/%s/join", t.match);
    r = e2e_call(&t.server, "POST", path, "{}", &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    e2e_response_free(&r);
    pl_person carol;
    pl_person_new(&carol, "carol");
    pl_sign_up(&carol, url, "Carol");
    pl_result out = pbem(&carol, url, (const char *[]){"join", t.match, NULL});
    cr_assert_eq(out.status, 0, "join: %s", out.err);
    pl_free(&out);

    out = pbem(&carol, url,
               (const char *[]){"say", t.match, "Hello", "from", "the",
                                "terminal", NULL});
    cr_expect_eq(out.status, 0, "say: %s", out.err);
    cr_expect(strstr(out.out, "Said to everyone at the table") != NULL, "%s",
              out.out);
    pl_free(&out);
    out = pbem(
        &carol, url,
        (const char *[]){"say", t.match, "--to", "0", "Robert, a word", NULL});
    cr_expect_eq(out.status, 0, "say --to: %s", out.err);
    cr_expect(strstr(out.out, "Said to Robert alone") != NULL, "%s", out.out);
    pl_free(&out);
    talk_say(&t, 0, 1, "Eliza, between us");
    talk_say(&t, 0, 2, "Carol, between us");

    out = pbem(&carol, url, (const char *[]){"messages", t.match, NULL});
    cr_expect_eq(out.status, 0, "messages: %s", out.err);
    cr_expect(strstr(out.out, "Carol: Hello from the terminal") != NULL, "%s",
              out.out);
    cr_expect(strstr(out.out, "Carol to Robert: Robert, a word") != NULL, "%s",
              out.out);
    cr_expect(strstr(out.out, "Robert to Carol: Carol, between us") != NULL,
              "%s", out.out);
    cr_expect(strstr(out.out, "Eliza, between us") == NULL, "%s", out.out);
    pl_free(&out);

    snprintf(path, sizeof path, "/v1/matches/%s/messages", t.match);
    r = e2e_call(&t.server, "GET", path, NULL, &t.players[1]);
    cr_assert_eq(r.status, 200, "%s", r.body);
    cr_expect(strstr(r.body, "Hello from the terminal") != NULL);
    cr_expect(strstr(r.body, "a word") == NULL, "%s", r.body);
    cr_expect(strstr(r.body, "Carol, between us") == NULL, "%s", r.body);
    e2e_response_free(&r);

    /* A refusal is a sentence and exit status 1. */
    out = pbem(&carol, url,
               (const char *[]){"say", t.match, "--to", "9", "hi", NULL});
    cr_expect_eq(out.status, 1, "%s", out.err);
    cr_expect(strstr(out.err, "nobody sits at seat 9") != NULL, "%s", out.err);
    pl_free(&out);
    e2e_stop(&t.server);
}
