/* match_routes.c */
#include "http/match_routes.h"

#include <stdlib.h>

#include "notify/webhooks.h"
#include "play/decisions.h"
#include "play/invitations.h"
#include "play/matches.h"
#include "play/messages.h"
#include "play/nudge.h"
#include "play/replay_views.h"
#include "play/verify_cache.h"

#define EVENTS_PAGE_MAX 500

void match_routes_create(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 201, matches_create(call->who, call->request, &err),
                  &err);
}

void match_routes_show(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, matches_public(call->params->match_id, &err), &err);
}

void match_routes_events(const route_call *call, answer *out)
{
    apierr err;
    bool bad = false;
    long long after = route_query_number(call, "after", 0, &bad);
    long long limit = route_query_number(call, "limit", EVENTS_PAGE_MAX, &bad);
    if (bad || limit < 1 || limit > EVENTS_PAGE_MAX) {
        answer_error(out, 400, "bad_query",
                     "after must be a number >= 0 and limit 1 to 500");
        return;
    }
    json_t *page =
        matches_events(call->params->match_id, after, (int)limit, &err);
    answer_result(out, 200, page, &err);
}

/* Anyone may step through a finished match: its seed is public then. */
void match_routes_replay(const route_call *call, answer *out)
{
    apierr err;
    bool bad = false;
    long long seq = route_query_number(call, "seq", -1, &bad);
    if (bad || seq < 0) {
        answer_error(out, 400, "bad_query",
                     "seq must be given, a number >= 0 (0: before the first "
                     "event)");
        return;
    }
    json_t *step = replay_views_at(call->params->match_id, seq, &err);
    answer_result(out, 200, step, &err);
}

void match_routes_view(const route_call *call, answer *out)
{
    apierr err;
    json_t *view = matches_seat_view(call->who, call->params->match_id, &err);
    answer_result(out, 200, view, &err);
}

/* Anyone may check a match's whole chain of events. */
void match_routes_verify(const route_call *call, answer *out)
{
    apierr err;
    answer_result(out, 200, verify_cache_match(call->params->match_id, &err),
                  &err);
}

void match_routes_register_webhook(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = webhooks_register_once(call->who, call->params->match_id,
                                            call->request, &err);
    answer_result(out, 201, result, &err);
}

/* No body; a replayed nudge meets the rate limit. */
void match_routes_nudge(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = nudge_send(call->who, call->params->match_id, &err);
    answer_result(out, 202, result, &err);
}

/* A seat reads what it may; anyone a finished match's public messages. */
void match_routes_messages(const route_call *call, answer *out)
{
    apierr err;
    bool bad = false;
    long long after = route_query_number(call, "after", 0, &bad);
    long long limit =
        route_query_number(call, "limit", MESSAGES_PAGE_MAX, &bad);
    if (bad || limit < 1 || limit > MESSAGES_PAGE_MAX) {
        answer_error(out, 400, "bad_query",
                     "after must be a number >= 0 and limit 1 to 200");
        return;
    }
    json_t *page = messages_read(call->who, call->params->match_id, after,
                                 (int)limit, &err);
    answer_result(out, 200, page, &err);
}

void match_routes_say(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        messages_post(call->who, call->params->match_id, call->request, &err);
    answer_result(out, 201, result, &err);
}

/* The seat of mutes/{seat}, or -1 after answering 404. */
static int mute_seat(const route_call *call, answer *out)
{
    const char *text = call->params->id;
    char *end = NULL;
    long seat = text != NULL ? strtol(text, &end, 10) : -1;
    if (text == NULL || *text == '\0' || *end != '\0' || seat < 0 ||
        seat > 1000) {
        answer_error(out, 404, "no_such_seat", "seats are numbers from 0");
        return -1;
    }
    return (int)seat;
}

static void mute(const route_call *call, answer *out, bool muted)
{
    int seat = mute_seat(call, out);
    if (seat < 0)
        return;
    apierr err;
    json_t *result =
        messages_mute(call->who, call->params->match_id, seat, muted, &err);
    answer_result(out, 200, result, &err);
}

void match_routes_mute(const route_call *call, answer *out)
{
    mute(call, out, true);
}

void match_routes_unmute(const route_call *call, answer *out)
{
    mute(call, out, false);
}

/* Anyone may look; a signed request also shows the caller's own sealed
 * choice. */
void match_routes_decision(const route_call *call, answer *out)
{
    apierr err;
    json_t *shown = decisions_show(call->who, call->params->match_id,
                                   call->params->id, &err);
    answer_result(out, 200, shown, &err);
}

void match_routes_commit(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = decisions_commit(call->who, call->params->match_id,
                                      call->params->id, call->request, &err);
    answer_result(out, 200, result, &err);
}

void match_routes_reveal(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = decisions_reveal(call->who, call->params->match_id,
                                      call->params->id, call->request, &err);
    answer_result(out, 200, result, &err);
}

void match_routes_join(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        matches_join(call->who, call->params->match_id, call->request, &err);
    answer_result(out, 200, result, &err);
}

void match_routes_invite(const route_call *call, answer *out)
{
    apierr err;
    json_t *result = invitations_create(call->who, call->params->match_id,
                                        call->request, &err);
    answer_result(out, 201, result, &err);
}

/* With "Prefer: return=representation" the answer also holds the mover's
 * new seat view, and says so. */
static void move_answer(json_t *result, const apierr *err, answer *out)
{
    if (json_object_get(result, "seat_view") != NULL)
        out->preference_applied = "return=representation";
    answer_result(out, 200, result, err);
}

/* A move set aside while its commit ran, resumed. */
static void move_finish(void *later, answer *out)
{
    apierr err;
    json_t *result = matches_move_end(later, &err);
    move_answer(result, &err, out);
}

void match_routes_move(const route_call *call, answer *out)
{
    apierr err;
    matches_later *later = NULL;
    json_t *result = matches_move_begin(
        call->who, call->params->match_id, call->request,
        route_prefers_representation(call), call->waiter, &later, &err);
    if (later != NULL) {
        out->later = later;
        out->finish = move_finish;
        return;
    }
    move_answer(result, &err, out);
}
