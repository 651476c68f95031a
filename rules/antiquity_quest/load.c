/* load.c: a position (README "Position") back into a state, for snapshots
 * and for a referee's hand edits. It accepts what a person would write:
 * hands and caches in any order, cards as tokens ("red2.4") or bare names
 * ("red2": any copy not placed elsewhere), card lists as one string or an
 * array of strings, collections in any order; it works out the fields
 * that follow from the others (played-card points, totals, who still owes
 * a final turn, the next collection number). Each refusal names the field
 * and the value ("draw_pile[3]: there is no card \"B11\""). One pass over
 * the input with table lookups per card: linear in its size. */
#include "aq_internal.h"
#include "fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reader, and what this position's reading adds to it. */
typedef struct loader {
    aq_reader r;
    aq_state *s;
    int hand_place[RULES_MAX_SEATS]; /* the place of each seat's hand */
} loader;

/* Hands and caches are kept in card-id order inside the engine, whatever
 * order they were written in. */
static void sort_pile(aq_pile *pile)
{
    bool here[AQ_CARDS] = {false};
    for (int i = 0; i < pile->count; i++)
        here[pile->card[i]] = true;
    int n = 0;
    for (int id = 0; id < AQ_CARDS; id++) {
        if (here[id])
            pile->card[n++] = (uint8_t)id;
    }
}

/* The top card comes first in the position, last in the engine's pile. */
static void read_top_first(loader *l, const json_t *j, const char *key,
                           aq_pile *pile)
{
    pile->count = aq_read_place(&l->r, json_object_get(j, key), key, pile->card,
                                AQ_CARDS);
    for (int i = 0; i < pile->count / 2; i++) {
        uint8_t top = pile->card[i];
        pile->card[i] = pile->card[pile->count - 1 - i];
        pile->card[pile->count - 1 - i] = top;
    }
}

/* ---- the parts of a position ------------------------------------------- */

static void read_header(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    /* clang-format off */
    static const char *const keys[] = {
        "note", "game", "version", "options", "seats", "rng", "round",
        "first", "turn", "turn_no", "phase", "going_out", "draw_pile",
        "discard_pile", "character_pile", "hands", "sides", "collections",
        "next_collection", "final_choices", "rounds_scored", NULL};
    /* clang-format on */
    const json_t *game = json_object_get(j, "game");
    if (!json_is_string(game) ||
        strcmp(json_string_value(game), "antiquity_quest") != 0) {
        aq_read_not(&l->r, "game", game, "\"antiquity_quest\"");
        return;
    }
    /* Format 1 wrote piles bottom first: refusing it makes the service
     * replay the log rather than read the piles upside down. */
    const json_t *version = json_object_get(j, "version");
    if (!json_is_integer(version) ||
        json_integer_value(version) != AQ_SNAPSHOT_VERSION) {
        char text[AQ_READ_VALUE];
        aq_read_value_text(version, text);
        aq_read_fail(&l->r,
                     "version: %s is not %d, the position format this engine "
                     "reads",
                     text, AQ_SNAPSHOT_VERSION);
        return;
    }
    aq_read_only_keys(&l->r, j, "", keys);
    s->seats =
        aq_read_int(&l->r, j, "", "seats", 2, RULES_MAX_SEATS, "a seat count");
    if (!l->r.ok)
        return;
    const json_t *options = json_object_get(j, "options");
    if (!json_is_object(options)) {
        aq_read_not(&l->r, "options", options, "an object of match options");
        return;
    }
    json_t *declared = aq_describe_options();
    rules_error why = {{0}};
    json_t *resolved = rules_resolve_options(declared, options, &why);
    json_decref(declared);
    if (resolved == NULL || !aq_options_read(resolved, s->seats, &s->opt, &why))
        aq_read_fail(&l->r, "options: %s", why.message);
    json_decref(resolved);
    s->sides = s->opt.pairs ? s->seats / 2 : s->seats;

    const json_t *rng = aq_read_object(&l->r, j, "", "rng");
    if (rng == NULL)
        return;
    static const char *const rng_keys[] = {"seed", "counter", NULL};
    aq_read_only_keys(&l->r, rng, "rng", rng_keys);
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    if (seed == NULL || !rules_rng_seed_from_hex(&s->rng, seed))
        aq_read_fail(&l->r, "rng.seed: not a seed of %d hex digits",
                     2 * RULES_SEED_BYTES);
    const json_t *counter = json_object_get(rng, "counter");
    if (!json_is_integer(counter) || json_integer_value(counter) < 0) {
        aq_read_not(&l->r, "rng.counter", counter,
                    "a count of random numbers drawn");
    } else {
        s->rng.counter = (uint64_t)json_integer_value(counter);
    }
}

