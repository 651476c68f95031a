/* tell.c: what a move did, told to one seat (rules.h, tell): the move in
 * words ("Bob summoned Quake Dragon (level 2, attack 5, defense 5)."),
 * then what came of it, read from the difference between the state
 * before and after: creatures destroyed, glory scored, dice drawn and
 * captured, the quest die rolled, whose turn it is now, why the match
 * ended. The viewer is "you"; the dice named are those every view shows
 * (Active Pool, Ready Area, Quest Area, piles, the Wilds): a die in a bag
 * is never named, and a sealed order of defenders is told only to the
 * seat that chose it. */
#include "qq_names.h"
#include "qq_text.h"
#include "tell_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct teller {
    const qq_state *before, *after;
    int actor, viewer;
    const char *const *names;
    tell_text out;
} teller;

/* "You" or the seat's name. */
static const char *who(const teller *t, int seat, bool capital)
{
    return tell_text_who(seat, t->viewer, t->names, capital);
}

/* "your" or "Bob's" (buf holds at least 64). */
static const char *whose(const teller *t, int seat, char *buf)
{
    return tell_text_whose(seat, t->viewer, t->names, buf, 64);
}

static const char *title(const qq_state *st, int d)
{
    const qq_die *x = &st->dice[d];
    return x->quest_die ? qq_quests[st->quest_slots[x->slot].type].name
                        : qq_cards[st->slots[x->slot].card].name;
}

static bool in_play(const qq_die *x)
{
    return x->zone == QQ_Z_READY || x->zone == QQ_Z_QUEST;
}

/* Whether d was destroyed by the move (not scored, nor sent home from a
 * quest or a challenge): it left play and its fall was marked. */
static bool destroyed(const teller *t, int d)
{
    const qq_die *b = &t->before->dice[d], *a = &t->after->dice[d];
    if (!in_play(b) || in_play(a) || b->owner != a->owner)
        return false;
    return (a->flags & QQ_F_FELL) || a->zone == QQ_Z_ASIDE ||
           a->last_face != b->last_face;
}

/* Dice of a list (mask over dice) as "Squire (2)" joined by commas and
 * "and", at most five; value: defense (true) or nothing. */
static void add_list(char *out, size_t size, const bool *chosen,
                     const qq_state *st, bool defense)
{
    int n = 0, total = 0;
    for (int d = 0; d < st->dice_count; d++)
        total += chosen[d];
    size_t len = strlen(out);
    for (int d = 0; d < st->dice_count && len < size; d++) {
        if (!chosen[d])
            continue;
        const char *sep = n == 0 ? "" : n == total - 1 ? " and " : ", ";
        int k;
        if (n == 4 && total > 5) {
            k = snprintf(out + len, size - len, " and %d more", total - 4);
            len += k > 0 ? (size_t)k : 0;
            break;
        }
        if (defense && qq_shows(st, d, QQ_FACE_CREATURE))
            k = snprintf(out + len, size - len, "%s%s (%d)", sep, title(st, d),
                         qq_defense(st, d));
        else
            k = snprintf(out + len, size - len, "%s%s", sep, title(st, d));
        len += k > 0 ? (size_t)k : 0;
        n++;
    }
}

/* The creatures destroyed, by owner: "your Squire (2) was destroyed".
 * Returns how many fell. */
static int tell_destroyed(teller *t)
{
    int fell = 0;
    const qq_state *b = t->before;
    for (int s = 0; s < b->seats; s++) {
        bool chosen[QQ_MAX_DICE] = {false};
        int n = 0;
        for (int d = 0; d < b->dice_count; d++) {
            if (b->dice[d].owner == s && destroyed(t, d)) {
                chosen[d] = true;
                n++;
            }
        }
        if (n == 0)
            continue;
        fell += n;
        char list[200] = "", buf[64];
        add_list(list, sizeof list, chosen, b, true);
        const char *owner = whose(t, s, buf);
        tell_text_sentence(&t->out, "%c%s %s %s destroyed.",
                           owner[0] == 'y' ? 'Y' : owner[0], owner + 1, list,
                           n == 1 ? "was" : "were");
    }
    return fell;
}

static void tell_glory(teller *t)
{
    for (int s = 0; s < t->after->seats; s++) {
        int gained = t->after->players[s].glory - t->before->players[s].glory;
        if (gained > 0)
            tell_text_sentence(&t->out, "%s gained %d glory (%d in all).",
                               who(t, s, true), gained,
                               t->after->players[s].glory);
    }
}

/* Dice of seat that came into its Active Pool from its bag: rolled, so
 * every view shows them now. */
