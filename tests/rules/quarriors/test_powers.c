/* Card powers: each test sets up a position, plays the power through the
 * engine's moves and checks what the card text (quarriors-data.json)
 * says. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "quarriors/qq_internal.h"
#include "quarriors/quarriors.h"
#include "wilds.h"

/* A match with quests, seat 0 in phase 2 with an empty Active Pool. */
static qq_state *fresh(int seats)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(91, seed);
    rules_error err;
    qq_state *st = (qq_state *)qq_engine.setup(NULL, seats, seed, &err);
    cr_assert_not_null(st, "%s", err.message);
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].zone == QQ_Z_ACTIVE) {
            st->dice[d].zone = QQ_Z_BAG;
            st->dice[d].face = -1;
        }
    }
    st->phase = QQ_P_MAIN;
    return st;
}

/* Puts card on Wilds slot 4 + k (slots 0..3 hold the basic cards). */
static int card(qq_state *st, int k, const char *id)
{
    int slot = 4 + k;
    cr_assert_lt(slot, st->slot_count);
    qq_test_put_card(st, slot, id);
    return slot;
}

/* A die of slot, taken from the Wilds, put in zone of seat showing face. */
static int place(qq_state *st, int slot, int seat, int zone, int face)
{
    for (int d = 0; d < st->dice_count; d++) {
        qq_die *die = &st->dice[d];
        if (!die->quest_die && die->slot == slot && die->zone == QQ_Z_WILDS) {
            die->owner = (int8_t)seat;
            die->zone = (int8_t)zone;
            bool rolled = zone == QQ_Z_ACTIVE || zone == QQ_Z_READY ||
                          zone == QQ_Z_SPENT || zone == QQ_Z_QUEST ||
                          zone == QQ_Z_ATTACHED;
            die->face = (int8_t)(rolled ? face : -1);
            return d;
        }
    }
    cr_assert_fail("no die left on slot %d", slot);
    return -1;
}

/* One of seat's own starting dice (card id) moved to zone. */
static int own_die(qq_state *st, int seat, const char *id, int zone, int face)
{
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_BAG &&
            strcmp(qq_cards[st->slots[st->dice[d].slot].card].id, id) == 0) {
            st->dice[d].zone = (int8_t)zone;
            st->dice[d].face = (int8_t)face;
            return d;
        }
    }
    cr_assert_fail("seat %d has no %s in its bag", seat, id);
    return -1;
}

static void ok(qq_state *st)
{
    rules_error err;
    cr_assert(qq_check(st, &err), "%s", err.message);
}

static void act(qq_state *st, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void act(qq_state *st, int seat, const char *fmt, ...)
{
    char text[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    harness_apply_text(&qq_engine, (rules_state *)st, seat, text);
    ok(st);
}

static void reject(qq_state *st, int seat, const char *words,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void reject(qq_state *st, int seat, const char *words,
                   const char *fmt, ...)
{
    char text[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    harness_reject_text(&qq_engine, (rules_state *)st, seat, text, words);
}

static int count(const qq_state *st, int seat, int zone)
{
    int n = 0;
    for (int d = 0; d < st->dice_count; d++)
        n += st->dice[d].owner == seat && st->dice[d].zone == zone;
    return n;
}

static int pending_seat(const qq_state *st)
{
    rules_pending p;
    qq_engine.pending((const rules_state *)st, &p);
    cr_assert_eq(rules_seat_count(p.seats), 1);
    return __builtin_ctz(p.seats);
}

/* Faces (0-based) used below. */
#define HAG_L2 5        /* Witching Hag 4/5 */
#define DD_L1 3         /* Deathdealer 3/2 */
#define DD_L2 5         /* Deathdealer 4/4 */
#define SPELL 3         /* a spell face (Death: *, others plain) */
#define DEATH_STAR2 5   /* Death die ** */
#define VICTORY_SPELL 4
#define GOBLIN_L1 2     /* Scavenging Goblin 2/2 */
#define GOBLIN_STAR 4   /* Scavenging Goblin 2/2 * */

/* ---- reaction spells and the reaction window ---- */

Test(qq_reaction, life_spell_gives_the_defenders_4_defense)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), dd = card(st, 1, "deathdealer");
    int life = card(st, 2, "life_spell");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int victim = place(st, dd, 1, QQ_Z_READY, DD_L1);
    int spell = place(st, life, 1, QQ_Z_READY, SPELL);
    ok(st);
    act(st, 0, "attack");
    cr_assert_eq(st->phase, QQ_P_REACT, "the defender may react first");
    cr_assert_eq(pending_seat(st), 1);
    reject(st, 0, "not your turn", "pass");
    act(st, 1, "cast %d", spell);
    cr_assert_eq(st->dice[spell].zone, QQ_Z_USED);
    /* nobody has a reaction left: the window closes, damage follows */
    cr_assert_eq(st->dice[victim].zone, QQ_Z_READY, "4 damage < 6 defense");
    cr_assert_eq(qq_defense(st, victim), 6);
    cr_assert_eq(st->phase, QQ_P_CAPTURE);
    free(st);
}

Test(qq_reaction, life_charm_sends_the_fallen_to_the_active_pool)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), dd = card(st, 1, "deathdealer");
    int life = card(st, 2, "life_charm");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int victim = place(st, dd, 1, QQ_Z_READY, DD_L1);
    int spell = place(st, life, 1, QQ_Z_READY, SPELL);
    act(st, 0, "attack");
    act(st, 1, "cast %d", spell);
    cr_assert_eq(st->dice[victim].zone, QQ_Z_ACTIVE);
    cr_assert_eq(st->dice[victim].face, DD_L1, "it keeps its face");
    free(st);
}

