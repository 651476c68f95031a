/* load.c: a position (README.md, "Position") back into the state. A
 * position may have been edited by hand, so lists whose order means
 * nothing (hands, displays, checks) come in any order, what save.c leaves
 * out is derived (the seat count, the auction winner, who has chosen,
 * which checks left the game), and each error names the field and the
 * value: "lords[1].hand[2]: there is no card \"B11\"". check.c then proves
 * the invariants. One pass over the input, with a table of where each card
 * and check was met. */
#include "av_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRIEF 40 /* a value quoted in an error: enough to recognise it */
#define PATH 96  /* a field's name: "lords[4].final_set[44]" */

/* Where a card or a check was met, to name both places of a duplicate. */
typedef enum place_kind {
    NOWHERE = 0,
    IN_HAND,
    IN_DISPLAY,
    IN_PILE,
    IN_CHECKS,
    OUT_OF_PLAY
} place_kind;

typedef struct place {
    place_kind kind;
    int list;   /* seat, or auction pile */
    int index;  /* position in that list */
} place;

typedef struct reader {
    av_state *s;
    rules_error *err;
    int lord; /* the Lord being read (paths are his fields), else -1 */
    place card_at[AV_CARDS];
    place check_at[AV_MAX_CHECKS];
} reader;

static void place_name(const place *p, char *out, size_t size)
{
    switch (p->kind) {
    case IN_HAND:
        snprintf(out, size, "lords[%d].hand[%d]", p->list, p->index);
        break;
    case IN_DISPLAY:
        snprintf(out, size, "lords[%d].display[%d]", p->list, p->index);
        break;
    case IN_PILE:
        snprintf(out, size, "auction_piles[%d][%d]", p->list, p->index);
        break;
    case IN_CHECKS:
        snprintf(out, size, "lords[%d].checks[%d]", p->list, p->index);
        break;
    default:
        snprintf(out, size, "checks_out_of_play[%d]", p->index);
        break;
    }
}

/* A value as JSON text, shortened: "\"B11\"", "12.5", "[1,2]". */
static void brief(const json_t *value, char out[BRIEF])
{
    char *text = value ? json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT)
                       : NULL;
    if (text == NULL) {
        snprintf(out, BRIEF, "nothing");
        return;
    }
    size_t length = strlen(text);
    if (length < BRIEF) {
        memcpy(out, text, length + 1);
    } else {
        size_t cut = BRIEF - 4;
        while (cut > 0 && ((unsigned char)text[cut] & 0xc0) == 0x80)
            cut--; /* never half a UTF-8 character */
        memcpy(out, text, cut);
        memcpy(out + cut, "...", 4);
    }
    free(text);
}

/* Fills r->err with "path: sentence" (the path inside lords[r->lord]
 * while a Lord is read) and returns false. Paths are only written out
 * here, on the way to an error, to keep loading quick. */
static bool fail_at(reader *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool fail_at(reader *r, const char *path, const char *fmt, ...)
{
    char sentence[sizeof r->err->message];
    va_list args;
    va_start(args, fmt);
    vsnprintf(sentence, sizeof sentence, fmt, args);
    va_end(args);
    char where[PATH + 16];
    if (r->lord >= 0)
        snprintf(where, sizeof where, "lords[%d]%s%s", r->lord,
                 path[0] ? "." : "", path);
    else
        snprintf(where, sizeof where, "%s", path);
    return rules_fail(r->err, "%s%s%s", where, where[0] ? ": " : "",
                      sentence);
}

/* Every key of object must be one of names (NULL-terminated). */
static bool only_fields(reader *r, const json_t *object, const char *path,
                        const char *const names[])
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)object, key, value) {
        bool known = false;
        for (int i = 0; names[i] != NULL && !known; i++)
            known = strcmp(key, names[i]) == 0;
        if (!known) {
            char quoted[BRIEF];
            json_t *name = json_string(key);
            brief(name, quoted);
            json_decref(name);
            return fail_at(r, path, "unknown field %s", quoted);
        }
    }
    return true;
}

