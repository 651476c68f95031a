/* moves.c: the legal moves of a seat. Candidates of every form are built
 * and each is tried on a scratch copy of the state, so the list holds
 * exactly what apply accepts. */
#include "qq_internal.h"

#include <stdlib.h>
#include <string.h>

#define SUBSET_LIMIT 6     /* all bands listed up to this many creatures */
#define ORDER_LIMIT 5      /* all defender orders listed up to this size */

typedef struct lister {
    const qq_state *st;
    int seat;
    json_t *moves;
    qq_state *scratch;
} lister;

/* Adds action (stolen) when apply accepts it. */
static void try_move(lister *l, json_t *action)
{
    memcpy(l->scratch, l->st, sizeof *l->scratch);
    rules_error err;
    if (qq_apply_move(l->scratch, l->seat, action, &err))
        json_array_append_new(l->moves, action);
    else
        json_decref(action);
}

static void try_die(lister *l, const char *type, int d)
{
    try_move(l, json_pack("{s:s,s:i}", "type", type, "die", d));
}

static json_t *band_json(const int *dice, unsigned mask, int n)
{
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        if (mask & (1u << i))
            json_array_append_new(list, json_integer(dice[i]));
    }
    return list;
}

static bool quest_moves(lister *l)
{
    const qq_state *st = l->st;
    int eligible[QQ_MAX_DICE], n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_face *face = qq_face_of(st, d);
        if (st->dice[d].owner == st->turn && st->dice[d].zone == QQ_Z_READY &&
            face != NULL && (face->flags & QQ_FACE_CREATURE) &&
            qq_card_of(st, d)->power != QQ_POW_ASSISTANT_REROLL)
            eligible[n++] = d;
    }
    if (n == 0 || st->quest_count == 0)
        return true;
    bool complete = n <= SUBSET_LIMIT;
    for (int q = 0; q < st->quest_count; q++) {
        const char *id = qq_quests[st->quest_slots[q].type].id;
        const char *type = qq_quest_owner(st, q) < 0 ? "quest" : "challenge";
        if (complete) {
            for (unsigned mask = 1; mask < (1u << n); mask++)
                try_move(l, json_pack("{s:s,s:s,s:o}", "type", type, "quest",
                                      id, "dice",
                                      band_json(eligible, mask, n)));
        } else {
            /* A sample: each creature alone and all of them. */
            for (int i = 0; i < n; i++)
                try_move(l, json_pack("{s:s,s:s,s:[i]}", "type", type,
                                      "quest", id, "dice", eligible[i]));
            json_t *all = json_array();
            for (int i = 0; i < n; i++)
                json_array_append_new(all, json_integer(eligible[i]));
            try_move(l, json_pack("{s:s,s:s,s:o}", "type", type, "quest", id,
                                  "dice", all));
        }
    }
    return complete;
}

static void permutations(lister *l, int *band, int k, int n)
{
    if (k == n) {
        json_t *list = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(list, json_integer(band[i]));
        try_move(l, json_pack("{s:s,s:o}", "type", "defend", "dice", list));
        return;
    }
    for (int i = k; i < n; i++) {
        int t = band[k];
        band[k] = band[i];
        band[i] = t;
        permutations(l, band, k + 1, n);
        band[i] = band[k];
        band[k] = t;
    }
}

static bool challenge_moves(lister *l)
{
    const qq_state *st = l->st;
    int band[QQ_MAX_BAND], n = 0;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner == l->seat && die->zone == QQ_Z_QUEST &&
            die->quest == st->challenge_quest &&
            ((die->flags & QQ_F_CHALLENGER) != 0) == (l->seat == st->turn))
            band[n++] = d;
    }
    if (n <= ORDER_LIMIT) {
        permutations(l, band, 0, n);
        return true;
    }
    /* A sample: the natural order and its rotations. */
    for (int r = 0; r < n; r++) {
        json_t *list = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(list, json_integer(band[(i + r) % n]));
        try_move(l, json_pack("{s:s,s:o}", "type", "defend", "dice", list));
    }
    return false;
}

