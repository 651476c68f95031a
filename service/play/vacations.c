/* vacations.c */
#include "play/vacations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "store/db.h"
#include "store/players.h"
#include "store/vacations.h"
#include "deadlines/deadlines.h"
#include "play/retry.h"
#include "rules.h"
#include "store/store.h"

/* A vacation "from" this far in the past is taken to mean "now" (clock
 * skew of the client); further back it is refused. */
#define SKEW_SECONDS 300
#define FUTURE_MAX_SECONDS (2LL * 365 * 86400)
/* A player's list shows this many vacations, the latest first. */
#define LIST_MAX 100

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
    store_vacation_allowance *matches;
    int count;
    if (!store_vacations_allowances(conn, player_id, &matches, &count, err))
        return false;
    long long length = until - from;
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        char ref[32];
        store_match_ref(matches[i].match_id, ref);
        long long allowed = matches[i].allowed_seconds;
        long long left = allowed - matches[i].taken_seconds;
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
    free(matches);
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
    json_t *allowances = json_array();
    json_t *answer = NULL;
    /* Holding the player's row serialises the same player's declarations,
     * so two at once cannot both fit an allowance that holds only one. */
    store_player player;
    long long id;
    if (!store_player_load(conn, who->player_id, true, &player, err) ||
        !within_allowances(conn, who->player_id, from, until, allowances,
                           err) ||
        !store_vacations_add(conn, who->player_id, from, until, &id, err) ||
        !deadlines_replan_player(conn, who->player_id, err))
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
    store_vacation vacations[LIST_MAX];
    int n = store_vacations_latest(conn, player_id, vacations, LIST_MAX, err);
    if (n < 0)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, vacation_json(vacations[i].vacation_id,
                                                  vacations[i].starts,
                                                  vacations[i].ends));
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
    store_vacation ended;
    bool cancelled = false;
    int found = store_vacations_end(conn, player_id, id, clock_now(), &ended,
                                    &cancelled, err);
    if (found < 0) {
        store_rollback(conn);
        return NULL;
    }
    if (found == 0) {
        bool over = store_vacations_exists(conn, player_id, id, err) == 1;
        store_rollback(conn);
        if (over)
            apierr_set(err, 409, "vacation_over", "vacation %s is already over",
                       ref);
        else
            apierr_set(err, 404, "no_such_vacation", "you have no vacation %s",
                       ref);
        return NULL;
    }
    json_t *answer = vacation_json(id, ended.starts, ended.ends);
    json_object_set_new(answer, "cancelled", json_boolean(cancelled));
    if (!deadlines_replan_player(conn, player_id, err) ||
        !store_commit(conn, err)) {
        store_rollback(conn);
        json_decref(answer);
        return NULL;
    }
    return json_pack("{s:o}", "vacation", answer);
}
