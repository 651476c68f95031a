/* moves.c: who acts, what a move does (apply) and which moves there are
 * (legal). legal() tries every candidate move on a copy of the state with
 * the same code apply() runs, so the two can never disagree. */
#include "artifact_stack_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

int as_cover_count(const as_state *s, int slot)
{
    int n = 0;
    for (int up = 0; up < AS_TEMPLE; up++) {
        if (s->temple[up] != AS_NO_CARD && as_slot_covers(up, slot))
            n++;
    }
    return n;
}

static bool temple_empty(const as_state *s)
{
    for (int i = 0; i < AS_TEMPLE; i++) {
        if (s->temple[i] != AS_NO_CARD)
            return false;
    }
    return true;
}

static bool face_up_in_tableau(const as_state *s, int card, int seat)
{
    return s->place[card] == AS_TABLEAU && s->owner[card] == seat &&
           !s->flipped[card];
}

static bool has_face_up_card(const as_state *s, int seat)
{
    for (int c = 0; c < AS_CARDS; c++) {
        if (face_up_in_tableau(s, c, seat))
            return true;
    }
    return false;
}

static bool others_have_face_up_card(const as_state *s, int seat)
{
    for (int p = 0; p < s->seats; p++) {
        if (p != seat && has_face_up_card(s, p))
            return true;
    }
    return false;
}

static bool pool_has_assistant(const as_state *s)
{
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] == AS_POOL)
            return true;
    }
    return false;
}

static void gain_silver(as_state *s, int seat, int n)
{
    if (n > s->bank)
        n = s->bank;
    s->bank -= n;
    s->silver[seat] += n;
}

static void pay_silver(as_state *s, int seat, int n)
{
    if (n > s->silver[seat])
        n = s->silver[seat];
    s->silver[seat] -= n;
    s->bank += n;
}

/* A task that nothing can satisfy lapses (no card to steal, no assistant
 * left, no face-up card to give or discard). */
static void normalize_task(as_state *s)
{
    int seat = s->turn;
    bool possible = true;
    switch (s->task) {
    case AS_TASK_STEAL:
        possible = others_have_face_up_card(s, seat);
        break;
    case AS_TASK_RECRUIT:
        possible = pool_has_assistant(s);
        break;
    case AS_TASK_GIVE:
    case AS_TASK_DISCARD:
        possible = has_face_up_card(s, seat);
        break;
    default:
        break;
    }
    if (s->task != AS_TASK_TREASURE && (s->task_count <= 0 || !possible))
        s->task = AS_TASK_NONE;
    if (s->task == AS_TASK_NONE) {
        s->task_count = 0;
        s->task_card = AS_NO_CARD;
    }
}

static void set_task(as_state *s, int task, int count)
{
    s->task = task;
    s->task_count = count;
    s->task_card = AS_NO_CARD;
    normalize_task(s);
}

static void resolve_fate(as_state *s, int seat, int card)
{
    s->flipped[card] = true;   /* RULING: resolved, so never again */
    switch (as_data.fate[as_card_number(card) - 1]) {
    case AS_FATE_GAIN2:
        gain_silver(s, seat, 2);
        break;
    case AS_FATE_GAIN1:
        gain_silver(s, seat, 1);
        break;
    case AS_FATE_EXTRA_ACTION:
        s->actions++;
        break;
    case AS_FATE_ASSISTANT:
        set_task(s, AS_TASK_RECRUIT, 1);
        break;
    case AS_FATE_LOSE1:
        pay_silver(s, seat, 1);
        break;
    case AS_FATE_LOSE2:
        pay_silver(s, seat, 2);
        break;
    case AS_FATE_GIVE:
        set_task(s, AS_TASK_GIVE, 1);
        break;
    case AS_FATE_LOSE_ACTION:
        s->skip[seat]++;
        break;
    case AS_FATE_DISCARD:
        set_task(s, AS_TASK_DISCARD, 1);
        break;
    default:
        break;
    }
}

