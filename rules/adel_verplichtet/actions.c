/* actions.c: a move as JSON and back, and the names the JSON uses. */
#include "av_internal.h"

#include <string.h>

const char *av_location_name(av_location location)
{
    switch (location) {
    case AV_LOC_AUCTION:
        return "auction";
    case AV_LOC_CASTLE:
        return "castle";
    default:
        return NULL;
    }
}

static av_location location_from_name(const char *name)
{
    if (name == NULL)
        return AV_LOC_NONE;
    if (strcmp(name, "auction") == 0)
        return AV_LOC_AUCTION;
    if (strcmp(name, "castle") == 0)
        return AV_LOC_CASTLE;
    return AV_LOC_NONE;
}

static const char *const phase_names[] = {
    "location", "action", "plan", "take", "exhibit", "steal", "final", "over",
};

const char *av_phase_name(av_phase phase)
{
    return phase_names[phase];
}

static const char *const variant_names[] = {"none", "combined", "alternate"};

const char *av_variant_name(av_variant variant)
{
    return variant_names[variant];
}

static const char *const card_names[] = {
    NULL, "check", "thief", "detective", "exhibit", "nothing",
};

json_t *av_cards_json(av_cards cards)
{
    json_t *array = json_array();
    for (int i = 0; i < AV_CARDS; i++) {
        if (cards >> i & 1) {
            char name[4];
            av_card_name(i, name);
            json_array_append_new(array, json_string(name));
        }
    }
    return array;
}

bool av_cards_from_json(const json_t *array, av_cards *out)
{
    *out = 0;
    if (!json_is_array(array))
        return false;
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        int card = av_card_parse(json_string_value(item));
        if (card < 0 || (*out >> card & 1))
            return false;
        *out |= (av_cards)1 << card;
    }
    return true;
}

static bool decode_play(const json_t *action, av_move *out, rules_error *err)
{
    const char *card = json_string_value(json_object_get(action, "card"));
    out->play.card = AV_CARD_NONE;
    for (int c = AV_CARD_CHECK; c <= AV_CARD_NOTHING; c++) {
        if (card != NULL && strcmp(card, card_names[c]) == 0)
            out->play.card = (av_card)c;
    }
    if (out->play.card == AV_CARD_NONE)
        return rules_fail(err, "play names an action card: check, thief, "
                               "detective, exhibit or nothing");
    const json_t *location = json_object_get(action, "location");
    if (location != NULL) {
        out->location = location_from_name(json_string_value(location));
        if (out->location == AV_LOC_NONE)
            return rules_fail(err, "a location is \"castle\" or \"auction\"");
    }
    if (out->play.card == AV_CARD_CHECK) {
        const json_t *value = json_object_get(action, "value");
        if (!json_is_integer(value))
            return rules_fail(err, "a check is played with its value");
        out->play.value = (int)json_integer_value(value);
    }
    if (out->play.card == AV_CARD_THIEF) {
        const json_t *sack = json_object_get(action, "sack");
        if (sack != NULL && !json_is_integer(sack))
            return rules_fail(err, "a thief is named by his sack number");
        out->play.value = sack ? (int)json_integer_value(sack) : 0;
    }
    return true;
}

bool av_move_decode(const json_t *action, av_move *out, rules_error *err)
{
    memset(out, 0, sizeof *out);
    const char *type = json_string_value(json_object_get(action, "type"));
    if (!json_is_object(action) || type == NULL)
        return rules_fail(err, "a move is an object with a \"type\"");
    if (strcmp(type, "go") == 0) {
        out->type = AV_MOVE_GO;
        out->location = location_from_name(
            json_string_value(json_object_get(action, "location")));
        if (out->location == AV_LOC_NONE)
            return rules_fail(err, "you go to the \"castle\" or the "
                                   "\"auction\" house");
        return true;
    }
    if (strcmp(type, "play") == 0) {
        out->type = AV_MOVE_PLAY;
        return decode_play(action, out, err);
    }
    if (strcmp(type, "take") == 0 || strcmp(type, "steal") == 0) {
        out->type = type[0] == 't' ? AV_MOVE_TAKE : AV_MOVE_STEAL;
        out->card = av_card_parse(
            json_string_value(json_object_get(action, "card")));
        if (out->card < 0)
            return rules_fail(err, "name a collection card, A1 to F7");
        return true;
    }
    if (strcmp(type, "exhibit") == 0) {
        out->type = AV_MOVE_EXHIBIT;
        if (!av_cards_from_json(json_object_get(action, "cards"), &out->set))
            return rules_fail(err, "an exhibit lists distinct collection "
                                   "cards, A1 to F7");
        return true;
    }
    return rules_fail(err, "unknown move type \"%s\"", type);
}

json_t *av_move_encode(const av_move *move)
{
    json_t *action = json_object();
    char name[4];
    switch (move->type) {
    case AV_MOVE_GO:
        json_object_set_new(action, "type", json_string("go"));
        json_object_set_new(action, "location",
                            json_string(av_location_name(move->location)));
        break;
    case AV_MOVE_PLAY:
        json_object_set_new(action, "type", json_string("play"));
        json_object_set_new(action, "card",
                            json_string(card_names[move->play.card]));
        if (move->location != AV_LOC_NONE)
            json_object_set_new(action, "location",
                                json_string(av_location_name(move->location)));
        if (move->play.card == AV_CARD_CHECK)
            json_object_set_new(action, "value",
                                json_integer(move->play.value));
        if (move->play.card == AV_CARD_THIEF && move->play.value > 0)
            json_object_set_new(action, "sack", json_integer(move->play.value));
        break;
    case AV_MOVE_TAKE:
    case AV_MOVE_STEAL:
        av_card_name(move->card, name);
        json_object_set_new(action, "type", json_string(
            move->type == AV_MOVE_TAKE ? "take" : "steal"));
        json_object_set_new(action, "card", json_string(name));
        break;
    case AV_MOVE_EXHIBIT:
        json_object_set_new(action, "type", json_string("exhibit"));
        json_object_set_new(action, "cards", av_cards_json(move->set));
        break;
    }
    return action;
}
