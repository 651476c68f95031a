/* describe.c: what the views show of a match (describe.h). */
#include "play/describe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hex.h"
#include "deadlines/deadline_settings.h"
#include "deadlines/deadlines.h"
#include "ledger/forfeit.h"
#include "notify/seat_text.h"
#include "play/event_log.h"
#include "store/db.h"
#include "store/event_texts.h"
#include "store/sealed_choices.h"

json_t *describe_pending_json(const rules_pending *pending, uint32_t committed,
                              uint32_t unrevealed)
{
    json_t *seats = json_array();
    json_t *done = json_array();
    json_t *reveal = json_array();
    bool all_committed = (pending->seats & ~committed) == 0;
    for (int s = 0; s < 32; s++) {
        if (!(pending->seats & (1u << s)))
            continue;
        json_array_append_new((committed & (1u << s)) ? done : seats,
                              json_integer(s));
        if (all_committed && (unrevealed & (1u << s)))
            json_array_append_new(reveal, json_integer(s));
    }
    json_t *out =
        json_pack("{s:s,s:o,s:s}", "wait", rules_wait_name(pending->wait),
                  "seats", seats, "prompt", pending->prompt);
    if (pending->decision[0] != '\0') {
        json_object_set_new(out, "decision", json_string(pending->decision));
        json_object_set_new(out, "committed", done);
        json_object_set_new(out, "reveal", reveal);
    } else {
        json_decref(done);
        json_decref(reveal);
    }
    return out;
}

/* Seats of an open sealed decision that have committed already: they
 * have acted, even though the rules still wait for the decision; and
 * those of them whose own commitment is not revealed yet. False with err
 * filled when the database failed: a view must not show a committed seat
 * as still to choose. */
static bool committed_seats(long long match_id, const rules_pending *pending,
                            uint32_t *committed, uint32_t *unrevealed,
                            apierr *err)
{
    *committed = *unrevealed = 0;
    if (pending->wait != RULES_WAIT_SIMULTANEOUS)
        return true;
    PGconn *conn = db_conn(err);
    return conn != NULL &&
           sealed_choices_progress(conn, match_id, pending->decision, committed,
                                   unrevealed, err);
}

/* A match that ended by forfeit is over although its rules still wait
 * for someone. */
static bool ended_early(const store_match *match, const rules_engine *engine,
                        const rules_state *state)
{
    rules_pending pending;
    engine->pending(state, &pending);
    return strcmp(match->status, "finished") == 0 &&
           pending.wait != RULES_WAIT_NOBODY;
}

/* Who must act, as the views show it (describe_pending); NULL with err
 * filled when the database failed. */
static json_t *pending_of(const store_match *match, const rules_engine *engine,
                          const rules_state *state, uint32_t *committed,
                          apierr *err)
{
    rules_pending pending;
    describe_pending(match, engine, state, &pending);
    uint32_t unrevealed;
    if (!committed_seats(match->match_id, &pending, committed, &unrevealed,
                         err))
        return NULL;
    return describe_pending_json(&pending, *committed, unrevealed);
}

bool describe_seat_must_act(const store_match *match,
                            const rules_engine *engine,
                            const rules_state *state, int seat)
{
    rules_pending pending;
    describe_pending(match, engine, state, &pending);
    if (seat < 0 || seat >= 32 || !(pending.seats & (1u << seat)))
        return false;
    uint32_t committed, unrevealed;
    apierr err;
    if (!committed_seats(match->match_id, &pending, &committed, &unrevealed,
                         &err))
        return false; /* cannot tell: describe.h */
    if (!(committed & (1u << seat)))
        return true;
    bool all_committed = (pending.seats & ~committed) == 0;
    return all_committed && (unrevealed & (1u << seat));
}

/* The result the views show: the engine's, or after a forfeit the one the
 * finished event recorded (forfeit.h); NULL with err filled when that
 * cannot be read. */
