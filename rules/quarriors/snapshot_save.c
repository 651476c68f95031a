/* snapshot_save.c: the whole state as the position a referee reads and
 * edits (README "Snapshot"): cards, quests, faces, phases and places by
 * name, each die once in the list of its place, in die order; counters
 * of the turn only where they differ from a turn's start. qq_load reads
 * it back; the same state always gives the same bytes. */
#include "qq_snapshot.h"

#include <stdlib.h>

/* The places of a player's dice, as the snapshot lists them. */
static const int player_zones[] = {
    QQ_Z_BAG,  QQ_Z_ACTIVE,   QQ_Z_READY, QQ_Z_QUEST, QQ_Z_USED,
    QQ_Z_SPENT, QQ_Z_ATTACHED, QQ_Z_HELD, QQ_Z_ASIDE,
};
#define PLAYER_ZONES ((int)(sizeof player_zones / sizeof player_zones[0]))

static json_t *seat_list(uint32_t mask, int seats)
{
    json_t *list = json_array();
    for (int s = 0; s < seats; s++) {
        if (mask & (1u << s))
            json_array_append_new(list, json_integer(s));
    }
    return list;
}

static json_t *quest_name(const qq_state *st, int q)
{
    char name[QQ_NAME_SIZE];
    return json_string(
        qq_notation_id(qq_quests[st->quest_slots[q].type].id, name));
}

static void set_int_unless(json_t *obj, const char *key, int value, int dflt)
{
    if (value != dflt)
        json_object_set_new(obj, key, json_integer(value));
}

static void set_seats_unless_none(json_t *obj, const char *key,
                                  uint32_t mask, int seats)
{
    if (mask != 0)
        json_object_set_new(obj, key, seat_list(mask, seats));
}

/* The turn: who, which phase, and every counter that is not what the
 * turn began with (qq_clear_turn). */
static json_t *turn_json(const qq_state *st)
{
    json_t *t = json_pack("{s:i,s:i,s:s,s:i,s:i}", "seat", st->turn,
                          "number", st->turn_number, "phase",
                          qq_phase_name(st->phase), "quiddity", st->quiddity,
                          "captures_left", st->captures_left);
    set_int_unless(t, "capture_discount", st->capture_discount, 0);
    set_int_unless(t, "attack_bonus", st->attack_bonus, 0);
    set_int_unless(t, "culls_left", st->culls_left, 0);
    if (st->quest_done >= 0)
        json_object_set_new(t, "quest_done", quest_name(st, st->quest_done));
    set_int_unless(t, "quest_band_left", st->quest_band_left, 0);
    set_int_unless(t, "defender", st->defender, -1);
    set_int_unless(t, "damage", st->damage, 0);
    set_seats_unless_none(t, "attack_todo", st->attack_todo, st->seats);
    if (st->challenge_quest >= 0)
        json_object_set_new(t, "challenge_quest",
                            quest_name(st, st->challenge_quest));
    set_int_unless(t, "scored", st->scored, 0);
    set_seats_unless_none(t, "victims", st->victims, st->seats);
    set_seats_unless_none(t, "life_spell", st->life_spell, st->seats);
    set_seats_unless_none(t, "life_charm", st->life_charm, st->seats);
    set_int_unless(t, "kept_attack", st->kept_attack, 0);
    set_int_unless(t, "combat_kills", st->combat_kills, 0);
    if (st->warrior_summoned)
        json_object_set_new(t, "warrior_summoned", json_true());
    if (st->react_seat >= 0 || st->react_mask != 0 || st->react_passed != 0 ||
        st->react_resume != 0)
        json_object_set_new(t, "reaction", json_pack(
            "{s:i,s:o,s:o,s:s}", "seat", st->react_seat, "seats",
            seat_list(st->react_mask, st->seats), "passed",
            seat_list(st->react_passed, st->seats), "then",
            qq_resume_name(st->react_resume)));
    return t;
}