/* The card in slot goes face up into seat's tableau; this uses the action. */
static void take_card(as_state *s, int seat, int slot)
{
    int card = s->temple[slot];
    s->temple[slot] = AS_NO_CARD;
    s->place[card] = AS_TABLEAU;
    s->owner[card] = (int8_t)seat;
    s->flipped[card] = false;
    for (int p = 0; p < RULES_MAX_SEATS; p++)
        s->peeked[p][card] = false;
    s->actions--;
    int stack = as_card_stack(card);
    if (stack == AS_CURSES) {
        resolve_fate(s, seat, card);
    } else if (stack == AS_TREASURES) {
        s->task = AS_TASK_TREASURE;
        s->task_count = 1;
        s->task_card = card;
    }
}

/* ---- reading an action --------------------------------------------------- */

static bool read_slot(const as_state *s, const json_t *action, int *slot,
                      rules_error *err)
{
    const char *at = json_string_value(json_object_get(action, "at"));
    if (at == NULL)
        return rules_fail(err, "name a temple position as \"at\": "
                               "\"layer.column.row\"");
    *slot = as_slot_parse(at);
    if (*slot < 0)
        return rules_fail(err, "%s is not a place in the temple (layers 0-2, "
                               "bottom 5x3, middle 4x2, top 3x1)", at);
    if (s->temple[*slot] == AS_NO_CARD)
        return rules_fail(err, "there is no card left at %s", at);
    return true;
}

/* Reads the optional "assistant" of dig and peek: -1 when absent. */
static bool read_helper(const as_state *s, int seat, const json_t *action,
                        int ability, int *assistant, rules_error *err)
{
    *assistant = -1;
    const json_t *value = json_object_get(action, "assistant");
    if (value == NULL)
        return true;
    const char *name = json_string_value(value);
    int a = name != NULL ? as_assistant_by_name(name) : -1;
    if (a < 0)
        return rules_fail(err, "there is no assistant called %s",
                          name != NULL ? name : "that");
    if (s->assistant_owner[a] != seat)
        return rules_fail(err, "the %s is not one of your assistants", name);
    if (s->assistant_used[a])
        return rules_fail(err, "your %s has already used the ability, which "
                               "works once", name);
    if (as_data.assistants[a].ability != ability)
        return rules_fail(err, "the %s's ability is to %s, not that", name,
                          as_data.ability_text[as_data.assistants[a].ability]);
    *assistant = a;
    return true;
}

static bool need_action(const as_state *s, rules_error *err)
{
    if (s->actions <= 0)
        return rules_fail(err, "you have no action left this turn: flip a "
                               "bonus, use an assistant or write done");
    return true;
}

static bool read_own_assistant(const as_state *s, int seat,
                               const json_t *action, int *assistant,
                               rules_error *err)
{
    const char *name = json_string_value(json_object_get(action, "assistant"));
    if (name == NULL)
        return rules_fail(err, "name the assistant");
    *assistant = as_assistant_by_name(name);
    if (*assistant < 0)
        return rules_fail(err, "there is no assistant called %s", name);
    (void)s;
    (void)seat;
    return true;
}

static bool read_card(const json_t *action, int *card, rules_error *err)
{
    const char *name = json_string_value(json_object_get(action, "card"));
    if (name == NULL)
        return rules_fail(err, "name the card, like coins3");
    *card = as_card_by_name(name);
    if (*card == AS_NO_CARD)
        return rules_fail(err, "there is no card called %s", name);
    return true;
}

/* ---- the moves ---------------------------------------------------------- */

static bool do_take(as_state *s, int seat, const json_t *action,
                    rules_error *err)
{
    int slot;
    if (!need_action(s, err) || !read_slot(s, action, &slot, err))
        return false;
    int covers = as_cover_count(s, slot);
    if (covers > 0)
        return rules_fail(err, "that card is covered by %d card%s: dig it out "
                               "for %d silver", covers, covers == 1 ? "" : "s",
                          covers);
    take_card(s, seat, slot);
    return true;
}

