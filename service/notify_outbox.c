/* notify_outbox.c */
#include "notify_outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "mail.h"

#define MOVES_IN_PAYLOAD 50
#define LIST_LIMIT "100"

void notify_outbox_ref(long long match_id, long long outbox_id, char out[48])
{
    snprintf(out, 48, "ntf_%lld_%lld", match_id, outbox_id);
}

bool notify_outbox_parse_ref(const char *text, long long *match_id,
                             long long *outbox_id)
{
    if (strncmp(text, "ntf_", 4) != 0)
        return false;
    char *end = NULL;
    const char *p = text + 4;
    if (*p < '1' || *p > '9')
        return false;
    *match_id = strtoll(p, &end, 10);
    if (*end != '_' || end[1] < '1' || end[1] > '9')
        return false;
    *outbox_id = strtoll(end + 1, &end, 10);
    return *end == '\0' && *match_id > 0 && *outbox_id > 0;
}

static const char *wait_name(rules_wait wait)
{
    switch (wait) {
    case RULES_WAIT_NOBODY: return "nobody";
    case RULES_WAIT_ONE: return "one";
    case RULES_WAIT_ANY_ORDER: return "any_order";
    case RULES_WAIT_SIMULTANEOUS: return "simultaneous";
    }
    return "unknown";
}

/* What every recipient may know: public data only. */
static json_t *public_payload(const store_match *match,
                              const rules_engine *engine,
                              const rules_state *state,
                              const rules_pending *pending, const char *reason)
{
    char ref[32];
    store_match_ref(match->match_id, ref);
    json_t *players = json_array(), *seats = json_array();
    for (int s = 0; s < match->seat_count; s++) {
        json_array_append_new(players, json_string(match->seat_name[s]));
        if (pending->wait != RULES_WAIT_NOBODY && (pending->seats & (1u << s)))
            json_array_append_new(seats, json_integer(s));
    }
    json_t *payload = json_pack(
        "{s:s,s:s,s:I,s:s,s:s,s:o,s:o,s:s,s:s,s:o,s:o}", "type",
        strcmp(reason, "match_over") == 0 ? "match.over" : "match.your_turn",
        "match", ref, "seq", (json_int_t)match->head_seq, "game", engine->name,
        "game_title", engine->title, "players", players, "seats", seats,
        "wait", wait_name(pending->wait), "prompt",
        pending->prompt, "view",
        engine->view(state, RULES_SPECTATOR), "result", engine->result(state));
    if (payload == NULL)
        abort();
    return payload;
}

/* The public payload plus seat's own view and moves in text notation. */
static json_t *seat_payload(const json_t *public, const rules_engine *engine,
                            const rules_state *state, int seat)
{
    json_t *payload = json_deep_copy(public);
    json_object_set_new(payload, "seat", json_integer(seat));
    json_object_set_new(payload, "view", engine->view(state, seat));
    json_t *legal = engine->legal(state, seat);
    json_t *moves = json_array();
    size_t i;
    json_t *action;
    json_array_foreach(json_object_get(legal, "moves"), i, action) {
        if (i >= MOVES_IN_PAYLOAD)
            break;
        char *text = engine->format_move(state, seat, action);
        if (text != NULL)
            json_array_append_new(moves, json_string(text));
        free(text);
    }
    json_object_set_new(payload, "moves", moves);
    json_t *forms = json_object_get(legal, "forms");
    json_object_set(payload, "forms", forms ? forms : json_array());
    json_object_set_new(payload, "moves_complete",
                        json_boolean(json_is_true(json_object_get(legal, "complete")) &&
                                     json_array_size(json_object_get(legal, "moves")) <=
                                         MOVES_IN_PAYLOAD));
    json_decref(legal);
    return payload;
}

/* Who among the players can be reached at all: a bit per seat whose player
 * has an email (when mail is configured) or a webhook, and whether the
 * match has relay webhooks. One round trip, so a match nobody listens to
 * costs no payload building and no inserts. */
