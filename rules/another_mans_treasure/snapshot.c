/* snapshot.c: save, load (validating) and the engine's invariants. */
#include "amt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SNAPSHOT_FORMAT 1

static const char *const phase_names[] = {"draw", "play", "endplay", "over"};
static const char *const claim_names[] = {"none", "claim", "pass"};
static const char *const end_names[] = {"none", "waiting", "passed",
                                        "played"};

static json_t *ids_json(const int16_t *ids, int count)
{
    json_t *a = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(a, json_integer(ids[i]));
    return a;
}

static json_t *play_json(const amt_play *play)
{
    json_t *melds = json_array();
    for (int i = 0; i < play->melds; i++)
        json_array_append_new(
            melds, json_pack("{s:s,s:o}", "kind", amt_kind_name(play->kind[i]),
                             "cards", ids_json(play->cards[i],
                                               play->count[i])));
    return json_pack("{s:s,s:o}", "mark", amt_pattern_get(play->mark)->name,
                     "melds", melds);
}

json_t *amt_save(const rules_state *state)
{
    const amt_state *s = (const amt_state *)state;
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    json_t *table = json_array();
    for (int m = 0; m < s->meld_count; m++) {
        const amt_meld *meld = &s->melds[m];
        json_t *by = json_array();
        for (int i = 0; i < meld->count; i++)
            json_array_append_new(by, json_integer(meld->by[i]));
        json_array_append_new(
            table, json_pack("{s:i,s:s,s:o,s:o}", "owner", meld->owner, "kind",
                             amt_kind_name(meld->kind), "cards",
                             ids_json(meld->cards, meld->count), "by", by));
    }
    json_t *players = json_array();
    for (int p = 0; p < s->seats; p++) {
        const amt_player *pl = &s->players[p];
        json_t *marked = json_array();
        for (int q = 0; q < AMT_PATTERNS; q++) {
            if (pl->used & (1u << q))
                json_array_append_new(marked,
                                      json_string(amt_pattern_get(q)->name));
        }
        json_t *rounds = json_array();
        for (int r = 0; r < amt_rounds(s->progressive); r++)
            json_array_append_new(rounds, json_integer(pl->round_score[r]));
        json_array_append_new(
            players,
            json_pack("{s:o,s:o,s:i,s:b,s:s,s:s,s:o,s:o,s:i}", "hand",
                      ids_json(pl->hand, pl->hand_count), "marked", marked,
                      "completed", pl->completed, "laid", pl->laid, "claim",
                      claim_names[pl->claim], "end", end_names[pl->end],
                      "end_play",
                      pl->end == AMT_END_PLAYED ? play_json(&pl->end_play)
                                                : json_null(),
                      "round_scores", rounds, "total", pl->total));
    }
    return json_pack(
        "{s:i,s:s,s:b,s:i,s:i,s:i,s:s,s:i,s:b,s:i,s:o,s:o,s:o,s:o,"
        "s:{s:s,s:I}}",
        "format", SNAPSHOT_FORMAT, "game",
        s->progressive ? "progressive" : "classic", "classic_end_of_round",
        s->classic_end, "claim_window_hours", s->window_hours, "seats",
        s->seats, "round", s->round, "phase", phase_names[s->phase], "turn",
        s->turn, "window", s->window, "went_out", s->went_out, "draw",
        ids_json(s->draw, s->draw_count), "discard",
        ids_json(s->discard, s->discard_count), "table", table, "players",
        players, "rng", "seed", seed, "counter", (json_int_t)s->rng.counter);
}

/* ---- load ---- */

static int find_name(const char *const *names, int count, const char *name)
{
    for (int i = 0; name != NULL && i < count; i++) {
        if (strcmp(names[i], name) == 0)
            return i;
    }
    return -1;
}

static bool read_ids(const json_t *a, int16_t *out, int *count, int max,
                     const char *what, rules_error *err)
{
    if (!json_is_array(a) || json_array_size(a) > (size_t)max)
        return rules_fail(err, "snapshot: %s must be a list of card ids",
                          what);
    size_t i;
    const json_t *v;
    json_array_foreach(a, i, v) {
        json_int_t id = json_integer_value(v);
        if (!json_is_integer(v) || id < 0 || id >= AMT_CARDS)
            return rules_fail(err, "snapshot: %s holds a bad card id", what);
        out[i] = (int16_t)id;
    }
    *count = (int)json_array_size(a);
    return true;
}

