/* toy_engine.c: a tiny game that exercises every part of rules.h, so the
 * harness is tested before real engines rely on it.
 * Seats take turns adding 1 or 2 to a public counter; after every third
 * turn all seats secretly guess the counter's parity (a simultaneous
 * decision) and a right guess scores 1. The match ends at counter >= 12.
 * Each add also draws a card (a gem with a number, "opal17") that only its
 * drawer sees: the hidden information the doors' tests look for in what
 * other seats are told. */
#include "rules.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct toy_state {
    int seats;
    int counter;
    int turn;        /* seat to add */
    int turns_done;
    int guessing;    /* 1 during the simultaneous guess */
    int guess[RULES_MAX_SEATS]; /* -1 = not yet */
    int score[RULES_MAX_SEATS];
    int card[RULES_MAX_SEATS];  /* the last card drawn (0: none), hidden */
    int drawn[RULES_MAX_SEATS]; /* how many, public */
    rules_rng rng;
} toy_state;

/* A card's name: a gem and a number, 10 .. 99, so a test can search any
 * text for it. */
static void card_name(int card, char out[16])
{
    static const char *const gems[] = {"opal", "ruby", "jade", "onyx"};
    snprintf(out, 16, "%s%d", gems[card % 4], 10 + card / 4);
}

static json_t *toy_options(void)
{
    return json_pack("{s:{s:s,s:i,s:i,s:i,s:s}}", "goal", "type", "integer",
                     "default", 12, "minimum", 3, "maximum", 50,
                     "description", "counter value that ends the match");
}

static rules_state *toy_setup(const json_t *options, int seats,
                              const uint8_t seed[RULES_SEED_BYTES],
                              rules_error *err)
{
    json_t *declared = toy_options();
    json_t *resolved = rules_resolve_options(declared, options, err);
    json_decref(declared);
    if (resolved == NULL)
        return NULL;
    json_decref(resolved);
    if (seats < 2 || seats > 4) {
        rules_fail(err, "toy is for 2 to 4 seats");
        return NULL;
    }
    toy_state *s = calloc(1, sizeof *s);
    s->seats = seats;
    rules_rng_init(&s->rng, seed);
    s->turn = (int)rules_rng_below(&s->rng, (uint32_t)seats);
    for (int i = 0; i < RULES_MAX_SEATS; i++)
        s->guess[i] = -1;
    return (rules_state *)s;
}

static rules_state *toy_clone(const rules_state *state)
{
    toy_state *copy = malloc(sizeof *copy);
    memcpy(copy, state, sizeof *copy);
    return (rules_state *)copy;
}

static void toy_destroy(rules_state *state)
{
    free(state);
}

static void toy_pending(const rules_state *state, rules_pending *out)
{
    const toy_state *s = (const toy_state *)state;
    memset(out, 0, sizeof *out);
    if (s->counter >= 12)
        return;
    if (s->guessing) {
        out->wait = RULES_WAIT_SIMULTANEOUS;
        for (int i = 0; i < s->seats; i++) {
            if (s->guess[i] < 0)
                out->seats |= 1u << i;
        }
        snprintf(out->decision, sizeof out->decision, "t%d-parity",
                 s->turns_done);
        snprintf(out->prompt, sizeof out->prompt, "guess even or odd");
        return;
    }
    out->wait = RULES_WAIT_ONE;
    out->seats = 1u << s->turn;
    snprintf(out->prompt, sizeof out->prompt, "add 1 or 2");
}

static bool toy_apply(rules_state *state, int seat, const json_t *action,
                      rules_error *err)
{
    toy_state *s = (toy_state *)state;
    rules_pending p;
    toy_pending(state, &p);
    if (seat < 0 || seat >= s->seats || !(p.seats & (1u << seat)))
        return rules_fail(err, "it is not your turn");
    const char *type = json_string_value(json_object_get(action, "type"));
    json_int_t n = json_integer_value(json_object_get(action, "n"));
    if (type == NULL)
        return rules_fail(err, "a move needs a type");
    if (s->guessing) {
        if (strcmp(type, "guess") != 0 || n < 0 || n > 1)
            return rules_fail(err, "guess 0 (even) or 1 (odd)");
        s->guess[seat] = (int)n;
        for (int i = 0; i < s->seats; i++) {
            if (s->guess[i] < 0)
                return true;
        }
        for (int i = 0; i < s->seats; i++) {
            if (s->guess[i] == s->counter % 2)
                s->score[i]++;
            s->guess[i] = -1;
        }
        s->guessing = 0;
        return true;
    }
    if (strcmp(type, "add") != 0 || n < 1 || n > 2)
        return rules_fail(err, "add 1 or 2");
    s->counter += (int)n;
    s->card[seat] = 1 + (int)rules_rng_below(&s->rng, 359);
    s->drawn[seat]++;
    s->turn = (s->turn + 1) % s->seats;
    s->turns_done++;
    if (s->turns_done % 3 == 0 && s->counter < 12)
        s->guessing = 1;
    return true;
}

