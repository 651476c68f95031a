/* snapshot.c: save and load, in the position form a referee edits by hand
 * (README, "Position"): cards by the notation's names, piles top first,
 * each player's melds under the player, a sealed end-of-round play in
 * text notation. save leaves out what load can work out (seat count,
 * totals, who laid, who still chooses at the round's end) and writes
 * lists that have no order of their own in one canonical order; load
 * takes those lists in any order, fills the rest in, and names the field
 * and the value in every error. Linear in the size of the position: card
 * names are looked up in constant time (card_places.c). */
#include "amt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POSITION_FORMAT 2

static const char *const phase_names[] = {"draw", "play", "endplay", "over"};

/* ---- save ---- */

static json_t *names_json(const int16_t *ids, int count, bool reversed)
{
    json_t *a = json_array();
    for (int i = 0; i < count; i++) {
        char name[AMT_NAME_LEN];
        amt_card_name(ids[reversed ? count - 1 - i : i], name);
        /* names are ASCII: no UTF-8 check for each card of each save */
        json_array_append_new(a, json_string_nocheck(name));
    }
    return a;
}

static json_t *meld_json(const amt_meld *m)
{
    json_t *meld = json_pack("{s:s,s:o}", "kind", amt_kind_name(m->kind),
                             "cards", names_json(m->cards, m->count, false));
    bool all_owner = true;
    for (int i = 0; i < m->count; i++)
        all_owner &= m->by[i] == m->owner;
    /* "by" only when someone else played a card here (a swap, an add) */
    if (!all_owner) {
        json_t *by = json_array();
        for (int i = 0; i < m->count; i++)
            json_array_append_new(by, json_integer(m->by[i]));
        json_object_set_new(meld, "by", by);
    }
    return meld;
}

static json_t *end_play_json(const amt_player *pl)
{
    if (pl->end == AMT_END_PASSED)
        return json_string("pass");
    json_t *action = amt_play_action(&pl->end_play, NULL);
    char *text = amt_format_move(NULL, 0, action);
    json_decref(action);
    if (text == NULL)
        abort();
    json_t *value = json_string(text);
    free(text);
    return value;
}

static json_t *player_json(const amt_state *s, int p)
{
    const amt_player *pl = &s->players[p];
    json_t *melds = json_array();
    for (int m = 0; m < s->meld_count; m++) {
        if (s->melds[m].owner == p)
            json_array_append_new(melds, meld_json(&s->melds[m]));
    }
    json_t *marked = json_array();
    for (int q = 0; q < AMT_PATTERNS; q++) {
        if (pl->used & (1u << q))
            json_array_append_new(marked,
                                  json_string(amt_pattern_get(q)->name));
    }
    int played = s->phase == AMT_PHASE_OVER ? s->round + 1 : s->round;
    json_t *rounds = json_array();
    for (int r = 0; r < played; r++)
        json_array_append_new(rounds, json_integer(pl->round_score[r]));
    json_t *player = json_pack(
        "{s:o,s:o,s:o,s:i,s:o}", "hand",
        names_json(pl->hand, pl->hand_count, false), "melds", melds, "marked",
        marked, "completed", pl->completed, "round_scores", rounds);
    if (pl->end == AMT_END_PASSED || pl->end == AMT_END_PLAYED)
        json_object_set_new(player, "end_play", end_play_json(pl));
    return player;
}

static json_t *claim_window_json(const amt_state *s)
{
    json_t *claimed = json_array();
    json_t *passed = json_array();
    for (int p = 0; p < s->seats; p++) {
        if (s->players[p].claim == AMT_CLAIM_CLAIMED)
            json_array_append_new(claimed, json_integer(p));
        else if (s->players[p].claim == AMT_CLAIM_PASSED)
            json_array_append_new(passed, json_integer(p));
    }
    return json_pack("{s:o,s:o}", "claimed", claimed, "passed", passed);
}

