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

/* Death Spell: one victim per opponent who has one (all combinations). */
static void death_spell_moves(lister *l, int d)
{
    const qq_state *st = l->st;
    int victims[RULES_MAX_SEATS][QQ_MAX_BAND], nv[RULES_MAX_SEATS] = {0};
    int opp[RULES_MAX_SEATS], no = 0;
    for (int s = 0; s < st->seats; s++) {
        if (s == st->turn)
            continue;
        for (int t = 0; t < st->dice_count && nv[s] < QQ_MAX_BAND; t++) {
            const qq_face *f = qq_face_of(st, t);
            if (st->dice[t].owner == s && st->dice[t].zone == QQ_Z_READY &&
                f != NULL && (f->flags & QQ_FACE_CREATURE) &&
                qq_defense(st, t) <= 6 &&
                !qq_shielded(st, t, st->turn, QQ_SRC_SPELL))
                victims[s][nv[s]++] = t;
        }
        if (nv[s] > 0)
            opp[no++] = s;
    }
    if (no == 0) {
        try_move(l, json_pack("{s:s,s:i}", "type", "cast", "die", d));
        return;
    }
    int idx[RULES_MAX_SEATS] = {0};
    for (int count = 0; count < 512; count++) {
        int pick[RULES_MAX_SEATS];
        for (int i = 0; i < no; i++)
            pick[i] = victims[opp[i]][idx[i]];
        /* sorted */
        for (int i = 1; i < no; i++) {
            for (int k = i; k > 0 && pick[k] < pick[k - 1]; k--) {
                int t = pick[k];
                pick[k] = pick[k - 1];
                pick[k - 1] = t;
            }
        }
        if (no == 1) {
            try_move(l, json_pack("{s:s,s:i,s:i}", "type", "cast", "die", d,
                                  "target", pick[0]));
        } else {
            json_t *list = json_array();
            for (int i = 0; i < no; i++)
                json_array_append_new(list, json_integer(pick[i]));
            try_move(l, json_pack("{s:s,s:i,s:o}", "type", "cast", "die", d,
                                  "targets", list));
        }
        /* subsets of fewer opponents are rejected when a victim exists;
         * the product of choices is enough */
        int i = 0;
        while (i < no && ++idx[i] == nv[opp[i]]) {
            idx[i] = 0;
            i++;
        }
        if (i == no)
            break;
    }
}

/* Targets of a spell: every die in play. */
static void cast_moves(lister *l, int d)
{
    const qq_state *st = l->st;
    if (qq_power(st, d) == QQ_POW_DEATH_SPELL) {
        death_spell_moves(l, d);
        return;
    }
    try_move(l, json_pack("{s:s,s:i}", "type", "cast", "die", d));
    for (int t = 0; t < st->dice_count; t++) {
        int z = st->dice[t].zone;
        if (z == QQ_Z_READY || z == QQ_Z_QUEST ||
            ((z == QQ_Z_USED || z == QQ_Z_ACTIVE) &&
             (st->dice[t].flags & QQ_F_FELL)))
            try_move(l, json_pack("{s:s,s:i,s:i}", "type", "cast", "die", d,
                                  "target", t));
    }
}

static void react_moves(lister *l)
{
    const qq_state *st = l->st;
    try_move(l, json_pack("{s:s}", "type", "pass"));
    for (int d = 0; d < st->dice_count; d++) {
        const qq_die *die = &st->dice[d];
        if (die->owner != l->seat)
            continue;
        if (die->zone == QQ_Z_READY) {
            const qq_face *f = qq_face_of(st, d);
            if (f != NULL && (f->flags & QQ_FACE_SPELL))
                cast_moves(l, d);
        }
        if ((die->flags & QQ_F_FELL) && die->zone == QQ_Z_USED) {
            for (int q = 0; q < st->dice_count; q++) {
                if (st->dice[q].owner == l->seat &&
                    st->dice[q].zone == QQ_Z_USED && q != d)
                    try_move(l, json_pack("{s:s,s:i,s:i}", "type", "revive",
                                          "die", d, "cull", q));
            }
        }
    }
}

