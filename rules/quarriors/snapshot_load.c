/* snapshot_load.c: a position (README "Snapshot"), perhaps edited by
 * hand, read back into a state. Lists of dice may come in any order;
 * what can be derived is filled in (the seat count, the goal, each
 * player's total glory, the scoring power being asked, the turn's
 * counters left out); every error names the field and the value
 * ("players[1].used[2]: die 27 is also in wilds.dice[5]"). The state
 * then has to pass qq_check. Each name is found through a table (the
 * position's name index), so loading takes time in proportion to the
 * snapshot's size. */
#include "qq_snapshot.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORMAT 3

/* The places of a player's dice, in the order of qq_save. */
static const int player_zones[] = {
    QQ_Z_BAG,  QQ_Z_ACTIVE,   QQ_Z_READY, QQ_Z_QUEST, QQ_Z_USED,
    QQ_Z_SPENT, QQ_Z_ATTACHED, QQ_Z_HELD, QQ_Z_ASIDE,
};
#define PLAYER_ZONES ((int)(sizeof player_zones / sizeof player_zones[0]))

/* A list of dice: where in the snapshot, and what its dice are. */
typedef struct place {
    char path[48];   /* "wilds.dice", "players[1].used" */
    int zone;
    int owner;
} place;

typedef struct loader {
    qq_state *st;
    rules_error *err;
    qq_name_index ix;
    /* the list and index where each die number was first seen */
    int seen_place[QQ_MAX_DICE];
    int seen_index[QQ_MAX_DICE];
    place places[2 + RULES_MAX_SEATS * PLAYER_ZONES];
    int place_count;
} loader;

/* ---- small readers: each names the field it refuses ---- */

static bool read_int(loader *l, const json_t *v, const char *path, int lo,
                     int hi, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi)
        return rules_fail(l->err, "%s: write a whole number from %d to %d",
                          path, lo, hi);
    *out = (int)json_integer_value(v);
    return true;
}

static bool read_bool(loader *l, const json_t *v, const char *path,
                      bool *out)
{
    if (!json_is_boolean(v))
        return rules_fail(l->err, "%s: write true or false", path);
    *out = json_is_true(v);
    return true;
}

static bool read_seat_list(loader *l, const json_t *v, const char *path,
                           uint32_t *out)
{
    if (!json_is_array(v))
        return rules_fail(l->err, "%s: write a list of seats", path);
    *out = 0;
    size_t i;
    const json_t *seat;
    json_array_foreach(v, i, seat) {
        char at[96];
        int s;
        snprintf(at, sizeof at, "%s[%zu]", path, i);
        if (!read_int(l, seat, at, 0, l->st->seats - 1, &s))
            return false;
        *out |= 1u << s;
    }
    return true;
}

/* A quest of the Quest Area by name. */
static bool read_quest(loader *l, const json_t *v, const char *path,
                       int *out)
{
    const char *name = json_string_value(v);
    bool quest = false;
    *out = name == NULL ? -1
                        : qq_name_index_find(&l->ix, name, strlen(name),
                                             &quest);
    if (*out < 0 || !quest)
        return rules_fail(l->err, "%s: there is no quest card \"%s\" in "
                          "the Quest Area", path,
                          name != NULL ? name : "(not a name)");
    return true;
}

/* Refuses a key of obj that is not among allowed (NULL-terminated). */
static bool only_keys(loader *l, const json_t *obj, const char *path,
                      const char *const *allowed)
{
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        bool known = false;
        for (int i = 0; allowed[i] != NULL && !known; i++)
            known = strcmp(key, allowed[i]) == 0;
        if (!known)
            return rules_fail(l->err, "%s%s%s: there is no such field", path,
                              path[0] != '\0' ? "." : "", key);
    }
    return true;
}

static const json_t *get_object(loader *l, const json_t *parent,
                                const char *key, const char *path)
{
    const json_t *v = json_object_get(parent, key);
    if (!json_is_object(v)) {
        rules_fail(l->err, "%s: write an object {...}", path);
        return NULL;
    }
    return v;
}

/* ---- the table: cards, quests ---- */

/* The card called name in the data table (any case, '-' or '_'), or -1.
 * The table is small and fixed; the position's own names go through
 * the name index. */
static int card_by_name(const char *name)
{
    for (int c = 0; c < qq_cards_count; c++) {
        if (qq_same_name(name, strlen(name), qq_cards[c].id))
            return c;
    }
    return -1;
}

