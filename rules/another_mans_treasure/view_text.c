/* view_text.c: a seat's view as plain text for people (rules.h
 * view_text): the round and whose turn it is, the piles, the seat's own
 * hand, the table and the scores. Cards, melds (Pn.m) and patterns are
 * named as the text notation names them; seats are "seat N" from 0. It
 * shows what amt_view shows that seat and nothing more (no other hand,
 * no draw pile order, no sealed choice but the seat's own, not who played
 * which card of a meld), and leaves the list of legal moves to the
 * service. */
#include "amt_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Above this many melds the table is written one line per player. */
#define MELD_LINES_MAX 6

typedef char label[32];

/* "seat~2", or "you" for the viewer ('~' keeps the words together). */
static const char *seat_name(int p, int viewer, label out)
{
    if (p == viewer)
        snprintf(out, sizeof(label), "you");
    else
        snprintf(out, sizeof(label), "seat~%d", p);
    return out;
}

/* The same at the start of a sentence. */
static const char *seat_name_capital(int p, int viewer, label out)
{
    seat_name(p, viewer, out);
    out[0] = (char)(out[0] == 'y' ? 'Y' : 'S');
    return out;
}

static const char *card_name(int id, char out[AMT_NAME_LEN])
{
    amt_card_name(id, out);
    return out;
}