static json_t *toy_view(const rules_state *state, int seat)
{
    const toy_state *s = (const toy_state *)state;
    json_t *chosen = json_array();
    for (int i = 0; i < s->seats; i++)
        json_array_append_new(chosen, json_boolean(s->guess[i] >= 0));
    json_t *drawn = json_array();
    for (int i = 0; i < s->seats; i++)
        json_array_append_new(drawn, json_integer(s->drawn[i]));
    json_t *view = json_pack("{s:i,s:o,s:o}", "counter", s->counter, "chosen",
                             chosen, "drawn", drawn);
    if (seat >= 0 && s->card[seat] > 0) {
        char card[16];
        card_name(s->card[seat], card);
        json_object_set_new(view, "card", json_string(card));
    }
    if (seat >= 0 && s->guess[seat] >= 0)
        json_object_set_new(view, "my_guess", json_integer(s->guess[seat]));
    return view;
}

static char *toy_view_text(const rules_state *state, int seat)
{
    const toy_state *s = (const toy_state *)state;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    fprintf(out, "Counter: %d\n", s->counter);
    if (s->guessing)
        fprintf(out, "Everyone guesses whether it is even or odd.\n");
    else
        fprintf(out, "Seat %d adds 1 or 2.\n", s->turn + 1);
    if (seat >= 0 && s->guess[seat] >= 0)
        fprintf(out, "Your guess: %s\n", s->guess[seat] ? "odd" : "even");
    if (seat >= 0 && s->card[seat] > 0) {
        char card[16];
        card_name(s->card[seat], card);
        fprintf(out, "Your card: %s\n", card);
    }
    for (int i = 0; i < s->seats; i++)
        fprintf(out, "Seat %d: %d points\n", i + 1, s->score[i]);
    fclose(out);
    return text;
}

static json_t *toy_legal(const rules_state *state, int seat)
{
    const toy_state *s = (const toy_state *)state;
    rules_pending p;
    toy_pending(state, &p);
    json_t *moves = json_array();
    if (seat >= 0 && (p.seats & (1u << seat))) {
        const char *type = s->guessing ? "guess" : "add";
        int base = s->guessing ? 0 : 1;
        for (int n = base; n <= base + 1; n++)
            json_array_append_new(moves, json_pack("{s:s,s:i}", "type", type,
                                                   "n", n));
    }
    return json_pack("{s:o,s:b,s:[s,s]}", "moves", moves, "complete", 1,
                     "forms", "add N", "guess N");
}

static char *toy_format(const rules_state *state, int seat,
                        const json_t *action)
{
    (void)state;
    (void)seat;
    const char *type = json_string_value(json_object_get(action, "type"));
    if (type == NULL)
        return NULL;
    char *text = NULL;
    if (asprintf(&text, "%s %lld", type,
                 (long long)json_integer_value(json_object_get(action, "n"))) < 0)
        abort();
    return text;
}

static json_t *toy_parse(const rules_state *state, int seat, const char *text,
                         rules_error *err)
{
    (void)state;
    (void)seat;
    char type[16];
    int n;
    if (sscanf(text, "%15s %d", type, &n) != 2) {
        rules_fail(err, "write \"add N\" or \"guess N\"");
        return NULL;
    }
    return json_pack("{s:s,s:i}", "type", type, "n", n);
}

static json_t *toy_result(const rules_state *state)
{
    const toy_state *s = (const toy_state *)state;
    json_t *scores = json_array();
    json_t *ranking = json_array();
    for (int i = 0; i < s->seats; i++)
        json_array_append_new(scores, json_integer(s->score[i]));
    for (int points = 100; points >= 0; points--) {
        json_t *place = json_array();
        for (int i = 0; i < s->seats; i++) {
            if (s->score[i] == points)
                json_array_append_new(place, json_integer(i));
        }
        if (json_array_size(place) > 0)
            json_array_append(ranking, place);
        json_decref(place);
    }
    return json_pack("{s:b,s:o,s:o}", "over", s->counter >= 12, "scores",
                     scores, "ranking", ranking);
}

