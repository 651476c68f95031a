/* view.c: what a seat sees. Everything on the table is public, and so
 * is the last quest die rolled; a bag shows only how many dice it holds
 * (its owner also sees how many of each card), never which die numbers
 * are inside; a sealed challenge order is shown only to the seat that
 * chose it. */
#include "qq_names.h"

#include <string.h>

static json_t *face_json(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    if (die->face < 0)
        return json_null();
    json_t *face = json_object();
    char name[QQ_NAME_SIZE];
    if (die->quest_die) {
        const qq_quest_face *r = &qq_quest_die_faces[die->face];
        json_object_set_new(face, "name", json_string(qq_quest_face_name(
            st->quest_slots[die->slot].type, die->face, name)));
        if (r->kind == QQ_QR_QUARTIFACT) {
            char buf[64];
            json_object_set_new(face, "quartifact", json_string(
                qq_quartifact_name(st->quest_slots[die->slot].type,
                                   r->amount, buf, sizeof buf)));
        }
        return face;
    }
    const qq_face *f = qq_face_of(st, d);
    json_object_set_new(face, "name", json_string(qq_face_name(f, name)));
    if (f->q)
        json_object_set_new(face, "q", json_integer(f->q));
    if (f->draw)
        json_object_set_new(face, "draw_roll", json_integer(f->draw));
    if (f->burst)
        json_object_set_new(face, "burst", json_integer(f->burst));
    if (f->flags & QQ_FACE_REROLL)
        json_object_set_new(face, "reroll", json_true());
    if (f->flags & QQ_FACE_EITHER_REROLL)
        json_object_set_new(face, "or_reroll", json_true());
    if (f->flags & QQ_FACE_SPELL)
        json_object_set_new(face, "spell", json_true());
    if (f->flags & QQ_FACE_CREATURE) {
        json_object_set_new(face, "level", json_integer(f->level));
        json_object_set_new(face, "attack", json_integer(qq_attack(st, d, -1)));
        json_object_set_new(face, "defense", json_integer(qq_defense(st, d)));
    }
    return face;
}

static json_t *die_json(const qq_state *st, int d)
{
    const qq_die *die = &st->dice[d];
    /* Key by key rather than json_pack: a view shows every die in play,
     * and answers to moves carry views. */
    json_t *j = json_object();
    json_object_set_new(j, "id", json_integer(d));
    json_object_set_new(j, "zone", json_string(qq_zone_name(die->zone)));
    json_object_set_new(j, "face", face_json(st, d));
    if (die->quest_die)
        json_object_set_new(j, "quest", json_string(
            qq_quests[st->quest_slots[die->slot].type].id));
    else
        json_object_set_new(j, "card", json_string(
            qq_cards[st->slots[die->slot].card].id));
    if (die->copy_card >= 0)
        json_object_set_new(j, "copying",
                            json_string(qq_cards[die->copy_card].id));
    if (die->host >= 0)
        json_object_set_new(j, "on", json_integer(die->host));
    if (die->zone == QQ_Z_QUEST) {
        json_object_set_new(j, "at_quest", json_string(
            qq_quests[st->quest_slots[die->quest].type].id));
        if (die->flags & QQ_F_CHALLENGER)
            json_object_set_new(j, "challenging", json_true());
    }
    if (die->flags & QQ_F_SUMMONED)
        json_object_set_new(j, "this_turn", json_true());
    return j;
}

/* The last quest die rolled: a roll is public at the table (who rolled
 * which die, what it showed and what it gave), kept until the next. */
static json_t *last_roll_json(const qq_state *st)
{
    const qq_quest_roll *r = &st->last_roll;
    int type = st->quest_slots[st->dice[r->die].slot].type;
    char face[QQ_NAME_SIZE], reward[128];
    json_t *roll = json_pack(
        "{s:i,s:s,s:i,s:s,s:s}", "seat", r->seat, "quest", qq_quests[type].id,
        "die", r->die, "face", qq_quest_face_name(type, r->face, face),
        "reward", qq_quest_reward_text(type, r->face, reward, sizeof reward));
    if (r->seized_from >= 0)
        json_object_set_new(roll, "seized_from", json_integer(r->seized_from));
    return roll;
}

