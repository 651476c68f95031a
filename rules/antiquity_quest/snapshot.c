/* snapshot.c: the complete state as JSON (README "Snapshot"), its
 * validating inverse, and the invariants every state keeps. */
#include "aq_internal.h"

#include <stdlib.h>
#include <string.h>

#define AQ_SNAPSHOT_VERSION 1

static const char *const phase_names[] = {"draw", "play", "final", "over"};

/* A pile is one string of tokens separated by blanks, bottom first: far
 * cheaper to build and read than an array of strings. */
static json_t *pile_json(const uint8_t *cards, int count)
{
    char text[AQ_CARDS * 16 + 1];
    size_t at = 0;
    for (int i = 0; i < count; i++) {
        char token[16];
        aq_card_token(cards[i], token);
        size_t n = strlen(token);
        if (i > 0)
            text[at++] = ' ';
        memcpy(text + at, token, n);
        at += n;
    }
    text[at] = '\0';
    return json_stringn(text, at);
}

static json_t *nullable(int value)
{
    return value == AQ_NONE ? json_null() : json_integer(value);
}

static json_t *seat_list(uint32_t mask, int seats)
{
    json_t *list = json_array();
    for (int i = 0; i < seats; i++) {
        if (mask & (1u << i))
            json_array_append_new(list, json_integer(i));
    }
    return list;
}

static json_t *choice_save(const aq_final_choice *c)
{
    if (!c->made)
        return json_null();
    json_t *plays = json_array();
    for (int p = 0; p < c->plays; p++) {
        const aq_final_play *fp = &c->play[p];
        json_array_append_new(
            plays, json_pack("{s:i,s:o}", "collection", fp->target, "cards",
                             pile_json(c->card + fp->first, fp->count)));
    }
    return plays;
}

json_t *aq_save(const aq_state *s)
{
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    json_t *hands = json_array();
    json_t *choices = json_array();
    for (int seat = 0; seat < s->seats; seat++) {
        json_array_append_new(hands, pile_json(s->hand[seat].card,
                                               s->hand[seat].count));
        json_array_append_new(choices, choice_save(&s->choice[seat]));
    }
    json_t *sides = json_array();
    for (int side = 0; side < s->sides; side++) {
        json_array_append_new(
            sides,
            json_pack("{s:o,s:b,s:o,s:o,s:i,s:i}", "cache",
                      pile_json(s->cache[side].card, s->cache[side].count),
                      "cache_taken", s->cache_taken[side], "started_turn",
                      nullable(s->started_turn[side]), "civilization",
                      s->civ[side] == AQ_NONE
                          ? json_null()
                          : json_string(aq_suit_text(s->civ[side])),
                      "played_points", s->played_points[side], "total",
                      s->total[side]));
    }
    json_t *colls = json_array();
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        json_array_append_new(colls, json_pack("{s:i,s:i,s:o}", "id", c->id,
                                               "side", c->side, "cards",
                                               pile_json(c->card, c->count)));
    }
    json_t *rounds = json_array();
    for (int r = 0; r < s->rounds_done; r++) {
        json_t *scores = json_array();
        for (int side = 0; side < s->sides; side++) {
            json_t *one = aq_round_score_json(&s->score[r][side]);
            int civ = s->round_civ[r][side];
            json_object_set_new(one, "assigned",
                                civ == AQ_NONE ? json_null()
                                               : json_string(aq_suit_text(civ)));
            json_array_append_new(scores, one);
        }
        json_array_append_new(
            rounds, json_pack("{s:o,s:o}", "going_out",
                              nullable(s->round_going_out[r]), "sides", scores));
    }
    return json_pack(
        "{s:s,s:i,s:o,s:i,s:{s:s,s:I},s:i,s:i,s:i,s:i,s:s,s:o,s:o,"
        "s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:o,s:o}",
        "game", "antiquity_quest", "version", AQ_SNAPSHOT_VERSION, "options",
        aq_options_json(&s->opt), "seats", s->seats, "rng", "seed", seed,
        "counter", (json_int_t)s->rng.counter, "round", s->round, "first",
        s->first, "turn", s->turn, "turn_no", s->turn_no, "phase",
        phase_names[s->phase], "going_out", nullable(s->going_out),
        "final_left", seat_list(s->final_left, s->seats), "draw_pile",
        pile_json(s->draw.card, s->draw.count), "discard_pile",
        pile_json(s->discard.card, s->discard.count), "character_pile",
        pile_json(s->character.card, s->character.count), "hands", hands,
        "sides", sides, "collections", colls, "next_collection", s->next_id,
        "final_choices", choices, "rounds_scored", rounds);
}

