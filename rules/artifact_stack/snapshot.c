/* snapshot.c: save, load (validating), check (every invariant), clone and
 * destroy. The snapshot names cards ("coins3") and assistants ("scribe");
 * README.md describes its fields. */
#include "artifact_stack_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const task_names[] = {"none", "treasure", "steal",
                                         "recruit", "give", "discard"};

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

static json_t *name_of(int card)
{
    return card == AS_NO_CARD ? json_null() : json_string(as_card_name(card));
}

json_t *as_save(const rules_state *state)
{
    const as_state *s = (const as_state *)state;
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    json_t *stacks = json_array();
    for (int k = 0; k < AS_STACKS; k++) {
        if (s->in_play[k])
            json_array_append_new(stacks, json_string(as_data.stack_names[k]));
    }
    json_t *temple = json_array();
    for (int i = 0; i < AS_TEMPLE; i++)
        json_array_append_new(temple, name_of(s->temple[i]));
    json_t *stock = json_array();
    for (int i = 0; i < s->stock_count; i++)
        json_array_append_new(stock, name_of(s->stock[i]));
    json_t *removed = json_array();
    json_t *box = json_array();
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] == AS_REMOVED)
            json_array_append_new(removed, name_of(c));
        if (s->place[c] == AS_BOX)
            json_array_append_new(box, name_of(c));
    }
    json_t *pool = json_array();
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] == AS_POOL)
            json_array_append_new(pool,
                                  json_string(as_data.assistants[a].name));
    }
    json_t *players = json_array();
    for (int p = 0; p < s->seats; p++) {
        json_t *cards = json_array(), *flipped = json_array();
        json_t *sets = json_array(), *peeked = json_array();
        json_t *assistants = json_array(), *used = json_array();
        for (int c = 0; c < AS_CARDS; c++) {
            if (s->place[c] == AS_TABLEAU && s->owner[c] == p) {
                json_array_append_new(cards, name_of(c));
                if (s->flipped[c])
                    json_array_append_new(flipped, name_of(c));
                if (s->set[c] == c) {
                    json_t *set = json_array();
                    for (int m = c; m < AS_CARDS; m++) {
                        if (s->set[m] == c)
                            json_array_append_new(set, name_of(m));
                    }
                    json_array_append_new(sets, set);
                }
            }
            if (s->peeked[p][c])
                json_array_append_new(peeked, name_of(c));
        }
        for (int a = 0; a < AS_ASSISTANTS; a++) {
            if (s->assistant_owner[a] != p)
                continue;
            json_array_append_new(assistants,
                                  json_string(as_data.assistants[a].name));
            if (s->assistant_used[a])
                json_array_append_new(used,
                                      json_string(as_data.assistants[a].name));
        }
        json_array_append_new(
            players,
            json_pack("{s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o}", "silver",
                      s->silver[p], "skip", s->skip[p], "cards", cards,
                      "flipped", flipped, "sets", sets, "assistants",
                      assistants, "used", used, "peeked", peeked));
    }
    return json_pack(
        "{s:s,s:i,s:o,s:{s:s,s:I},s:i,s:b,s:i,s:i,s:i,"
        "s:{s:s,s:i,s:o},s:o,s:o,s:o,s:o,s:i,s:o,s:o}",
        "game", "artifact_stack", "seats", s->seats, "stacks", stacks, "rng",
        "seed", seed, "counter", (json_int_t)s->rng.counter, "round", s->round,
        "over", s->over, "first", s->first, "turn", s->turn, "actions",
        s->actions, "task", "kind", task_names[s->task], "count",
        s->task_count, "card", name_of(s->task_card), "temple", temple,
        "stock", stock, "removed", removed, "box", box, "bank", s->bank,
        "pool", pool, "players", players);
}

/* ---- load -------------------------------------------------------------- */

typedef struct loader {
    as_state *s;
    bool seen[AS_CARDS];
    rules_error *err;
} loader;