static bool do_dig(as_state *s, int seat, const json_t *action,
                   rules_error *err)
{
    int slot, helper;
    if (!need_action(s, err) || !read_slot(s, action, &slot, err) ||
        !read_helper(s, seat, action, AS_ABILITY_FREE_DIG, &helper, err))
        return false;
    int cost = as_cover_count(s, slot);
    if (cost == 0)
        return rules_fail(err, "that card is free: take it for nothing");
    if (helper >= 0) {
        s->assistant_used[helper] = true;
    } else {
        if (cost > s->silver[seat])
            return rules_fail(err, "digging out that card costs %d silver "
                                   "(1 per covering card) and you have %d",
                              cost, s->silver[seat]);
        pay_silver(s, seat, cost);
    }
    take_card(s, seat, slot);
    return true;
}

static bool do_peek(as_state *s, int seat, const json_t *action,
                    rules_error *err)
{
    int slot, helper;
    if (!read_slot(s, action, &slot, err) ||
        !read_helper(s, seat, action, AS_ABILITY_FREE_PEEK, &helper, err))
        return false;
    int card = s->temple[slot];
    if (!as_data.covered[as_card_number(card) - 1])
        return rules_fail(err, "that card lies face up: there is nothing to "
                               "peek at");
    if (s->actions <= 0)
        return rules_fail(err, "you may only peek before taking a card, and "
                               "you have no action left");
    if (s->peeked[seat][card])
        return rules_fail(err, "you have already peeked at that card");
    if (helper >= 0) {
        s->assistant_used[helper] = true;
    } else {
        if (s->silver[seat] < 1)
            return rules_fail(err, "peeking at a face-down card costs 1 silver "
                                   "and you have 0");
        pay_silver(s, seat, 1);
    }
    s->peeked[seat][card] = true;
    return true;
}

static bool do_hire(as_state *s, int seat, const json_t *action,
                    rules_error *err)
{
    int a;
    if (!need_action(s, err) || !read_own_assistant(s, seat, action, &a, err))
        return false;
    /* "Play continues until all cards of the first temple have been
     * taken"; "as soon as all cards of the second temple are taken, the
     * game ends": an action left over then lapses. */
    if (temple_empty(s))
        return rules_fail(err, "the temple is empty, so the round is over: "
                               "an action left over lapses");
    const char *name = as_data.assistants[a].name;
    if (s->assistant_owner[a] == AS_UNUSED_STACK)
        return rules_fail(err, "the %s belongs to a stack that is not in this "
                               "match", name);
    if (s->assistant_owner[a] != AS_POOL)
        return rules_fail(err, "the %s has already been hired", name);
    if (s->silver[seat] < 1)
        return rules_fail(err, "hiring an assistant costs 1 silver and you "
                               "have 0");
    pay_silver(s, seat, 1);
    s->assistant_owner[a] = (int8_t)seat;
    s->actions--;
    return true;
}

/* The cards of a flip: numbers 1..9 of one stack, increasing. */
static bool read_flip(const as_state *s, int seat, const json_t *action,
                      int *stack, int cards[AS_PER_STACK], int *count,
                      rules_error *err)
{
    const char *name = json_string_value(json_object_get(action, "stack"));
    if (name == NULL)
        return rules_fail(err, "name the stack whose bonus you activate");
    *stack = as_stack_by_name(name);
    if (*stack < 0)
        return rules_fail(err, "there is no stack called %s", name);
    if (!as_data.stack_flips[*stack])
        return rules_fail(err, "%s have no bonus to activate", name);
    const json_t *list = json_object_get(action, "cards");
    if (!json_is_array(list))
        return rules_fail(err, "list the card numbers to flip");
    *count = (int)json_array_size(list);
    if (*count > AS_PER_STACK)
        return rules_fail(err, "a stack has only %d cards", AS_PER_STACK);
    int last = 0;
    for (int i = 0; i < *count; i++) {
        const json_t *n = json_array_get(list, (size_t)i);
        if (!json_is_integer(n) || json_integer_value(n) < 1 ||
            json_integer_value(n) > AS_PER_STACK)
            return rules_fail(err, "card numbers run from 1 to %d",
                              AS_PER_STACK);
        int number = (int)json_integer_value(n);
        if (number <= last)
            return rules_fail(err, "list the card numbers once each, in "
                                   "increasing order");
        last = number;
        cards[i] = *stack * AS_PER_STACK + number - 1;
        if (!face_up_in_tableau(s, cards[i], seat))
            return rules_fail(err, "%s is not face up in your tableau "
                                   "(flipped cards are never reused)",
                              as_card_name(cards[i]));
    }
    return true;
}