static void tell_drawn(teller *t, int seat)
{
    bool chosen[QQ_MAX_DICE] = {false};
    int n = 0;
    for (int d = 0; d < t->after->dice_count; d++) {
        const qq_die *b = &t->before->dice[d], *a = &t->after->dice[d];
        if (a->owner == seat && a->zone == QQ_Z_ACTIVE &&
            (b->zone == QQ_Z_BAG || b->zone == QQ_Z_USED) && b->owner == seat) {
            chosen[d] = true;
            n++;
        }
    }
    if (n == 0)
        return;
    if (n > 3) {
        tell_text_sentence(&t->out, "%s drew and rolled %d dice.",
                           who(t, seat, true), n);
        return;
    }
    char list[200] = "";
    add_list(list, sizeof list, chosen, t->after, false);
    tell_text_sentence(&t->out, "%s drew and rolled %s.", who(t, seat, true),
                       list);
}

/* "a" or "an" before name. */
static const char *article(const char *name)
{
    return strchr("AEIOUaeiou", name[0]) != NULL ? "an" : "a";
}

/* Dice taken from the Wilds by the move (a capture of any kind); how says
 * how it was paid (", paying 3 quiddity"). */
static void tell_captured(teller *t, const char *how)
{
    for (int d = 0; d < t->after->dice_count; d++) {
        const qq_die *b = &t->before->dice[d], *a = &t->after->dice[d];
        const char *name = title(t->after, d);
        if (b->zone == QQ_Z_WILDS && a->zone != QQ_Z_WILDS && a->owner >= 0)
            tell_text_sentence(&t->out, "%s captured %s %s die%s.",
                               who(t, a->owner, true), article(name), name,
                               how);
    }
}

static void tell_quest_roll(teller *t)
{
    const qq_quest_roll *b = &t->before->last_roll, *a = &t->after->last_roll;
    if (a->die < 0 || memcmp(a, b, sizeof *a) == 0)
        return;
    int type = t->after->quest_slots[t->after->dice[a->die].slot].type;
    char face[QQ_NAME_SIZE], reward[128];
    tell_text_sentence(
        &t->out, "%s rolled a %s quest die: \"%s\", %s.", who(t, a->seat, true),
        qq_quests[type].name, qq_quest_face_name(type, a->face, face),
        qq_quest_reward_text(type, a->face, reward, sizeof reward));
}

/* A die named by the action's key, as it stood before the move. */
static int die_of(const teller *t, const json_t *action, const char *key)
{
    const json_t *v = json_object_get(action, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) >= t->before->dice_count)
        return -1;
    return (int)json_integer_value(v);
}

/* The creatures of the actor's Ready Area that attack, with their attack
 * ("Deathdealer (4) and Squire (1)"). */
static void attackers(const teller *t, char *out, size_t size)
{
    const qq_state *b = t->before;
    bool chosen[QQ_MAX_DICE] = {false};
    size_t len = 0;
    int n = 0, total = 0;
    for (int d = 0; d < b->dice_count; d++) {
        chosen[d] = b->dice[d].owner == t->actor &&
                    b->dice[d].zone == QQ_Z_READY &&
                    qq_shows(b, d, QQ_FACE_CREATURE);
        total += chosen[d];
    }
    out[0] = '\0';
    for (int d = 0; d < b->dice_count && len < size; d++) {
        if (!chosen[d])
            continue;
        int k = snprintf(out + len, size - len, "%s%s (%d)",
                         n == 0           ? ""
                         : n == total - 1 ? " and "
                                          : ", ",
                         title(b, d), qq_attack(b, d, -1));
        len += k > 0 ? (size_t)k : 0;
        n++;
    }
}

/* What die d shows in st, in words; "" when it shows nothing (it left
 * the Active Pool, say). */
static const char *shows(const qq_state *st, int d, char *buf, size_t size)
{
    const qq_face *face = qq_face_of(st, d);
    if (face == NULL) {
        buf[0] = '\0';
        return buf;
    }
    return qq_face_words(face, buf, size);
}

/* The move itself, in words. The words avoid those the snapshot writes
 * and a view may not show ("summoned", "scored", "fell", "on", "at",
 * "for", "the": its marks "on DIE", "at QUEST", "scored for N glory",
 * "completed the quest"): a sentence is checked against what its viewer
 * saw, word by word. */
