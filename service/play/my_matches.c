/* my_matches.c: a player's matches (my_matches.h). */
#include "play/my_matches.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/describe.h"
#include "play/matchstate.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/match_lists.h"
#include "store/matches.h"
#include "store/store.h"

static bool status_ok(const char *status)
{
    static const char *const known[] = {"open", "active", "finished",
                                        "aborted"};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcmp(status, known[i]) == 0)
            return true;
    return false;
}

/* Whether seat must act now in the active match match_id; false when the
 * state cannot be had (the match is listed all the same). */
static bool must_act(PGconn *conn, long long match_id, int seat)
{
    apierr err;
    store_match match;
    if (!store_load_match(conn, match_id, &match, &err))
        return false;
    bool yes = false;
    const rules_engine *engine = matchstate_engine(&match, &err);
    if (engine != NULL && matchstate_has_state(&match)) {
        rules_state *state = matchstate_load(conn, &match, engine, &err);
        if (state != NULL) {
            yes = describe_seat_must_act(&match, engine, state, seat);
            engine->destroy(state);
        }
    }
    store_match_free(&match);
    return yes;
}

/* {"seat", "name"} of every taken seat of the listed matches, by match
 * id in decimal: a new object, or NULL with err filled. */
static json_t *seat_names(PGconn *conn, const store_listed_match *listed,
                          int count, apierr *err)
{
    long long *ids = calloc((size_t)count + 1, sizeof *ids);
    if (ids == NULL)
        abort();
    for (int i = 0; i < count; i++)
        ids[i] = listed[i].match_id;
    json_t *names = store_match_lists_seat_names(conn, ids, count, err);
    free(ids);
    return names;
}

json_t *my_matches_list(const caller *who, const char *status, apierr *err)
{
    if (status != NULL && !status_ok(status)) {
        apierr_set(err, 400, "bad_status",
                   "status must be open, active, finished or aborted (or "
                   "left out for every match)");
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    store_listed_match *listed;
    int count;
    if (!store_match_lists_of_player(conn, who->player_id, status,
                                     MY_MATCHES_MAX, &listed, &count, err))
        return NULL;
    json_t *names = seat_names(conn, listed, count, err);
    if (names == NULL) {
        free(listed);
        return NULL;
    }
    /* Your turn first; otherwise the order of the list. */
    json_t *mine = json_array();
    json_t *others = json_array();
    for (int i = 0; i < count; i++) {
        const store_listed_match *m = &listed[i];
        bool your_turn = strcmp(m->status, "active") == 0 &&
                         must_act(conn, m->match_id, m->seat);
        char ref[32], id[24];
        store_match_ref(m->match_id, ref);
        snprintf(id, sizeof id, "%lld", m->match_id);
        json_t *seats = json_object_get(names, id);
        seats = seats != NULL ? json_incref(seats) : json_array();
        json_t *row = json_pack("{s:s,s:s,s:s,s:i,s:b,s:I,s:s,s:o}", "match_id",
                                ref, "game", m->game, "status", m->status,
                                "seat", m->seat, "your_turn", your_turn,
                                "head_seq", (json_int_t)m->head_seq,
                                "updated_at", m->updated_at, "seats", seats);
        json_array_append_new(your_turn ? mine : others, row);
    }
    free(listed);
    json_decref(names);
    json_array_extend(mine, others);
    json_decref(others);
    return json_pack("{s:o}", "matches", mine);
}
