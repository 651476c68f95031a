/* matches.c: the match rows and their seats (matches.h). */
#include "store/bytea.h"
#include "store/matches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/db.h"
#include "store/db_params.h"
#include "store/store.h"
#include "rules.h"

bool store_insert_match(PGconn *conn, const store_match *match, apierr *err)
{
    char zero_hash[2 * STORE_HASH_BYTES + 3];
    char sealed[2 * sizeof match->sealed_seed + 3];
    uint8_t zeros[STORE_HASH_BYTES] = {0};
    bytea_write(zeros, sizeof zeros, zero_hash);
    bytea_write(match->sealed_seed, sizeof match->sealed_seed, sealed);
    char *options = rules_sorted_json(match->options);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_text(&p, match->game);
    db_params_int(&p, match->engine_version);
    db_params_text(&p, options);
    db_params_int(&p, match->seat_count);
    db_params_text(&p, zero_hash);
    db_params_text(&p, sealed);
    db_params_int(&p, match->created_by);
    bool ok = db_command(conn,
                         "INSERT INTO matches (match_id, game, engine_version,"
                         " options, seat_count, status, head_seq, head_hash,"
                         " sealed_seed, created_by) VALUES ($1, $2, $3, $4,"
                         " $5, 'open', 0, $6, $7, $8)",
                         p.count, p.values, err);
    free(options);
    return ok;
}

bool store_load_match(PGconn *conn, long long match_id, store_match *match,
                      apierr *err)
{
    store_reachability unused;
    return store_load_match_reachable(conn, match_id, match, &unused, err);
}

bool store_load_match_reachable(PGconn *conn, long long match_id,
                                store_match *match, store_reachability *reach,
                                apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    memset(match, 0, sizeof *match);
    store_reachability_starts(reach);
    /* One round trip: the match row with its seats as a JSON array. */
    PGresult *result = db_query(
        conn,
        "SELECT m.game, m.engine_version, m.options::text, m.seat_count,"
        " m.status, m.head_seq, m.head_hash, m.sealed_seed, m.created_by,"
        " (SELECT json_agg(json_build_array(s.seat, s.player_id, p.name,"
        "                      p.email IS NOT NULL AND coalesce(ns.email, true),"
        "                      coalesce(ns.webhooks, true) AND"
        "                      EXISTS (SELECT 1 FROM webhooks w"
        "                               WHERE w.player_id = p.player_id"
        "                                 AND w.match_id IS NULL"
        "                                 AND w.disabled_at IS NULL)"
        "                      OR EXISTS (SELECT 1 FROM player_stream_heads h"
        "                                  WHERE h.player_id = p.player_id)"
        "                      OR EXISTS (SELECT 1 FROM push_subscriptions ps"
        "                                  WHERE ps.player_id = p.player_id"
        "                                    AND ps.disabled_at IS NULL))"
        "                  ORDER BY s.seat)"
        "    FROM seats s JOIN players p USING (player_id)"
        "    LEFT JOIN notification_settings ns USING (player_id)"
        "   WHERE s.match_id = m.match_id)::text,"
        " EXISTS (SELECT 1 FROM webhooks w WHERE w.match_id = m.match_id"
        "                                    AND w.disabled_at IS NULL)"
        " FROM matches m WHERE m.match_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    if (PQntuples(result) == 0) {
        PQclear(result);
        char ref[32];
        store_match_ref(match_id, ref);
        return apierr_set(err, 404, "no_such_match", "there is no match %s",
                          ref);
    }
    match->match_id = match_id;
    snprintf(match->game, sizeof match->game, "%s", PQgetvalue(result, 0, 0));
    match->engine_version = atoi(PQgetvalue(result, 0, 1));
    match->options = json_loads(PQgetvalue(result, 0, 2), 0, NULL);
    match->seat_count = atoi(PQgetvalue(result, 0, 3));
    snprintf(match->status, sizeof match->status, "%s",
             PQgetvalue(result, 0, 4));
    match->head_seq = atoll(PQgetvalue(result, 0, 5));
    bool ok = bytea_read_exact(PQgetvalue(result, 0, 6), match->head_hash,
                                STORE_HASH_BYTES) &&
              bytea_read_exact(PQgetvalue(result, 0, 7), match->sealed_seed,
                                sizeof match->sealed_seed);
    match->created_by = atoll(PQgetvalue(result, 0, 8));
    json_t *seats = PQgetisnull(result, 0, 9)
                        ? json_array()
                        : json_loads(PQgetvalue(result, 0, 9), 0, NULL);
    reach->relay_webhooks = PQgetvalue(result, 0, 10)[0] == 't';
    PQclear(result);
    if (!ok || match->options == NULL || seats == NULL ||
        match->seat_count > STORE_MAX_SEATS) {
        json_decref(seats);
        return apierr_set(err, 500, "corrupt_match",
                          "match row %lld is malformed", match_id);
    }
    size_t i;
    json_t *seat_row;
    json_array_foreach(seats, i, seat_row) {
        json_int_t seat = json_integer_value(json_array_get(seat_row, 0));
        if (seat < 0 || seat >= match->seat_count)
            continue;
        match->seat_player[seat] =
            (long long)json_integer_value(json_array_get(seat_row, 1));
        snprintf(match->seat_name[seat], sizeof match->seat_name[seat], "%s",
                 json_string_value(json_array_get(seat_row, 2)));
        if (json_is_true(json_array_get(seat_row, 3)))
            reach->seat_has_email |= 1u << seat;
        if (json_is_true(json_array_get(seat_row, 4)))
            reach->seat_has_webhook |= 1u << seat;
    }
    json_decref(seats);
    store_reachability_read_for(reach, match->seat_player);
    return true;
}