static bool read_wilds_cards(loader *l, const json_t *cards)
{
    qq_state *st = l->st;
    if (!json_is_array(cards) || json_array_size(cards) > QQ_MAX_SLOTS)
        return rules_fail(l->err, "wilds.cards: write a list of at most %d "
                          "cards", QQ_MAX_SLOTS);
    st->slot_count = (int)json_array_size(cards);
    for (int s = 0; s < st->slot_count; s++) {
        const char *name = json_string_value(json_array_get(cards, (size_t)s));
        int card = name == NULL ? -1 : card_by_name(name);
        if (card < 0)
            return rules_fail(l->err, "wilds.cards[%d]: there is no card "
                              "\"%s\"", s, name != NULL ? name : "");
        for (int k = 0; k < s; k++) {
            if (st->slots[k].card == card)
                return rules_fail(l->err, "wilds.cards[%d]: \"%s\" is "
                                  "already wilds.cards[%d]", s, name, k);
        }
        st->slots[s].card = card;
    }
    return true;
}

static bool read_quest_cards(loader *l, const json_t *cards)
{
    qq_state *st = l->st;
    if (!json_is_array(cards) || json_array_size(cards) > QQ_MAX_QUESTS)
        return rules_fail(l->err, "quest_area.cards: write a list of at "
                          "most %d quest cards", QQ_MAX_QUESTS);
    st->quest_count = (int)json_array_size(cards);
    for (int q = 0; q < st->quest_count; q++) {
        const json_t *card = json_array_get(cards, (size_t)q);
        char path[48];
        snprintf(path, sizeof path, "quest_area.cards[%d]", q);
        static const char *const keys[] = {"quest", "version", NULL};
        if (!json_is_object(card))
            return rules_fail(l->err, "%s: write {\"quest\": ..., "
                              "\"version\": ...}", path);
        if (!only_keys(l, card, path, keys))
            return false;
        const char *name = json_string_value(json_object_get(card, "quest"));
        int type = -1;
        for (int t = 0; name != NULL && t < qq_quests_count && type < 0; t++) {
            if (qq_same_name(name, strlen(name), qq_quests[t].id))
                type = t;
        }
        if (type < 0)
            return rules_fail(l->err, "%s.quest: there is no quest \"%s\"",
                              path, name != NULL ? name : "");
        for (int k = 0; k < q; k++) {
            if (st->quest_slots[k].type == type)
                return rules_fail(l->err, "%s.quest: \"%s\" is already "
                                  "quest_area.cards[%d]", path, name, k);
        }
        const char *version =
            json_string_value(json_object_get(card, "version"));
        int v = -1;
        for (int i = 0; version != NULL && i < qq_quests[type].version_count;
             i++) {
            if (qq_same_name(version, strlen(version),
                             qq_quests[type].versions[i]))
                v = i;
        }
        if (v < 0)
            return rules_fail(l->err, "%s.version: %s has no version \"%s\"",
                              path, name, version != NULL ? version : "");
        st->quest_slots[q].type = type;
        st->quest_slots[q].version = v;
    }
    return true;
}

/* ---- dice ---- */

static int add_place(loader *l, const char *path, int zone, int owner)
{
    place *p = &l->places[l->place_count];
    snprintf(p->path, sizeof p->path, "%s", path);
    p->zone = zone;
    p->owner = owner;
    return l->place_count++;
}

/* One die entry of list number pl at index i. */
static bool read_die(loader *l, int pl, size_t i, const json_t *v)
{
    qq_state *st = l->st;
    const place *p = &l->places[pl];
    const char *text = json_string_value(v);
    char why[200];
    qq_die_entry e;
    if (text == NULL)
        return rules_fail(l->err, "%s[%zu]: write a die as text, e.g. "
                          "\"27 deathdealer\"", p->path, i);
    if (!qq_die_entry_read(&l->ix, st, text, p->zone, &e, why, sizeof why))
        return rules_fail(l->err, "%s[%zu]: %s", p->path, i, why);
    if (l->seen_place[e.number] >= 0)
        return rules_fail(l->err, "%s[%zu]: die %d is also in %s[%d]",
                          p->path, i, e.number,
                          l->places[l->seen_place[e.number]].path,
                          l->seen_index[e.number]);
    if (p->zone == QQ_Z_WILDS && e.quest_die)
        return rules_fail(l->err, "%s[%zu]: die %d is a quest die: it goes "
                          "on its card in quest_area.dice", p->path, i,
                          e.number);
    if (p->zone == QQ_Z_QCARD && !e.quest_die)
        return rules_fail(l->err, "%s[%zu]: die %d is not a quest die",
                          p->path, i, e.number);
    l->seen_place[e.number] = pl;
    l->seen_index[e.number] = (int)i;
    qq_die *x = &st->dice[e.number];
    x->slot = (int8_t)e.slot;
    x->quest_die = e.quest_die;
    x->owner = (int8_t)p->owner;
    x->zone = (int8_t)p->zone;
    x->face = (int8_t)e.face;
    x->quest = (int8_t)e.quest;
    x->host = (int16_t)e.host;
    x->flags = (uint8_t)e.flags;
    /* the face a creature fell with matters only while it has fallen */
    x->last_face = (int8_t)((e.flags & QQ_F_FELL) ? e.last_face : -1);
    x->copy_card = (int8_t)e.copy_card;
    x->copy_face = (int8_t)e.copy_face;
    st->cull_mark[e.number] = (int8_t)e.cull_mark;
    st->cull_glory[e.number] = (int8_t)(e.cull_mark == 1 ? e.cull_glory : 0);
    st->trigger_pow[e.number] = (int8_t)e.trigger_pow;
    st->dice_count++;
    return true;
}

