/* view_text.c: what a seat sees, as a few short lines for a mail: whose
 * turn and what is awaited, the glory, the seat's own dice ("Your ..."),
 * the other seats' dice, the Quest Area, the last quest roll and the
 * Wilds. Dice are written as the notation names them ("27 deathdealer
 * (level 1 3/2)"), cards as "capture" takes them. It shows only what
 * qq_view shows that seat: a bag is a count (its owner also reads which
 * cards are in it, never which dice); a sealed challenge order only to
 * the seat that chose it. The legal moves are not listed here (the
 * service lists them). */
#include "qq_names.h"
#include "qq_text.h"

#include <stdlib.h>
#include <string.h>

/* The text grows long with four busy players: each level leaves out
 * more (the cards in other seats' piles, then in one's own, then the
 * empty cards of the Wilds, then what the quiddity in hand captures, at
 * last the faces in words: "level 1 3/2" for "level 1: attack 3,
 * defense 2") until it fits in about 30 lines. */
#define WANTED_LINES 30
#define LEVELS 6
#define LEVEL_NO_BUYABLE 4
#define LEVEL_SHORT_FACES 5

/* The dice of every place, in die order, gathered in one pass. */
typedef struct table {
    const qq_state *st;
    int seat;        /* the viewer; RULES_SPECTATOR for the public */
    int level;       /* 0: everything; higher: less detail */
    int place_first[RULES_MAX_SEATS][QQ_Z_COUNT];  /* -1 when empty */
    int place_next[QQ_MAX_DICE];
    int place_count[RULES_MAX_SEATS][QQ_Z_COUNT];
    int attached_first[QQ_MAX_DICE];               /* by host, -1 none */
    int attached_next[QQ_MAX_DICE];
} table;

static void gather(table *t)
{
    const qq_state *st = t->st;
    int last[RULES_MAX_SEATS][QQ_Z_COUNT];
    int last_attached[QQ_MAX_DICE];
    for (int s = 0; s < RULES_MAX_SEATS; s++) {
        for (int z = 0; z < QQ_Z_COUNT; z++) {
            t->place_first[s][z] = -1;
            t->place_count[s][z] = 0;
        }
    }
    for (int d = 0; d < st->dice_count; d++) {
        t->attached_first[d] = -1;
        t->attached_next[d] = -1;
        t->place_next[d] = -1;
    }
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *x = &st->dice[d];
        if (x->owner < 0)
            continue;
        if (t->place_first[x->owner][x->zone] < 0)
            t->place_first[x->owner][x->zone] = d;
        else
            t->place_next[last[x->owner][x->zone]] = d;
        last[x->owner][x->zone] = d;
        t->place_count[x->owner][x->zone]++;
        if (x->zone == QQ_Z_ATTACHED) {
            if (t->attached_first[x->host] < 0)
                t->attached_first[x->host] = d;
            else
                t->attached_next[last_attached[x->host]] = d;
            last_attached[x->host] = d;
        }
    }
}

static const char *card_name(const qq_state *st, int d, char *buf)
{
    const qq_die *x = &st->dice[d];
    return qq_notation_id(x->quest_die
                              ? qq_quests[st->quest_slots[x->slot].type].id
                              : qq_cards[st->slots[x->slot].card].id,
                          buf);
}

/* The card of a die as people call it: "Quake Dragon", "Exqualibur". */
static const char *card_title(const qq_state *st, int d)
{
    const qq_die *x = &st->dice[d];
    return x->quest_die ? qq_quests[st->quest_slots[x->slot].type].name
                        : qq_cards[st->slots[x->slot].card].name;
}

/* "27 Deathdealer (level 1: attack 3, defense 2)": the number moves name
 * it by, its card and its face as a player says them, with what changes
 * it: a copy, attack and defense other than the face's, what it carries.
 * A line breaks only after one of its commas. */