/* ---- load ----------------------------------------------------------------- */

typedef struct loader {
    rules_error *err;
    bool ok;
} loader;

static bool fail(loader *l, const char *what)
{
    if (l->ok)
        rules_fail(l->err, "not an Antiquity Quest snapshot: %s", what);
    l->ok = false;
    return false;
}

static int get_int(loader *l, const json_t *obj, const char *key, int lo, int hi)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo ||
        json_integer_value(v) > hi) {
        fail(l, key);
        return lo;
    }
    return (int)json_integer_value(v);
}

static int get_nullable(loader *l, const json_t *obj, const char *key, int lo,
                        int hi)
{
    if (json_is_null(json_object_get(obj, key)))
        return AQ_NONE;
    return get_int(l, obj, key, lo, hi);
}

static bool get_bool(loader *l, const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_boolean(v))
        fail(l, key);
    return json_is_true(v);
}

static int get_cards(loader *l, const json_t *list, uint8_t *out, int max,
                     const char *what)
{
    const char *text = json_string_value(list);
    if (text == NULL || strlen(text) > (size_t)AQ_CARDS * 16) {
        fail(l, what);
        return 0;
    }
    char copy[AQ_CARDS * 16 + 1];
    strcpy(copy, text);
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w != NULL;
         w = strtok_r(NULL, " ", &save)) {
        int id = aq_token_parse(w);
        if (id == AQ_NONE || n >= max) {
            fail(l, what);
            return 0;
        }
        out[n++] = (uint8_t)id;
    }
    return n;
}

static int get_suit(loader *l, const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    if (json_is_null(v))
        return AQ_NONE;
    int suit = json_is_string(v) ? aq_suit_parse(json_string_value(v)) : AQ_NONE;
    if (suit == AQ_NONE)
        fail(l, key);
    return suit;
}

static void load_pile(loader *l, const json_t *obj, const char *key,
                      aq_pile *pile)
{
    pile->count = get_cards(l, json_object_get(obj, key), pile->card, AQ_CARDS,
                            key);
}

static void load_choice(loader *l, const json_t *v, aq_final_choice *c)
{
    if (json_is_null(v))
        return;
    if (!json_is_array(v) || json_array_size(v) > AQ_MAX_FINAL_PLAYS) {
        fail(l, "final_choices");
        return;
    }
    c->made = true;
    size_t i;
    const json_t *play;
    json_array_foreach(v, i, play) {
        aq_final_play *fp = &c->play[c->plays++];
        fp->target = get_int(l, play, "collection", 0, 100000);
        fp->first = c->cards;
        fp->count = get_cards(l, json_object_get(play, "cards"),
                              c->card + c->cards, AQ_CARDS - c->cards,
                              "final_choices");
        c->cards += fp->count;
    }
}

static void load_rounds(loader *l, const json_t *list, aq_state *s)
{
    if (!json_is_array(list) || json_array_size(list) > AQ_MAX_ROUNDS) {
        fail(l, "rounds_scored");
        return;
    }
    s->rounds_done = (int)json_array_size(list);
    size_t r;
    const json_t *round;
    json_array_foreach(list, r, round) {
        s->round_going_out[r] =
            get_nullable(l, round, "going_out", 0, s->seats - 1);
        const json_t *scores = json_object_get(round, "sides");
        if (!json_is_array(scores) || (int)json_array_size(scores) != s->sides) {
            fail(l, "rounds_scored");
            return;
        }
        for (int side = 0; side < s->sides; side++) {
            const json_t *one = json_array_get(scores, (size_t)side);
            aq_round_score *sc = &s->score[r][side];
            sc->bonus = get_int(l, one, "bonus", 0, 500);
            sc->collections = get_int(l, one, "collections", 0, 1000000);
            sc->played = get_int(l, one, "played", 0, 1000000);
            sc->unplayed = get_int(l, one, "unplayed", -1000000, 0);
            sc->civilization = get_int(l, one, "civilization", 0, 1000000);
            sc->total = get_int(l, one, "total", -1000000, 10000000);
            s->round_civ[r][side] = get_suit(l, one, "assigned");
        }
    }
}