void store_match_free(store_match *match)
{
    json_decref(match->options);
    match->options = NULL;
}

bool store_move_seat(PGconn *conn, long long match_id, int seat,
                     long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, player_id);
    if (db_command(conn,
                   "UPDATE seats SET player_id = $3, joined_at = now()"
                   " WHERE match_id = $1 AND seat = $2",
                   p.count, p.values, err))
        return true;
    if (strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "already_seated",
                          "that player already holds a seat in this match");
    return false;
}

bool store_insert_seat(PGconn *conn, long long match_id, int seat,
                       long long player_id, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, seat);
    db_params_int(&p, player_id);
    if (db_command(conn,
                   "INSERT INTO seats (match_id, seat, player_id)"
                   " VALUES ($1, $2, $3)",
                   p.count, p.values, err))
        return true;
    if (strcmp(err->code, "database:23505") == 0)
        return apierr_set(err, 409, "seat_taken",
                          "seat %d was just taken, or you already have a "
                          "seat in this match",
                          seat);
    return false;
}
bool store_load_head(PGconn *conn, long long match_id, long long *head,
                     int *engine_version, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    PGresult *result = db_query(conn,
                                "SELECT head_seq, engine_version FROM matches"
                                " WHERE match_id = $1",
                                p.count, p.values, PGRES_TUPLES_OK, err);
    if (result == NULL)
        return false;
    bool found = PQntuples(result) > 0;
    *head = found ? atoll(PQgetvalue(result, 0, 0)) : 0;
    if (engine_version != NULL)
        *engine_version = found ? atoi(PQgetvalue(result, 0, 1)) : 0;
    PQclear(result);
    if (!found) {
        char ref[32];
        store_match_ref(match_id, ref);
        return apierr_set(err, 404, "no_such_match", "there is no match %s",
                          ref);
    }
    return true;
}

bool store_import_match(PGconn *conn, const store_match *match,
                        const char *created_at, const char *updated_at,
                        apierr *err)
{
    char head_hash[2 * STORE_HASH_BYTES + 3];
    char sealed[2 * sizeof match->sealed_seed + 3];
    bytea_write(match->head_hash, STORE_HASH_BYTES, head_hash);
    bytea_write(match->sealed_seed, sizeof match->sealed_seed, sealed);
    db_params exists = {0};
    db_params_int(&exists, match->match_id);
    PGresult *found = db_query(conn,
                               "SELECT 1 FROM matches WHERE match_id = $1",
                               exists.count, exists.values, PGRES_TUPLES_OK,
                               err);
    if (found == NULL)
        return false;
    bool present = PQntuples(found) > 0;
    PQclear(found);
    if (present) {
        char ref[32];
        store_match_ref(match->match_id, ref);
        return apierr_set(err, 409, "match_exists",
                          "match %s is already here (imported twice?)", ref);
    }
    char *options = rules_sorted_json(match->options);
    db_params p = {0};
    db_params_int(&p, match->match_id);
    db_params_text(&p, match->game);
    db_params_int(&p, match->engine_version);
    db_params_text(&p, options);
    db_params_int(&p, match->seat_count);
    db_params_text(&p, match->status);
    db_params_int(&p, match->head_seq);
    db_params_text(&p, head_hash);
    db_params_text(&p, sealed);
    db_params_int(&p, match->created_by);
    db_params_text(&p, created_at);
    db_params_text(&p, updated_at);
    bool ok = db_command(conn,
                         "INSERT INTO matches (match_id, game, engine_version,"
                         " options, seat_count, status, head_seq, head_hash,"
                         " sealed_seed, created_by, created_at, updated_at)"
                         " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
                         " coalesce($11::timestamptz, now()),"
                         " coalesce($12::timestamptz, now()))",
                         p.count, p.values, err);
    free(options);
    if (!ok && strcmp(err->code, "database:23505") == 0) {
        char ref[32];
        store_match_ref(match->match_id, ref);
        return apierr_set(err, 409, "match_exists",
                          "match %s is already here (imported twice?)", ref);
    }
    return ok;
}

