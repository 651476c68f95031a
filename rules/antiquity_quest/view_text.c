/* view_text.c: what a seat may see, as plain text for a mail (rules.h
 * "view_text"). It is written from view() and nothing else, so it cannot
 * show what that seat's view hides. Cards, collections and moves are named
 * as the notation names them (red2, redW, crown; collection 3 is "3"), a
 * hand in the order the notation sorts cards. Lines are wrapped at 72
 * characters and nothing depends on columns lining up. A crowded table
 * is written more compactly, step by step, to stay near 30 lines. */
#include "aq_internal.h"
#include "prose.h"

#include <stdlib.h>
#include <string.h>

#define AQ_TEXT_LINES 30     /* aim: shorten the table beyond this */
#define AQ_TEXT_MAX_LINES 40 /* never more (rules.h) */
#define GLUE AQ_PROSE_GLUE

/* How much of the table is spelt out, most first. */
typedef enum detail {
    EACH_COLLECTION_ON_ITS_LINE,
    COLLECTIONS_RUN_ON,   /* a side's collections in one paragraph */
    CLOSED_WITHOUT_CARDS, /* complete Standard/Perfect: no card list */
    NO_COLLECTION_CARDS,
    OPEN_COLLECTIONS_ONLY, /* only the incomplete ones */
    DETAIL_LEAST = OPEN_COLLECTIONS_ONLY
} detail;

typedef struct writer {
    aq_prose out;
    const json_t *view;
    int viewer; /* the seat, or RULES_SPECTATOR */
    detail detail;
} writer;

#define say(w, ...) aq_prose_say(&(w)->out, __VA_ARGS__)
#define line(w) aq_prose_end(&(w)->out)

/* ---- reading the view -------------------------------------------------- */

static int int_at(const json_t *obj, const char *key)
{
    return (int)json_integer_value(json_object_get(obj, key));
}

static const char *card_name(const json_t *token)
{
    int id = aq_token_parse(json_string_value(token));
    return id == AQ_NONE ? "?" : aq_name_text(aq_card_info(id).name);
}

/* The names of a list of tokens, blank-separated: as played, top first
 * (a pile listed bottom first), or in the notation's order. */
typedef enum listing { AS_LISTED, REVERSED, SORTED } listing;

static void say_cards(writer *w, const json_t *tokens, listing how)
{
    size_t n = json_array_size(tokens);
    if (how == SORTED) {
        /* A hand: its tokens are listed in card-id order. */
        uint8_t ids[AQ_CARDS];
        uint8_t listed[AQ_CARDS];
        int count = 0;
        for (size_t i = 0; i < n && count < AQ_CARDS; i++) {
            int id =
                aq_token_parse(json_string_value(json_array_get(tokens, i)));
            if (id != AQ_NONE)
                ids[count++] = (uint8_t)id;
        }
        aq_cards_in_notation_order(ids, count, listed);
        for (int i = 0; i < count; i++) {
            if (i > 0)
                aq_prose_put(&w->out, " ");
            aq_prose_put(&w->out, aq_name_text(aq_card_info(listed[i]).name));
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t at = how == REVERSED ? n - 1 - i : i;
        if (i > 0)
            aq_prose_put(&w->out, " ");
        aq_prose_put(&w->out, card_name(json_array_get(tokens, at)));
    }
}

/* "you" for the viewer, else "seat N". */
static void say_seat(writer *w, int seat)
{
    if (seat == w->viewer)
        say(w, "you");
    else
        say(w, "seat" GLUE "%d", seat);
}

/* A list of seats: "seat 1", "seat 1 and seat 2", "you, seat 1 and seat 2". */
static void say_seats(writer *w, const int *seats, int n)
{
    for (int i = 0; i < n; i++) {
        if (i > 0)
            say(w, i == n - 1 ? " and " : ", ");
        say_seat(w, seats[i]);
    }
}

/* The seats of a side, from the view's "sides". */
static int side_seats(const json_t *side, int seats[RULES_MAX_SEATS])
{
    int n = 0;
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(side, "seats"), i, seat)
    {
        if (n < RULES_MAX_SEATS)
            seats[n++] = (int)json_integer_value(seat);
    }
    return n;
}

static bool side_has(const json_t *side, int seat)
{
    int seats[RULES_MAX_SEATS];
    int n = side_seats(side, seats);
    for (int i = 0; i < n; i++) {
        if (seats[i] == seat)
            return true;
    }
    return false;
}

