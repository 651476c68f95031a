/* tell.c: what a move did, told to one seat (rules_engine.tell).
 *
 * The drawer reads the card it drew, the others that a card was drawn; a
 * penalty card is named only to the claimer. A sealed end-of-round choice
 * is told to the others once every seat has chosen, and a round's end says
 * how it was scored: "Round 1 scored: Carol 175 (12 cards left), Bob 30,
 * Alice 0." */
#include "amt_internal.h"
#include "tell_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct story {
    tell_text out;
    const char *const *names;
    int viewer;
    int detail; /* 2: every card and count; 1: fewer; 0: the bare events */
} story;

/* "You" or the seat's name, as the subject of a sentence. */
static const char *who(const story *t, int seat)
{
    return tell_text_who(seat, t->viewer, t->names, true);
}

static void card_name(int id, char out[AMT_NAME_LEN])
{
    amt_card_name(id, out);
}

/* The card in after's hand of seat that was not in before's, or -1. */
static int card_gained(const amt_state *before, const amt_state *after,
                       int seat, int skip)
{
    const amt_player *a = &after->players[seat];
    const amt_player *b = &before->players[seat];
    for (int i = 0; i < a->hand_count; i++) {
        bool had = a->hand[i] == skip;
        for (int k = 0; k < b->hand_count && !had; k++)
            had = b->hand[k] == a->hand[i];
        if (!had)
            return a->hand[i];
    }
    return -1;
}

/* "P2.1 (Bob's run)": a meld as the notation writes it and whose it is. */
static void say_meld(story *t, const amt_state *s, int owner, int number)
{
    int index = amt_meld_index(s, owner, number);
    const char *kind =
        index >= 0 ? amt_kind_name(s->melds[index].kind) : "meld";
    if (owner == t->viewer)
        tell_text_add(&t->out, "P%d.%d (your %s)", owner + 1, number + 1, kind);
    else
        tell_text_add(&t->out, "P%d.%d (%s's %s)", owner + 1, number + 1,
                      t->names[owner], kind);
}

/* The melds of a pattern action: "set B4 R4 Y4 G4 and run B5 B6 B7 B8". */
static void say_melds(story *t, const json_t *action)
{
    const json_t *melds = json_object_get(action, "melds");
    for (size_t i = 0; i < json_array_size(melds); i++) {
        const json_t *meld = json_array_get(melds, i);
        const json_t *cards = json_object_get(meld, "cards");
        tell_text_add(&t->out, "%s%s", i > 0 ? " and " : "",
                      json_string_value(json_object_get(meld, "kind")));
        for (size_t k = 0; k < json_array_size(cards); k++)
            tell_text_add(&t->out, " %s",
                          json_string_value(json_array_get(cards, k)));
    }
}

static int pattern_cards(const json_t *action)
{
    const json_t *melds = json_object_get(action, "melds");
    int count = 0;
    for (size_t i = 0; i < json_array_size(melds); i++)
        count += (int)json_array_size(
            json_object_get(json_array_get(melds, i), "cards"));
    return count;
}

/* "You laid 2sets4: set B4 R4 Y4 G4 and set B7 R7 Y7 W1-11, swapping
 * R5 for the wild of P2.1 (Bob's run)." */
static void tell_pattern(story *t, const amt_state *before, int actor,
                         const json_t *action)
{
    const char *mark = json_string_value(json_object_get(action, "mark"));
    int id = mark != NULL ? amt_pattern_find(mark) : -1;
    tell_text_add(&t->out, "%s laid %s", who(t, actor),
                  mark != NULL ? mark : "a pattern");
    if (id >= 0)
        tell_text_add(&t->out, " (%s)", amt_pattern_get(id)->title);
    if (t->detail > 0) {
        tell_text_add(&t->out, ": ");
        say_melds(t, action);
    } else {
        tell_text_add(&t->out, ", %d cards", pattern_cards(action));
    }
    const json_t *swaps = json_object_get(action, "swaps");
    for (size_t i = 0; i < json_array_size(swaps); i++) {
        const json_t *swap = json_array_get(swaps, i);
        tell_text_add(&t->out, "%s %s for the wild in ",
                      i == 0 ? ", swapping" : " and",
                      json_string_value(json_object_get(swap, "card")));
        say_meld(t, before,
                 (int)json_integer_value(json_object_get(swap, "owner")),
                 (int)json_integer_value(json_object_get(swap, "meld")));
    }
    tell_text_add(&t->out, ".");
}

/* The seat that gets the claimed discard when seat next draws: the first
 * claimer clockwise from next, or -1. */
static int claimer_of(const amt_state *s, int next)
{
    if (!s->window)
        return -1;
    for (int k = 1; k < s->seats; k++) {
        int p = (next + k) % s->seats;
        if (s->players[p].claim == AMT_CLAIM_CLAIMED)
            return p;
    }
    return -1;
}

/* The hand each seat had when the round was scored: before's, less what
 * this move (or the sealed plays it completed) laid or discarded, plus a
 * claim it settled. */