static void load_body(loader *l, const json_t *j, aq_state *s)
{
    const char *game = json_string_value(json_object_get(j, "game"));
    if (game == NULL || strcmp(game, "antiquity_quest") != 0)
        fail(l, "game");
    get_int(l, j, "version", AQ_SNAPSHOT_VERSION, AQ_SNAPSHOT_VERSION);
    s->seats = get_int(l, j, "seats", 2, RULES_MAX_SEATS);
    const json_t *options = json_object_get(j, "options");
    if (!l->ok)
        return;
    json_t *declared = aq_describe_options();
    json_t *resolved = rules_resolve_options(declared, options, l->err);
    json_decref(declared);
    if (resolved == NULL || !json_is_object(options) ||
        !aq_options_read(resolved, s->seats, &s->opt, l->err)) {
        json_decref(resolved);
        l->ok = false;
        return;
    }
    json_decref(resolved);
    s->sides = s->opt.pairs ? s->seats / 2 : s->seats;

    const json_t *rng = json_object_get(j, "rng");
    const json_t *counter = json_object_get(rng, "counter");
    if (!json_is_string(json_object_get(rng, "seed")) ||
        !rules_rng_seed_from_hex(&s->rng,
                                 json_string_value(json_object_get(rng, "seed"))) ||
        !json_is_integer(counter) || json_integer_value(counter) < 0)
        fail(l, "rng");
    else
        s->rng.counter = (uint64_t)json_integer_value(counter);

    s->round = get_int(l, j, "round", 1, s->opt.rounds);
    s->first = get_int(l, j, "first", 0, s->seats - 1);
    s->turn = get_int(l, j, "turn", 0, s->seats - 1);
    s->turn_no = get_int(l, j, "turn_no", 1, 1000000);
    const char *phase = json_string_value(json_object_get(j, "phase"));
    s->phase = AQ_PHASE_OVER + 1;
    for (int p = 0; phase != NULL && p <= AQ_PHASE_OVER; p++) {
        if (strcmp(phase, phase_names[p]) == 0)
            s->phase = (aq_phase)p;
    }
    if (s->phase > AQ_PHASE_OVER)
        fail(l, "phase");
    s->going_out = get_nullable(l, j, "going_out", 0, s->seats - 1);
    const json_t *left = json_object_get(j, "final_left");
    size_t i;
    const json_t *v;
    if (!json_is_array(left))
        fail(l, "final_left");
    json_array_foreach(left, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= s->seats)
            fail(l, "final_left");
        else
            s->final_left |= 1u << json_integer_value(v);
    }
    load_pile(l, j, "draw_pile", &s->draw);
    load_pile(l, j, "discard_pile", &s->discard);
    load_pile(l, j, "character_pile", &s->character);

    const json_t *hands = json_object_get(j, "hands");
    const json_t *choices = json_object_get(j, "final_choices");
    if (!json_is_array(hands) || (int)json_array_size(hands) != s->seats ||
        !json_is_array(choices) || (int)json_array_size(choices) != s->seats)
        return (void)fail(l, "hands");
    for (int seat = 0; seat < s->seats; seat++) {
        s->hand[seat].count = get_cards(l, json_array_get(hands, (size_t)seat),
                                        s->hand[seat].card, AQ_CARDS, "hands");
        load_choice(l, json_array_get(choices, (size_t)seat), &s->choice[seat]);
    }

    const json_t *sides = json_object_get(j, "sides");
    if (!json_is_array(sides) || (int)json_array_size(sides) != s->sides)
        return (void)fail(l, "sides");
    for (int side = 0; side < s->sides; side++) {
        const json_t *one = json_array_get(sides, (size_t)side);
        load_pile(l, one, "cache", &s->cache[side]);
        s->cache_taken[side] = get_bool(l, one, "cache_taken");
        s->started_turn[side] = get_nullable(l, one, "started_turn", 1, 1000000);
        s->civ[side] = get_suit(l, one, "civilization");
        s->played_points[side] = get_int(l, one, "played_points", 0, 1000000);
        s->total[side] = get_int(l, one, "total", -10000000, 100000000);
    }

    const json_t *colls = json_object_get(j, "collections");
    if (!json_is_array(colls) || json_array_size(colls) > AQ_MAX_COLLECTIONS)
        return (void)fail(l, "collections");
    json_array_foreach(colls, i, v) {
        aq_collection *c = &s->coll[s->collections++];
        c->id = get_int(l, v, "id", 1, 100000);
        c->side = get_int(l, v, "side", 0, s->sides - 1);
        c->count = get_cards(l, json_object_get(v, "cards"), c->card,
                             AQ_COLLECTION_CARDS, "collections");
    }
    s->next_id = get_int(l, j, "next_collection", 1, 100000);
    load_rounds(l, json_object_get(j, "rounds_scored"), s);
}