static void capture_moves(lister *l)
{
    for (int s = 0; s < l->st->slot_count; s++)
        try_move(l, json_pack("{s:s,s:s}", "type", "capture", "card",
                              qq_cards[l->st->slots[s].card].id));
}

static void main_moves(lister *l)
{
    const qq_state *st = l->st;
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner != st->turn)
            continue;
        if (die->zone == QQ_Z_ACTIVE) {
            try_die(l, "summon", d);
            try_die(l, "ready", d);
            try_die(l, "use", d);
            try_die(l, "draw", d);
            try_die(l, "reroll", d);
            const qq_card_def *card = qq_card_of(st, d);
            const qq_face *face = qq_face_of(st, d);
            if (card->power == QQ_POW_ASSISTANT_REROLL &&
                (face->flags & QQ_FACE_REROLL)) {
                for (int o = 0; o < st->dice_count; o++) {
                    if (o != d && st->dice[o].owner == st->turn &&
                        st->dice[o].zone == QQ_Z_ACTIVE)
                        try_move(l, json_pack("{s:s,s:i,s:i}", "type",
                                              "reroll", "die", d, "other", o));
                }
            }
        } else if (die->zone == QQ_Z_READY) {
            try_die(l, "attach", d);
            const qq_face *face = qq_face_of(st, d);
            if (face == NULL || !(face->flags & QQ_FACE_SPELL))
                continue;
            try_die(l, "cast", d);
            for (int t = 0; t < st->dice_count; t++) {
                if (st->dice[t].zone == QQ_Z_READY)
                    try_move(l, json_pack("{s:s,s:i,s:i}", "type", "cast",
                                          "die", d, "target", t));
            }
        }
    }
}

json_t *qq_legal_moves(const qq_state *st, int seat, bool *complete)
{
    lister l = {st, seat, json_array(), malloc(sizeof(qq_state))};
    if (l.scratch == NULL)
        abort();
    *complete = true;
    rules_pending p;
    qq_pending(st, &p);
    if (seat < 0 || seat >= st->seats || !(p.seats & (1u << seat))) {
        free(l.scratch);
        return l.moves;
    }
    switch (st->phase) {
    case QQ_P_CULL:
        try_move(&l, json_pack("{s:s}", "type", "done"));
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_USED)
                try_die(&l, "cull", d);
        }
        break;
    case QQ_P_SEIZE:
        for (int s = 0; s < st->seats; s++)
            try_move(&l, json_pack("{s:s,s:i}", "type", "seize", "seat", s));
        break;
    case QQ_P_SPECIAL:
        try_move(&l, json_pack("{s:s}", "type", "pass"));
        capture_moves(&l);
        break;
    case QQ_P_MAIN:
        main_moves(&l);
        if (qq_must_fight(st)) {
            try_move(&l, json_pack("{s:s}", "type", "attack"));
            *complete = quest_moves(&l);
        } else {
            capture_moves(&l);
            try_move(&l, json_pack("{s:s}", "type", "end"));
        }
        break;
    case QQ_P_DEFEND:
        for (int d = 0; d < st->dice_count; d++) {
            if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY)
                try_move(&l, json_pack("{s:s,s:[i]}", "type", "defend",
                                       "dice", d));
        }
        break;
    case QQ_P_CHALLENGE:
        *complete = challenge_moves(&l);
        break;
    case QQ_P_TAKEOVER:
        try_move(&l, json_pack("{s:s}", "type", "take"));
        try_move(&l, json_pack("{s:s}", "type", "leave"));
        break;
    case QQ_P_CAPTURE:
        capture_moves(&l);
        try_move(&l, json_pack("{s:s}", "type", "end"));
        break;
    default:
        break;
    }
    free(l.scratch);
    return l.moves;
}