static void add_die(qq_buf *b, const table *t, int d)
{
    const qq_state *st = t->st;
    const qq_die *x = &st->dice[d];
    char face[96];
    qq_buf_add_joined(b, "%d %s", d, card_title(st, d));
    if (x->face < 0)
        return;
    if (x->quest_die) {
        char name[QQ_NAME_SIZE];
        qq_buf_add_joined(b, " (%s)", qq_quest_face_name(
            st->quest_slots[x->slot].type, x->face, name));
        return;
    }
    const qq_card_def *own = &qq_cards[st->slots[x->slot].card];
    const qq_face *rolled = &qq_dice[own->die].faces[x->face];
    if (t->level >= LEVEL_SHORT_FACES)
        qq_buf_add_joined(b, " (%s", qq_face_name(rolled, face));
    else
        qq_buf_add_joined(b, " (%s", qq_face_words(rolled, face,
                                                   sizeof face));
    if (x->copy_card >= 0) {
        qq_buf_add(b, ", ");
        qq_buf_add_joined(b, "copying %s", qq_cards[x->copy_card].name);
        qq_buf_add(b, ", ");
        qq_buf_add_joined(b, "%s", qq_face_words(qq_face_of(st, d), face,
                                                 sizeof face));
    }
    const qq_face *shown = qq_face_of(st, d);
    if (shown->flags & QQ_FACE_CREATURE) {
        int attack = qq_attack(st, d, -1), defense = qq_defense(st, d);
        if (attack != shown->attack || defense != shown->defense ||
            (shown->flags & QQ_FACE_STATS_FROM_CARD)) {
            qq_buf_add(b, ", ");
            qq_buf_add_joined(b, "now attack %d, defense %d", attack,
                              defense);
        }
    }
    if (x->flags & QQ_F_SHIELDED)
        qq_buf_add_joined(b, ", came back");
    for (int e = t->attached_first[d]; e >= 0; e = t->attached_next[e]) {
        qq_buf_add(b, ", ");
        qq_buf_add_joined(b, "carries ");
        add_die(b, t, e);
    }
    qq_buf_add(b, ")");
}

/* The dice of a place one by one: "A, B and C". */
static void add_dice(qq_buf *b, const table *t, int owner, int zone)
{
    int n = t->place_count[owner][zone], i = 0;
    for (int d = t->place_first[owner][zone]; d >= 0;
         d = t->place_next[d], i++) {
        if (i > 0)
            qq_buf_add(b, i == n - 1 ? " and " : ", ");
        add_die(b, t, d);
    }
}

/* The dice of a place by card, in the order of the Wilds, with their
 * numbers ("basic-quiddity 1 3 5, deathdealer 28"), or how many of each
 * card ("3 basic-quiddity, 1 deathdealer"; always for a bag, whose dice
 * are never named). */
static void add_by_card(qq_buf *b, const table *t, int owner, int zone,
                        bool numbers)
{
    const qq_state *st = t->st;
    int count[QQ_MAX_SLOTS] = {0};
    for (int d = t->place_first[owner][zone]; d >= 0; d = t->place_next[d]) {
        if (!st->dice[d].quest_die)
            count[st->dice[d].slot]++;
    }
    char name[QQ_NAME_SIZE];
    bool first = true;
    for (int s = 0; s < st->slot_count; s++) {
        if (count[s] == 0)
            continue;
        qq_buf_add(b, "%s", first ? "" : ", ");
        first = false;
        if (!numbers) {
            qq_buf_add_joined(b, "%d %s", count[s], qq_notation_id(
                qq_cards[st->slots[s].card].id, name));
            continue;
        }
        qq_buf_add_joined(b, "%s", qq_notation_id(
            qq_cards[st->slots[s].card].id, name));
        for (int d = t->place_first[owner][zone]; d >= 0;
             d = t->place_next[d]) {
            if (!st->dice[d].quest_die && st->dice[d].slot == s)
                qq_buf_add_joined(b, " %d", d);
        }
    }
}

