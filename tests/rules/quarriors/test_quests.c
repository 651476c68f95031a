/* The rulebook's quest cases, built as positions and played through the
 * engine: a challenge that wipes out the questers and takes over the
 * quest, one that does not, and seizing the last quest die. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness.h"
#include "quarriors/qq_internal.h"
#include "quarriors/quarriors.h"
#include "wilds.h"

/* A 2..4-seat match with quests whose first creature slot holds card. */
static qq_state *position(int seats, const char *card, int *slot)
{
    uint8_t seed[RULES_SEED_BYTES];
    harness_seed(77, seed);
    rules_error err;
    qq_state *st = (qq_state *)qq_engine.setup(NULL, seats, seed, &err);
    cr_assert_not_null(st, "%s", err.message);
    for (int s = 0; s < st->slot_count; s++) {
        if (qq_cards[st->slots[s].card].kind == QQ_KIND_CREATURE) {
            qq_test_put_card(st, s, card);
            *slot = s;
            break;
        }
    }
    /* Clear the table: every active die back to the bag, turn 0 main. */
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].zone == QQ_Z_ACTIVE) {
            st->dice[d].zone = QQ_Z_BAG;
            st->dice[d].face = -1;
        }
    }
    st->phase = QQ_P_MAIN;
    return st;
}

/* Takes a die of slot from the Wilds and puts it, showing face, in zone of
 * seat (quest q for QQ_Z_QUEST). */
static int place(qq_state *st, int slot, int seat, int zone, int face, int q)
{
    for (int d = 0; d < st->dice_count; d++) {
        qq_die *die = &st->dice[d];
        if (!die->quest_die && die->slot == slot && die->zone == QQ_Z_WILDS) {
            die->owner = (int8_t)seat;
            die->zone = (int8_t)zone;
            die->face = (int8_t)face;
            die->quest = (int8_t)q;
            return d;
        }
    }
    cr_assert_fail("no die left on slot %d", slot);
    return -1;
}