static bool need(reader *r, const json_t *object, const char *key,
                 const char *path, const json_t **out)
{
    *out = json_object_get(object, key);
    if (*out == NULL)
        return fail_at(r, path, "the field \"%s\" is missing", key);
    return true;
}

/* A whole number in min..max; name says what it is ("a space"). */
static bool read_int(reader *r, const json_t *value, const char *path,
                     int min, int max, const char *name, int *out)
{
    json_int_t n = json_integer_value(value);
    if (!json_is_integer(value) || n < min || n > max) {
        char shown[BRIEF];
        brief(value, shown);
        return fail_at(r, path, "%s is not %s (a whole number from %d to "
                                "%d)", shown, name, min, max);
    }
    *out = (int)n;
    return true;
}

/* One of names[0..count-1]; what says what they are ("phase"). */
static bool read_name(reader *r, const json_t *value, const char *path,
                      const char *what, const char *(*namer)(int),
                      int first, int count, int *out)
{
    const char *name = json_string_value(value);
    for (int i = first; name != NULL && i < count; i++) {
        if (strcmp(name, namer(i)) == 0) {
            *out = i;
            return true;
        }
    }
    char shown[BRIEF], choices[128] = "";
    size_t length = 0;
    brief(value, shown);
    for (int i = first; i < count && length < sizeof choices; i++)
        length += (size_t)snprintf(choices + length, sizeof choices - length,
                                   "%s%s", i == first ? ""
                                           : i + 1 == count ? " or " : ", ",
                                   namer(i));
    return fail_at(r, path, "there is no %s %s (%s)", what, shown, choices);
}

static const char *phase_namer(int i)
{
    return av_phase_name((av_phase)i);
}

static const char *variant_namer(int i)
{
    return av_variant_name((av_variant)i);
}

static const char *location_namer(int i)
{
    return av_location_name((av_location)i);
}

static bool is_list(reader *r, const json_t *value, const char *path,
                    const char *of)
{
    if (json_is_array(value))
        return true;
    char shown[BRIEF];
    brief(value, shown);
    return fail_at(r, path, "%s is not a list of %s", shown, of);
}

/* Card names in any order into *out. A place (kind) claims each card for
 * itself: one met before elsewhere is an error naming both places. An
 * absent list is empty. */
static bool read_cards(reader *r, const json_t *array, const char *path,
                       place_kind kind, int list, av_cards *out)
{
    *out = 0;
    if (array == NULL)
        return true;
    if (!is_list(r, array, path, "cards"))
        return false;
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        int card = av_card_parse(json_string_value(item));
        bool listed = card >= 0 && (*out >> card & 1);
        bool elsewhere = card >= 0 && kind != NOWHERE &&
                         r->card_at[card].kind != NOWHERE;
        if (card < 0 || listed || elsewhere) {
            char here[PATH], name[4], shown[BRIEF];
            snprintf(here, sizeof here, "%s[%zu]", path, i);
            brief(item, shown);
            if (card < 0)
                return fail_at(r, here, "there is no card %s (A1-A8, B1-B8, "
                                        "C1-C8, D1-D7, E1-E7, F1-F7)", shown);
            av_card_name(card, name);
            if (listed)
                return fail_at(r, here, "%s is listed twice", name);
            char there[PATH];
            place_name(&r->card_at[card], there, sizeof there);
            return fail_at(r, here, "%s is also in %s", name, there);
        }
        if (kind != NOWHERE)
            r->card_at[card] = (place){kind, list, (int)i};
        *out |= (av_cards)1 << card;
    }
    return true;
}

/* Check values in any order, each given to holder. */
static bool read_checks(reader *r, const json_t *array, const char *path,
                        place_kind kind, int holder)
{
    if (!is_list(r, array, path, "check values"))
        return false;
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        json_int_t value = json_integer_value(item);
        int check = json_is_integer(item) && value > 0 && value < 100000
                        ? av_check_by_value((int)value, r->s->seats) : -1;
        place *at = check >= 0 ? &r->check_at[check] : NULL;
        if (at == NULL || at->kind != NOWHERE) {
            char here[PATH], shown[BRIEF], there[PATH];
            snprintf(here, sizeof here, "%s[%zu]", path, i);
            brief(item, shown);
            if (at == NULL)
                return fail_at(r, here, "there is no check of %s with %d "
                                        "Lords", shown, r->s->seats);
            place_name(at, there, sizeof there);
            return fail_at(r, here, "check %d is also in %s", (int)value,
                           there);
        }
        *at = (place){kind, holder, (int)i};
        r->s->check_holder[check] = holder;
    }
    return true;
}