/* ---- the parts of the text --------------------------------------------- */

static void say_heading(writer *w)
{
    const json_t *opt = json_object_get(w->view, "options");
    say(w, "Antiquity Quest, round %d of %d.", int_at(w->view, "round"),
        int_at(w->view, "rounds"));
    static const char *const advanced[][2] = {
        {"civilization_bonus", "civilization bonus"},
        {"remington_reassigned", "Remington reassigned"},
        {"tess_lost_shipment", "Tess's lost shipment"},
        {"revoked_visas", "revoked visas"},
        {"pairs", "pairs"},
    };
    const char *gap = " Rules: ";
    for (size_t i = 0; i < sizeof advanced / sizeof advanced[0]; i++) {
        if (json_is_true(json_object_get(opt, advanced[i][0]))) {
            say(w, "%s%s", gap, advanced[i][1]);
            gap = ", ";
        }
    }
    if (strcmp(gap, ", ") == 0)
        say(w, ".");
    line(w);
}

/* The seats with the highest total and that total. */
static void say_winners(writer *w)
{
    const json_t *totals = json_object_get(w->view, "totals");
    const json_t *sides = json_object_get(w->view, "sides");
    int best = 0;
    for (size_t i = 0; i < json_array_size(totals); i++) {
        int t = (int)json_integer_value(json_array_get(totals, i));
        if (i == 0 || t > best)
            best = t;
    }
    int winners[RULES_MAX_SEATS];
    int n = 0;
    bool viewer_wins = false;
    for (size_t i = 0; i < json_array_size(totals); i++) {
        if (json_integer_value(json_array_get(totals, i)) != best)
            continue;
        int seats[RULES_MAX_SEATS];
        int k = side_seats(json_array_get(sides, i), seats);
        for (int j = 0; j < k && n < RULES_MAX_SEATS; j++) {
            winners[n++] = seats[j];
            viewer_wins = viewer_wins || seats[j] == w->viewer;
        }
    }
    say(w, "The match is over: ");
    say_seats(w, winners, n);
    say(w, " %s with %d points.", n == 1 && !viewer_wins ? "wins" : "win",
        best);
    line(w);
}

/* Whose turn it is and what they do; who went out and who still plays. */
static void say_turn(writer *w)
{
    const char *phase = json_string_value(json_object_get(w->view, "phase"));
    int turn = int_at(w->view, "turn");
    const json_t *out = json_object_get(w->view, "going_out");
    int seats = (int)json_array_size(json_object_get(w->view, "seats"));
    if (strcmp(phase, "over") == 0) {
        say_winners(w);
        return;
    }
    bool yours = turn == w->viewer;
    if (json_is_integer(out)) {
        int gone = (int)json_integer_value(out);
        say(w, "The round ends: ");
        say_seat(w, gone);
        say(w, " went out");
        if (strcmp(phase, "final") == 0 &&
            !json_is_true(json_object_get(json_object_get(w->view, "options"),
                                          "pairs"))) {
            say(w, ". The others make their final plays into their own "
                   "collections, sealed until all have chosen.");
            line(w);
            return;
        }
        /* Final turns go clockwise from the seat on turn up to the one
         * that went out. */
        int left[RULES_MAX_SEATS];
        int n = 0;
        for (int seat = turn; seat != gone && n < seats;
             seat = (seat + 1) % seats)
            left[n++] = seat;
        say(w, "; %s still to come for ",
            strcmp(phase, "final") == 0 ? "final plays" : "a final turn");
        say_seats(w, left, n);
        say(w, ".");
        line(w);
    }
    if (strcmp(phase, "final") == 0) {
        if (yours)
            say(w, "It is your turn to make final plays into your side's "
                   "collections.");
        else
            say(w,
                "It is seat" GLUE "%d's turn to make final plays into their "
                "side's collections.",
                turn);
        line(w);
        return;
    }
    const bool draw = strcmp(phase, "draw") == 0;
    if (yours)
        say(w, "It is your turn: %s.",
            draw ? "draw 2 cards or pick up the discard pile"
                 : "play cards, then discard one to end your turn");
    else
        say(w, "It is seat" GLUE "%d's turn, to %s.", turn,
            draw ? "draw 2 cards or pick up the discard pile"
                 : "play cards and then discard");
    line(w);
}