Test(qq_reaction, life_incantation_sets_an_attack_to_0)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), dd = card(st, 1, "deathdealer");
    int life = card(st, 2, "life_incantation");
    int attacker = place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int victim = place(st, dd, 1, QQ_Z_READY, DD_L1);
    int spell = place(st, life, 1, QQ_Z_READY, SPELL);
    act(st, 0, "attack");
    act(st, 1, "cast %d %d", spell, attacker);
    cr_assert_eq(qq_attack(st, attacker, 1), 0);
    cr_assert_eq(st->dice[victim].zone, QQ_Z_READY);
    free(st);
}

Test(qq_reaction, shaping_cantrip_brings_a_fallen_creature_back)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), dd = card(st, 1, "deathdealer");
    int shaping = card(st, 2, "shaping_cantrip");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int victim = place(st, dd, 1, QQ_Z_READY, DD_L2);
    int spell = place(st, shaping, 1, QQ_Z_READY, SPELL);
    act(st, 0, "attack");
    /* no reaction before damage: the cantrip answers a destruction */
    cr_assert_eq(st->phase, QQ_P_REACT);
    cr_assert_eq(st->dice[victim].zone, QQ_Z_USED);
    reject(st, 1, "Shaping Cantrip", "cast %d %d", spell, hag);
    act(st, 1, "cast %d %d", spell, victim);
    cr_assert_eq(st->dice[victim].zone, QQ_Z_READY);
    cr_assert_eq(qq_level(st, victim), 2, "at the same level");
    cr_assert(st->dice[victim].flags & QQ_F_SHIELDED);
    cr_assert_eq(st->phase, QQ_P_CAPTURE);
    free(st);
}

Test(qq_reaction, a_challenge_opens_the_window_for_both_sides)
{
    qq_state *st = fresh(2);
    int dd = card(st, 0, "deathdealer"), life = card(st, 1, "life_incantation");
    int quester = place(st, dd, 1, QQ_Z_QUEST, DD_L1);
    st->dice[quester].quest = 0;
    int hero = place(st, dd, 0, QQ_Z_READY, DD_L2);
    int spell = place(st, life, 1, QQ_Z_READY, SPELL);
    ok(st);
    act(st, 0, "challenge exqualibur %d", hero);
    cr_assert_eq(st->phase, QQ_P_REACT);
    act(st, 1, "cast %d %d", spell, hero);
    cr_assert_eq(st->dice[quester].zone, QQ_Z_QUEST, "attack 0: it lives");
    cr_assert_eq(st->dice[hero].zone, QQ_Z_USED, "survivors go home");
    free(st);
}

/* ---- Deathdealer ---- */

Test(qq_deathdealer, plain_exchanges_itself_when_it_scores)
{
    qq_state *st = fresh(2);
    int slot = card(st, 0, "deathdealer");
    int dd = place(st, slot, 0, QQ_Z_READY, DD_L1);
    int theirs = own_die(st, 1, "assistant", QQ_Z_USED, -1);
    st->turn = 0;
    qq_start_turn(st);
    ok(st);
    cr_assert_eq(st->phase, QQ_P_TRIGGER);
    cr_assert_eq(st->players[0].glory, 2);
    act(st, 0, "exchange %d", theirs);
    cr_assert_eq(st->dice[dd].owner, 1);
    cr_assert_eq(st->dice[theirs].owner, 0);
    cr_assert_eq(st->dice[theirs].zone, QQ_Z_USED);
    free(st);
}

