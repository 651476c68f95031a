/* tell.c: what a move did, told to one seat (rules.h, tell): the move in
 * words ("Bob dug out china4 (A) at 0.3.1 for 2 silver."), then what came
 * of it, read from the difference between the state before and after: the
 * silver each seat gained or lost, a curse's effect, a bonus to settle,
 * whose turn it is now, the second temple, the end of the match. The
 * viewer is "you". A face-down temple card is named only to a seat that
 * may see it (the one that peeked); cards in a tableau, the box and the
 * assistants are public, and the cards of the second temple are not
 * listed. */
#include "artifact_stack_internal.h"
#include "tell_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct teller {
    const as_state *before, *after;
    int actor, viewer;
    const char *const *names;
    tell_text out;
} teller;

static const char *who(const teller *t, int seat, bool capital)
{
    return tell_text_who(seat, t->viewer, t->names, capital);
}

/* "your" or "Bob's" (buf holds 64). */
static const char *whose(const teller *t, int seat, char *buf)
{
    return tell_text_whose(seat, t->viewer, t->names, buf, 64);
}

static int slot_of(const json_t *action)
{
    const char *at = json_string_value(json_object_get(action, "at"));
    return at == NULL ? -1 : as_slot_parse(at);
}

static int card_of(const json_t *action)
{
    const char *name = json_string_value(json_object_get(action, "card"));
    return name == NULL ? AS_NO_CARD : as_card_by_name(name);
}

static int assistant_of(const json_t *action)
{
    const char *name = json_string_value(json_object_get(action, "assistant"));
    return name == NULL ? -1 : as_assistant_by_name(name);
}

/* The card taken or dug out, with what makes it count ("china4 (A)",
 * "curses5 (-1 silver)"), as the text view writes it. */
static void card_words(int card, char *out, size_t size)
{
    char kind[32];
    if (as_card_kind(card, kind)[0] != '\0')
        snprintf(out, size, "%s (%s)", as_card_name(card), kind);
    else
        snprintf(out, size, "%s", as_card_name(card));
}

/* take, dig, peek: the temple card at slot, as viewer may know it. */
static void tell_temple(teller *t, const char *type, const json_t *action)
{
    const as_state *b = t->before;
    const char *you = who(t, t->actor, true);
    int slot = slot_of(action);
    if (slot < 0 || b->temple[slot] == AS_NO_CARD)
        return;
    int card = b->temple[slot];
    char at[8], words[160];
    as_slot_text(slot, at);
    card_words(card, words, sizeof words);
    int paid = strcmp(type, "dig") == 0    ? as_cover_count(b, slot)
               : strcmp(type, "peek") == 0 ? 1
                                           : 0;
    int a = assistant_of(action);
    char how[64] = "";
    if (a >= 0)
        snprintf(how, sizeof how, " with the %s, for free",
                 as_data.assistants[a].name);
    else if (paid > 0 && strcmp(type, "take") != 0)
        snprintf(how, sizeof how, " for %d silver", paid);
    if (strcmp(type, "peek") == 0) {
        /* the card stays face down: only the peeker reads it */
        if (t->viewer == t->actor)
            tell_text_sentence(&t->out, "You peeked at %s%s: %s.", at, how,
                               words);
        else
            tell_text_sentence(&t->out,
                               "%s peeked at the face-down card at %s%s.", you,
                               at, how);
        return;
    }
    tell_text_sentence(&t->out, "%s %s %s at %s%s.", you,
                       strcmp(type, "dig") == 0 ? "dug out" : "took", words, at,
                       how);
}

/* Silver that changed hands beyond what the move's words said (said:
 * the actor's change they told). */
static void tell_silver(teller *t, int said)
{
    for (int p = 0; p < t->after->seats; p++) {
        int change = t->after->silver[p] - t->before->silver[p];
        if (p == t->actor)
            change -= said;
        if (change == 0)
            continue;
        tell_text_sentence(&t->out, "%s %s %d silver (%d now).",
                           who(t, p, true), change > 0 ? "gained" : "lost",
                           change > 0 ? change : -change, t->after->silver[p]);
    }
}

/* What the seat on turn has to settle now. */
static void tell_task(teller *t)
{
    const as_state *b = t->before, *a = t->after;
    if (a->over || a->task == AS_TASK_NONE ||
        (a->task == b->task && a->task_count == b->task_count &&
         a->turn == b->turn))
        return;
    const char *you = who(t, a->turn, true);
    int n = a->task_count;
    switch (a->task) {
    case AS_TASK_TREASURE:
        tell_text_sentence(
            &t->out, "%s must keep it for its VP or cash it for silver.", you);
        break;
    case AS_TASK_STEAL:
        tell_text_sentence(&t->out, "%s may steal %d face-up card%s.", you, n,
                           n == 1 ? "" : "s");
        break;
    case AS_TASK_RECRUIT:
        tell_text_sentence(&t->out, "%s may recruit %d assistant%s for free.",
                           you, n, n == 1 ? "" : "s");
        break;
    case AS_TASK_GIVE:
        tell_text_sentence(&t->out, "%s must give a face-up card to %s.", you,
                           who(t, as_next_seat(a, a->turn), false));
        break;
    case AS_TASK_DISCARD:
        tell_text_sentence(&t->out,
                           "%s must discard a face-up card to the box.", you);
        break;
    default:
        break;
    }
}