static bool read_dice_list(loader *l, const json_t *list, const char *path,
                           int zone, int owner)
{
    if (list == NULL)
        return true;   /* an empty place may be left out */
    if (!json_is_array(list))
        return rules_fail(l->err, "%s: write a list of dice", path);
    int pl = add_place(l, path, zone, owner);
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (!read_die(l, pl, i, v))
            return false;
    }
    return true;
}

/* Every number from 0 up, each once: a die left out shows as a gap. */
static bool dice_complete(loader *l)
{
    for (int d = 0; d < l->st->dice_count; d++) {
        if (l->seen_place[d] < 0)
            return rules_fail(l->err, "die %d is in no place: the dice are "
                              "numbered from 0 to %d and each is listed once",
                              d, l->st->dice_count - 1);
    }
    return true;
}

/* ---- players ---- */

static bool read_glory(loader *l, const json_t *glory, int s)
{
    static const char *const keys[] = {"scoring", "quests", "challenges",
                                       "spells", NULL};
    qq_player *p = &l->st->players[s];
    int *parts[] = {&p->glory_scoring, &p->glory_quest, &p->glory_challenge,
                    &p->glory_spell};
    char path[48];
    snprintf(path, sizeof path, "players[%d].glory", s);
    if (glory == NULL)
        return true;
    if (!json_is_object(glory))
        return rules_fail(l->err, "%s: write {\"scoring\": N, \"quests\": "
                          "N, \"challenges\": N, \"spells\": N}", path);
    if (!only_keys(l, glory, path, keys))
        return false;
    p->glory = 0;
    for (int i = 0; keys[i] != NULL; i++) {
        const json_t *v = json_object_get(glory, keys[i]);
        char at[96];
        snprintf(at, sizeof at, "%s.%s", path, keys[i]);
        if (v != NULL && !read_int(l, v, at, 0, 100000, parts[i]))
            return false;
        p->glory += *parts[i];   /* the total is the sum of its sources */
    }
    return true;
}

static bool read_player_dice(loader *l, const json_t *players)
{
    static const char *const keys[] = {
        "glory", "bag", "active", "ready", "quest", "used", "spent",
        "attached", "held", "aside", "defense_order", NULL};
    for (int s = 0; s < l->st->seats; s++) {
        const json_t *player = json_array_get(players, (size_t)s);
        char path[24];
        snprintf(path, sizeof path, "players[%d]", s);
        if (!json_is_object(player))
            return rules_fail(l->err, "%s: write an object {...}", path);
        if (!only_keys(l, player, path, keys) ||
            !read_glory(l, json_object_get(player, "glory"), s))
            return false;
        for (int i = 0; i < PLAYER_ZONES; i++) {
            char at[96];
            const char *zone = qq_zone_name(player_zones[i]);
            snprintf(at, sizeof at, "%s.%s", path, zone);
            if (!read_dice_list(l, json_object_get(player, zone), at,
                                player_zones[i], s))
                return false;
        }
    }
    return true;
}

/* A quest challenge's sealed orders: a list, or null while the seat has
 * still to choose; no field when the seat is not asked. */