aq_state *aq_load(const json_t *snapshot, rules_error *err)
{
    aq_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    loader l = {.err = err, .ok = true};
    if (!json_is_object(snapshot))
        fail(&l, "not an object");
    else
        load_body(&l, snapshot, s);
    if (l.ok && !aq_check(s, err))
        l.ok = false;
    if (!l.ok) {
        free(s);
        return NULL;
    }
    return s;
}

/* ---- invariants ------------------------------------------------------------- */

static bool count_pile(int *seen, const uint8_t *cards, int count,
                       const char *where, rules_error *err)
{
    for (int i = 0; i < count; i++) {
        if (seen[cards[i]]++ > 0) {
            char token[16];
            aq_card_token(cards[i], token);
            return rules_fail(err, "card %s is in two places (again in %s)",
                              token, where);
        }
    }
    return true;
}

static bool sorted(const aq_pile *pile)
{
    for (int i = 1; i < pile->count; i++) {
        if (pile->card[i - 1] >= pile->card[i])
            return false;
    }
    return true;
}

static bool check_cards(const aq_state *s, rules_error *err)
{
    int seen[AQ_CARDS] = {0};
    if (!count_pile(seen, s->draw.card, s->draw.count, "the draw pile", err) ||
        !count_pile(seen, s->discard.card, s->discard.count, "the discard pile",
                    err) ||
        !count_pile(seen, s->character.card, s->character.count,
                    "the character pile", err))
        return false;
    for (int seat = 0; seat < s->seats; seat++) {
        if (!count_pile(seen, s->hand[seat].card, s->hand[seat].count, "a hand",
                        err))
            return false;
        if (!sorted(&s->hand[seat]))
            return rules_fail(err, "seat %d's hand is not in card order", seat);
    }
    for (int side = 0; side < s->sides; side++) {
        if (!count_pile(seen, s->cache[side].card, s->cache[side].count,
                        "a cache", err))
            return false;
        if (!sorted(&s->cache[side]))
            return rules_fail(err, "side %d's cache is not in card order", side);
        if (s->cache_taken[side] && s->cache[side].count > 0)
            return rules_fail(err, "side %d picked up its cache but it still "
                                   "holds cards", side);
    }
    for (int i = 0; i < s->collections; i++) {
        if (!count_pile(seen, s->coll[i].card, s->coll[i].count,
                        "a collection", err))
            return false;
    }
    for (int id = 0; id < AQ_CARDS; id++) {
        if (seen[id] != 1) {
            char token[16];
            aq_card_token(id, token);
            return rules_fail(err, "card %s is missing", token);
        }
    }
    return true;
}