Test(qq_deathdealer, strong_scores_when_its_player_destroys)
{
    qq_state *st = fresh(2);
    int sdd = card(st, 0, "strong_deathdealer"), hag = card(st, 1,
                                                             "witching_hag");
    int gob = card(st, 2, "scavenging_goblin"), pale = card(st, 3,
                                                            "defender_of_the_pale");
    int dealer = place(st, sdd, 0, QQ_Z_READY, DD_L2);
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int goblin = place(st, gob, 1, QQ_Z_READY, GOBLIN_L1);
    int defender = place(st, pale, 1, QQ_Z_READY, 5);   /* 2/8 */
    act(st, 0, "attack");
    act(st, 1, "defend %d", goblin);
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_USED);
    cr_assert_eq(st->dice[dealer].zone, QQ_Z_USED, "it scored at once");
    cr_assert_eq(st->players[0].glory, 2);
    cr_assert_eq(st->dice[defender].zone, QQ_Z_READY, "6 damage < 8");
    free(st);
}

Test(qq_deathdealer, mighty_adds_its_attack_after_the_first_fall)
{
    qq_state *st = fresh(2);
    int mdd = card(st, 0, "mighty_deathdealer"), gob = card(st, 1,
                                                            "scavenging_goblin");
    int dev = card(st, 2, "devotee_of_the_holy_query");
    place(st, mdd, 0, QQ_Z_READY, DD_L2);              /* 4/4 */
    int goblin = place(st, gob, 1, QQ_Z_READY, GOBLIN_L1);
    int devotee = place(st, dev, 1, QQ_Z_READY, 4);    /* 2/4 */
    act(st, 0, "attack");
    act(st, 1, "defend %d", goblin);
    /* 4 - 2 = 2 left, +4 once: 6 >= 4 */
    cr_assert_eq(st->dice[devotee].zone, QQ_Z_USED);
    free(st);
}

Test(qq_deathdealer, mighty_counts_the_first_fall_to_damage_after_quake_dragon)
{
    qq_state *st = fresh(2);
    int mdd = card(st, 0, "mighty_deathdealer"), qd = card(st, 1,
                                                           "quake_dragon");
    int gob = card(st, 2, "scavenging_goblin");
    int dev = card(st, 3, "devotee_of_the_holy_query");
    int pale = card(st, 4, "defender_of_the_pale");
    place(st, mdd, 0, QQ_Z_READY, DD_L2);                /* 4/4 */
    place(st, qd, 0, QQ_Z_READY, 4);                     /* L2 6/6 */
    int goblin = place(st, gob, 1, QQ_Z_READY, GOBLIN_L1);
    int devotee = place(st, dev, 1, QQ_Z_READY, 4);      /* 2/4 */
    place(st, pale, 1, QQ_Z_READY, 4);                   /* 2/6 */
    int big = place(st, pale, 1, QQ_Z_READY, 5);         /* 2/8 */
    ok(st);
    act(st, 0, "attack");
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_USED, "Quake Dragon: level 1");
    cr_assert_eq(st->damage, 10);
    act(st, 1, "defend %d", devotee);
    /* the first fall to damage: 10 - 4 = 6, +4 once */
    cr_assert_eq(st->damage, 10);
    act(st, 1, "defend %d", big);
    cr_assert_eq(st->dice[big].zone, QQ_Z_USED, "10 >= 8");
    free(st);
}

Test(qq_deathdealer, mighty_bonus_obeys_strong_quake_dragon_and_mighty_hag)
{
    /* Level 2 or less cannot attack a Strong Quake Dragon's player: the
     * level-2 Mighty Deathdealer adds nothing against him. */
    qq_state *st = fresh(2);
    int mdd = card(st, 0, "mighty_deathdealer"), qd = card(st, 1,
                                                           "strong_quake_dragon");
    int gob = card(st, 2, "scavenging_goblin");
    int dev = card(st, 3, "devotee_of_the_holy_query");
    int pale = card(st, 4, "defender_of_the_pale");
    place(st, mdd, 0, QQ_Z_READY, DD_L2);                /* L2 4/4 */
    place(st, pale, 0, QQ_Z_READY, 5);                   /* L3 2/8 */
    int dragon = place(st, qd, 1, QQ_Z_READY, 3);        /* L1 4/4 */
    int goblin = place(st, gob, 1, QQ_Z_READY, GOBLIN_L1);
    int devotee = place(st, dev, 1, QQ_Z_READY, 2);      /* 0/3 */
    ok(st);
    act(st, 0, "attack");
    cr_assert_eq(st->damage, 2, "only the level-3 creature attacks");
    act(st, 1, "defend %d", goblin);
    cr_assert_eq(st->phase, QQ_P_CAPTURE, "no damage is left");
    cr_assert_eq(st->dice[dragon].zone, QQ_Z_READY);
    cr_assert_eq(st->dice[devotee].zone, QQ_Z_READY);

    /* A Mighty Witching Hag still in the Ready Area: the attack added
     * once more counts as 3. */
    qq_state *st2 = fresh(2);
    mdd = card(st2, 0, "mighty_deathdealer");
    int hag = card(st2, 1, "mighty_witching_hag");
    dev = card(st2, 2, "devotee_of_the_holy_query");
    place(st2, mdd, 0, QQ_Z_READY, DD_L2);               /* 4/4 */
    int small = place(st2, hag, 1, QQ_Z_READY, 3);       /* 3/3 */
    place(st2, hag, 1, QQ_Z_READY, HAG_L2);              /* 4/5 */
    devotee = place(st2, dev, 1, QQ_Z_READY, 4);         /* 2/4 */
    ok(st2);
    act(st2, 0, "attack");
    cr_assert_eq(st2->damage, 3, "attack 4 counts as 3");
    act(st2, 1, "defend %d", small);
    cr_assert_eq(st2->damage, 3, "0 left, +3 once");
    act(st2, 1, "defend %d", devotee);
    cr_assert_eq(st2->dice[devotee].zone, QQ_Z_READY, "3 < 4");
    free(st);
    free(st2);
}

