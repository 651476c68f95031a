/* vacations.c */
#include "play/vacations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/db.h"
#include "store/db_params.h"
#include "deadlines/deadlines.h"
#include "play/retry.h"
#include "rules.h"
#include "store/store.h"

/* A vacation "from" this far in the past is taken to mean "now" (clock
 * skew of the client); further back it is refused. */
#define SKEW_SECONDS 300
#define FUTURE_MAX_SECONDS (2LL * 365 * 86400)

static json_t *time_json(long long seconds)
{
    char text[32];
    clock_format(seconds, text);
    return json_string(text);
}

static json_t *vacation_json(long long id, long long from, long long until)
{
    char ref[32];
    snprintf(ref, sizeof ref, "v_%lld", id);
    return json_pack("{s:s,s:o,s:o}", "id", ref, "from", time_json(from),
                     "until", time_json(until));
}

/* Checks the new vacation [from, until) against every match with deadlines
 * the player is seated in: what they have taken since the match was
 * created plus this one must fit its vacation_days_max. Fills allowances
 * with {"match", "days_left"} after this vacation. */
static bool within_allowances(PGconn *conn, long long player_id, long long from,
                              long long until, json_t *allowances, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r =
        db_query(conn,
                 "SELECT m.match_id, d.vacation_days_max::bigint * 86400,"
                 " coalesce((SELECT sum(extract(epoch FROM"
                 " v.ends_at)::bigint - greatest(extract(epoch FROM"
                 " v.starts_at)::bigint, extract(epoch FROM"
                 " m.created_at)::bigint)) FROM vacations v WHERE"
                 " v.player_id = $1 AND v.cancelled_at IS NULL AND"
                 " v.ends_at > m.created_at), 0) FROM seats s JOIN matches"
                 " m USING (match_id) JOIN match_deadlines d USING"
                 " (match_id) WHERE s.player_id = $1 AND m.status IN"
                 " ('open', 'active') ORDER BY m.match_id",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    long long length = until - from;
    bool ok = true;
    for (int i = 0; ok && i < PQntuples(r); i++) {
        char ref[32];
        store_match_ref(atoll(PQgetvalue(r, i, 0)), ref);
        long long allowed = atoll(PQgetvalue(r, i, 1));
        long long taken = atoll(PQgetvalue(r, i, 2));
        long long left = allowed - taken;
        if (length > left) {
            ok = apierr_set(err, 422, "vacation_too_long",
                            "match %s allows %lld days of vacation per player "
                            "and you have %.1f left there; this vacation is "
                            "%.1f days",
                            ref, allowed / 86400,
                            left > 0 ? (double)left / 86400.0 : 0.0,
                            (double)length / 86400.0);
            break;
        }
        json_array_append_new(allowances,
                              json_pack("{s:s,s:f}", "match", ref, "days_left",
                                        (double)(left - length) / 86400.0));
    }
    PQclear(r);
    return ok;
}

/* The times of a vacation request, checked against now. */
static bool read_span(const json_t *body, long long now, long long *from,
                      long long *until, apierr *err)
{
    const char *from_text = json_string_value(json_object_get(body, "from"));
    const char *until_text = json_string_value(json_object_get(body, "until"));
    if (!clock_parse(from_text, false, from) ||
        !clock_parse(until_text, false, until))
        return apierr_set(err, 400, "bad_vacation",
                          "give \"from\" and \"until\" as RFC 3339 times, "
                          "such as 2026-12-24T00:00:00Z");
    if (*until <= *from)
        return apierr_set(err, 422, "bad_vacation",
                          "\"until\" must come after \"from\"");
    if (*from < now - SKEW_SECONDS)
        return apierr_set(err, 422, "bad_vacation",
                          "\"from\" is in the past; a vacation starts now at "
                          "the earliest");
    if (*from < now)
        *from = now;
    if (*until - now > FUTURE_MAX_SECONDS)
        return apierr_set(err, 422, "bad_vacation",
                          "a vacation must end within two years");
    return true;
}

json_t *vacations_declare(const caller *who, const json_t *body, apierr *err)
{
    long long now = clock_now(), from, until;
    if (!read_span(body, now, &from, &until, err))
        return NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    db_params p = {0};
    db_params_int(&p, who->player_id);
    db_params_int(&p, from);
    db_params_int(&p, until);
    json_t *allowances = json_array();
    json_t *answer = NULL;
    /* Serialises the same player's declarations, so two at once cannot
     * both fit an allowance that holds only one. Only $1 of p here. */
    PGresult *lock = db_query(conn,
                              "SELECT 1 FROM players WHERE player_id = $1"
                              " FOR UPDATE",
                              1, p.values, PGRES_TUPLES_OK, err);
    if (lock == NULL)
        goto fail;
    PQclear(lock);
    if (!within_allowances(conn, who->player_id, from, until, allowances, err))
        goto fail;
    PGresult *r = db_query(conn,
                           "INSERT INTO vacations (player_id, starts_at,"
                           " ends_at) VALUES ($1, to_timestamp($2::bigint),"
                           " to_timestamp($3::bigint)) RETURNING vacation_id",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        goto fail;
    long long id = atoll(PQgetvalue(r, 0, 0));
    PQclear(r);
    if (!deadlines_replan_player(conn, who->player_id, err))
        goto fail;
    answer = json_pack("{s:o,s:O}", "vacation", vacation_json(id, from, until),
                       "matches", allowances);
    if (!retry_commit(conn, who, NULL, 201, answer, err)) {
        json_decref(answer);
        answer = NULL;
    }
    json_decref(allowances);
    return answer;
fail:
    store_rollback(conn);
    json_decref(allowances);
    return NULL;
}

json_t *vacations_list(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    db_params p = {0};
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT vacation_id, extract(epoch FROM"
                           " starts_at)::bigint, extract(epoch FROM"
                           " ends_at)::bigint FROM vacations WHERE"
                           " player_id = $1 AND cancelled_at IS NULL ORDER"
                           " BY starts_at DESC, vacation_id DESC LIMIT 100",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(list, vacation_json(atoll(PQgetvalue(r, i, 0)),
                                                  atoll(PQgetvalue(r, i, 1)),
                                                  atoll(PQgetvalue(r, i, 2))));
    PQclear(r);
    return json_pack("{s:o}", "vacations", list);
}

json_t *vacations_cancel(long long player_id, const char *ref, apierr *err)
{
    char *end = NULL;
    long long id = strncmp(ref, "v_", 2) == 0 ? strtoll(ref + 2, &end, 10) : 0;
    if (id <= 0 || end == NULL || *end != '\0') {
        apierr_set(err, 404, "no_such_vacation", "vacation ids look like v_12");
        return NULL;
    }
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_begin(conn, err))
        return NULL;
    long long now = clock_now();
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, id);
    db_params_int(&p, now);
    /* Not begun: cancelled. Under way: it ends now. */
    PGresult *r = db_query(
        conn,
        "UPDATE vacations SET cancelled_at = CASE WHEN starts_at >="
        " to_timestamp($3::bigint)   THEN to_timestamp($3::bigint) END,"
        " ends_at = CASE WHEN starts_at >= to_timestamp($3::bigint)   THEN"
        " ends_at ELSE to_timestamp($3::bigint) END WHERE player_id = $1"
        " AND vacation_id = $2   AND cancelled_at IS NULL AND ends_at >"
        " to_timestamp($3::bigint) RETURNING extract(epoch FROM"
        " starts_at)::bigint, extract(epoch FROM ends_at)::bigint,"
        " cancelled_at IS NOT NULL",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL) {
        store_rollback(conn);
        return NULL;
    }
    if (PQntuples(r) == 0) {
        PQclear(r);
        /* $1 and $2 of p: the player and the vacation. */
        PGresult *seen =
            db_query(conn,
                     "SELECT 1 FROM vacations WHERE player_id = $1"
                     " AND vacation_id = $2 AND cancelled_at IS NULL",
                     2, p.values, PGRES_TUPLES_OK, err);
        bool over = seen != NULL && PQntuples(seen) == 1;
        PQclear(seen);
        store_rollback(conn);
        if (over)
            apierr_set(err, 409, "vacation_over", "vacation %s is already over",
                       ref);
        else
            apierr_set(err, 404, "no_such_vacation", "you have no vacation %s",
                       ref);
        return NULL;
    }
    json_t *answer = vacation_json(id, atoll(PQgetvalue(r, 0, 0)),
                                   atoll(PQgetvalue(r, 0, 1)));
    json_object_set_new(answer, "cancelled",
                        json_boolean(strcmp(PQgetvalue(r, 0, 2), "t") == 0));
    PQclear(r);
    if (!deadlines_replan_player(conn, player_id, err) ||
        !store_commit(conn, err)) {
        store_rollback(conn);
        json_decref(answer);
        return NULL;
    }
    return json_pack("{s:o}", "vacation", answer);
}
