/* snapshot.c: the position form a referee edits by hand (save and load),
 * and copies of a state (clone, destroy).
 *
 * Everything is named as the notation names it: cards "coins3", assistants
 * "scribe", temple places "0.3.1", tasks by the move that settles them.
 * save writes one canonical form: lists in card order (the data table's
 * stack order, then number), assistants in table order, the stock in deal
 * order, the only list whose order is part of the game. load accepts lists
 * in any order, fills in what follows from the rest (seats, bank, pool, the
 * stacks in play, round 2's removed cards), and names the field and the
 * value of the first thing that is wrong. README.md, "Position", describes
 * every field. */
#include "artifact_stack_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const task_names[] = {"none", "treasure", "steal",
                                         "recruit", "give", "discard"};
#define TASKS (int)(sizeof task_names / sizeof task_names[0])

rules_state *as_clone(const rules_state *state)
{
    as_state *copy = malloc(sizeof *copy);
    if (copy == NULL)
        abort();
    memcpy(copy, state, sizeof *copy);
    return (rules_state *)copy;
}

void as_destroy(rules_state *state)
{
    free(state);
}

/* ---- save -------------------------------------------------------------- */

static json_t *card_json(int card)
{
    return json_string(as_card_name(card));
}

static json_t *cards_at(const as_state *s, int place)
{
    json_t *list = json_array();
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] == place)
            json_array_append_new(list, card_json(c));
    }
    return list;
}

/* The places in reading order: the top layer first, each layer row by row. */
static json_t *temple_json(const as_state *s)
{
    json_t *temple = json_object();
    char at[8];
    for (int layer = AS_LAYERS - 1; layer >= 0; layer--) {
        for (int row = 0; row < as_data.layer_rows[layer]; row++) {
            for (int col = 0; col < as_data.layer_cols[layer]; col++) {
                int slot = as_slot_at(layer, col, row);
                if (s->temple[slot] == AS_NO_CARD)
                    continue;
                as_slot_text(slot, at);
                json_object_set_new(temple, at, card_json(s->temple[slot]));
            }
        }
    }
    return temple;
}

static json_t *task_json(const as_state *s)
{
    json_t *task = json_pack("{s:s}", "kind", task_names[s->task]);
    if (s->task == AS_TASK_TREASURE)
        json_object_set_new(task, "card", card_json(s->task_card));
    else if (s->task != AS_TASK_NONE)
        json_object_set_new(task, "count", json_integer(s->task_count));
    return task;
}

static json_t *player_json(const as_state *s, int p)
{
    json_t *cards = json_array(), *sets = json_array();
    json_t *face_down = json_array(), *peeked = json_array();
    /* Sets of one stack may interleave (statues 1 4 and statues 2 3), so
     * each card joins the list of its set's leader, its lowest card. */
    json_t *set_of[AS_CARDS] = {NULL};
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->peeked[p][c])
            json_array_append_new(peeked, card_json(c));
        if (s->place[c] != AS_TABLEAU || s->owner[c] != p)
            continue;
        int leader = s->set[c];
        if (!s->flipped[c]) {
            json_array_append_new(cards, card_json(c));
        } else if (leader < 0) {
            json_array_append_new(face_down, card_json(c));
        } else {
            if (leader == c) {
                set_of[c] = json_array();
                json_array_append_new(sets, set_of[c]);
            }
            json_array_append_new(set_of[leader], card_json(c));
        }
    }
    json_t *assistants = json_array(), *used = json_array();
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] != p)
            continue;
        json_array_append_new(assistants,
                              json_string(as_data.assistants[a].name));
        if (s->assistant_used[a])
            json_array_append_new(used,
                                  json_string(as_data.assistants[a].name));
    }
    return json_pack("{s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o}", "silver",
                     s->silver[p], "actions_lost", s->skip[p], "cards", cards,
                     "sets", sets, "face_down", face_down, "assistants",
                     assistants, "used", used, "peeked", peeked);
}