/* The move itself, in words. */
static void tell_move(teller *t, const char *type, const json_t *action)
{
    const as_state *b = t->before, *a = t->after;
    const char *you = who(t, t->actor, true);
    char buf[64], words[160];
    int card = card_of(action);
    int helper = assistant_of(action);
    if (strcmp(type, "take") == 0 || strcmp(type, "dig") == 0 ||
        strcmp(type, "peek") == 0) {
        tell_temple(t, type, action);
    } else if (strcmp(type, "hire") == 0 && helper >= 0) {
        tell_text_sentence(
            &t->out, "%s hired the %s (%s) for 1 silver.", you,
            as_data.assistants[helper].name,
            as_data.ability_text[as_data.assistants[helper].ability]);
    } else if (strcmp(type, "recruit") == 0 && helper >= 0) {
        tell_text_sentence(
            &t->out, "%s recruited the %s (%s) for free.", you,
            as_data.assistants[helper].name,
            as_data.ability_text[as_data.assistants[helper].ability]);
    } else if (strcmp(type, "use") == 0 && helper >= 0) {
        tell_text_sentence(
            &t->out, "%s used the %s: %s.", you,
            as_data.assistants[helper].name,
            as_data.ability_text[as_data.assistants[helper].ability]);
    } else if (strcmp(type, "flip") == 0) {
        const char *stack = json_string_value(json_object_get(action, "stack"));
        size_t i, n = json_array_size(json_object_get(action, "cards"));
        const json_t *v;
        size_t len = 0;
        words[0] = '\0';
        json_array_foreach(json_object_get(action, "cards"), i, v)
        {
            int k = snprintf(words + len, sizeof words - len, "%s%s%lld",
                             i == 0 ? "" : "+", stack,
                             (long long)json_integer_value(v));
            len += k > 0 && len + (size_t)k < sizeof words ? (size_t)k : 0;
        }
        int kind = as_stack_by_name(stack != NULL ? stack : "");
        if (kind == AS_STATUES || kind == AS_CHINA)
            tell_text_sentence(&t->out,
                               "%s flipped %s face down as a set of %zu %s.",
                               you, words, n, stack);
        else
            tell_text_sentence(
                &t->out, "%s flipped %s face down for the bonus of %zu %s.",
                you, words, n, stack);
        if (a->turn == b->turn && a->actions > b->actions)
            tell_text_sentence(&t->out, "%s %s %d more action%s this turn.",
                               you, t->actor == t->viewer ? "have" : "has",
                               a->actions - b->actions,
                               a->actions - b->actions == 1 ? "" : "s");
    } else if ((strcmp(type, "keep") == 0 || strcmp(type, "cash") == 0) &&
               b->task == AS_TASK_TREASURE) {
        int vp = as_data.treasure_vp[as_card_number(b->task_card) - 1];
        if (strcmp(type, "keep") == 0)
            tell_text_sentence(&t->out, "%s kept %s for %d VP.", you,
                               as_card_name(b->task_card), vp);
        else
            tell_text_sentence(&t->out, "%s cashed %s for %d silver.", you,
                               as_card_name(b->task_card),
                               vp / as_data.treasure_cash_per_vp);
    } else if (strcmp(type, "steal") == 0 && card != AS_NO_CARD &&
               b->owner[card] >= 0) {
        card_words(card, words, sizeof words);
        tell_text_sentence(&t->out, "%s stole %s %s.", you,
                           whose(t, b->owner[card], buf), words);
    } else if (strcmp(type, "give") == 0 && card != AS_NO_CARD) {
        card_words(card, words, sizeof words);
        tell_text_sentence(&t->out, "%s gave %s to %s.", you, words,
                           who(t, a->owner[card], false));
    } else if (strcmp(type, "discard") == 0 && card != AS_NO_CARD) {
        card_words(card, words, sizeof words);
        tell_text_sentence(&t->out, "%s discarded %s to the box.", you, words);
    } else if (strcmp(type, "done") == 0) {
        tell_text_sentence(&t->out, "%s ended the turn.", you);
    }
}

char *as_tell(const rules_state *before_state, const rules_state *after_state,
              int actor, const json_t *action, int viewer,
              const char *const *names)
{
    const as_state *before = (const as_state *)before_state;
    const as_state *after = (const as_state *)after_state;
    const char *type = json_string_value(json_object_get(action, "type"));
    if (type == NULL || actor < 0 || actor >= before->seats)
        return NULL;
    teller t = {before, after, actor, viewer, names, {{0}, 0}};
    tell_move(&t, type, action);
    if (t.out.len == 0)
        return NULL;
    /* the silver the move's own words did not account for */
    int said = 0;
    int slot = slot_of(action);
    bool helped = assistant_of(action) >= 0;
    if (strcmp(type, "dig") == 0 && slot >= 0 && !helped)
        said = -as_cover_count(before, slot);
    else if (strcmp(type, "peek") == 0 && !helped)
        said = -1;
    else if (strcmp(type, "hire") == 0)
        said = -1;
    else if (strcmp(type, "cash") == 0 && before->task == AS_TASK_TREASURE)
        said = as_data.treasure_vp[as_card_number(before->task_card) - 1] /
               as_data.treasure_cash_per_vp;
    tell_silver(&t, said);
    tell_task(&t);
    /* Why the match ended and who won are the match's end's to tell
     * (the result's reason and standings, told once after this move). */
    if (!after->over) {
        if (after->round != before->round)
            tell_text_sentence(
                &t.out, "The first temple was empty: round 2 began with the "
                        "second temple, counter-clockwise.");
        if (after->turn != before->turn) {
            char buf[64];
            tell_text_sentence(&t.out, "Now it is %s turn.",
                               whose(&t, after->turn, buf));
        }
    }
    return tell_text_done(&t.out);
}