static const char *who(const table *t, int seat, bool capital)
{
#define J QQ_TEXT_JOIN
    static const char *const seats[RULES_MAX_SEATS] = {
        "seat" J "0", "seat" J "1", "seat" J "2", "seat" J "3",
        "seat" J "4", "seat" J "5", "seat" J "6", "seat" J "7"};
    static const char *const capital_seats[RULES_MAX_SEATS] = {
        "Seat" J "0", "Seat" J "1", "Seat" J "2", "Seat" J "3",
        "Seat" J "4", "Seat" J "5", "Seat" J "6", "Seat" J "7"};
#undef J
    if (seat == t->seat)
        return capital ? "You" : "you";
    return capital ? capital_seats[seat] : seats[seat];
}

/* "Your", "your", "Seat 1's", "seat 1's". */
static const char *whose(const table *t, int seat, bool capital, char *buf)
{
    if (seat == t->seat)
        return capital ? "Your" : "your";
    strcpy(buf, who(t, seat, capital));
    strcat(buf, "'s");
    return buf;
}

static const char *phase_words(int phase)
{
    switch (phase) {
    case QQ_P_FIRST: return "phase 1, score or quest first";
    case QQ_P_TRIGGER: return "phase 1, a scoring power";
    case QQ_P_CULL: return "phase 1, culling";
    case QQ_P_SEIZE: return "phase 1, seizing a quest die";
    case QQ_P_SPECIAL: return "phase 1, the quest's \"?\" reward";
    case QQ_P_MAIN: return "phase 2, then the attack";
    case QQ_P_DEFEND: return "phase 3, the attack";
    case QQ_P_CHALLENGE: return "phase 3, a quest challenge";
    case QQ_P_TAKEOVER: return "phase 3, after a challenge";
    case QQ_P_REACT: return "a reaction window";
    case QQ_P_CAPTURE: return "phase 4, capturing";
    default: return "over";
    }
}

/* Whose turn, what is awaited and from whom. */
static void write_turn(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    char buf[16];
    if (st->phase == QQ_P_OVER) {
        json_t *result = qq_result(st);
        qq_buf_add(p, "The match is over after turn %d. %s", st->turn_number,
                   json_string_value(json_object_get(result, "reason")));
        json_decref(result);
        qq_text_para(out, p);
        return;
    }
    qq_buf_add(p, "Turn %d: %s turn (%s).", st->turn_number,
               whose(t, st->turn, false, buf), phase_words(st->phase));
    qq_text_para(out, p);
    rules_pending pending;
    qq_pending(st, &pending);
    int n = rules_seat_count(pending.seats), i = 0;
    qq_buf_add(p, "Waiting for ");
    for (int s = 0; s < st->seats; s++) {
        if (!(pending.seats & (1u << s)))
            continue;
        qq_buf_add(p, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
                   who(t, s, false));
        i++;
    }
    /* the prompt speaks to the seats that act ("end your turn") */
    if (t->seat >= 0 && (pending.seats & (1u << t->seat)))
        qq_buf_add(p, ": %s.", pending.prompt);
    else
        qq_buf_add(p, ".");
    qq_text_para(out, p);
}

