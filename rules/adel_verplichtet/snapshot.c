/* snapshot.c: the complete state as JSON (save), back (load), and every
 * invariant of the game (check). The format is described in README.md. */
#include "av_internal.h"

#include <stdlib.h>
#include <string.h>

static json_t *location_json(av_location location)
{
    return location ? json_string(av_location_name(location)) : json_null();
}

static json_t *play_json(const av_play *play)
{
    if (play->card == AV_CARD_NONE)
        return json_null();
    av_move m = {.type = AV_MOVE_PLAY, .play = *play};
    return av_move_encode(&m);
}

json_t *av_save(const rules_state *state)
{
    const av_state *s = (const av_state *)state;
    json_t *lords = json_array();
    for (int i = 0; i < s->seats; i++) {
        const av_lord *l = &s->lord[i];
        json_t *robbed = json_array();
        for (int e = 0; e < s->seats; e++) {
            if (l->robbed >> e & 1)
                json_array_append_new(robbed, json_integer(e));
        }
        json_array_append_new(lords, json_pack(
            "{s:i,s:o,s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:o,s:o}", "pawn", l->pawn,
            "hand", av_cards_json(l->hand), "display",
            av_cards_json(l->display), "final_set",
            av_cards_json(l->final_set), "chosen", l->chosen,
            "sealed_location", location_json(l->sealed_location),
            "sealed_play", play_json(&l->sealed_play), "sealed_set",
            av_cards_json(l->sealed_set), "location",
            location_json(l->location), "play", play_json(&l->play),
            "robbed", robbed));
    }
    json_t *piles = json_array();
    for (int k = 0; k < 2; k++) {
        json_t *pile = json_array();
        for (int j = 0; j < s->pile_count[k]; j++) {
            char name[4];
            av_card_name(s->pile[k][j], name);
            json_array_append_new(pile, json_string(name));
        }
        json_array_append_new(piles, pile);
    }
    json_t *checks = json_array();
    for (int c = 0; c < s->seats * AV_CHECKS_PER_LORD; c++)
        json_array_append_new(checks, json_integer(s->check_holder[c]));
    json_t *prison = json_array();
    for (int c = 0; c < s->seats; c++)
        json_array_append_new(prison, json_integer(s->prison[c]));
    json_t *log = json_array();
    for (int i = 0; i < s->log_count; i++)
        json_array_append_new(log, json_string(s->log[i]));
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    return json_pack(
        "{s:s,s:i,s:i,s:s,s:s,s:i,s:o,s:o,s:o,s:o,s:i,s:o,s:{s:s,s:I}}",
        "game", "adel_verplichtet", "version", AV_VERSION, "seats", s->seats,
        "variant", av_variant_name(s->variant), "phase",
        av_phase_name(s->phase), "turn", s->turn, "lords", lords, "piles",
        piles, "checks", checks, "prison", prison, "auction_winner",
        s->auction_winner, "log", log, "rng", "seed", seed, "counter",
        (json_int_t)s->rng.counter);
}

static bool read_location(const json_t *value, av_location *out)
{
    *out = AV_LOC_NONE;
    if (json_is_null(value))
        return true;
    const char *name = json_string_value(value);
    if (name == NULL)
        return false;
    for (int l = AV_LOC_AUCTION; l <= AV_LOC_CASTLE; l++) {
        if (strcmp(name, av_location_name((av_location)l)) == 0)
            *out = (av_location)l;
    }
    return *out != AV_LOC_NONE;
}

static bool read_play(const json_t *value, av_play *out)
{
    *out = (av_play){AV_CARD_NONE, 0};
    if (json_is_null(value))
        return true;
    av_move m;
    if (!av_move_decode(value, &m, NULL) || m.type != AV_MOVE_PLAY ||
        m.location != AV_LOC_NONE)
        return false;
    *out = m.play;
    return true;
}

