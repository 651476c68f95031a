/* play.c: see play.h. */
#include "play.h"

#include <sodium.h>
#include <stdio.h>

int bench_seat_to_move(const json_t *view_or_answer)
{
    return (int)json_integer_value(json_array_get(
        json_object_get(json_object_get(view_or_answer, "pending"), "seats"),
        0));
}

char *bench_random_move(const json_t *view)
{
    json_t *moves = json_object_get(json_object_get(view, "legal"), "moves");
    json_t *body = json_pack(
        "{s:O,s:O}", "seq", json_object_get(json_object_get(view, "head"), "seq"),
        "action",
        json_array_get(moves,
                       randombytes_uniform((uint32_t)json_array_size(moves))));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return text;
}

bool bench_call(client *c, const char *method, const char *path,
                const char *body, const client_key *key, long expect,
                client_response *r, char error[256])
{
    static const char *const prefer[] = {"Prefer: return=representation",
                                         NULL};
    client_send_options options = {.extra_headers = prefer};
    if (!client_send(c, method, path, body, key, &options, r, error))
        return false;
    if (r->status != expect) {
        snprintf(error, 256, "%s %s: %ld %.180s", method, path, r->status,
                 r->body ? r->body : "");
        client_response_free(r);
        return false;
    }
    return true;
}