static bool china_shape_ok(const int cards[], int count)
{
    char letters[3];
    for (int i = 0; i < count; i++)
        letters[i] = as_data.china_letter[as_card_number(cards[i]) - 1];
    bool same = true;
    for (int i = 1; i < count; i++)
        same = same && letters[i] == letters[0];
    if (same)
        return true;
    if (count != 3)
        return false;
    bool seen[3] = {false, false, false};
    for (int i = 0; i < 3; i++)
        seen[letters[i] - 'A'] = true;
    return seen[0] && seen[1] && seen[2];
}

static bool do_flip(as_state *s, int seat, const json_t *action,
                    rules_error *err)
{
    int stack = -1, count = 0;
    int cards[AS_PER_STACK];
    if (!read_flip(s, seat, action, &stack, cards, &count, err) ||
        stack < 0 || stack >= AS_STACKS)
        return false;
    const char *name = as_data.stack_names[stack];
    if (stack == AS_STATUES) {
        if (count < 2)
            return rules_fail(err, "a statue set to lock needs at least 2 "
                                   "statues");
    } else if (count < 2 || count > 3) {
        return rules_fail(err, "a bonus is activated with 2 or 3 %s, not %d",
                          name, count);
    }
    int bonus = count == 2 ? as_data.bonus_of_2 : as_data.bonus_of_3;
    switch (stack) {
    case AS_COINS:
        if (s->bank == 0)
            return rules_fail(err, "the bank has no silver left to pay the "
                                   "coins bonus");
        gain_silver(s, seat, bonus);
        break;
    case AS_WEAPONS:
        if (!others_have_face_up_card(s, seat))
            return rules_fail(err, "no other player has a face-up card to "
                                   "steal");
        break;
    case AS_JEWELRY:
        if (!pool_has_assistant(s))
            return rules_fail(err, "no assistant is left next to the temple "
                                   "for the jewelry bonus");
        break;
    case AS_MANUSCRIPTS:
        if (temple_empty(s))
            return rules_fail(err, "the temple is empty, so the round is "
                                   "over: extra actions would give nothing");
        s->actions += bonus;
        break;
    case AS_CHINA:
        if (!china_shape_ok(cards, count))
            return rules_fail(err, "a China set is 2 or 3 cards of the same "
                                   "letter, or one each of A, B and C");
        break;
    default:
        break;
    }
    for (int i = 0; i < count; i++) {
        s->flipped[cards[i]] = true;
        s->set[cards[i]] = (int8_t)cards[0];
    }
    if (stack == AS_WEAPONS)
        set_task(s, AS_TASK_STEAL, bonus);
    else if (stack == AS_JEWELRY)
        set_task(s, AS_TASK_RECRUIT, bonus);
    return true;
}

static bool do_use(as_state *s, int seat, const json_t *action,
                   rules_error *err)
{
    int a;
    if (!read_own_assistant(s, seat, action, &a, err))
        return false;
    const char *name = as_data.assistants[a].name;
    if (s->assistant_owner[a] != seat)
        return rules_fail(err, "the %s is not one of your assistants", name);
    if (s->assistant_used[a])
        return rules_fail(err, "your %s has already used the ability, which "
                               "works once", name);
    switch (as_data.assistants[a].ability) {
    case AS_ABILITY_EXTRA_ACTION:
        if (temple_empty(s))
            return rules_fail(err, "the temple is empty, so the round is "
                                   "over: an extra action would give "
                                   "nothing");
        s->actions++;
        break;
    case AS_ABILITY_STEAL:
        if (!others_have_face_up_card(s, seat))
            return rules_fail(err, "no other player has a face-up card to "
                                   "steal");
        break;
    case AS_ABILITY_SILVER:
        if (s->bank == 0)
            return rules_fail(err, "the bank has no silver left");
        gain_silver(s, seat, as_data.ability_silver);
        break;
    case AS_ABILITY_FREE_DIG:
        return rules_fail(err, "the %s digs for free as part of a dig: write "
                               "dig L.C.R with %s", name, name);
    case AS_ABILITY_FREE_PEEK:
        return rules_fail(err, "the %s peeks for free as part of a peek: "
                               "write peek L.C.R with %s", name, name);
    default:
        return rules_fail(err, "the %s's +2 VP count at the end by "
                               "themselves", name);
    }
    s->assistant_used[a] = true;
    if (as_data.assistants[a].ability == AS_ABILITY_STEAL)
        set_task(s, AS_TASK_STEAL, 1);
    return true;
}