static void apply_text(qq_state *st, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void apply_text(qq_state *st, int seat, const char *fmt, ...)
{
    char text[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    harness_apply_text(&qq_engine, (rules_state *)st, seat, text);
}

/* Deathdealer faces: 3 = level 1, 3/2; 5 = level 2, 4/4. */
#define DD_L1 3
#define DD_L2 5

Test(qq_challenge, wipes_out_the_questers_and_takes_over_the_quest)
{
    int slot;
    qq_state *st = position(2, "deathdealer", &slot);
    int quester = place(st, slot, 1, QQ_Z_QUEST, DD_L1, 0);
    int hero = place(st, slot, 0, QQ_Z_READY, DD_L2, -1);
    rules_error err;
    cr_assert(qq_check(st, &err), "%s", err.message);

    /* 4 damage kills the 3/2 quester; its 3 damage does not kill the 4/4. */
    apply_text(st, 0, "challenge exqualibur %d", hero);
    cr_assert_eq(st->dice[quester].zone, QQ_Z_USED);
    cr_assert_eq(st->players[0].glory, 1, "1 glory per creature destroyed");
    cr_assert_eq(st->phase, QQ_P_TAKEOVER);
    apply_text(st, 0, "take");
    cr_assert_eq(st->dice[hero].zone, QQ_Z_QUEST);
    cr_assert_eq(qq_quest_owner(st, 0), 0, "the challenger now quests");
    cr_assert_eq(st->phase, QQ_P_CAPTURE);
    free(st);
}

Test(qq_challenge, survivors_go_home_when_a_quester_survives)
{
    int slot, slot2 = -1;
    qq_state *st = position(2, "deathdealer", &slot);
    /* A second creature card: Defender of the Pale (face 3 = L1 1/5). */
    for (int s = slot + 1; s < st->slot_count; s++) {
        if (qq_cards[st->slots[s].card].kind == QQ_KIND_CREATURE) {
            qq_test_put_card(st, s, "defender_of_the_pale");
            slot2 = s;
            break;
        }
    }
    int q_dd = place(st, slot, 1, QQ_Z_QUEST, DD_L1, 0);
    int q_pale = place(st, slot2, 1, QQ_Z_QUEST, 3, 0);
    int c_dd = place(st, slot, 0, QQ_Z_READY, DD_L2, -1);
    int c_pale = place(st, slot2, 0, QQ_Z_READY, 3, -1);
    int lo = c_dd < c_pale ? c_dd : c_pale, hi = c_dd < c_pale ? c_pale : c_dd;
    apply_text(st, 0, "challenge exqualibur %d %d", hi, lo);

    /* Both sides order their defenders in secret. */
    rules_pending p;
    qq_engine.pending((rules_state *)st, &p);
    cr_assert_eq(p.wait, RULES_WAIT_SIMULTANEOUS);
    cr_assert_eq(p.seats, 3u);
    cr_assert(strstr(p.decision, "challenge") != NULL);
    apply_text(st, 1, "defend %d %d", q_dd, q_pale);
    json_t *view = qq_engine.view((rules_state *)st, 0);
    char *text = json_dumps(view, JSON_COMPACT);
    cr_assert_null(strstr(text, "my_order"), "seat 0 sees seat 1's order");
    free(text);
    json_decref(view);
    apply_text(st, 0, "defend %d %d", c_pale, c_dd);

    /* 5 damage: the 3/2 falls, 3 left is lost on the 1/5. 4 damage back is
     * lost on the challenger's 1/5. */
    cr_assert_eq(st->dice[q_dd].zone, QQ_Z_USED);
    cr_assert_eq(st->dice[q_pale].zone, QQ_Z_QUEST);
    cr_assert_eq(st->players[0].glory, 1);
    cr_assert_eq(st->dice[c_dd].zone, QQ_Z_USED, "survivors go home");
    cr_assert_eq(st->dice[c_pale].zone, QQ_Z_USED);
    cr_assert_eq(qq_quest_owner(st, 0), 1, "the quester is still on it");
    free(st);
}

Test(qq_quest, seizing_the_last_quest_die)
{
    int slot;
    qq_state *st = position(3, "deathdealer", &slot);
    /* Holy Quail is quest 0 with 3 players; both its dice are held. */
    cr_assert_str_eq(qq_quests[st->quest_slots[0].type].id, "holy_quail");
    int held[2], n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].quest_die && st->dice[d].slot == 0)
            held[n++] = d;
    }
    for (int i = 0; i < 2; i++) {
        st->dice[held[i]].zone = QQ_Z_HELD;
        st->dice[held[i]].owner = (int8_t)(i + 1);
        st->dice[held[i]].face = 3;   /* a Quartifact face */
    }
    int band = place(st, slot, 0, QQ_Z_QUEST, DD_L1, 0);
    st->turn = 0;
    qq_start_turn(st);
    cr_assert_eq(st->dice[band].zone, QQ_Z_USED);
    cr_assert_eq(st->phase, QQ_P_CULL, "cull first, then quest glory");
    apply_text(st, 0, "done");
    cr_assert_eq(st->players[0].glory, 2, "the quest scores its glory once");
    cr_assert_eq(st->phase, QQ_P_SEIZE);
    harness_reject_text(&qq_engine, (rules_state *)st, 0, "seize 0",
                        "holds one");
    apply_text(st, 0, "seize 2");
    /* Seat 2 lost it: rolled by seat 0, held by him or back on the card. */
    cr_assert(st->dice[held[1]].owner != 2);
    cr_assert_eq(st->dice[held[0]].owner, 1, "seat 1 keeps its die");
    free(st);
}

Test(qq_quest, completing_a_quest_culls_per_creature)
{
    int slot;
    qq_state *st = position(2, "deathdealer", &slot);
    int a = place(st, slot, 0, QQ_Z_QUEST, DD_L1, 0);
    int b = place(st, slot, 0, QQ_Z_QUEST, DD_L1, 0);
    st->turn = 0;
    qq_start_turn(st);
    /* Two level-1 creatures complete the level-2 Exqualibur. */
    cr_assert_eq(st->culls_left, 2);
    apply_text(st, 0, "cull %d", a);
    apply_text(st, 0, "cull %d", b);
    cr_assert_eq(st->players[0].glory, 3, "Exqualibur's glory, once");
    cr_assert_eq(st->dice[a].zone, QQ_Z_WILDS);
    cr_assert_neq(st->phase, QQ_P_CULL);
    free(st);
}