json_t *amt_save(const rules_state *state)
{
    const amt_state *s = (const amt_state *)state;
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    json_t *players = json_array();
    for (int p = 0; p < s->seats; p++)
        json_array_append_new(players, player_json(s, p));
    /* in the order a person reads it (jansson keeps insertion order) */
    json_t *position = json_pack(
        "{s:i,s:s,s:b,s:i,s:i,s:s,s:i}", "format", POSITION_FORMAT, "game",
        s->progressive ? "progressive" : "classic", "classic_end_of_round",
        s->classic_end, "claim_window_hours", s->window_hours, "round",
        s->round + 1, "phase", phase_names[s->phase], "turn", s->turn);
    if (s->window)
        json_object_set_new(position, "claim_window", claim_window_json(s));
    json_object_set_new(position, "draw_pile",
                        names_json(s->draw, s->draw_count, true));
    json_object_set_new(position, "discard_pile",
                        names_json(s->discard, s->discard_count, true));
    json_object_set_new(position, "players", players);
    json_object_set_new(position, "rng",
                        json_pack("{s:s,s:I}", "seed", seed, "counter",
                                  (json_int_t)s->rng.counter));
    return position;
}

/* ---- load ---- */

/* Fails with "path: sentence". */
static bool fail_at(rules_error *err, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail_at(rules_error *err, const char *path, const char *fmt, ...)
{
    char sentence[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, ap);
    va_end(ap);
    return rules_fail(err, "%s: %s", path, sentence);
}

/* A hand-edited field name with a typo would otherwise be ignored. */
static bool only_fields(const json_t *object, const char *path,
                        const char *const *fields, rules_error *err)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        bool known = false;
        for (const char *const *f = fields; *f != NULL && !known; f++)
            known = strcmp(key, *f) == 0;
        if (!known)
            return fail_at(err, path, "there is no field \"%.40s\"", key);
    }
    return true;
}

static bool read_integer(const json_t *value, const char *path, int low,
                         int high, const char *what, int *out,
                         rules_error *err)
{
    if (!json_is_integer(value) || json_integer_value(value) < low ||
        json_integer_value(value) > high) {
        if (json_is_integer(value))
            return fail_at(err, path, "must be %s from %d to %d, not %lld",
                           what, low, high,
                           (long long)json_integer_value(value));
        return fail_at(err, path, "must be %s from %d to %d", what, low,
                       high);
    }
    *out = (int)json_integer_value(value);
    return true;
}

static bool read_cards(amt_card_places *places, const json_t *list,
                       const char *path, amt_place where, int16_t *ids,
                       int *count, int max, rules_error *err)
{
    if (!json_is_array(list))
        return fail_at(err, path, "a list of card names, like [\"R3\", "
                                  "\"Y5s\", \"W1-6\"]");
    if (json_array_size(list) > (size_t)max)
        return fail_at(err, path, "holds %zu cards, more than the %d it can",
                       json_array_size(list), max);
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        where.index = (uint8_t)i;
        if (!amt_places_take(places, v, where, &ids[i], err))
            return false;
    }
    *count = (int)json_array_size(list);
    return true;
}

static int compare_ids(const void *a, const void *b)
{
    return *(const int16_t *)a - *(const int16_t *)b;
}

/* The match options stand at the top of the position, as setup() takes
 * them; any left out take their defaults (amt_describe_options). Read
 * here without building the options' description: load runs for every
 * snapshot. */
static bool read_options(amt_state *s, const json_t *snap, rules_error *err)
{
    const json_t *game = json_object_get(snap, "game");
    const char *name = json_string_value(game);
    if (game != NULL && (name == NULL || (strcmp(name, "classic") != 0 &&
                                          strcmp(name, "progressive") != 0)))
        return fail_at(err, "game", "\"classic\" or \"progressive\"");
    s->progressive = name != NULL && strcmp(name, "progressive") == 0;
    const json_t *classic_end = json_object_get(snap, "classic_end_of_round");
    if (classic_end != NULL && !json_is_boolean(classic_end))
        return fail_at(err, "classic_end_of_round", "true or false");
    s->classic_end = json_is_true(classic_end);
    if (s->classic_end && !s->progressive)
        return fail_at(err, "classic_end_of_round", "an option of the "
                                                    "progressive game only");
    const json_t *hours = json_object_get(snap, "claim_window_hours");
    s->window_hours = AMT_WINDOW_HOURS_DEFAULT;
    return hours == NULL ||
           read_integer(hours, "claim_window_hours", 0, AMT_WINDOW_HOURS_MAX,
                        "a number of hours", &s->window_hours, err);
}