static bool do_done(as_state *s, rules_error *err)
{
    if (s->actions > 0 && !temple_empty(s))
        return rules_fail(err, "you still have an action: take or dig out a "
                               "card, or hire an assistant");
    as_end_turn(s);
    return true;
}

/* What the open task asks, as a phrase: pending()'s prompt, and after
 * "first" the refusal of any other move. */
static const char *task_prompt(const as_state *s)
{
    switch (s->task) {
    case AS_TASK_TREASURE:
        return "keep or cash the treasure just taken";
    case AS_TASK_STEAL:
        return "steal a face-up card from another player";
    case AS_TASK_RECRUIT:
        return "recruit a free assistant";
    case AS_TASK_GIVE:
        return "give a face-up card to the next player";
    case AS_TASK_DISCARD:
        return "discard a face-up card to the box";
    default:
        return "";
    }
}

static bool do_task(as_state *s, int seat, const char *type,
                    const json_t *action, rules_error *err)
{
    int card, a;
    if (s->task == AS_TASK_TREASURE && strcmp(type, "keep") == 0) {
        s->task = AS_TASK_NONE;
    } else if (s->task == AS_TASK_TREASURE && strcmp(type, "cash") == 0) {
        int vp = as_data.treasure_vp[as_card_number(s->task_card) - 1];
        s->flipped[s->task_card] = true;
        gain_silver(s, seat, vp / as_data.treasure_cash_per_vp);
        s->task = AS_TASK_NONE;
    } else if (s->task == AS_TASK_STEAL && strcmp(type, "steal") == 0) {
        if (!read_card(action, &card, err))
            return false;
        if (s->place[card] != AS_TABLEAU || s->owner[card] == seat ||
            s->flipped[card])
            return rules_fail(err, "you may only steal a face-up card from "
                                   "another player's tableau");
        s->owner[card] = (int8_t)seat;
        s->task_count--;
    } else if (s->task == AS_TASK_RECRUIT && strcmp(type, "recruit") == 0) {
        if (!read_own_assistant(s, seat, action, &a, err))
            return false;
        if (s->assistant_owner[a] != AS_POOL)
            return rules_fail(err, "the %s is not waiting next to the temple",
                              as_data.assistants[a].name);
        s->assistant_owner[a] = (int8_t)seat;
        s->task_count--;
    } else if ((s->task == AS_TASK_GIVE && strcmp(type, "give") == 0) ||
               (s->task == AS_TASK_DISCARD && strcmp(type, "discard") == 0)) {
        if (!read_card(action, &card, err))
            return false;
        if (!face_up_in_tableau(s, card, seat))
            return rules_fail(err, "%s is not face up in your tableau",
                              as_card_name(card));
        if (s->task == AS_TASK_GIVE) {
            s->owner[card] = (int8_t)as_next_seat(s, seat);
        } else {
            s->place[card] = AS_BOX;
            s->owner[card] = -1;
        }
        s->task_count--;
    } else {
        return rules_fail(err, "first %s", task_prompt(s));
    }
    normalize_task(s);
    return true;
}

static const char *const task_types[] = {"keep", "cash", "steal", "recruit",
                                         "give", "discard"};

/* Applies action to s in place; on failure s may be half changed, so
 * callers work on a copy. Does not end idle turns (as_settle does). */
