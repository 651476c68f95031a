/* actions.c: the JSON form of each action, decoded into an aq_action and
 * back. Shapes (README "Actions"):
 *   {"type":"draw"}
 *   {"type":"pickup","cards":["red2","redW"]}
 *   {"type":"play","cards":["red1","red3","red5"]}
 *   {"type":"add","collection":2,"cards":["red2"]}
 *   {"type":"remington"}
 *   {"type":"reassign","give":3,"take":7}
 *   {"type":"lost_shipment","collection":7}
 *   {"type":"discard","card":"tess"}
 *   {"type":"final","plays":[{"type":"play","cards":[…]},
 *                            {"type":"add","collection":2,"cards":[…]}]} */
#include "aq_internal.h"

#include <string.h>

static const char *const type_names[] = {
    [AQ_ACT_DRAW] = "draw",
    [AQ_ACT_PICKUP] = "pickup",
    [AQ_ACT_PLAY] = "play",
    [AQ_ACT_ADD] = "add",
    [AQ_ACT_REMINGTON] = "remington",
    [AQ_ACT_REASSIGN] = "reassign",
    [AQ_ACT_LOST_SHIPMENT] = "lost_shipment",
    [AQ_ACT_DISCARD] = "discard",
    [AQ_ACT_FINAL] = "final",
};

#define AQ_ACTION_TYPES ((int)(sizeof type_names / sizeof type_names[0]))

/* Appends the names of a JSON array of card names to out->name. */
static bool decode_cards(const json_t *cards, aq_action *out, rules_error *err)
{
    if (!json_is_array(cards) || json_array_size(cards) == 0)
        return rules_fail(err, "the move needs a non-empty \"cards\" list");
    size_t i;
    const json_t *card;
    json_array_foreach(cards, i, card) {
        int name = json_is_string(card) ? aq_name_parse(json_string_value(card))
                                        : AQ_NONE;
        if (name == AQ_NONE)
            return rules_fail(err, "there is no card called %s",
                              json_is_string(card) ? json_string_value(card)
                                                   : "(not a string)");
        if (out->names >= AQ_CARDS)
            return rules_fail(err, "a move names at most %d cards", AQ_CARDS);
        out->name[out->names++] = name;
    }
    return true;
}

static bool decode_collection(const json_t *value, int *out, rules_error *err)
{
    if (!json_is_integer(value) || json_integer_value(value) < 1 ||
        json_integer_value(value) > 100000)
        return rules_fail(err, "a collection is named by its number (1, 2, …)");
    *out = (int)json_integer_value(value);
    return true;
}

static bool has_only(const json_t *json, size_t keys, rules_error *err)
{
    if (json_object_size(json) != keys)
        return rules_fail(err, "the move has fields its type does not take");
    return true;
}

static bool decode_final(const json_t *json, aq_action *out, rules_error *err)
{
    const json_t *plays = json_object_get(json, "plays");
    if (!json_is_array(plays) || !has_only(json, 2, err))
        return rules_fail(err, "final plays need a \"plays\" list");
    size_t i;
    const json_t *play;
    json_array_foreach(plays, i, play) {
        if (out->plays >= AQ_MAX_FINAL_PLAYS)
            return rules_fail(err, "at most %d final plays", AQ_MAX_FINAL_PLAYS);
        const char *type = json_string_value(json_object_get(play, "type"));
        aq_final_play *p = &out->play[out->plays];
        p->first = out->names;
        if (type != NULL && strcmp(type, "play") == 0) {
            p->target = 0;
            if (!has_only(play, 2, err))
                return false;
        } else if (type != NULL && strcmp(type, "add") == 0) {
            if (!has_only(play, 3, err) ||
                !decode_collection(json_object_get(play, "collection"),
                                   &p->target, err))
                return false;
        } else {
            return rules_fail(err, "final plays are only \"play\" and \"add\"");
        }
        if (!decode_cards(json_object_get(play, "cards"), out, err))
            return false;
        p->count = out->names - p->first;
        out->plays++;
    }
    return true;
}