static void read_turn(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    s->round = aq_read_int(&l->r, j, "", "round", 1, s->opt.rounds, "a round");
    s->first = aq_read_int(&l->r, j, "", "first", 0, s->seats - 1, "a seat");
    s->turn = aq_read_int(&l->r, j, "", "turn", 0, s->seats - 1, "a seat");
    s->turn_no =
        aq_read_int(&l->r, j, "", "turn_no", 1, 1000000, "a turn number");
    const json_t *phase = json_object_get(j, "phase");
    int p = json_is_string(phase) ? aq_phase_parse(json_string_value(phase))
                                  : AQ_NONE;
    if (p == AQ_NONE && phase == NULL) {
        aq_read_not(&l->r, "phase", phase, "draw, play, final or over");
    } else if (p == AQ_NONE) {
        char text[AQ_READ_VALUE];
        aq_read_value_text(phase, text);
        aq_read_fail(&l->r,
                     "phase: there is no phase %s (draw, play, final or over)",
                     text);
    }
    s->phase = p == AQ_NONE ? AQ_PHASE_DRAW : (aq_phase)p;
    s->going_out =
        aq_read_nullable(&l->r, j, "", "going_out", 0, s->seats - 1, "a seat");
}

static void read_sides(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    static const char *const keys[] = {"cache", "cache_taken", "started_turn",
                                       "civilization", NULL};
    const json_t *sides = aq_read_array(&l->r, j, "sides", s->sides, "sides");
    for (int side = 0; sides != NULL && side < s->sides && l->r.ok; side++) {
        char at[AQ_READ_PATH];
        char path[AQ_READ_PATH];
        aq_read_path(at, "sides[%d]", side);
        const json_t *one = json_array_get(sides, (size_t)side);
        if (!json_is_object(one)) {
            aq_read_fail(&l->r, "%s: not an object", at);
            return;
        }
        aq_read_only_keys(&l->r, one, at, keys);
        aq_read_path_join(path, at, "cache");
        s->cache[side].count =
            aq_read_place(&l->r, json_object_get(one, "cache"), path,
                          s->cache[side].card, AQ_CARDS);
        const json_t *taken = json_object_get(one, "cache_taken");
        if (taken != NULL && !json_is_boolean(taken)) {
            aq_read_path_join(path, at, "cache_taken");
            aq_read_not(&l->r, path, taken, "true or false");
        }
        /* Caches are dealt full and only ever taken whole. */
        s->cache_taken[side] =
            taken != NULL ? json_is_true(taken) : s->cache[side].count == 0;
        s->started_turn[side] = aq_read_nullable(
            &l->r, one, at, "started_turn", 1, s->turn_no, "a turn number");
        s->civ[side] = aq_read_suit(&l->r, one, at, "civilization");
    }
}

static void read_hands(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    const json_t *hands = aq_read_array(&l->r, j, "hands", s->seats, "seats");
    for (int seat = 0; hands != NULL && seat < s->seats; seat++) {
        char path[AQ_READ_PATH];
        aq_read_path(path, "hands[%d]", seat);
        l->hand_place[seat] = l->r.places;
        s->hand[seat].count =
            aq_read_place(&l->r, json_array_get(hands, (size_t)seat), path,
                          s->hand[seat].card, AQ_CARDS);
    }
}