/* A revealed action card as the words after "play": "thief 6". */
static bool read_play(reader *r, const json_t *value, const char *path,
                      av_play *out)
{
    *out = (av_play){AV_CARD_NONE, 0};
    if (value == NULL || json_is_null(value))
        return true;
    const char *words = json_string_value(value);
    char text[AV_MOVE_TEXT];
    av_move m;
    bool read = words != NULL && strlen(words) < sizeof text - 8;
    if (read) {
        snprintf(text, sizeof text, "play %s", words);
        read = av_move_read(NULL, -1, text, &m, NULL) &&
               m.type == AV_MOVE_PLAY && m.location == AV_LOC_NONE;
    }
    char shown[BRIEF];
    brief(value, shown);
    if (!read)
        return fail_at(r, path, "%s is not an action card (\"check VALUE\", "
                                "\"thief SACK\", \"detective\", \"exhibit\" "
                                "or \"nothing\")", shown);
    if (m.play.card == AV_CARD_THIEF && m.play.value == 0)
        return fail_at(r, path, "%s: name the thief by his sack number "
                                "(\"thief 6\")", shown);
    if (m.play.card == AV_CARD_CHECK &&
        av_check_by_value(m.play.value, r->s->seats) < 0)
        return fail_at(r, path, "there is no check of %d with %d Lords",
                       m.play.value, r->s->seats);
    *out = m.play;
    return true;
}

/* The move a Lord sealed in the open decision, in the notation; null
 * when he has not chosen. */
static bool read_sealed(reader *r, const json_t *value, const char *path,
                        int seat)
{
    av_state *s = r->s;
    av_lord *l = &s->lord[seat];
    if (value == NULL || json_is_null(value))
        return true;
    char shown[BRIEF];
    brief(value, shown);
    rules_error why = {{0}};
    av_move m;
    const char *text = json_string_value(value);
    if (text == NULL || !av_move_read(NULL, seat, text, &m, &why))
        return fail_at(r, path, "%s is not a move: %s", shown,
                       text ? why.message : "write it in words");
    av_move_type want = AV_MOVE_EXHIBIT;
    const char *form = "exhibit CARD CARD CARD...";
    switch (s->phase) {
    case AV_PHASE_LOCATION:
        want = AV_MOVE_GO;
        form = "go castle";
        break;
    case AV_PHASE_ACTION:
        want = AV_MOVE_PLAY;
        form = "play detective";
        break;
    case AV_PHASE_PLAN:
        want = AV_MOVE_PLAY;
        form = "go castle play detective";
        break;
    case AV_PHASE_EXHIBIT:
    case AV_PHASE_FINAL:
        break;
    default:
        return fail_at(r, path, "%s: nobody chooses in secret in the %s "
                                "phase (write null)", shown,
                       av_phase_name(s->phase));
    }
    bool located = m.location != AV_LOC_NONE;
    if (m.type != want || (m.type == AV_MOVE_PLAY &&
                           located != (s->phase == AV_PHASE_PLAN)))
        return fail_at(r, path, "%s is not a choice of the %s phase (write "
                                "\"%s\")", shown, av_phase_name(s->phase),
                       form);
    if (m.type == AV_MOVE_PLAY && m.play.card == AV_CARD_THIEF &&
        m.play.value == 0)
        return fail_at(r, path, "%s: name the thief by his sack number "
                                "(\"play thief %d\")", shown,
                       av_thief_sack(seat, 0));
    l->chosen = true;
    l->sealed_location = m.location;
    l->sealed_play = m.play;
    l->sealed_set = m.set;
    return true;
}

