/* view_text.c: what one Lord (or a spectator) may see, as a page of plain
 * text for a mail: whose move it is, the Lord's own hand, checks and
 * thieves, every pawn and the public cards, the auction house, the prison
 * and what happened this turn. It shows no more than av_view (view.c):
 * other hands only counted, no face-down auction card, no other Lord's
 * sealed choice. Cards, checks, thieves and moves are written as the
 * notation writes them (notation.c); seats as "seat N". */
#include "av_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* A mail's page: the oldest lines of a long turn log give way first. */
#define MAX_LINES 36

static const char *const ordinals[] = {"1st", "2nd", "3rd", "4th", "5th"};

/* "A1 A3 B2", "" for none. */
static void cards_text(av_cards cards, char *out, size_t size)
{
    size_t length = 0;
    out[0] = '\0';
    for (int c = 0; c < AV_CARDS && length < size; c++) {
        if (cards >> c & 1) {
            char name[4];
            av_card_name(c, name);
            length += (size_t)snprintf(out + length, size - length, "%s%s",
                                       length ? " " : "", name);
        }
    }
}

/* "seat 0", "seat 0 and seat 2", "seat 0, seat 1 and seat 3"; the
 * viewer's seat is marked "(you)". */
static void seats_text(uint32_t seats, int viewer, char *out, size_t size)
{
    int count = rules_seat_count(seats), listed = 0;
    size_t length = 0;
    out[0] = '\0';
    for (int i = 0; i < AV_MAX_PLAYERS && length < size; i++) {
        if (!(seats >> i & 1))
            continue;
        const char *joint = listed == 0 ? ""
                            : listed == count - 1 ? " and " : ", ";
        length += (size_t)snprintf(out + length, size - length,
                                   "%sseat %d%s", joint, i,
                                   i == viewer ? " (you)" : "");
        listed++;
    }
}

static const char *phase_heading(const av_state *s)
{
    switch (s->phase) {
    case AV_PHASE_LOCATION:
        return "every Lord chooses in secret where he goes";
    case AV_PHASE_ACTION:
        return "every Lord chooses in secret the action card he plays";
    case AV_PHASE_PLAN:
        return "every Lord chooses in secret where he goes and the action "
               "card he plays there";
    case AV_PHASE_TAKE:
        return "the auction is won and a face-up card is taken";
    case AV_PHASE_EXHIBIT:
        return "the exhibitors choose in secret the set they show";
    case AV_PHASE_STEAL:
        return "the castle thieves steal from the exhibits";
    default:
        return "";
    }
}

static void say_result(av_page *page, const av_state *s)
{
    json_t *result = av_result((const rules_state *)s);
    json_t *ranking = json_object_get(result, "ranking");
    char line[256] = "Result:";
    size_t length = strlen(line);
    size_t place;
    json_t *seats;
    int rank = 0;
    json_array_foreach(ranking, place, seats) {
        uint32_t mask = 0;
        size_t k;
        json_t *seat;
        json_array_foreach(seats, k, seat)
            mask |= 1u << json_integer_value(seat);
        int first = (int)json_integer_value(json_array_get(seats, 0));
        char names[96];
        seats_text(mask, -1, names, sizeof names);
        length += (size_t)snprintf(line + length, sizeof line - length,
                                   "%s %s %s (space %d)", place ? ";" : "",
                                   ordinals[rank], names, s->lord[first].pawn);
        rank += (int)json_array_size(seats);
    }
    json_decref(result);
    av_page_say(page, "The game is over. %s.", line);
}