/* Appends to a sentence being built in buf. */
static void append(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

static void heading(amt_text *t, const amt_state *s)
{
    amt_text_line(t, "Another Man's Treasure, %s game: round %d of %d, "
                     "%d cards dealt.",
                  s->progressive ? "progressive" : "classic", s->round + 1,
                  amt_rounds(s->progressive),
                  amt_hand_size(s->progressive, s->round));
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    amt_text_line(t, "Patterns this round:");
    for (int i = 0; i < n; i++)
        amt_text_say(t, "%s%s", amt_pattern_get(ids[i])->name,
                     i + 1 < n ? "," : ".");
}

static const char *top_card(const amt_state *s, char out[AMT_NAME_LEN])
{
    return card_name(s->discard[s->discard_count - 1], out);
}

/* The "Can I have it?" window: who discarded, and each other seat's
 * answer in the rulebook's order of priority from the next player on. */
static void claim_window(amt_text *t, const amt_state *s, int viewer)
{
    static const char *const answers[] = {"has not answered", "claimed it",
                                          "passed"};
    label a, b;
    char top[AMT_NAME_LEN];
    int discarder = (s->turn + s->seats - 1) % s->seats;
    const char *next = seat_name(s->turn, viewer, b);
    amt_text_line(t, "%s discarded %s. \"Can I have it?\" Until %s %s, "
                     "others may claim it or pass (the first claimer after "
                     "%s gets it and a penalty card):",
                  seat_name_capital(discarder, viewer, a), top_card(s, top),
                  next, s->turn == viewer ? "draw" : "draws", next);
    for (int k = 1; k < s->seats; k++) {
        int p = (s->turn + k) % s->seats;
        const char *answer = answers[s->players[p].claim];
        if (p == viewer && s->players[p].claim == AMT_CLAIM_NONE)
            answer = "have not answered";
        amt_text_say(t, "%s %s%s", seat_name(p, viewer, a), answer,
                     k + 1 < s->seats ? "," : ".");
    }
}

static void round_end(amt_text *t, const amt_state *s, int viewer)
{
    label a;
    int out = -1;
    for (int p = 0; p < s->seats && out < 0; p++) {
        if (s->players[p].hand_count == 0)
            out = p;
    }
    if (out >= 0)
        amt_text_line(t, "Round %d is over: %s went out.", s->round + 1,
                      seat_name(out, viewer, a));
    else
        amt_text_line(t, "Round %d is over: the draw pile ran out.",
                      s->round + 1);
    amt_text_line(t, "Who did not lay a pattern may lay cards for one now; "
                     "the choices stay sealed until all are in:");
    int left = 0;
    for (int p = 0; p < s->seats; p++)
        left += s->players[p].end != AMT_END_NONE;
    for (int p = 0; p < s->seats; p++) {
        int end = s->players[p].end;
        if (end == AMT_END_NONE)
            continue;
        const char *state = end == AMT_END_WAITING
                                ? (p == viewer ? "are choosing" : "is choosing")
                                : (p == viewer ? "have chosen" : "has chosen");
        amt_text_say(t, "%s %s%s", seat_name(p, viewer, a), state,
                     --left > 0 ? "," : ".");
    }
}

static void game_over(amt_text *t, const amt_state *s, int viewer)
{
    amt_text_line(t, "The game is over after round %d.", s->round + 1);
    json_t *result = amt_result((const rules_state *)s);
    const json_t *ranking = json_object_get(result, "ranking");
    const json_t *scores = json_object_get(result, "scores");
    char places[512] = "Places:";
    size_t place;
    const json_t *group;
    json_array_foreach(ranking, place, group) {
        append(places, sizeof places, " %zu.", place + 1);
        size_t i;
        const json_t *seat;
        json_array_foreach(group, i, seat) {
            label a;
            append(places, sizeof places, "%s %s", i == 0 ? "" : ",",
                   seat_name((int)json_integer_value(seat), viewer, a));
        }
        size_t first = (size_t)json_integer_value(json_array_get(group, 0));
        append(places, sizeof places, " (%lld~points)%s",
               (long long)json_integer_value(json_array_get(scores, first)),
               place + 1 < json_array_size(ranking) ? ";" : ".");
    }
    amt_text_line(t, "%s", places);
    json_decref(result);
}

static void situation(amt_text *t, const amt_state *s, int viewer)
{
    char top[AMT_NAME_LEN];
    char turn[48];
    if (s->turn == viewer)
        snprintf(turn, sizeof turn, "Your turn");
    else
        snprintf(turn, sizeof turn, "Seat~%d's~turn", s->turn);
    switch (s->phase) {
    case AMT_PHASE_DRAW:
        amt_text_line(t, "%s: draw, or take %s.", turn, top_card(s, top));
        if (s->window)
            claim_window(t, s, viewer);
        break;
    case AMT_PHASE_PLAY:
        amt_text_line(t, "%s: %s", turn,
                      s->players[s->turn].laid
                          ? "add to melds, then discard."
                          : "lay a pattern, add to melds, then discard.");
        break;
    case AMT_PHASE_ENDPLAY:
        round_end(t, s, viewer);
        break;
    case AMT_PHASE_OVER:
        game_over(t, s, viewer);
        break;
    }
}

static void piles(amt_text *t, const amt_state *s)
{
    char top[AMT_NAME_LEN];
    amt_text_line(t, "Draw pile: %d card%s.", s->draw_count,
                  plural(s->draw_count));
    if (s->discard_count == 0)
        amt_text_say(t, "Discard pile: empty.");
    else
        amt_text_say(t, "Discard pile: %d card%s, %s on top.",
                     s->discard_count, plural(s->discard_count),
                     top_card(s, top));
}

static void own_patterns(amt_text *t, const amt_state *s, int viewer)
{
    const amt_player *me = &s->players[viewer];
    if (me->laid) {
        amt_text_line(t, "You laid your pattern this round.");
        return;
    }
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    int open = 0;
    for (int i = 0; i < n; i++)
        open += !(me->used & (1u << ids[i]));
    if (open == 0) {
        amt_text_line(t, "You have no open pattern this round.");
        return;
    }
    amt_text_line(t, "Your open patterns:");
    for (int i = 0; i < n; i++) {
        if (!(me->used & (1u << ids[i])))
            amt_text_say(t, "%s%s", amt_pattern_get(ids[i])->name,
                         --open > 0 ? "," : ".");
    }
}

static void own_end_play(amt_text *t, const amt_state *s, int viewer)
{
    const amt_player *me = &s->players[viewer];
    if (me->end == AMT_END_WAITING) {
        amt_text_line(t, "You may lay cards for an open pattern, or pass.");
    } else if (me->end == AMT_END_PASSED) {
        amt_text_line(t, "Your sealed choice: pass.");
    } else if (me->end == AMT_END_PLAYED) {
        json_t *action = amt_play_action(&me->end_play, NULL);
        char *text = amt_format_move((const rules_state *)s, viewer, action);
        json_decref(action);
        amt_text_line(t, "Your sealed choice: %s", text != NULL ? text : "?");
        free(text);
    }
}

static void own(amt_text *t, const amt_state *s, int viewer)
{
    const amt_player *me = &s->players[viewer];
    char name[AMT_NAME_LEN];
    if (me->hand_count == 0) {
        amt_text_line(t, "Your hand is empty.");
    } else {
        amt_text_line(t, "Your hand (%d card%s):", me->hand_count,
                      plural(me->hand_count));
        for (int i = 0; i < me->hand_count; i++)
            amt_text_say(t, "%s", card_name(me->hand[i], name));
    }
    if (s->phase == AMT_PHASE_OVER)
        return;
    own_patterns(t, s, viewer);
    if (s->phase == AMT_PHASE_ENDPLAY)
        own_end_play(t, s, viewer);
}

/* The meld's name in the notation: "P1.2" is player 1's (seat 0's)
 * second meld. */
static int meld_number(const amt_state *s, int mi)
{
    int n = 1;
    for (int q = 0; q < mi; q++)
        n += s->melds[q].owner == s->melds[mi].owner;
    return n;
}

/* "Y5 Y6 Y7 W1-11 (as Y8)", the last card followed by end_mark. */
static void meld_cards(amt_text *t, const amt_meld *m, const char *end_mark)
{
    for (int i = 0; i < m->count; i++) {
        char name[AMT_NAME_LEN];
        card_name(m->cards[i], name);
        const char *end = i + 1 < m->count ? "" : end_mark;
        if (!amt_card_get(m->cards[i]).wild) {
            amt_text_say(t, "%s%s", name, end);
            continue;
        }
        int colour, number;
        amt_meld_wild_as(m, i, &colour, &number);
        if (colour >= 0)
            amt_text_say(t, "%s~(as~%c%d)%s", name, amt_colour_letter(colour),
                         number, end);
        else
            amt_text_say(t, "%s~(as~%d)%s", name, number, end);
    }
}

/* One line per meld ("P1.2, seat 0's run: Y5 Y6 Y7 W1-11 (as Y8)"), or
 * with many melds one line per player ("Seat 0: P1.1 set: ...; P1.2
 * run: ..."). */
static void table(amt_text *t, const amt_state *s, int viewer)
{
    if (s->meld_count == 0) {
        amt_text_line(t, "Table: no melds yet.");
        return;
    }
    amt_text_line(t, "Table (meld P1.2 is seat~0's 2nd):");
    for (int mi = 0; mi < s->meld_count; mi++) {
        const amt_meld *m = &s->melds[mi];
        const char *kind = amt_kind_name(m->kind);
        int n = meld_number(s, mi);
        if (s->meld_count <= MELD_LINES_MAX) {
            if (m->owner == viewer)
                amt_text_line(t, "P%d.%d, your %s:", m->owner + 1, n, kind);
            else
                amt_text_line(t, "P%d.%d, seat~%d's %s:", m->owner + 1, n,
                              m->owner, kind);
            meld_cards(t, m, "");
            continue;
        }
        if (n == 1) {
            label a;
            amt_text_line(t, "%s:", m->owner == viewer
                                        ? "Yours"
                                        : seat_name_capital(m->owner, viewer,
                                                            a));
        }
        bool last = mi + 1 == s->meld_count ||
                    s->melds[mi + 1].owner != m->owner;
        amt_text_say(t, "P%d.%d~%s:", m->owner + 1, n, kind);
        meld_cards(t, m, last ? "" : ";");
    }
}

/* "Seat 2: 45 points (0+40+5); 8 cards in hand; marked 2sets4, run8
 * (1 complete)." with or without the rounds' breakdown. */
static void seat_line(const amt_state *s, int p, int viewer, bool rounds,
                      char *line, size_t size)
{
    const amt_player *pl = &s->players[p];
    int played = s->phase == AMT_PHASE_OVER ? s->round + 1 : s->round;
    line[0] = '\0';
    if (p == viewer)
        append(line, size, "You (seat~%d):", p);
    else
        append(line, size, "Seat~%d:", p);
    append(line, size, " %d~point%s", pl->total, plural(pl->total));
    /* the score sheet's rounds, when there is more than one */
    for (int r = 0; rounds && played > 1 && r < played; r++)
        append(line, size, r == 0 ? " (%d" : "%+d", pl->round_score[r]);
    append(line, size, "%s; %d~card%s in hand;",
           rounds && played > 1 ? ")" : "", pl->hand_count,
           plural(pl->hand_count));
    if (pl->used == 0) {
        append(line, size, " nothing marked.");
        return;
    }
    int marked = __builtin_popcount(pl->used);
    int listed = 0;
    for (int q = 0; q < AMT_PATTERNS; q++) {
        if (!(pl->used & (1u << q)))
            continue;
        listed++;
        append(line, size, "%s %s%s", listed == 1 ? " marked" : "",
               amt_pattern_get(q)->name, listed < marked ? "," : "");
    }
    append(line, size, " (%d~complete).", pl->completed);
}

static void scores(amt_text *t, const amt_state *s, int viewer)
{
    amt_text_line(t, "Scores (lowest total wins):");
    for (int p = 0; p < s->seats; p++) {
        char line[512];
        seat_line(s, p, viewer, true, line, sizeof line);
        /* two lines at most: a long game's rounds are in the full view */
        if (strlen(line) > 2 * (AMT_TEXT_WIDTH - 4))
            seat_line(s, p, viewer, false, line, sizeof line);
        amt_text_line(t, "%s", line);
    }
}

/* Whether body names word as a word of its own. */
static bool names_word(const char *body, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = strstr(body, word); at != NULL;
         at = strstr(at + 1, word)) {
        bool starts = at == body || strchr(" (:,\n", at[-1]) != NULL;
        bool ends = strchr(" ).,;:\n", at[n]) != NULL;
        if (starts && ends)
            return true;
    }
    return false;
}