static void tell_move(teller *t, const char *type, const json_t *action)
{
    const qq_state *b = t->before, *a = t->after;
    const char *you = who(t, t->actor, true);
    char buf[64], face[96], list[240];
    int d = die_of(t, action, "die");
    if (strcmp(type, "summon") == 0 && d >= 0) {
        tell_text_sentence(&t->out, "%s paid %d quiddity to summon %s (%s).",
                           you, qq_summon_cost(b, d), title(b, d),
                           shows(b, d, face, sizeof face));
    } else if (strcmp(type, "ready") == 0 && d >= 0) {
        tell_text_sentence(&t->out, "%s readied %s.", you, title(b, d));
    } else if ((strcmp(type, "use") == 0 || strcmp(type, "draw") == 0 ||
                strcmp(type, "turn") == 0) &&
               d >= 0) {
        int gained = a->quiddity - b->quiddity;
        int captures = a->captures_left - b->captures_left;
        tell_text_sentence(&t->out, "%s %s %s%s%s.", you,
                           strcmp(type, "use") == 0    ? "used"
                           : strcmp(type, "draw") == 0 ? "spent"
                                                       : "turned",
                           title(b, d),
                           strcmp(type, "turn") == 0 ? " to 1 quiddity" : "",
                           captures > 0 ? ", gaining an extra capture" : "");
        if (gained > 0)
            tell_text_sentence(&t->out, "%s %s %d quiddity to spend.", you,
                               t->actor == t->viewer ? "have" : "has",
                               a->quiddity);
    } else if (strcmp(type, "reroll") == 0 && d >= 0) {
        int other = die_of(t, action, "other");
        tell_text_sentence(&t->out, "%s rerolled %s, now %s.", you, title(b, d),
                           shows(a, d, face, sizeof face));
        if (other >= 0)
            tell_text_sentence(&t->out, "And %s, now %s.", title(b, other),
                               shows(a, other, face, sizeof face));
    } else if (strcmp(type, "cast") == 0 && d >= 0) {
        int target = die_of(t, action, "target");
        if (target >= 0 && b->dice[target].owner >= 0)
            tell_text_sentence(
                &t->out, "%s cast %s, targeting %s %s.", you, title(b, d),
                whose(t, b->dice[target].owner, buf), title(b, target));
        else
            tell_text_sentence(&t->out, "%s cast %s.", you, title(b, d));
    } else if (strcmp(type, "attach") == 0 && d >= 0) {
        tell_text_sentence(&t->out, "%s attached a Quartifact to %s.", you,
                           title(b, d));
    } else if (strcmp(type, "copy") == 0 && d >= 0) {
        int target = die_of(t, action, "target");
        if (target >= 0)
            tell_text_sentence(&t->out,
                               "%s Strong Primordial Ooze now copies %s.",
                               whose(t, t->actor, buf), title(b, target));
    } else if (strcmp(type, "attack") == 0) {
        attackers(t, list, sizeof list);
        tell_text_sentence(&t->out, "%s attacked with %s.", you, list);
    } else if (strcmp(type, "quest") == 0 || strcmp(type, "challenge") == 0) {
        bool chosen[QQ_MAX_DICE] = {false};
        size_t i;
        const json_t *v;
        json_array_foreach(json_object_get(action, "dice"), i, v)
        {
            json_int_t e = json_integer_value(v);
            if (e >= 0 && e < b->dice_count)
                chosen[e] = true;
        }
        list[0] = '\0';
        add_list(list, sizeof list, chosen, b, false);
        const char *quest = json_string_value(json_object_get(action, "quest"));
        int q = -1;
        for (int k = 0; quest != NULL && k < b->quest_count; k++) {
            if (qq_same_name(quest, strlen(quest),
                             qq_quests[b->quest_slots[k].type].id))
                q = k;
        }
        const char *name =
            q >= 0 ? qq_quests[b->quest_slots[q].type].name : "a quest";
        if (strcmp(type, "quest") == 0)
            tell_text_sentence(&t->out, "%s sent %s questing to %s.", you, list,
                               name);
        else if (q >= 0 && qq_quest_owner(b, q) >= 0)
            tell_text_sentence(
                &t->out, "%s challenged %s band questing to %s with %s.", you,
                whose(t, qq_quest_owner(b, q), buf), name, list);
    } else if (strcmp(type, "defend") == 0) {
        if (b->phase == QQ_P_CHALLENGE) {
            if (t->viewer == t->actor)
                tell_text_sentence(&t->out,
                                   "You chose your order of defenders.");
            else
                tell_text_sentence(
                    &t->out,
                    "%s chose an order of defenders, sealed until both "
                    "sides have chosen.",
                    you);
        } else {
            int e = (int)json_integer_value(
                json_array_get(json_object_get(action, "dice"), 0));
            if (e >= 0 && e < b->dice_count)
                tell_text_sentence(&t->out, "%s took %d damage with %s (%d).",
                                   you, b->damage, title(b, e),
                                   qq_defense(b, e));
        }
    } else if (strcmp(type, "capture") == 0) {
        char how[128] = "";
        const char *card = json_string_value(json_object_get(action, "card"));
        for (int s = 0; card != NULL && s < b->slot_count; s++) {
            if (qq_same_name(card, strlen(card), qq_cards[b->slots[s].card].id))
                snprintf(how, sizeof how, ", paying %d quiddity",
                         qq_capture_cost(b, s));
        }
        if (b->phase == QQ_P_SPECIAL)
            snprintf(how, sizeof how, ", free: a quest's \"?\" reward");
        else if (b->phase == QQ_P_TRIGGER)
            snprintf(how, sizeof how, " into %s bag", whose(t, t->actor, buf));
        tell_captured(t, how);
        return;
    } else if (strcmp(type, "cull") == 0 && d >= 0) {
        tell_text_sentence(&t->out, "%s culled %s, returning it to Wilds.", you,
                           title(b, d));
    } else if (strcmp(type, "seize") == 0) {
        int from = (int)json_integer_value(json_object_get(action, "seat"));
        if (from >= 0 && from < b->seats)
            tell_text_sentence(&t->out, "%s seized a quest die from %s.", you,
                               who(t, from, false));
    } else if (strcmp(type, "take") == 0 || strcmp(type, "leave") == 0) {
        tell_text_sentence(&t->out, "%s %s that quest.", you,
                           strcmp(type, "take") == 0 ? "took over" : "left");
    } else if (strcmp(type, "first") == 0) {
        const char *what = json_string_value(json_object_get(action, "do"));
        bool quest = what != NULL && strcmp(what, "quest") == 0;
        tell_text_sentence(&t->out, "%s chose to %s %s %s first.", you,
                           quest ? "complete" : "score",
                           whose(t, t->actor, buf),
                           quest ? "quest" : "Ready Area");
    } else if (strcmp(type, "end") == 0) {
        tell_text_sentence(&t->out, "%s ended %s turn.", you,
                           whose(t, t->actor, buf));
    } else if (strcmp(type, "done") == 0) {
        tell_text_sentence(&t->out, "%s culled no more.", you);
    } else if (strcmp(type, "pass") == 0) {
        tell_text_sentence(&t->out, "%s passed.", you);
    } else if (d >= 0) {
        /* a scoring power (exchange, recall, trade) or a revive */
        tell_text_sentence(&t->out, "%s used %s's power: %s.", you, title(b, d),
                           type);
    }
    if (strcmp(type, "capture") != 0)
        tell_captured(t, "");
}