static bool read_robbed(reader *r, const json_t *array, const char *path,
                        uint32_t *out)
{
    *out = 0;
    if (array == NULL)
        return true;
    if (!is_list(r, array, path, "seats"))
        return false;
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        char here[PATH];
        int seat;
        snprintf(here, sizeof here, "%s[%zu]", path, i);
        if (!read_int(r, item, here, 0, r->s->seats - 1, "a seat", &seat))
            return false;
        if (*out >> seat & 1)
            return fail_at(r, here, "seat %d is listed twice", seat);
        *out |= 1u << seat;
    }
    return true;
}

static const char *const lord_fields[] = {
    "pawn", "hand", "checks", "location", "play", "sealed", "display",
    "robbed", "final_set", NULL,
};

static bool read_location(reader *r, const json_t *value, const char *path,
                          av_location *out)
{
    int location = AV_LOC_NONE;
    if (value != NULL && !json_is_null(value) &&
        !read_name(r, value, path, "location", location_namer,
                   AV_LOC_AUCTION, AV_LOC_CASTLE + 1, &location))
        return false;
    *out = (av_location)location;
    return true;
}

static bool read_lord(reader *r, const json_t *j, int seat)
{
    av_lord *l = &r->s->lord[seat];
    r->lord = seat;
    if (!json_is_object(j))
        return fail_at(r, "", "a Lord is an object {\"pawn\": 0, \"hand\": "
                              "[...], \"checks\": [...]}");
    const json_t *pawn, *hand, *checks;
    bool read = only_fields(r, j, "", lord_fields) &&
                need(r, j, "pawn", "", &pawn) &&
                need(r, j, "hand", "", &hand) &&
                need(r, j, "checks", "", &checks) &&
                read_int(r, pawn, "pawn", 0, AV_PAWN_MAX, "a space",
                         &l->pawn) &&
                read_cards(r, hand, "hand", IN_HAND, seat, &l->hand) &&
                read_checks(r, checks, "checks", IN_CHECKS, seat) &&
                read_location(r, json_object_get(j, "location"), "location",
                              &l->location) &&
                read_play(r, json_object_get(j, "play"), "play", &l->play) &&
                read_sealed(r, json_object_get(j, "sealed"), "sealed",
                            seat) &&
                read_cards(r, json_object_get(j, "display"), "display",
                           IN_DISPLAY, seat, &l->display) &&
                read_robbed(r, json_object_get(j, "robbed"), "robbed",
                            &l->robbed) &&
                read_cards(r, json_object_get(j, "final_set"), "final_set",
                           NOWHERE, seat, &l->final_set);
    r->lord = -1;
    return read;
}

/* Piles keep their order, top (face-up) card first. */
static bool read_piles(reader *r, const json_t *piles)
{
    if (!is_list(r, piles, "auction_piles", "two piles of cards"))
        return false;
    if (json_array_size(piles) != 2)
        return fail_at(r, "auction_piles", "the auction house has 2 piles, "
                                           "not %zu", json_array_size(piles));
    for (int k = 0; k < 2; k++) {
        char path[PATH];
        snprintf(path, sizeof path, "auction_piles[%d]", k);
        const json_t *pile = json_array_get(piles, (size_t)k);
        av_cards cards;
        if (!read_cards(r, pile, path, IN_PILE, k, &cards))
            return false;
        int count = (int)json_array_size(pile);
        for (int j = 0; j < count; j++) {
            const char *name = json_string_value(json_array_get(pile,
                                                                (size_t)j));
            r->s->pile[k][count - 1 - j] = av_card_parse(name);
        }
        r->s->pile_count[k] = count;
    }
    return true;
}