bool aq_action_decode(const json_t *json, aq_action *out, rules_error *err)
{
    memset(out, 0, sizeof *out);
    const char *type = json_string_value(json_object_get(json, "type"));
    if (!json_is_object(json) || type == NULL)
        return rules_fail(err, "a move is a JSON object with a \"type\"");
    int t = 0;
    while (t < AQ_ACTION_TYPES && strcmp(type, type_names[t]) != 0)
        t++;
    if (t == AQ_ACTION_TYPES)
        return rules_fail(err, "there is no move called %s", type);
    out->type = (aq_action_type)t;
    switch (out->type) {
    case AQ_ACT_DRAW:
    case AQ_ACT_REMINGTON:
        return has_only(json, 1, err);
    case AQ_ACT_PICKUP:
    case AQ_ACT_PLAY:
        return has_only(json, 2, err) &&
               decode_cards(json_object_get(json, "cards"), out, err);
    case AQ_ACT_ADD:
        return has_only(json, 3, err) &&
               decode_collection(json_object_get(json, "collection"),
                                 &out->target, err) &&
               decode_cards(json_object_get(json, "cards"), out, err);
    case AQ_ACT_REASSIGN:
        return has_only(json, 3, err) &&
               decode_collection(json_object_get(json, "give"), &out->target,
                                 err) &&
               decode_collection(json_object_get(json, "take"), &out->take,
                                 err);
    case AQ_ACT_LOST_SHIPMENT:
        return has_only(json, 2, err) &&
               decode_collection(json_object_get(json, "collection"),
                                 &out->target, err);
    case AQ_ACT_DISCARD: {
        const json_t *card = json_object_get(json, "card");
        if (!has_only(json, 2, err))
            return false;
        if (!json_is_string(card))
            return rules_fail(err, "a discard names one \"card\"");
        out->name[0] = aq_name_parse(json_string_value(card));
        out->names = 1;
        if (out->name[0] == AQ_NONE)
            return rules_fail(err, "there is no card called %s",
                              json_string_value(card));
        return true;
    }
    case AQ_ACT_FINAL:
        return decode_final(json, out, err);
    }
    return rules_fail(err, "there is no move called %s", type);
}

static json_t *names_json(const aq_action *a, int first, int count)
{
    json_t *cards = json_array();
    for (int i = first; i < first + count; i++)
        json_array_append_new(cards, json_string(aq_name_text(a->name[i])));
    return cards;
}

json_t *aq_action_encode(const aq_action *a)
{
    json_t *json = json_pack("{s:s}", "type", type_names[a->type]);
    switch (a->type) {
    case AQ_ACT_DRAW:
    case AQ_ACT_REMINGTON:
        break;
    case AQ_ACT_PICKUP:
    case AQ_ACT_PLAY:
        json_object_set_new(json, "cards", names_json(a, 0, a->names));
        break;
    case AQ_ACT_ADD:
        json_object_set_new(json, "collection", json_integer(a->target));
        json_object_set_new(json, "cards", names_json(a, 0, a->names));
        break;
    case AQ_ACT_REASSIGN:
        json_object_set_new(json, "give", json_integer(a->target));
        json_object_set_new(json, "take", json_integer(a->take));
        break;
    case AQ_ACT_LOST_SHIPMENT:
        json_object_set_new(json, "collection", json_integer(a->target));
        break;
    case AQ_ACT_DISCARD:
        json_object_set_new(json, "card", json_string(aq_name_text(a->name[0])));
        break;
    case AQ_ACT_FINAL: {
        json_t *plays = json_array();
        for (int p = 0; p < a->plays; p++) {
            const aq_final_play *fp = &a->play[p];
            json_t *one = fp->target == 0
                              ? json_pack("{s:s}", "type", "play")
                              : json_pack("{s:s,s:i}", "type", "add",
                                          "collection", fp->target);
            json_object_set_new(one, "cards",
                                names_json(a, fp->first, fp->count));
            json_array_append_new(plays, one);
        }
        json_object_set_new(json, "plays", plays);
        break;
    }
    }
    return json;
}
