/* request.c: what a request to a match asks for (request.h). */
#include "play/request.h"

#include <sodium.h>
#include <string.h>

bool request_in_play(const store_match *match, apierr *err)
{
    if (strcmp(match->status, "aborted") == 0)
        return apierr_set(err, 409, "aborted",
                          "this match was aborted by an admin: it accepts no "
                          "more moves, commitments or reveals");
    if (strcmp(match->status, "active") != 0)
        return apierr_set(err, 409, "not_in_play",
                          "the match is %s, not in play", match->status);
    return true;
}

int request_seat_of(const store_match *match, long long player_id)
{
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == player_id)
            return s;
    }
    return -1;
}

bool request_action_shape(const json_t *body, apierr *err)
{
    const json_t *action = json_object_get(body, "action");
    const json_t *text = json_object_get(body, "move");
    if (json_is_object(action) && text == NULL)
        return true;
    if (json_is_string(text) && action == NULL) {
        if (json_string_length(text) > 1000)
            return apierr_set(err, 400, "bad_move",
                              "a text move is at most 1000 characters");
        return true;
    }
    return apierr_set(err, 400, "bad_move",
                      "give either \"action\" (a JSON object) or \"move\" "
                      "(text)");
}

bool request_hex32(const json_t *body, const char *name, const char *code,
                   uint8_t out[32], apierr *err)
{
    const char *hex = json_string_value(json_object_get(body, name));
    size_t len = 0;
    if (hex == NULL || strlen(hex) != 64 ||
        sodium_hex2bin(out, 32, hex, 64, NULL, &len, NULL) != 0 || len != 32)
        return apierr_set(err, 400, code,
                          "%s must be 32 bytes as 64 hex digits", name);
    return true;
}

/* The action a body asks for: {"action": {...}} or {"move": "text"}. */
json_t *request_action(const json_t *body, const rules_engine *engine,
                                const rules_state *state, int seat,
                                apierr *err)
{
    if (!request_action_shape(body, err))
        return NULL;
    const json_t *text = json_object_get(body, "move");
    if (text == NULL)
        return json_incref(json_object_get(body, "action"));
    rules_error rerr = {{0}};
    json_t *parsed =
        engine->parse_move(state, seat, json_string_value(text), &rerr);
    if (parsed == NULL)
        apierr_set(err, 422, "unreadable_move", "%s", rerr.message);
    /* rerr only carries the message; parsed does not point into it. */
    /* cppcheck-suppress returnDanglingLifetime */
    return parsed;
}