/* Sealed final plays: who has chosen, and the viewer's own choice. */
static void say_sealed(writer *w)
{
    const json_t *seats = json_object_get(w->view, "seats");
    int waiting[RULES_MAX_SEATS];
    int n = 0;
    int gone = int_at(w->view, "going_out");
    size_t i;
    const json_t *seat;
    json_array_foreach(seats, i, seat)
    {
        const json_t *chosen = json_object_get(seat, "final_chosen");
        if (chosen != NULL && !json_is_true(chosen) && (int)i != gone &&
            n < RULES_MAX_SEATS)
            waiting[n++] = (int)i;
    }
    if (n > 0) {
        say(w, "Still to choose: ");
        say_seats(w, waiting, n);
        say(w, ".");
        line(w);
    }
    const json_t *plays =
        json_object_get(json_object_get(w->view, "you"), "final_plays");
    if (plays == NULL)
        return;
    say(w, "Your final plays, sealed: final");
    const json_t *play;
    json_array_foreach(plays, i, play)
    {
        int target = int_at(play, "collection");
        say(w, "%s", i > 0 ? "; " : " ");
        if (target == 0)
            say(w, "play ");
        else
            say(w, "add %d ", target);
        say_cards(w, json_object_get(play, "cards"), AS_LISTED);
    }
    line(w);
}

static void say_hand(writer *w)
{
    const json_t *hand =
        json_object_get(json_object_get(w->view, "you"), "hand");
    if (hand == NULL)
        return;
    size_t n = json_array_size(hand);
    if (n == 0) {
        say(w, "Your hand is empty.");
    } else {
        say(w, "Your hand (%zu card%s): ", n, n == 1 ? "" : "s");
        say_cards(w, hand, SORTED);
    }
    line(w);
}

static void say_piles(writer *w)
{
    const json_t *character = json_object_get(w->view, "character_pile");
    int draw = int_at(w->view, "draw_pile");
    say(w, "Draw pile: %d card%s. Character pile: ", draw,
        draw == 1 ? "" : "s");
    if (int_at(character, "count") == 0)
        say(w, "empty.");
    else
        say(w, "%d card%s, %s on top.", int_at(character, "count"),
            int_at(character, "count") == 1 ? "" : "s",
            card_name(json_object_get(character, "top")));
    line(w);
    const json_t *discard = json_object_get(w->view, "discard_pile");
    int count = int_at(discard, "count");
    const json_t *cards = json_object_get(discard, "cards");
    if (count == 0) {
        say(w, "Discard pile: empty.");
    } else if (cards != NULL) {
        /* Only the seat on turn may review the whole pile. */
        say(w, "Discard pile (%d card%s, top first): ", count,
            count == 1 ? "" : "s");
        say_cards(w, cards, REVERSED);
    } else {
        say(w, "Discard pile: %d card%s, %s on top.", count,
            count == 1 ? "" : "s", card_name(json_object_get(discard, "top")));
    }
    line(w);
}

/* "(perfect red, incomplete)", "(mixed orange, complete, 250 points)". */
static const char *suit_or_treasure(const json_t *c)
{
    const char *suit = json_string_value(json_object_get(c, "suit"));
    return suit != NULL ? suit : "treasure";
}

static void say_kind(writer *w, const json_t *c)
{
    say(w, "%s %s", json_string_value(json_object_get(c, "grade")),
        suit_or_treasure(c));
    if (json_is_true(json_object_get(c, "complete")))
        say(w, ", complete, %d points", int_at(c, "value"));
    else
        say(w, ", incomplete");
}

static bool closed(const json_t *c)
{
    return json_is_true(json_object_get(c, "complete")) &&
           strcmp(json_string_value(json_object_get(c, "grade")), "mixed") != 0;
}

