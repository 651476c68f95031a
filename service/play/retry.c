/* retry.c: stored answers of signed requests, and finding them again. */
#include "play/retry.h"

#include <stdlib.h>
#include <string.h>

#include "ledger/replay.h"
#include "rules.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/events.h"
#include "store/log_marks.h"
#include "store/request_nonces.h"

/* Why a request whose answer is stored may no longer stand: the event it
 * left the match at was undone by an admin's rewind since. Fills err and
 * returns true in that case. */
static bool undone_by_rewind(PGconn *conn, long long match_id, long long seq,
                             apierr *err)
{
    if (store_log_marks_rewound_after(conn, match_id, seq, err) != 1)
        return false;
    /* Retries are rare, rewinds rarer: read the whole log. */
    json_t *events = store_events_after(conn, match_id, 0, INT32_MAX, err);
    size_t n = json_array_size(events);
    bool *counts = calloc(n + 1, sizeof *counts);
    if (counts == NULL)
        abort();
    replay_error rerr = {0};
    bool undone = events != NULL && seq <= (long long)n &&
                  replay_history(events, counts, &rerr) && !counts[seq - 1];
    if (undone) {
        size_t i;
        const json_t *event;
        long long by = 0;
        const char *reason = "";
        json_array_foreach(events, i, event) {
            const char *kind =
                json_string_value(json_object_get(event, "kind"));
            const json_t *data = json_object_get(event, "data");
            if ((long long)i + 1 > seq && kind &&
                strcmp(kind, "rewound") == 0 &&
                json_integer_value(json_object_get(data, "to_seq")) < seq) {
                by = (long long)i + 1;
                reason = json_string_value(json_object_get(data, "reason"));
                break;
            }
        }
        apierr_set(err, 409, "rewound",
                   "this request was applied at event %lld, which an admin "
                   "undid by rewinding the match at event %lld (\"%s\"); "
                   "look at the match again (it is at event %zu) and send a "
                   "new request with a new nonce",
                   seq, by, reason ? reason : "", n);
    }
    free(counts);
    json_decref(events);
    return undone;
}

int retry_find(const caller *who, retry_answer *replay, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return -1;
    store_nonce found = {0};
    int seen = store_find_nonce(conn, who->key_id, who->nonce,
                                who->request_digest, &found, err);
    if (seen == 2) {
        apierr_set(err, 401, "nonce_reused",
                   "this signature nonce was already used for a different "
                   "request; sign each new request with a new nonce");
        return -1;
    }
    if (seen == 1 && found.match_id > 0 && found.seq > 0) {
        apierr undone_err;
        undone_err.head = -1;
        if (undone_by_rewind(conn, found.match_id, found.seq, &undone_err)) {
            free(found.response);
            *err = undone_err;
            return -1;
        }
    }
    /* The stored answer may have been read from a commit the standby
     * never got (db_wait_replicated): answered now, a failover could lose
     * what it acknowledges. Unanswered, the client sends it again. */
    if (seen == 1 && !db_wait_replicated(conn, err)) {
        free(found.response);
        return -1;
    }
    replay->status = found.status;
    replay->body = found.response;
    return seen;
}

int retry_commit_queue(PGconn *conn, const caller *who,
                       const store_match *match, int status,
                       const json_t *answer, const db_waiter *waiter,
                       db_shared **queued, apierr *err)
{
    *queued = NULL;
    char *text = rules_sorted_json(answer);
    store_nonce saved = {.status = status,
                         .response = text,
                         .match_id = match ? match->match_id : 0,
                         .seq = match ? match->head_seq : 0};
    int outcome = store_save_nonce(conn, who->key_id, who->nonce,
                                   who->request_digest, &saved, err)
                      ? db_commit_queue(conn, waiter, queued, err)
                      : DB_FAILED;
    free(text);
    if (outcome == DB_FAILED)
        store_rollback(conn);
    return outcome;
}

bool retry_commit(PGconn *conn, const caller *who, const store_match *match,
                  int status, const json_t *answer, apierr *err)
{
    db_shared *queued;
    return retry_commit_queue(conn, who, match, status, answer, NULL, &queued,
                              err) == DB_COMMITTED;
}

bool retry_remember_refusal(const caller *who, int status, const char *body,
                            apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return false;
    /* A use case that failed has rolled back; one that did not would
     * commit its half-done work with this row. */
    if (db_in_transaction(conn))
        return apierr_set(err, 500, "internal",
                          "a refused request left its transaction open");
    store_nonce saved = {.status = status, .response = (char *)body};
    return store_save_nonce(conn, who->key_id, who->nonce,
                            who->request_digest, &saved, err);
}
