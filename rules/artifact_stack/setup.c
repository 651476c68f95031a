/* setup.c: the match options, the first temple, and the flow of turns and
 * rounds (the second temple, the reversed order, the end of the match). */
#include "artifact_stack_internal.h"

#include <stdlib.h>
#include <string.h>

json_t *as_describe_options(void)
{
    return json_pack(
        "{s:{s:s,s:s,s:s}}", "stacks", "type", "string", "default", "random",
        "description",
        "which 6 of the 10 artifact stacks are in play: \"random\" (the "
        "default) draws 6 of them at random when the match is created, "
        "as the rulebook's \"choose 6\"; or name 6, comma-separated, "
        "from statues, coins, weapons, manuscripts, jewelry, relics, "
        "curses, china, monsters, treasures");
}

/* Reads "a,b,c,d,e,f" into in_play; false with err on a bad list. */
static bool parse_stacks(const char *text, bool in_play[AS_STACKS],
                         rules_error *err)
{
    char buf[256];
    if (strlen(text) >= sizeof buf)
        return rules_fail(err, "option stacks is too long");
    strcpy(buf, text);
    int count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save)) {
        int stack = as_stack_by_name(tok);
        if (stack < 0)
            return rules_fail(err, "option stacks: there is no stack called "
                                   "\"%s\"", tok);
        if (in_play[stack])
            return rules_fail(err, "option stacks names %s twice", tok);
        in_play[stack] = true;
        count++;
    }
    if (count != AS_STACKS_IN_PLAY)
        return rules_fail(err, "option stacks must name exactly %d of the %d "
                               "stacks (it names %d)", AS_STACKS_IN_PLAY,
                          AS_STACKS, count);
    return true;
}

static void start_turn(as_state *s)
{
    s->actions = 1;
    s->task = AS_TASK_NONE;
    s->task_count = 0;
    s->task_card = AS_NO_CARD;
    if (s->skip[s->turn] > 0) {
        s->skip[s->turn]--;
        s->actions = 0;
    }
}

rules_state *as_setup(const json_t *options, int seats,
                      const uint8_t seed[RULES_SEED_BYTES], rules_error *err)
{
    json_t *declared = as_describe_options();
    json_t *resolved = rules_resolve_options(declared, options, err);
    json_decref(declared);
    if (resolved == NULL)
        return NULL;
    if (seats < as_data.min_seats || seats > as_data.max_seats) {
        json_decref(resolved);
        rules_fail(err, "Artifact Stack is for %d to %d players",
                   as_data.min_seats, as_data.max_seats);
        return NULL;
    }
    as_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    s->seats = seats;
    rules_rng_init(&s->rng, seed);
    const char *stacks = json_string_value(json_object_get(resolved, "stacks"));
    if (strcmp(stacks, "random") == 0) {
        int order[AS_STACKS];
        for (int i = 0; i < AS_STACKS; i++)
            order[i] = i;
        rules_rng_shuffle(&s->rng, order, AS_STACKS, sizeof order[0]);
        for (int i = 0; i < AS_STACKS_IN_PLAY; i++)
            s->in_play[order[i]] = true;
    } else if (!parse_stacks(stacks, s->in_play, err)) {
        json_decref(resolved);
        free(s);
        return NULL;
    }
    json_decref(resolved);

    int deck[AS_CARDS_IN_PLAY];
    int n = 0;
    for (int c = 0; c < AS_CARDS; c++) {
        s->owner[c] = -1;
        s->set[c] = -1;
        s->place[c] = AS_OUT;
        if (s->in_play[as_card_stack(c)])
            deck[n++] = c;
    }
    rules_rng_shuffle(&s->rng, deck, (size_t)n, sizeof deck[0]);
    for (int i = 0; i < AS_TEMPLE; i++) {
        s->temple[i] = deck[i];
        s->place[deck[i]] = AS_IN_TEMPLE;
    }
    for (int i = AS_TEMPLE; i < n; i++) {
        s->stock[s->stock_count++] = deck[i];
        s->place[deck[i]] = AS_STOCK;
    }
    for (int a = 0; a < AS_ASSISTANTS; a++)
        s->assistant_owner[a] = s->in_play[as_data.assistants[a].stack]
                                    ? AS_POOL : AS_UNUSED_STACK;
    s->bank = as_data.silver_total;
    for (int p = 0; p < seats; p++) {
        s->silver[p] = as_data.start_silver;
        s->bank -= as_data.start_silver;
    }
    s->round = 1;
    s->first = (int)rules_rng_below(&s->rng, (uint32_t)seats);
    s->turn = s->first;
    start_turn(s);
    return (rules_state *)s;
}

int as_next_seat(const as_state *s, int seat)
{
    if (s->round == 1)
        return (seat + 1) % s->seats;
    return (seat + s->seats - 1) % s->seats;
}

static bool temple_empty(const as_state *s)
{
    for (int i = 0; i < AS_TEMPLE; i++) {
        if (s->temple[i] != AS_NO_CARD)
            return false;
    }
    return true;
}

/* Round 2: the second temple from the stock, 2 cards left over leave the
 * game unseen; play runs counter-clockwise from the seat that was last in
 * round 1's order, so round 1's start player is now last. */
static void build_second_temple(as_state *s)
{
    int dealt = 0;
    for (int i = 0; i < s->stock_count; i++) {
        int card = s->stock[i];
        if (dealt < AS_TEMPLE) {
            s->temple[dealt++] = card;
            s->place[card] = AS_IN_TEMPLE;
        } else {
            s->place[card] = AS_REMOVED;
        }
    }
    s->stock_count = 0;
    s->round = 2;
    s->turn = (s->first + s->seats - 1) % s->seats;
}

void as_end_turn(as_state *s)
{
    s->actions = 0;
    s->task = AS_TASK_NONE;
    s->task_count = 0;
    s->task_card = AS_NO_CARD;
    if (temple_empty(s)) {
        if (s->round == 2) {
            s->over = true;
            return;
        }
        build_second_temple(s);
    } else {
        s->turn = as_next_seat(s, s->turn);
    }
    start_turn(s);
}