static bool read_int(const json_t *obj, const char *key, int low, int high,
                     int *out, rules_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < low ||
        json_integer_value(v) > high)
        return rules_fail(err, "snapshot: %s must be an integer from %d to %d",
                          key, low, high);
    *out = (int)json_integer_value(v);
    return true;
}

static bool read_bool(const json_t *obj, const char *key, bool *out,
                      rules_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (!json_is_boolean(v))
        return rules_fail(err, "snapshot: %s must be true or false", key);
    *out = json_is_true(v);
    return true;
}

static bool read_play(const json_t *j, amt_play *play, rules_error *err)
{
    memset(play, 0, sizeof *play);
    const char *mark = json_string_value(json_object_get(j, "mark"));
    play->mark = mark != NULL ? amt_pattern_find(mark) : -1;
    const json_t *melds = json_object_get(j, "melds");
    if (play->mark < 0 || !json_is_array(melds) ||
        json_array_size(melds) == 0 ||
        json_array_size(melds) > AMT_MAX_PATTERN_MELDS)
        return rules_fail(err, "snapshot: a sealed end play is malformed");
    size_t i;
    const json_t *m;
    json_array_foreach(melds, i, m) {
        const char *kind = json_string_value(json_object_get(m, "kind"));
        play->kind[i] = kind != NULL ? amt_kind_find(kind) : -1;
        if (play->kind[i] < 0 ||
            !read_ids(json_object_get(m, "cards"), play->cards[i],
                      &play->count[i], AMT_MAX_NUMBER, "an end play meld",
                      err))
            return rules_fail(err, "snapshot: a sealed end play is malformed");
    }
    play->melds = (int)json_array_size(melds);
    return true;
}

static bool read_player(const json_t *j, amt_state *s, int p, rules_error *err)
{
    amt_player *pl = &s->players[p];
    if (!json_is_object(j))
        return rules_fail(err, "snapshot: players must be objects");
    if (!read_ids(json_object_get(j, "hand"), pl->hand, &pl->hand_count,
                  AMT_CARDS, "a hand", err) ||
        !read_int(j, "completed", 0, AMT_PATTERNS, &pl->completed, err) ||
        !read_bool(j, "laid", &pl->laid, err) ||
        !read_int(j, "total", -100000, 100000, &pl->total, err))
        return false;
    const json_t *marked = json_object_get(j, "marked");
    if (!json_is_array(marked))
        return rules_fail(err, "snapshot: marked must be a list of patterns");
    size_t i;
    const json_t *v;
    json_array_foreach(marked, i, v) {
        const char *name = json_string_value(v);
        int q = name != NULL ? amt_pattern_find(name) : -1;
        if (q < 0 || strcmp(name, amt_pattern_get(q)->name) != 0)
            return rules_fail(err, "snapshot: unknown pattern in marked");
        pl->used |= 1u << q;
    }
    pl->claim = find_name(claim_names, 3,
                          json_string_value(json_object_get(j, "claim")));
    pl->end = find_name(end_names, 4,
                        json_string_value(json_object_get(j, "end")));
    if (pl->claim < 0 || pl->end < 0)
        return rules_fail(err, "snapshot: bad claim or end state");
    const json_t *end_play = json_object_get(j, "end_play");
    if (pl->end == AMT_END_PLAYED) {
        if (!read_play(end_play, &pl->end_play, err))
            return false;
    } else if (!json_is_null(end_play)) {
        return rules_fail(err, "snapshot: end_play without a sealed play");
    }
    const json_t *rounds = json_object_get(j, "round_scores");
    if (!json_is_array(rounds) ||
        json_array_size(rounds) != (size_t)amt_rounds(s->progressive))
        return rules_fail(err, "snapshot: round_scores needs one entry per "
                               "round");
    json_array_foreach(rounds, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < -10000 ||
            json_integer_value(v) > 10000)
            return rules_fail(err, "snapshot: bad round score");
        pl->round_score[i] = (int)json_integer_value(v);
    }
    return true;
}

