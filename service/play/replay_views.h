/* replay_views.h: a finished match stepped through move by move. Once a
 * match is over its seed is public, so anyone may see every seat's view
 * at any event (GET /v1/matches/{id}/replay?seq=N): the state is rebuilt
 * by replaying the log through the engine up to N (matchstate_from_log),
 * which costs O(N) per call; nothing is cached. */
#ifndef SERVICE_PLAY_REPLAY_VIEWS_H
#define SERVICE_PLAY_REPLAY_VIEWS_H

#include <jansson.h>

#include "core/apierr.h"

/* {"match_id", "seq", "head_seq", "event" (as GET …/events has it; null at
 * 0), "views": [{"seat", "name", "view", "text"}], "public"} right after
 * event seq; view, text and public are null before the match started;
 * "messages": the talk to everyone written at that step (messages.h).
 * 404 "no_such_match", 404 "no_such_event" for seq outside 0..head, 409
 * "match_not_over" while the match is not finished. */
json_t *replay_views_at(long long match_id, long long seq, apierr *err);

#endif
