/* score.c: the final scoring (always computed from scratch from the cards
 * where they lie) and the ranking with the rulebook's tie-breaks. */
#include "artifact_stack_internal.h"

#include <stdio.h>
#include <string.h>

int as_statue_set_vp(int n)
{
    return n * (n + 1) / 2;
}

/* Monsters are caught at the end in whichever pairs score best: vampire +
 * cross, mummy + coffin, vampire mummy + either. */
int as_monster_vp(int vampires, int mummies, int vampire_mummies, int crosses,
                  int coffins)
{
    const as_table *t = &as_data;
    int best = -1000;
    for (int vx = 0; vx <= vampires && vx <= crosses; vx++) {
        for (int mk = 0; mk <= mummies && mk <= coffins; mk++) {
            for (int wk = 0; wk <= vampire_mummies && wk <= coffins - mk;
                 wk++) {
                for (int wx = 0; wx + wk <= vampire_mummies &&
                                 wx <= crosses - vx; wx++) {
                    int loose = (vampires - vx) + (mummies - mk) +
                                (vampire_mummies - wk - wx);
                    int vp = (vx + mk) * t->combo_vp_pair +
                             (wk + wx) * t->combo_vp_vampire_mummy +
                             loose * t->monster_loose_vp +
                             (crosses - vx - wx) * t->cross_vp +
                             (coffins - mk - wk) * t->coffin_vp;
                    if (vp > best)
                        best = vp;
                }
            }
        }
    }
    return best;
}

static int china_set_vp(const as_state *s, int leader)
{
    int count = 0;
    bool same = true;
    char letter = as_data.china_letter[as_card_number(leader) - 1];
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->set[c] != leader)
            continue;
        count++;
        if (as_data.china_letter[as_card_number(c) - 1] != letter)
            same = false;
    }
    if (!same)
        return as_data.china_abc_vp;
    return count == 2 ? as_data.china_pair_vp : as_data.china_triple_vp;
}

static void score_seat(const as_state *s, int p, as_score *o)
{
    memset(o, 0, sizeof *o);
    int monsters[5] = {0};
    int loose_statues = 0;
    for (int c = 0; c < AS_CARDS; c++) {
        if (s->place[c] != AS_TABLEAU || s->owner[c] != p)
            continue;
        int stack = as_card_stack(c);
        int k = as_card_number(c) - 1;
        o->artifact_cards++;
        if (as_data.star[k])
            o->star_count++;
        switch (stack) {
        case AS_STATUES:
            if (!s->flipped[c])
                loose_statues++;
            else if (s->set[c] == c) {
                int n = 0;
                for (int m = 0; m < AS_CARDS; m++)
                    n += s->set[m] == c;
                o->statues += as_statue_set_vp(n);
            }
            break;
        case AS_CHINA:
            if (!s->flipped[c])
                o->cards += as_data.stack_vp[stack];
            else if (s->set[c] == c)
                o->china += china_set_vp(s, c);
            break;
        case AS_MONSTERS:
            monsters[as_data.monster[k]]++;
            break;
        case AS_TREASURES:
            if (!s->flipped[c])
                o->treasures += as_data.treasure_vp[k];
            break;
        case AS_RELICS:
            o->relic_count++;
            o->cards += as_data.stack_vp[stack];
            break;
        default:
            o->cards += as_data.stack_vp[stack];
            break;
        }
    }
    o->statues += as_statue_set_vp(loose_statues);
    o->monsters = as_monster_vp(monsters[AS_VAMPIRE], monsters[AS_MUMMY],
                                monsters[AS_VAMPIRE_MUMMY], monsters[AS_CROSS],
                                monsters[AS_COFFIN]);
    for (int a = 0; a < AS_ASSISTANTS; a++) {
        if (s->assistant_owner[a] == p)
            o->assistants += as_data.assistant_vp +
                             as_data.ability_vp[as_data.assistants[a].ability];
    }
    o->silver = s->silver[p];
}

void as_score_all(const as_state *s, as_score out[RULES_MAX_SEATS])
{
    int most_relics = -1, fewest_relics = 1000, most_stars = 0;
    for (int p = 0; p < s->seats; p++) {
        score_seat(s, p, &out[p]);
        if (out[p].relic_count > most_relics)
            most_relics = out[p].relic_count;
        if (out[p].relic_count < fewest_relics)
            fewest_relics = out[p].relic_count;
        if (out[p].star_count > most_stars)
            most_stars = out[p].star_count;
    }
    for (int p = 0; p < s->seats; p++) {
        as_score *o = &out[p];
        /* RULING: no relic bonus or penalty when every player has as many
         * relics (relics not in play, or a complete tie). */
        if (s->in_play[AS_RELICS] && most_relics != fewest_relics) {
            if (o->relic_count == most_relics)
                o->relic_bonus = as_data.relic_bonus;
            else if (o->relic_count == fewest_relics)
                o->relic_bonus = -as_data.relic_bonus;
        }
        /* RULING: a star card needs at least one star. */
        if (most_stars > 0 && o->star_count == most_stars)
            o->stars_bonus = as_data.star_card_vp;
        const char *names[AS_SCORE_PARTS];
        int values[AS_SCORE_PARTS];
        int n = as_score_parts(o, names, values);
        o->total = 0;
        for (int i = 0; i < n; i++)
            o->total += values[i];
    }
}

