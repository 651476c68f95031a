/* Quick match: when seeks form a match, every seeker is told by their
 * usual channel, the one whose seek waited as much as the one whose seek
 * completed the table: a mail player by mail, an API player by webhook. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/notify_scene.h"
#include "lobby_scene.h"

#define QUEST_24 "{\"game\":\"antiquity_quest\",\"seats\":2,\"turn_hours\":24}"

/* The first line of r holding needle (in a field the caller names: the
 * mail's text, which a mail of a match's thread opens with what it is
 * about; the webhook's body), waiting up to 20 s for it; NULL
 * when it did not come. Borrowed. */
static const json_t *line_with(const receiver *r, const char *field,
                               const char *needle)
{
    double until = receiver_now() + 20;
    for (size_t i = 0;; i++) {
        const json_t *line = receiver_await(r, i, until);
        if (line == NULL)
            return NULL;
        const char *text = json_string_value(json_object_get(line, field));
        if (text != NULL && strstr(text, needle) != NULL)
            return line;
    }
}

static char *seek(const e2e_server *s, const e2e_player *p)
{
    e2e_response r = e2e_call(s, "POST", "/v1/seeks", QUEST_24, p);
    cr_assert_eq(r.status, 201, "seek: %ld %s", r.status, r.body);
    const char *match = json_string_value(json_object_get(r.json, "match"));
    char *copy = match ? strdup(match) : NULL;
    e2e_response_free(&r);
    return copy;
}

Test(lobby_found, each_seeker_learns_of_the_match_by_their_channel,
     .timeout = 60)
{
    notify_server_env();
    setenv("PBEM_PUBLIC_URL", "https://pbem.example", 1);
    receiver smtp, hook;
    receiver_start(&smtp, "smtp-receiver.mjs", NULL);
    char url[128];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    receiver_start(&hook, "webhook-receiver.mjs", NULL);
    e2e_server s = {0};
    e2e_start(&s);
    e2e_player ann, ben;
    lobby_register(&s, "Ann", &ann);
    lobby_register(&s, "Ben", &ben);
    /* Ann reads her mail; Ben is a program with a webhook and no address. */
    e2e_confirm_address(ann.id, "ann@players.example");
    snprintf(url, sizeof url, "http://127.0.0.1:%d/hook", hook.port);
    receiver_add_secret(&hook, register_webhook(&s, &ben, NULL, url));

    char *waited = seek(&s, &ann);
    cr_assert_null(waited, "Ann's seek alone formed %s", waited);
    char *match = seek(&s, &ben);
    cr_assert_not_null(match, "Ben's seek did not pair with Ann's");

    /* Ann, who waited, learns it by mail: in our words, with the link. */
    const json_t *mail = line_with(&smtp, "text", "Your quick match is ready");
    cr_assert_not_null(mail, "no quick-match mail came for Ann");
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_object_get(mail, "envelope_to"), 0)),
                     "ann@players.example");
    const char *text = json_string_value(json_object_get(mail, "text"));
    char link[96];
    snprintf(link, sizeof link, "https://pbem.example/matches/%s", match);
    cr_expect(strstr(text, link) != NULL, "no match link in:\n%s", text);
    cr_expect(strstr(text, "with Ben.") != NULL, "no partner in:\n%s", text);

    /* Ben, whose seek completed the table, by his webhook too. */
    const json_t *hooked = line_with(&hook, "body", "\"match.found\"");
    cr_assert_not_null(hooked, "no match.found webhook came for Ben");
    cr_expect(json_is_true(json_object_get(hooked, "verified")),
              "the delivery is not signed with Ben's secret");
    json_t *body =
        json_loads(json_string_value(json_object_get(hooked, "body")), 0, NULL);
    json_t *data = json_object_get(body, "data");
    cr_expect_str_eq(json_string_value(json_object_get(data, "match")), match);
    cr_expect_eq(json_integer_value(json_object_get(data, "seat")), 1,
                 "Ben's seek came second: seat 1");
    cr_expect_str_eq(
        json_string_value(json_array_get(json_object_get(data, "players"), 0)),
        "Ann");
    json_decref(body);

    /* Nobody is told twice, and only Ann has an address. */
    json_t *mails = receiver_lines(&smtp);
    size_t i;
    json_t *m;
    int found_mails = 0;
    json_array_foreach(mails, i, m)
    {
        const char *to = json_string_value(
            json_array_get(json_object_get(m, "envelope_to"), 0));
        cr_expect_str_eq(to, "ann@players.example");
        const char *body_text = json_string_value(json_object_get(m, "text"));
        if (body_text && strstr(body_text, "Your quick match is ready"))
            found_mails++;
    }
    cr_expect_eq(found_mails, 1, "quick-match mails: %d", found_mails);
    json_decref(mails);
    free(waited);
    free(match);
    stop_server(&s);
    receiver_stop(&hook);
    receiver_stop(&smtp);
}
