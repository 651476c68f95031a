/* test_matches.c: pbem matches lists a player's matches, theirs to act first.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "players_run.h"

#define ARGS(...) ((const char *[]){__VA_ARGS__, NULL})

Test(pbem_players, matches_lists_mine_with_whose_turn, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person jo, kim;
    pl_person_new(&jo, "jo");
    pl_person_new(&kim, "kim");
    pl_sign_up(&jo, url, "Jo");
    pl_sign_up(&kim, url, "Kim");
    pl_result r = pl_run(&jo, url, ARGS("matches"));
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.out, "You have no matches yet: pbem new GAME --seats N "
                            "starts one.\n");
    pl_free(&r);
    char match[48];
    snprintf(match, sizeof match, "%s",
             pl_new_match(&jo, url, "artifact_stack", 2));
    r = pl_run(&kim, url, ARGS("join", match));
    cr_assert_eq(r.status, 0, "%s", r.err);
    pl_free(&r);
    /* Exactly one of them must act; each sees the match once. */
    pl_result a = pl_run(&jo, url, ARGS("matches"));
    pl_result b = pl_run(&kim, url, ARGS("matches"));
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_eq(b.status, 0, "%s", b.err);
    cr_expect(strncmp(a.out, match, strlen(match)) == 0, "%s", a.out);
    cr_expect(strstr(a.out, " artifact_stack ") != NULL, "%s", a.out);
    cr_expect(strstr(a.out, " active ") != NULL, "%s", a.out);
    cr_expect(strstr(a.out, "seat 0") != NULL, "%s", a.out);
    cr_expect(strstr(b.out, "seat 1") != NULL, "%s", b.out);
    cr_expect(strstr(a.out, "Jo, Kim\n") != NULL, "%s", a.out);
    cr_expect_neq(strstr(a.out, "your turn") != NULL,
                  strstr(b.out, "your turn") != NULL, "%s%s", a.out, b.out);
    pl_free(&a);
    pl_free(&b);
    r = pl_run(&jo, url, ARGS("matches", "--status", "finished"));
    cr_expect_str_eq(r.out, "None of your matches is finished.\n");
    pl_free(&r);
    e2e_stop(&server);
}