Test(qq_deathdealer, mighty_adds_its_attack_in_a_challenge)
{
    /* Quartifacts rulebook, GAME TERMS 3: creatures in a challenge are
     * attacking. */
    qq_state *st = fresh(2);
    int mdd = card(st, 0, "mighty_deathdealer"), gob = card(st, 1,
                                                            "scavenging_goblin");
    int dev = card(st, 2, "devotee_of_the_holy_query");
    int goblin = place(st, gob, 1, QQ_Z_QUEST, GOBLIN_L1);   /* 2/2 */
    int devotee = place(st, dev, 1, QQ_Z_QUEST, 2);          /* 0/3 */
    st->dice[goblin].quest = 0;
    st->dice[devotee].quest = 0;
    int hero = place(st, mdd, 0, QQ_Z_READY, DD_L2);         /* 4/4 */
    ok(st);
    act(st, 0, "challenge exqualibur %d", hero);
    cr_assert_eq(st->phase, QQ_P_CHALLENGE);
    act(st, 1, "defend %d %d", goblin, devotee);
    /* 4 - 2 = 2 left, +4 once: 6 >= 3 */
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_USED);
    cr_assert_eq(st->dice[devotee].zone, QQ_Z_USED);
    cr_assert_eq(st->players[0].glory, 2, "1 glory per creature destroyed");
    cr_assert_eq(st->phase, QQ_P_TAKEOVER);
    free(st);
}

/* ---- Ghostly Spirit ---- */

Test(qq_ghostly, plain_comes_back_by_culling_a_basic_quiddity)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), gs = card(st, 1, "ghostly_spirit");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int ghost = place(st, gs, 1, QQ_Z_READY, 3);
    int q = own_die(st, 1, "basic_quiddity", QQ_Z_USED, -1);
    act(st, 0, "attack");
    cr_assert_eq(st->phase, QQ_P_REACT);
    act(st, 1, "revive %d %d", ghost, q);
    cr_assert_eq(st->dice[ghost].zone, QQ_Z_READY);
    cr_assert_eq(st->dice[ghost].face, 3);
    cr_assert_eq(st->dice[q].zone, QQ_Z_WILDS, "the quiddity is culled");
    free(st);
}

Test(qq_ghostly, strong_goes_to_the_active_pool)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), gs = card(st, 1,
                                                     "strong_ghostly_spirit");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int ghost = place(st, gs, 1, QQ_Z_READY, 3);
    act(st, 0, "attack");
    cr_assert_eq(st->dice[ghost].zone, QQ_Z_ACTIVE);
    free(st);
}

Test(qq_ghostly, mighty_waits_until_its_player_destroys)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), gs = card(st, 1,
                                                     "mighty_ghostly_spirit");
    int gob = card(st, 2, "scavenging_goblin");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int ghost = place(st, gs, 1, QQ_Z_READY, 3);
    act(st, 0, "attack");
    cr_assert_eq(st->dice[ghost].zone, QQ_Z_ASIDE);
    act(st, 0, "end");
    /* seat 1's turn: it destroys a goblin of seat 0 */
    cr_assert_eq(st->turn, 1);
    int goblin = place(st, gob, 0, QQ_Z_READY, GOBLIN_L1);
    int attacker = place(st, hag, 1, QQ_Z_READY, HAG_L2);
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == 1 && st->dice[d].zone == QQ_Z_ACTIVE)
            st->dice[d].zone = QQ_Z_SPENT;
    }
    (void)attacker;
    st->phase = QQ_P_MAIN;
    ok(st);
    act(st, 1, "attack");
    if (st->phase == QQ_P_DEFEND)
        act(st, 0, "defend %d", goblin);   /* seat 0's Hag is there too */
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_USED);
    cr_assert(st->dice[ghost].zone == QQ_Z_READY ||
              st->dice[ghost].zone == QQ_Z_USED, "rolled: ready or used");
    cr_assert_eq(st->dice[ghost].zone == QQ_Z_READY,
                 st->dice[ghost].face >= 3);
    free(st);
}

