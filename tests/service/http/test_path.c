/* test_path.c: the route patterns of http/path.h, as a client's paths meet
 * them. Pure: no server, no database. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "http/path.h"

static path_params params;

Test(path, a_move_names_its_match_by_its_public_id)
{
    cr_assert_eq(path_match("/v1/matches/{id}/moves", "/v1/matches/m_42/moves",
                            &params),
                 PATH_MATCHES);
    cr_assert_eq(params.match_id, 42);
}

Test(path, a_match_id_has_one_spelling)
{
    const char *wrong[] = {"/v1/matches/m_042/moves", "/v1/matches/m_+5/moves",
                           "/v1/matches/m_/moves", "/v1/matches/42/moves",
                           "/v1/matches/m_99999999999999999999/moves"};
    for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++)
        cr_assert_eq(path_match("/v1/matches/{id}/moves", wrong[i], &params),
                     PATH_NO_SUCH_MATCH, "%s", wrong[i]);
}

Test(path, text_outside_the_braces_must_match_exactly)
{
    const char *pattern = "/v1/matches/{id}/moves";
    cr_assert_eq(path_match(pattern, "/v1/matches/m_1/move", &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match(pattern, "/v1/matches/m_1/moves/", &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match(pattern, "/v1/matches/m_1/movesx", &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match("/v1/matches", "/v1/matches/m_1", &params),
                 PATH_DIFFERS);
}

Test(path, a_decision_id_is_one_segment_of_1_to_63_characters)
{
    const char *pattern = "/v1/matches/{id}/decisions/{decision}/commit";
    cr_assert_eq(path_match(pattern, "/v1/matches/m_7/decisions/round-3/commit",
                            &params),
                 PATH_MATCHES);
    cr_assert_eq(params.match_id, 7);
    cr_assert_str_eq(params.id, "round-3");

    char path[200], longest[64];
    memset(longest, 'd', 63);
    longest[63] = '\0';
    snprintf(path, sizeof path, "/v1/matches/m_7/decisions/%s/commit", longest);
    cr_assert_eq(path_match(pattern, path, &params), PATH_MATCHES);
    cr_assert_eq(strlen(params.id), 63);
    snprintf(path, sizeof path, "/v1/matches/m_7/decisions/%sd/commit",
             longest);
    cr_assert_eq(path_match(pattern, path, &params), PATH_NO_SUCH_DECISION);
    cr_assert_eq(path_match(pattern, "/v1/matches/m_7/decisions//commit",
                            &params),
                 PATH_NO_SUCH_DECISION);
}

Test(path, a_seat_is_a_number_from_0_to_1000)
{
    const char *pattern = "/v1/admin/matches/{id}/seats/{seat}/replace";
    cr_assert_eq(path_match(pattern, "/v1/admin/matches/m_3/seats/2/replace",
                            &params),
                 PATH_MATCHES);
    cr_assert_eq(params.seat, 2);
    cr_assert_eq(path_match(pattern, "/v1/admin/matches/m_3/seats/1001/replace",
                            &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match(pattern, "/v1/admin/matches/m_3/seats/two/replace",
                            &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match(pattern, "/v1/admin/matches/m_3/seats/-1/replace",
                            &params),
                 PATH_DIFFERS);
}

Test(path, an_outbox_id_may_hold_a_slash)
{
    cr_assert_eq(path_match("/v1/admin/notifications/{id}/retry",
                            "/v1/admin/notifications/m_5/12/retry", &params),
                 PATH_MATCHES);
    cr_assert_str_eq(params.id, "m_5/12");
    cr_assert_eq(path_match("/v1/admin/notifications/{id}/retry",
                            "/v1/admin/notifications//retry", &params),
                 PATH_DIFFERS);
}

Test(path, other_ids_are_the_rest_of_the_path_for_the_use_case_to_judge)
{
    cr_assert_eq(path_match("/v1/players/me/vacation/{id}",
                            "/v1/players/me/vacation/v_3", &params),
                 PATH_MATCHES);
    cr_assert_str_eq(params.id, "v_3");
    cr_assert_eq(path_match("/v1/players/me/webhooks/{id}",
                            "/v1/players/me/webhooks/", &params),
                 PATH_MATCHES);
    cr_assert_str_eq(params.id, "");
}

Test(path, a_seat_has_one_spelling)
{
    const char *pattern = "/v1/admin/matches/{id}/seats/{seat}/replace";
    const char *wrong[] = {"+2", "02", "00", " 2", "2 ", "0x2", "", "2.0"};
    for (size_t i = 0; i < sizeof wrong / sizeof *wrong; i++) {
        char path[96];
        snprintf(path, sizeof path, "/v1/admin/matches/m_3/seats/%s/replace",
                 wrong[i]);
        cr_assert_eq(path_match(pattern, path, &params), PATH_DIFFERS,
                     "seat \"%s\"", wrong[i]);
    }
    cr_assert_eq(path_match(pattern, "/v1/admin/matches/m_3/seats/0/replace",
                            &params),
                 PATH_MATCHES);
    cr_assert_eq(params.seat, 0);
}

Test(path, dot_segments_never_match)
{
    cr_assert_eq(path_match("/v1/players/me/vacation/{id}",
                            "/v1/players/me/vacation/..", &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match("/v1/players/me/vacation/{id}",
                            "/v1/players/me/vacation/./x", &params),
                 PATH_DIFFERS);
    cr_assert_eq(path_match("/v1/players/me/vacation/{id}",
                            "/v1/players/me/vacation/..x", &params),
                 PATH_MATCHES);
}

Test(path, a_path_that_needed_decoding_is_not_canonical)
{
    cr_assert(path_is_canonical("/v1/matches/m_16/moves",
                                "/v1/matches/m_16/moves?x=%41"));
    /* What the server decoded differs from what the client sent. */
    cr_assert_not(path_is_canonical("/v1/matches/m_16/moves",
                                    "/v1/matches/m_%31%36/moves"));
    /* %00: the decoded path stops at the NUL. */
    cr_assert_not(path_is_canonical("/v1/matches/m_16/moves",
                                    "/v1/matches/m_16/moves%00x"));
    cr_assert_not(path_is_canonical("/v1/matches/m_16/../m_16/moves",
                                    "/v1/matches/m_16/../m_16/moves"));
}