json_t *as_save(const rules_state *state)
{
    const as_state *s = (const as_state *)state;
    json_t *stacks = json_array();
    for (int k = 0; k < AS_STACKS; k++) {
        if (s->in_play[k])
            json_array_append_new(stacks, json_string(as_data.stack_names[k]));
    }
    json_t *stock = json_array();
    for (int i = 0; i < s->stock_count; i++)
        json_array_append_new(stock, card_json(s->stock[i]));
    json_t *players = json_array();
    for (int p = 0; p < s->seats; p++)
        json_array_append_new(players, player_json(s, p));
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    /* the order a person reads it in (the workbench prints keys in this
     * order); canonical bytes sort the keys anyway */
    json_t *snap = json_object();
    json_object_set_new(snap, "game", json_string("artifact_stack"));
    json_object_set_new(snap, "stacks", stacks);
    json_object_set_new(snap, "round", json_integer(s->round));
    json_object_set_new(snap, "over", json_boolean(s->over));
    json_object_set_new(snap, "first", json_integer(s->first));
    json_object_set_new(snap, "turn", json_integer(s->turn));
    json_object_set_new(snap, "actions", json_integer(s->actions));
    json_object_set_new(snap, "task", task_json(s));
    json_object_set_new(snap, "players", players);
    json_object_set_new(snap, "temple", temple_json(s));
    json_object_set_new(snap, "stock", stock);
    json_object_set_new(snap, "removed", cards_at(s, AS_REMOVED));
    json_object_set_new(snap, "box", cards_at(s, AS_BOX));
    json_object_set_new(snap, "rng",
                        json_pack("{s:s,s:I}", "seed", seed, "counter",
                                  (json_int_t)s->rng.counter));
    return snap;
}

/* ---- load -------------------------------------------------------------- */

#define PATH 48

typedef struct loader {
    as_state *s;
    rules_error *err;
    char where[AS_CARDS][PATH];   /* the field each placed card came from */
    bool stacks_given;
} loader;

/* Writes a field's path ("players[1].sets[0]") into out, cut to fit. */
static const char *path_of(char out[PATH], const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static const char *path_of(char out[PATH], const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(out, PATH, fmt, args);
    va_end(args);
    return out;
}

/* Fails with "path: sentence". */
static bool fail_at(loader *ld, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail_at(loader *ld, const char *path, const char *fmt, ...)
{
    char sentence[200];
    va_list args;
    va_start(args, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, args);
    va_end(args);
    return rules_fail(ld->err, "%s: %s", path, sentence);
}

/* A JSON value as a person wrote it, shortened for an error sentence. */
static const char *shown(const json_t *value, char out[40])
{
    char *text = value != NULL ? json_dumps(value, JSON_ENCODE_ANY |
                                                       JSON_COMPACT)
                               : NULL;
    snprintf(out, 40, "%s", text != NULL ? text : "nothing");
    if (text != NULL && strlen(text) >= 40)
        memcpy(out + 35, "...", 4); /* it was cut */
    free(text);
    return out;
}

/* Rejects a key of object outside the allowed list (a misspelt field
 * would otherwise be ignored in silence). */
static bool known_keys(loader *ld, const json_t *object, const char *path,
                       const char *const *allowed, const char *listed)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        bool known = false;
        for (const char *const *a = allowed; *a != NULL && !known; a++)
            known = strcmp(*a, key) == 0;
        if (!known)
            return fail_at(ld, path, "there is no field \"%.30s\" (%s)", key,
                           listed);
    }
    return true;
}

static bool read_int(loader *ld, const json_t *value, const char *path,
                     int min, int max, int *out)
{
    char text[40];
    if (!json_is_integer(value) || json_integer_value(value) < min ||
        json_integer_value(value) > max)
        return fail_at(ld, path, "%s is not a whole number from %d to %d",
                       shown(value, text), min, max);
    *out = (int)json_integer_value(value);
    return true;
}

/* An optional integer field: absent gives fallback. */
static bool read_int_field(loader *ld, const json_t *object, const char *key,
                           const char *path, int min, int max, int fallback,
                           int *out)
{
    const json_t *value = json_object_get(object, key);
    if (value == NULL) {
        *out = fallback;
        return true;
    }
    return read_int(ld, value, path, min, max, out);
}

static bool read_required_int(loader *ld, const json_t *object,
                              const char *key, int min, int max, int *out)
{
    const json_t *value = json_object_get(object, key);
    if (value == NULL)
        return fail_at(ld, key, "missing (a whole number from %d to %d)",
                       min, max);
    return read_int(ld, value, key, min, max, out);
}