/* Reads a card name; each card may be placed once. */
static bool place_card(loader *ld, const json_t *value, int place, int owner,
                       int *card)
{
    const char *name = json_string_value(value);
    *card = name != NULL ? as_card_by_name(name) : AS_NO_CARD;
    if (*card == AS_NO_CARD)
        return rules_fail(ld->err, "snapshot: %s is not a card",
                          name != NULL ? name : "a non-string");
    if (ld->seen[*card])
        return rules_fail(ld->err, "snapshot: %s is in two places", name);
    ld->seen[*card] = true;
    ld->s->place[*card] = (int8_t)place;
    ld->s->owner[*card] = (int8_t)owner;
    return true;
}

static bool card_list(const json_t *list, int *cards, int max, int *count,
                      rules_error *err)
{
    if (!json_is_array(list) || (int)json_array_size(list) > max)
        return rules_fail(err, "snapshot: a card list is malformed");
    *count = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        const char *name = json_string_value(v);
        int c = name != NULL ? as_card_by_name(name) : AS_NO_CARD;
        if (c == AS_NO_CARD)
            return rules_fail(err, "snapshot: %s is not a card",
                              name != NULL ? name : "a non-string");
        cards[(*count)++] = c;
    }
    return true;
}

static bool assistant_list(const json_t *list, int *out, int *count,
                           rules_error *err)
{
    if (!json_is_array(list) || json_array_size(list) > AS_ASSISTANTS)
        return rules_fail(err, "snapshot: an assistant list is malformed");
    *count = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        const char *name = json_string_value(v);
        int a = name != NULL ? as_assistant_by_name(name) : -1;
        if (a < 0)
            return rules_fail(err, "snapshot: %s is not an assistant",
                              name != NULL ? name : "a non-string");
        out[(*count)++] = a;
    }
    return true;
}

static bool load_player(loader *ld, int p, const json_t *pj, bool *asst_seen)
{
    as_state *s = ld->s;
    json_t *cards, *flipped, *sets, *assistants, *used, *peeked;
    if (json_unpack((json_t *)pj, "{s:i,s:i,s:o,s:o,s:o,s:o,s:o,s:o}",
                    "silver", &s->silver[p], "skip", &s->skip[p], "cards",
                    &cards, "flipped", &flipped, "sets", &sets, "assistants",
                    &assistants, "used", &used, "peeked", &peeked) != 0 ||
        !json_is_array(cards) || !json_is_array(sets))
        return rules_fail(ld->err, "snapshot: player %d is malformed", p);
    size_t i;
    const json_t *v;
    int card, list[AS_CARDS], n;
    json_array_foreach(cards, i, v) {
        if (!place_card(ld, v, AS_TABLEAU, p, &card))
            return false;
    }
    if (!card_list(flipped, list, AS_CARDS, &n, ld->err))
        return false;
    for (int k = 0; k < n; k++)
        s->flipped[list[k]] = true;
    json_array_foreach(sets, i, v) {
        if (!card_list(v, list, AS_PER_STACK, &n, ld->err))
            return false;
        if (n == 0)
            return rules_fail(ld->err, "snapshot: an empty set");
        for (int k = 0; k < n; k++) {
            if (s->set[list[k]] >= 0)
                return rules_fail(ld->err, "snapshot: %s is in two sets",
                                  as_card_name(list[k]));
            s->set[list[k]] = (int8_t)list[0];
        }
    }
    if (!card_list(peeked, list, AS_CARDS, &n, ld->err))
        return false;
    for (int k = 0; k < n; k++)
        s->peeked[p][list[k]] = true;
    int alist[AS_ASSISTANTS];
    if (!assistant_list(assistants, alist, &n, ld->err))
        return false;
    for (int k = 0; k < n; k++) {
        if (asst_seen[alist[k]])
            return rules_fail(ld->err, "snapshot: the %s is in two places",
                              as_data.assistants[alist[k]].name);
        asst_seen[alist[k]] = true;
        s->assistant_owner[alist[k]] = (int8_t)p;
    }
    if (!assistant_list(used, alist, &n, ld->err))
        return false;
    for (int k = 0; k < n; k++)
        s->assistant_used[alist[k]] = true;
    return true;
}