static bool read_meld(amt_state *s, amt_card_places *places, int p, int n,
                      const json_t *j, rules_error *err)
{
    static const char *const fields[] = {"kind", "cards", "by", NULL};
    char path[64], field[80];
    snprintf(path, sizeof path, "players[%d].melds[%d]", p, n);
    if (!json_is_object(j))
        return fail_at(err, path, "a meld is an object with \"kind\" and "
                                  "\"cards\"");
    if (!only_fields(j, path, fields, err))
        return false;
    if (s->meld_count >= AMT_MAX_MELDS)
        return fail_at(err, path, "the table holds at most %d melds",
                       AMT_MAX_MELDS);
    amt_meld *m = &s->melds[s->meld_count++];
    m->owner = p;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    m->kind = kind != NULL ? amt_kind_find(kind) : -1;
    snprintf(field, sizeof field, "%s.kind", path);
    if (m->kind < 0)
        return fail_at(err, field, "a meld is a \"set\", \"run\" or \"pair\"");
    snprintf(field, sizeof field, "%s.cards", path);
    amt_place where = {AMT_AT_MELD, (int8_t)p, (int8_t)n, 0};
    if (!read_cards(places, json_object_get(j, "cards"), field, where,
                    m->cards, &m->count, AMT_MELD_CARDS, err))
        return false;
    rules_error why = {{0}};
    if (!amt_meld_shape(m->kind, m->cards, m->count, &m->colour, &m->number,
                        &why))
        return fail_at(err, field, "%s", why.message);
    const json_t *by = json_object_get(j, "by");
    snprintf(field, sizeof field, "%s.by", path);
    if (by != NULL && (!json_is_array(by) ||
                       json_array_size(by) != (size_t)m->count))
        return fail_at(err, field, "the seat that played each card, one per "
                                   "card");
    for (int i = 0; i < m->count; i++) {
        int seat = p;
        if (by != NULL) {
            snprintf(field, sizeof field, "%s.by[%d]", path, i);
            if (!read_integer(json_array_get(by, (size_t)i), field, 0,
                              s->seats - 1, "a seat", &seat, err))
                return false;
        }
        m->by[i] = (int8_t)seat;
    }
    return true;
}

/* Whether pattern q is one of the game's (Classic or Progressive). */
static bool pattern_of_game(const amt_state *s, int q)
{
    for (int r = 0; r < amt_rounds(s->progressive); r++) {
        int ids[AMT_PATTERNS];
        int n = amt_round_patterns(s->progressive, r, ids);
        for (int i = 0; i < n; i++) {
            if (ids[i] == q)
                return true;
        }
    }
    return false;
}

static bool read_marked(amt_state *s, int p, const json_t *marked,
                        rules_error *err)
{
    char path[64];
    snprintf(path, sizeof path, "players[%d].marked", p);
    if (!json_is_array(marked))
        return fail_at(err, path, "a list of the patterns marked off, like "
                                  "[\"2sets4\", \"run8\"]");
    size_t i;
    const json_t *v;
    json_array_foreach(marked, i, v) {
        snprintf(path, sizeof path, "players[%d].marked[%zu]", p, i);
        const char *name = json_string_value(v);
        int q = name != NULL ? amt_pattern_find(name) : -1;
        if (q < 0 || !pattern_of_game(s, q))
            return fail_at(err, path, "there is no pattern \"%.24s\" in the "
                                      "%s game",
                           name != NULL ? name : "?",
                           s->progressive ? "progressive" : "classic");
        if (s->players[p].used & (1u << q))
            return fail_at(err, path, "\"%s\" is marked twice",
                           amt_pattern_get(q)->name);
        s->players[p].used |= 1u << q;
    }
    return true;
}