static void cards_left(const amt_state *before, int actor, const json_t *action,
                       int left[])
{
    const char *type = json_string_value(json_object_get(action, "type"));
    for (int p = 0; p < before->seats; p++) {
        left[p] = before->players[p].hand_count;
        if (before->phase == AMT_PHASE_ENDPLAY &&
            before->players[p].end == AMT_END_PLAYED) {
            for (int m = 0; m < before->players[p].end_play.melds; m++)
                left[p] -= before->players[p].end_play.count[m];
        }
    }
    if (strcmp(type, "discard") == 0 || strcmp(type, "add") == 0)
        left[actor]--;
    else if (strcmp(type, "pattern") == 0)
        left[actor] -= pattern_cards(action);
    int claimer = strcmp(type, "draw") == 0 ? claimer_of(before, actor) : -1;
    if (claimer >= 0)
        left[claimer] += 2;
}

/* "Round 1 scored: Carol 175 (12 cards left), Bob 30, Alice 0." Seats
 * from the most points (the worst) to the fewest. */
static void tell_scored(story *t, const amt_state *before,
                        const amt_state *after, int actor, const json_t *action)
{
    int round = before->round;
    int left[AMT_MAX_SEATS];
    cards_left(before, actor, action, left);
    int order[AMT_MAX_SEATS] = {0};
    for (int p = 0; p < before->seats; p++) {
        int at = p;
        int points = after->players[p].round_score[round];
        while (at > 0 &&
               after->players[order[at - 1]].round_score[round] < points) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = p;
    }
    tell_text_add(&t->out, " Round %d scored:", round + 1);
    for (int i = 0; i < before->seats; i++) {
        int p = order[i];
        int points = after->players[p].round_score[round];
        tell_text_add(&t->out, "%s %s %d", i > 0 ? "," : "", who(t, p), points);
        if (t->detail > 1 && left[p] > 0)
            tell_text_add(&t->out, " (%d card%s left)", left[p],
                          left[p] == 1 ? "" : "s");
    }
    tell_text_add(&t->out, ".");
    if (after->phase == AMT_PHASE_OVER)
        tell_text_add(&t->out, " The match is over.");
}

/* What ended the round, when this move did, and how it was scored. */
static void tell_round_end(story *t, const amt_state *before,
                           const amt_state *after, int actor,
                           const json_t *action)
{
    bool scored =
        after->phase == AMT_PHASE_OVER || after->round != before->round;
    bool ending =
        after->phase == AMT_PHASE_ENDPLAY && before->phase != AMT_PHASE_ENDPLAY;
    if (!scored && !ending)
        return;
    if (before->phase != AMT_PHASE_ENDPLAY) {
        int left[AMT_MAX_SEATS];
        cards_left(before, actor, action, left);
        if (left[actor] == 0)
            tell_text_add(&t->out, " %s went out: round %d is over.",
                          who(t, actor), before->round + 1);
        else
            tell_text_add(&t->out, " The draw pile is empty: round %d is over.",
                          before->round + 1);
    }
    if (ending)
        tell_text_add(
            &t->out, " Each player without a pattern may now lay one from hand "
                     "or pass.");
    if (scored)
        tell_scored(t, before, after, actor, action);
}

/* The end-of-round choices, once the last is in: "Bob laid 2sets4, Carol
 * passed." */
static void tell_end_choices(story *t, const amt_state *before, int actor,
                             const json_t *action)
{
    tell_text_add(&t->out, "Round %d's last plays:", before->round + 1);
    bool first = true;
    for (int p = 0; p < before->seats; p++) {
        int end = before->players[p].end;
        const char *mark = NULL;
        if (p == actor) {
            const char *type =
                json_string_value(json_object_get(action, "type"));
            end =
                strcmp(type, "pattern") == 0 ? AMT_END_PLAYED : AMT_END_PASSED;
            mark = json_string_value(json_object_get(action, "mark"));
        } else if (end == AMT_END_PLAYED) {
            mark = amt_pattern_get(before->players[p].end_play.mark)->name;
        }
        if (end != AMT_END_PLAYED && end != AMT_END_PASSED)
            continue;
        tell_text_add(&t->out, "%s %s", first ? "" : ",", who(t, p));
        if (end == AMT_END_PLAYED)
            tell_text_add(&t->out, " laid %s", mark);
        else
            tell_text_add(&t->out, " passed");
        first = false;
    }
    tell_text_add(&t->out, ".");
}