static bool read_list(loader *ld, const json_t *object, const char *key,
                      const char *path, const json_t **out)
{
    char text[40];
    *out = json_object_get(object, key);
    if (*out == NULL)
        return true; /* a list left out is empty */
    if (!json_is_array(*out))
        return fail_at(ld, path, "%s is not a list", shown(*out, text));
    return true;
}

/* The card value names, or AS_NO_CARD after failing with path. */
static int read_card(loader *ld, const json_t *value, const char *path)
{
    char text[40];
    const char *name = json_string_value(value);
    if (name == NULL) {
        fail_at(ld, path, "%s is not a card name like \"coins3\"",
                shown(value, text));
        return AS_NO_CARD;
    }
    int card = as_card_by_name(name);
    if (card == AS_NO_CARD) {
        fail_at(ld, path, "there is no card \"%.40s\"", name);
        return AS_NO_CARD;
    }
    return card;
}

/* Reads the card at path and puts it in place (and owner's tableau); each
 * card has exactly one place. */
static int place_card(loader *ld, const json_t *value, const char *path,
                      int place, int owner)
{
    int card = read_card(ld, value, path);
    if (card == AS_NO_CARD)
        return AS_NO_CARD;
    as_state *s = ld->s;
    int stack = as_card_stack(card);
    if (ld->stacks_given && !s->in_play[stack]) {
        fail_at(ld, path, "%s, but %s are not in this match's stacks",
                as_card_name(card), as_data.stack_names[stack]);
        return AS_NO_CARD;
    }
    if (s->place[card] != AS_OUT) {
        fail_at(ld, path, "%s is in two places (also at %s)",
                as_card_name(card), ld->where[card]);
        return AS_NO_CARD;
    }
    snprintf(ld->where[card], PATH, "%s", path);
    s->place[card] = (int8_t)place;
    s->owner[card] = (int8_t)owner;
    return card;
}

/* Places every card of list (NULL: none); cards, when not NULL, receives
 * them in order. */
static bool place_list(loader *ld, const json_t *list, const char *field,
                       int place, int owner, int *cards, int max, int *count)
{
    size_t n = list != NULL ? json_array_size(list) : 0;
    if ((int)n > max)
        return fail_at(ld, field, "%zu cards, more than the %d it can hold",
                       n, max);
    for (size_t i = 0; i < n; i++) {
        char path[PATH];
        path_of(path, "%s[%zu]", field, i);
        int card = place_card(ld, json_array_get(list, i), path, place, owner);
        if (card == AS_NO_CARD)
            return false;
        if (cards != NULL)
            cards[i] = card;
    }
    if (count != NULL)
        *count = (int)n;
    return true;
}

/* An assistant name, or -1 after failing with path. */
static int read_assistant(loader *ld, const json_t *value, const char *path)
{
    char text[40];
    const char *name = json_string_value(value);
    int a = name != NULL ? as_assistant_by_name(name) : -1;
    if (a < 0)
        fail_at(ld, path, "there is no assistant %s", shown(value, text));
    return a;
}

static bool read_stacks(loader *ld, const json_t *stacks)
{
    char text[40];
    if (!json_is_array(stacks))
        return fail_at(ld, "stacks", "%s is not a list of stack names",
                       shown(stacks, text));
    size_t i;
    const json_t *value;
    json_array_foreach(stacks, i, value) {
        char path[PATH];
        path_of(path, "stacks[%zu]", i);
        const char *name = json_string_value(value);
        int stack = name != NULL ? as_stack_by_name(name) : -1;
        if (stack < 0)
            return fail_at(ld, path, "there is no stack %s (statues, coins, "
                                     "weapons, manuscripts, jewelry, relics, "
                                     "curses, china, monsters, treasures)",
                           shown(value, text));
        if (ld->s->in_play[stack])
            return fail_at(ld, path, "%s is named twice", name);
        ld->s->in_play[stack] = true;
    }
    if (json_array_size(stacks) != AS_STACKS_IN_PLAY)
        return fail_at(ld, "stacks", "%zu stacks, a match has %d",
                       json_array_size(stacks), AS_STACKS_IN_PLAY);
    ld->stacks_given = true;
    return true;
}

/* Without "stacks", the stacks in play are those of the cards placed. */
static bool derive_stacks(loader *ld)
{
    as_state *s = ld->s;
    int count = 0;
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] != AS_OUT && !s->in_play[as_card_stack(c)]) {
            s->in_play[as_card_stack(c)] = true;
            count++;
        }
    }
    if (count != AS_STACKS_IN_PLAY)
        return fail_at(ld, "stacks", "left out, and the cards placed come "
                                     "from %d stacks, not %d: name them",
                       count, AS_STACKS_IN_PLAY);
    return true;
}