/* ---- Primordial Ooze ---- */

Test(qq_ooze, strong_copies_a_creature_of_an_opponent)
{
    qq_state *st = fresh(2);
    int ooze = card(st, 0, "strong_primordial_ooze"), qd = card(st, 1,
                                                                "quake_dragon");
    int dragon = place(st, qd, 1, QQ_Z_READY, 5);   /* L3 8/7 */
    int o = place(st, ooze, 0, QQ_Z_ACTIVE, 3);
    st->quiddity = 2;
    ok(st);
    reject(st, 0, "copies", "summon %d", o);
    act(st, 0, "summon %d %d", o, dragon);
    cr_assert_eq(qq_attack(st, o, -1), 8);
    cr_assert_eq(qq_defense(st, o), 7);
    cr_assert_eq(qq_level(st, o), 3);
    cr_assert_eq(qq_card_of(st, o)->glory, 4, "the copy includes glory");
    json_t *view = qq_engine.view((rules_state *)st, 1);
    char *text = json_dumps(view, JSON_COMPACT);
    cr_assert(strstr(text, "\"copying\":\"quake_dragon\"") != NULL);
    free(text);
    json_decref(view);
    act(st, 0, "copy %d %d", o, dragon);   /* a change, once per turn */
    reject(st, 0, "once per turn", "copy %d %d", o, dragon);
    free(st);
}

Test(qq_ooze, plain_is_destroyed_without_basic_quiddity)
{
    qq_state *st = fresh(2);
    int slot = card(st, 0, "primordial_ooze");
    int o = place(st, slot, 0, QQ_Z_ACTIVE, 3);
    st->quiddity = 2;
    act(st, 0, "summon %d", o);
    cr_assert_eq(st->dice[o].zone, QQ_Z_USED, "0 Basic Quiddity in play");

    qq_state *st2 = fresh(2);
    slot = card(st2, 0, "primordial_ooze");
    o = place(st2, slot, 0, QQ_Z_ACTIVE, 3);
    own_die(st2, 0, "basic_quiddity", QQ_Z_USED, -1);
    st2->quiddity = 2;
    act(st2, 0, "summon %d", o);
    cr_assert_eq(st2->dice[o].zone, QQ_Z_READY);
    cr_assert_eq(qq_attack(st2, o, -1), 1);
    free(st);
    free(st2);
}

/* ---- scoring powers ---- */

Test(qq_scoring, strong_defender_of_the_pale_draws)
{
    qq_state *st = fresh(2);
    int slot = card(st, 0, "strong_defender_of_the_pale");
    place(st, slot, 0, QQ_Z_READY, 5);   /* ** */
    st->turn = 0;
    qq_start_turn(st);
    ok(st);
    cr_assert_eq(st->phase, QQ_P_CULL);
    act(st, 0, "done");
    cr_assert_eq(count(st, 0, QQ_Z_ACTIVE), 8, "2 drawn + 6");
    free(st);
}

Test(qq_scoring, strong_devotee_captures_a_spell_into_the_bag)
{
    qq_state *st = fresh(2);
    int slot = card(st, 0, "strong_devotee_of_the_holy_query");
    card(st, 1, "growth_cantrip");
    card(st, 2, "death_spell");
    place(st, slot, 0, QQ_Z_READY, 5);   /* * */
    int bag = count(st, 0, QQ_Z_BAG);
    st->turn = 0;
    qq_start_turn(st);
    cr_assert_eq(st->phase, QQ_P_TRIGGER);
    reject(st, 0, "4 or less", "capture death-spell");
    act(st, 0, "capture growth-cantrip");
    cr_assert_eq(count(st, 0, QQ_Z_BAG) + count(st, 0, QQ_Z_ACTIVE), bag + 1);
    free(st);
}

Test(qq_scoring, strong_questing_wizard_culls_spells_for_glory)
{
    qq_state *st = fresh(2);
    int wiz = card(st, 0, "strong_questing_wizard");
    int vic = card(st, 1, "victory_cantrip"), gro = card(st, 2, "growth_charm");
    int w = place(st, wiz, 0, QQ_Z_READY, 3);
    int v = place(st, vic, 0, QQ_Z_ATTACHED, VICTORY_SPELL);
    st->dice[v].host = (int16_t)w;
    int g = place(st, gro, 0, QQ_Z_READY, SPELL);
    ok(st);
    st->turn = 0;
    qq_start_turn(st);
    cr_assert_eq(st->players[0].glory, 5, "3 + Victory Cantrip's 2");
    cr_assert_eq(st->phase, QQ_P_TRIGGER);
    act(st, 0, "cull %d", v);
    act(st, 0, "cull %d", g);
    cr_assert_eq(st->players[0].glory, 7);
    cr_assert_eq(st->dice[g].zone, QQ_Z_WILDS);
    cr_assert_neq(st->phase, QQ_P_TRIGGER);
    free(st);
}