int as_score_parts(const as_score *sc, const char *names[AS_SCORE_PARTS],
                   int values[AS_SCORE_PARTS])
{
    const struct {
        const char *name;
        int value;
    } parts[] = {
        {"cards", sc->cards},
        {"treasures", sc->treasures},
        {"statues", sc->statues},
        {"china", sc->china},
        {"monsters", sc->monsters},
        {"relic_bonus", sc->relic_bonus},
        {"assistants", sc->assistants},
        {"silver", sc->silver},
        {"star_cards", sc->stars_bonus},
    };
    int n = (int)(sizeof parts / sizeof parts[0]);
    for (int i = 0; i < n; i++) {
        names[i] = parts[i].name;
        values[i] = parts[i].value;
    }
    return n;
}

/* Is a ahead of b: more VP, then more artifact cards, then more silver? */
static int compare(const as_score *a, const as_score *b)
{
    if (a->total != b->total)
        return a->total > b->total ? 1 : -1;
    if (a->artifact_cards != b->artifact_cards)
        return a->artifact_cards > b->artifact_cards ? 1 : -1;
    if (a->silver != b->silver)
        return a->silver > b->silver ? 1 : -1;
    return 0;
}

/* Why seats a and b, on equal totals, are in different places: "Tied at
 * 41: seat 0 holds more artifact cards (26 to 24)." */
static void add_tie_break(char *out, size_t size, const as_score *sc, int a,
                          int b)
{
    size_t len = strlen(out);
    if (sc[a].artifact_cards != sc[b].artifact_cards)
        snprintf(out + len, size - len,
                 "%sTied at %d: seat %d holds more artifact cards (%d to "
                 "%d).",
                 len > 0 ? " " : "", sc[a].total, a, sc[a].artifact_cards,
                 sc[b].artifact_cards);
    else
        snprintf(out + len, size - len,
                 "%sTied at %d and on artifact cards (%d): seat %d holds "
                 "more silver (%d to %d).",
                 len > 0 ? " " : "", sc[a].total, sc[a].artifact_cards, a,
                 sc[a].silver, sc[b].silver);
}

json_t *as_result(const rules_state *state)
{
    const as_state *s = (const as_state *)state;
    as_score sc[RULES_MAX_SEATS];
    as_score_all(s, sc);
    json_t *scores = json_array();
    json_t *detail = json_array();
    for (int p = 0; p < s->seats; p++) {
        json_array_append_new(scores, json_integer(sc[p].total));
        const char *names[AS_SCORE_PARTS];
        int values[AS_SCORE_PARTS];
        int n = as_score_parts(&sc[p], names, values);
        json_t *points = json_object();
        for (int i = 0; i < n; i++)
            json_object_set_new(points, names[i], json_integer(values[i]));
        /* counts, not points: the tie-breakers and what the bonuses
         * compare */
        json_array_append_new(
            detail,
            json_pack("{s:o,s:i,s:{s:i,s:i},s:{s:i,s:i}}", "points", points,
                      "total", sc[p].total, "tie_breakers", "artifact_cards",
                      sc[p].artifact_cards, "silver", s->silver[p], "counts",
                      "stars", sc[p].star_count, "relics",
                      sc[p].relic_count));
    }
    /* places: a seat's place is 1 + the number of seats strictly ahead */
    json_t *ranking = json_array();
    bool placed[RULES_MAX_SEATS] = {false};
    char tie_break[512] = "";
    int last = -1;
    for (int done = 0; done < s->seats;) {
        int best = -1;
        for (int p = 0; p < s->seats; p++) {
            if (!placed[p] && (best < 0 || compare(&sc[p], &sc[best]) > 0))
                best = p;
        }
        if (last >= 0 && sc[last].total == sc[best].total)
            add_tie_break(tie_break, sizeof tie_break, sc, last, best);
        json_t *place = json_array();
        for (int p = 0; p < s->seats; p++) {
            if (!placed[p] && compare(&sc[p], &sc[best]) == 0) {
                placed[p] = true;
                json_array_append_new(place, json_integer(p));
                done++;
            }
        }
        json_array_append_new(ranking, place);
        last = best;
    }
    json_t *result = json_pack("{s:b,s:o,s:o,s:o}", "over", s->over,
                               "scores", scores, "ranking", ranking,
                               "detail", detail);
    if (s->over) {
        json_object_set_new(result, "reason",
                            json_string("The match ended because the "
                                        "second temple was emptied."));
        if (tie_break[0] != '\0')
            json_object_set_new(result, "tie_break",
                                json_string(tie_break));
    }
    return result;
}