int store_seat_of(PGconn *conn, long long match_id, long long player_id,
                  apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, player_id);
    PGresult *r = db_query(conn,
                           "SELECT seat FROM seats WHERE match_id = $1"
                           " AND player_id = $2",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    int seat = r && PQntuples(r) ? atoi(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return seat;
}

int store_seats_recent_matches(PGconn *conn, long long player_id, int limit,
                               long long *match_ids, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, limit);
    PGresult *r = db_query(conn,
                           "SELECT m.match_id FROM seats s"
                           " JOIN matches m USING (match_id)"
                           " WHERE s.player_id = $1"
                           " ORDER BY m.status = 'finished', m.updated_at DESC"
                           " LIMIT $2::int",
                           p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = PQntuples(r) < limit ? PQntuples(r) : limit;
    for (int i = 0; i < count; i++)
        match_ids[i] = atoll(PQgetvalue(r, i, 0));
    PQclear(r);
    return count;
}

int store_seats_in_play(PGconn *conn, long long player_id, int limit,
                        store_seat_ref *seats, apierr *err)
{
    db_params p = {0};
    db_params_int(&p, player_id);
    db_params_int(&p, limit);
    PGresult *r =
        db_query(conn,
                 "SELECT s.match_id, s.seat FROM seats s JOIN matches m USING"
                 " (match_id) WHERE s.player_id = $1 AND m.status = 'active'"
                 " ORDER BY m.updated_at, s.match_id LIMIT $2::int",
                 p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return -1;
    int count = PQntuples(r) < limit ? PQntuples(r) : limit;
    for (int i = 0; i < count; i++) {
        seats[i].match_id = atoll(PQgetvalue(r, i, 0));
        seats[i].seat = atoi(PQgetvalue(r, i, 1));
    }
    PQclear(r);
    return count;
}

PGresult *store_matches_export_page(PGconn *conn, const char *status,
                                    const char *since, const char *until,
                                    const char *after_created,
                                    long long after_id, int limit, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, status);
    db_params_text(&p, since);
    db_params_text(&p, until);
    db_params_text(&p, after_created);
    db_params_int(&p, after_id);
    db_params_int(&p, limit);
    return db_query(
        conn,
        "SELECT match_id, created_at::text FROM matches"
        " WHERE ($1::text IS NULL OR status = $1)"
        "   AND ($2::timestamptz IS NULL OR updated_at >= $2::timestamptz)"
        "   AND ($3::timestamptz IS NULL OR updated_at < $3::timestamptz)"
        "   AND (created_at, match_id) > ($4::timestamptz, $5::bigint)"
        " ORDER BY created_at, match_id LIMIT $6::int",
        p.count, p.values, PGRES_TUPLES_OK, err);
}

bool store_match_membership(PGconn *conn, long long match_id,
                            long long player_id, bool *found, bool *member,
                            apierr *err)
{
    db_params p = {0};
    db_params_int(&p, match_id);
    db_params_int(&p, player_id);
    PGresult *r = db_query(
        conn,
        "SELECT m.created_by = $2 OR EXISTS (SELECT 1 FROM seats s"
        " WHERE s.match_id = $1 AND s.player_id = $2)"
        " FROM matches m WHERE m.match_id = $1",
        p.count, p.values, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *found = PQntuples(r) == 1;
    *member = *found && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    return true;
}