static bool check_collections(const aq_state *s, rules_error *err)
{
    int played[AQ_MAX_SIDES] = {0};
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        aq_shape shape = aq_shape_of(c->card, c->count);
        rules_error why;
        if (!aq_shape_valid(&shape, &why))
            return rules_fail(err, "collection %d breaks a rule: %s", c->id,
                              why.message);
        if (c->id >= s->next_id || c->side < 0 || c->side >= s->sides)
            return rules_fail(err, "collection %d has a bad id or side", c->id);
        for (int k = 0; k < i; k++) {
            if (s->coll[k].id == c->id)
                return rules_fail(err, "two collections are numbered %d", c->id);
        }
        for (int k = 0; k < c->count; k++)
            played[c->side] += aq_card_played_points(c->card[k]);
    }
    for (int side = 0; side < s->sides; side++) {
        if (played[side] != s->played_points[side])
            return rules_fail(err, "side %d's running played-card score %d is "
                                   "not the recomputed %d", side,
                              s->played_points[side], played[side]);
        if (s->started_turn[side] == AQ_NONE && played[side] > 0)
            return rules_fail(err, "side %d has collections but never started "
                                   "one", side);
        int total = 0;
        for (int r = 0; r < s->rounds_done; r++) {
            const aq_round_score *sc = &s->score[r][side];
            if (sc->total != sc->bonus + sc->collections + sc->played +
                                 sc->unplayed + sc->civilization)
                return rules_fail(err, "side %d's round %d score does not add "
                                       "up", side, r + 1);
            total += sc->total;
        }
        if (total != s->total[side])
            return rules_fail(err, "side %d's total %d is not the sum of its "
                                   "rounds %d", side, s->total[side], total);
    }
    return true;
}

static bool check_flow(const aq_state *s, rules_error *err)
{
    bool over = s->phase == AQ_PHASE_OVER;
    if (s->rounds_done != (over ? s->round : s->round - 1))
        return rules_fail(err, "%d rounds scored in round %d", s->rounds_done,
                          s->round);
    if (s->phase == AQ_PHASE_FINAL && !s->opt.revoked_visas)
        return rules_fail(err, "final plays without the revoked visas rule");
    if (s->phase == AQ_PHASE_FINAL && s->going_out == AQ_NONE)
        return rules_fail(err, "final plays pending with nobody out");
    if (s->going_out == AQ_NONE && s->final_left != 0)
        return rules_fail(err, "final turns are owed but nobody went out");
    if (s->going_out != AQ_NONE && s->final_left == 0 && !over)
        return rules_fail(err, "a player went out but the round goes on");
    if (s->phase == AQ_PHASE_FINAL && s->opt.pairs &&
        !(s->final_left & (1u << s->turn)))
        return rules_fail(err, "the seat on turn owes no final plays");
    for (int seat = 0; seat < s->seats; seat++) {
        const aq_final_choice *c = &s->choice[seat];
        if (!c->made)
            continue;
        if (s->phase != AQ_PHASE_FINAL || s->opt.pairs ||
            (s->final_left & (1u << seat)))
            return rules_fail(err, "seat %d has final plays out of place", seat);
        for (int k = 0; k < c->cards; k++) {
            if (aq_pile_find(&s->hand[seat], c->card[k]) == AQ_NONE)
                return rules_fail(err, "seat %d's final plays use a card not "
                                       "in its hand", seat);
            for (int m = 0; m < k; m++) {
                if (c->card[m] == c->card[k])
                    return rules_fail(err, "seat %d's final plays use a card "
                                           "twice", seat);
            }
        }
        for (int p = 0; p < c->plays; p++) {
            const aq_collection *target =
                aq_collection_find_const(s, c->play[p].target);
            if (c->play[p].target != 0 &&
                (target == NULL || target->side != aq_side_of(s, seat)))
                return rules_fail(err, "seat %d's final plays add to a "
                                       "collection not its own", seat);
        }
    }
    for (int side = 0; side < s->sides && s->opt.civilization_bonus; side++) {
        if (s->civ[side] == AQ_NONE)
            return rules_fail(err, "side %d has no civilization", side);
    }
    return true;
}

bool aq_check(const aq_state *s, rules_error *err)
{
    return check_cards(s, err) && check_collections(s, err) &&
           check_flow(s, err);
}