static bool read_meld(const json_t *j, amt_state *s, rules_error *err)
{
    if (s->meld_count >= AMT_MAX_MELDS)
        return rules_fail(err, "snapshot: too many melds");
    amt_meld *m = &s->melds[s->meld_count++];
    const char *kind = json_string_value(json_object_get(j, "kind"));
    m->kind = kind != NULL ? amt_kind_find(kind) : -1;
    if (m->kind < 0 || !read_int(j, "owner", 0, s->seats - 1, &m->owner, err) ||
        !read_ids(json_object_get(j, "cards"), m->cards, &m->count,
                  AMT_MELD_CARDS, "a meld", err))
        return rules_fail(err, "snapshot: a meld is malformed");
    const json_t *by = json_object_get(j, "by");
    if (!json_is_array(by) || json_array_size(by) != (size_t)m->count)
        return rules_fail(err, "snapshot: a meld needs a seat per card");
    for (int i = 0; i < m->count; i++) {
        const json_t *v = json_array_get(by, (size_t)i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) >= s->seats)
            return rules_fail(err, "snapshot: a meld names a bad seat");
        m->by[i] = (int8_t)json_integer_value(v);
    }
    return amt_meld_shape(m->kind, m->cards, m->count, &m->colour, &m->number,
                          err);
}

rules_state *amt_load(const json_t *snap, rules_error *err)
{
    amt_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    const char *game = json_string_value(json_object_get(snap, "game"));
    const json_t *rng = json_object_get(snap, "rng");
    const json_t *counter = json_object_get(rng, "counter");
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    int format = 0;
    if (!json_is_object(snap) ||
        !read_int(snap, "format", SNAPSHOT_FORMAT, SNAPSHOT_FORMAT, &format,
                  err))
        goto fail;
    if (game == NULL || (strcmp(game, "classic") != 0 &&
                         strcmp(game, "progressive") != 0)) {
        rules_fail(err, "snapshot: game must be classic or progressive");
        goto fail;
    }
    s->progressive = strcmp(game, "progressive") == 0;
    int phase;
    if (!read_bool(snap, "classic_end_of_round", &s->classic_end, err) ||
        !read_int(snap, "claim_window_hours", 0, 168, &s->window_hours, err) ||
        !read_int(snap, "seats", AMT_MIN_SEATS, AMT_MAX_SEATS, &s->seats,
                  err) ||
        !read_int(snap, "round", 0, amt_rounds(s->progressive) - 1, &s->round,
                  err) ||
        !read_int(snap, "turn", 0, s->seats - 1, &s->turn, err) ||
        !read_bool(snap, "window", &s->window, err) ||
        !read_int(snap, "went_out", -1, s->seats - 1, &s->went_out, err))
        goto fail;
    phase = find_name(phase_names, 4,
                      json_string_value(json_object_get(snap, "phase")));
    if (phase < 0) {
        rules_fail(err, "snapshot: unknown phase");
        goto fail;
    }
    s->phase = (amt_phase)phase;
    if (!read_ids(json_object_get(snap, "draw"), s->draw, &s->draw_count,
                  AMT_CARDS, "draw", err) ||
        !read_ids(json_object_get(snap, "discard"), s->discard,
                  &s->discard_count, AMT_CARDS, "discard", err))
        goto fail;
    const json_t *table = json_object_get(snap, "table");
    const json_t *players = json_object_get(snap, "players");
    if (!json_is_array(table) || !json_is_array(players) ||
        json_array_size(players) != (size_t)s->seats) {
        rules_fail(err, "snapshot: table and players must be lists, one "
                        "player per seat");
        goto fail;
    }
    size_t i;
    const json_t *v;
    json_array_foreach(table, i, v) {
        if (!read_meld(v, s, err))
            goto fail;
    }
    json_array_foreach(players, i, v) {
        if (!read_player(v, s, (int)i, err))
            goto fail;
    }
    if (seed == NULL || !rules_rng_seed_from_hex(&s->rng, seed) ||
        !json_is_integer(counter) || json_integer_value(counter) < 0) {
        rules_fail(err, "snapshot: rng needs a 64-hex-digit seed and a "
                        "counter");
        goto fail;
    }
    s->rng.counter = (uint64_t)json_integer_value(counter);
    if (!amt_check((rules_state *)s, err))
        goto fail;
    return (rules_state *)s;
fail:
    free(s);
    return NULL;
}

/* ---- invariants ---- */