rules_state *as_load(const json_t *snapshot, rules_error *err)
{
    as_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    loader ld = {.s = s, .err = err};
    json_t *stacks, *temple, *stock, *removed, *box, *pool, *players, *task_card;
    const char *game, *seed, *task;
    json_int_t counter;
    int over;
    for (int c = 0; c < AS_CARDS; c++) {
        s->owner[c] = -1;
        s->set[c] = -1;
    }
    if (json_unpack((json_t *)snapshot,
                    "{s:s,s:i,s:o,s:{s:s,s:I},s:i,s:b,s:i,s:i,s:i,"
                    "s:{s:s,s:i,s:o},s:o,s:o,s:o,s:o,s:i,s:o,s:o}",
                    "game", &game, "seats", &s->seats, "stacks", &stacks,
                    "rng", "seed", &seed, "counter", &counter, "round",
                    &s->round, "over", &over, "first", &s->first, "turn",
                    &s->turn, "actions", &s->actions, "task", "kind", &task,
                    "count", &s->task_count, "card", &task_card, "temple",
                    &temple, "stock", &stock, "removed", &removed, "box", &box,
                    "bank", &s->bank, "pool", &pool, "players",
                    &players) != 0 ||
        strcmp(game, "artifact_stack") != 0 ||
        !rules_rng_seed_from_hex(&s->rng, seed) || counter < 0) {
        rules_fail(err, "not an Artifact Stack snapshot");
        goto fail;
    }
    s->over = over;
    s->rng.counter = (uint64_t)counter;
    if (s->seats < as_data.min_seats || s->seats > as_data.max_seats) {
        rules_fail(err, "snapshot: %d seats", s->seats);
        goto fail;
    }
    s->task = -1;
    for (int k = 0; k < 6; k++) {
        if (strcmp(task, task_names[k]) == 0)
            s->task = k;
    }
    s->task_card = AS_NO_CARD;
    if (!json_is_null(task_card)) {
        s->task_card = as_card_by_name(json_string_value(task_card) != NULL
                                           ? json_string_value(task_card) : "");
        if (s->task_card == AS_NO_CARD) {
            rules_fail(err, "snapshot: the task's card is not a card");
            goto fail;
        }
    }
    if (s->task < 0 || !json_is_array(stacks) || !json_is_array(temple) ||
        json_array_size(temple) != AS_TEMPLE || !json_is_array(stock) ||
        json_array_size(stock) > AS_CARDS_IN_PLAY || !json_is_array(removed) ||
        !json_is_array(box) || !json_is_array(players) ||
        (int)json_array_size(players) != s->seats) {
        rules_fail(err, "snapshot: malformed task, stacks, temple, stock, "
                        "removed, box or players");
        goto fail;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(stacks, i, v) {
        int k = json_string_value(v) ? as_stack_by_name(json_string_value(v))
                                     : -1;
        if (k < 0 || s->in_play[k]) {
            rules_fail(err, "snapshot: bad stack list");
            goto fail;
        }
        s->in_play[k] = true;
    }
    int card;
    json_array_foreach(temple, i, v) {
        s->temple[i] = AS_NO_CARD;
        if (json_is_null(v))
            continue;
        if (!place_card(&ld, v, AS_IN_TEMPLE, -1, &card))
            goto fail;
        s->temple[i] = card;
    }
    json_array_foreach(stock, i, v) {
        if (!place_card(&ld, v, AS_STOCK, -1, &card))
            goto fail;
        s->stock[s->stock_count++] = card;
    }
    json_array_foreach(removed, i, v) {
        if (!place_card(&ld, v, AS_REMOVED, -1, &card))
            goto fail;
    }
    json_array_foreach(box, i, v) {
        if (!place_card(&ld, v, AS_BOX, -1, &card))
            goto fail;
    }
    bool asst_seen[AS_ASSISTANTS] = {false};
    for (int a = 0; a < AS_ASSISTANTS; a++)
        s->assistant_owner[a] = AS_UNUSED_STACK;
    int alist[AS_ASSISTANTS], n;
    if (!assistant_list(pool, alist, &n, err))
        goto fail;
    for (int k = 0; k < n; k++) {
        if (asst_seen[alist[k]]) {
            rules_fail(err, "snapshot: an assistant is in two places");
            goto fail;
        }
        asst_seen[alist[k]] = true;
        s->assistant_owner[alist[k]] = AS_POOL;
    }
    for (int p = 0; p < s->seats; p++) {
        if (!load_player(&ld, p, json_array_get(players, (size_t)p),
                         asst_seen))
            goto fail;
    }
    if (!as_check((rules_state *)s, err))
        goto fail;
    return (rules_state *)s;
fail:
    free(s);
    return NULL;
}

/* ---- check ------------------------------------------------------------- */

static bool check_sets(const as_state *s, rules_error *err)
{
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->set[c] < 0)
            continue;
        int leader = s->set[c];
        if (!s->flipped[c] || s->place[c] != AS_TABLEAU)
            return rules_fail(err, "%s is in a bonus set but not flipped in a "
                                   "tableau", as_card_name(c));
        if (leader > c || as_card_stack(leader) != as_card_stack(c) ||
            s->owner[leader] != s->owner[c] || s->set[leader] != leader)
            return rules_fail(err, "%s's set is inconsistent",
                              as_card_name(c));
        if (leader != c)
            continue;
        int n = 0;
        char letters[3] = {0};
        for (int m = c; m < AS_CARDS; m++) {
            if (s->set[m] == c) {
                if (n < 3)
                    letters[n] = as_data.china_letter[as_card_number(m) - 1];
                n++;
            }
        }
        int stack = as_card_stack(c);
        if (!as_data.stack_flips[stack] || n < 2 ||
            (stack != AS_STATUES && n > 3))
            return rules_fail(err, "the set of %s has %d cards",
                              as_card_name(c), n);
        if (stack == AS_CHINA && n == 2 && letters[0] != letters[1])
            return rules_fail(err, "China pair of %s mixes letters",
                              as_card_name(c));
        if (stack == AS_CHINA && n == 3 &&
            !((letters[0] == letters[1] && letters[1] == letters[2]) ||
              (letters[0] != letters[1] && letters[1] != letters[2] &&
               letters[0] != letters[2])))
            return rules_fail(err, "China set of %s is neither one letter nor "
                                   "A+B+C", as_card_name(c));
    }
    return true;
}

