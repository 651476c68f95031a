/* notify_outbox.c */
#include "notify/notify_outbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "notify/mail.h"
#include "notify/mail_failures.h"
#include "notify/seat_text.h"
#include "store/db.h"
#include "store/db_params.h"
#include "store/event_texts.h"
#include "store/events.h"
#include "store/outbox.h"

#define MOVES_IN_PAYLOAD 50
#define CHANGES_MAX 30
#define LIST_LIMIT 100

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

/* The webhook event type of each reason. */
static const char *event_type(const char *reason)
{
    if (strcmp(reason, "match_over") == 0)
        return "match.over";
    if (strcmp(reason, "deadline_reminder") == 0)
        return "match.deadline_reminder";
    if (strcmp(reason, "deadline_admins") == 0)
        return "match.deadline_passed";
    return "match.your_turn";
}

/* What every recipient may know: public data only. result (borrowed) may
 * be NULL: the engine's. */
static json_t *public_payload(const store_match *match,
                              const rules_engine *engine,
                              const rules_state *state,
                              const rules_pending *pending, const char *reason,
                              const json_t *result)
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
        event_type(reason), "match", ref, "seq", (json_int_t)match->head_seq,
        "game", engine->name, "game_title", engine->title, "players", players,
        "seats", seats, "wait", rules_wait_name(pending->wait), "prompt",
        pending->prompt, "view", engine->view(state, RULES_SPECTATOR),
        "result",
        result ? json_deep_copy(result) : engine->result(state));
    if (payload == NULL)
        abort();
    return payload;
}

/* What happened since seat last acted, oldest first, as sentences told
 * to that seat with their outcomes ("Bob drew 2 cards.", "You were
 * attacked…": play/event_log.h keeps them, told as each event was
 * appended). An event appended before sentences were kept reads as it
 * did: "Bob: play red1 red3 red5". At most the CHANGES_MAX latest. */
static json_t *changes_since_last_turn(PGconn *conn, const store_match *match,
                                       int seat, apierr *err)
{
    PGresult *r = store_event_texts_since_seat_acted(conn, match->match_id,
                                                     seat, CHANGES_MAX, err);
    if (r == NULL)
        return NULL;
    json_t *changes = json_array();
    for (int i = 0; i < PQntuples(r); i++) {
        if (!PQgetisnull(r, i, 3)) {
            json_array_append_new(changes, json_string(PQgetvalue(r, i, 3)));
            continue;
        }
        int who = PQgetisnull(r, i, 0) ? -1 : atoi(PQgetvalue(r, i, 0));
        const char *name = who >= 0 && who < match->seat_count
                               ? match->seat_name[who]
                               : "someone";
        const char *kind = PQgetvalue(r, i, 1);
        char line[400];
        if (strcmp(kind, "move") == 0)
            snprintf(line, sizeof line, "%s: %s", name,
                     PQgetisnull(r, i, 2) ? "moved" : PQgetvalue(r, i, 2));
        else if (strcmp(kind, "committed") == 0)
            snprintf(line, sizeof line, "%s sealed a secret choice", name);
        else if (strcmp(kind, "decided") == 0)
            snprintf(line, sizeof line, "the secret choices were revealed");
        else
            continue;
        json_array_append_new(changes, json_string(line));
    }
    PQclear(r);
    return changes;
}

/* A string member made from a malloc'd text (freed). */
static void set_text(json_t *object, const char *key, char *text)
{
    json_object_set_new(object, key, json_string(text ? text : ""));
    free(text);
}

/* The public payload plus seat's own view and moves in text notation, and
 * both as a person reads them (seat_text.h: "text", "moves_text"). */