static bool read_lord(const json_t *j, int seats, av_lord *l)
{
    json_t *hand, *display, *final_set, *sealed_location, *sealed_play;
    json_t *sealed_set, *location, *play, *robbed;
    int chosen;
    if (json_unpack((json_t *)j, "{s:i,s:o,s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:o,"
                                 "s:o!}",
                    "pawn", &l->pawn, "hand", &hand, "display", &display,
                    "final_set", &final_set, "chosen", &chosen,
                    "sealed_location", &sealed_location, "sealed_play",
                    &sealed_play, "sealed_set", &sealed_set, "location",
                    &location, "play", &play, "robbed", &robbed) != 0)
        return false;
    l->chosen = chosen != 0;
    if (!av_cards_from_json(hand, &l->hand) ||
        !av_cards_from_json(display, &l->display) ||
        !av_cards_from_json(final_set, &l->final_set) ||
        !av_cards_from_json(sealed_set, &l->sealed_set) ||
        !read_location(sealed_location, &l->sealed_location) ||
        !read_location(location, &l->location) ||
        !read_play(sealed_play, &l->sealed_play) ||
        !read_play(play, &l->play) || !json_is_array(robbed))
        return false;
    size_t i;
    const json_t *e;
    json_array_foreach(robbed, i, e) {
        json_int_t seat = json_integer_value(e);
        if (!json_is_integer(e) || seat < 0 || seat >= seats)
            return false;
        l->robbed |= 1u << seat;
    }
    return true;
}

static int name_index(const char *name, const char *(*namer)(int), int count)
{
    for (int i = 0; i < count; i++) {
        if (name != NULL && strcmp(name, namer(i)) == 0)
            return i;
    }
    return -1;
}

static const char *phase_namer(int i)
{
    return av_phase_name((av_phase)i);
}

static const char *variant_namer(int i)
{
    return av_variant_name((av_variant)i);
}

static rules_state *fail_load(av_state *s, rules_error *err, const char *what)
{
    free(s);
    rules_fail(err, "not an Adel Verplichtet snapshot: %s", what);
    return NULL;
}

rules_state *av_load(const json_t *snapshot, rules_error *err)
{
    av_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    const char *game, *variant, *phase, *seed;
    int version;
    json_t *lords, *piles, *checks, *prison, *log;
    json_int_t counter;
    if (json_unpack((json_t *)snapshot,
                    "{s:s,s:i,s:i,s:s,s:s,s:i,s:o,s:o,s:o,s:o,s:i,s:o,"
                    "s:{s:s,s:I!}!}",
                    "game", &game, "version", &version, "seats", &s->seats,
                    "variant", &variant, "phase", &phase, "turn", &s->turn,
                    "lords", &lords, "piles", &piles, "checks", &checks,
                    "prison", &prison, "auction_winner", &s->auction_winner,
                    "log", &log, "rng", "seed", &seed, "counter",
                    &counter) != 0)
        return fail_load(s, err, "a field is missing or of the wrong type");
    if (strcmp(game, "adel_verplichtet") != 0 || version != AV_VERSION)
        return fail_load(s, err, "another game or version");
    if (s->seats < AV_MIN_PLAYERS || s->seats > AV_MAX_PLAYERS)
        return fail_load(s, err, "seats must be 2 to 5");
    int v = name_index(variant, variant_namer, 3);
    int ph = name_index(phase, phase_namer, AV_PHASE_OVER + 1);
    if (v < 0 || ph < 0)
        return fail_load(s, err, "unknown variant or phase");
    s->variant = (av_variant)v;
    s->phase = (av_phase)ph;
    if (!rules_rng_seed_from_hex(&s->rng, seed) || counter < 0)
        return fail_load(s, err, "bad rng");
    s->rng.counter = (uint64_t)counter;
    if (json_array_size(lords) != (size_t)s->seats ||
        json_array_size(piles) != 2 ||
        json_array_size(checks) != (size_t)(s->seats * AV_CHECKS_PER_LORD) ||
        json_array_size(prison) != (size_t)s->seats ||
        !json_is_array(log) || json_array_size(log) > AV_LOG_LINES)
        return fail_load(s, err, "an array has the wrong length");
    for (int i = 0; i < s->seats; i++) {
        if (!read_lord(json_array_get(lords, (size_t)i), s->seats,
                       &s->lord[i]))
            return fail_load(s, err, "a Lord is malformed");
    }
    for (int k = 0; k < 2; k++) {
        const json_t *pile = json_array_get(piles, (size_t)k);
        if (!json_is_array(pile) || json_array_size(pile) > AV_CARDS)
            return fail_load(s, err, "a pile is malformed");
        size_t j;
        const json_t *name;
        json_array_foreach(pile, j, name) {
            int card = av_card_parse(json_string_value(name));
            if (card < 0)
                return fail_load(s, err, "a pile holds a bad card name");
            s->pile[k][s->pile_count[k]++] = card;
        }
    }
    for (int c = 0; c < AV_MAX_CHECKS; c++) {
        const json_t *holder = json_array_get(checks, (size_t)c);
        if (c >= s->seats * AV_CHECKS_PER_LORD) {
            s->check_holder[c] = AV_CHECK_GONE;
            continue;
        }
        if (!json_is_integer(holder))
            return fail_load(s, err, "a check holder is not a number");
        s->check_holder[c] = (int)json_integer_value(holder);
    }
    for (int c = 0; c < s->seats; c++) {
        const json_t *cell = json_array_get(prison, (size_t)c);
        if (!json_is_integer(cell))
            return fail_load(s, err, "a prison cell is not a number");
        s->prison[c] = (int)json_integer_value(cell);
    }
    s->log_count = (int)json_array_size(log);
    for (int i = 0; i < s->log_count; i++) {
        const char *line = json_string_value(json_array_get(log, (size_t)i));
        if (line == NULL || strlen(line) >= AV_LOG_WIDTH)
            return fail_load(s, err, "a log line is malformed");
        strcpy(s->log[i], line);
    }
    if (!av_check((rules_state *)s, err)) {
        free(s);
        return NULL;
    }
    return (rules_state *)s;
}