static void trigger_moves(lister *l)
{
    const qq_state *st = l->st;
    try_move(l, json_pack("{s:s}", "type", "pass"));
    int p = st->trigger_pow[st->trigger];
    for (int e = 0; e < st->dice_count; e++) {
        switch (p) {
        case QQ_POW_DEATHDEALER:
            try_die(l, "exchange", e);
            break;
        case QQ_POW_STRONG_WITCHING_HAG:
            try_die(l, "recall", e);
            break;
        case QQ_POW_STRONG_QUESTING_WIZARD:
            try_die(l, "cull", e);
            break;
        case QQ_POW_SHAPING_INCANTATION:
            if (st->dice[e].owner != st->turn ||
                st->dice[e].zone != QQ_Z_USED)
                break;
            for (int s = 0; s < st->slot_count; s++)
                try_move(l, json_pack("{s:s,s:i,s:s}", "type", "trade",
                                      "die", e, "card",
                                      qq_cards[st->slots[s].card].id));
            break;
        default:
            break;
        }
    }
    if (p == QQ_POW_STRONG_DEVOTEE)
        capture_moves(l);
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
            try_die(l, "turn", d);
            const qq_card_def *own = &qq_cards[st->slots[die->slot].card];
            if (own->power == QQ_POW_STRONG_OOZE) {
                for (int t = 0; t < st->dice_count; t++) {
                    if (st->dice[t].owner != st->turn &&
                        st->dice[t].zone == QQ_Z_READY)
                        try_move(l, json_pack("{s:s,s:i,s:i}", "type",
                                              "summon", "die", d, "copy", t));
                }
            }
            if (own->power == QQ_POW_GROWTH_INCANTATION) {
                for (int a = 0; a < st->dice_count; a++) {
                    if (a == d || st->dice[a].owner != st->turn ||
                        st->dice[a].zone != QQ_Z_ACTIVE)
                        continue;
                    try_move(l, json_pack("{s:s,s:i,s:[i]}", "type", "use",
                                          "die", d, "dice", a));
                    for (int b = a + 1; b < st->dice_count; b++) {
                        if (b != d && st->dice[b].owner == st->turn &&
                            st->dice[b].zone == QQ_Z_ACTIVE)
                            try_move(l, json_pack(
                                "{s:s,s:i,s:[i,i]}", "type", "use", "die", d,
                                "dice", a, b));
                    }
                }
            }
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
            if (qq_cards[st->slots[die->slot].card].power ==
                QQ_POW_STRONG_OOZE) {
                for (int t = 0; t < st->dice_count; t++) {
                    if (st->dice[t].owner != st->turn &&
                        st->dice[t].zone == QQ_Z_READY)
                        try_move(l, json_pack("{s:s,s:i,s:i}", "type", "copy",
                                              "die", d, "target", t));
                }
            }
            const qq_face *face = qq_face_of(st, d);
            if (face == NULL || !(face->flags & QQ_FACE_SPELL))
                continue;
            cast_moves(l, d);
        }
    }
}

/* The form of each kind of move in text notation, in the order a player
 * meets them in a turn. legal() lists the forms of the kinds its moves
 * are of, so a heading never offers a move apply refuses ("pass" where
 * only "end" ends the turn). */
static const struct move_form {
    const char *type;
    const char *form;
} move_forms[] = {
    {"first", "first score | first quest"},
    {"exchange", "exchange DIE"},
    {"recall", "recall DIE"},
    {"trade", "trade DIE CARD"},
    {"cull", "cull DIE"},
    {"done", "done"},
    {"seize", "seize SEAT"},
    {"summon", "summon DIE [COPIED]"},
    {"copy", "copy DIE TARGET"},
    {"turn", "turn DIE"},
    {"ready", "ready DIE"},
    {"use", "use DIE [DIE DIE]"},
    {"cast", "cast DIE [TARGET...]"},
    {"reroll", "reroll DIE [OTHER]"},
    {"draw", "draw DIE"},
    {"attach", "attach DIE"},
    {"attack", "attack"},
    {"quest", "quest start QUEST DIE..."},
    {"challenge", "challenge QUEST DIE..."},
    {"defend", "defend DIE..."},
    {"revive", "revive DIE QUIDDITY"},
    {"take", "take"},
    {"leave", "leave"},
    {"capture", "capture CARD"},
    {"pass", "pass"},
    {"end", "end"},
};

json_t *qq_legal_forms(const json_t *moves)
{
    json_t *forms = json_array();
    for (size_t f = 0; f < sizeof move_forms / sizeof move_forms[0]; f++) {
        size_t i;
        const json_t *move;
        json_array_foreach(moves, i, move) {
            const char *type =
                json_string_value(json_object_get(move, "type"));
            if (type != NULL && strcmp(type, move_forms[f].type) == 0) {
                json_array_append_new(forms,
                                      json_string(move_forms[f].form));
                break;
            }
        }
    }
    return forms;
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
        for (int d = 0; d < st->dice_count; d++) {
            const qq_face *f = qq_face_of(st, d);
            if (st->dice[d].owner == seat && st->dice[d].zone == QQ_Z_READY &&
                f != NULL && (f->flags & QQ_FACE_SPELL))
                try_move(&l, json_pack("{s:s,s:i}", "type", "cast", "die", d));
        }
        break;
    case QQ_P_REACT:
        react_moves(&l);
        break;
    case QQ_P_TRIGGER:
        trigger_moves(&l);
        break;
    case QQ_P_FIRST:
        try_move(&l, json_pack("{s:s,s:s}", "type", "first", "do", "score"));
        try_move(&l, json_pack("{s:s,s:s}", "type", "first", "do", "quest"));
        break;
    default:
        break;
    }
    free(l.scratch);
    return l.moves;
}