static bool read_temple(loader *ld, const json_t *temple)
{
    char text[40];
    as_state *s = ld->s;
    for (int i = 0; i < AS_TEMPLE; i++)
        s->temple[i] = AS_NO_CARD;
    if (temple == NULL)
        return true;
    if (!json_is_object(temple))
        return fail_at(ld, "temple", "%s is not an object of places like "
                                     "{\"0.3.1\": \"coins4\"}",
                       shown(temple, text));
    bool named[AS_TEMPLE] = {false};
    const char *at;
    const json_t *value;
    json_object_foreach((json_t *)temple, at, value) {
        char path[PATH];
        path_of(path, "temple.%.20s", at);
        int slot = as_slot_parse(at);
        if (slot < 0)
            return fail_at(ld, "temple", "there is no place \"%.20s\" (layer."
                                         "column.row; layer 0 is 5x3, 1 is "
                                         "4x2, 2 is 3x1)", at);
        if (named[slot])
            return fail_at(ld, path, "that place is named twice");
        named[slot] = true;
        if (json_is_null(value))
            continue;       /* an empty place, like one left out */
        int card = place_card(ld, value, path, AS_IN_TEMPLE, -1);
        if (card == AS_NO_CARD)
            return false;
        s->temple[slot] = card;
    }
    return true;
}

/* A bonus set: 2 or 3 face-down cards of one stack with a bonus (any
 * number of statues); China 2 or 3 of a letter or A+B+C. */
static bool read_set(loader *ld, const json_t *set, const char *path, int p)
{
    char text[40];
    if (!json_is_array(set))
        return fail_at(ld, path, "%s is not a list of cards",
                       shown(set, text));
    int cards[AS_PER_STACK], n;
    if (!place_list(ld, set, path, AS_TABLEAU, p, cards, AS_PER_STACK, &n))
        return false;
    int stack = n > 0 ? as_card_stack(cards[0]) : -1;
    int leader = n > 0 ? cards[0] : AS_NO_CARD;
    char letters[4] = "", shown_letters[8] = "";
    for (int i = 0; i < n; i++) {
        if (as_card_stack(cards[i]) != stack)
            return fail_at(ld, path, "%s and %s are of different stacks",
                           as_card_name(cards[0]), as_card_name(cards[i]));
        if (cards[i] < leader)
            leader = cards[i];
        if (i < 3)
            letters[i] = as_data.china_letter[as_card_number(cards[i]) - 1];
    }
    if (n > 0 && !as_data.stack_flips[stack])
        return fail_at(ld, path, "%s have no bonus to flip a set for",
                       as_data.stack_names[stack]);
    if (n < 2 || (stack != AS_STATUES && n > 3))
        return fail_at(ld, path, "a set has 2 or 3 cards (any number of "
                                 "statues from 2), not %d", n);
    bool one_letter = letters[0] == letters[1] &&
                      (n == 2 || letters[1] == letters[2]);
    bool abc = n == 3 && letters[0] != letters[1] &&
               letters[1] != letters[2] && letters[0] != letters[2];
    if (n == 3)
        snprintf(shown_letters, sizeof shown_letters, "%c+%c+%c", letters[0],
                 letters[1], letters[2]);
    else
        snprintf(shown_letters, sizeof shown_letters, "%c+%c", letters[0],
                 letters[1]);
    if (stack == AS_CHINA && !one_letter && !abc)
        return fail_at(ld, path, "a China set is 2 or 3 of one letter or "
                                 "one each of A, B and C, not %s",
                       shown_letters);
    for (int i = 0; i < n; i++) {
        ld->s->flipped[cards[i]] = true;
        ld->s->set[cards[i]] = (int8_t)leader;
    }
    return true;
}