json_t *qq_view(const qq_state *st, int seat)
{
    json_t *wilds = json_array();
    for (int s = 0; s < st->slot_count; s++) {
        const qq_card_def *c = &qq_cards[st->slots[s].card];
        json_array_append_new(wilds, json_pack(
            "{s:s,s:s,s:i,s:i,s:i}", "card", c->id, "name", c->name, "cost",
            qq_capture_cost(st, s), "glory", c->glory, "dice",
            qq_slot_dice(st, s)));
    }
    json_t *quests = json_array();
    for (int q = 0; q < st->quest_count; q++) {
        const qq_quest_def *t = &qq_quests[st->quest_slots[q].type];
        int on_card = 0;
        for (int d = 0; d < st->dice_count; d++)
            on_card += st->dice[d].quest_die && st->dice[d].slot == q &&
                       st->dice[d].zone == QQ_Z_QCARD;
        int owner = qq_quest_owner(st, q);
        json_array_append_new(quests, json_pack(
            "{s:s,s:s,s:s,s:i,s:i,s:i,s:o}", "quest", t->id, "name", t->name,
            "version", t->versions[st->quest_slots[q].version], "level",
            t->level, "glory", t->glory, "dice_on_card", on_card, "questing",
            owner < 0 ? json_null() : json_integer(owner)));
    }
    json_t *players = json_array();
    for (int s = 0; s < st->seats; s++) {
        const qq_player *p = &st->players[s];
        json_t *dice = json_array();
        int bag = 0;
        json_t *bag_cards = json_object();
        for (int d = 0; d < st->dice_count; d++) {
            const qq_die *die = &st->dice[d];
            if (die->owner != s)
                continue;
            if (die->zone == QQ_Z_BAG) {
                bag++;
                const char *id = qq_card_of(st, d)->id;
                json_object_set_new(bag_cards, id, json_integer(
                    json_integer_value(json_object_get(bag_cards, id)) + 1));
                continue;
            }
            json_array_append_new(dice, die_json(st, d));
        }
        json_t *player = json_pack("{s:i,s:i,s:o}", "glory", p->glory, "bag",
                                   bag, "dice", dice);
        if (s == seat)
            json_object_set_new(player, "bag_contents", bag_cards);
        else
            json_decref(bag_cards);
        json_array_append_new(players, player);
    }
    json_t *view = json_pack(
        "{s:i,s:i,s:i,s:s,s:i,s:{s:b,s:b,s:b},s:o,s:o,s:o}", "seat", seat,
        "turn", st->turn, "turn_number", st->turn_number, "phase",
        qq_phase_name(st->phase), "goal", st->goal, "options", "quests",
        st->quests, "expert", st->expert, "quarmageddon", st->quarmageddon,
        "wilds", wilds, "quest_area", quests, "players", players);
    if (st->phase != QQ_P_OVER) {
        json_object_set_new(view, "quiddity", json_integer(st->quiddity));
        json_object_set_new(view, "quiddity_available",
                            json_integer(qq_quiddity_available(st)));
        json_object_set_new(view, "captures_left",
                            json_integer(st->captures_left));
        json_object_set_new(view, "culls_left", json_integer(st->culls_left));
    }
    if (st->phase == QQ_P_OVER) {
        /* why it ended, as result() says it (public) */
        json_t *result = qq_result(st);
        json_object_set(view, "reason", json_object_get(result, "reason"));
        json_decref(result);
    }
    if (st->phase == QQ_P_DEFEND)
        json_object_set_new(view, "attack", json_pack(
            "{s:i,s:i}", "defender", st->defender, "damage", st->damage));
    /* what view_text tells of a scoring power and a reaction window */
    if (st->phase == QQ_P_TRIGGER && st->trigger >= 0)
        json_object_set_new(view, "scoring_power", json_pack(
            "{s:i,s:s}", "die", st->trigger, "may",
            qq_trigger_verb(st->trigger_pow[st->trigger])));
    if (st->phase == QQ_P_REACT) {
        json_t *seats = json_array();
        for (int s = 0; s < st->seats; s++) {
            if (st->react_mask & (1u << s))
                json_array_append_new(seats, json_integer(s));
        }
        json_object_set_new(view, "reaction", json_pack(
            "{s:o,s:i,s:b}", "seats", seats, "asked", st->react_seat,
            "after_the_fight", qq_post_window_kind(st->react_resume)));
    }
    if (st->phase == QQ_P_SPECIAL)
        json_object_set_new(view, "free_capture_up_to",
                            json_integer(qq_free_capture_limit(st)));
    if (st->last_roll.die >= 0)
        json_object_set_new(view, "last_quest_roll", last_roll_json(st));
    if (st->phase == QQ_P_CHALLENGE) {
        json_t *chosen = json_array();
        for (int s = 0; s < st->seats; s++)
            json_array_append_new(chosen, json_boolean(st->chosen[s] == 1));
        json_t *challenge = json_pack(
            "{s:s,s:o}", "quest",
            qq_quests[st->quest_slots[st->challenge_quest].type].id, "chosen",
            chosen);
        if (seat >= 0 && seat < st->seats && st->chosen[seat] == 1) {
            json_t *order = json_array();
            for (int i = 0; i < st->order_len[seat]; i++)
                json_array_append_new(order,
                                      json_integer(st->order[seat][i]));
            json_object_set_new(challenge, "my_order", order);
        }
        json_object_set_new(view, "challenge", challenge);
    }
    return view;
}