static bool check_cards(const av_state *s, rules_error *err)
{
    av_cards seen = 0;
    int count = 0;
    for (int i = 0; i < AV_MAX_PLAYERS; i++) {
        const av_lord *l = &s->lord[i];
        if (i >= s->seats) {
            if (l->hand | l->display)
                return rules_fail(err, "an absent Lord holds cards");
            continue;
        }
        if ((l->hand & l->display) || (seen & (l->hand | l->display)))
            return rules_fail(err, "a collection card is in two places");
        seen |= l->hand | l->display;
        count += __builtin_popcountll(l->hand | l->display);
    }
    for (int k = 0; k < 2; k++) {
        if (s->pile_count[k] < 0 || s->pile_count[k] > AV_CARDS)
            return rules_fail(err, "a pile count is out of range");
        for (int j = 0; j < s->pile_count[k]; j++) {
            int card = s->pile[k][j];
            if (card < 0 || card >= AV_CARDS || (seen >> card & 1))
                return rules_fail(err, "a collection card is in two places");
            seen |= (av_cards)1 << card;
            count++;
        }
    }
    if (count != AV_CARDS)
        return rules_fail(err, "%d collection cards are accounted for, not 45",
                          count);
    return true;
}

static bool check_checks_and_thieves(const av_state *s, rules_error *err)
{
    for (int c = 0; c < AV_MAX_CHECKS; c++) {
        int h = s->check_holder[c];
        if (c >= s->seats * AV_CHECKS_PER_LORD ? h != AV_CHECK_GONE
                                               : (h < AV_CHECK_GONE ||
                                                  h >= s->seats))
            return rules_fail(err, "check %d has no valid holder",
                              av_check_value(c));
    }
    bool empty_seen = false;
    for (int c = 0; c < AV_MAX_PLAYERS; c++) {
        int sack = s->prison[c];
        if (c >= s->seats) {
            if (sack != 0)
                return rules_fail(err, "a prison cell beyond the players "
                                       "is used");
            continue;
        }
        if (sack == 0) {
            empty_seen = true;
            continue;
        }
        if (empty_seen)
            return rules_fail(err, "prison cells fill from cell #1 on");
        if (sack < 1 || sack > AV_MAX_SACK ||
            av_thief_owner(sack) >= s->seats)
            return rules_fail(err, "prison holds an unknown thief %d", sack);
        for (int d = 0; d < c; d++) {
            if (s->prison[d] == sack)
                return rules_fail(err, "thief %d is in two cells", sack);
        }
    }
    return true;
}

static bool check_play(const av_state *s, int seat, av_location where,
                       const av_play *play, rules_error *err)
{
    if (play->card == AV_CARD_NONE)
        return true;
    if (play->card == AV_CARD_THIEF &&
        (play->value < 1 || play->value > AV_MAX_SACK ||
         av_thief_owner(play->value) != seat))
        return rules_fail(err, "Lord %d plays another Lord's thief", seat);
    if (play->card == AV_CARD_CHECK &&
        av_check_by_value(play->value, s->seats) < 0)
        return rules_fail(err, "Lord %d plays an unknown check", seat);
    if (where == AV_LOC_NONE)
        return rules_fail(err, "Lord %d plays a card nowhere", seat);
    return true;
}