/* What the phase is about: the damage, the challenge, the reward. */
static void write_phase(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    char name[QQ_NAME_SIZE];
    if (st->phase == QQ_P_DEFEND) {
        qq_buf_add(p, "%s %s %d damage to take, one creature at a time.",
                   who(t, st->defender, true),
                   st->defender == t->seat ? "have" : "has", st->damage);
    } else if (st->phase == QQ_P_SPECIAL) {
        qq_buf_add(p, "The \"?\" reward: capture a die costing up to %d "
                   "for free, or pass. This capture is extra: the one of "
                   "phase 4 stays.", qq_free_capture_limit(st));
    } else if (st->phase == QQ_P_TRIGGER && st->trigger >= 0) {
        qq_buf_add(p, "The scoring power of die %d %s: %s or pass.",
                   st->trigger,
                   card_name(st, st->trigger, name),
                   qq_trigger_verb(st->trigger_pow[st->trigger]));
    } else if (st->phase == QQ_P_CHALLENGE && st->challenge_quest >= 0) {
        qq_buf_add(p, "Challenge at %s.", qq_notation_id(
            qq_quests[st->quest_slots[st->challenge_quest].type].id, name));
        for (int s = 0; s < st->seats; s++) {
            if (st->chosen[s] < 0)
                continue;
            qq_buf_add(p, " %s %s.", who(t, s, true),
                       st->chosen[s] == 1 ? (s == t->seat ? "have chosen"
                                                          : "has chosen")
                                          : (s == t->seat ? "have not chosen"
                                                          : "has not chosen"));
        }
        /* a sealed order: only the seat that chose it reads it */
        if (t->seat >= 0 && st->chosen[t->seat] == 1) {
            qq_buf_add(p, " Your order: defend");
            for (int i = 0; i < st->order_len[t->seat]; i++)
                qq_buf_add(p, " %d", st->order[t->seat][i]);
            qq_buf_add(p, ".");
        }
    } else if (st->phase == QQ_P_REACT && st->react_seat >= 0) {
        bool after = qq_post_window_kind(st->react_resume);
        qq_buf_add(p, "Reaction window %s, for ",
                   after ? "after the fight" : "before the damage");
        int i = 0, n = rules_seat_count(st->react_mask);
        for (int s = 0; s < st->seats; s++) {
            if (!(st->react_mask & (1u << s)))
                continue;
            qq_buf_add(p, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
                       who(t, s, false));
            i++;
        }
        qq_buf_add(p, after ? " (Shaping Cantrip, a Ghostly Spirit's "
                              "revive)."
                            : " (Life Charm, Life Incantation, Life Spell).");
    }
    qq_text_para(out, p);
}

static void write_glory(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    int best = 0;
    for (int s = 0; s < st->seats; s++) {
        if (st->players[s].glory > best)
            best = st->players[s].glory;
    }
    qq_buf_add(p, "Glory (%d wins):", st->goal);
    for (int s = 0; s < st->seats; s++) {
        qq_buf_add(p, "%s", s == 0 ? " " : ", ");
        qq_buf_add_joined(p, "seat %d %d%s", s, st->players[s].glory,
                          s == t->seat ? " (you)" : "");
    }
    qq_buf_add(p, ".");
    if (st->phase == QQ_P_OVER) {
        int n = 0, i = 0;
        for (int s = 0; s < st->seats; s++)
            n += st->players[s].glory == best;
        qq_buf_add(p, " Most glory wins: ");
        for (int s = 0; s < st->seats; s++) {
            if (st->players[s].glory != best)
                continue;
            qq_buf_add(p, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
                       who(t, s, false));
            i++;
        }
        qq_buf_add(p, ".");
    }
    qq_text_para(out, p);
}

/* What the active player can capture now with all the quiddity in hand
 * ("With 4 quiddity you can capture: assistant (1), deathdealer (3).");
 * only while a capture of phase 4 is still ahead or being made. */
static void write_buyable(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    if ((st->phase != QQ_P_MAIN && st->phase != QQ_P_CAPTURE) ||
        st->captures_left <= 0 || t->level >= LEVEL_NO_BUYABLE)
        return;
    int quiddity = qq_quiddity_available(st);
    char name[QQ_NAME_SIZE];
    int n = 0;
    qq_buf_add(p, "With %d quiddity %s can capture:", quiddity,
               who(t, st->turn, false));
    for (int s = 0; s < st->slot_count; s++) {
        int cost = qq_capture_cost(st, s);
        if (qq_slot_dice(st, s) == 0 || cost > quiddity)
            continue;
        qq_buf_add(p, "%s", n == 0 ? " " : ", ");
        qq_buf_add_joined(p, "%s (%d)",
                          qq_notation_id(qq_cards[st->slots[s].card].id, name),
                          cost);
        n++;
    }
    if (n == 0)
        qq_buf_add(p, " nothing yet");
    qq_buf_add(p, ".");
    qq_text_para(out, p);
}