/* Cells from #1 on, each a thief's sack number; empty cells left out. */
static bool read_prison(reader *r, const json_t *prison)
{
    if (prison == NULL)
        return true;
    if (!is_list(r, prison, "prison", "sack numbers"))
        return false;
    int seats = r->s->seats;
    if (json_array_size(prison) > (size_t)seats)
        return fail_at(r, "prison", "%zu thieves in %d cells (one cell a "
                                    "Lord)", json_array_size(prison), seats);
    size_t c;
    const json_t *item;
    json_array_foreach(prison, c, item) {
        char here[PATH];
        int sack;
        snprintf(here, sizeof here, "prison[%zu]", c);
        if (!read_int(r, item, here, 1, AV_MAX_SACK, "a sack number", &sack))
            return false;
        if (av_thief_owner(sack) >= seats)
            return fail_at(r, here, "there is no thief %d with %d Lords "
                                    "(sacks 1-%d and 6-%d)", sack, seats,
                           seats, seats + 5);
        for (size_t d = 0; d < c; d++) {
            if (r->s->prison[d] == sack)
                return fail_at(r, here, "thief %d is also in cell #%zu",
                               sack, d + 1);
        }
        r->s->prison[c] = sack;
    }
    return true;
}

static bool read_log(reader *r, const json_t *log)
{
    if (log == NULL)
        return true;
    if (!is_list(r, log, "log", "lines"))
        return false;
    if (json_array_size(log) > AV_LOG_LINES)
        return fail_at(r, "log", "%zu lines; at most %d",
                       json_array_size(log), AV_LOG_LINES);
    size_t i;
    const json_t *item;
    json_array_foreach(log, i, item) {
        const char *line = json_string_value(item);
        if (line == NULL || strlen(line) >= AV_LOG_WIDTH) {
            char here[PATH];
            snprintf(here, sizeof here, "log[%zu]", i);
            return fail_at(r, here, "a line of text of at most %d bytes",
                           AV_LOG_WIDTH - 1);
        }
        memcpy(r->s->log[i], line, strlen(line) + 1);
    }
    r->s->log_count = (int)json_array_size(log);
    return true;
}

static bool read_rng(reader *r, const json_t *rng)
{
    static const char *const fields[] = {"seed", "counter", NULL};
    if (!json_is_object(rng))
        return fail_at(r, "rng", "an object {\"seed\": …, \"counter\": …}");
    if (!only_fields(r, rng, "rng", fields))
        return false;
    const char *seed = json_string_value(json_object_get(rng, "seed"));
    if (seed == NULL || !rules_rng_seed_from_hex(&r->s->rng, seed))
        return fail_at(r, "rng.seed", "%d hex digits", 2 * RULES_SEED_BYTES);
    const json_t *counter = json_object_get(rng, "counter");
    if (!json_is_integer(counter) || json_integer_value(counter) < 0)
        return fail_at(r, "rng.counter", "a whole number from 0 on");
    r->s->rng.counter = (uint64_t)json_integer_value(counter);
    return true;
}

/* Every check not held by a Lord: out of play, as listed or, without the
 * list, derived. */
static bool read_gone_checks(reader *r, const json_t *gone)
{
    av_state *s = r->s;
    if (gone != NULL && !read_checks(r, gone, "checks_out_of_play",
                                     OUT_OF_PLAY, AV_CHECK_GONE))
        return false;
    for (int c = 0; c < AV_MAX_CHECKS; c++) {
        if (r->check_at[c].kind != NOWHERE)
            continue;
        if (gone != NULL && c < s->seats * AV_CHECKS_PER_LORD)
            return fail_at(r, "checks_out_of_play", "check %d is in no "
                           "Lord's checks and not here", av_check_value(c));
        s->check_holder[c] = AV_CHECK_GONE;
    }
    return true;
}

/* RULING (resolve.c): the highest check at the auction house wins; the
 * winner picks his card while both piles offer one. */
static bool derive_auction_winner(reader *r)
{
    av_state *s = r->s;
    s->auction_winner = -1;
    if (s->phase != AV_PHASE_TAKE)
        return true;
    int best = 0;
    for (int i = 0; i < s->seats; i++) {
        const av_lord *l = &s->lord[i];
        if (l->location == AV_LOC_AUCTION && l->play.card == AV_CARD_CHECK &&
            l->play.value > best) {
            best = l->play.value;
            s->auction_winner = i;
        }
    }
    if (s->auction_winner < 0)
        return fail_at(r, "phase", "\"take\" needs a Lord whose check won "
                                   "at the auction house (location "
                                   "\"auction\", play \"check VALUE\")");
    return true;
}