static bool read_player(amt_state *s, amt_card_places *places, int p,
                        const json_t *j, rules_error *err)
{
    static const char *const fields[] = {"hand",      "melds",
                                         "marked",    "completed",
                                         "round_scores", "end_play", NULL};
    char path[64];
    snprintf(path, sizeof path, "players[%d]", p);
    if (!json_is_object(j))
        return fail_at(err, path, "a player is an object with \"hand\", "
                                  "\"melds\", \"marked\", \"completed\" and "
                                  "\"round_scores\"");
    if (!only_fields(j, path, fields, err))
        return false;
    amt_player *pl = &s->players[p];
    snprintf(path, sizeof path, "players[%d].hand", p);
    amt_place where = {AMT_AT_HAND, (int8_t)p, 0, 0};
    if (!read_cards(places, json_object_get(j, "hand"), path, where,
                    pl->hand, &pl->hand_count, AMT_CARDS, err))
        return false;
    /* A hand has no order: the engine keeps it sorted. */
    qsort(pl->hand, (size_t)pl->hand_count, sizeof pl->hand[0], compare_ids);

    const json_t *melds = json_object_get(j, "melds");
    snprintf(path, sizeof path, "players[%d].melds", p);
    if (melds != NULL && !json_is_array(melds))
        return fail_at(err, path, "a list of melds in the order laid");
    size_t i;
    const json_t *v;
    json_array_foreach(melds, i, v) {
        if (!read_meld(s, places, p, (int)i, v, err))
            return false;
    }
    /* Melds are laid only with a pattern: a seat with melds laid one. */
    pl->laid = json_array_size(melds) > 0;

    const json_t *marked = json_object_get(j, "marked");
    if (marked != NULL && !read_marked(s, p, marked, err))
        return false;
    snprintf(path, sizeof path, "players[%d].completed", p);
    const json_t *completed = json_object_get(j, "completed");
    pl->completed = 0;
    int marked_count = __builtin_popcount(pl->used);
    if (completed != NULL &&
        (!json_is_integer(completed) || json_integer_value(completed) < 0 ||
         json_integer_value(completed) > marked_count))
        return fail_at(err, path, "the number of marked patterns laid "
                                  "complete, from 0 to the %d marked",
                       marked_count);
    if (completed != NULL)
        pl->completed = (int)json_integer_value(completed);

    int played = s->phase == AMT_PHASE_OVER ? s->round + 1 : s->round;
    const json_t *rounds = json_object_get(j, "round_scores");
    snprintf(path, sizeof path, "players[%d].round_scores", p);
    bool none_due = rounds == NULL && played == 0;
    if (!none_due && (!json_is_array(rounds) ||
                      json_array_size(rounds) != (size_t)played))
        return fail_at(err, path, "one score per round played, %d here",
                       played);
    pl->total = 0;
    json_array_foreach(rounds, i, v) {
        snprintf(path, sizeof path, "players[%d].round_scores[%zu]", p, i);
        if (!read_integer(v, path, -10000, 10000, "a score",
                          &pl->round_score[i], err))
            return false;
        pl->total += pl->round_score[i];
    }
    return true;
}

