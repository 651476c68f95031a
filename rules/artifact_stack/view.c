/* view.c: what one seat (or a spectator) may see. Face-down temple cards
 * show only their position, except to a seat that peeked at them; the
 * stock for round 2 and the 2 cards left over show only their counts. */
#include "artifact_stack_internal.h"

static const char *const monster_names[] = {"vampire", "mummy",
                                            "vampire mummy", "silver cross",
                                            "coffin"};

json_t *as_card_json(const as_state *s, int card)
{
    int stack = as_card_stack(card);
    int k = as_card_number(card) - 1;
    /* Key by key rather than json_pack: a view shows every card on the
     * table, and answers to moves carry views. */
    json_t *o = json_object();
    json_object_set_new(o, "card", json_string(as_card_name(card)));
    json_object_set_new(o, "stack", json_string(as_data.stack_names[stack]));
    json_object_set_new(o, "star", json_boolean(as_data.star[k]));
    switch (stack) {
    case AS_CHINA:
        json_object_set_new(o, "letter",
                            json_stringn(&as_data.china_letter[k], 1));
        break;
    case AS_MONSTERS:
        json_object_set_new(o, "monster",
                            json_string(monster_names[as_data.monster[k]]));
        break;
    case AS_TREASURES:
        json_object_set_new(o, "vp", json_integer(as_data.treasure_vp[k]));
        break;
    case AS_CURSES:
        json_object_set_new(o, "effect", json_string(as_data.fate_text[k]));
        break;
    default:
        if (stack != AS_STATUES)
            json_object_set_new(o, "vp", json_integer(as_data.stack_vp[stack]));
        break;
    }
    if (s->place[card] == AS_TABLEAU && s->flipped[card])
        json_object_set_new(o, "flipped", json_true());
    return o;
}

static json_t *temple_json(const as_state *s, int seat)
{
    json_t *temple = json_array();
    char at[8];
    for (int slot = 0; slot < AS_TEMPLE; slot++) {
        int card = s->temple[slot];
        if (card == AS_NO_CARD)
            continue;
        as_slot_text(slot, at);
        bool down = as_data.covered[as_card_number(card) - 1];
        json_t *o = json_object();
        json_object_set_new(o, "at", json_string(at));
        json_object_set_new(o, "face", json_string(down ? "down" : "up"));
        json_object_set_new(o, "covered_by",
                            json_integer(as_cover_count(s, slot)));
        if (!down || (seat >= 0 && s->peeked[seat][card]))
            json_object_set_new(o, "known", as_card_json(s, card));
        json_t *peekers = json_array();
        for (int p = 0; p < s->seats && down; p++) {
            if (s->peeked[p][card])
                json_array_append_new(peekers, json_integer(p));
        }
        json_object_set_new(o, "peeked_by", peekers);
        json_array_append_new(temple, o);
    }
    return temple;
}

static json_t *player_json(const as_state *s, int p, const as_score *sc)
{
    json_t *cards = json_array();
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] != AS_TABLEAU || s->owner[c] != p)
            continue;
        json_t *o = as_card_json(s, c);
        if (s->set[c] >= 0)
            json_object_set_new(o, "set", json_string(as_card_name(s->set[c])));
        json_array_append_new(cards, o);
    }
    json_t *assistants = json_array();
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] != p)
            continue;
        json_array_append_new(
            assistants,
            json_pack("{s:s,s:s,s:b}", "name", as_data.assistants[a].name,
                      "ability",
                      as_data.ability_text[as_data.assistants[a].ability],
                      "used", s->assistant_used[a]));
    }
    return json_pack("{s:i,s:o,s:o,s:i,s:i,s:i}", "silver", s->silver[p],
                     "cards", cards, "assistants", assistants, "skip",
                     s->skip[p], "score", sc->total, "stars", sc->star_count);
}

json_t *as_view(const rules_state *state, int seat)
{
    const as_state *s = (const as_state *)state;
    as_score sc[RULES_MAX_SEATS];
    as_score_all(s, sc);
    json_t *stacks = json_array();
    for (int k = 0; k < AS_STACKS; k++) {
        if (s->in_play[k])
            json_array_append_new(stacks, json_string(as_data.stack_names[k]));
    }
    json_t *pool = json_array();
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] == AS_POOL)
            json_array_append_new(
                pool, json_pack("{s:s,s:s}", "name", as_data.assistants[a].name,
                                "ability",
                                as_data.ability_text[as_data.assistants[a].ability]));
    }
    json_t *box = json_array();
    int removed = 0;
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] == AS_BOX)
            json_array_append_new(box, json_string(as_card_name(c)));
        if (s->place[c] == AS_REMOVED)
            removed++;
    }
    json_t *players = json_array();
    for (int p = 0; p < s->seats; p++)
        json_array_append_new(players, player_json(s, p, &sc[p]));
    static const char *const tasks[] = {"none", "treasure", "steal", "recruit",
                                        "give", "discard"};
    json_t *view = json_pack(
        "{s:i,s:s,s:b,s:i,s:i,s:{s:s,s:i},s:o,s:o,s:i,s:i,s:o,s:i,s:o,s:o}",
        "round", s->round, "direction",
        s->round == 1 ? "clockwise" : "counter-clockwise", "over", s->over,
        "turn", s->turn, "actions", s->actions, "task", "kind",
        tasks[s->task], "count", s->task_count, "stacks", stacks, "temple",
        temple_json(s, seat), "stock", s->stock_count, "removed", removed,
        "box", box, "bank", s->bank, "assistants", pool, "players", players);
    if (s->task == AS_TASK_TREASURE)
        json_object_set_new(json_object_get(view, "task"), "card",
                            json_string(as_card_name(s->task_card)));
    json_object_set_new(view, "you", json_integer(seat));
    return view;
}
