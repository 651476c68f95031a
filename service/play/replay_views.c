/* replay_views.c: a finished match at any event (replay_views.h). */
#include "play/replay_views.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "play/event_log.h"
#include "play/matchstate.h"
#include "play/messages.h"
#include "store/db.h"
#include "store/events.h"
#include "store/matches.h"
#include "store/store.h"

/* The seq of the log's "started" event, or 0 when there is none. */
static long long started_seq(const json_t *events)
{
    size_t i;
    const json_t *event;
    json_array_foreach(events, i, event) {
        const char *kind = json_string_value(json_object_get(event, "kind"));
        if (kind != NULL && strcmp(kind, "started") == 0)
            return (long long)i + 1;
    }
    return 0;
}

/* Every seat's view at state (NULL: not started yet), and the public
 * view into *public_view (new references). */
static json_t *seat_views(const store_match *match,
                          const rules_engine *engine,
                          const rules_state *state, json_t **public_view)
{
    json_t *views = json_array();
    for (int s = 0; s < match->seat_count; s++) {
        json_t *view = json_null();
        json_t *text = json_null();
        if (state != NULL) {
            json_decref(view);
            view = engine->view(state, s);
            char *words = engine->view_text ? engine->view_text(state, s)
                                            : NULL;
            if (words != NULL) {
                json_decref(text);
                text = json_string(words);
                free(words);
            }
        }
        json_array_append_new(
            views, json_pack("{s:i,s:o,s:o,s:o}", "seat", s, "name",
                             match->seat_player[s]
                                 ? json_string(match->seat_name[s])
                                 : json_null(),
                             "view", view ? view : json_null(), "text",
                             text ? text : json_null()));
    }
    *public_view = state != NULL ? engine->view(state, RULES_SPECTATOR)
                                 : json_null();
    if (*public_view == NULL)
        *public_view = json_null();
    return views;
}

json_t *replay_views_at(long long match_id, long long seq, apierr *err)
{
    PGconn *conn = db_conn(err);
    store_match match;
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    json_t *answer = NULL;
    json_t *events = NULL;
    rules_state *state = NULL;
    const rules_engine *engine = NULL;
    if (strcmp(match.status, "finished") != 0) {
        apierr_set(err, 409, "match_not_over",
                   "a match can be replayed once it is finished (its seed "
                   "is secret until then); this one is %s",
                   match.status);
        goto done;
    }
    if (seq < 0 || seq > match.head_seq) {
        apierr_set(err, 404, "no_such_event",
                   "seq must be between 0 and the match's head, %lld",
                   match.head_seq);
        goto done;
    }
    engine = matchstate_engine(&match, err);
    if (engine == NULL)
        goto done;
    events = store_events_after(conn, match_id, 0, (int)match.head_seq, err);
    if (events == NULL)
        goto done;
    long long started = started_seq(events);
    if (started > 0 && seq >= started) {
        state = matchstate_from_log(&match, engine, events, seq, false, err);
        if (state == NULL)
            goto done;
    }
    json_t *public_view;
    json_t *views = seat_views(&match, engine, state, &public_view);
    char ref[32];
    store_match_ref(match_id, ref);
    json_t *event = seq > 0 ? json_array_get(events, (size_t)(seq - 1))
                            : NULL;
    /* With its public sentence, as GET …/events has it. */
    json_t *one = json_array();
    if (event != NULL)
        json_array_append(one, event);
    bool told = event_log_annotate(conn, match_id, one, err);
    json_decref(one);
    if (!told) {
        json_decref(views);
        json_decref(public_view);
        goto done;
    }
    /* The talk to everyone at this step; private talk never. */
    json_t *talk = messages_public_at(conn, &match, seq, err);
    if (talk == NULL) {
        json_decref(views);
        json_decref(public_view);
        goto done;
    }
    answer = json_pack("{s:s,s:I,s:I,s:O,s:o,s:o,s:o}", "match_id", ref,
                       "seq", (json_int_t)seq, "head_seq",
                       (json_int_t)match.head_seq, "event",
                       event ? event : json_null(), "views", views, "public",
                       public_view, "messages", talk);
done:
    if (state != NULL)
        engine->destroy(state);
    json_decref(events);
    store_match_free(&match);
    return answer;
}