/* The codes body uses, for a newcomer: card names (the wilds it names),
 * the patterns of the round and, once there are melds, how melds are
 * named. Names no card body does not. */
static void legend(amt_text *t, const amt_state *s, const char *body)
{
    amt_text_line(t, "Key: B, R, Y, G are blue, red, yellow, green; a final "
                     "s marks a smiley 5, 6 or 7.");
    static const char *const wilds[] = {"W1-6", "W6-11", "W1-11"};
    for (size_t i = 0; i < sizeof wilds / sizeof *wilds; i++) {
        if (names_word(body, wilds[i]))
            amt_text_say(t, "%s~is~a~wild~for~%s.", wilds[i], wilds[i] + 1);
    }
    int ids[AMT_PATTERNS];
    int n = amt_round_patterns(s->progressive, s->round, ids);
    for (int i = 0; i < n; i++)
        amt_text_say(t, "%s~is~%s%s", amt_pattern_get(ids[i])->name,
                     amt_pattern_get(ids[i])->title, i + 1 < n ? ";" : ".");
    if (s->meld_count > 0)
        amt_text_say(t, "P2.1 is seat 1's first meld.");
}

char *amt_view_text(const rules_state *state, int seat)
{
    const amt_state *s = (const amt_state *)state;
    int viewer = seat >= 0 && seat < s->seats ? seat : RULES_SPECTATOR;
    amt_text t = {0};
    heading(&t, s);
    piles(&t, s);
    situation(&t, s, viewer);
    if (viewer != RULES_SPECTATOR) {
        amt_text_blank(&t);
        own(&t, s, viewer);
    }
    amt_text_blank(&t);
    table(&t, s, viewer);
    amt_text_blank(&t);
    scores(&t, s, viewer);
    amt_text key = {0};
    legend(&key, s, t.buf != NULL ? t.buf : "");
    return amt_text_finish_with(&t, &key);
}
