/* test_lobby.c: with pbem alone, a stranger finds an open match in the
 * lobby (pbem list) and takes its seat (pbem join). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "players_run.h"

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

Test(pbem_players, a_stranger_lists_the_open_matches_and_joins_one,
     .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person jo, kim;
    pl_person_new(&jo, "jo");
    pl_person_new(&kim, "kim");
    pl_sign_up(&jo, url, "Jo");
    pl_sign_up(&kim, url, "Kim");
    pl_result r = pl_run(&kim, url, ARGS("list"));
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "No open match is waiting for players. Open one "
                            "with: pbem new GAME --seats N --open\n");
    pl_free(&r);
    /* Jo opens one to anyone, and one for friends only. */
    r = pl_run(&jo, url,
               ARGS("new", "artifact_stack", "--seats", "2", "--open"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char match[48];
    cr_assert_eq(sscanf(r.out, "Created %47[^:]:", match), 1, "%s", r.out);
    pl_free(&r);
    pl_new_match(&jo, url, "artifact_stack", 2);

    r = pl_run(&kim, url, ARGS("list", "artifact_stack"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char line[160];
    snprintf(line, sizeof line,
             "%s  Artifact Stack  1/2 seats  no deadlines  rated  by Jo (not "
             "rated yet)\nTake a seat with: pbem join MATCH\n",
             match);
    cr_expect_str_eq(r.out, line, "only the open match is listed");
    pl_free(&r);
    r = pl_run(&kim, url, ARGS("list", "Chess!"));
    cr_expect_eq(r.status, 2);
    cr_expect(strstr(r.err, "is not a game's name") != NULL, "%s", r.err);
    pl_free(&r);

    r = pl_run(&kim, url, ARGS("join", match));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "the match is on") != NULL, "%s", r.out);
    pl_free(&r);
    r = pl_run(&kim, url, ARGS("list"));
    cr_expect(strstr(r.out, "No open match") != NULL, "%s", r.out);
    pl_free(&r);
    e2e_stop(&server);
}

Test(pbem_players, two_seeks_at_the_terminal_make_a_match, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person jo, kim;
    pl_person_new(&jo, "jo");
    pl_person_new(&kim, "kim");
    pl_sign_up(&jo, url, "Jo");
    pl_sign_up(&kim, url, "Kim");
    pl_result r =
        pl_run(&jo, url, ARGS("seek", "artifact_stack", "--seats", "2"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strncmp(r.out, "Waiting as s_", 13) == 0, "%s", r.out);
    pl_free(&r);
    r = pl_run(&kim, url, ARGS("seek", "artifact_stack", "--seats", "2"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char match[48];
    cr_assert_eq(sscanf(r.out, "Matched: %47s has started", match), 1, "%s",
                 r.out);
    pl_free(&r);
    r = pl_run(&jo, url, ARGS("seek", "--list"));
    cr_assert_eq(r.status, 0, "%s", r.err);
    char line[128];
    snprintf(line, sizeof line,
             "artifact_stack  2 seats  24 h turns  "
             "matched %s\n",
             match);
    cr_expect(strstr(r.out, line) != NULL, "%s", r.out);
    pl_free(&r);
    r = pl_run(&jo, url, ARGS("view", match));
    cr_expect_eq(r.status, 0, "the seeker sits in the match: %s", r.err);
    pl_free(&r);
    r = pl_run(&jo, url, ARGS("seek", "artifact_stack"));
    cr_expect_eq(r.status, 2, "no seat count is a usage error");
    pl_free(&r);
    e2e_stop(&server);
}