static void say_collections(writer *w, const json_t *collections)
{
    size_t i;
    const json_t *c;
    int listed = 0;
    json_array_foreach(collections, i, c)
    {
        if (w->detail == OPEN_COLLECTIONS_ONLY &&
            json_is_true(json_object_get(c, "complete")))
            continue;
        bool cards = w->detail < CLOSED_WITHOUT_CARDS ||
                     (w->detail == CLOSED_WITHOUT_CARDS && !closed(c));
        if (w->detail == EACH_COLLECTION_ON_ITS_LINE || listed == 0)
            say(w, "  ");
        else
            say(w, "; ");
        listed++;
        say(w, "%d:" GLUE, int_at(c, "id"));
        if (cards) {
            say_cards(w, json_object_get(c, "cards"), AS_LISTED);
            say(w, " (");
            say_kind(w, c);
            say(w, ")");
        } else if (json_is_true(json_object_get(c, "complete"))) {
            say(w, "%s" GLUE "%s" GLUE "%d",
                json_string_value(json_object_get(c, "grade")),
                suit_or_treasure(c), int_at(c, "value"));
        } else {
            say_kind(w, c);
        }
        if (w->detail == EACH_COLLECTION_ON_ITS_LINE)
            line(w);
    }
    if (w->detail != EACH_COLLECTION_ON_ITS_LINE && listed > 0)
        line(w);
}

/* One side's first line: its seats, hands, cache, civilization,
 * collections: "seat 1: 7 cards in hand, cache of 10; 2 collections, 1
 * complete." (say_collections lists them.) */
static void say_side(writer *w, const json_t *side)
{
    int seats[RULES_MAX_SEATS];
    int n = side_seats(side, seats);
    const json_t *seat_views = json_object_get(w->view, "seats");
    bool mine = side_has(side, w->viewer);
    int others[RULES_MAX_SEATS];
    int held[RULES_MAX_SEATS];
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (seats[i] == w->viewer)
            continue;
        others[k] = seats[i];
        held[k++] =
            int_at(json_array_get(seat_views, (size_t)seats[i]), "hand_count");
    }
    if (mine) {
        say(w, "You (seat" GLUE "%d)", w->viewer);
        for (int i = 0; i < k; i++)
            say(w, " and seat" GLUE "%d", others[i]);
        say(w, ":");
        for (int i = 0; i < k; i++)
            say(w, " seat" GLUE "%d holds %d card%s,", others[i], held[i],
                held[i] == 1 ? "" : "s");
    } else {
        say_seats(w, seats, n);
        say(w, ":");
        for (int i = 0; i < k; i++)
            say(w, "%s%d", i == 0 ? " " : " and ", held[i]);
        say(w, " card%s in hand,", k == 1 && held[0] == 1 ? "" : "s");
    }
    if (json_is_true(json_object_get(side, "cache_taken")))
        say(w, " cache picked up");
    else if (int_at(side, "cache_count") == 0)
        say(w, " empty cache"); /* only in positions made by hand */
    else
        say(w, " cache of %d", int_at(side, "cache_count"));
    const char *civ = json_string_value(json_object_get(side, "civilization"));
    if (civ != NULL)
        say(w, ", civilization %s", civ);
    const json_t *collections = json_object_get(side, "collections");
    size_t made = json_array_size(collections);
    if (made == 0)
        say(w, "; no collections yet.");
    else if (int_at(side, "completed") == 0)
        say(w, "; %zu collection%s, none complete.", made,
            made == 1 ? "" : "s");
    else
        say(w, "; %zu collection%s, %d complete.", made, made == 1 ? "" : "s",
            int_at(side, "completed"));
    line(w);
}

/* The last finished round's scores, the totals and the viewer's own
 * breakdown of that round; earlier rounds are in the full view. */
