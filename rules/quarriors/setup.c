/* setup.c: the options and a new match: the Wilds, the starting bags and
 * the Quest Area, all chosen with the match seed. */
#include "qq_internal.h"

#include <stdlib.h>
#include <string.h>

json_t *qq_options(void)
{
    return json_pack(
        "{s:{s:s,s:b,s:s},s:{s:s,s:b,s:s},s:{s:s,s:b,s:s}}",
        "quests", "type", "boolean", "default", 1, "description",
        "play with the Quartifacts quest rules (Squire, Quest Area, glory "
        "goals 25/19/15)",
        "expert", "type", "boolean", "default", 0, "description",
        "Expert Rules: cull only the dice that scored, glory only for "
        "culled dice",
        "quarmageddon", "type", "boolean", "default", 0, "description",
        "add the Quarmageddon creature and spell classes to the Wilds pool "
        "(their powers are unknown: faces only)");
}

/* The dice of each card, as qq_setup deals them: the starting bags'
 * Basic Quiddity and Assistants, the rest on the cards. Play moves dice
 * but never makes or loses one (qq_check counts them). */
int qq_card_dice_total(const qq_state *st, int card)
{
    const char *id = qq_cards[card].id;
    if (strcmp(id, "basic_quiddity") == 0)
        return st->seats * qq_counts.bag_quiddity;  /* none on the card */
    if (strcmp(id, "assistant") == 0)
        return qq_counts.card_assistant + st->seats * qq_counts.bag_assistant;
    if (strcmp(id, "portal") == 0)
        return qq_counts.card_portal;
    if (strcmp(id, "squire") == 0)
        return qq_counts.card_squire;
    return qq_counts.card_other;
}

static int add_die(qq_state *st, int slot, int owner, int zone)
{
    qq_die *die = &st->dice[st->dice_count];
    die->slot = (int8_t)slot;
    die->quest_die = 0;
    die->owner = (int8_t)owner;
    die->zone = (int8_t)zone;
    die->face = -1;
    die->quest = -1;
    die->host = -1;
    die->flags = 0;
    die->last_face = -1;
    die->copy_card = -1;
    die->copy_face = -1;
    return st->dice_count++;
}

static int add_slot(qq_state *st, const char *card)
{
    st->slots[st->slot_count].card = qq_card_find(card);
    return st->slot_count++;
}

/* Chooses count classes of kind at random and one card of each. */
static void choose_classes(qq_state *st, int kind, int count)
{
    const char *classes[64];
    int n = 0;
    for (int c = 0; c < qq_cards_count; c++) {
        const qq_card_def *card = &qq_cards[c];
        if (card->kind != kind)
            continue;
        if (card->set != QQ_SET_BASE &&
            !(st->quarmageddon && card->set == QQ_SET_QUARMAGEDDON))
            continue;
        bool seen = false;
        for (int i = 0; i < n; i++)
            seen = seen || strcmp(classes[i], card->klass) == 0;
        if (!seen)
            classes[n++] = card->klass;
    }
    rules_rng_shuffle(&st->rng, classes, (size_t)n, sizeof classes[0]);
    for (int i = 0; i < count && i < n; i++) {
        int versions[8] = {0}, nv = 0;
        for (int c = 0; c < qq_cards_count && nv < 8; c++) {
            if (strcmp(qq_cards[c].klass, classes[i]) == 0)
                versions[nv++] = c;
        }
        int pick = versions[rules_rng_below(&st->rng, (uint32_t)nv)];
        int slot = st->slot_count++;
        st->slots[slot].card = pick;
        for (int k = 0; k < qq_counts.card_other; k++)
            add_die(st, slot, -1, QQ_Z_WILDS);
    }
}

qq_state *qq_setup(const json_t *options, int seats,
                   const uint8_t seed[RULES_SEED_BYTES], rules_error *err)
{
    json_t *declared = qq_options();
    json_t *resolved = rules_resolve_options(declared, options, err);
    json_decref(declared);
    if (resolved == NULL)
        return NULL;
    if (seats < 2 || seats > 4) {
        json_decref(resolved);
        rules_fail(err, "Quarriors is for 2 to 4 players");
        return NULL;
    }
    qq_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        abort();
    st->seats = seats;
    st->quests = json_is_true(json_object_get(resolved, "quests"));
    st->expert = json_is_true(json_object_get(resolved, "expert"));
    st->quarmageddon = json_is_true(json_object_get(resolved, "quarmageddon"));
    json_decref(resolved);
    st->goal = st->quests ? qq_goal_quests[seats] : qq_goal_base[seats];
    rules_rng_init(&st->rng, seed);

    /* Basic cards (and the Squire with quests), then 3 spell and 7
     * creature classes. */
    int quiddity = add_slot(st, "basic_quiddity");
    int assistant = add_slot(st, "assistant");
    int portal = add_slot(st, "portal");
    for (int k = 0; k < qq_counts.card_assistant; k++)
        add_die(st, assistant, -1, QQ_Z_WILDS);
    for (int k = 0; k < qq_counts.card_portal; k++)
        add_die(st, portal, -1, QQ_Z_WILDS);
    if (st->quests) {
        int squire = add_slot(st, "squire");
        for (int k = 0; k < qq_counts.card_squire; k++)
            add_die(st, squire, -1, QQ_Z_WILDS);
    }
    choose_classes(st, QQ_KIND_SPELL, 3);
    choose_classes(st, QQ_KIND_CREATURE, 7);
    for (int s = 0; s < seats; s++) {
        for (int k = 0; k < qq_counts.bag_quiddity; k++)
            add_die(st, quiddity, s, QQ_Z_BAG);
        for (int k = 0; k < qq_counts.bag_assistant; k++)
            add_die(st, assistant, s, QQ_Z_BAG);
    }

    /* The Quest Area: one version of each quest type in use, with its two
     * quest dice. */
    if (st->quests) {
        for (int t = 0; t < qq_quests_count; t++) {
            if (!(qq_quests_in_use[seats] & (1u << t)))
                continue;
            int q = st->quest_count++;
            st->quest_slots[q].type = t;
            st->quest_slots[q].version = (int)rules_rng_below(
                &st->rng, (uint32_t)qq_quests[t].version_count);
            for (int k = 0; k < 2; k++) {
                int d = add_die(st, q, -1, QQ_Z_QCARD);
                st->dice[d].quest_die = 1;
            }
        }
    }
    for (int s = 0; s < RULES_MAX_SEATS; s++)
        st->chosen[s] = -1;
    st->challenge_quest = -1;
    st->defender = -1;
    st->react_seat = -1;
    st->trigger = -1;
    st->last_roll = (qq_quest_roll){.die = -1, .seat = -1, .face = -1,
                                    .seized_from = -1};
    st->turn = 0;   /* seat 0 starts (CLARIFICATIONS: general rulings) */
    qq_start_turn(st);
    return st;
}