static void tell_end_phase(story *t, const amt_state *before,
                           const amt_state *after, int actor,
                           const json_t *action)
{
    const char *type = json_string_value(json_object_get(action, "type"));
    if (after->phase == AMT_PHASE_ENDPLAY && after->round == before->round) {
        /* Sealed until every seat has chosen. */
        if (actor != t->viewer) {
            tell_text_add(&t->out,
                          "%s chose a last play for round %d in secret.",
                          t->names[actor], before->round + 1);
        } else if (strcmp(type, "pass") == 0) {
            tell_text_add(
                &t->out,
                "You chose to pass; the others will see it when all have "
                "chosen.");
        } else {
            tell_pattern(t, before, actor, action);
            tell_text_unadd(&t->out); /* the full stop */
            tell_text_add(&t->out, " when all have chosen.");
        }
        return;
    }
    /* A sealed decision of several seats is told choice by choice, each
     * from the state before them all (rules.h): each chooser tells its
     * own last play, and the last of them (the highest seat) the round's
     * scores, so a turn mail tells the scores once, not once a player. */
    rules_pending pending;
    amt_pending((const rules_state *)before, &pending);
    uint32_t choosers = pending.wait == RULES_WAIT_SIMULTANEOUS && actor >= 0 &&
                                actor < AMT_MAX_SEATS &&
                                (pending.seats >> actor & 1)
                            ? pending.seats
                            : 0;
    if ((choosers & (choosers - 1)) != 0) {
        if (strcmp(type, "pattern") == 0)
            tell_pattern(t, before, actor, action);
        else
            tell_text_add(&t->out, "%s passed.", who(t, actor));
        if ((choosers >> actor) == 1)
            tell_scored(t, before, after, actor, action);
        return;
    }
    tell_end_choices(t, before, actor, action);
    tell_scored(t, before, after, actor, action);
}

static void tell_draw(story *t, const amt_state *before, const amt_state *after,
                      int actor)
{
    int claimer = claimer_of(before, actor);
    int discard = before->discard_count > 0
                      ? before->discard[before->discard_count - 1]
                      : -1;
    if (claimer >= 0) {
        char name[AMT_NAME_LEN];
        card_name(discard, name);
        int penalty = card_gained(before, after, claimer, discard);
        if (claimer == t->viewer && penalty >= 0) {
            char drawn[AMT_NAME_LEN];
            card_name(penalty, drawn);
            tell_text_add(&t->out,
                          "Your claim won %s, with %s as the penalty card. ",
                          name, drawn);
        } else {
            tell_text_add(&t->out, "%s's claim won %s and a penalty card. ",
                          t->names[claimer], name);
        }
    }
    if (after->phase == AMT_PHASE_PLAY) {
        int card = card_gained(before, after, actor, -1);
        if (actor == t->viewer && card >= 0) {
            char name[AMT_NAME_LEN];
            card_name(card, name);
            tell_text_add(&t->out, "You drew %s.", name);
        } else {
            tell_text_add(&t->out, "%s drew a card.", who(t, actor));
        }
    } else {
        tell_text_add(&t->out, "%s had no card to draw.", who(t, actor));
    }
}

static void tell_add(story *t, const amt_state *before, int actor,
                     const json_t *action)
{
    tell_text_add(&t->out, "%s added %s to ", who(t, actor),
                  json_string_value(json_object_get(action, "card")));
    say_meld(t, before,
             (int)json_integer_value(json_object_get(action, "owner")),
             (int)json_integer_value(json_object_get(action, "meld")));
    const char *end = json_string_value(json_object_get(action, "end"));
    if (end != NULL)
        tell_text_add(&t->out, " at its %s end", end);
    tell_text_add(&t->out, ".");
}

static void tell_move(story *t, const amt_state *before, const amt_state *after,
                      int actor, const json_t *action)
{
    const char *type = json_string_value(json_object_get(action, "type"));
    char top[AMT_NAME_LEN] = "the discard";
    if (before->discard_count > 0)
        card_name(before->discard[before->discard_count - 1], top);
    if (before->phase == AMT_PHASE_ENDPLAY) {
        tell_end_phase(t, before, after, actor, action);
        return;
    }
    if (strcmp(type, "draw") == 0)
        tell_draw(t, before, after, actor);
    else if (strcmp(type, "take") == 0)
        tell_text_add(&t->out, "%s took %s from the discard pile.",
                      who(t, actor), top);
    else if (strcmp(type, "claim") == 0)
        tell_text_add(&t->out, "%s claimed %s (\"Can I have it?\").",
                      who(t, actor), top);
    else if (strcmp(type, "pass") == 0)
        tell_text_add(&t->out, "%s let %s go.", who(t, actor), top);
    else if (strcmp(type, "discard") == 0)
        tell_text_add(&t->out, "%s discarded %s.", who(t, actor),
                      json_string_value(json_object_get(action, "card")));
    else if (strcmp(type, "pattern") == 0)
        tell_pattern(t, before, actor, action);
    else if (strcmp(type, "add") == 0)
        tell_add(t, before, actor, action);
    else
        tell_text_add(&t->out, "%s moved.", who(t, actor));
    tell_round_end(t, before, after, actor, action);
}

char *amt_tell(const rules_state *before, const rules_state *after, int actor,
               const json_t *action, int viewer, const char *const *names)
{
    const amt_state *b = (const amt_state *)before;
    const amt_state *a = (const amt_state *)after;
    if (json_string_value(json_object_get(action, "type")) == NULL)
        return NULL;
    story t;
    for (int detail = 2; detail >= 0; detail--) {
        memset(&t, 0, sizeof t);
        t.names = names;
        t.viewer = viewer;
        t.detail = detail;
        tell_move(&t, b, a, actor, action);
        if (t.out.len <= RULES_TELL_MOST)
            break;
    }
    return tell_text_done(&t.out);
}