static bool participant(const av_state *s, int seat)
{
    switch (s->phase) {
    case AV_PHASE_LOCATION:
    case AV_PHASE_ACTION:
    case AV_PHASE_PLAN:
    case AV_PHASE_FINAL:
        return true;
    case AV_PHASE_EXHIBIT:
        return s->lord[seat].location == AV_LOC_CASTLE &&
               s->lord[seat].play.card == AV_CARD_EXHIBIT;
    default:
        return false;
    }
}

static bool check_lords(const av_state *s, rules_error *err)
{
    bool exhibitors = false;
    for (int i = 0; i < s->seats; i++) {
        const av_lord *l = &s->lord[i];
        if (l->pawn < 0 || l->pawn > 200)
            return rules_fail(err, "Lord %d's pawn is off the board", i);
        if (l->display && s->phase != AV_PHASE_STEAL)
            return rules_fail(err, "cards are on display outside the castle "
                                   "phase");
        if (l->final_set && (s->phase != AV_PHASE_OVER ||
                             (l->final_set & ~l->hand) ||
                             !av_set_valid(l->final_set)))
            return rules_fail(err, "Lord %d's final set is not his", i);
        if (l->chosen && !participant(s, i))
            return rules_fail(err, "Lord %d chose outside a decision", i);
        if (!l->chosen && (l->sealed_location || l->sealed_play.card ||
                           l->sealed_set))
            return rules_fail(err, "Lord %d has a sealed choice he never "
                                   "made", i);
        if (l->sealed_set & ~l->hand)
            return rules_fail(err, "Lord %d's sealed set is not in his hand",
                              i);
        if (!check_play(s, i, l->location, &l->play, err))
            return false;
        av_location sealed_where = s->phase == AV_PHASE_PLAN
                                       ? l->sealed_location : l->location;
        if (!check_play(s, i, sealed_where, &l->sealed_play, err))
            return false;
        exhibitors |= l->location == AV_LOC_CASTLE &&
                      l->play.card == AV_CARD_EXHIBIT;
    }
    if (s->phase == AV_PHASE_EXHIBIT && !exhibitors)
        return rules_fail(err, "an exhibit decision without exhibitors");
    if (s->phase == AV_PHASE_STEAL && av_current_thief(s) < 0)
        return rules_fail(err, "a theft is pending with nothing to steal");
    if ((s->phase == AV_PHASE_TAKE) !=
        (s->auction_winner >= 0 && s->auction_winner < s->seats))
        return rules_fail(err, "the auction winner does not match the phase");
    if (s->phase == AV_PHASE_TAKE &&
        (s->pile_count[0] == 0 || s->pile_count[1] == 0))
        return rules_fail(err, "a choice of card with only one on offer");
    if (s->phase != AV_PHASE_TAKE && s->auction_winner != -1)
        return rules_fail(err, "an auction winner outside the auction");
    return true;
}

bool av_check(const rules_state *state, rules_error *err)
{
    const av_state *s = (const av_state *)state;
    if (s->seats < AV_MIN_PLAYERS || s->seats > AV_MAX_PLAYERS)
        return rules_fail(err, "seats out of range");
    if (s->variant != AV_VARIANT_NONE && s->seats != 2)
        return rules_fail(err, "a two-player variant with %d Lords",
                          s->seats);
    if ((s->phase == AV_PHASE_PLAN) != (s->variant == AV_VARIANT_COMBINED) &&
        s->phase == AV_PHASE_PLAN)
        return rules_fail(err, "a combined decision outside that variant");
    if (s->phase == AV_PHASE_LOCATION && s->variant != AV_VARIANT_NONE)
        return rules_fail(err, "a location decision in a two-player variant");
    if (s->turn < 1)
        return rules_fail(err, "the turn number starts at 1");
    if (s->log_count < 0 || s->log_count > AV_LOG_LINES)
        return rules_fail(err, "the log is too long");
    return check_cards(s, err) && check_checks_and_thieves(s, err) &&
           check_lords(s, err);
}