static bool check_cards(const as_state *s, rules_error *err)
{
    int count[6] = {0};
    int in_temple = 0;
    for (int i = 0; i < AS_TEMPLE; i++) {
        int c = s->temple[i];
        if (c == AS_NO_CARD)
            continue;
        if (c < 0 || c >= AS_CARDS || s->place[c] != AS_IN_TEMPLE)
            return rules_fail(err, "temple slot %d is inconsistent", i);
        in_temple++;
    }
    for (int i = 0; i < s->stock_count; i++) {
        if (s->place[s->stock[i]] != AS_STOCK)
            return rules_fail(err, "stock entry %d is inconsistent", i);
    }
    for (int c = 0; c < AS_CARDS; c++) {
        int place = s->place[c];
        if (place < AS_OUT || place > AS_BOX)
            return rules_fail(err, "%s has no place", as_card_name(c));
        if ((place == AS_OUT) == s->in_play[as_card_stack(c)])
            return rules_fail(err, "%s is %s play", as_card_name(c),
                              place == AS_OUT ? "missing from" : "wrongly in");
        count[place]++;
        if ((place == AS_TABLEAU) != (s->owner[c] >= 0 &&
                                      s->owner[c] < s->seats))
            return rules_fail(err, "%s has a wrong owner", as_card_name(c));
        if (s->flipped[c] && place != AS_TABLEAU)
            return rules_fail(err, "%s is flipped outside a tableau",
                              as_card_name(c));
        int stack = as_card_stack(c);
        if (place == AS_TABLEAU && stack == AS_CURSES && !s->flipped[c])
            return rules_fail(err, "%s was not resolved", as_card_name(c));
        if (s->flipped[c] && s->set[c] < 0 && stack != AS_CURSES &&
            stack != AS_TREASURES)
            return rules_fail(err, "%s is flipped without a bonus",
                              as_card_name(c));
        if (s->flipped[c] && s->set[c] >= 0 && !as_data.stack_flips[stack])
            return rules_fail(err, "%s has no bonus set", as_card_name(c));
        for (int p = 0; p < RULES_MAX_SEATS; p++) {
            if (s->peeked[p][c] &&
                (p >= s->seats || place != AS_IN_TEMPLE ||
                 !as_data.covered[as_card_number(c) - 1]))
                return rules_fail(err, "seat %d peeked at %s, which is not "
                                       "face down in the temple", p,
                                  as_card_name(c));
        }
    }
    if (count[AS_IN_TEMPLE] != in_temple || count[AS_STOCK] != s->stock_count)
        return rules_fail(err, "a card is listed twice in the temple or stock");
    int in_play = AS_CARDS - count[AS_OUT];
    if (in_play != AS_CARDS_IN_PLAY)
        return rules_fail(err, "%d cards in play, not %d", in_play,
                          AS_CARDS_IN_PLAY);
    int second = AS_CARDS_IN_PLAY - AS_TEMPLE;
    if (s->round == 1 && (s->stock_count != second || count[AS_REMOVED] != 0))
        return rules_fail(err, "round 1 needs %d cards waiting for round 2",
                          second);
    if (s->round == 2 && (s->stock_count != 0 ||
                          count[AS_REMOVED] != second - AS_TEMPLE))
        return rules_fail(err, "round 2 leaves exactly %d cards out",
                          second - AS_TEMPLE);
    return check_sets(s, err);
}