static void say_scores(writer *w)
{
    const json_t *rounds = json_object_get(w->view, "scores");
    const json_t *sides = json_object_get(w->view, "sides");
    if (json_array_size(rounds) == 0) {
        say(w, "Scores: none yet; a round is scored when it ends.");
        line(w);
        return;
    }
    const json_t *last = json_array_get(rounds, json_array_size(rounds) - 1);
    const json_t *scores = json_object_get(last, "sides");
    say(w, "Round %d scores:", int_at(last, "round"));
    for (size_t side = 0; side < json_array_size(scores); side++) {
        int seats[RULES_MAX_SEATS];
        int n = side_seats(json_array_get(sides, side), seats);
        say(w, side == 0 ? " " : ", ");
        say_seats(w, seats, n);
        say(w, GLUE "%d", int_at(json_array_get(scores, side), "total"));
    }
    say(w, ".");
    line(w);
    const json_t *totals = json_object_get(w->view, "totals");
    if (json_array_size(rounds) > 1) {
        say(w, "Totals:");
        for (size_t side = 0; side < json_array_size(totals); side++) {
            int seats[RULES_MAX_SEATS];
            int n = side_seats(json_array_get(sides, side), seats);
            say(w, side == 0 ? " " : ", ");
            say_seats(w, seats, n);
            say(w, GLUE "%d",
                (int)json_integer_value(json_array_get(totals, side)));
        }
        say(w, ".");
        line(w);
    }
    const json_t *you = json_object_get(w->view, "you");
    if (you == NULL)
        return;
    const json_t *mine = json_array_get(scores, (size_t)int_at(you, "side"));
    say(w,
        "Your round %d: bonus %d, collections %d, played cards %d, "
        "cards left %d",
        int_at(last, "round"), int_at(mine, "bonus"),
        int_at(mine, "collections"), int_at(mine, "played"),
        int_at(mine, "unplayed"));
    const char *civ = json_string_value(json_array_get(
        json_object_get(last, "civilizations"), (size_t)int_at(you, "side")));
    if (civ != NULL)
        say(w, ", civilization %d (%s)", int_at(mine, "civilization"), civ);
    say(w, ".");
    line(w);
}

/* Everything above the sides: heading, turn, sealed plays, hand, piles. */
static void write_top(writer *w)
{
    say_heading(w);
    say_turn(w);
    if (strcmp(json_string_value(json_object_get(w->view, "phase")), "final") ==
        0)
        say_sealed(w);
    say_hand(w);
    say_piles(w);
}

/* The writer's text so far, taken out of it: what follows goes to a
 * fresh paragraph store. */
static aq_prose take_part(writer *w)
{
    aq_prose part = w->out;
    w->out = (aq_prose){0};
    return part;
}

/* The codes the text uses, for a newcomer. It names no card: a card
 * named here would read as one more seen on the table. */
static void say_key(aq_prose *key)
{
    aq_prose_say(key, "Key: an antiquity is named by its colour and value (1 "
                      "to 5), or W for a wild of that colour; treasures and "
                      "characters go by their names. A numbered line is a "
                      "collection: mixed, standard or perfect as the rules "
                      "grade it.");
    aq_prose_end(key);
}

char *aq_view_text(const aq_state *s, int seat)
{
    json_t *view = aq_view(s, seat);
    char *text = aq_view_text_of(s, seat, view);
    json_decref(view);
    return text;
}

char *aq_view_text_of(const aq_state *s, int seat, const json_t *view)
{
    writer w = {.view = view,
                .viewer =
                    seat >= 0 && seat < s->seats ? seat : RULES_SPECTATOR};
    /* Only the collections are written differently at each detail: the
     * rest is written once and copied into each attempt. */
    const json_t *sides = json_object_get(view, "sides");
    size_t side_count = json_array_size(sides);
    write_top(&w);
    aq_prose top = take_part(&w);
    aq_prose *side_lines = calloc(side_count + 1, sizeof *side_lines);
    if (side_lines == NULL)
        abort();
    for (size_t i = 0; i < side_count; i++) {
        say_side(&w, json_array_get(sides, i));
        side_lines[i] = take_part(&w);
    }
    say_scores(&w);
    aq_prose scores = take_part(&w);
    for (detail d = EACH_COLLECTION_ON_ITS_LINE;; d++) {
        aq_prose_clear(&w.out);
        w.detail = d;
        aq_prose_add(&w.out, &top);
        for (size_t i = 0; i < side_count; i++) {
            aq_prose_add(&w.out, &side_lines[i]);
            say_collections(&w, json_object_get(json_array_get(sides, i),
                                                "collections"));
        }
        aq_prose_add(&w.out, &scores);
        if (w.out.lines <= AQ_TEXT_LINES || d == DETAIL_LEAST)
            break;
    }
    for (size_t i = 0; i < side_count; i++)
        aq_prose_free(&side_lines[i]);
    free(side_lines);
    aq_prose_free(&top);
    aq_prose_free(&scores);
    aq_prose key = {0};
    say_key(&key);
    /* A last resort no table played at random has needed. */
    aq_prose_cut(&w.out, AQ_TEXT_MAX_LINES - key.lines,
                 "(The table is too large to list here: see the full view.)");
    aq_prose_add(&w.out, &key);
    aq_prose_free(&key);
    return aq_prose_take(&w.out);
}