Test(qq_scoring, strong_witching_hag_recalls_a_creature_die)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "strong_witching_hag"), dd = card(st, 1,
                                                            "deathdealer");
    place(st, hag, 0, QQ_Z_READY, 3);
    int back = place(st, dd, 0, QQ_Z_USED, -1);
    st->turn = 0;
    qq_start_turn(st);
    cr_assert_eq(st->phase, QQ_P_TRIGGER);
    act(st, 0, "recall %d", back);
    cr_assert_eq(st->dice[back].zone, QQ_Z_ACTIVE);
    free(st);
}

Test(qq_scoring, shaping_incantation_trades_a_culled_die)
{
    qq_state *st = fresh(2);
    int gob = card(st, 0, "scavenging_goblin"), shp = card(st, 1,
                                                           "shaping_incantation");
    int creature = place(st, gob, 0, QQ_Z_READY, GOBLIN_L1);
    int spell = place(st, shp, 0, QQ_Z_READY, SPELL);
    act(st, 0, "cast %d %d", spell, creature);
    cr_assert_eq(st->dice[spell].zone, QQ_Z_ATTACHED);
    int q = own_die(st, 0, "basic_quiddity", QQ_Z_USED, -1);
    st->turn = 0;
    qq_start_turn(st);
    cr_assert_eq(st->phase, QQ_P_TRIGGER);
    reject(st, 0, "at most 3 more", "trade %d portal", q);
    int before = qq_slot_dice(st, gob);
    act(st, 0, "trade %d scavenging-goblin", q);
    cr_assert_eq(st->dice[q].zone, QQ_Z_WILDS);
    cr_assert_eq(qq_slot_dice(st, gob), before - 1);
    free(st);
}

/* ---- creatures in play ---- */

Test(qq_creatures, mighty_devotee_shrugs_off_opponents_spells)
{
    qq_state *st = fresh(2);
    int dev = card(st, 0, "mighty_devotee_of_the_holy_query");
    int death = card(st, 1, "death_incantation");
    int devotee = place(st, dev, 1, QQ_Z_READY, 5);   /* * */
    int spell = place(st, death, 0, QQ_Z_READY, DEATH_STAR2);
    cr_assert(qq_shielded(st, devotee, 0, QQ_SRC_SPELL));
    cr_assert(!qq_shielded(st, devotee, 1, QQ_SRC_SPELL), "own spells reach");
    cr_assert(!qq_shielded(st, devotee, 0, QQ_SRC_CREATURE));
    reject(st, 0, "protected", "cast %d %d", spell, devotee);
    free(st);
}

Test(qq_creatures, mighty_devotee_ignores_the_defenders_spells)
{
    qq_state *st = fresh(2);
    int dev = card(st, 0, "mighty_devotee_of_the_holy_query");
    int dd = card(st, 1, "deathdealer"), life = card(st, 2, "life_cantrip");
    place(st, dev, 0, QQ_Z_READY, 5);                 /* 2/4+3, * */
    int victim = place(st, dd, 1, QQ_Z_READY, DD_L1);  /* 3/2 */
    int lc = place(st, life, 1, QQ_Z_ATTACHED, SPELL);
    st->dice[lc].host = (int16_t)victim;
    cr_assert_eq(qq_defense(st, victim), 6);
    act(st, 0, "attack");
    cr_assert_eq(st->dice[victim].zone, QQ_Z_USED, "+4 ignored: 2 >= 2");
    free(st);
}

Test(qq_creatures, questing_wizard_star_face_draws_and_rerolls)
{
    qq_state *st = fresh(2);
    int wiz = card(st, 0, "questing_wizard");
    int w = place(st, wiz, 0, QQ_Z_ACTIVE, 2);   /* 2 quiddity * */
    act(st, 0, "reroll %d", w);
    cr_assert_eq(count(st, 0, QQ_Z_ACTIVE), 2, "one more die drawn");
    cr_assert_eq(st->dice[w].zone, QQ_Z_ACTIVE);
    free(st);
}