/* Whose move it is, and the viewer's own part in it. */
static void say_status(av_page *page, const av_state *s, int viewer)
{
    rules_pending pending;
    av_pending((const rules_state *)s, &pending);
    if (s->phase == AV_PHASE_OVER) {
        say_result(page, s);
        return;
    }
    if (s->phase == AV_PHASE_FINAL)
        av_page_say(page, "Final exhibition: every Lord shows in secret his "
                          "largest and most valuable set.");
    else
        av_page_say(page, "Turn %d: %s.", s->turn, phase_heading(s));
    if (s->phase == AV_PHASE_ACTION && s->variant == AV_VARIANT_ALTERNATE)
        av_page_say(page, "Both Lords are at the %s this turn (they "
                          "alternate).",
                    s->lord[0].location == AV_LOC_CASTLE ? "castle"
                                                         : "auction house");
    char waiting[96], chosen[96];
    seats_text(pending.seats, viewer, waiting, sizeof waiting);
    if (pending.wait == RULES_WAIT_SIMULTANEOUS) {
        uint32_t made = 0;
        for (int i = 0; i < s->seats; i++)
            made |= (uint32_t)s->lord[i].chosen << i;
        seats_text(made, viewer, chosen, sizeof chosen);
        if (made != 0)
            av_page_say(page, "Waiting for %s; %s %s chosen.", waiting,
                        chosen, rules_seat_count(made) > 1 ? "have" : "has");
        else
            av_page_say(page, "Waiting for %s.", waiting);
    } else if (s->phase == AV_PHASE_STEAL) {
        int thief = av_current_thief(s);
        av_page_say(page, "Waiting for %s: thief %d steals one card from "
                          "each exhibit he has not robbed yet.",
                    waiting, s->lord[thief].play.value);
    } else {
        av_page_say(page, "Waiting for %s, who won the auction.", waiting);
    }
    if (viewer < 0)
        return;
    if (pending.wait == RULES_WAIT_SIMULTANEOUS && s->lord[viewer].chosen) {
        av_move sealed = av_sealed_move(s, viewer);
        char move[AV_MOVE_TEXT];
        av_move_text(&sealed, move);
        av_page_say(page, "You chose: %s (hidden until every Lord has "
                          "chosen).", move);
    } else if (pending.seats >> viewer & 1) {
        av_page_say(page, "It is your move.");
    }
}

/* The values of the checks seat holds, lowest first: "8000 11000"
 * ("" for none); returns how many. */
static int checks_held(const av_state *s, int seat, char *out, size_t size)
{
    int held[AV_MAX_CHECKS], count = 0;
    for (int c = 0; c < s->seats * AV_CHECKS_PER_LORD; c++) {
        if (s->check_holder[c] != seat)
            continue;
        int value = av_check_value(c), k = count++;
        for (; k > 0 && held[k - 1] > value; k--)
            held[k] = held[k - 1];
        held[k] = value;
    }
    size_t length = 0;
    out[0] = '\0';
    for (int k = 0; k < count && length < size; k++)
        length += (size_t)snprintf(out + length, size - length, "%s%d",
                                   k ? " " : "", held[k]);
    return count;
}

/* The sack numbers of seat's free thieves: "1 6", "6", "". */
static int free_thieves(const av_state *s, int seat, char *out, size_t size)
{
    int count = 0;
    size_t length = 0;
    out[0] = '\0';
    for (int k = 0; k < 2; k++) {
        int sack = av_thief_sack(seat, k);
        if (!av_thief_free(s, sack))
            continue;
        length += (size_t)snprintf(out + length, size - length, "%s%d",
                                   count ? " " : "", sack);
        count++;
    }
    return count;
}

static void say_you(av_page *page, const av_state *s, int viewer)
{
    const av_lord *l = &s->lord[viewer];
    char cards[3 * AV_CARDS + 1];
    cards_text(l->hand, cards, sizeof cards);
    if (l->hand != 0)
        av_page_say(page, "Your hand: %s", cards);
    else
        av_page_say(page, "Your hand is empty.");
    if (s->phase == AV_PHASE_FINAL || s->phase == AV_PHASE_OVER)
        return; /* checks and thieves no longer matter */
    char checks[160];
    switch (checks_held(s, viewer, checks, sizeof checks)) {
    case 0:
        av_page_say(page, "You hold no check.");
        break;
    case 1:
        av_page_say(page, "Your check: %s", checks);
        break;
    default:
        av_page_say(page, "Your checks: %s", checks);
        break;
    }
    char thieves[16];
    int sacks[2] = {av_thief_sack(viewer, 0), av_thief_sack(viewer, 1)};
    switch (free_thieves(s, viewer, thieves, sizeof thieves)) {
    case 2:
        av_page_say(page, "Your thieves: %d and %d", sacks[0], sacks[1]);
        break;
    case 1:
        av_page_say(page, "Your thief: %s (thief %d is in prison)", thieves,
                    av_thief_free(s, sacks[0]) ? sacks[1] : sacks[0]);
        break;
    default:
        av_page_say(page, "Your thieves %d and %d are both in prison",
                    sacks[0], sacks[1]);
        break;
    }
}