char *qq_tell(const qq_state *before, const qq_state *after, int actor,
              const json_t *action, int viewer, const char *const *names)
{
    const char *type = json_string_value(json_object_get(action, "type"));
    if (type == NULL || actor < 0 || actor >= before->seats)
        return NULL;
    teller t = {before, after, actor, viewer, names, {{0}, 0}};
    tell_move(&t, type, action);
    if (t.out.len == 0)
        return NULL;
    int fell = tell_destroyed(&t);
    /* a quest start fights only when creatures stayed to attack */
    bool fight = strcmp(type, "attack") == 0 ||
                 strcmp(type, "challenge") == 0 || strcmp(type, "defend") == 0;
    if (after->phase == QQ_P_DEFEND &&
        (before->phase != QQ_P_DEFEND || before->defender != after->defender ||
         fight)) {
        bool you = after->defender == viewer;
        tell_text_sentence(
            &t.out, "%s %s %d damage to take and %s which creature takes it.",
            who(&t, after->defender, true), you ? "have" : "has", after->damage,
            you ? "choose" : "chooses");
    } else if (fight && fell == 0 && after->phase != QQ_P_CHALLENGE &&
               after->phase != QQ_P_REACT) {
        tell_text_sentence(&t.out, "No creature was destroyed.");
    }
    tell_glory(&t);
    tell_quest_roll(&t);
    bool new_turn = after->turn_number != before->turn_number;
    if (!new_turn)
        tell_drawn(&t, actor);
    if (after->phase == QQ_P_OVER) {
        json_t *result = qq_result(after);
        tell_text_sentence(
            &t.out, "%s", json_string_value(json_object_get(result, "reason")));
        json_decref(result);
    } else if (new_turn) {
        char buf[64];
        tell_text_sentence(&t.out, "Now it is %s turn.",
                           whose(&t, after->turn, buf));
    }
    return tell_text_done(&t.out);
}
