/* mail_moves.c: see mail_moves.h. */
#include "mailin/mail_moves.h"

#include <stdlib.h>
#include <string.h>

#include "play/matchstate.h"
#include "play/request.h"
#include "store/db.h"
#include "store/event_texts.h"
#include "store/events.h"
#include "store/matches.h"

/* A match as a player's line is read in: the connection, the match,
 * its engine and the player's seat (-1: none). */
typedef struct seat_match {
    PGconn *conn;
    store_match match;
    const rules_engine *engine;
    int seat;
} seat_match;

/* Loads m; false with err filled. The caller frees m->match. */
static bool load(long long match_id, long long player_id, seat_match *m,
                 apierr *err)
{
    m->conn = db_conn(err);
    if (m->conn == NULL || !store_load_match(m->conn, match_id, &m->match, err))
        return false;
    m->engine = matchstate_engine(&m->match, err);
    if (m->engine == NULL) {
        store_match_free(&m->match);
        return false;
    }
    m->seat = request_seat_of(&m->match, player_id);
    return true;
}

/* Whether action is among the moves seat may make in state. */
static bool listed(const rules_engine *engine, const rules_state *state,
                   int seat, const json_t *action)
{
    json_t *legal = engine->legal(state, seat);
    bool found = false;
    size_t i;
    const json_t *move;
    json_array_foreach(json_object_get(legal, "moves"), i, move) found =
        found || json_equal(move, action);
    json_decref(legal);
    return found;
}

bool mail_moves_read(long long match_id, long long player_id, const char *line,
                     mail_moves_reading *reading, apierr *err)
{
    *reading = MAIL_MOVES_A_MOVE;
    seat_match m;
    if (!load(match_id, player_id, &m, err))
        return false;
    if (m.seat < 0)
        *reading = MAIL_MOVES_NO_SEAT;
    bool ok = true;
    if (m.seat >= 0 && matchstate_has_state(&m.match)) {
        rules_state *state = matchstate_load(m.conn, &m.match, m.engine, err);
        ok = state != NULL;
        if (ok) {
            rules_error rerr = {{0}};
            json_t *action = m.engine->parse_move(state, m.seat, line, &rerr);
            if (action == NULL)
                *reading = MAIL_MOVES_NOT_A_MOVE;
            else if (listed(m.engine, state, m.seat, action))
                *reading = MAIL_MOVES_LEGAL;
            json_decref(action);
            m.engine->destroy(state);
        }
    }
    store_match_free(&m.match);
    return ok;
}

/* Seat names as rules_tell takes them. */
static void names_of(const store_match *match, const char **names)
{
    for (int s = 0; s < match->seat_count && s < STORE_MAX_SEATS; s++)
        names[s] = match->seat_name[s][0] ? match->seat_name[s] : "?";
}

/* The sentence the append kept for the move at seq, told to player's
 * seat (store/event_texts.h: the same rules_tell, at the time of the
 * move): written and true; false when none is kept (a move appended
 * before the sentences were), or on a database error, then told again
 * from the log. The kept one spares loading the match, reading the event
 * and replaying from the last snapshot up to the move (four statements
 * and the rules' work) for two small reads. */
static bool tell_kept(FILE *out, long long match_id, long long seq,
                      long long player_id)
{
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL)
        return false;
    int seat = store_seat_of(conn, match_id, player_id, &err);
    json_t *told = store_event_texts_told(
        conn, match_id, seat >= 0 ? seat : STORE_EVENT_TEXTS_PUBLIC, seq - 1,
        seq, &err);
    const json_t *row = json_array_get(told, 0);
    const char *text = json_string_value(json_object_get(row, "text"));
    bool kept = seq > 1 && text != NULL && text[0] != '\0' &&
                json_integer_value(json_object_get(row, "seq")) == seq &&
                json_is_integer(json_object_get(row, "seat"));
    if (kept)
        fputs(text, out);
    json_decref(told);
    return kept;
}

bool mail_moves_tell(FILE *out, long long match_id, long long seq,
                     long long player_id, apierr *err)
{
    if (tell_kept(out, match_id, seq, player_id))
        return true;
    seat_match m;
    if (!load(match_id, player_id, &m, err))
        return false;
    json_t *events = seq > 1
                         ? store_events_after(m.conn, match_id, seq - 1, 1, err)
                         : json_array();
    const json_t *event = json_array_get(events, 0);
    const json_t *action =
        json_object_get(json_object_get(event, "data"), "action");
    const json_t *actor = json_object_get(event, "seat");
    rules_state *before = NULL, *after = NULL;
    bool ok = events != NULL;
    if (ok && action != NULL && json_is_integer(actor)) {
        before = matchstate_at(m.conn, &m.match, m.engine, seq - 1, err);
        after = before ? m.engine->clone(before) : NULL;
        rules_error rerr = {{0}};
        if (after != NULL &&
            m.engine->apply(after, (int)json_integer_value(actor), action,
                            &rerr)) {
            const char *names[STORE_MAX_SEATS] = {0};
            names_of(&m.match, names);
            char *told = rules_tell(m.engine, before, after,
                                    (int)json_integer_value(actor), action,
                                    m.seat, names);
            fputs(told, out);
            free(told);
        } else {
            ok = before != NULL;
            if (ok)
                fputs("Done.", out);
        }
    } else if (ok) {
        fputs("Done.", out);
    }
    if (before != NULL)
        m.engine->destroy(before);
    if (after != NULL)
        m.engine->destroy(after);
    json_decref(events);
    store_match_free(&m.match);
    return ok;
}

/* "Carol", "Carol and Bob", "Carol, Dave and Bob". */
static void write_names(FILE *out, const store_match *match,
                        const json_t *seats)
{
    size_t count = json_array_size(seats);
    for (size_t i = 0; i < count; i++) {
        json_int_t s = json_integer_value(json_array_get(seats, i));
        const char *name =
            s >= 0 && s < match->seat_count && match->seat_name[s][0]
                ? match->seat_name[s]
                : "another player";
        fprintf(out, "%s%s",
                i == 0           ? ""
                : i + 1 == count ? " and "
                                 : ", ",
                name);
    }
}

bool mail_moves_tell_sealed(FILE *out, long long match_id, long long player_id,
                            const char *line, const json_t *committed,
                            apierr *err)
{
    seat_match m;
    if (!load(match_id, player_id, &m, err))
        return false;
    const json_t *pending = json_object_get(committed, "pending");
    json_t *waiting = json_array();
    size_t i;
    const json_t *s;
    json_array_foreach(json_object_get(pending, "seats"), i, s)
    {
        if (json_integer_value(s) != m.seat)
            json_array_append(waiting, (json_t *)s);
    }
    /* Two lines, each within a mail's 72 columns with common names. */
    fprintf(out, "Sealed: %s.\n", line);
    if (json_is_true(json_object_get(committed, "decided")) ||
        json_array_size(waiting) == 0) {
        /* The table under it is after the reveal, and often already
         * waits for everyone's next secret choice: said so, or "everyone
         * has chosen" above "waiting for you" reads as a contradiction. */
        fputs("Everyone has chosen, so the choices are revealed: the table "
              "below\nshows the match after them.",
              out);
    } else {
        fputs("Nobody sees it until everyone has chosen; waiting for ", out);
        write_names(out, &m.match, waiting);
        fputc('.', out);
    }
    json_decref(waiting);
    store_match_free(&m.match);
    return true;
}