/* The active player's quiddity and captures. The captures are those of
 * phase 4 (one, plus what a Squire, a Growth Cantrip or a Mighty Questing
 * Wizard adds): the "?" reward's free capture is another, and does not
 * use one. */
static void write_pool(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    char buf[16];
    if (st->phase == QQ_P_OVER)
        return;
    qq_buf_add(p, "%s pool: %d quiddity, %d with quiddity dice; %d "
               "capture%s left for phase 4", whose(t, st->turn, true, buf),
               st->quiddity, qq_quiddity_available(st), st->captures_left,
               st->captures_left == 1 ? "" : "s");
    if (st->capture_discount > 0)
        qq_buf_add(p, " (%d off each)", st->capture_discount);
    if (st->phase == QQ_P_CULL)
        qq_buf_add(p, "; %d cull%s", st->culls_left,
                   st->culls_left == 1 ? "" : "s");
    qq_buf_add(p, ".");
    qq_text_para(out, p);
    write_buyable(out, p, t);
}

/* One place of seat's, when it holds dice: "Your Ready Area: ...". */
static void write_place(qq_text *out, qq_buf *p, const table *t, int seat,
                        int zone)
{
    char buf[16];
    if (t->place_count[seat][zone] == 0)
        return;
    qq_buf_add(p, "%s %s: ", whose(t, seat, true, buf), qq_zone_title(zone));
    add_dice(p, t, seat, zone);
    qq_buf_add(p, ".");
    qq_text_para(out, p);
}

/* Whether a pile's dice are named by number: while moves name them
 * (a cull, a scoring power's exchange or recall, a Ghostly Spirit's
 * revive); else how many of each card is enough. With little room the
 * numbers of other seats' piles go first. */
static bool pile_numbers(const table *t, bool own)
{
    int phase = t->st->phase;
    bool named = phase == QQ_P_CULL || phase == QQ_P_TRIGGER ||
                 phase == QQ_P_REACT;
    return named && (t->level == 0 || own);
}

/* A seat's bag (contents for its owner only) and piles. */
static void write_piles(qq_text *out, qq_buf *p, const table *t, int seat)
{
    char buf[16];
    bool own = seat == t->seat;
    int bag = t->place_count[seat][QQ_Z_BAG];
    qq_buf_add(p, "%s bag: %d %s", whose(t, seat, true, buf), bag,
               bag == 1 ? "die" : "dice");
    if (own && bag > 0) {
        qq_buf_add(p, " (");
        add_by_card(p, t, seat, QQ_Z_BAG, false);
        qq_buf_add(p, ")");
    }
    static const int piles[] = {QQ_Z_USED, QQ_Z_SPENT, QQ_Z_ASIDE};
    for (int i = 0; i < 3; i++) {
        int n = t->place_count[seat][piles[i]];
        if (n == 0 && piles[i] != QQ_Z_USED)
            continue;
        qq_buf_add(p, "; %s (%d)", qq_zone_title(piles[i]), n);
        if (n > 0 && (t->level == 0 || (t->level == 1 && own))) {
            qq_buf_add(p, ": ");
            add_by_card(p, t, seat, piles[i], pile_numbers(t, own));
        }
    }
    qq_buf_add(p, ".");
    qq_text_para(out, p);
}

static void write_seat(qq_text *out, qq_buf *p, const table *t, int seat)
{
    write_piles(out, p, t, seat);
    write_place(out, p, t, seat, QQ_Z_ACTIVE);
    write_place(out, p, t, seat, QQ_Z_READY);
    write_place(out, p, t, seat, QQ_Z_HELD);
}

/* Seat's creatures at quest q, questing or challenging: ", seat 1
 * quests with 27 deathdealer (level 1 3/2)". */