static json_t *seat_payload(const json_t *public, const store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, int seat)
{
    json_t *payload = json_deep_copy(public);
    json_object_set_new(payload, "seat", json_integer(seat));
    json_object_set_new(payload, "view", engine->view(state, seat));
    set_text(payload, "text", seat_text_view(match, engine, state, seat));
    json_t *legal = engine->legal(state, seat);
    set_text(payload, "moves_text",
             seat_text_moves(engine, state, seat, legal));
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

/* How long a seat's mail waits for the answer to the seat's own mailed
 * move, still being written (a sealed choice revealed in the meantime). */
#define NOTIFY_OUTBOX_ANSWER_WAIT_SECONDS 3

/* The names of the match's players in seat order (a new array). */
static json_t *seat_names(const store_match *match)
{
    json_t *players = json_array();
    for (int s = 0; s < match->seat_count; s++)
        json_array_append_new(players, json_string(match->seat_name[s]));
    return players;
}

/* One seat's rows (store_outbox_queue_seat): its webhooks, its email
 * when this service has SMTP, its event stream. */
static bool queue_seat(PGconn *conn, long long match_id, long long seq,
                       long long player_id, const char *reason,
                       const char *payload, apierr *err)
{
    return store_outbox_queue_seat(conn, match_id, seq, player_id, reason,
                                   payload, mail_configured(), err);
}

/* Whether seat was asked to act already, before the events, among seats
 * acting in any order (or in secret), and is asked now in the very same
 * decision: it was told then, and a second "your turn" email would only
 * repeat the first. Another Man's Treasure's next player, asked to draw
 * while the others answer "Can I have it?", is asked again when the last
 * of them answers (the wait goes from any order to one seat), and when
 * it draws before them (its play follows, which the answer to its mail
 * or the page shows). Unknown (before NULL): no. */
static bool asked_already(const rules_pending *before, const rules_pending *now,
                          int seat)
{
    return before != NULL &&
           (before->wait == RULES_WAIT_ANY_ORDER ||
            before->wait == RULES_WAIT_SIMULTANEOUS) &&
           (before->seats & (1u << seat)) &&
           strcmp(before->decision, now->decision) == 0;
}

/* The seats whose players can be told anything, read with the match
 * (store_load_match_reachable), so a match nobody listens to costs no
 * payload building and no inserts. */
static uint32_t listening_seats(const store_reachability *reach)
{
    /* Not read (a cached copy): every seat, and the SQL decides. */
    if (reach == NULL || reach->unknown)
        return ~0u;
    return reach->seat_has_webhook |
           (mail_configured() ? reach->seat_has_email : 0);
}

/* Whether seat may have been sent an email row: unknown counts as yes. */
static bool mailed(const store_reachability *reach, int seat)
{
    if (!mail_configured())
        return false;
    return reach == NULL || reach->unknown ||
           (reach->seat_has_email & (1u << seat));
}

/* Whether the match's relays may be told: unknown counts as yes. */
static bool relaying(const store_reachability *reach)
{
    return reach == NULL || reach->unknown || reach->relay_webhooks;
}

/* One row per enabled relay webhook of the match: public data only. */
static bool queue_relays(PGconn *conn, long long match_id, long long seq,
                         const char *reason, const json_t *public, apierr *err)
{
    char *text = json_dumps(public, JSON_COMPACT | JSON_SORT_KEYS);
    bool ok = store_outbox_queue_relays(conn, match_id, seq, reason, text,
                                        err);
    free(text);
    return ok;
}

/* The rows for whoever must act (every seat when over) among the seats in
 * only, and the match relays'; result as in public_payload. */
static bool queue(PGconn *conn, const store_match *match,
                  const store_reachability *reach, const rules_engine *engine,
                  const rules_state *state, const rules_state *before,
                  bool over, uint32_t only, const json_t *result, apierr *err)
{
    uint32_t listening = listening_seats(reach);
    bool relay = relaying(reach);
    rules_pending pending, was;
    engine->pending(state, &pending);
    if (before != NULL)
        engine->pending(before, &was);
    if (over)
        pending.wait = RULES_WAIT_NOBODY;
    uint32_t recipients = (over ? ~0u : pending.seats) & listening & only;
    if (recipients == 0 && !relay)
        return true;
    const char *reason = over ? "match_over" : "your_turn";
    json_t *public = public_payload(match, engine, state, &pending, reason,
                                    result);
    bool ok = true;
    for (int s = 0; ok && s < match->seat_count; s++) {
        if (!(recipients & (1u << s)))
            continue;
        json_t *payload = seat_payload(public, match, engine, state, s);
        json_t *changes = changes_since_last_turn(conn, match, s, err);
        if (changes == NULL) {
            json_decref(payload);
            ok = false;
            break;
        }
        json_object_set_new(payload, "changes", changes);
        if (over) {
            json_object_set_new(payload, "moves", json_array());
            json_object_set_new(payload, "moves_text", json_string(""));
        }
        char *text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(payload);
        bool mail =
            over || !asked_already(before != NULL ? &was : NULL, &pending, s);
        ok = store_outbox_queue_seat(conn, match->match_id, match->head_seq,
                                     match->seat_player[s], reason, text,
                                     mail && mail_configured(), err);
        free(text);
        /* One mail per decision: a seat whose mailed move leaves it to act
         * again reads its next turn in the answer to that mail; a player
         * on the web page sees it there (notify_seen.h). */
        if (ok && !over && mailed(reach, s))
            ok = store_outbox_spare_turn_mail(
                conn, match->match_id, match->head_seq, s,
                match->seat_player[s],
                (int)config_whole(CONFIG_MAIL_SEEN_MINUTES), err);
        /* A seat whose mailed move is still being answered: its mail
         * waits a moment, for the answer to come inside it. */
        if (ok && mailed(reach, s) &&
            config_whole(CONFIG_MAIL_ANSWER_HOLD_SECONDS) > 0)
            ok = store_outbox_wait_for_answer(
                conn, match->match_id, match->head_seq, s,
                match->seat_player[s], NOTIFY_OUTBOX_ANSWER_WAIT_SECONDS, err);
    }
    if (ok && relay)
        ok = queue_relays(conn, match->match_id, match->head_seq, reason,
                          public, err);
    json_decref(public);
    return ok;
}

json_t *notify_outbox_turn_payload(PGconn *conn, const store_match *match,
                                   const rules_engine *engine,
                                   const rules_state *state, int seat,
                                   apierr *err)
{
    rules_pending pending;
    engine->pending(state, &pending);
    json_t *public = public_payload(match, engine, state, &pending,
                                    "your_turn", NULL);
    json_t *payload = seat_payload(public, match, engine, state, seat);
    json_decref(public);
    json_t *changes = changes_since_last_turn(conn, match, seat, err);
    if (changes == NULL) {
        json_decref(payload);
        return NULL;
    }
    json_object_set_new(payload, "changes", changes);
    return payload;
}

bool notify_outbox_queue(PGconn *conn, const store_match *match,
                         const store_reachability *reach,
                         const rules_engine *engine, const rules_state *state,
                         const rules_state *before, apierr *err)
{
    rules_pending pending;
    engine->pending(state, &pending);
    return queue(conn, match, reach, engine, state, before,
                 pending.wait == RULES_WAIT_NOBODY, ~0u, NULL, err);
}

bool notify_outbox_queue_seats(PGconn *conn, const store_match *match,
                               const store_reachability *reach,
                               const rules_engine *engine,
                               const rules_state *state, uint32_t only,
                               apierr *err)
{
    rules_pending pending;
    engine->pending(state, &pending);
    return queue(conn, match, reach, engine, state, NULL,
                 pending.wait == RULES_WAIT_NOBODY, only, NULL, err);
}

bool notify_outbox_queue_over(PGconn *conn, const store_match *match,
                              const store_reachability *reach,
                              const rules_engine *engine,
                              const rules_state *state, const json_t *result,
                              apierr *err)
{
    return queue(conn, match, reach, engine, state, NULL, true, ~0u, result,
                 err);
}

bool notify_outbox_queue_aborted(PGconn *conn, const store_match *match,
                                 const store_reachability *reach,
                                 const rules_engine *engine,
                                 const rules_state *state, const char *why,
                                 apierr *err)
{
    uint32_t listening = listening_seats(reach);
    bool relay = relaying(reach);
    if (listening == 0 && !relay)
        return true;
    char ref[32];
    store_match_ref(match->match_id, ref);
    json_t *players = seat_names(match);
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
    bool ok = true;
    for (int s = 0; ok && s < match->seat_count; s++) {
        if (!(listening & (1u << s)))
            continue;
        json_t *payload = json_deep_copy(public);
        json_object_set_new(payload, "seat", json_integer(s));
        if (state != NULL) {
            json_object_set_new(payload, "view", engine->view(state, s));
            set_text(payload, "text", seat_text_view(match, engine, state, s));
        }
        char *text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(payload);
        ok = queue_seat(conn, match->match_id, match->head_seq,
                        match->seat_player[s], "match_aborted", text, err);
        free(text);
    }
    if (ok && relay)
        ok = queue_relays(conn, match->match_id, match->head_seq,
                          "match_aborted", public, err);
    json_decref(public);
    return ok;
}

bool notify_outbox_queue_found(PGconn *conn, const store_match *match,
                               const rules_engine *engine, apierr *err)
{
    char ref[32];
    store_match_ref(match->match_id, ref);
    json_t *players = seat_names(match);
    json_t *public = json_pack(
        "{s:s,s:s,s:I,s:s,s:s,s:o}", "type", "match.found", "match", ref, "seq",
        (json_int_t)match->head_seq, "game", match->game, "game_title",
        engine ? engine->title : match->game, "players", players);
    if (public == NULL)
        abort();
    bool ok = true;
    for (int s = 0; ok && s < match->seat_count; s++) {
        json_object_set_new(public, "seat", json_integer(s));
        char *text = json_dumps(public, JSON_COMPACT | JSON_SORT_KEYS);
        ok = queue_seat(conn, match->match_id, match->head_seq,
                        match->seat_player[s], "match_found", text, err);
        free(text);
    }
    json_decref(public);
    return ok;
}

bool notify_outbox_queue_nudge(PGconn *conn, const store_match *match,
                               const rules_engine *engine,
                               const rules_state *state, int seat,
                               long long nudge_id, const char *nudged_by,
                               apierr *err)
{
    rules_pending pending;
    engine->pending(state, &pending);
    json_t *public = public_payload(match, engine, state, &pending, "nudge",
                                    NULL);
    json_t *payload = seat_payload(public, match, engine, state, seat);
    json_decref(public);
    json_t *changes = changes_since_last_turn(conn, match, seat, err);
    if (changes == NULL) {
        json_decref(payload);
        return false;
    }
    json_object_set_new(payload, "changes", changes);
    json_object_set_new(payload, "type", json_string("match.nudge"));
    json_object_set_new(payload, "nudged_by", json_string(nudged_by));
    char *text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(payload);
    /* Unique per nudge: the same turn may be nudged again a window later. */
    char reason[48];
    snprintf(reason, sizeof reason, "nudge_%lld", nudge_id);
    bool ok = queue_seat(conn, match->match_id, match->head_seq,
                         match->seat_player[seat], reason, text, err);
    free(text);
    return ok;
}

bool notify_outbox_remind(PGconn *conn, const store_match *match,
                          const store_reachability *reach,
                          const rules_engine *engine, const rules_state *state,
                          int seat, long long seq, const json_t *deadline,
                          apierr *err)
{
    if (!(listening_seats(reach) & (1u << seat)))
        return true;
    rules_pending pending;
    engine->pending(state, &pending);
    json_t *public = public_payload(match, engine, state, &pending,
                                    "deadline_reminder", NULL);
    json_t *payload = seat_payload(public, match, engine, state, seat);
    json_decref(public);
    json_object_set(payload, "deadline", (json_t *)deadline);
    char *text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(payload);
    bool ok = queue_seat(conn, match->match_id, seq, match->seat_player[seat],
                         "deadline_reminder", text, err);
    free(text);
    return ok;
}

bool notify_outbox_admins(PGconn *conn, const store_match *match,
                          const rules_engine *engine, const rules_state *state,
                          const json_t *deadline, apierr *err)
{
    rules_pending pending;
    engine->pending(state, &pending);
    json_t *payload = public_payload(match, engine, state, &pending,
                                     "deadline_admins", NULL);
    json_object_set(payload, "deadline", (json_t *)deadline);
    char *text = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(payload);
    bool ok = store_outbox_queue_admins(conn, match->match_id,
                                        match->head_seq, text, err);
    free(text);
    return ok;
}

static json_t *listing_row(const PGresult *r, int i, bool admin)
{
    char ref[48], match[32];
    long long match_id = atoll(PQgetvalue(r, i, STORE_OUTBOX_LIST_MATCH));
    notify_outbox_ref(match_id, atoll(PQgetvalue(r, i, STORE_OUTBOX_LIST_ID)),
                      ref);
    store_match_ref(match_id, match);
    const char *status = PQgetvalue(r, i, STORE_OUTBOX_LIST_STATUS);
    json_t *row = json_pack(
        "{s:s,s:s,s:I,s:s,s:s,s:s,s:i,s:s}", "id", ref, "match", match, "seq",
        (json_int_t)atoll(PQgetvalue(r, i, STORE_OUTBOX_LIST_SEQ)), "reason",
        PQgetvalue(r, i, STORE_OUTBOX_LIST_REASON), "channel",
        PQgetvalue(r, i, STORE_OUTBOX_LIST_CHANNEL), "status", status,
        "attempts", atoi(PQgetvalue(r, i, STORE_OUTBOX_LIST_ATTEMPTS)),
        "created_at", PQgetvalue(r, i, STORE_OUTBOX_LIST_CREATED));
    if (!PQgetisnull(r, i, STORE_OUTBOX_LIST_LAST_ERROR))
        json_object_set_new(
            row, "last_error",
            json_string(PQgetvalue(r, i, STORE_OUTBOX_LIST_LAST_ERROR)));
    if (!PQgetisnull(r, i, STORE_OUTBOX_LIST_SENT))
        json_object_set_new(
            row, "sent_at",
            json_string(PQgetvalue(r, i, STORE_OUTBOX_LIST_SENT)));
    if (strcmp(status, "pending") == 0)
        json_object_set_new(
            row, "next_attempt_at",
            json_string(PQgetvalue(r, i, STORE_OUTBOX_LIST_NEXT_ATTEMPT)));
    if (admin) {
        char player[32];
        long long player_id =
            atoll(PQgetvalue(r, i, STORE_OUTBOX_LIST_PLAYER));
        if (player_id) {
            store_player_ref(player_id, player);
            json_object_set_new(row, "player", json_string(player));
        }
    }
    json_t *log = json_loads(PQgetvalue(r, i, STORE_OUTBOX_LIST_ATTEMPT_LOG),
                             0, NULL);
    json_object_set_new(row, "attempt_log", log ? log : json_array());
    return row;
}

/* {"notifications": [...]} of a listing's rows r (cleared here); NULL
 * when r is (the store's failure, err filled). */
static json_t *listing(PGresult *r, bool admin)
{
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
    json_t *list = listing(
        store_outbox_list_of_player(conn, player_id, LIST_LIMIT, err), false);
    json_t *email = list ? mail_failures_status(conn, player_id, err) : NULL;
    if (email == NULL) {
        json_decref(list);
        return NULL;
    }
    /* Whether the player's mail bounces (mail_failures.h). */
    if (json_is_object(email))
        json_object_set(list, "email", email);
    json_decref(email);
    return list;
}

json_t *notify_outbox_admin_list(const char *status, apierr *err)
{
    if (status == NULL)
        status = "dead";
    if (strcmp(status, "dead") != 0 && strcmp(status, "pending") != 0 &&
        strcmp(status, "sent") != 0 && strcmp(status, "cancelled") != 0)
        return apierr_set(err, 400, "bad_query",
                          "status must be dead, pending, sent or cancelled"),
               NULL;
    PGconn *conn = db_conn(err);
    if (conn == NULL)
        return NULL;
    return listing(store_outbox_list_in_status(conn, status, LIST_LIMIT, err),
                   true);
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
    char status[16];
    bool found;
    if (!store_outbox_status(conn, match_id, outbox_id, status, &found, err))
        return NULL;
    if (!found)
        return apierr_set(err, 404, "no_such_notification",
                          "there is no notification %s", ref),
               NULL;
    if (strcmp(status, "dead") != 0)
        return apierr_set(err, 409, "not_dead",
                          "only dead notifications can be retried"),
               NULL;
    if (!store_outbox_retry_dead(conn, match_id, outbox_id, err))
        return NULL;
    json_t *list =
        listing(store_outbox_list_one(conn, match_id, outbox_id, err), true);
    if (list == NULL)
        return NULL;
    json_t *row = json_incref(json_array_get(json_object_get(list, "notifications"), 0));
    json_decref(list);
    return json_pack("{s:o}", "notification", row);
}