static bool reachable(PGconn *conn, const store_match *match, uint32_t *seats,
                      bool *relay, apierr *err)
{
    char id[24], players[STORE_MAX_SEATS * 24 + 4];
    size_t used = (size_t)snprintf(players, sizeof players, "{");
    for (int s = 0; s < match->seat_count; s++)
        used += (size_t)snprintf(players + used, sizeof players - used, "%s%lld",
                                 s ? "," : "", match->seat_player[s]);
    snprintf(players + used, sizeof players - used, "}");
    snprintf(id, sizeof id, "%lld", match->match_id);
    const char *params[] = {players, mail_configured() ? "true" : "false", id};
    PGresult *r = db_query(
        conn,
        "SELECT p.player_id FROM players p"
        " WHERE p.player_id = ANY($1::bigint[])"
        "   AND ((p.email IS NOT NULL AND $2::boolean)"
        "        OR EXISTS (SELECT 1 FROM webhooks w"
        "                    WHERE w.player_id = p.player_id"
        "                      AND w.match_id IS NULL"
        "                      AND w.disabled_at IS NULL))"
        " UNION ALL"
        " SELECT 0 FROM webhooks w"
        "  WHERE w.match_id = $3::bigint AND w.disabled_at IS NULL",
        3, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return false;
    *seats = 0;
    *relay = false;
    for (int row = 0; row < PQntuples(r); row++) {
        long long player = atoll(PQgetvalue(r, row, 0));
        if (player == 0)
            *relay = true;
        for (int s = 0; s < match->seat_count; s++) {
            if (match->seat_player[s] == player)
                *seats |= 1u << s;
        }
    }
    PQclear(r);
    return true;
}

/* One row per channel of every seat in recipients (its payload made by
 * seat_of), and one per match relay webhook (the public payload). */
static bool
insert_rows(PGconn *conn, const store_match *match, uint32_t recipients,
            bool relay, const char *reason, const json_t *public,
            json_t *(*seat_of)(const json_t *public, int seat, const void *ctx),
            const void *ctx, apierr *err)
{
    char id[24], seq[24];
    snprintf(id, sizeof id, "%lld", match->match_id);
    snprintf(seq, sizeof seq, "%lld", match->head_seq);
    const char *with_mail = mail_configured() ? "true" : "false";
    bool ok = true;
    for (int s = 0; ok && s < match->seat_count; s++) {
        if (!(recipients & (1u << s)))
            continue;
        json_t *payload = seat_of(public, s, ctx);
        char *text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(payload);
        char player[24];
        snprintf(player, sizeof player, "%lld", match->seat_player[s]);
        const char *params[] = {id, seq, player, reason, text, with_mail};
        ok = db_command(
            conn,
            "INSERT INTO outbox (match_id, seq, player_id, channel, reason,"
            " payload, webhook_id)"
            " SELECT $1::bigint, $2::bigint, $3::bigint,"
            "        'webhook:' || w.webhook_id, $4::text, $5::jsonb, w.webhook_id"
            "   FROM webhooks w WHERE w.player_id = $3::bigint"
            "    AND w.match_id IS NULL"
            "    AND w.disabled_at IS NULL"
            " UNION ALL"
            " SELECT $1::bigint, $2::bigint, $3::bigint, 'email', $4::text,"
            "        $5::jsonb, NULL::bigint"
            "   FROM players p WHERE p.player_id = $3::bigint"
            "    AND p.email IS NOT NULL"
            "    AND $6::boolean"
            " ON CONFLICT DO NOTHING",
            6, params, err);
        free(text);
    }
    if (ok && relay) {
        char *text = json_dumps(public, JSON_COMPACT | JSON_SORT_KEYS);
        const char *params[] = {id, seq, reason, text};
        ok = db_command(
            conn,
            "INSERT INTO outbox (match_id, seq, player_id, channel, reason,"
            " payload, webhook_id)"
            " SELECT $1, $2, 0, 'webhook:' || w.webhook_id, $3, $4::jsonb,"
            "        w.webhook_id"
            "   FROM webhooks w WHERE w.match_id = $1 AND w.disabled_at IS NULL"
            " ON CONFLICT DO NOTHING",
            4, params, err);
        free(text);
    }
    return ok;
}

typedef struct play_ctx {
    const rules_engine *engine;
    const rules_state *state;
} play_ctx;

static json_t *play_payload(const json_t *public, int seat, const void *ctx)
{
    const play_ctx *play = ctx;
    return seat_payload(public, play->engine, play->state, seat);
}

bool notify_outbox_queue(PGconn *conn, const store_match *match,
                         const rules_engine *engine, const rules_state *state,
                         apierr *err)
{
    return notify_outbox_queue_seats(conn, match, engine, state, ~0u, err);
}

bool notify_outbox_queue_seats(PGconn *conn, const store_match *match,
                               const rules_engine *engine,
                               const rules_state *state, uint32_t only,
                               apierr *err)
{
    uint32_t listening = 0;
    bool relay = false;
    if (!reachable(conn, match, &listening, &relay, err))
        return false;
    rules_pending pending;
    engine->pending(state, &pending);
    bool over = pending.wait == RULES_WAIT_NOBODY;
    uint32_t recipients = (over ? ~0u : pending.seats) & listening & only;
    if (recipients == 0 && !relay)
        return true;
    const char *reason = over ? "match_over" : "your_turn";
    json_t *public = public_payload(match, engine, state, &pending, reason);
    play_ctx ctx = {engine, state};
    bool ok = insert_rows(conn, match, recipients, relay, reason, public,
                          play_payload, &ctx, err);
    json_decref(public);
    return ok;
}

static json_t *aborted_payload(const json_t *public, int seat, const void *ctx)
{
    const play_ctx *play = ctx;
    json_t *payload = json_deep_copy(public);
    json_object_set_new(payload, "seat", json_integer(seat));
    if (play->state != NULL)
        json_object_set_new(payload, "view",
                            play->engine->view(play->state, seat));
    return payload;
}

bool notify_outbox_queue_aborted(PGconn *conn, const store_match *match,
                                 const rules_engine *engine,
                                 const rules_state *state, const char *why,
                                 apierr *err)
{
    uint32_t listening = 0;
    bool relay = false;
    if (!reachable(conn, match, &listening, &relay, err))
        return false;
    if (listening == 0 && !relay)
        return true;
    char ref[32];
    store_match_ref(match->match_id, ref);
    json_t *players = json_array();
    for (int s = 0; s < match->seat_count; s++)
        json_array_append_new(players, json_string(match->seat_name[s]));
    json_t *public = json_pack(
        "{s:s,s:s,s:I,s:s,s:s,s:o,s:[],s:s,s:s,s:s}", "type", "match.aborted",
        "match", ref, "seq", (json_int_t)match->head_seq, "game", match->game,
        "game_title", engine ? engine->title : match->game, "players", players,
        "seats", "wait", "nobody", "prompt", "nothing: the match was aborted",
        "reason", why);
    if (public == NULL)
        abort();
    if (state != NULL) {
        json_object_set_new(public, "view",
                            engine->view(state, RULES_SPECTATOR));
        json_object_set_new(public, "result", engine->result(state));
    }
    play_ctx ctx = {engine, state};
    bool ok = insert_rows(conn, match, listening, relay, "match_aborted",
                          public, aborted_payload, &ctx, err);
    json_decref(public);
    return ok;
}

#define TS(col) "to_char(" col " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

/* Columns every listing reads, in this order. */
static const char listing_columns[] =
    "o.match_id, o.outbox_id, o.seq, o.reason, o.channel, o.status,"
    " o.attempts, o.last_error, " TS("o.created_at") ", " TS("o.sent_at") ", "
    TS("o.next_attempt_at") ", o.player_id,"
    " (SELECT coalesce(json_agg(json_build_object('attempt', a.attempt,"
    "   'at', " TS("a.attempted_at") ", 'outcome', a.outcome, 'code', a.code,"
    "   'error', a.error, 'duration_ms', a.duration_ms) ORDER BY a.attempt_id),"
    "   '[]') FROM outbox_attempts a"
    "  WHERE a.match_id = o.match_id AND a.outbox_id = o.outbox_id)";

static json_t *listing_row(const PGresult *r, int i, bool admin)
{
    char ref[48], match[32];
    notify_outbox_ref(atoll(PQgetvalue(r, i, 0)), atoll(PQgetvalue(r, i, 1)), ref);
    store_match_ref(atoll(PQgetvalue(r, i, 0)), match);
    const char *status = PQgetvalue(r, i, 5);
    json_t *row = json_pack(
        "{s:s,s:s,s:I,s:s,s:s,s:s,s:i,s:s}", "id", ref, "match", match, "seq",
        (json_int_t)atoll(PQgetvalue(r, i, 2)), "reason", PQgetvalue(r, i, 3),
        "channel", PQgetvalue(r, i, 4), "status", status, "attempts",
        atoi(PQgetvalue(r, i, 6)), "created_at", PQgetvalue(r, i, 8));
    if (!PQgetisnull(r, i, 7))
        json_object_set_new(row, "last_error", json_string(PQgetvalue(r, i, 7)));
    if (!PQgetisnull(r, i, 9))
        json_object_set_new(row, "sent_at", json_string(PQgetvalue(r, i, 9)));
    if (strcmp(status, "pending") == 0)
        json_object_set_new(row, "next_attempt_at",
                            json_string(PQgetvalue(r, i, 10)));
    if (admin) {
        char player[32];
        long long player_id = atoll(PQgetvalue(r, i, 11));
        if (player_id) {
            store_player_ref(player_id, player);
            json_object_set_new(row, "player", json_string(player));
        }
    }
    json_t *log = json_loads(PQgetvalue(r, i, 12), 0, NULL);
    json_object_set_new(row, "attempt_log", log ? log : json_array());
    return row;
}

static json_t *listing(PGconn *conn, const char *sql, int nparams,
                       const char *const *params, bool admin, apierr *err)
{
    PGresult *r = db_query(conn, sql, nparams, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    json_t *list = json_array();
    for (int i = 0; i < PQntuples(r); i++)
        json_array_append_new(list, listing_row(r, i, admin));
    PQclear(r);
    return json_pack("{s:o}", "notifications", list);
}

json_t *notify_outbox_mine(long long player_id, apierr *err)
{
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    char player[24];
    snprintf(player, sizeof player, "%lld", player_id);
    const char *params[] = {player};
    char sql[2048];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM outbox o WHERE o.player_id = $1"
             " OR (o.player_id = 0 AND o.webhook_id IN (SELECT webhook_id"
             "     FROM webhooks WHERE player_id = $1))"
             " ORDER BY o.created_at DESC, o.outbox_id DESC LIMIT " LIST_LIMIT,
             listing_columns);
    return listing(conn, sql, 1, params, false, err);
}

json_t *notify_outbox_admin_list(const char *status, apierr *err)
{
    if (status == NULL)
        status = "dead";
    if (strcmp(status, "dead") != 0 && strcmp(status, "pending") != 0 &&
        strcmp(status, "sent") != 0)
        return apierr_set(err, 400, "bad_query",
                          "status must be dead, pending or sent"),
               NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    const char *params[] = {status};
    char sql[2048];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM outbox o WHERE o.status = $1"
             " ORDER BY o.created_at DESC, o.outbox_id DESC LIMIT " LIST_LIMIT,
             listing_columns);
    return listing(conn, sql, 1, params, true, err);
}

