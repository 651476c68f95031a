/* pbem chat-link: the code a player types in Discord or Slack to play
 * there (tests/service/chat plays with it). */
#include <criterion/criterion.h>
#include <ctype.h>
#include <string.h>

#include "players_run.h"

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The code on the first line of the output: 5, a dash, 5. */
static void expect_code(const char *out, char code[12])
{
    cr_assert_geq(strlen(out), 11, "%s", out);
    memcpy(code, out, 11);
    code[11] = '\0';
    for (int i = 0; i < 11; i++)
        cr_expect(i == 5 ? code[i] == '-' : isalnum((unsigned char)code[i]),
                  "not a code: %s", out);
}

Test(pbem_players, chat_link_prints_a_new_one_time_code, .timeout = 60)
{
    e2e_server server;
    char url[64];
    pl_server(&server, url);
    pl_person ida;
    pl_person_new(&ida, "ida");
    pl_sign_up(&ida, url, "Ida");
    pl_result r = pl_run(&ida, url, ARGS("chat-link"));
    cr_assert_eq(r.status, 0, "chat-link: %s", r.err);
    char first[12], second[12];
    expect_code(r.out, first);
    char line[64];
    snprintf(line, sizeof line, "/pbem link %s", first);
    cr_expect(strstr(r.out, line) != NULL, "%s", r.out);
    pl_free(&r);
    r = pl_run(&ida, url, ARGS("chat-link"));
    cr_assert_eq(r.status, 0, "chat-link: %s", r.err);
    expect_code(r.out, second);
    cr_expect_str_neq(first, second, "the same code twice");
    pl_free(&r);
    cr_assert_eq(e2e_stop(&server), 0);
}