static json_t *toy_save(const rules_state *state)
{
    const toy_state *s = (const toy_state *)state;
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    json_t *guess = json_array();
    json_t *score = json_array();
    json_t *card = json_array();
    json_t *drawn = json_array();
    for (int i = 0; i < s->seats; i++) {
        json_array_append_new(guess, json_integer(s->guess[i]));
        json_array_append_new(score, json_integer(s->score[i]));
        json_array_append_new(card, json_integer(s->card[i]));
        json_array_append_new(drawn, json_integer(s->drawn[i]));
    }
    return json_pack("{s:i,s:i,s:i,s:i,s:b,s:o,s:o,s:o,s:o,s:{s:s,s:I}}",
                     "seats", s->seats, "counter", s->counter, "turn",
                     s->turn, "turns_done", s->turns_done, "guessing",
                     s->guessing, "guess", guess, "score", score, "card",
                     card, "drawn", drawn, "rng", "seed", seed, "counter",
                     (json_int_t)s->rng.counter);
}

static rules_state *toy_load(const json_t *snapshot, rules_error *err)
{
    toy_state *s = calloc(1, sizeof *s);
    json_t *guess, *score, *card, *drawn;
    const char *seed;
    json_int_t counter;
    if (json_unpack((json_t *)snapshot,
                    "{s:i,s:i,s:i,s:i,s:b,s:o,s:o,s:o,s:o,s:{s:s,s:I}}",
                    "seats", &s->seats, "counter", &s->counter, "turn",
                    &s->turn, "turns_done", &s->turns_done, "guessing",
                    &s->guessing, "guess", &guess, "score", &score, "card",
                    &card, "drawn", &drawn, "rng", "seed", &seed, "counter",
                    &counter) != 0 ||
        !rules_rng_seed_from_hex(&s->rng, seed)) {
        free(s);
        rules_fail(err, "not a toy snapshot");
        return NULL;
    }
    s->rng.counter = (uint64_t)counter;
    for (int i = 0; i < RULES_MAX_SEATS; i++)
        s->guess[i] = -1;
    for (int i = 0; i < s->seats; i++) {
        s->guess[i] = (int)json_integer_value(json_array_get(guess, (size_t)i));
        s->score[i] = (int)json_integer_value(json_array_get(score, (size_t)i));
        s->card[i] = (int)json_integer_value(json_array_get(card, (size_t)i));
        s->drawn[i] = (int)json_integer_value(json_array_get(drawn, (size_t)i));
    }
    return (rules_state *)s;
}

static bool toy_check(const rules_state *state, rules_error *err)
{
    const toy_state *s = (const toy_state *)state;
    if (s->counter < 0 || s->turn < 0 || s->turn >= s->seats)
        return rules_fail(err, "counter or turn out of range");
    return true;
}

/* What a move did: the drawer is told its card, the others only that a
 * card was drawn; a guess is told once the guessing is over. */
static char *toy_tell(const rules_state *before, const rules_state *after,
                      int actor, const json_t *action, int viewer,
                      const char *const *names)
{
    (void)before;
    const toy_state *s = (const toy_state *)after;
    const char *type = json_string_value(json_object_get(action, "type"));
    long long n = (long long)json_integer_value(json_object_get(action, "n"));
    const char *who = actor == viewer ? "You" : names[actor];
    char *text = NULL;
    int len;
    if (type != NULL && strcmp(type, "add") == 0) {
        char card[16];
        card_name(s->card[actor], card);
        len = actor == viewer
                  ? asprintf(&text, "You added %lld and drew %s.", n, card)
                  : asprintf(&text, "%s added %lld and drew a card.", who, n);
    } else if (s->guessing) {
        len = asprintf(&text, "%s guessed.", who);
    } else {
        len = asprintf(&text, "%s guessed %s.", who, n ? "odd" : "even");
    }
    if (len < 0)
        abort();
    return text;
}

const rules_engine toy_engine = {
    .name = "toy", .title = "Toy", .version = 1, .min_seats = 2,
    .max_seats = 4, .describe_options = toy_options, .setup = toy_setup,
    .clone = toy_clone, .destroy = toy_destroy, .pending = toy_pending,
    .apply = toy_apply, .view = toy_view, .view_text = toy_view_text,
    .legal = toy_legal,
    .format_move = toy_format, .parse_move = toy_parse,
    .result = toy_result, .save = toy_save, .load = toy_load,
    .check = toy_check, .tell = toy_tell,
};