json_t *notify_outbox_admin_retry(const char *ref, apierr *err)
{
    long long match_id, outbox_id;
    if (!notify_outbox_parse_ref(ref, &match_id, &outbox_id))
        return apierr_set(err, 404, "no_such_notification",
                          "notification ids look like ntf_12_34"),
               NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    char match[24], outbox[24];
    snprintf(match, sizeof match, "%lld", match_id);
    snprintf(outbox, sizeof outbox, "%lld", outbox_id);
    const char *params[] = {match, outbox};
    PGresult *r = db_query(conn,
                           "SELECT status FROM outbox"
                           " WHERE match_id = $1 AND outbox_id = $2",
                           2, params, PGRES_TUPLES_OK, err);
    if (r == NULL)
        return NULL;
    bool found = PQntuples(r) == 1;
    bool dead = found && strcmp(PQgetvalue(r, 0, 0), "dead") == 0;
    PQclear(r);
    if (!found)
        return apierr_set(err, 404, "no_such_notification",
                          "there is no notification %s", ref),
               NULL;
    if (!dead)
        return apierr_set(err, 409, "not_dead",
                          "only dead notifications can be retried"),
               NULL;
    if (!db_command(conn,
                    "UPDATE outbox SET status = 'pending', attempts = 0,"
                    " next_attempt_at = now(), last_error = NULL"
                    " WHERE match_id = $1 AND outbox_id = $2 AND status = 'dead'",
                    2, params, err) ||
        !db_command(conn, "SELECT pg_notify('pbem_outbox', '')", 0, NULL, err))
        return NULL;
    char sql[2048];
    snprintf(sql, sizeof sql,
             "SELECT %s FROM outbox o WHERE o.match_id = $1 AND o.outbox_id = $2",
             listing_columns);
    json_t *list = listing(conn, sql, 2, params, true, err);
    if (list == NULL)
        return NULL;
    json_t *row = json_incref(json_array_get(json_object_get(list, "notifications"), 0));
    json_decref(list);
    return json_pack("{s:o}", "notification", row);
}