static void add_band(qq_buf *p, const table *t, int seat, int q,
                     bool challengers)
{
    const qq_state *st = t->st;
    bool any = false;
    for (int d = t->place_first[seat][QQ_Z_QUEST]; d >= 0;
         d = t->place_next[d]) {
        if (st->dice[d].quest != q ||
            ((st->dice[d].flags & QQ_F_CHALLENGER) != 0) != challengers)
            continue;
        if (any)
            qq_buf_add(p, " and ");
        else if (challengers)
            qq_buf_add(p, ", %s %s with ", who(t, seat, false),
                       seat == t->seat ? "challenge" : "challenges");
        else
            qq_buf_add(p, ", %s %s with ", who(t, seat, false),
                       seat == t->seat ? "quest" : "quests");
        any = true;
        add_die(p, t, d);
    }
}

/* The quest cards: level, glory, dice left on the card, who quests on
 * each. */
static void write_quests(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    char name[QQ_NAME_SIZE];
    if (st->quest_count == 0)
        return;
    qq_buf_add(p, "Quest Area:");
    for (int q = 0; q < st->quest_count; q++) {
        const qq_quest_def *def = &qq_quests[st->quest_slots[q].type];
        int on_card = 0;
        for (int d = 0; d < st->dice_count; d++)
            on_card += st->dice[d].quest_die && st->dice[d].slot == q &&
                       st->dice[d].zone == QQ_Z_QCARD;
        qq_buf_add(p, "%s %s, level %d, %d glory, %d quest %s on the card",
                   q == 0 ? "" : ";", qq_notation_id(def->id, name),
                   def->level, def->glory, on_card,
                   on_card == 1 ? "die" : "dice");
        /* the band on the quest, then a band challenging it */
        for (int challengers = 0; challengers < 2; challengers++) {
            for (int s = 0; s < st->seats; s++)
                add_band(p, t, s, q, challengers);
        }
    }
    qq_buf_add(p, ".");
    qq_text_para(out, p);
}

static void write_last_roll(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    const qq_quest_roll *r = &st->last_roll;
    if (r->die < 0)
        return;
    int type = st->quest_slots[st->dice[r->die].slot].type;
    char name[QQ_NAME_SIZE], face[QQ_NAME_SIZE], reward[128];
    qq_buf_add(p, "Last quest roll: %s rolled %d %s", who(t, r->seat, false),
               r->die, qq_notation_id(qq_quests[type].id, name));
    if (r->seized_from >= 0)
        qq_buf_add(p, " (seized from %s)", who(t, r->seized_from, false));
    qq_buf_add(p, " and got \"%s\": %s.",
               qq_quest_face_name(type, r->face, face),
               qq_quest_reward_text(type, r->face, reward, sizeof reward));
    qq_text_para(out, p);
}

static void write_wilds(qq_text *out, qq_buf *p, const table *t)
{
    const qq_state *st = t->st;
    char name[QQ_NAME_SIZE];
    int empty = 0;
    qq_buf_add(p, "Wilds (cost, dice left): ");
    for (int s = 0; s < st->slot_count; s++) {
        if (t->level >= 3 && qq_slot_dice(st, s) == 0) {
            empty++;
            continue;
        }
        qq_buf_add(p, "%s", s == empty ? "" : ", ");
        qq_buf_add_joined(p, "%s %d (%d)",
                          qq_notation_id(qq_cards[st->slots[s].card].id,
                                         name),
                          qq_capture_cost(st, s), qq_slot_dice(st, s));
    }
    if (empty > 0)
        qq_buf_add(p, "%s%d empty card%s", empty == st->slot_count ? "" : "; ",
                   empty, empty == 1 ? "" : "s");
    qq_buf_add(p, ".");
    qq_text_para(out, p);
}

/* The game's words a newcomer meets in the text, each said once when the
 * text uses it (trigger found in it), the most needed first: a legend
 * too long for the lines left drops the last. */