static json_t *result_of(const store_match *match, const rules_engine *engine,
                         const rules_state *state, apierr *err)
{
    json_t *result = engine->result(state);
    if (!ended_early(match, engine, state))
        return result;
    uint32_t forfeited = 0;
    PGconn *conn = db_conn(err);
    if (conn == NULL ||
        !deadlines_forfeited(conn, match->match_id, &forfeited, err)) {
        json_decref(result);
        return NULL;
    }
    json_t *final = forfeit_result(result, forfeited);
    json_decref(result);
    return final;
}

/* Who must act (pending_of) and the result (result_of), both or neither:
 * false with err filled when either cannot be read. */
static bool pending_and_result(const store_match *match,
                               const rules_engine *engine,
                               const rules_state *state, uint32_t *committed,
                               json_t **pending, json_t **result, apierr *err)
{
    *pending = pending_of(match, engine, state, committed, err);
    *result = *pending ? result_of(match, engine, state, err) : NULL;
    if (*result != NULL)
        return true;
    json_decref(*pending);
    *pending = NULL;
    return false;
}

/* Deadlines: the settings and every seat's clock; a match without
 * deadlines shows clocks only when its rules time a window of their own
 * (rules.h window), so a seat sees when it closes. False with err filled
 * when the database failed: a view without its clocks would say the match
 * has none. */
static bool describe_deadlines(json_t *out, const store_match *match,
                               const rules_engine *engine, apierr *err)
{
    deadline_settings settings;
    /* The connection only when needed: db_conn checks that it is still
     * open, two reads on its socket, and most views need none. */
    PGconn *conn = NULL;
    if (!deadline_settings_cached(match->match_id, &settings) &&
        ((conn = db_conn(err)) == NULL ||
         !deadline_settings_load(conn, match->match_id, &settings, err)))
        return false;
    if (settings.enabled)
        json_object_set_new(out, "deadline", deadline_settings_json(&settings));
    else if (engine == NULL || engine->window == NULL)
        return true;
    if (conn == NULL && (conn = db_conn(err)) == NULL)
        return false;
    json_t *clocks = deadlines_describe(conn, match, err);
    if (clocks == NULL)
        return false;
    json_object_set_new(out, "clocks", clocks);
    return true;
}

void describe_pending(const store_match *match, const rules_engine *engine,
                      const rules_state *state, rules_pending *pending)
{
    engine->pending(state, pending);
    if (strcmp(match->status, "aborted") == 0) {
        memset(pending, 0, sizeof *pending);
        pending->wait = RULES_WAIT_NOBODY;
        snprintf(pending->prompt, sizeof pending->prompt,
                 "nothing: an admin aborted the match");
    } else if (strcmp(match->status, "finished") == 0 &&
               pending->wait != RULES_WAIT_NOBODY) {
        memset(pending, 0, sizeof *pending);
        pending->wait = RULES_WAIT_NOBODY;
        snprintf(pending->prompt, sizeof pending->prompt,
                 "the match ended by forfeit");
    }
}

/* The public description of a match (no hidden information). */
json_t *describe_match(const store_match *match, const rules_engine *engine,
                       const rules_state *state, apierr *err)
{
    char ref[32], head_hash[2 * STORE_HASH_BYTES + 1];
    store_match_ref(match->match_id, ref);
    hex_encode(match->head_hash, STORE_HASH_BYTES, head_hash);
    json_t *seats = json_array();
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == 0) {
            json_array_append_new(seats,
                                  json_pack("{s:i,s:n}", "seat", s, "player"));
            continue;
        }
        char player[32];
        store_player_ref(match->seat_player[s], player);
        json_array_append_new(seats,
                              json_pack("{s:i,s:s,s:s}", "seat", s, "player",
                                        player, "name", match->seat_name[s]));
    }
    json_t *out = json_pack(
        "{s:s,s:s,s:s,s:i,s:s,s:i,s:O,s:o,s:{s:I,s:s}}", "id", ref, "game",
        match->game, "title", engine ? engine->title : match->game,
        "engine_version", match->engine_version, "status", match->status,
        "seat_count", match->seat_count, "options", match->options, "seats",
        seats, "head", "seq", (json_int_t)match->head_seq, "hash", head_hash);
    if (!describe_deadlines(out, match, engine, err)) {
        json_decref(out);
        return NULL;
    }
    if (state != NULL && engine != NULL) {
        uint32_t committed;
        json_t *pending, *result;
        if (!pending_and_result(match, engine, state, &committed, &pending,
                                &result, err)) {
            json_decref(out);
            return NULL;
        }
        json_object_set_new(out, "pending", pending);
        json_object_set_new(out, "view", engine->view(state, RULES_SPECTATOR));
        json_object_set_new(out, "result", result);
    }
    return out;
}