Test(qq_quest, a_band_short_of_levels_fails)
{
    int slot;
    qq_state *st = position(2, "deathdealer", &slot);
    int a = place(st, slot, 0, QQ_Z_QUEST, DD_L1, 0);
    st->turn = 0;
    qq_start_turn(st);
    cr_assert_eq(st->players[0].glory, 0, "level 1 < Exqualibur's 2");
    cr_assert_eq(st->dice[a].zone, QQ_Z_USED);
    free(st);
}

/* COMPLETING A QUEST: "If you have some Creatures scoring in the Ready Area
 * and some completing a Quest during the same turn, you get to decide which
 * to do first." Quest first: the questers are already in the Used Pile when
 * the scoring Strong Witching Hag takes a creature die from it. */
Test(qq_quest, the_player_decides_whether_the_quest_or_scoring_comes_first)
{
    int slot, slot2 = -1;
    qq_state *st = position(2, "strong_witching_hag", &slot);
    for (int s = slot + 1; s < st->slot_count; s++) {
        if (qq_cards[st->slots[s].card].kind == QQ_KIND_CREATURE) {
            qq_test_put_card(st, s, "deathdealer");
            slot2 = s;
            break;
        }
    }
    int hag = place(st, slot, 0, QQ_Z_READY, 5, -1);   /* level 2, 4/5 */
    int quester = place(st, slot2, 0, QQ_Z_QUEST, DD_L2, 0);
    qq_state *other = (qq_state *)qq_engine.clone((rules_state *)st);
    st->turn = 0;
    qq_start_turn(st);
    apply_text(st, 0, "first quest");
    cr_assert_eq(st->dice[quester].zone, QQ_Z_USED, "the quest went first");
    cr_assert_eq(st->dice[hag].zone, QQ_Z_USED, "then the Hag scored");
    cr_assert_eq(st->phase, QQ_P_TRIGGER, "the Hag may take the quester");
    apply_text(st, 0, "recall %d", quester);
    cr_assert_eq(st->dice[quester].zone, QQ_Z_ACTIVE);
    cr_assert_eq(st->phase, QQ_P_CULL);
    apply_text(st, 0, "done");
    cr_assert_eq(st->players[0].glory, 3 + 3, "the Hag's and the quest's");
    free(st);

    /* Scoring first: the quester is still on its quest when the Hag
     * scores, so the Hag has nothing to take. */
    other->turn = 0;
    qq_start_turn(other);
    apply_text(other, 0, "first score");
    cr_assert_eq(other->phase, QQ_P_CULL);
    cr_assert_eq(other->dice[quester].zone, QQ_Z_USED);
    free(other);
}

Test(qq_rules, assistants_never_quest_and_creatures_attack_first)
{
    int slot;
    qq_state *st = position(2, "deathdealer", &slot);
    int assistant = -1;
    for (int d = 0; d < st->dice_count; d++) {
        if (st->dice[d].owner == 0 && st->dice[d].zone == QQ_Z_BAG &&
            strcmp(qq_card_of(st, d)->id, "assistant") == 0) {
            assistant = d;
            break;
        }
    }
    st->dice[assistant].zone = QQ_Z_READY;
    st->dice[assistant].face = 4;   /* level 1, 1/2 */
    char text[64];
    snprintf(text, sizeof text, "quest start exqualibur %d", assistant);
    harness_reject_text(&qq_engine, (rules_state *)st, 0, text, "Assistants");
    harness_reject_text(&qq_engine, (rules_state *)st, 0, "end", "attack");
    harness_reject_text(&qq_engine, (rules_state *)st, 1, "attack",
                        "not your turn");
    free(st);
}

Test(qq_rules, text_notation_round_trips)
{
    const char *moves[] = {"summon 3", "quest start exqualibur 2 5",
                           "challenge holy-quail 1", "capture quake-dragon",
                           "defend 4 2", "cull 4", "reroll 3 5", "cast 7 12",
                           "seize 2", "attack", "end", NULL};
    for (int i = 0; moves[i] != NULL; i++) {
        rules_error err;
        json_t *a = qq_engine.parse_move(NULL, 0, moves[i], &err);
        cr_assert_not_null(a, "%s: %s", moves[i], err.message);
        char *back = qq_engine.format_move(NULL, 0, a);
        cr_assert_str_eq(back, moves[i]);
        free(back);
        json_decref(a);
    }
    rules_error err;
    cr_assert_null(qq_engine.parse_move(NULL, 0, "summon the dragon", &err));
    cr_assert(err.message[0] != '\0');
}