Test(qq_creatures, mighty_questing_wizard_star_face_draws_two)
{
    qq_state *st = fresh(2);
    int wiz = card(st, 0, "mighty_questing_wizard");
    int w = place(st, wiz, 0, QQ_Z_ACTIVE, 2);
    act(st, 0, "draw %d", w);
    cr_assert_eq(st->dice[w].zone, QQ_Z_SPENT);
    cr_assert_eq(count(st, 0, QQ_Z_ACTIVE), 2);
    cr_assert_eq(st->quiddity, 0, "instead of its quiddity");
    free(st);
}

Test(qq_creatures, mighty_scavenging_goblin_draws_when_destroyed)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), gob = card(st, 1,
                                                      "mighty_scavenging_goblin");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int goblin = place(st, gob, 1, QQ_Z_READY, GOBLIN_STAR);
    act(st, 0, "attack");
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_USED);
    cr_assert_eq(count(st, 1, QQ_Z_ACTIVE), 2);
    free(st);
}

Test(qq_creatures, mighty_warrior_destroys_warriors_and_comes_alone)
{
    qq_state *st = fresh(2);
    int war = card(st, 0, "mighty_warrior_of_the_quay");
    int theirs = place(st, war, 1, QQ_Z_READY, 3);
    int a = place(st, war, 0, QQ_Z_ACTIVE, 3), b = place(st, war, 0,
                                                         QQ_Z_ACTIVE, 3);
    st->quiddity = 4;
    act(st, 0, "summon %d", a);
    cr_assert_eq(st->dice[theirs].zone, QQ_Z_USED);
    reject(st, 0, "one Warrior", "summon %d", b);
    free(st);
}

Test(qq_creatures, each_witching_hag_gives_a_quiddity_per_kill)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), gob = card(st, 1,
                                                      "scavenging_goblin");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int goblin = place(st, gob, 1, QQ_Z_READY, GOBLIN_L1);
    cr_assert_eq(st->quiddity, 0);
    act(st, 0, "attack");
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_USED);
    cr_assert_eq(st->quiddity, 2, "1 quiddity from each Witching Hag");
    free(st);
}

/* ---- spells ---- */

Test(qq_spells, death_spell_destroys_one_per_opponent)
{
    qq_state *st = fresh(3);
    int death = card(st, 0, "death_spell"), dd = card(st, 1, "deathdealer");
    int pale = card(st, 2, "defender_of_the_pale");
    int spell = place(st, death, 0, QQ_Z_READY, SPELL);
    int x = place(st, dd, 1, QQ_Z_READY, DD_L2);
    int y = place(st, dd, 2, QQ_Z_READY, DD_L1);
    int big = place(st, pale, 2, QQ_Z_READY, 5);       /* defense 8 */
    ok(st);
    reject(st, 0, "each opponent", "cast %d %d", spell, x);
    reject(st, 0, "defense 6 or less", "cast %d %d %d", spell, x, big);
    act(st, 0, "cast %d %d %d", spell, x, y);
    cr_assert_eq(st->dice[x].zone, QQ_Z_USED);
    cr_assert_eq(st->dice[y].zone, QQ_Z_USED);
    cr_assert_eq(st->dice[big].zone, QQ_Z_READY);
    free(st);
}

Test(qq_spells, growth_incantation_gives_2_and_rerolls_2)
{
    qq_state *st = fresh(2);
    int gro = card(st, 0, "growth_incantation");
    int g = place(st, gro, 0, QQ_Z_ACTIVE, SPELL);
    int a = own_die(st, 0, "assistant", QQ_Z_ACTIVE, 0);
    int b = own_die(st, 0, "assistant", QQ_Z_ACTIVE, 0);
    int c = own_die(st, 0, "assistant", QQ_Z_ACTIVE, 0);
    reject(st, 0, "up to 2", "use %d %d %d %d", g, a, b, c);
    uint64_t before = st->rng.counter;
    act(st, 0, "use %d %d %d", g, a, b);
    cr_assert_eq(st->quiddity, 2);
    cr_assert_eq(st->dice[g].zone, QQ_Z_SPENT);
    cr_assert_gt(st->rng.counter, before, "the two dice were rolled");
    free(st);
}

Test(qq_spells, shaping_charm_raises_each_creature_a_level)
{
    qq_state *st = fresh(2);
    int qd = card(st, 0, "quake_dragon"), shp = card(st, 1, "shaping_charm");
    int dd = card(st, 2, "deathdealer");
    int dragon = place(st, qd, 0, QQ_Z_READY, 3);    /* L1 */
    int top = place(st, dd, 0, QQ_Z_READY, DD_L2);    /* L2: no L3 face */
    int spell = place(st, shp, 0, QQ_Z_READY, SPELL);
    act(st, 0, "cast %d", spell);
    cr_assert_eq(qq_level(st, dragon), 2);
    cr_assert_eq(qq_attack(st, dragon, -1), 6);
    cr_assert_eq(qq_level(st, top), 2, "no face one level higher");
    free(st);
}