/* Face-up cards, bonus sets and the other face-down cards of seat p. */
static bool read_tableau(loader *ld, const json_t *player, int p,
                         const char *prefix)
{
    as_state *s = ld->s;
    char field[PATH];
    const json_t *cards, *sets, *face_down;
    int list[AS_CARDS_IN_PLAY], n;
    path_of(field, "%s.cards", prefix);
    if (!read_list(ld, player, "cards", field, &cards) ||
        !place_list(ld, cards, field, AS_TABLEAU, p, list, AS_CARDS_IN_PLAY,
                    &n))
        return false;
    for (int i = 0; i < n; i++) {
        if (as_card_stack(list[i]) == AS_CURSES)
            return fail_at(ld, ld->where[list[i]], "%s was resolved when "
                           "taken and lies face down: move it to face_down",
                           as_card_name(list[i]));
    }
    path_of(field, "%s.face_down", prefix);
    if (!read_list(ld, player, "face_down", field, &face_down) ||
        !place_list(ld, face_down, field, AS_TABLEAU, p, list,
                    AS_CARDS_IN_PLAY, &n))
        return false;
    for (int i = 0; i < n; i++) {
        int stack = as_card_stack(list[i]);
        if (stack != AS_CURSES && stack != AS_TREASURES)
            return fail_at(ld, ld->where[list[i]], "only a resolved curse or "
                           "a cashed treasure lies face down alone; %s "
                           "turns face down in a set (sets)",
                           as_card_name(list[i]));
        s->flipped[list[i]] = true;
    }
    path_of(field, "%s.sets", prefix);
    if (!read_list(ld, player, "sets", field, &sets))
        return false;
    size_t i;
    const json_t *set;
    json_array_foreach(sets, i, set) {
        char path[PATH];
        path_of(path, "%s.sets[%zu]", prefix, i);
        if (!read_set(ld, set, path, p))
            return false;
    }
    return true;
}

static bool read_assistants(loader *ld, const json_t *player, int p,
                            const char *prefix)
{
    as_state *s = ld->s;
    char field[PATH], path[PATH];
    const json_t *list;
    size_t i;
    const json_t *value;
    path_of(field, "%s.assistants", prefix);
    if (!read_list(ld, player, "assistants", field, &list))
        return false;
    json_array_foreach(list, i, value) {
        path_of(path, "%s[%zu]", field, i);
        int a = read_assistant(ld, value, path);
        if (a < 0)
            return false;
        if (s->assistant_owner[a] != AS_UNUSED_STACK)
            return fail_at(ld, path, "the %s is in two places",
                           as_data.assistants[a].name);
        s->assistant_owner[a] = (int8_t)p;
    }
    path_of(field, "%s.used", prefix);
    if (!read_list(ld, player, "used", field, &list))
        return false;
    json_array_foreach(list, i, value) {
        path_of(path, "%s[%zu]", field, i);
        int a = read_assistant(ld, value, path);
        if (a < 0)
            return false;
        if (s->assistant_owner[a] != p)
            return fail_at(ld, path, "the %s is not among this player's "
                                     "assistants", as_data.assistants[a].name);
        s->assistant_used[a] = true;
    }
    return true;
}

static const char *const player_fields[] = {
    "silver", "actions_lost", "cards", "sets", "face_down", "assistants",
    "used", "peeked", NULL};

static bool read_player(loader *ld, const json_t *player, int p)
{
    char prefix[PATH], path[PATH], text[40];
    path_of(prefix, "players[%d]", p);
    if (!json_is_object(player))
        return fail_at(ld, prefix, "%s is not an object", shown(player, text));
    if (!known_keys(ld, player, prefix, player_fields,
                    "silver, actions_lost, cards, sets, face_down, "
                    "assistants, used, peeked"))
        return false;
    as_state *s = ld->s;
    path_of(path, "%s.silver", prefix);
    if (json_object_get(player, "silver") == NULL)
        return fail_at(ld, path, "missing (the player's silver)");
    if (!read_int_field(ld, player, "silver", path, 0, as_data.silver_total, 0,
                        &s->silver[p]))
        return false;
    path_of(path, "%s.actions_lost", prefix);
    if (!read_int_field(ld, player, "actions_lost", path, 0, AS_CARDS, 0,
                        &s->skip[p]))
        return false;
    return read_tableau(ld, player, p, prefix) &&
           read_assistants(ld, player, p, prefix);
}