static bool read_orders(loader *l, const json_t *players)
{
    qq_state *st = l->st;
    for (int s = 0; s < st->seats; s++) {
        const json_t *player = json_array_get(players, (size_t)s);
        const json_t *order = json_object_get(player, "defense_order");
        char path[40];
        snprintf(path, sizeof path, "players[%d].defense_order", s);
        st->chosen[s] = order == NULL ? -1 : json_is_null(order) ? 0 : 1;
        if (st->chosen[s] != 1)
            continue;
        if (!json_is_array(order) || json_array_size(order) == 0 ||
            json_array_size(order) > QQ_MAX_BAND)
            return rules_fail(l->err, "%s: write the dice in order, or null "
                              "while the seat has still to choose", path);
        st->order_len[s] = (int)json_array_size(order);
        for (int i = 0; i < st->order_len[s]; i++) {
            char at[96];
            int d;
            snprintf(at, sizeof at, "%s[%d]", path, i);
            if (!read_int(l, json_array_get(order, (size_t)i), at, 0,
                          st->dice_count - 1, &d))
                return false;
            st->order[s][i] = (int16_t)d;
        }
    }
    return true;
}

/* ---- the turn ---- */

/* The turn's counters: a field left out keeps its value at the start of
 * a turn (qq_clear_turn). */
static const struct {
    const char *key;
    size_t offset;
    int hi;
} turn_counters[] = {
    {"quiddity", offsetof(qq_state, quiddity), 10000},
    {"captures_left", offsetof(qq_state, captures_left), 1000},
    {"capture_discount", offsetof(qq_state, capture_discount), 1000},
    {"attack_bonus", offsetof(qq_state, attack_bonus), 1000},
    {"culls_left", offsetof(qq_state, culls_left), 1000},
    {"quest_band_left", offsetof(qq_state, quest_band_left), QQ_MAX_DICE},
    {"damage", offsetof(qq_state, damage), 10000},
    {"scored", offsetof(qq_state, scored), QQ_MAX_DICE},
    {"kept_attack", offsetof(qq_state, kept_attack), 10000},
    {"combat_kills", offsetof(qq_state, combat_kills), QQ_MAX_DICE},
};

