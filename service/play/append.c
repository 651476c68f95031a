/* append.c: the append pipeline (append.h). */
#include "play/append.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "core/metrics.h"
#include "deadlines/deadlines.h"
#include "ledger/forfeit.h"
#include "notify/notify_outbox.h"
#include "play/event_log.h"
#include "play/ratings.h"
#include "play/retry.h"
#include "store/events.h"

bool append_reveal_seed(const store_match *match,
                        char hex[2 * SEAL_SEED_BYTES + 1], apierr *err)
{
    uint8_t secret[SEAL_SEED_BYTES];
    if (!seal_decrypt(match->match_id, match->sealed_seed,
                      sizeof match->sealed_seed, secret))
        return apierr_set(err, 500, "seed_sealed",
                          "the match seed cannot be decrypted with this "
                          "service's key file");
    sodium_bin2hex(hex, 2 * SEAL_SEED_BYTES + 1, secret, sizeof secret);
    sodium_memzero(secret, sizeof secret);
    return true;
}

/* Step 1: whether the change ends a match in play, and then its result
 * (a new reference): the rules' own, or after a forfeit the one
 * forfeit_result makes of it. */
static json_t *final_result(const store_match *match,
                            const rules_engine *engine,
                            const append_change *change)
{
    const char *status = change->status ? change->status : match->status;
    if (change->state == NULL || engine == NULL ||
        strcmp(status, "active") != 0)
        return NULL;
    if (change->forfeited == 0) {
        rules_pending pending;
        engine->pending(change->state, &pending);
        if (pending.wait != RULES_WAIT_NOBODY)
            return NULL;
    }
    json_t *result = engine->result(change->state);
    if (change->forfeited == 0)
        return result;
    json_t *final = forfeit_result(result, change->forfeited);
    json_decref(result);
    return final;
}

/* The "finished" event with result (borrowed); it reveals the seed so
 * anyone can replay every shuffle. */
static json_t *finished_event(const store_match *match, const json_t *result,
                              apierr *err)
{
    char secret_hex[2 * SEAL_SEED_BYTES + 1];
    if (!append_reveal_seed(match, secret_hex, err))
        return NULL;
    return json_pack("{s:s,s:{s:O,s:s}}", "kind", "finished", "data",
                     "result", result, "seed", secret_hex);
}

/* Step 3: the outbox rows. A match ended by forfeit tells everyone its
 * result (final, final_result's) whatever change->tell says; otherwise
 * change->tell decides. */
static bool tell(PGconn *conn, store_match *match, const rules_engine *engine,
                 const append_change *change, const json_t *final,
                 apierr *err)
{
    const rules_state *state = change->state;
    store_reachability *reach = change->reach;
    store_reachability read;
    if (change->tell == APPEND_TELL_ABORTED)
        return notify_outbox_queue_aborted(conn, match, reach, engine, state,
                                           change->reason, err);
    if (state == NULL)
        return true;
    if (change->forfeited != 0 && final != NULL)
        return notify_outbox_queue_over(conn, match, reach, engine, state,
                                        final, err);
    if (reach == NULL)
        reach = &read;
    switch (change->tell) {
    case APPEND_TELL_PENDING: {
        /* Not given, or a match copied from the cache whose reading went
         * out of date (matchstate_recall): read now. */
        bool known = change->reach != NULL && !change->reach->unknown;
        return (known ||
                store_reachability_load(conn, match->match_id,
                                        match->seat_player, reach, err)) &&
               notify_outbox_queue(conn, match, reach, engine, state,
                                   change->before, err);
    }
    case APPEND_TELL_SEATS:
        /* The seats changed hands (a replaced seat, an import): who can be
         * reached is read again. */
        return store_reachability_load(conn, match->match_id,
                                       match->seat_player, reach, err) &&
               notify_outbox_queue_seats(conn, match, reach, engine, state,
                                         change->seats, err);
    default:
        return true;
    }
}

/* Step 5: a snapshot at the new head, every APPEND_SNAPSHOT_EVERY events
 * (or now when asked), so a load replays a bounded tail. */
static bool snapshot(PGconn *conn, const store_match *match,
                     const rules_engine *engine, const append_change *change,
                     long long old_head, apierr *err)
{
    if (change->state == NULL || engine == NULL)
        return true;
    if (!change->snapshot_now && old_head / APPEND_SNAPSHOT_EVERY ==
                                     match->head_seq / APPEND_SNAPSHOT_EVERY)
        return true;
    json_t *saved = engine->save(change->state);
    char *text = rules_sorted_json(saved);
    bool ok = store_save_snapshot(conn, match->match_id, match->head_seq,
                                  engine->version, text, err);
    free(text);
    json_decref(saved);
    return ok;
}

bool append_events(PGconn *conn, store_match *match,
                   const rules_engine *engine, const append_change *change,
                   bool *over, apierr *err)
{
    if (change->count < 0 || change->count > APPEND_EVENTS_MAX - 1)
        return apierr_set(err, 500, "internal", "too many events at once");
    json_t *all[APPEND_EVENTS_MAX];
    int count = change->count;
    for (int i = 0; i < count; i++)
        all[i] = change->events[i];
    const char *status = change->status;
    json_t *result = final_result(match, engine, change);
    json_t *finished = NULL;
    if (result != NULL) {
        finished = finished_event(match, result, err);
        if (finished == NULL) {
            json_decref(result);
            return false;
        }
        all[count++] = finished;
        status = "finished";
    }
    if (over != NULL)
        *over = result != NULL;
    long long old_head = match->head_seq;
    bool ok = (count == 0 && status == NULL) ||
              store_append(conn, match, all, count, status, err);
    ok = ok &&
         event_log_append(conn, match, engine, change->before, all, count,
                          old_head + 1, err) &&
         tell(conn, match, engine, change, result, err) &&
         (result == NULL || ratings_record(conn, match, result, err)) &&
         (change->state == NULL || engine == NULL ||
          deadlines_sync(conn, match, engine, change->state, err)) &&
         snapshot(conn, match, engine, change, old_head, err);
    if (ok && count > 0)
        metrics_events_appended(count);
    json_decref(finished);
    json_decref(result);
    return ok;
}

json_t *append_commit(PGconn *conn, const caller *who,
                      const store_match *match, int status, json_t *answer,
                      apierr *err)
{
    db_shared *queued;
    return append_commit_queue(conn, who, match, status, &answer, NULL, &queued,
                               err) == DB_COMMITTED
               ? answer
               : NULL;
}

int append_commit_queue(PGconn *conn, const caller *who,
                        const store_match *match, int status, json_t **answer,
                        const db_waiter *waiter, db_shared **queued,
                        apierr *err)
{
    int outcome = retry_commit_queue(conn, who, match, status, *answer, waiter,
                                     queued, err);
    if (outcome == DB_FAILED) {
        json_decref(*answer);
        *answer = NULL;
    } else if (outcome == DB_COMMITTED && match != NULL) {
        event_log_committed(match);
    }
    return outcome;
}

json_t *append_commit_outcome(db_shared *queued, json_t *answer, apierr *err)
{
    if (db_commit_outcome(queued, err))
        return answer;
    json_decref(answer);
    return NULL;
}