static void say_lord(av_page *page, const av_state *s, int seat, int viewer)
{
    const av_lord *l = &s->lord[seat];
    char line[512];
    size_t length = (size_t)snprintf(line, sizeof line, "seat %d%s: space %d",
                                     seat, seat == viewer ? " (you)" : "",
                                     l->pawn);
    if (l->pawn >= AV_DINNER_TABLE)
        length += (size_t)snprintf(line + length, sizeof line - length,
                                   " (dinner table)");
    bool playing = s->phase != AV_PHASE_FINAL && s->phase != AV_PHASE_OVER;
    if (seat != viewer && s->phase != AV_PHASE_OVER) {
        int cards = __builtin_popcountll(l->hand);
        length += (size_t)snprintf(line + length, sizeof line - length,
                                   ", %d card%s", cards, cards == 1 ? "" : "s");
    }
    if (seat != viewer && playing) {
        char checks[160], thieves[16];
        int held = checks_held(s, seat, checks, sizeof checks);
        int free = free_thieves(s, seat, thieves, sizeof thieves);
        length += (size_t)snprintf(
            line + length, sizeof line - length, ", %s%s%s, %s%s",
            held == 0 ? "no check" : held == 1 ? "check" : "checks",
            held ? " " : "", checks,
            free == 0 ? "no free thief" : free == 1 ? "thief " : "thieves ",
            thieves);
    }
    char cards[3 * AV_CARDS + 1];
    if (s->phase == AV_PHASE_OVER) {
        cards_text(l->final_set, cards, sizeof cards);
        snprintf(line + length, sizeof line - length, "; final set %s",
                 l->final_set ? cards : "none");
    }
    av_page_say(page, "%s", line);
}

/* What is left of seat's exhibit while the thieves steal from it. */
static void say_display(av_page *page, const av_state *s, int seat)
{
    if (s->lord[seat].display == 0)
        return;
    char cards[3 * AV_CARDS + 1];
    cards_text(s->lord[seat].display, cards, sizeof cards);
    av_page_say(page, "seat %d's exhibit on display: %s", seat, cards);
}

static void say_octagon(av_page *page, const av_state *s)
{
    int lead = av_leading_pawn(s);
    const av_castle *castle = &av_castles[av_octagon_castle(lead)];
    const char *where = lead <= 0 ? "the club room"
                        : lead >= AV_DINNER_TABLE ? "the dinner table"
                                                  : castle->name;
    av_page_say(page, "Exhibit winners advance %d and %d: the leader is in "
                      "%s.", castle->first, castle->second, where);
}

static void say_table(av_page *page, const av_state *s)
{
    char names[2][4];
    int offered = 0, sizes[2];
    for (int k = 0; k < 2; k++) {
        if (s->pile_count[k] == 0)
            continue;
        av_card_name(s->pile[k][s->pile_count[k] - 1], names[offered]);
        sizes[offered++] = s->pile_count[k];
    }
    if (offered == 2)
        av_page_say(page, "Auction house: %s and %s face up (piles of %d and "
                          "%d cards).", names[0], names[1], sizes[0],
                    sizes[1]);
    else if (offered == 1)
        av_page_say(page, "Auction house: %s face up (a pile of %d card%s); "
                          "the other pile is empty.", names[0], sizes[0],
                    sizes[0] == 1 ? "" : "s");
    else
        av_page_say(page, "Auction house: both piles are empty.");

    char cells[128];
    size_t length = 0;
    for (int c = 0; c < s->seats; c++) {
        const char *comma = c ? ", " : "";
        if (s->prison[c] != 0)
            length += (size_t)snprintf(cells + length, sizeof cells - length,
                                       "%sthief %d", comma, s->prison[c]);
        else
            length += (size_t)snprintf(cells + length, sizeof cells - length,
                                       "%sempty", comma);
    }
    if (s->prison[0] == 0)
        av_page_say(page, "Prison: every cell is empty.");
    else
        av_page_say(page, "Prison, cell #1 first: %s.", cells);
}

/* The turn the log tells: each turn's record starts when its cards are
 * revealed, so before that the log still tells the turn before. */
static int log_turn(const av_state *s)
{
    switch (s->phase) {
    case AV_PHASE_LOCATION:
    case AV_PHASE_PLAN:
        return s->turn - 1;
    case AV_PHASE_ACTION:
        return s->variant == AV_VARIANT_NONE ? s->turn : s->turn - 1;
    default:
        return s->turn;
    }
}

/* A log line as the text writes it: "seat N" for "Lord N". */
static void event_text(const char *line, char *out, size_t size)
{
    size_t length = 0;
    while (*line != '\0' && length + 1 < size) {
        if (strncmp(line, "Lord ", 5) == 0 &&
            isdigit((unsigned char)line[5]) && length + 5 < size) {
            memcpy(out + length, "seat ", 5);
            length += 5;
            line += 5;
            continue;
        }
        out[length++] = *line++;
    }
    out[length] = '\0';
}

/* Where seat went in the turn the log tells. In the alternate variant
 * the location on the table is already the next turn's: it alternates. */
static av_location location_in(const av_state *s, int seat, int turn)
{
    if (s->variant == AV_VARIANT_ALTERNATE)
        return turn % 2 == 1 ? AV_LOC_AUCTION : AV_LOC_CASTLE;
    return s->lord[seat].location;
}