static const struct legend_word {
    const char *trigger;
    const char *explanation;
} legend_words[] = {
    {"quiddity", "quiddity = what dice and spells pay with, to summon "
                 "and to capture"},
    {"level", "level = what summoning a creature costs; attack and "
              "defense = the damage it deals and takes"},
    {"burst", "burst, double burst = the star icons a card's power may "
              "ask for"},
    {"Active", "Active Pool = the dice rolled this turn"},
    {"Ready", "Ready Area = creatures and spells summoned; "
                   "creatures there attack, and score at the start of "
                   "their player's next turn"},
    {"Used", "Used Pile = dice that go back into the bag when it "
                  "runs out"},
    {"cull", "cull = send a die of your Used Pile back to the Wilds"},
};

#define LEGEND_WORDS (sizeof legend_words / sizeof legend_words[0])
/* The most lines a text may have (rules.h). */
#define MOST_LINES 40

/* The legend of the first count words used, wrapped onto legend. */
static void legend_of(qq_text *legend, const bool used[LEGEND_WORDS],
                      size_t count)
{
    qq_buf p = {0};
    for (size_t i = 0, n = 0; i < LEGEND_WORDS && n < count; i++) {
        if (!used[i])
            continue;
        qq_buf_add(&p, "%s%s", n == 0 ? "Words: " : "; ",
                   legend_words[i].explanation);
        n++;
    }
    qq_buf_add(&p, ".");
    qq_text_para(legend, &p);
    qq_buf_free(&p);
}

/* Ends text (lines long) with the legend of the words it used, as many
 * as the lines left hold. Returns the text (the same, or grown). */
static char *add_legend(char *text, int lines)
{
    bool used[LEGEND_WORDS];
    size_t count = 0;
    for (size_t i = 0; i < LEGEND_WORDS; i++) {
        used[i] = strstr(text, legend_words[i].trigger) != NULL;
        count += used[i];
    }
    for (; count > 0; count--) {
        qq_text legend = {{0}, 0};
        legend_of(&legend, used, count);
        if (lines + legend.lines <= MOST_LINES) {
            char *words = qq_text_take(&legend);
            size_t a = strlen(text), b = strlen(words);
            char *both = realloc(text, a + b + 1);
            if (both == NULL)
                abort();
            memcpy(both + a, words, b + 1);
            free(words);
            return both;
        }
        qq_buf_free(&legend.out);
    }
    return text;
}

static char *write_all(table *t)
{
    const qq_state *st = t->st;
    qq_text out = {{0}, 0};
    qq_buf p = {0};
    if (t->seat >= 0) {
        qq_buf_add(&p, "You are seat %d.", t->seat);
        qq_text_para(&out, &p);
    }
    write_turn(&out, &p, t);
    write_phase(&out, &p, t);
    write_glory(&out, &p, t);
    write_pool(&out, &p, t);
    if (t->seat >= 0)
        write_seat(&out, &p, t, t->seat);
    for (int k = 0; k < st->seats; k++) {
        /* the others in play order after the viewer */
        int s = t->seat >= 0 ? (t->seat + 1 + k) % st->seats : k;
        if (s != t->seat)
            write_seat(&out, &p, t, s);
    }
    write_quests(&out, &p, t);
    write_last_roll(&out, &p, t);
    write_wilds(&out, &p, t);
    qq_buf_free(&p);
    if (out.lines > WANTED_LINES && t->level + 1 < LEVELS) {
        qq_buf_free(&out.out);
        t->level++;
        return write_all(t);
    }
    int lines = out.lines;
    return add_legend(qq_text_take(&out), lines);
}

char *qq_view_text(const qq_state *st, int seat)
{
    table *t = malloc(sizeof *t);
    if (t == NULL)
        abort();
    t->st = st;
    t->seat = seat >= 0 && seat < st->seats ? seat : RULES_SPECTATOR;
    t->level = 0;
    gather(t);
    char *text = write_all(t);
    free(t);
    return text;
}