static void read_collections(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    static const char *const keys[] = {"id", "side", "cards", NULL};
    const json_t *colls = aq_read_array(&l->r, j, "collections", -1, NULL);
    if (colls == NULL)
        return;
    if (json_array_size(colls) > AQ_MAX_COLLECTIONS) {
        aq_read_fail(&l->r, "collections: more than %d", AQ_MAX_COLLECTIONS);
        return;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(colls, i, v)
    {
        char at[AQ_READ_PATH];
        char path[AQ_READ_PATH];
        aq_read_path(at, "collections[%zu]", i);
        if (!json_is_object(v)) {
            aq_read_fail(&l->r, "%s: not an object", at);
            return;
        }
        aq_read_only_keys(&l->r, v, at, keys);
        aq_collection *c = &s->coll[s->collections++];
        c->id =
            aq_read_int(&l->r, v, at, "id", 1, 100000, "a collection number");
        c->side = aq_read_int(&l->r, v, at, "side", 0, s->sides - 1, "a side");
        aq_read_path_join(path, at, "cards");
        c->count = aq_read_place(&l->r, json_object_get(v, "cards"), path,
                                 c->card, AQ_COLLECTION_CARDS);
    }
}

/* Once every card has its id: each collection obeys the rules, numbers
 * are distinct, and the collections are put in the order they were made,
 * which is the order of their numbers. */
typedef struct numbered {
    int id;
    int index;
} numbered;

static int by_id(const void *a, const void *b)
{
    return ((const numbered *)a)->id - ((const numbered *)b)->id;
}

static void order_collections(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    numbered order[AQ_MAX_COLLECTIONS];
    for (int i = 0; i < s->collections && l->r.ok; i++) {
        const aq_collection *c = &s->coll[i];
        aq_shape shape = aq_shape_of(c->card, c->count);
        rules_error why = {{0}};
        if (!aq_shape_valid(&shape, &why))
            aq_read_fail(&l->r, "collections[%d].cards: %s", i, why.message);
        order[i] = (numbered){c->id, i};
    }
    if (!l->r.ok)
        return;
    qsort(order, (size_t)s->collections, sizeof order[0], by_id);
    aq_collection sorted[AQ_MAX_COLLECTIONS];
    for (int k = 0; k < s->collections; k++) {
        if (k > 0 && order[k].id == order[k - 1].id) {
            aq_read_fail(&l->r,
                         "collections[%d].id: %d is also the number of "
                         "collections[%d]",
                         order[k].index, order[k].id, order[k - 1].index);
            return;
        }
        sorted[k] = s->coll[order[k].index];
    }
    for (int k = 0; k < s->collections; k++)
        s->coll[k] = sorted[k];
    int next = aq_next_collection_derived(s);
    s->next_id = next;
    if (json_object_get(j, "next_collection") != NULL)
        s->next_id = aq_read_int(&l->r, j, "", "next_collection", next, 100000,
                                 "a number above every collection's");
}

/* ---- sealed final plays ------------------------------------------------ */

/* The cards of one sealed play: cards of the seat's hand, each once; a
 * bare name takes the lowest copy of the hand not used yet, as actions
 * do. */
typedef struct choice_fill {
    loader *l;
    int seat;
    aq_final_choice *c;
    bool used[AQ_CARDS];
    const char *path;
} choice_fill;

static void choice_word(aq_reader *r, const char *word, int index, void *ctx)
{
    choice_fill *f = ctx;
    loader *l = f->l;
    const aq_pile *hand = &l->s->hand[f->seat];
    int name;
    int id = aq_card_parse(word, &name);
    if (id == AQ_CARD_UNKNOWN) {
        aq_read_fail(r, "%s[%d]: there is no card \"%s\"", f->path, index,
                     word);
        return;
    }
    if (id == AQ_CARD_ANY_COPY) {
        for (int i = 0; i < hand->count && id < 0; i++) {
            int h = hand->card[i];
            if (!f->used[h] && aq_card_info(h).name == name)
                id = h;
        }
        if (id < 0) {
            aq_read_fail(r, "%s[%d]: hands[%d] holds no other %s", f->path,
                         index, f->seat, aq_name_text(name));
            return;
        }
    } else if (l->r.card_place[id] != l->hand_place[f->seat]) {
        {
            aq_read_fail(r, "%s[%d]: %s is not in hands[%d]", f->path, index,
                         aq_card_token(id), f->seat);
            return;
        }
    }
    if (f->used[id]) {
        aq_read_fail(r, "%s[%d]: %s is played twice", f->path, index,
                     aq_card_token(id));
        return;
    }
    if (f->c->cards >= AQ_CARDS) {
        aq_read_fail(r, "%s[%d]: too many cards", f->path, index);
        return;
    }
    f->used[id] = true;
    f->c->card[f->c->cards++] = (uint8_t)id;
}

static void read_choice(loader *l, const json_t *v, int seat)
{
    char at[AQ_READ_PATH];
    aq_read_path(at, "final_choices[%d]", seat);
    if (json_is_null(v))
        return;
    if (!json_is_array(v) || json_array_size(v) > AQ_MAX_FINAL_PLAYS) {
        aq_read_fail(&l->r, "%s: not null or a list of at most %d plays", at,
                     AQ_MAX_FINAL_PLAYS);
        return;
    }
    choice_fill f = {.l = l, .seat = seat, .c = &l->s->choice[seat]};
    f.c->made = true;
    size_t i;
    const json_t *play;
    json_array_foreach(v, i, play)
    {
        char here[AQ_READ_PATH];
        char path[AQ_READ_PATH];
        aq_read_path(here, "%s[%zu]", at, i);
        bool is_add = json_object_get(play, "add") != NULL;
        static const char *const play_keys[] = {"play", NULL};
        static const char *const add_keys[] = {"add", "cards", NULL};
        if (!json_is_object(play)) {
            aq_read_fail(&l->r,
                         "%s: not {\"play\": cards} or {\"add\": N, "
                         "\"cards\": cards}",
                         here);
            return;
        }
        aq_read_only_keys(&l->r, play, here, is_add ? add_keys : play_keys);
        aq_final_play *fp = &f.c->play[f.c->plays++];
        fp->target = is_add ? aq_read_int(&l->r, play, here, "add", 1, 100000,
                                          "a collection number")
                            : 0;
        fp->first = f.c->cards;
        aq_read_path_join(path, here, is_add ? "cards" : "play");
        f.path = path;
        aq_read_words(&l->r, json_object_get(play, is_add ? "cards" : "play"),
                      path, choice_word, &f);
        fp->count = f.c->cards - fp->first;
        if (!l->r.ok)
            return;
    }
}

static void read_choices(loader *l, const json_t *j)
{
    const json_t *choices = json_object_get(j, "final_choices");
    if (choices == NULL)
        return;
    choices = aq_read_array(&l->r, j, "final_choices", l->s->seats, "seats");
    for (int seat = 0; choices != NULL && seat < l->s->seats && l->r.ok; seat++)
        read_choice(l, json_array_get(choices, (size_t)seat), seat);
}

/* ---- finished rounds --------------------------------------------------- */

static void read_rounds(loader *l, const json_t *j)
{
    aq_state *s = l->s;
    static const char *const round_keys[] = {"going_out", "sides", NULL};
    static const char *const side_keys[] = {
        "bonus",        "collections", "played", "unplayed",
        "civilization", "assigned",    NULL};
    const json_t *rounds = aq_read_array(&l->r, j, "rounds_scored", -1, NULL);
    if (rounds == NULL)
        return;
    if (json_array_size(rounds) > (size_t)s->opt.rounds) {
        aq_read_fail(&l->r, "rounds_scored: %zu rounds, but the match has %d",
                     json_array_size(rounds), s->opt.rounds);
        return;
    }
    s->rounds_done = (int)json_array_size(rounds);
    for (int r = 0; r < s->rounds_done && l->r.ok; r++) {
        char at[AQ_READ_PATH];
        aq_read_path(at, "rounds_scored[%d]", r);
        const json_t *round = json_array_get(rounds, (size_t)r);
        if (!json_is_object(round)) {
            aq_read_fail(&l->r, "%s: not an object", at);
            return;
        }
        aq_read_only_keys(&l->r, round, at, round_keys);
        s->round_going_out[r] = aq_read_nullable(&l->r, round, at, "going_out",
                                                 0, s->seats - 1, "a seat");
        const json_t *scores = json_object_get(round, "sides");
        if (!json_is_array(scores) ||
            (int)json_array_size(scores) != s->sides) {
            aq_read_fail(&l->r, "%s.sides: not a list of %d side scores", at,
                         s->sides);
            return;
        }
        for (int side = 0; side < s->sides && l->r.ok; side++) {
            char one_at[AQ_READ_PATH];
            aq_read_path(one_at, "%s.sides[%d]", at, side);
            const json_t *one = json_array_get(scores, (size_t)side);
            if (!json_is_object(one)) {
                aq_read_fail(&l->r, "%s: not an object", one_at);
                return;
            }
            aq_read_only_keys(&l->r, one, one_at, side_keys);
            aq_round_score *sc = &s->score[r][side];
            sc->bonus =
                aq_read_int(&l->r, one, one_at, "bonus", 0, 500, "a bonus");
            sc->collections = aq_read_int(&l->r, one, one_at, "collections", 0,
                                          1000000, "points");
            sc->played =
                aq_read_int(&l->r, one, one_at, "played", 0, 1000000, "points");
            sc->unplayed = aq_read_int(&l->r, one, one_at, "unplayed", -1000000,
                                       0, "points");
            sc->civilization = aq_read_int(&l->r, one, one_at, "civilization",
                                           0, 1000000, "points");
            sc->total = sc->bonus + sc->collections + sc->played +
                        sc->unplayed + sc->civilization;
            s->round_civ[r][side] =
                aq_read_suit(&l->r, one, one_at, "assigned");
            s->total[side] += sc->total;
        }
    }
}

/* ---- the whole position ------------------------------------------------ */

/* What follows from the rest: the running played-card points of each
 * side and the seats still owed a final turn. */
static void derive(aq_state *s)
{
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        for (int k = 0; k < c->count; k++)
            s->played_points[c->side] += aq_card_played_points(c->card[k]);
    }
    s->final_left = aq_final_left_derived(s);
}

