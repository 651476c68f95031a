/* legal.c: the moves a seat may make now. Drawing and picking up are
 * listed in full; the play phase lists every discard, character move and
 * single-card add, and a capped sample of larger adds and of new
 * collections (then "complete" is false). Every listed move passes
 * aq_move_check. */
#include "aq_internal.h"

#include <string.h>

#define AQ_STARTS_PER_SIZE 6   /* new collections listed per suit and size */
#define AQ_ADDS_PER_COLLECTION 8
#define AQ_TRIES 300           /* candidates examined per enumeration */
#define AQ_FINAL_SINGLES 10

typedef struct lister {
    const aq_state *s;
    int seat;
    json_t *moves;
    int counts[AQ_NAMES];   /* the seat's hand by name */
    aq_action finals;       /* final phase: the greedy combination */
    int singles;            /* final phase: single plays listed */
} lister;

static bool offer(lister *l, const aq_action *a)
{
    if (!aq_move_check(l->s, l->seat, a, NULL))
        return false;
    json_array_append_new(l->moves, aq_action_encode(a));
    return true;
}

/* In the final phase a play or add is offered as a final play of its own
 * and folded into one growing combination. */
static bool offer_play(lister *l, const aq_action *a)
{
    if (l->s->phase != AQ_PHASE_FINAL)
        return offer(l, a);
    if (l->singles >= AQ_FINAL_SINGLES)
        return false;
    aq_action single;
    memset(&single, 0, sizeof single);
    single.type = AQ_ACT_FINAL;
    single.plays = 1;
    single.play[0].target = a->type == AQ_ACT_ADD ? a->target : 0;
    single.play[0].count = a->names;
    memcpy(single.name, a->name, sizeof a->name[0] * (size_t)a->names);
    single.names = a->names;
    if (!offer(l, &single))
        return false;
    l->singles++;
    aq_action grown = l->finals;
    if (grown.plays < AQ_MAX_FINAL_PLAYS) {
        aq_final_play *fp = &grown.play[grown.plays++];
        fp->target = single.play[0].target;
        fp->first = grown.names;
        fp->count = a->names;
        memcpy(grown.name + grown.names, a->name,
               sizeof a->name[0] * (size_t)a->names);
        grown.names += a->names;
        if (aq_move_check(l->s, l->seat, &grown, NULL))
            l->finals = grown;
    }
    return true;
}

/* Enumerates multisets of size `size` over names[from..n) within the hand
 * counts, calling offer_play on each; stops at *found == cap or when the
 * tries run out. */
typedef struct multiset_walk {
    lister *l;
    aq_action *a;       /* a->name[0..depth) chosen so far */
    const int *names;
    int n;
    int size;
    int cap;
    int found;
    int tries;
    bool need_antiquity;  /* treasures alone are listed once, not per suit */
} multiset_walk;

static void walk(multiset_walk *w, int from, int depth, int used)
{
    if (w->found >= w->cap || w->tries <= 0)
        return;
    if (depth == w->size) {
        w->tries--;
        w->a->names = depth;
        bool antiquity = false;
        for (int i = 0; i < depth; i++)
            antiquity |= aq_card_info(aq_name_first_id(w->a->name[i])).kind ==
                         AQ_ANTIQUITY;
        if ((antiquity || !w->need_antiquity) && offer_play(w->l, w->a))
            w->found++;
        return;
    }
    for (int i = from; i < w->n; i++) {
        int name = w->names[i];
        int already = (i == from) ? used : 0;
        if (w->l->counts[name] <= already)
            continue;
        w->a->name[depth] = name;
        walk(w, i, depth + 1, already + 1);
    }
}

static void list_multisets(lister *l, aq_action *a, const int *names, int n,
                           int size, int cap, bool need_antiquity)
{
    multiset_walk w = {.l = l, .a = a, .names = names, .n = n, .size = size,
                       .cap = cap, .tries = AQ_TRIES,
                       .need_antiquity = need_antiquity};
    walk(&w, 0, 0, 0);
}

/* Card names in the hand that can go into collections. */
static int collectable_names(const lister *l, int *out)
{
    int n = 0;
    for (int name = 0; name < AQ_NAMES; name++) {
        aq_kind kind = aq_card_info(aq_name_first_id(name)).kind;
        if (l->counts[name] > 0 && (kind == AQ_ANTIQUITY || kind == AQ_TREASURE))
            out[n++] = name;
    }
    return n;
}

static void list_starts(lister *l)
{
    aq_action a;
    memset(&a, 0, sizeof a);
    a.type = AQ_ACT_PLAY;
    int names[AQ_NAMES];
    /* One suit's antiquities with any treasures, then treasures alone. */
    for (int suit = 0; suit <= AQ_SUITS; suit++) {
        int n = 0;
        for (int name = 0; name < AQ_NAMES; name++) {
            aq_card c = aq_card_info(aq_name_first_id(name));
            bool fits = (c.kind == AQ_ANTIQUITY && c.suit == suit) ||
                        c.kind == AQ_TREASURE;
            if (fits && l->counts[name] > 0)
                names[n++] = name;
        }
        for (int size = 5; size >= 3; size--)
            list_multisets(l, &a, names, n, size, AQ_STARTS_PER_SIZE,
                           suit < AQ_SUITS);
    }
}