static bool check_player(const amt_state *s, int p, rules_error *err)
{
    const amt_player *pl = &s->players[p];
    for (int i = 1; i < pl->hand_count; i++) {
        if (pl->hand[i - 1] >= pl->hand[i])
            return rules_fail(err, "seat %d's hand is not sorted by id", p);
    }
    if (pl->used >> AMT_PATTERNS)
        return rules_fail(err, "seat %d marked an unknown pattern", p);
    if (pl->completed > __builtin_popcount(pl->used))
        return rules_fail(err, "seat %d completed more patterns than marked",
                          p);
    int sum = 0;
    int played = s->phase == AMT_PHASE_OVER ? s->round + 1 : s->round;
    for (int r = 0; r < amt_rounds(s->progressive); r++) {
        if (r >= played && pl->round_score[r] != 0)
            return rules_fail(err, "seat %d has a score for a round not "
                                   "played",
                              p);
        sum += pl->round_score[r];
    }
    if (sum != pl->total)
        return rules_fail(err, "seat %d's total %d is not the sum %d of its "
                               "round scores",
                          p, pl->total, sum);
    if (pl->claim != AMT_CLAIM_NONE &&
        (!s->window || p == s->turn || s->phase != AMT_PHASE_DRAW))
        return rules_fail(err, "seat %d has a claim outside a claim window",
                          p);
    if (pl->end != AMT_END_NONE && s->phase != AMT_PHASE_ENDPLAY)
        return rules_fail(err, "seat %d has an end-of-round choice outside "
                               "the round's end",
                          p);
    if (pl->end == AMT_END_PLAYED) {
        /* the sealed cards are distinct and still in the hand */
        int16_t seen[AMT_CARDS] = {0};
        for (int m = 0; m < pl->end_play.melds; m++) {
            for (int k = 0; k < pl->end_play.count[m]; k++) {
                int id = pl->end_play.cards[m][k];
                bool held = false;
                for (int h = 0; h < pl->hand_count; h++)
                    held |= pl->hand[h] == id;
                if (!held || seen[id]++)
                    return rules_fail(err, "seat %d's sealed play uses a "
                                           "card it does not hold",
                                      p);
            }
        }
    }
    if (pl->laid) {
        bool has = false;
        for (int m = 0; m < s->meld_count; m++)
            has |= s->melds[m].owner == p;
        if (!has)
            return rules_fail(err, "seat %d laid a pattern but has no meld",
                              p);
    }
    return true;
}

bool amt_check(const rules_state *state, rules_error *err)
{
    const amt_state *s = (const amt_state *)state;
    if (s->seats < AMT_MIN_SEATS || s->seats > AMT_MAX_SEATS ||
        s->turn < 0 || s->turn >= s->seats || s->round < 0 ||
        s->round >= amt_rounds(s->progressive))
        return rules_fail(err, "seats, turn or round out of range");
    if (s->classic_end && !s->progressive)
        return rules_fail(err, "classic_end_of_round is a progressive option");
    int where[AMT_CARDS] = {0};
    for (int i = 0; i < s->draw_count; i++)
        where[s->draw[i]]++;
    for (int i = 0; i < s->discard_count; i++)
        where[s->discard[i]]++;
    for (int p = 0; p < s->seats; p++) {
        for (int i = 0; i < s->players[p].hand_count; i++)
            where[s->players[p].hand[i]]++;
    }
    for (int m = 0; m < s->meld_count; m++) {
        const amt_meld *meld = &s->melds[m];
        int colour, number;
        if (!amt_meld_shape(meld->kind, meld->cards, meld->count, &colour,
                            &number, err))
            return false;
        if (colour != meld->colour || number != meld->number)
            return rules_fail(err, "meld %d's colour or number is stale", m);
        for (int i = 0; i < meld->count; i++)
            where[meld->cards[i]]++;
    }
    for (int c = 0; c < AMT_CARDS; c++) {
        if (where[c] != 1) {
            char name[AMT_NAME_LEN];
            amt_card_name(c, name);
            return rules_fail(err, "card %d (%s) is in %d places", c, name,
                              where[c]);
        }
    }
    if (s->window && s->phase != AMT_PHASE_DRAW)
        return rules_fail(err, "the claim window is open outside a draw");
    if (s->phase == AMT_PHASE_DRAW &&
        (s->draw_count == 0 || s->discard_count == 0))
        return rules_fail(err, "a turn begins with both piles holding cards");
    bool waiting = false;
    for (int p = 0; p < s->seats; p++) {
        if (!check_player(s, p, err))
            return false;
        waiting |= s->players[p].end == AMT_END_WAITING;
    }
    if (s->phase == AMT_PHASE_ENDPLAY && !waiting)
        return rules_fail(err, "the round's end waits for nobody");
    return true;
}