/* "At the castle: seat 0 (play thief 6), seat 2 (play exhibit)." for
 * the turn the log tells; without the cards while they are still sealed. */
static void say_places(av_page *page, const av_state *s, int turn,
                       const char *heading)
{
    bool cards_shown = !(s->variant == AV_VARIANT_NONE &&
                         s->phase == AV_PHASE_ACTION);
    for (int where = AV_LOC_CASTLE; where >= AV_LOC_AUCTION; where--) {
        char line[512];
        size_t length = (size_t)snprintf(
            line, sizeof line, "At the %s:",
            where == AV_LOC_CASTLE ? "castle" : "auction house");
        int listed = 0, count = 0;
        for (int i = 0; i < s->seats; i++)
            count += location_in(s, i, turn) == (av_location)where;
        for (int i = 0; i < s->seats; i++) {
            if (location_in(s, i, turn) != (av_location)where)
                continue;
            const char *joint = listed == 0 ? " "
                                : listed == count - 1 ? " and " : ", ";
            length += (size_t)snprintf(line + length, sizeof line - length,
                                       "%sseat %d", joint, i);
            if (cards_shown && s->lord[i].play.card != AV_CARD_NONE) {
                av_move m = {.type = AV_MOVE_PLAY, .play = s->lord[i].play};
                char move[AV_MOVE_TEXT];
                av_move_text(&m, move);
                length += (size_t)snprintf(line + length,
                                           sizeof line - length, " (%s)",
                                           move);
            }
            listed++;
        }
        if (listed > 0 && heading != NULL) {
            av_page_blank(page);
            av_page_say(page, "%s", heading);
            heading = NULL;
        }
        if (listed > 0)
            av_page_say(page, "%s.", line);
    }
}

/* The turn the log tells: where each Lord went and what he played, then
 * what came of it, the newest events first to stay when room runs out. */
static void say_turn(av_page *page, const av_state *s)
{
    int turn = log_turn(s);
    if (turn < 1)
        return;
    char heading[64];
    if (s->phase == AV_PHASE_OVER || s->phase == AV_PHASE_FINAL)
        snprintf(heading, sizeof heading, "Turn %d and the final exhibition:",
                 turn);
    else if (turn == s->turn)
        snprintf(heading, sizeof heading, "Turn %d so far:", turn);
    else
        snprintf(heading, sizeof heading, "Turn %d:", turn);
    int lines = page->lines;
    say_places(page, s, turn, heading);
    if (page->lines == lines && s->log_count > av_log_reveal_lines(s)) {
        av_page_blank(page);
        av_page_say(page, "%s", heading);
    }

    int from = av_log_reveal_lines(s);
    char events[AV_LOG_LINES][AV_LOG_WIDTH + 16];
    for (int i = from; i < s->log_count; i++)
        event_text(s->log[i], events[i], sizeof events[i]);
    int room = MAX_LINES - page->lines;
    int first = s->log_count;
    while (first > from && av_page_lines(events[first - 1]) <= room) {
        room -= av_page_lines(events[first - 1]);
        first--;
    }
    /* Left-out events are counted on a line of their own, if one is
     * left for it. */
    while (first > from && room < 1 && first < s->log_count)
        room += av_page_lines(events[first++]);
    if (first > from && room >= 1)
        av_page_say(page, "(%d earlier event%s left out)", first - from,
                    first - from == 1 ? "" : "s");
    for (int i = first; i < s->log_count; i++)
        av_page_say(page, "%s", events[i]);
}

/* The codes the text uses, for a newcomer. */
static void say_key(av_page *page)
{
    av_page_say(page, "Key: a collection card is its series letter (A to F) "
                      "and its number; checks go by their value, thieves by "
                      "their sack number; spaces count from the club room "
                      "(0) to the dinner table (%d).",
                AV_DINNER_TABLE);
}

char *av_view_text(const rules_state *state, int seat)
{
    const av_state *s = (const av_state *)state;
    int viewer = seat >= 0 && seat < s->seats ? seat : RULES_SPECTATOR;
    av_page page = {0};
    say_status(&page, s, viewer);
    if (viewer >= 0) {
        av_page_blank(&page);
        say_you(&page, s, viewer);
    }
    av_page_blank(&page);
    for (int i = 0; i < s->seats; i++)
        say_lord(&page, s, i, viewer);
    for (int i = 0; i < s->seats; i++)
        say_display(&page, s, i);
    if (s->phase != AV_PHASE_FINAL && s->phase != AV_PHASE_OVER)
        say_octagon(&page, s);
    av_page_blank(&page);
    say_table(&page, s);
    say_turn(&page, s);
    av_page_blank(&page);
    say_key(&page);
    return av_page_text(&page);
}
