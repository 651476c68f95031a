/* snapshot.c: save, load and the invariants. The snapshot is the whole
 * state, hidden information included; load validates everything and then
 * runs check(). */
#include "qq_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QQ_SNAPSHOT_FORMAT 2

/* Appends v in decimal at p (snapshots are written often: no printf). */
static char *put_int(char *p, int v)
{
    char digits[12];
    int n = 0;
    if (v < 0) {
        *p++ = '-';
        v = -v;
    }
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0)
        *p++ = digits[--n];
    return p;
}

/* Per-die lists are written as one string of comma-separated numbers
 * ("0,0,2,0"), which keeps snapshots small. */
static json_t *int_string(const int8_t *values, int n)
{
    char text[QQ_MAX_DICE * 5 + 1];
    char *p = text;
    for (int i = 0; i < n; i++) {
        if (i > 0)
            *p++ = ',';
        p = put_int(p, values[i]);
    }
    *p = '\0';
    return json_string(text);
}

static bool read_int_string(const json_t *v, int n, int lo, int hi,
                            int8_t *out)
{
    const char *p = json_string_value(v);
    if (p == NULL)
        return false;
    for (int i = 0; i < n; i++) {
        char *end;
        long x = strtol(p, &end, 10);
        if (end == p || x < lo || x > hi)
            return false;
        out[i] = (int8_t)x;
        p = end;
        if (i + 1 < n) {
            if (*p != ',')
                return false;
            p++;
        }
    }
    return *p == '\0';
}

json_t *qq_save(const qq_state *st)
{
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&st->rng, seed);
    json_t *slots = json_array();
    for (int s = 0; s < st->slot_count; s++)
        json_array_append_new(slots,
                              json_string(qq_cards[st->slots[s].card].id));
    json_t *quests = json_array();
    for (int q = 0; q < st->quest_count; q++)
        json_array_append_new(quests, json_pack(
            "[s,i]", qq_quests[st->quest_slots[q].type].id,
            st->quest_slots[q].version));
    json_t *dice = json_array();
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *x = &st->dice[d];
        char text[96];
        const char *zone = qq_zone_name(x->zone);
        size_t len = strlen(zone);
        memcpy(text, zone, len);
        char *p = text + len;
        /* the order in which qq_load reads a die_entry */
        const int fields[10] = {x->slot, x->quest_die, x->owner, x->face,
                                x->quest, x->host, x->flags, x->last_face,
                                x->copy_card, x->copy_face};
        for (int i = 0; i < 10; i++) {
            *p++ = ' ';
            p = put_int(p, fields[i]);
        }
        *p = '\0';
        json_array_append_new(dice, json_string(text));
    }
    json_t *players = json_array();
    json_t *chosen = json_array();
    json_t *orders = json_array();
    for (int s = 0; s < st->seats; s++) {
        const qq_player *p = &st->players[s];
        json_array_append_new(players, json_pack(
            "[i,i,i,i,i]", p->glory, p->glory_scoring, p->glory_quest,
            p->glory_challenge, p->glory_spell));
        json_array_append_new(chosen, json_integer(st->chosen[s]));
        json_t *order = json_array();
        for (int i = 0; i < st->order_len[s]; i++)
            json_array_append_new(order, json_integer(st->order[s][i]));
        json_array_append_new(orders, order);
    }
    json_t *turn = json_pack(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}",
        "seat", st->turn, "number", st->turn_number, "phase", st->phase,
        "quiddity", st->quiddity, "captures_left", st->captures_left,
        "capture_discount", st->capture_discount, "attack_bonus",
        st->attack_bonus, "culls_left", st->culls_left, "quest_done",
        st->quest_done, "quest_band", st->quest_band, "quest_band_left",
        st->quest_band_left, "special_cost", st->special_cost, "defender",
        st->defender, "damage", st->damage, "attack_todo",
        (int)st->attack_todo, "challenge_quest", st->challenge_quest);
    json_t *powers = json_pack(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "scored",
        st->scored, "victims", (int)st->victims, "life_spell",
        (int)st->life_spell, "life_charm", (int)st->life_charm, "kept_attack",
        st->kept_attack, "combat_kills", st->combat_kills, "warrior_summoned",
        st->warrior_summoned, "react_seat", st->react_seat, "react_mask",
        (int)st->react_mask, "react_passed", (int)st->react_passed,
        "react_resume", st->react_resume, "trigger", st->trigger);
    return json_pack(
        "{s:s,s:i,s:i,s:{s:b,s:b,s:b},s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
        "s:o,s:o,s:o,s:{s:s,s:I}}",
        "game", "quarriors", "format", QQ_SNAPSHOT_FORMAT, "seats", st->seats,
        "options", "quests", st->quests, "expert", st->expert, "quarmageddon",
        st->quarmageddon, "goal", st->goal, "wilds", slots, "quest_area",
        quests, "dice", dice, "players", players, "turn", turn, "cull_mark",
        int_string(st->cull_mark, st->dice_count), "cull_glory",
        int_string(st->cull_glory, st->dice_count), "chosen", chosen, "orders",
        orders, "powers", powers, "trigger_pow",
        int_string(st->trigger_pow, st->dice_count), "rng", "seed", seed,
        "counter", (json_int_t)st->rng.counter);
}