static bool apply_raw(as_state *s, int seat, const json_t *action,
                      rules_error *err)
{
    if (s->over)
        return rules_fail(err, "the match is over");
    if (seat < 0 || seat >= s->seats)
        return rules_fail(err, "there is no seat %d", seat);
    if (seat != s->turn)
        return rules_fail(err, "it is not your turn: seat %d is on turn",
                          s->turn);
    const char *type = json_string_value(json_object_get(action, "type"));
    if (!json_is_object(action) || type == NULL)
        return rules_fail(err, "a move is an object with a \"type\"");
    if (s->task != AS_TASK_NONE)
        return do_task(s, seat, type, action, err);
    for (size_t i = 0; i < sizeof task_types / sizeof task_types[0]; i++) {
        if (strcmp(type, task_types[i]) == 0)
            return rules_fail(err, "there is nothing to %s now: that only "
                                   "follows a treasure, a bonus or a curse",
                              type);
    }
    if (strcmp(type, "take") == 0)
        return do_take(s, seat, action, err);
    if (strcmp(type, "dig") == 0)
        return do_dig(s, seat, action, err);
    if (strcmp(type, "peek") == 0)
        return do_peek(s, seat, action, err);
    if (strcmp(type, "hire") == 0)
        return do_hire(s, seat, action, err);
    if (strcmp(type, "flip") == 0)
        return do_flip(s, seat, action, err);
    if (strcmp(type, "use") == 0)
        return do_use(s, seat, action, err);
    if (strcmp(type, "done") == 0)
        return do_done(s, err);
    return rules_fail(err, "there is no move called %s: take, dig, peek, "
                           "hire, flip, use or done", type);
}

/* ---- candidates ------------------------------------------------------------ */

static void add(json_t *list, json_t *move)
{
    json_array_append_new(list, move);
}

/* Every move that might be legal now for the seat on turn (a superset). */
static json_t *candidates(const as_state *s, bool include_done)
{
    json_t *list = json_array();
    int seat = s->turn;
    char at[8];
    switch (s->task) {
    case AS_TASK_TREASURE:
        add(list, json_pack("{s:s}", "type", "keep"));
        add(list, json_pack("{s:s}", "type", "cash"));
        return list;
    case AS_TASK_STEAL:
    case AS_TASK_GIVE:
    case AS_TASK_DISCARD: {
        const char *type = s->task == AS_TASK_STEAL ? "steal"
                           : s->task == AS_TASK_GIVE ? "give" : "discard";
        for (int c = 0; c < AS_CARDS; c++) {
            if (s->place[c] == AS_TABLEAU && !s->flipped[c])
                add(list, json_pack("{s:s,s:s}", "type", type, "card",
                                    as_card_name(c)));
        }
        return list;
    }
    case AS_TASK_RECRUIT:
        for (int a = 0; a < AS_ASSISTANTS; a++) {
            if (s->assistant_owner[a] == AS_POOL)
                add(list, json_pack("{s:s,s:s}", "type", "recruit",
                                    "assistant", as_data.assistants[a].name));
        }
        return list;
    default:
        break;
    }
    for (int slot = 0; slot < AS_TEMPLE; slot++) {
        if (s->temple[slot] == AS_NO_CARD)
            continue;
        as_slot_text(slot, at);
        add(list, json_pack("{s:s,s:s}", "type", "take", "at", at));
        add(list, json_pack("{s:s,s:s}", "type", "dig", "at", at));
        add(list, json_pack("{s:s,s:s}", "type", "peek", "at", at));
        for (int a = 0; a < AS_ASSISTANTS; a++) {
            if (s->assistant_owner[a] != seat || s->assistant_used[a])
                continue;
            int ability = as_data.assistants[a].ability;
            if (ability == AS_ABILITY_FREE_DIG)
                add(list, json_pack("{s:s,s:s,s:s}", "type", "dig", "at", at,
                                    "assistant", as_data.assistants[a].name));
            if (ability == AS_ABILITY_FREE_PEEK)
                add(list, json_pack("{s:s,s:s,s:s}", "type", "peek", "at", at,
                                    "assistant", as_data.assistants[a].name));
        }
    }
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] == AS_POOL)
            add(list, json_pack("{s:s,s:s}", "type", "hire", "assistant",
                                as_data.assistants[a].name));
        if (s->assistant_owner[a] == seat && !s->assistant_used[a])
            add(list, json_pack("{s:s,s:s}", "type", "use", "assistant",
                                as_data.assistants[a].name));
    }
    for (int stack = 0; stack < AS_STACKS; stack++) {
        if (!s->in_play[stack] || !as_data.stack_flips[stack])
            continue;
        int own[AS_PER_STACK];
        int n = 0;
        for (int k = 0; k < AS_PER_STACK; k++) {
            int c = stack * AS_PER_STACK + k;
            if (face_up_in_tableau(s, c, seat))
                own[n++] = k + 1;
        }
        int max = stack == AS_STATUES ? n : 3;
        for (unsigned mask = 1; mask < (1u << n); mask++) {
            int size = __builtin_popcount(mask);
            if (size < 2 || size > max)
                continue;
            json_t *numbers = json_array();
            for (int k = 0; k < n; k++) {
                if (mask & (1u << k))
                    json_array_append_new(numbers, json_integer(own[k]));
            }
            add(list, json_pack("{s:s,s:s,s:o}", "type", "flip", "stack",
                                as_data.stack_names[stack], "cards", numbers));
        }
    }
    if (include_done)
        add(list, json_pack("{s:s}", "type", "done"));
    return list;
}

