/* nudge.c */
#include "play/nudge.h"

#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/nudges.h"
#include "store/sealed_choices.h"
#include "core/config.h"
#include "core/log.h"
#include "play/request.h"
#include "play/matchstate.h"
#include "notify/notify_outbox.h"

static long long window_seconds(void)
{
    return (long long)(config_number(CONFIG_NUDGE_HOURS) * 3600.0);
}

json_t *nudge_send(const caller *who, long long match_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    store_match match;
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *answer = NULL;
    rules_state *state = NULL;
    const rules_engine *engine = matchstate_engine(&match, err);
    int seat = request_seat_of(&match, who->player_id);
    if (engine == NULL)
        goto done;
    if (seat < 0) {
        apierr_set(err, 403, "not_seated", "only a seated player may nudge");
        goto done;
    }
    if (strcmp(match.status, "active") != 0) {
        apierr_set(err, 409, "not_in_play", "the match is %s, not in play",
                   match.status);
        goto done;
    }
    state = matchstate_load(conn, &match, engine, err);
    if (state == NULL)
        goto done;
    rules_pending pending;
    engine->pending(state, &pending);
    uint32_t waited = pending.seats & ~(1u << seat);
    if (pending.wait == RULES_WAIT_SIMULTANEOUS)
        waited &= ~sealed_choices_committed(conn, match_id, pending.decision);
    if (waited == 0) {
        apierr_set(err, 409, "nobody_to_nudge",
                   "the match is waiting for nobody but you: %s",
                   pending.prompt);
        goto done;
    }
    long long window = window_seconds();
    if (!store_begin(conn, err))
        goto done;
    bool ok = store_nudges_lock(conn, match_id, err);
    json_t *nudged = json_array();
    long long soonest = 0;
    for (int s = 0; ok && s < match.seat_count; s++) {
        if (!(waited & (1u << s)))
            continue;
        /* Under the lock, so that two nudgers cannot both pass. */
        long long wait = store_nudges_wait(conn, match_id, s, window, err);
        ok = wait >= 0;
        if (ok && wait > 0) {
            soonest = soonest == 0 || wait < soonest ? wait : soonest;
            continue;
        }
        long long nudge_id = 0;
        ok = ok &&
             store_nudges_insert(conn, match_id, match.head_seq, s,
                                 who->player_id, &nudge_id, err) &&
             notify_outbox_queue_nudge(conn, &match, engine, state, s,
                                       nudge_id, match.seat_name[seat], err);
        if (ok)
            json_array_append_new(nudged, json_integer(s));
    }
    if (ok && json_array_size(nudged) == 0) {
        apierr_set(err, 429, "nudged_recently",
                   "everyone this match waits for was nudged less than %lld "
                   "hours ago; you can nudge again in %lld minutes",
                   window / 3600, (soonest + 59) / 60);
        err->retry_after = soonest;
        ok = false;
    }
    if (!ok || !store_commit(conn, err)) {
        store_rollback(conn);
        json_decref(nudged);
        goto done;
    }
    log_info("match m_%lld: seat %d nudged %zu seat(s)", match_id, seat,
             json_array_size(nudged));
    answer = json_pack("{s:o,s:I}", "nudged", nudged, "seq",
                       (json_int_t)match.head_seq);
done:
    if (state != NULL)
        engine->destroy(state);
    store_match_free(&match);
    return answer;
}