/* Peeks name face-down temple cards, so they are read after the temple. */
static bool read_peeks(loader *ld, const json_t *player, int p)
{
    char field[PATH], path[PATH];
    const json_t *list;
    path_of(field, "players[%d].peeked", p);
    if (!read_list(ld, player, "peeked", field, &list))
        return false;
    size_t i;
    const json_t *value;
    json_array_foreach(list, i, value) {
        path_of(path, "%s[%zu]", field, i);
        int card = read_card(ld, value, path);
        if (card == AS_NO_CARD)
            return false;
        if (ld->s->place[card] != AS_IN_TEMPLE ||
            !as_data.covered[as_card_number(card) - 1])
            return fail_at(ld, path, "%s is not a face-down card in the "
                                     "temple", as_card_name(card));
        ld->s->peeked[p][card] = true;
    }
    return true;
}

/* Every card of the stacks in play must be somewhere; in round 2 the two
 * cards left over may be left out of "removed" and are found here. */
static bool find_missing_cards(loader *ld, bool removed_given)
{
    as_state *s = ld->s;
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] != AS_OUT || !s->in_play[as_card_stack(c)])
            continue;
        if (s->round == 2 && !removed_given) {
            s->place[c] = AS_REMOVED;
            continue;
        }
        return rules_fail(ld->err, "%s is nowhere: each card of the stacks "
                                   "in play is in the temple, the stock, "
                                   "removed, the box, or a player's cards, "
                                   "sets or face_down", as_card_name(c));
    }
    return true;
}

/* The pool holds every assistant of a stack in play that nobody has. */
static bool read_pool(loader *ld, const json_t *pool)
{
    as_state *s = ld->s;
    char text[40];
    if (pool != NULL && !json_is_array(pool))
        return fail_at(ld, "pool", "%s is not a list", shown(pool, text));
    size_t i;
    const json_t *value;
    json_array_foreach(pool, i, value) {
        char path[PATH];
        path_of(path, "pool[%zu]", i);
        int a = read_assistant(ld, value, path);
        if (a < 0)
            return false;
        if (!s->in_play[as_data.assistants[a].stack])
            return fail_at(ld, path, "the %s belongs to %s, not in play",
                           as_data.assistants[a].name,
                           as_data.stack_names[as_data.assistants[a].stack]);
        if (s->assistant_owner[a] != AS_UNUSED_STACK)
            return fail_at(ld, path, "the %s is in two places",
                           as_data.assistants[a].name);
        s->assistant_owner[a] = AS_POOL;
    }
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        bool in_play = s->in_play[as_data.assistants[a].stack];
        int owner = s->assistant_owner[a];
        if (owner >= 0 && !in_play)
            return rules_fail(ld->err, "the %s belongs to %s, which are not "
                                       "in play", as_data.assistants[a].name,
                              as_data.stack_names[as_data.assistants[a].stack]);
        if (owner != AS_UNUSED_STACK || !in_play)
            continue;
        if (pool != NULL)
            return fail_at(ld, "pool", "the %s is nowhere: list it here or "
                                       "with a player",
                           as_data.assistants[a].name);
        s->assistant_owner[a] = AS_POOL;
    }
    return true;
}

static bool read_bank(loader *ld, const json_t *bank)
{
    as_state *s = ld->s;
    int held = 0;
    for (int p = 0; p < s->seats; p++)
        held += s->silver[p];
    if (held > as_data.silver_total)
        return fail_at(ld, "players", "they hold %d silver, more than the "
                                      "%d in the game", held,
                       as_data.silver_total);
    s->bank = as_data.silver_total - held;
    int given;
    if (bank == NULL)
        return true;
    /* any count is read, so the sentence can say what the bank must be */
    if (!read_int(ld, bank, "bank", 0, 1000000, &given))
        return false;
    if (given != s->bank)
        return fail_at(ld, "bank", "%d silver, but the %d silver less the "
                                   "players' %d leaves %d (or leave bank out)",
                       given, as_data.silver_total, held, s->bank);
    return true;
}