Test(qq_spells, victory_charm_needs_two_scored_creatures)
{
    qq_state *st = fresh(2);
    int hag = card(st, 0, "witching_hag"), vic = card(st, 1, "victory_charm");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    int spell = place(st, vic, 0, QQ_Z_READY, VICTORY_SPELL);
    st->turn = 0;
    qq_start_turn(st);
    act(st, 0, "done");
    cr_assert_eq(st->players[0].glory, 6);
    act(st, 0, "cast %d", spell);
    cr_assert_eq(st->players[0].glory, 8, "1 per creature that scored");

    qq_state *st2 = fresh(2);
    hag = card(st2, 0, "witching_hag");
    vic = card(st2, 1, "victory_charm");
    place(st2, hag, 0, QQ_Z_READY, HAG_L2);
    spell = place(st2, vic, 0, QQ_Z_READY, VICTORY_SPELL);
    st2->turn = 0;
    qq_start_turn(st2);
    act(st2, 0, "done");
    reject(st2, 0, "2 or more", "cast %d", spell);
    free(st);
    free(st2);
}

Test(qq_spells, victory_spell_counts_opponents_who_lost_creatures)
{
    qq_state *st = fresh(3);
    int hag = card(st, 0, "witching_hag"), vic = card(st, 1, "victory_spell");
    int dd = card(st, 2, "deathdealer");
    place(st, hag, 0, QQ_Z_READY, HAG_L2);
    place(st, dd, 1, QQ_Z_READY, DD_L1);
    int spell = place(st, vic, 0, QQ_Z_READY, VICTORY_SPELL);
    reject(st, 0, "after your attack", "cast %d", spell);
    act(st, 0, "attack");
    cr_assert_eq(st->phase, QQ_P_CAPTURE);
    act(st, 0, "cast %d", spell);
    cr_assert_eq(st->players[0].glory, 1);
    free(st);
}

/* ---- basic cards, Immunity ---- */

Test(qq_basics, portal_turned_to_1_quiddity_when_only_portals_are_left)
{
    qq_state *st = fresh(2);
    int portal = place(st, 2, 0, QQ_Z_ACTIVE, 3);   /* draw 2 */
    int other = place(st, 2, 0, QQ_Z_USED, -1);
    (void)other;
    reject(st, 0, "nothing but Portals", "turn %d", portal);
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == 0 && st->dice[d].zone == QQ_Z_BAG) {
            st->dice[d].zone = QQ_Z_WILDS;
            st->dice[d].owner = -1;
        }
    }
    ok(st);
    act(st, 0, "turn %d", portal);
    cr_assert_eq(qq_face_of(st, portal)->q, 1);
    cr_assert_eq(qq_quiddity_available(st), 1);
    free(st);
}

Test(qq_basics, immunity_is_known_for_no_card_and_spares_own_effects)
{
    for (int c = 0; c < qq_cards_count; c++)
        cr_assert(!qq_card_immune(c), "%s", qq_cards[c].id);
    /* a Quartifact's power reaches its own carrier */
    qq_state *st = fresh(2);
    int dd = card(st, 0, "deathdealer");
    int d = place(st, dd, 0, QQ_Z_READY, DD_L1);
    int q = -1;
    for (int e = 0; e < st->dice_count; e++) {
        if (st->dice[e].quest_die) {
            q = e;
            break;
        }
    }
    st->dice[q].zone = QQ_Z_ATTACHED;
    st->dice[q].owner = 0;
    st->dice[q].host = (int16_t)d;
    st->dice[q].face = 3;
    ok(st);
    cr_assert(!qq_shielded(st, d, 0, QQ_SRC_QUARTIFACT));
    cr_assert_eq(qq_attack(st, d, -1), 3 + qq_quartifact_bonus(
                                               st->quest_slots[0].type));
    free(st);
}

Test(qq_basics, power_moves_round_trip_as_text)
{
    const char *moves[] = {"summon 12 7", "copy 12 7", "use 7 3 5", "turn 4",
                           "cast 7 12 15", "revive 9 2", "exchange 30",
                           "recall 8", "trade 4 quake-dragon", "pass",
                           "use 7", "cast 7 3", NULL};
    for (int i = 0; moves[i] != NULL; i++) {
        rules_error err;
        json_t *a = qq_engine.parse_move(NULL, 0, moves[i], &err);
        cr_assert_not_null(a, "%s: %s", moves[i], err.message);
        char *back = qq_engine.format_move(NULL, 0, a);
        cr_assert_str_eq(back, moves[i]);
        free(back);
        json_decref(a);
    }
}