static void list_adds(lister *l)
{
    aq_action a;
    memset(&a, 0, sizeof a);
    a.type = AQ_ACT_ADD;
    int names[AQ_NAMES];
    int n = collectable_names(l, names);
    for (int i = 0; i < l->s->collections; i++) {
        const aq_collection *c = &l->s->coll[i];
        if (l->s->phase == AQ_PHASE_FINAL &&
            c->side != aq_side_of(l->s, l->seat))
            continue;
        /* Every add to it would be refused: listing them only spends
         * the tries. */
        if (aq_collection_closed(c))
            continue;
        a.target = c->id;
        list_multisets(l, &a, names, n, 1, AQ_NAMES, false);
        list_multisets(l, &a, names, n, 2, AQ_ADDS_PER_COLLECTION, false);
    }
}

static void list_characters(lister *l)
{
    aq_action a;
    memset(&a, 0, sizeof a);
    a.type = AQ_ACT_REMINGTON;
    offer(l, &a);
    if (l->s->opt.remington_reassigned) {
        a.type = AQ_ACT_REASSIGN;
        for (int i = 0; i < l->s->collections; i++) {
            for (int k = 0; k < l->s->collections; k++) {
                a.target = l->s->coll[i].id;
                a.take = l->s->coll[k].id;
                offer(l, &a);
            }
        }
    }
    if (l->s->opt.tess_lost_shipment) {
        a.type = AQ_ACT_LOST_SHIPMENT;
        for (int i = 0; i < l->s->collections; i++) {
            a.target = l->s->coll[i].id;
            offer(l, &a);
        }
    }
}

static void list_discards(lister *l)
{
    aq_action a;
    memset(&a, 0, sizeof a);
    a.type = AQ_ACT_DISCARD;
    a.names = 1;
    for (int name = 0; name < AQ_NAMES; name++) {
        if (l->counts[name] > 0) {
            a.name[0] = name;
            offer(l, &a);
        }
    }
}

static void list_pickups(lister *l)
{
    const aq_pile *discard = &l->s->discard;
    if (discard->count == 0)
        return;
    aq_card top = aq_card_info(discard->card[discard->count - 1]);
    if (top.kind != AQ_ANTIQUITY)
        return;
    int names[6];
    for (int v = 0; v < 6; v++)
        names[v] = top.suit * 6 + v;
    aq_action a;
    memset(&a, 0, sizeof a);
    a.type = AQ_ACT_PICKUP;
    for (int size = 2; size <= 4; size++) {
        multiset_walk w = {.l = l, .a = &a, .names = names, .n = 6,
                           .size = size, .cap = 1000, .tries = 1000};
        walk(&w, 0, 0, 0);
    }
}

static json_t *forms(void)
{
    return json_pack("[s,s,s,s,s,s,s,s,s]", "draw", "pickup CARD CARD [CARD CARD]",
                     "play CARD CARD CARD…", "add COLLECTION CARD…",
                     "remington", "reassign MY_COLLECTION THEIR_COLLECTION",
                     "lost COLLECTION", "discard CARD",
                     "final [play CARD…; add COLLECTION CARD…; …]");
}

json_t *aq_legal(const aq_state *s, int seat)
{
    lister l = {.s = s, .seat = seat, .moves = json_array()};
    bool complete = true;
    rules_pending p;
    aq_pending(s, &p);
    if (seat < 0 || seat >= s->seats || !(p.seats & (1u << seat)))
        return json_pack("{s:o,s:b,s:o}", "moves", l.moves, "complete", 1,
                         "forms", forms());
    aq_pile_name_counts(&s->hand[seat], l.counts);
    int names[AQ_NAMES];
    bool collectable = collectable_names(&l, names) > 0;
    switch (s->phase) {
    case AQ_PHASE_DRAW: {
        aq_action draw = {.type = AQ_ACT_DRAW};
        offer(&l, &draw);
        list_pickups(&l);
        break;
    }
    case AQ_PHASE_PLAY:
        list_discards(&l);
        list_characters(&l);
        list_adds(&l);
        list_starts(&l);
        complete = !collectable;
        break;
    case AQ_PHASE_FINAL: {
        aq_action none = {.type = AQ_ACT_FINAL};
        offer(&l, &none);
        l.finals.type = AQ_ACT_FINAL;
        list_adds(&l);
        list_starts(&l);
        if (l.finals.plays > 1)
            offer(&l, &l.finals);
        complete = !collectable;
        break;
    }
    case AQ_PHASE_OVER:
        break;
    }
    return json_pack("{s:o,s:b,s:o}", "moves", l.moves, "complete", complete,
                     "forms", forms());
}