static bool read_task(loader *ld, const json_t *task)
{
    as_state *s = ld->s;
    char text[40];
    s->task = AS_TASK_NONE;
    s->task_card = AS_NO_CARD;
    if (task == NULL)
        return true;
    static const char *const fields[] = {"kind", "count", "card", NULL};
    if (!json_is_object(task))
        return fail_at(ld, "task", "%s is not an object like {\"kind\": "
                                   "\"steal\", \"count\": 1}",
                       shown(task, text));
    if (!known_keys(ld, task, "task", fields, "kind, count, card"))
        return false;
    const char *kind = json_string_value(json_object_get(task, "kind"));
    s->task = -1;
    for (int k = 0; k < TASKS && kind != NULL; k++) {
        if (strcmp(kind, task_names[k]) == 0)
            s->task = k;
    }
    if (s->task < 0)
        return fail_at(ld, "task.kind", "there is no task %s (none, "
                                        "treasure, steal, recruit, give, "
                                        "discard)",
                       shown(json_object_get(task, "kind"), text));
    const json_t *card = json_object_get(task, "card");
    if (s->task == AS_TASK_NONE) {
        s->task_count = 0;
        if (json_object_get(task, "count") != NULL || card != NULL)
            return fail_at(ld, "task", "no task has no count or card");
        return true;
    }
    if (s->task != AS_TASK_TREASURE) {
        if (card != NULL)
            return fail_at(ld, "task.card", "only a treasure task names a "
                                            "card");
        return read_int_field(ld, task, "count", "task.count", 1, AS_CARDS, 1,
                              &s->task_count);
    }
    s->task_count = 1;
    if (json_object_get(task, "count") != NULL)
        return fail_at(ld, "task.count", "a treasure task is for one card");
    if (card == NULL)
        return fail_at(ld, "task.card", "missing: the treasure to keep or "
                                        "cash");
    s->task_card = read_card(ld, card, "task.card");
    if (s->task_card == AS_NO_CARD)
        return false;
    if (as_card_stack(s->task_card) != AS_TREASURES ||
        s->place[s->task_card] != AS_TABLEAU ||
        s->owner[s->task_card] != s->turn || s->flipped[s->task_card])
        return fail_at(ld, "task.card", "%s is not a treasure face up in the "
                                        "cards of seat %d, on turn",
                       as_card_name(s->task_card), s->turn);
    return true;
}

static bool read_rng(loader *ld, const json_t *rng)
{
    char text[40];
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    const json_t *counter = json_object_get(rng, "counter");
    if (!json_is_object(rng) || json_object_size(rng) != 2 || seed == NULL ||
        !rules_rng_seed_from_hex(&ld->s->rng, seed))
        return fail_at(ld, "rng", "%s is not {\"seed\": 64 hex digits, "
                                  "\"counter\": n}", shown(rng, text));
    if (!json_is_integer(counter) || json_integer_value(counter) < 0)
        return fail_at(ld, "rng.counter", "%s is not a count of draws",
                       shown(counter, text));
    ld->s->rng.counter = (uint64_t)json_integer_value(counter);
    return true;
}

static const char *const top_fields[] = {
    "game",  "stacks", "round",   "over", "first", "turn",
    "actions", "task", "players", "temple", "stock", "removed",
    "box",   "rng",    "seats",   "bank", "pool",  "note", NULL};

/* The round, the players and the flow of the turn. */
static bool read_flow(loader *ld, const json_t *snap)
{
    as_state *s = ld->s;
    char text[40];
    const json_t *players = json_object_get(snap, "players");
    if (!json_is_array(players) ||
        (int)json_array_size(players) < as_data.min_seats ||
        (int)json_array_size(players) > as_data.max_seats)
        return fail_at(ld, "players", "%s is not a list of %d to %d players",
                       shown(players, text), as_data.min_seats,
                       as_data.max_seats);
    s->seats = (int)json_array_size(players);
    int seats;
    if (!read_int_field(ld, snap, "seats", "seats", 0, RULES_MAX_SEATS,
                        s->seats, &seats))
        return false;
    if (seats != s->seats)
        return fail_at(ld, "seats", "%d, but players lists %d (or leave "
                                    "seats out)", seats, s->seats);
    const json_t *over = json_object_get(snap, "over");
    if (over != NULL && !json_is_boolean(over))
        return fail_at(ld, "over", "%s is not true or false",
                       shown(over, text));
    s->over = json_is_true(over);
    return read_required_int(ld, snap, "round", 1, 2, &s->round) &&
           read_required_int(ld, snap, "first", 0, s->seats - 1, &s->first) &&
           read_required_int(ld, snap, "turn", 0, s->seats - 1, &s->turn) &&
           read_required_int(ld, snap, "actions", 0, 1000, &s->actions);
}

/* Where the cards are: the temple, the stock, the box, removed and the
 * tableaus. */