static bool get_int(const json_t *v, long lo, long hi, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

static qq_state *fail(qq_state *st, rules_error *err, const char *what)
{
    free(st);
    rules_fail(err, "not a Quarriors snapshot: %s", what);
    return NULL;
}

/* A die entry of the snapshot as load reads it. qq_save writes the
 * zone's name and then the ten numbers in the order of the members below
 * ("ready 3 0 1 2 -1 -1 1 -1 -1 -1"). They are read into ints first so
 * that a value out of range is refused instead of wrapping. */
typedef struct die_entry {
    int zone;        /* QQ_Z_, from the name; -1 for an unknown name */
    int slot;
    int quest_die;
    int owner;
    int face;
    int quest;
    int host;
    int flags;
    int last_face;
    int copy_card;
    int copy_face;
} die_entry;

/* False unless text is a zone name and exactly ten numbers. */
static bool read_die_entry(const char *text, die_entry *e)
{
    char zone[16], tail;
    if (sscanf(text, "%15s %d %d %d %d %d %d %d %d %d %d%c", zone, &e->slot,
               &e->quest_die, &e->owner, &e->face, &e->quest, &e->host,
               &e->flags, &e->last_face, &e->copy_card, &e->copy_face,
               &tail) != 11)
        return false;
    e->zone = -1;
    for (int z = 0; z < QQ_Z_COUNT; z++) {
        if (strcmp(zone, qq_zone_name(z)) == 0)
            e->zone = z;
    }
    return true;
}

/* Each number within what its field can hold; how the fields fit each
 * other is qq_check's job. */
static bool die_entry_fits(const qq_state *st, const die_entry *e)
{
    return e->slot >= 0 && e->slot < QQ_MAX_SLOTS &&
           e->quest_die >= 0 && e->quest_die <= 1 &&
           e->owner >= -1 && e->owner < st->seats &&
           e->zone >= 0 &&
           e->face >= -1 && e->face <= 5 &&
           e->quest >= -1 && e->quest < QQ_MAX_QUESTS &&
           e->host >= -1 && e->host < QQ_MAX_DICE &&
           e->flags >= 0 && e->flags <= QQ_F_ALL &&
           e->last_face >= -1 && e->last_face <= 5 &&
           e->copy_card >= -1 && e->copy_card < qq_cards_count &&
           e->copy_face >= -1 && e->copy_face <= 5 &&
           (e->copy_card < 0) == (e->copy_face < 0);
}

static void die_from_entry(const die_entry *e, qq_die *x)
{
    x->slot = (int8_t)e->slot;
    x->quest_die = (int8_t)e->quest_die;
    x->owner = (int8_t)e->owner;
    x->zone = (int8_t)e->zone;
    x->face = (int8_t)e->face;
    x->quest = (int8_t)e->quest;
    x->host = (int16_t)e->host;
    x->flags = (uint8_t)e->flags;
    x->last_face = (int8_t)e->last_face;
    x->copy_card = (int8_t)e->copy_card;
    x->copy_face = (int8_t)e->copy_face;
}

qq_state *qq_load(const json_t *snap, rules_error *err)
{
    qq_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        abort();
    int format, b1, b2, b3;
    json_t *opts = json_object_get(snap, "options");
    if (!json_is_object(snap) ||
        strcmp(json_string_value(json_object_get(snap, "game")) ?
               json_string_value(json_object_get(snap, "game")) : "",
               "quarriors") != 0 ||
        !get_int(json_object_get(snap, "format"), 2, 2, &format))
        return fail(st, err, "game or format");
    if (!get_int(json_object_get(snap, "seats"), 2, 4, &st->seats) ||
        !json_is_boolean(json_object_get(opts, "quests")) ||
        !json_is_boolean(json_object_get(opts, "expert")) ||
        !json_is_boolean(json_object_get(opts, "quarmageddon")) ||
        !get_int(json_object_get(snap, "goal"), 1, 1000, &st->goal))
        return fail(st, err, "seats, options or goal");
    b1 = json_is_true(json_object_get(opts, "quests"));
    b2 = json_is_true(json_object_get(opts, "expert"));
    b3 = json_is_true(json_object_get(opts, "quarmageddon"));
    st->quests = b1;
    st->expert = b2;
    st->quarmageddon = b3;

    json_t *slots = json_object_get(snap, "wilds");
    if (!json_is_array(slots) || json_array_size(slots) > QQ_MAX_SLOTS)
        return fail(st, err, "wilds");
    st->slot_count = (int)json_array_size(slots);
    for (int s = 0; s < st->slot_count; s++) {
        const char *id = json_string_value(json_array_get(slots, (size_t)s));
        st->slots[s].card = id == NULL ? -1 : qq_card_find(id);
        if (st->slots[s].card < 0)
            return fail(st, err, "unknown card in the wilds");
    }
    json_t *quests = json_object_get(snap, "quest_area");
    if (!json_is_array(quests) || json_array_size(quests) > QQ_MAX_QUESTS)
        return fail(st, err, "quest_area");
    st->quest_count = (int)json_array_size(quests);
    for (int q = 0; q < st->quest_count; q++) {
        json_t *e = json_array_get(quests, (size_t)q);
        const char *id = json_string_value(json_array_get(e, 0));
        st->quest_slots[q].type = id == NULL ? -1 : qq_quest_find(id);
        if (st->quest_slots[q].type < 0 ||
            !get_int(json_array_get(e, 1), 0,
                     qq_quests[st->quest_slots[q].type].version_count - 1,
                     &st->quest_slots[q].version))
            return fail(st, err, "quest card");
    }
    json_t *dice = json_object_get(snap, "dice");
    if (!json_is_array(dice) || json_array_size(dice) > QQ_MAX_DICE)
        return fail(st, err, "dice");
    st->dice_count = (int)json_array_size(dice);
    for (int d = 0; d < st->dice_count; d++) {
        const char *text = json_string_value(json_array_get(dice, (size_t)d));
        die_entry entry;
        if (text == NULL || !read_die_entry(text, &entry))
            return fail(st, err, "die entry");
        if (!die_entry_fits(st, &entry))
            return fail(st, err, "die fields");
        die_from_entry(&entry, &st->dice[d]);
    }
    json_t *players = json_object_get(snap, "players");
    json_t *chosen = json_object_get(snap, "chosen");
    json_t *orders = json_object_get(snap, "orders");
    if (json_array_size(players) != (size_t)st->seats ||
        json_array_size(chosen) != (size_t)st->seats ||
        json_array_size(orders) != (size_t)st->seats)
        return fail(st, err, "players");
    for (int s = 0; s < RULES_MAX_SEATS; s++)
        st->chosen[s] = -1;
    for (int s = 0; s < st->seats; s++) {
        json_t *p = json_array_get(players, (size_t)s);
        qq_player *pl = &st->players[s];
        json_t *order = json_array_get(orders, (size_t)s);
        if (!get_int(json_array_get(p, 0), 0, 100000, &pl->glory) ||
            !get_int(json_array_get(p, 1), 0, 100000, &pl->glory_scoring) ||
            !get_int(json_array_get(p, 2), 0, 100000, &pl->glory_quest) ||
            !get_int(json_array_get(p, 3), 0, 100000, &pl->glory_challenge) ||
            !get_int(json_array_get(p, 4), 0, 100000, &pl->glory_spell) ||
            !get_int(json_array_get(chosen, (size_t)s), -1, 1,
                     &st->chosen[s]) ||
            !json_is_array(order) || json_array_size(order) > QQ_MAX_BAND)
            return fail(st, err, "player entry");
        st->order_len[s] = (int)json_array_size(order);
        for (int i = 0; i < st->order_len[s]; i++) {
            int d;
            if (!get_int(json_array_get(order, (size_t)i), 0,
                         st->dice_count - 1, &d))
                return fail(st, err, "challenge order");
            st->order[s][i] = (int16_t)d;
        }
    }
    json_t *turn = json_object_get(snap, "turn");
    int todo;
    if (!get_int(json_object_get(turn, "seat"), 0, st->seats - 1, &st->turn) ||
        !get_int(json_object_get(turn, "number"), 0, 1 << 30,
                 &st->turn_number) ||
        !get_int(json_object_get(turn, "phase"), 0, QQ_P_FIRST, &st->phase) ||
        !get_int(json_object_get(turn, "quiddity"), 0, 10000, &st->quiddity) ||
        !get_int(json_object_get(turn, "captures_left"), 0, 1000,
                 &st->captures_left) ||
        !get_int(json_object_get(turn, "capture_discount"), 0, 1000,
                 &st->capture_discount) ||
        !get_int(json_object_get(turn, "attack_bonus"), 0, 1000,
                 &st->attack_bonus) ||
        !get_int(json_object_get(turn, "culls_left"), 0, 1000,
                 &st->culls_left) ||
        !get_int(json_object_get(turn, "quest_done"), -1,
                 st->quest_count - 1, &st->quest_done) ||
        !get_int(json_object_get(turn, "quest_band"), 0, QQ_MAX_DICE,
                 &st->quest_band) ||
        !get_int(json_object_get(turn, "quest_band_left"), 0, QQ_MAX_DICE,
                 &st->quest_band_left) ||
        !get_int(json_object_get(turn, "special_cost"), 0, 100,
                 &st->special_cost) ||
        !get_int(json_object_get(turn, "defender"), -1, st->seats - 1,
                 &st->defender) ||
        !get_int(json_object_get(turn, "damage"), 0, 10000, &st->damage) ||
        !get_int(json_object_get(turn, "attack_todo"), 0,
                 (1 << st->seats) - 1, &todo) ||
        !get_int(json_object_get(turn, "challenge_quest"), -1,
                 st->quest_count - 1, &st->challenge_quest))
        return fail(st, err, "turn");
    st->attack_todo = (uint32_t)todo;
    json_t *pw = json_object_get(snap, "powers");
    int mask = (1 << st->seats) - 1, victims, life_spell, life_charm,
        react_mask, react_passed;
    if (!get_int(json_object_get(pw, "scored"), 0, QQ_MAX_DICE, &st->scored) ||
        !get_int(json_object_get(pw, "victims"), 0, mask, &victims) ||
        !get_int(json_object_get(pw, "life_spell"), 0, mask, &life_spell) ||
        !get_int(json_object_get(pw, "life_charm"), 0, mask, &life_charm) ||
        !get_int(json_object_get(pw, "kept_attack"), 0, 10000,
                 &st->kept_attack) ||
        !get_int(json_object_get(pw, "combat_kills"), 0, QQ_MAX_DICE,
                 &st->combat_kills) ||
        !get_int(json_object_get(pw, "warrior_summoned"), 0, 1,
                 &st->warrior_summoned) ||
        !get_int(json_object_get(pw, "react_seat"), -1, st->seats - 1,
                 &st->react_seat) ||
        !get_int(json_object_get(pw, "react_mask"), 0, mask, &react_mask) ||
        !get_int(json_object_get(pw, "react_passed"), 0, mask,
                 &react_passed) ||
        !get_int(json_object_get(pw, "react_resume"), 0, QQ_R_COUNT - 1,
                 &st->react_resume) ||
        !get_int(json_object_get(pw, "trigger"), -1, st->dice_count - 1,
                 &st->trigger))
        return fail(st, err, "powers");
    st->victims = (uint32_t)victims;
    st->life_spell = (uint32_t)life_spell;
    st->life_charm = (uint32_t)life_charm;
    st->react_mask = (uint32_t)react_mask;
    st->react_passed = (uint32_t)react_passed;
    if (!read_int_string(json_object_get(snap, "trigger_pow"),
                         st->dice_count, 0, 127, st->trigger_pow))
        return fail(st, err, "trigger_pow");
    json_t *marks = json_object_get(snap, "cull_mark");
    json_t *glories = json_object_get(snap, "cull_glory");
    if (!read_int_string(marks, st->dice_count, 0, 2, st->cull_mark) ||
        !read_int_string(glories, st->dice_count, 0, 100, st->cull_glory))
        return fail(st, err, "cull entry");
    json_t *rng = json_object_get(snap, "rng");
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    json_t *counter = json_object_get(rng, "counter");
    if (seed == NULL || !rules_rng_seed_from_hex(&st->rng, seed) ||
        !json_is_integer(counter) || json_integer_value(counter) < 0)
        return fail(st, err, "rng");
    st->rng.counter = (uint64_t)json_integer_value(counter);
    if (!qq_check(st, err)) {
        free(st);
        return NULL;
    }
    return st;
}

/* Every die in exactly one place, consistent with its zone; glory equal to
 * the sum of its sources. */
bool qq_check(const qq_state *st, rules_error *err)
{
    int held[RULES_MAX_SEATS] = {0};
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *x = &st->dice[d];
        bool owned = x->zone != QQ_Z_WILDS && x->zone != QQ_Z_QCARD;
        if (x->quest_die) {
            if (x->slot >= st->quest_count)
                return rules_fail(err, "quest die %d on no quest card", d);
            if (x->zone != QQ_Z_QCARD && x->zone != QQ_Z_HELD &&
                x->zone != QQ_Z_ATTACHED)
                return rules_fail(err, "quest die %d is in the %s", d,
                                  qq_zone_name(x->zone));
            if (x->zone != QQ_Z_QCARD) {
                if (x->owner < 0)
                    return rules_fail(err, "quest die %d has no holder", d);
                if (++held[x->owner] > 1)
                    return rules_fail(err, "seat %d holds two Quartifacts",
                                      x->owner);
                if (x->face < 0 ||
                    qq_quest_die_faces[x->face].kind != QQ_QR_QUARTIFACT)
                    return rules_fail(err, "quest die %d held without a "
                                           "Quartifact face", d);
            }
        } else {
            if (x->slot >= st->slot_count)
                return rules_fail(err, "die %d belongs to no card", d);
            if (x->zone == QQ_Z_QCARD || x->zone == QQ_Z_HELD)
                return rules_fail(err, "die %d is in the %s", d,
                                  qq_zone_name(x->zone));
        }
        if (owned != (x->owner >= 0))
            return rules_fail(err, "die %d: owner %d does not fit the %s", d,
                              x->owner, qq_zone_name(x->zone));
        bool rolled = x->zone == QQ_Z_ACTIVE || x->zone == QQ_Z_READY ||
                      x->zone == QQ_Z_QUEST || x->zone == QQ_Z_ATTACHED ||
                      x->zone == QQ_Z_HELD || x->zone == QQ_Z_SPENT;
        if (rolled != (x->face >= 0))
            return rules_fail(err, "die %d in the %s %s a face", d,
                              qq_zone_name(x->zone),
                              rolled ? "lacks" : "keeps");
        if ((x->zone == QQ_Z_QUEST) != (x->quest >= 0) ||
            x->quest >= st->quest_count)
            return rules_fail(err, "die %d: quest mark does not fit", d);
        if (x->copy_card >= 0 &&
            ((x->zone != QQ_Z_READY && x->zone != QQ_Z_QUEST) ||
             qq_cards[st->slots[x->slot].card].power != QQ_POW_STRONG_OOZE ||
             !(qq_dice[qq_cards[x->copy_card].die].faces[x->copy_face].flags &
               QQ_FACE_CREATURE)))
            return rules_fail(err, "die %d copies a creature out of play", d);
        if ((x->zone == QQ_Z_ATTACHED) != (x->host >= 0))
            return rules_fail(err, "die %d: host does not fit", d);
        if (x->host >= st->dice_count)
            return rules_fail(err, "die %d: no such host", d);
        if (x->zone == QQ_Z_ATTACHED) {
            const qq_die *h = &st->dice[x->host];
            if (h->zone != QQ_Z_READY && h->zone != QQ_Z_QUEST)
                return rules_fail(err, "die %d is attached to a creature "
                                       "out of play", d);
        }
        if ((x->zone == QQ_Z_READY || x->zone == QQ_Z_QUEST) &&
            x->zone == QQ_Z_QUEST && !(qq_face_of(st, d)->flags &
                                       QQ_FACE_CREATURE))
            return rules_fail(err, "die %d quests without a creature face", d);
    }
    for (int s = 0; s < st->seats; s++) {
        const qq_player *p = &st->players[s];
        if (p->glory != p->glory_scoring + p->glory_quest +
                            p->glory_challenge + p->glory_spell)
            return rules_fail(err, "seat %d's glory differs from its "
                                   "sources", s);
    }
    if (st->quiddity < 0 || st->culls_left < 0 || st->captures_left < 0)
        return rules_fail(err, "a negative count");
    if (st->phase == QQ_P_CHALLENGE && st->challenge_quest < 0)
        return rules_fail(err, "a challenge without a quest");
    if (st->phase == QQ_P_REACT &&
        (st->react_seat < 0 || !(st->react_mask & (1u << st->react_seat))))
        return rules_fail(err, "a reaction window without a seat to ask");
    if (st->phase == QQ_P_TRIGGER &&
        (st->trigger < 0 || st->trigger_pow[st->trigger] == 0))
        return rules_fail(err, "a scoring power without its die");
    return true;
}
