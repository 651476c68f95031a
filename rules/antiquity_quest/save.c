/* save.c: the complete state as the position a referee reads and edits
 * (README "Position"). Only facts are written: what load can work out
 * from them (running played-card points, totals, the seats still owed a
 * final turn, the next collection number when it is the obvious one) is
 * left out, so a hand edit cannot leave it stale. Every list is written in
 * one canonical order, so equal states give equal bytes. */
#include "aq_internal.h"

#include <string.h>

/* How a pile's cards are listed. */
typedef enum pile_order {
    AS_KEPT,       /* collections and sealed plays: in the order played */
    TOP_FIRST,     /* draw, discard and character piles */
    NOTATION_ORDER /* hands and caches, whose order means nothing */
} pile_order;

/* A pile as one string of tokens separated by blanks: far cheaper to
 * write and read than an array of strings, and one line to edit. */
static json_t *pile_json(const uint8_t *cards, int count, pile_order order)
{
    uint8_t listed[AQ_CARDS];
    if (order == TOP_FIRST) {
        for (int i = 0; i < count; i++)
            listed[i] = cards[count - 1 - i];
    } else if (order == NOTATION_ORDER) {
        aq_cards_in_notation_order(cards, count, listed); /* kept in id order */
    } else {
        memcpy(listed, cards, (size_t)count);
    }
    char text[AQ_CARDS * 16 + 1];
    char *end = text;
    for (int i = 0; i < count; i++) {
        if (i > 0)
            *end++ = ' ';
        end = stpcpy(end, aq_card_token(listed[i]));
    }
    size_t at = (size_t)(end - text);
    return json_stringn(text, at);
}

static json_t *nullable(int value)
{
    return value == AQ_NONE ? json_null() : json_integer(value);
}

static json_t *suit_or_null(int suit)
{
    return suit == AQ_NONE ? json_null() : json_string(aq_suit_text(suit));
}

/* A sealed final choice in the notation's words: {"play": cards} starts
 * a collection, {"add": id, "cards": cards} adds to one. */
static json_t *choice_json(const aq_final_choice *c)
{
    if (!c->made)
        return json_null();
    json_t *plays = json_array();
    for (int p = 0; p < c->plays; p++) {
        const aq_final_play *fp = &c->play[p];
        json_t *cards = pile_json(c->card + fp->first, fp->count, AS_KEPT);
        json_array_append_new(
            plays, fp->target == 0 ? json_pack("{s:o}", "play", cards)
                                   : json_pack("{s:i,s:o}", "add", fp->target,
                                               "cards", cards));
    }
    return plays;
}

static json_t *sides_json(const aq_state *s)
{
    json_t *sides = json_array();
    for (int side = 0; side < s->sides; side++) {
        json_array_append_new(
            sides, json_pack("{s:o,s:b,s:o,s:o}", "cache",
                             pile_json(s->cache[side].card,
                                       s->cache[side].count, NOTATION_ORDER),
                             "cache_taken", s->cache_taken[side],
                             "started_turn", nullable(s->started_turn[side]),
                             "civilization", suit_or_null(s->civ[side])));
    }
    return sides;
}

static json_t *rounds_json(const aq_state *s)
{
    json_t *rounds = json_array();
    for (int r = 0; r < s->rounds_done; r++) {
        json_t *scores = json_array();
        for (int side = 0; side < s->sides; side++) {
            const aq_round_score *sc = &s->score[r][side];
            json_array_append_new(
                scores,
                json_pack("{s:i,s:i,s:i,s:i,s:i,s:o}", "bonus", sc->bonus,
                          "collections", sc->collections, "played", sc->played,
                          "unplayed", sc->unplayed, "civilization",
                          sc->civilization, "assigned",
                          suit_or_null(s->round_civ[r][side])));
        }
        json_array_append_new(rounds, json_pack("{s:o,s:o}", "going_out",
                                                nullable(s->round_going_out[r]),
                                                "sides", scores));
    }
    return rounds;
}

int aq_next_collection_derived(const aq_state *s)
{
    return s->collections > 0 ? s->coll[s->collections - 1].id + 1 : 1;
}

json_t *aq_save(const aq_state *s)
{
    char seed[2 * RULES_SEED_BYTES + 1];
    rules_rng_seed_hex(&s->rng, seed);
    json_t *hands = json_array();
    json_t *choices = json_array();
    bool sealed = false;
    for (int seat = 0; seat < s->seats; seat++) {
        json_array_append_new(
            hands,
            pile_json(s->hand[seat].card, s->hand[seat].count, NOTATION_ORDER));
        json_array_append_new(choices, choice_json(&s->choice[seat]));
        sealed = sealed || s->choice[seat].made;
    }
    json_t *colls = json_array();
    for (int i = 0; i < s->collections; i++) {
        const aq_collection *c = &s->coll[i];
        json_array_append_new(
            colls, json_pack("{s:i,s:i,s:o}", "id", c->id, "side", c->side,
                             "cards", pile_json(c->card, c->count, AS_KEPT)));
    }
    json_t *snapshot = json_pack(
        "{s:s,s:i,s:o,s:i,s:{s:s,s:I},s:i,s:i,s:i,s:i,s:s,s:o,"
        "s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
        "game", "antiquity_quest", "version", AQ_SNAPSHOT_VERSION, "options",
        aq_options_json(&s->opt), "seats", s->seats, "rng", "seed", seed,
        "counter", (json_int_t)s->rng.counter, "round", s->round, "first",
        s->first, "turn", s->turn, "turn_no", s->turn_no, "phase",
        aq_phase_text(s->phase), "going_out", nullable(s->going_out),
        "draw_pile", pile_json(s->draw.card, s->draw.count, TOP_FIRST),
        "discard_pile", pile_json(s->discard.card, s->discard.count, TOP_FIRST),
        "character_pile",
        pile_json(s->character.card, s->character.count, TOP_FIRST), "hands",
        hands, "sides", sides_json(s), "collections", colls, "rounds_scored",
        rounds_json(s));
    /* Written only when it says something: a lost shipment took the
     * highest-numbered collection, or final plays are sealed. */
    if (s->next_id != aq_next_collection_derived(s))
        json_object_set_new(snapshot, "next_collection",
                            json_integer(s->next_id));
    if (sealed)
        json_object_set_new(snapshot, "final_choices", choices);
    else
        json_decref(choices);
    return snapshot;
}
