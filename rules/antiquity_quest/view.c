/* view.c: what one seat, or a spectator, may see (README "Views").
 * Hidden: other seats' hands (a partner's too), every cache until it is
 * picked up, the draw pile's order, other sides' civilizations until the
 * round ends, sealed final plays, the seed. The discard pile is face up
 * but may be reviewed only on your turn (CLARIFICATIONS.md general
 * ruling; in pairs a revoked-visas final turn is a turn): other views
 * show its top card and size. */
#include "aq_internal.h"

/* Views are built often (every answer to a move carries one): their keys
 * and strings are this file's ASCII constants, set without json_pack's
 * parsing or jansson's UTF-8 checks. */
static void put(json_t *object, const char *key, json_t *value)
{
    json_object_set_new_nocheck(object, key, value);
}

static json_t *text_json(const char *text)
{
    return json_string_nocheck(text);
}

static json_t *token_json(int id)
{
    return text_json(aq_card_token(id));
}

static json_t *cards_json(const uint8_t *cards, int count)
{
    json_t *list = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(list, token_json(cards[i]));
    return list;
}

static json_t *top_json(const aq_pile *pile)
{
    return pile->count > 0 ? token_json(pile->card[pile->count - 1])
                           : json_null();
}

json_t *aq_collection_json(const aq_collection *c)
{
    aq_shape shape = aq_shape_of(c->card, c->count);
    const char *family = shape.antiquities == 0 ? "treasure"
                         : shape.treasures == 0 ? "antiquity"
                                                : "mixed";
    json_t *out = json_object();
    put(out, "id", json_integer(c->id));
    put(out, "side", json_integer(c->side));
    put(out, "cards", cards_json(c->card, c->count));
    put(out, "family", text_json(family));
    put(out, "grade", text_json(aq_grade_text(aq_shape_grade(&shape))));
    put(out, "suit", shape.suit >= 0 ? text_json(aq_suit_text(shape.suit))
                                     : json_null());
    put(out, "complete", json_boolean(aq_shape_complete(&shape)));
    put(out, "value", json_integer(aq_shape_value(&shape)));
    return out;
}

static json_t *sides_json(const aq_state *s, int viewer_side)
{
    json_t *sides = json_array();
    for (int side = 0; side < s->sides; side++) {
        json_t *seats = json_array();
        for (int seat = 0; seat < s->seats; seat++) {
            if (aq_side_of(s, seat) == side)
                json_array_append_new(seats, json_integer(seat));
        }
        json_t *colls = json_array();
        for (int i = 0; i < s->collections; i++) {
            if (s->coll[i].side == side)
                json_array_append_new(colls, aq_collection_json(&s->coll[i]));
        }
        json_t *one = json_object();
        put(one, "side", json_integer(side));
        put(one, "seats", seats);
        put(one, "cache_count", json_integer(s->cache[side].count));
        put(one, "cache_taken", json_boolean(s->cache_taken[side]));
        put(one, "completed", json_integer(aq_completed_count(s, side)));
        put(one, "collections", colls);
        bool revealed = s->phase == AQ_PHASE_OVER || side == viewer_side;
        if (s->civ[side] != AQ_NONE && revealed)
            put(one, "civilization", text_json(aq_suit_text(s->civ[side])));
        json_array_append_new(sides, one);
    }
    return sides;
}

json_t *aq_rounds_json(const aq_state *s)
{
    json_t *rounds = json_array();
    for (int r = 0; r < s->rounds_done; r++) {
        json_t *scores = json_array();
        json_t *civs = json_array();
        for (int side = 0; side < s->sides; side++) {
            json_array_append_new(scores, aq_round_score_json(&s->score[r][side]));
            int civ = s->round_civ[r][side];
            json_array_append_new(civs, civ == AQ_NONE
                                            ? json_null()
                                            : json_string(aq_suit_text(civ)));
        }
        int out = s->round_going_out[r];
        json_array_append_new(
            rounds, json_pack("{s:i,s:o,s:o,s:o}", "round", r + 1, "going_out",
                              out == AQ_NONE ? json_null() : json_integer(out),
                              "sides", scores, "civilizations", civs));
    }
    return rounds;
}

json_t *aq_totals_json(const aq_state *s)
{
    json_t *totals = json_array();
    for (int side = 0; side < s->sides; side++)
        json_array_append_new(totals, json_integer(s->total[side]));
    return totals;
}

/* The viewer's own sealed final plays, if made. */
static json_t *choice_json(const aq_final_choice *c)
{
    json_t *plays = json_array();
    for (int p = 0; p < c->plays; p++) {
        const aq_final_play *fp = &c->play[p];
        json_array_append_new(
            plays, json_pack("{s:i,s:o}", "collection", fp->target, "cards",
                             cards_json(c->card + fp->first, fp->count)));
    }
    return plays;
}

json_t *aq_view(const aq_state *s, int seat)
{
    bool player = seat >= 0 && seat < s->seats;
    int viewer_side = player ? aq_side_of(s, seat) : AQ_NONE;
    /* In pairs the revoked-visas final plays are taken in turn, so they
     * are the seat's turn too; the sealed final plays without pairs are
     * nobody's turn. */
    bool on_turn = player && s->turn == seat &&
                   (s->phase == AQ_PHASE_DRAW || s->phase == AQ_PHASE_PLAY ||
                    (s->phase == AQ_PHASE_FINAL && s->opt.pairs));

    json_t *seats = json_array();
    for (int i = 0; i < s->seats; i++) {
        json_t *one = json_object();
        put(one, "seat", json_integer(i));
        put(one, "side", json_integer(aq_side_of(s, i)));
        put(one, "hand_count", json_integer(s->hand[i].count));
        if (s->phase == AQ_PHASE_FINAL && !s->opt.pairs)
            put(one, "final_chosen", json_boolean(s->choice[i].made));
        json_array_append_new(seats, one);
    }
    json_t *discard = json_object();
    put(discard, "count", json_integer(s->discard.count));
    put(discard, "top", top_json(&s->discard));
    if (on_turn)
        put(discard, "cards", cards_json(s->discard.card, s->discard.count));
    json_t *character = json_object();
    put(character, "count", json_integer(s->character.count));
    put(character, "top", top_json(&s->character));
    json_t *view = json_object();
    put(view, "round", json_integer(s->round));
    put(view, "rounds", json_integer(s->opt.rounds));
    put(view, "phase", text_json(aq_phase_text(s->phase)));
    put(view, "turn", json_integer(s->turn));
    put(view, "first", json_integer(s->first));
    put(view, "going_out", s->going_out == AQ_NONE
                               ? json_null()
                               : json_integer(s->going_out));
    put(view, "draw_pile", json_integer(s->draw.count));
    put(view, "discard_pile", discard);
    put(view, "character_pile", character);
    put(view, "seats", seats);
    put(view, "sides", sides_json(s, viewer_side));
    put(view, "scores", aq_rounds_json(s));
    put(view, "totals", aq_totals_json(s));
    put(view, "options", aq_options_json(&s->opt));
    if (player) {
        json_t *you = json_object();
        put(you, "seat", json_integer(seat));
        put(you, "side", json_integer(viewer_side));
        put(you, "hand", cards_json(s->hand[seat].card, s->hand[seat].count));
        if (s->choice[seat].made)
            put(you, "final_plays", choice_json(&s->choice[seat]));
        put(view, "you", you);
    }
    return view;
}