static json_t *filter_legal(const as_state *s, json_t *list)
{
    json_t *legal = json_array();
    size_t i;
    json_t *move;
    json_array_foreach(list, i, move) {
        as_state copy = *s;
        if (apply_raw(&copy, s->turn, move, NULL))
            json_array_append(legal, move);
    }
    json_decref(list);
    return legal;
}

/* Does the seat on turn have anything to do besides ending the turn? */
static bool has_something_to_do(const as_state *s)
{
    if (s->task != AS_TASK_NONE)
        return true;
    if (s->actions > 0 && !temple_empty(s))
        return true;
    json_t *moves = filter_legal(s, candidates(s, false));
    bool any = json_array_size(moves) > 0;
    json_decref(moves);
    return any;
}

void as_settle(as_state *s)
{
    while (!s->over && !has_something_to_do(s))
        as_end_turn(s);
}

/* ---- the interface ------------------------------------------------------- */

bool as_apply(rules_state *state, int seat, const json_t *action,
              rules_error *err)
{
    as_state *s = (as_state *)state;
    as_state copy = *s;
    if (!apply_raw(&copy, seat, action, err))
        return false;
    as_settle(&copy);
    *s = copy;
    return true;
}

json_t *as_legal(const rules_state *state, int seat)
{
    const as_state *s = (const as_state *)state;
    json_t *moves;
    if (s->over || seat != s->turn)
        moves = json_array();
    else
        moves = filter_legal(s, candidates(s, true));
    return json_pack(
        "{s:o,s:b,s:[s,s,s,s,s,s,s,s,s,s,s,s,s,s]}", "moves", moves,
        "complete", 1, "forms", "take L.C.R", "dig L.C.R",
        "dig L.C.R with ASSISTANT", "peek L.C.R", "peek L.C.R with ASSISTANT",
        "hire ASSISTANT", "flip STACK N N [N]", "use ASSISTANT", "done",
        "keep | cash", "steal CARD", "recruit ASSISTANT", "give CARD",
        "discard CARD");
}

void as_pending(const rules_state *state, rules_pending *out)
{
    const as_state *s = (const as_state *)state;
    memset(out, 0, sizeof *out);
    if (s->over)
        return;
    out->wait = RULES_WAIT_ONE;
    out->seats = 1u << s->turn;
    /* One phrase, read after "Your turn:" and after "waiting for another
     * seat to": no colon, no "your". */
    if (s->task != AS_TASK_NONE)
        snprintf(out->prompt, sizeof out->prompt, "%s", task_prompt(s));
    else if (s->actions > 0 && !temple_empty(s))
        snprintf(out->prompt, sizeof out->prompt,
                 "take or dig out a card, or hire an assistant (round %d, "
                 "%d action%s left)", s->round, s->actions,
                 s->actions == 1 ? "" : "s");
    else
        snprintf(out->prompt, sizeof out->prompt,
                 "flip a bonus, use an assistant, or write done (round %d)",
                 s->round);
}