/* QUARTIFACTS: a Quartifact's powers are "defined on the corresponding
 * Quest Card", and no quest card's Quartifact powers are known (data file:
 * quartifact_powers_per_version null). CLARIFICATIONS.md, DEFAULT for
 * unknown card powers: "a card whose power is unknown has only its die
 * faces". The carrier fights with its own face; it still carries the die
 * until it is destroyed, which sends the die back to its quest card. */
Test(qq_quartifact, an_attached_quartifact_of_unknown_power_adds_nothing)
{
    int slot;
    qq_state *st = position(2, "deathdealer", &slot);
    int relic = -1;
    for (int d = 0; d < st->dice_count && relic < 0; d++) {
        if (st->dice[d].quest_die && st->dice[d].slot == 0)
            relic = d;
    }
    st->dice[relic].zone = QQ_Z_HELD;
    st->dice[relic].owner = 0;
    st->dice[relic].face = 3;   /* a Quartifact face */
    int quester = place(st, slot, 1, QQ_Z_QUEST, DD_L1, 0);   /* 3/2 */
    int hero = place(st, slot, 0, QQ_Z_ACTIVE, DD_L1, -1);    /* 3/2 */
    st->quiddity = 1;
    rules_error err;
    cr_assert(qq_check(st, &err), "%s", err.message);

    apply_text(st, 0, "summon %d", hero);
    apply_text(st, 0, "attach %d", hero);
    cr_assert_eq(st->dice[relic].zone, QQ_Z_ATTACHED);
    cr_assert_eq(st->dice[relic].host, hero);
    cr_assert_eq(qq_attack(st, hero, -1), 3, "only its die face");
    cr_assert_eq(qq_defense(st, hero), 2, "only its die face");

    /* 3 damage each way: both 3/2 creatures fall. */
    apply_text(st, 0, "challenge exqualibur %d", hero);
    cr_assert_eq(st->dice[quester].zone, QQ_Z_USED);
    cr_assert_eq(st->dice[hero].zone, QQ_Z_USED, "the carrier falls too");
    cr_assert_eq(st->players[0].glory, 1);
    cr_assert_neq(st->phase, QQ_P_TAKEOVER, "no challenger survived");
    cr_assert_eq(st->dice[relic].zone, QQ_Z_QCARD,
                 "a destroyed carrier's Quartifact goes back to its card");
    cr_assert_eq(st->dice[relic].owner, -1);
    free(st);
}

/* Strong Scavenging Goblin: "(* face) defense +1 per other creature you
 * have in the Ready Area" (no "while in your Ready Area", unlike Strong
 * Warrior of the Quay). Questing, every creature of its Ready Area is
 * another creature: with two there it defends the quest at 2 + 2. */
Test(qq_challenge, a_questing_strong_scavenging_goblin_counts_the_ready_area)
{
    int slot, slot2 = -1;
    qq_state *st = position(2, "deathdealer", &slot);
    for (int s = slot + 1; s < st->slot_count; s++) {
        if (qq_cards[st->slots[s].card].kind == QQ_KIND_CREATURE) {
            qq_test_put_card(st, s, "strong_scavenging_goblin");
            slot2 = s;
            break;
        }
    }
    int goblin = place(st, slot2, 1, QQ_Z_QUEST, 4, 0);   /* L1 2/2 * */
    place(st, slot, 1, QQ_Z_READY, DD_L1, -1);
    place(st, slot, 1, QQ_Z_READY, DD_L1, -1);
    int hero = place(st, slot, 0, QQ_Z_READY, DD_L1, -1);   /* 3/2 */
    rules_error err;
    cr_assert(qq_check(st, &err), "%s", err.message);
    cr_assert_eq(qq_defense(st, goblin), 4);

    /* 3 damage does not reach defense 4; the goblin's 2 kills the 3/2. */
    apply_text(st, 0, "challenge exqualibur %d", hero);
    cr_assert_eq(st->dice[goblin].zone, QQ_Z_QUEST, "the goblin holds on");
    cr_assert_eq(st->players[0].glory, 0);
    cr_assert_eq(st->dice[hero].zone, QQ_Z_USED);
    cr_assert_eq(qq_quest_owner(st, 0), 1);
    free(st);
}