static const struct {
    const char *key;
    size_t offset;
} turn_seat_lists[] = {
    {"attack_todo", offsetof(qq_state, attack_todo)},
    {"victims", offsetof(qq_state, victims)},
    {"life_spell", offsetof(qq_state, life_spell)},
    {"life_charm", offsetof(qq_state, life_charm)},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool read_reaction(loader *l, const json_t *v)
{
    static const char *const keys[] = {"seat", "seats", "passed", "then",
                                       NULL};
    qq_state *st = l->st;
    if (!json_is_object(v))
        return rules_fail(l->err, "turn.reaction: write {\"seat\": S, "
                          "\"seats\": [...], \"passed\": [...], \"then\": "
                          "...}");
    if (!only_keys(l, v, "turn.reaction", keys) ||
        !read_int(l, json_object_get(v, "seat"), "turn.reaction.seat", -1,
                  st->seats - 1, &st->react_seat) ||
        !read_seat_list(l, json_object_get(v, "seats"), "turn.reaction.seats",
                        &st->react_mask) ||
        !read_seat_list(l, json_object_get(v, "passed"),
                        "turn.reaction.passed", &st->react_passed))
        return false;
    const char *then = json_string_value(json_object_get(v, "then"));
    st->react_resume = then == NULL ? -1 : qq_resume_find(then);
    if (st->react_resume < 0)
        return rules_fail(l->err, "turn.reaction.then: \"%s\" is not what "
                          "follows a reaction window (damage, next attack, "
                          "challenge, after challenge, main)",
                          then != NULL ? then : "");
    return true;
}

/* One field of the turn other than its counters and seat lists. */
static bool read_turn_field(loader *l, const char *key, const json_t *v,
                            bool *known)
{
    qq_state *st = l->st;
    char path[48];
    snprintf(path, sizeof path, "turn.%s", key);
    *known = true;
    if (strcmp(key, "seat") == 0)
        return read_int(l, v, path, 0, st->seats - 1, &st->turn);
    if (strcmp(key, "number") == 0)
        return read_int(l, v, path, 0, 1 << 30, &st->turn_number);
    if (strcmp(key, "phase") == 0) {
        const char *name = json_string_value(v);
        char phases[128];
        st->phase = name == NULL ? -1 : qq_phase_find(name);
        if (st->phase < 0)
            return rules_fail(l->err, "turn.phase: there is no phase \"%s\" "
                              "(%s)", name != NULL ? name : "",
                              qq_phase_list(phases, sizeof phases));
        return true;
    }
    if (strcmp(key, "defender") == 0)
        return read_int(l, v, path, -1, st->seats - 1, &st->defender);
    if (strcmp(key, "quest_done") == 0)
        return read_quest(l, v, path, &st->quest_done);
    if (strcmp(key, "challenge_quest") == 0)
        return read_quest(l, v, path, &st->challenge_quest);
    if (strcmp(key, "warrior_summoned") == 0) {
        bool b = false;
        if (!read_bool(l, v, path, &b))
            return false;
        st->warrior_summoned = b;
        return true;
    }
    if (strcmp(key, "reaction") == 0)
        return read_reaction(l, v);
    *known = false;
    return true;
}

static bool read_turn(loader *l, const json_t *turn)
{
    qq_state *st = l->st;
    const char *key;
    const json_t *v;
    st->phase = -1;
    st->turn = -1;
    st->turn_number = -1;
    json_object_foreach((json_t *)turn, key, v) {
        bool known;
        if (!read_turn_field(l, key, v, &known))
            return false;
        for (size_t i = 0; i < COUNT(turn_counters) && !known; i++) {
            if (strcmp(key, turn_counters[i].key) != 0)
                continue;
            char path[48];
            snprintf(path, sizeof path, "turn.%s", key);
            known = true;
            if (!read_int(l, v, path, 0, turn_counters[i].hi,
                          (int *)((char *)st + turn_counters[i].offset)))
                return false;
        }
        for (size_t i = 0; i < COUNT(turn_seat_lists) && !known; i++) {
            if (strcmp(key, turn_seat_lists[i].key) != 0)
                continue;
            char path[48];
            snprintf(path, sizeof path, "turn.%s", key);
            known = true;
            if (!read_seat_list(
                    l, v, path,
                    (uint32_t *)((char *)st + turn_seat_lists[i].offset)))
                return false;
        }
        if (!known)
            return rules_fail(l->err, "turn.%s: there is no such field", key);
    }
    if (st->turn < 0 || st->turn_number < 0 || st->phase < 0)
        return rules_fail(l->err, "turn: give its seat, number and phase");
    /* The scoring power being asked is the first one waiting, in die
     * order (triggers.c asks them so). */
    st->trigger = -1;
    for (int d = 0; st->phase == QQ_P_TRIGGER && d < st->dice_count; d++) {
        if (st->trigger_pow[d] != QQ_POW_NONE) {
            st->trigger = d;
            break;
        }
    }
    return true;
}

/* ---- the rest ---- */

static bool read_last_roll(loader *l, const json_t *roll)
{
    static const char *const keys[] = {"seat", "die", "face", "seized_from",
                                       NULL};
    qq_state *st = l->st;
    qq_quest_roll *r = &st->last_roll;
    *r = (qq_quest_roll){.die = -1, .seat = -1, .face = -1,
                         .seized_from = -1};
    if (roll == NULL)
        return true;
    if (!json_is_object(roll))
        return rules_fail(l->err, "last_quest_roll: write {\"seat\": S, "
                          "\"die\": D, \"face\": ...}");
    if (!only_keys(l, roll, "last_quest_roll", keys) ||
        !read_int(l, json_object_get(roll, "seat"), "last_quest_roll.seat",
                  0, st->seats - 1, &r->seat) ||
        !read_int(l, json_object_get(roll, "die"), "last_quest_roll.die", 0,
                  st->dice_count - 1, &r->die))
        return false;
    if (json_object_get(roll, "seized_from") != NULL &&
        !read_int(l, json_object_get(roll, "seized_from"),
                  "last_quest_roll.seized_from", 0, st->seats - 1,
                  &r->seized_from))
        return false;
    if (!st->dice[r->die].quest_die)
        return rules_fail(l->err, "last_quest_roll.die: die %d is not a "
                          "quest die", r->die);
    const char *face = json_string_value(json_object_get(roll, "face"));
    int q = st->dice[r->die].slot;
    const char (*names)[QQ_NAME_SIZE] = qq_name_index_faces(&l->ix, true, q);
    for (int f = 0; face != NULL && f < 6 && r->face < 0; f++) {
        if (qq_same_name(face, strlen(face), names[f]))
            r->face = f;
    }
    if (r->face < 0)
        return rules_fail(l->err, "last_quest_roll.face: a quest die has no "
                          "face \"%s\"", face != NULL ? face : "");
    return true;
}

static bool read_rng(loader *l, const json_t *rng)
{
    static const char *const keys[] = {"seed", "counter", NULL};
    if (!json_is_object(rng) || !only_keys(l, rng, "rng", keys))
        return rules_fail(l->err, "rng: write {\"seed\": HEX, \"counter\": "
                          "N} as saved");
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    const json_t *counter = json_object_get(rng, "counter");
    if (seed == NULL || !rules_rng_seed_from_hex(&l->st->rng, seed))
        return rules_fail(l->err, "rng.seed: write the %d hex digits as "
                          "saved", 2 * RULES_SEED_BYTES);
    if (!json_is_integer(counter) || json_integer_value(counter) < 0)
        return rules_fail(l->err, "rng.counter: write a whole number from 0");
    l->st->rng.counter = (uint64_t)json_integer_value(counter);
    return true;
}

static bool read_options(loader *l, const json_t *snap)
{
    static const char *const keys[] = {"quests", "expert", "quarmageddon",
                                       NULL};
    const json_t *opts = get_object(l, snap, "options", "options");
    qq_state *st = l->st;
    return opts != NULL && only_keys(l, opts, "options", keys) &&
           read_bool(l, json_object_get(opts, "quests"), "options.quests",
                     &st->quests) &&
           read_bool(l, json_object_get(opts, "expert"), "options.expert",
                     &st->expert) &&
           read_bool(l, json_object_get(opts, "quarmageddon"),
                     "options.quarmageddon", &st->quarmageddon);
}

static bool read_snapshot(loader *l, const json_t *snap)
{
    static const char *const keys[] = {"game", "format", "options", "wilds",
                                       "quest_area", "players", "turn",
                                       "last_quest_roll", "rng", NULL};
    static const char *const area_keys[] = {"cards", "dice", NULL};
    qq_state *st = l->st;
    if (!json_is_object(snap))
        return rules_fail(l->err, "a Quarriors snapshot is an object {...}");
    const char *game = json_string_value(json_object_get(snap, "game"));
    if (game == NULL || strcmp(game, "quarriors") != 0)
        return rules_fail(l->err, "game: this is not a Quarriors snapshot "
                          "(\"%s\")", game != NULL ? game : "");
    const json_t *format = json_object_get(snap, "format");
    if (!json_is_integer(format) || json_integer_value(format) != FORMAT)
        return rules_fail(l->err, "format: this engine reads snapshots of "
                          "format %d", FORMAT);
    if (!only_keys(l, snap, "", keys) || !read_options(l, snap))
        return false;
    const json_t *players = json_object_get(snap, "players");
    if (!json_is_array(players) || json_array_size(players) < 2 ||
        json_array_size(players) > 4)
        return rules_fail(l->err, "players: write one object per seat, 2 to "
                          "4 seats");
    st->seats = (int)json_array_size(players);
    st->goal = st->quests ? qq_goal_quests[st->seats]
                          : qq_goal_base[st->seats];
    const json_t *wilds = get_object(l, snap, "wilds", "wilds");
    const json_t *area = get_object(l, snap, "quest_area", "quest_area");
    if (wilds == NULL || area == NULL ||
        !only_keys(l, wilds, "wilds", area_keys) ||
        !only_keys(l, area, "quest_area", area_keys) ||
        !read_wilds_cards(l, json_object_get(wilds, "cards")) ||
        !read_quest_cards(l, json_object_get(area, "cards")))
        return false;
    qq_name_index_build(&l->ix, st);
    if (!read_dice_list(l, json_object_get(wilds, "dice"), "wilds.dice",
                        QQ_Z_WILDS, -1) ||
        !read_dice_list(l, json_object_get(area, "dice"), "quest_area.dice",
                        QQ_Z_QCARD, -1) ||
        !read_player_dice(l, players) || !dice_complete(l) ||
        !read_orders(l, players))
        return false;
    const json_t *turn = get_object(l, snap, "turn", "turn");
    return turn != NULL && read_turn(l, turn) &&
           read_last_roll(l, json_object_get(snap, "last_quest_roll")) &&
           read_rng(l, json_object_get(snap, "rng"));
}

qq_state *qq_load(const json_t *snap, rules_error *err)
{
    loader *l = calloc(1, sizeof *l);
    qq_state *st = calloc(1, sizeof *st);
    if (l == NULL || st == NULL)
        abort();
    l->st = st;
    l->err = err;
    for (int d = 0; d < QQ_MAX_DICE; d++)
        l->seen_place[d] = -1;
    qq_clear_turn(st);
    bool ok = read_snapshot(l, snap) && qq_check(st, err);
    free(l);
    if (!ok) {
        free(st);
        return NULL;
    }
    return st;
}