static void read_position(loader *l, const json_t *j)
{
    read_header(l, j);
    if (!l->r.ok)
        return;
    read_turn(l, j);
    /* Places in a fixed order, which is also the order bare names get
     * their copies in. */
    read_top_first(l, j, "draw_pile", &l->s->draw);
    read_top_first(l, j, "discard_pile", &l->s->discard);
    read_top_first(l, j, "character_pile", &l->s->character);
    read_hands(l, j);
    read_sides(l, j);
    read_collections(l, j);
    if (!l->r.ok)
        return;
    aq_read_bare_names(&l->r);
    for (int seat = 0; seat < l->s->seats; seat++)
        sort_pile(&l->s->hand[seat]);
    for (int side = 0; side < l->s->sides; side++)
        sort_pile(&l->s->cache[side]);
    order_collections(l, j);
    read_choices(l, j);
    read_rounds(l, j);
    if (l->r.ok)
        derive(l->s);
}

aq_state *aq_load(const json_t *snapshot, rules_error *err)
{
    loader *l = calloc(1, sizeof *l);
    aq_state *s = calloc(1, sizeof *s);
    if (l == NULL || s == NULL)
        abort();
    aq_reader_init(&l->r, err);
    l->s = s;
    if (!json_is_object(snapshot))
        aq_read_fail(&l->r, "a position is a JSON object");
    else
        read_position(l, snapshot);
    bool ok = l->r.ok && aq_check(s, err);
    free(l);
    if (!ok) {
        free(s);
        return NULL;
    }
    return s;
}
