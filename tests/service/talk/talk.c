/* talk.c */
#include "talk.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

void talk_say(const e2e_table *t, int seat, int to, const char *text)
{
    json_t *body = json_pack("{s:s}", "text", text);
    if (to >= 0)
        json_object_set_new(body, "to", json_integer(to));
    char *raw = json_dumps(body, JSON_COMPACT), path[64];
    snprintf(path, sizeof path, "/v1/matches/%s/messages", t->match);
    e2e_response r = e2e_call(&t->server, "POST", path, raw, &t->players[seat]);
    cr_assert_eq(r.status, 201, "seat %d saying \"%s\": %ld %s", seat, text,
                 r.status, r.body);
    const json_t *message = json_object_get(r.json, "message");
    cr_expect_str_eq(json_string_value(json_object_get(message, "text")), text);
    cr_expect_eq(json_integer_value(json_object_get(message, "from")), seat);
    e2e_response_free(&r);
    free(raw);
    json_decref(body);
}