static bool read_cards(loader *ld, const json_t *snap)
{
    as_state *s = ld->s;
    const json_t *stock, *removed, *box;
    const json_t *players = json_object_get(snap, "players");
    if (!read_temple(ld, json_object_get(snap, "temple")) ||
        !read_list(ld, snap, "stock", "stock", &stock) ||
        !place_list(ld, stock, "stock", AS_STOCK, -1, s->stock,
                    AS_CARDS_IN_PLAY, &s->stock_count) ||
        !read_list(ld, snap, "removed", "removed", &removed) ||
        !place_list(ld, removed, "removed", AS_REMOVED, -1, NULL,
                    AS_CARDS_IN_PLAY, NULL) ||
        !read_list(ld, snap, "box", "box", &box) ||
        !place_list(ld, box, "box", AS_BOX, -1, NULL, AS_CARDS_IN_PLAY, NULL))
        return false;
    for (int p = 0; p < s->seats; p++) {
        if (!read_player(ld, json_array_get(players, (size_t)p), p))
            return false;
    }
    if (!ld->stacks_given && !derive_stacks(ld))
        return false;
    if (!find_missing_cards(ld, removed != NULL))
        return false;
    int second = AS_CARDS_IN_PLAY - AS_TEMPLE;
    int left_over = second - AS_TEMPLE;
    int removed_count = 0;
    for (int c = 0; c < AS_CARDS; c++)
        removed_count += s->place[c] == AS_REMOVED;
    if (s->round == 1 && removed_count > 0)
        return fail_at(ld, "removed", "cards leave the game only as round 2 "
                                      "begins; in round 1 they wait in the "
                                      "stock");
    if (s->round == 2 && removed_count != left_over)
        return fail_at(ld, "removed", "%d cards, but round 2 leaves exactly "
                                      "%d out", removed_count, left_over);
    if (s->round == 1 && s->stock_count != second)
        return fail_at(ld, "stock", "%d cards, but in round 1 it holds the "
                                    "%d of round 2, in deal order",
                       s->stock_count, second);
    if (s->round == 2 && s->stock_count != 0)
        return fail_at(ld, "stock", "must be empty in round 2 (it built the "
                                    "second temple)");
    for (int p = 0; p < s->seats; p++) {
        if (!read_peeks(ld, json_array_get(players, (size_t)p), p))
            return false;
    }
    bool temple_empty = true;
    for (int slot = 0; slot < AS_TEMPLE; slot++)
        temple_empty = temple_empty && s->temple[slot] == AS_NO_CARD;
    if (s->over && (s->round != 2 || !temple_empty))
        return fail_at(ld, "over", "true, but the match ends only when the "
                                   "second temple is empty");
    return true;
}

rules_state *as_load(const json_t *snapshot, rules_error *err)
{
    loader *ld = calloc(1, sizeof *ld);
    as_state *s = calloc(1, sizeof *s);
    if (ld == NULL || s == NULL)
        abort();
    ld->s = s;
    ld->err = err;
    for (int c = 0; c < AS_CARDS; c++) {
        s->owner[c] = -1;
        s->set[c] = -1;
    }
    for (int a = 0; a < AS_ASSISTANTS; a++)
        s->assistant_owner[a] = AS_UNUSED_STACK;
    const char *game = json_string_value(json_object_get(snapshot, "game"));
    bool ok = false;
    if (!json_is_object(snapshot) || game == NULL ||
        strcmp(game, "artifact_stack") != 0) {
        rules_fail(err, "game: not an Artifact Stack position (\"game\": "
                        "\"artifact_stack\")");
    } else if (known_keys(ld, snapshot, "position", top_fields,
                          "game, stacks, round, over, first, turn, actions, "
                          "task, players, temple, stock, removed, box, rng, "
                          "seats, bank, pool") &&
               read_flow(ld, snapshot) &&
               (json_object_get(snapshot, "stacks") == NULL ||
                read_stacks(ld, json_object_get(snapshot, "stacks"))) &&
               read_cards(ld, snapshot) &&
               read_pool(ld, json_object_get(snapshot, "pool")) &&
               read_bank(ld, json_object_get(snapshot, "bank")) &&
               read_task(ld, json_object_get(snapshot, "task")) &&
               read_rng(ld, json_object_get(snapshot, "rng"))) {
        ok = as_check((rules_state *)s, err);
    }
    free(ld);
    if (!ok) {
        free(s);
        return NULL;
    }
    return (rules_state *)s;
}
