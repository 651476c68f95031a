/* view.c: what each seat may see. Hands are shown only to their owner,
 * sealed end-of-round choices only to the seat that made them; the draw
 * pile is a count and the discard pile shows its top card. Cards are
 * named as the notation names them and carry no id: copies of a card are
 * alike, and a position loaded from its snapshot shows the same view. */
#include "amt_internal.h"

#include <stdio.h>

static const char *const phase_names[] = {"draw", "play", "endplay", "over"};
static const char *const claim_names[] = {"waiting", "claim", "pass"};

json_t *amt_card_json(int id)
{
    char name[AMT_NAME_LEN];
    amt_card_name(id, name);
    /* Not json_pack: views and legal moves make one for every card they
     * show, and its format parsing cost more than the object. */
    json_t *card = json_object();
    json_object_set_new(card, "card", json_string(name));
    return card;
}

static json_t *meld_json(const amt_state *s, int mi)
{
    const amt_meld *m = &s->melds[mi];
    json_t *cards = json_array();
    for (int i = 0; i < m->count; i++) {
        json_t *card = amt_card_json(m->cards[i]);
        if (amt_card_get(m->cards[i]).wild) {
            int colour, number;
            amt_meld_wild_as(m, i, &colour, &number);
            char as[AMT_NAME_LEN] = {0};
            if (colour >= 0)
                snprintf(as, sizeof as, "%c%d", amt_colour_letter(colour),
                         number);
            else
                snprintf(as, sizeof as, "%d", number);
            json_object_set_new(card, "as", json_string(as));
        }
        json_array_append_new(cards, card);
    }
    int index = 0;
    for (int q = 0; q < mi; q++)
        index += s->melds[q].owner == m->owner;
    char ref[32];
    snprintf(ref, sizeof ref, "P%d.%d", m->owner + 1, index + 1);
    json_t *meld = json_object();
    json_object_set_new(meld, "ref", json_string(ref));
    json_object_set_new(meld, "owner", json_integer(m->owner));
    json_object_set_new(meld, "kind", json_string(amt_kind_name(m->kind)));
    json_object_set_new(meld, "cards", cards);
    return meld;
}

json_t *amt_view(const rules_state *state, int seat)
{
    const amt_state *s = (const amt_state *)state;
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
        for (int r = 0; r < s->round; r++)
            json_array_append_new(rounds, json_integer(pl->round_score[r]));
        if (s->phase == AMT_PHASE_OVER)
            json_array_append_new(rounds,
                                  json_integer(pl->round_score[s->round]));
        json_t *entry = json_pack(
            "{s:i,s:i,s:o,s:i,s:b,s:o,s:i}", "seat", p, "hand_count",
            pl->hand_count, "marked", marked, "completed_patterns",
            pl->completed, "laid_this_round", pl->laid, "round_scores",
            rounds, "total", pl->total);
        if (s->phase == AMT_PHASE_DRAW && s->window && p != s->turn)
            json_object_set_new(entry, "claim",
                                json_string(claim_names[pl->claim]));
        if (s->phase == AMT_PHASE_ENDPLAY)
            json_object_set_new(entry, "end_of_round",
                                json_string(pl->end == AMT_END_WAITING
                                                ? "choosing"
                                            : pl->end == AMT_END_NONE
                                                ? "not eligible"
                                                : "chosen"));
        json_array_append_new(players, entry);
    }
    json_t *table = json_array();
    for (int m = 0; m < s->meld_count; m++)
        json_array_append_new(table, meld_json(s, m));
    json_t *view = json_pack(
        "{s:s,s:i,s:i,s:i,s:s,s:i,s:i,s:i,s:b,s:o,s:o,s:i}", "game",
        s->progressive ? "progressive" : "classic", "round", s->round + 1,
        "rounds", amt_rounds(s->progressive), "hand_size",
        amt_hand_size(s->progressive, s->round), "phase",
        phase_names[s->phase], "turn", s->turn, "draw_pile", s->draw_count,
        "discard_pile", s->discard_count, "claim_window", s->window,
        "players", players, "table", table, "claim_window_hours",
        s->window_hours);
    json_object_set_new(view, "discard_top",
                        s->discard_count > 0
                            ? amt_card_json(s->discard[s->discard_count - 1])
                            : json_null());
    if (seat >= 0 && seat < s->seats) {
        const amt_player *me = &s->players[seat];
        json_t *hand = json_array();
        for (int i = 0; i < me->hand_count; i++)
            json_array_append_new(hand, amt_card_json(me->hand[i]));
        json_object_set_new(view, "seat", json_integer(seat));
        json_object_set_new(view, "hand", hand);
        if (me->end == AMT_END_PLAYED)
            json_object_set_new(view, "my_end_play",
                                amt_play_action(&me->end_play, NULL));
    }
    return view;
}