static bool every_card_placed(reader *r)
{
    for (int c = 0; c < AV_CARDS; c++) {
        if (r->card_at[c].kind == NOWHERE) {
            char name[4];
            av_card_name(c, name);
            return fail_at(r, "", "card %s is missing: each of the 45 cards "
                                  "is in one hand, display or auction pile",
                           name);
        }
    }
    return true;
}

static const char *const top_fields[] = {
    "game", "version", "seats", "variant", "turn", "phase", "lords",
    "auction_piles", "checks_out_of_play", "prison", "log", "rng", NULL,
};

static bool read_position(reader *r, const json_t *j)
{
    av_state *s = r->s;
    if (!json_is_object(j))
        return fail_at(r, "", "a position is a JSON object (README.md, "
                              "\"Position\")");
    const json_t *game, *version, *turn, *phase, *lords, *piles, *rng;
    if (!only_fields(r, j, "", top_fields) ||
        !need(r, j, "game", "", &game) ||
        !need(r, j, "version", "", &version) ||
        !need(r, j, "turn", "", &turn) || !need(r, j, "phase", "", &phase) ||
        !need(r, j, "lords", "", &lords) ||
        !need(r, j, "auction_piles", "", &piles) ||
        !need(r, j, "rng", "", &rng))
        return false;
    char shown[BRIEF];
    brief(game, shown);
    if (!json_is_string(game) ||
        strcmp(json_string_value(game), "adel_verplichtet") != 0)
        return fail_at(r, "game", "%s is not \"adel_verplichtet\"", shown);
    brief(version, shown);
    if (!json_is_integer(version) ||
        json_integer_value(version) != AV_VERSION)
        return fail_at(r, "version", "%s is not this engine's version %d",
                       shown, AV_VERSION);
    if (!is_list(r, lords, "lords", "Lords"))
        return false;
    size_t seats = json_array_size(lords);
    if (seats < AV_MIN_PLAYERS || seats > AV_MAX_PLAYERS)
        return fail_at(r, "lords", "%zu Lords; the game is for %d to %d",
                       seats, AV_MIN_PLAYERS, AV_MAX_PLAYERS);
    s->seats = (int)seats;
    const json_t *declared = json_object_get(j, "seats");
    int variant = AV_VARIANT_NONE, phase_index;
    const json_t *variant_name = json_object_get(j, "variant");
    brief(declared, shown);
    if (declared != NULL && (!json_is_integer(declared) ||
                             json_integer_value(declared) != s->seats))
        return fail_at(r, "seats", "%s, but lords lists %d Lords", shown,
                       s->seats);
    if ((variant_name != NULL &&
         !read_name(r, variant_name, "variant", "variant", variant_namer, 0,
                    AV_VARIANT_ALTERNATE + 1, &variant)) ||
        !read_int(r, turn, "turn", 1, 100000, "a turn number", &s->turn) ||
        !read_name(r, phase, "phase", "phase", phase_namer, 0,
                   AV_PHASE_OVER + 1, &phase_index))
        return false;
    s->variant = (av_variant)variant;
    s->phase = (av_phase)phase_index;
    for (int i = 0; i < s->seats; i++) {
        if (!read_lord(r, json_array_get(lords, (size_t)i), i))
            return false;
    }
    return read_piles(r, piles) && every_card_placed(r) &&
           read_gone_checks(r, json_object_get(j, "checks_out_of_play")) &&
           read_prison(r, json_object_get(j, "prison")) &&
           read_log(r, json_object_get(j, "log")) && read_rng(r, rng) &&
           derive_auction_winner(r);
}

rules_state *av_load(const json_t *snapshot, rules_error *err)
{
    av_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    rules_error scratch = {{0}};
    reader r = {.s = s, .err = err ? err : &scratch, .lord = -1};
    bool ok = read_position(&r, snapshot) && av_check((rules_state *)s, err);
    if (!ok) {
        free(s);
        return NULL;
    }
    return (rules_state *)s;
}