/* The latest events told to seat, and where its last action stands among
 * them. Left out when they cannot be read: the view stands without. */
static void describe_log(json_t *answer, const store_match *match,
                         const rules_engine *engine, int seat)
{
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL)
        return;
    long long since = 0;
    json_t *log = event_log_told_acted(conn, match, engine, seat,
                                       match->head_seq - EVENT_LOG_VIEW_MAX,
                                       match->head_seq, &since, &err);
    if (log == NULL)
        return;
    json_object_set_new(answer, "log", log);
    json_object_set_new(answer, "since_seq", json_integer(since));
}

char *describe_told(const store_match *match, const rules_engine *engine,
                    const rules_state *before, const rules_state *after,
                    int seat, const json_t *action)
{
    const char *names[STORE_MAX_SEATS] = {0};
    for (int s = 0; s < match->seat_count && s < STORE_MAX_SEATS; s++)
        names[s] = match->seat_name[s];
    return rules_tell(engine, before, after, seat, action, seat, names);
}

/* What GET /view answers: the match, the seat's view and the moves it may
 * make now. state is NULL while the match waits for players. */
json_t *describe_seat_view(const store_match *match, const rules_engine *engine,
                           const rules_state *state, int seat, apierr *err)
{
    json_t *answer = describe_match(match, engine, NULL, err);
    if (answer == NULL)
        return NULL;
    json_object_set_new(answer, "seat", json_integer(seat));
    if (state == NULL)
        return answer;
    uint32_t committed;
    json_t *pending, *result;
    if (!pending_and_result(match, engine, state, &committed, &pending, &result,
                            err)) {
        json_decref(answer);
        return NULL;
    }
    json_object_set_new(answer, "pending", pending);
    json_t *view = engine->view(state, seat);
    json_object_set_new(answer, "view", view);
    char *text = seat_text_view_of(match, engine, state, seat, view);
    json_object_set_new(answer, "text", json_string(text));
    free(text);
    json_object_set_new(answer, "result", result);
    describe_log(answer, match, engine, seat);
    /* A seat that has sealed its choice, or whose match is over (by the
     * rules, a forfeit or an admin's abort), has nothing more to do now. */
    bool over = strcmp(match->status, "finished") == 0 ||
                strcmp(match->status, "aborted") == 0;
    json_t *legal =
        (committed & (1u << seat)) || over
            ? json_pack("{s:[],s:b,s:[]}", "moves", "complete", 1, "forms")
            : engine->legal(state, seat);
    json_t *texts = json_array();
    size_t i;
    json_t *move;
    json_array_foreach(json_object_get(legal, "moves"), i, move)
    {
        char *text = engine->format_move(state, seat, move);
        json_array_append_new(texts, text ? json_string(text) : json_null());
        free(text);
    }
    json_object_set_new(legal, "texts", texts);
    char *moves = seat_text_moves_of(legal, texts);
    json_object_set_new(answer, "moves_text", json_string(moves));
    free(moves);
    json_object_set_new(answer, "legal", legal);
    return answer;
}