bool as_check(const rules_state *state, rules_error *err)
{
    const as_state *s = (const as_state *)state;
    if (s->seats < as_data.min_seats || s->seats > as_data.max_seats)
        return rules_fail(err, "%d seats", s->seats);
    if (s->round < 1 || s->round > 2 || s->turn < 0 || s->turn >= s->seats ||
        s->first < 0 || s->first >= s->seats || s->actions < 0)
        return rules_fail(err, "round, turn, first player or actions out of "
                               "range");
    int stacks = 0;
    for (int k = 0; k < AS_STACKS; k++)
        stacks += s->in_play[k];
    if (stacks != AS_STACKS_IN_PLAY)
        return rules_fail(err, "%d stacks in play, not %d", stacks,
                          AS_STACKS_IN_PLAY);
    int silver = s->bank;
    if (s->bank < 0)
        return rules_fail(err, "the bank is negative");
    for (int p = 0; p < s->seats; p++) {
        if (s->silver[p] < 0 || s->skip[p] < 0)
            return rules_fail(err, "seat %d has negative silver or skips", p);
        silver += s->silver[p];
    }
    if (silver != as_data.silver_total)
        return rules_fail(err, "%d silver in the game, not %d", silver,
                          as_data.silver_total);
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        int owner = s->assistant_owner[a];
        bool used_stack = s->in_play[as_data.assistants[a].stack];
        if (owner < AS_UNUSED_STACK || owner >= s->seats ||
            (owner == AS_UNUSED_STACK) == used_stack)
            return rules_fail(err, "the %s is in the wrong place",
                              as_data.assistants[a].name);
        if (s->assistant_used[a] && owner < 0)
            return rules_fail(err, "the %s is used but nobody's",
                              as_data.assistants[a].name);
    }
    if (!check_cards(s, err))
        return false;
    if (s->task < AS_TASK_NONE || s->task > AS_TASK_DISCARD ||
        (s->task == AS_TASK_NONE) != (s->task_count == 0) ||
        (s->over && s->task != AS_TASK_NONE))
        return rules_fail(err, "the pending task is inconsistent");
    if ((s->task == AS_TASK_TREASURE) != (s->task_card != AS_NO_CARD))
        return rules_fail(err, "the treasure task has no treasure");
    if (s->task == AS_TASK_TREASURE &&
        (as_card_stack(s->task_card) != AS_TREASURES ||
         s->place[s->task_card] != AS_TABLEAU ||
         s->owner[s->task_card] != s->turn || s->flipped[s->task_card]))
        return rules_fail(err, "the treasure waiting for a choice is not "
                               "face up with the seat on turn");
    return true;
}