static bool read_claims(amt_state *s, const json_t *window, rules_error *err)
{
    static const char *const fields[] = {"claimed", "passed", NULL};
    if (window == NULL || json_is_null(window))
        return true;
    if (s->phase != AMT_PHASE_DRAW)
        return fail_at(err, "claim_window", "open only in the draw phase, "
                                            "after a discard");
    if (!json_is_object(window))
        return fail_at(err, "claim_window", "an object with the seats that "
                                            "\"claimed\" and \"passed\"");
    if (!only_fields(window, "claim_window", fields, err))
        return false;
    s->window = true;
    for (int answer = AMT_CLAIM_CLAIMED; answer <= AMT_CLAIM_PASSED;
         answer++) {
        const char *key = answer == AMT_CLAIM_CLAIMED ? "claimed" : "passed";
        const json_t *seats = json_object_get(window, key);
        char path[48];
        snprintf(path, sizeof path, "claim_window.%s", key);
        if (seats != NULL && !json_is_array(seats))
            return fail_at(err, path, "a list of seats");
        size_t i;
        const json_t *v;
        json_array_foreach(seats, i, v) {
            snprintf(path, sizeof path, "claim_window.%s[%zu]", key, i);
            int seat;
            if (!read_integer(v, path, 0, s->seats - 1, "a seat", &seat, err))
                return false;
            if (seat == s->turn)
                return fail_at(err, path, "seat %d is the next player, who "
                                          "answers by take or draw",
                               seat);
            if (s->players[seat].claim != AMT_CLAIM_NONE)
                return fail_at(err, path, "seat %d has already answered",
                               seat);
            s->players[seat].claim = answer;
        }
    }
    return true;
}

/* Why seat does not choose at the round's end, or NULL when it does. */
static const char *not_choosing(const amt_state *s, int seat)
{
    const amt_player *pl = &s->players[seat];
    if (pl->laid)
        return "it laid a pattern this round";
    if (pl->hand_count == 0)
        return "its hand is empty";
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    for (int i = 0; i < n; i++) {
        if (!(pl->used & (1u << ids[i])))
            return NULL;
    }
    return "it has no open pattern this round";
}

/* The round's end: each seat that may still lay cards either chose (its
 * end_play) or is still choosing. Read once every hand is known. */
static bool read_end_plays(amt_state *s, const json_t *players,
                           rules_error *err)
{
    for (int p = 0; p < s->seats; p++) {
        amt_player *pl = &s->players[p];
        const json_t *choice =
            json_object_get(json_array_get(players, (size_t)p), "end_play");
        char path[48];
        snprintf(path, sizeof path, "players[%d].end_play", p);
        const char *why = not_choosing(s, p);
        if (s->phase != AMT_PHASE_ENDPLAY) {
            if (choice != NULL)
                return fail_at(err, path, "a choice made only at the "
                                          "round's end (phase \"endplay\")");
            continue;
        }
        if (choice == NULL) {
            pl->end = why == NULL ? AMT_END_WAITING : AMT_END_NONE;
            continue;
        }
        if (why != NULL)
            return fail_at(err, path, "seat %d does not choose at the "
                                      "round's end: %s",
                           p, why);
        const char *text = json_string_value(choice);
        if (text == NULL)
            return fail_at(err, path, "\"pass\" or a pattern in text "
                                      "notation, like \"pattern 2sets4 "
                                      "set:B5,R5,Y5,G5\"");
        rules_error why_not = {{0}};
        json_t *action = amt_parse_move((const rules_state *)s, p, text,
                                        &why_not);
        const char *type = json_string_value(json_object_get(action, "type"));
        bool ok = action != NULL;
        if (ok && strcmp(type, "pass") == 0) {
            pl->end = AMT_END_PASSED;
        } else if (ok && strcmp(type, "pattern") == 0) {
            ok = amt_read_end_play(s, p, action, &pl->end_play, &why_not);
            pl->end = AMT_END_PLAYED;
        } else if (ok) {
            ok = false;
            snprintf(why_not.message, sizeof why_not.message,
                     "\"pass\" or a pattern, like \"pattern 2sets4 "
                     "set:B5,R5,Y5,G5\"");
        }
        json_decref(action);
        if (!ok)
            return fail_at(err, path, "%s", why_not.message);
    }
    return true;
}

static bool read_rng(amt_state *s, const json_t *rng, rules_error *err)
{
    static const char *const fields[] = {"seed", "counter", NULL};
    if (!json_is_object(rng))
        return fail_at(err, "rng", "an object with the match's \"seed\" and "
                                   "\"counter\"");
    if (!only_fields(rng, "rng", fields, err))
        return false;
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    if (seed == NULL || !rules_rng_seed_from_hex(&s->rng, seed))
        return fail_at(err, "rng.seed", "64 hex digits");
    const json_t *counter = json_object_get(rng, "counter");
    if (!json_is_integer(counter) || json_integer_value(counter) < 0)
        return fail_at(err, "rng.counter", "the number of draws made, 0 or "
                                           "more");
    s->rng.counter = (uint64_t)json_integer_value(counter);
    return true;
}