static json_t *player_json(const qq_state *st, int s, json_t *const *places)
{
    const qq_player *p = &st->players[s];
    json_t *player = json_pack(
        "{s:{s:i,s:i,s:i,s:i}}", "glory", "scoring", p->glory_scoring,
        "quests", p->glory_quest, "challenges", p->glory_challenge, "spells",
        p->glory_spell);
    for (int i = 0; i < PLAYER_ZONES; i++)
        json_object_set(player, qq_zone_name(player_zones[i]), places[i]);
    /* A quest challenge's sealed order of defenders: null while the seat
     * has still to choose. */
    if (st->chosen[s] == 0) {
        json_object_set_new(player, "defense_order", json_null());
    } else if (st->chosen[s] == 1) {
        json_t *order = json_array();
        for (int i = 0; i < st->order_len[s]; i++)
            json_array_append_new(order, json_integer(st->order[s][i]));
        json_object_set_new(player, "defense_order", order);
    }
    return player;
}

static json_t *last_roll_json(const qq_state *st)
{
    const qq_quest_roll *r = &st->last_roll;
    char face[QQ_NAME_SIZE];
    int type = st->quest_slots[st->dice[r->die].slot].type;
    json_t *roll = json_pack("{s:i,s:i,s:s}", "seat", r->seat, "die", r->die,
                             "face", qq_quest_face_name(type, r->face, face));
    set_int_unless(roll, "seized_from", r->seized_from, -1);
    return roll;
}

json_t *qq_save(const qq_state *st)
{
    char name[QQ_NAME_SIZE], entry[QQ_ENTRY_SIZE];
    json_t *wilds_cards = json_array(), *wilds_dice = json_array();
    json_t *quest_cards = json_array(), *quest_dice = json_array();
    json_t *places[RULES_MAX_SEATS][PLAYER_ZONES];
    int place_of_zone[QQ_Z_COUNT];
    for (int z = 0; z < QQ_Z_COUNT; z++)
        place_of_zone[z] = -1;
    for (int i = 0; i < PLAYER_ZONES; i++)
        place_of_zone[player_zones[i]] = i;
    for (int s = 0; s < st->seats; s++) {
        for (int i = 0; i < PLAYER_ZONES; i++)
            places[s][i] = json_array();
    }
    for (int s = 0; s < st->slot_count; s++)
        json_array_append_new(wilds_cards, json_string(
            qq_notation_id(qq_cards[st->slots[s].card].id, name)));
    for (int q = 0; q < st->quest_count; q++) {
        const qq_quest_def *t = &qq_quests[st->quest_slots[q].type];
        char version[QQ_NAME_SIZE];
        json_array_append_new(quest_cards, json_pack(
            "{s:s,s:s}", "quest", qq_notation_id(t->id, name), "version",
            qq_notation_id(t->versions[st->quest_slots[q].version],
                           version)));
    }
    /* Each die into the list of its place, in die order. */
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *x = &st->dice[d];
        json_t *text = json_string(qq_die_entry_write(st, d, entry));
        if (x->zone == QQ_Z_WILDS)
            json_array_append_new(wilds_dice, text);
        else if (x->zone == QQ_Z_QCARD)
            json_array_append_new(quest_dice, text);
        else
            json_array_append_new(places[x->owner][place_of_zone[x->zone]],
                                  text);
    }
    json_t *players = json_array();
    for (int s = 0; s < st->seats; s++) {
        json_array_append_new(players, player_json(st, s, places[s]));
        for (int i = 0; i < PLAYER_ZONES; i++)
            json_decref(places[s][i]);
    }
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&st->rng, seed);
    json_t *snap = json_pack(
        "{s:s,s:i,s:{s:b,s:b,s:b},s:{s:o,s:o},s:{s:o,s:o},s:o,s:o,"
        "s:{s:s,s:I}}",
        "game", "quarriors", "format", 3, "options", "quests", st->quests,
        "expert", st->expert, "quarmageddon", st->quarmageddon, "wilds",
        "cards", wilds_cards, "dice", wilds_dice, "quest_area", "cards",
        quest_cards, "dice", quest_dice, "players", players, "turn",
        turn_json(st), "rng", "seed", seed, "counter",
        (json_int_t)st->rng.counter);
    if (snap == NULL)
        abort();
    if (st->last_roll.die >= 0)
        json_object_set_new(snap, "last_quest_roll", last_roll_json(st));
    return snap;
}