static bool read_position(amt_state *s, const json_t *snap, rules_error *err)
{
    static const char *const fields[] = {
        "format",    "game", "classic_end_of_round", "claim_window_hours",
        "round",     "phase",        "turn",
        "claim_window", "draw_pile", "discard_pile", "players", "rng",
        NULL};
    if (!json_is_object(snap))
        return rules_fail(err, "a position is a JSON object (README, "
                               "\"Position\")");
    if (!only_fields(snap, "position", fields, err))
        return false;
    const json_t *format = json_object_get(snap, "format");
    if (format != NULL && (!json_is_integer(format) ||
                           json_integer_value(format) != POSITION_FORMAT)) {
        /* an older cache: the service replays the match instead */
        return fail_at(err, "format", "this engine reads positions of "
                                      "format %d",
                       POSITION_FORMAT);
    }
    if (!read_options(s, snap, err))
        return false;
    const json_t *players = json_object_get(snap, "players");
    if (!json_is_array(players) || json_array_size(players) < AMT_MIN_SEATS ||
        json_array_size(players) > AMT_MAX_SEATS)
        return fail_at(err, "players", "one player per seat, %d to %d",
                       AMT_MIN_SEATS, AMT_MAX_SEATS);
    s->seats = (int)json_array_size(players);
    int round;
    if (!read_integer(json_object_get(snap, "round"), "round", 1,
                      amt_rounds(s->progressive), "a round", &round, err))
        return false;
    s->round = round - 1;
    const char *phase = json_string_value(json_object_get(snap, "phase"));
    int named = -1;
    for (int i = 0; phase != NULL && i <= AMT_PHASE_OVER; i++) {
        if (strcmp(phase, phase_names[i]) == 0)
            named = i;
    }
    s->phase = (amt_phase)named;
    if (named < 0)
        return fail_at(err, "phase", "there is no phase \"%.24s\" (draw, "
                                     "play, endplay or over)",
                       phase != NULL ? phase : "?");
    if (!read_integer(json_object_get(snap, "turn"), "turn", 0, s->seats - 1,
                      "a seat", &s->turn, err))
        return false;

    amt_card_places *places = malloc(sizeof *places);
    if (places == NULL)
        abort();
    amt_places_init(places);
    int16_t top_first[AMT_CARDS];
    amt_place draw = {AMT_AT_DRAW_PILE, 0, 0, 0};
    amt_place discard = {AMT_AT_DISCARD_PILE, 0, 0, 0};
    bool ok = read_cards(places, json_object_get(snap, "draw_pile"),
                         "draw_pile", draw, top_first, &s->draw_count,
                         AMT_CARDS, err);
    /* the engine keeps a pile's top last */
    for (int i = 0; ok && i < s->draw_count; i++)
        s->draw[i] = top_first[s->draw_count - 1 - i];
    ok = ok && read_cards(places, json_object_get(snap, "discard_pile"),
                          "discard_pile", discard, top_first,
                          &s->discard_count, AMT_CARDS, err);
    for (int i = 0; ok && i < s->discard_count; i++)
        s->discard[i] = top_first[s->discard_count - 1 - i];
    for (int p = 0; ok && p < s->seats; p++)
        ok = read_player(s, places, p, json_array_get(players, (size_t)p),
                         err);
    ok = ok && amt_places_complete(places, err);
    free(places);
    return ok && read_claims(s, json_object_get(snap, "claim_window"), err) &&
           read_end_plays(s, players, err) &&
           read_rng(s, json_object_get(snap, "rng"), err);
}

rules_state *amt_load(const json_t *snap, rules_error *err)
{
    amt_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    if (!read_position(s, snap, err) || !amt_check((rules_state *)s, err)) {
        free(s);
        return NULL;
    }
    return (rules_state *)s;
}
