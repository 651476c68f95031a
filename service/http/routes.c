/* routes.c: URL → use case, JSON in and out, one error shape. */
#include "http/routes.h"
#include "play/retry.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "http/admin_routes.h"
#include "auth/auth.h"
#include "store/db.h"
#include "play/decisions.h"
#include "play/matches.h"
#include "play/players.h"
#include "core/metrics.h"
#include "notify/notify_outbox.h"
#include "notify/notify_settings.h"
#include "play/nudge.h"
#include "play/vacations.h"
#include "rules.h"
#include "store/store.h"
#include "ledger/verify.h"
#include "notify/webhooks.h"

#define EVENTS_PAGE_MAX 500

static char *dump(json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT);
    if (text == NULL)
        abort();
    return text;
}

void routes_error(route_answer *answer, int status, const char *code,
                  const char *message)
{
    json_t *body =
        json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", message);
    answer->status = status;
    answer->body = dump(body);
    answer->content_type = "application/json";
    json_decref(body);
}

void routes_answer_error(route_answer *answer, const apierr *err)
{
    json_t *body = json_pack("{s:{s:s,s:s}}", "error", "code", err->code,
                             "message", err->message);
    /* Database codes carry the SQLSTATE for the log, not for clients. */
    if (strncmp(err->code, "database", 8) == 0)
        json_object_set_new(json_object_get(body, "error"), "code",
                            json_string("internal"));
    if (err->head >= 0)
        json_object_set_new(json_object_get(body, "error"), "head",
                            json_integer(err->head));
    answer->status = err->status;
    answer->retry_after = err->retry_after;
    answer->body = dump(body);
    answer->content_type = "application/json";
    json_decref(body);
}

void routes_answer_json(route_answer *answer, int status, json_t *value)
{
    answer->status = status;
    answer->body = dump(value);
    answer->content_type = "application/json";
    json_decref(value);
}

void routes_answer_result(route_answer *answer, int status, json_t *value,
                          const apierr *err)
{
    if (value == NULL)
        routes_answer_error(answer, err);
    else
        routes_answer_json(answer, status, value);
}

json_t *routes_parse_body(const char *body, size_t len, apierr *err)
{
    if (body == NULL || len == 0) {
        apierr_set(err, 400, "bad_json",
                   "this request needs a JSON object body");
        return NULL;
    }
    json_error_t jerr;
    json_t *value = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (value == NULL) {
        apierr_set(err, 400, "bad_json",
                   "the body is not valid JSON: %s at line %d column %d",
                   jerr.text, jerr.line, jerr.column);
        return NULL;
    }
    if (!json_is_object(value)) {
        json_decref(value);
        apierr_set(err, 400, "bad_json", "the body must be a JSON object");
        return NULL;
    }
    return value;
}

static const char *lookup_header(void *ctx, const char *name)
{
    return MHD_lookup_connection_value(ctx, MHD_HEADER_KIND, name);
}

void routes_signed_request(struct MHD_Connection *conn, const char *method,
                           const char *target, const char *body, size_t len,
                           httpsig_request *req)
{
    const char *scheme = getenv("PBEM_PUBLIC_SCHEME");
    *req = (httpsig_request){
        .method = method,
        .target = target,
        .scheme = scheme ? scheme : "http",
        .authority = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "host"),
        .header = lookup_header,
        .header_ctx = conn,
        .body = (const unsigned char *)body,
        .body_len = len,
    };
}

/* How a signed request meets the nonces of earlier requests (a retry after
 * a timeout carries the same nonce and must get the same answer). */
typedef enum retry_check {
    RETRY_NONE,          /* a read: nothing is applied, nothing to replay */
    RETRY_BEFORE,        /* look the nonce up before the use case runs */
    RETRY_ON_FAILURE     /* the use case stores its nonce and answer in the
                            same transaction as its change, so a retry can
                            only fail (the nonce, or what it changed, is
                            taken): look the nonce up then, saving the hot
                            path a round trip */
} retry_check;

/* A stored answer for who's nonce: 1 with *answer set from it, -1 with
 * *answer set to the error (the nonce was used for a different request, or
 * the lookup failed), 0 when there is none. */
static int stored_answer(const caller *who, route_answer *answer)
{
    apierr err;
    retry_answer replay = {0};
    int found = retry_find(who, &replay, &err);
    if (found < 0) {
        routes_answer_error(answer, &err);
        return -1;
    }
    if (found == 1) {
        answer->status = replay.status;
        answer->body = replay.body;
        answer->content_type = "application/json";
    }
    return found;
}

/* Authenticates a player's request; with RETRY_BEFORE, a retry of an
 * already answered request is answered from the stored copy (returns 1),
 * never applied twice. -1: *answer holds the error. */
static int authenticate(struct MHD_Connection *conn, const char *method,
                        const char *target, const char *body, size_t len,
                        retry_check retry, caller *who, route_answer *answer)
{
    httpsig_request req;
    routes_signed_request(conn, method, target, body, len, &req);
    apierr err;
    if (!auth_player(&req, (int64_t)time(NULL), who, &err)) {
        routes_answer_error(answer, &err);
        return -1;
    }
    if (retry != RETRY_BEFORE)
        return 0;
    int found = stored_answer(who, answer);
    if (found != 0)
        auth_caller_free(who);
    return found;
}

/* The answer of a RETRY_ON_FAILURE use case: its result, or when it failed
 * the stored answer of an earlier request with the same nonce, or else its
 * error. Frees who. */
static void answer_use_case(caller *who, int status, json_t *result,
                            const apierr *err, route_answer *answer)
{
    if (result != NULL || stored_answer(who, answer) == 0)
        routes_answer_result(answer, status, result, err);
    auth_caller_free(who);
}

/* A state-changing player request: the signature first (with
 * RETRY_BEFORE, a retry gets its stored answer), then the JSON body.
 * False when *answer is already set;
 * otherwise the caller owns *request and must auth_caller_free(who). */
static bool signed_body(struct MHD_Connection *conn, const char *method,
                        const char *target, const char *body, size_t len,
                        retry_check retry, caller *who, json_t **request,
                        route_answer *answer)
{
    if (authenticate(conn, method, target, body, len, retry, who, answer))
        return false;
    apierr err;
    *request = routes_parse_body(body, len, &err);
    if (*request == NULL) {
        auth_caller_free(who);
        routes_answer_error(answer, &err);
        return false;
    }
    return true;
}

/* Routes under /v1/players/me/ (signed by the player) and /v1/admin/
 * (signed with the admin key): webhooks, notification status, dead
 * letters. */
static void notification_routes(struct MHD_Connection *conn, const char *method,
                                const char *url, const char *target,
                                const char *body, size_t len,
                                route_answer *answer)
{
    apierr err;
    caller who;
    bool is_get = strcmp(method, "GET") == 0;
    bool is_post = strcmp(method, "POST") == 0;
    static const char hooks[] = "/v1/players/me/webhooks";
    if (strcmp(url, "/v1/players/me/notifications") == 0) {
        answer->route = "GET /v1/players/me/notifications";
        if (!is_get) {
            routes_error(answer, 405, "method_not_allowed", "use GET");
            return;
        }
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who, answer))
            return;
        json_t *mine = notify_outbox_mine(who.player_id, &err);
        auth_caller_free(&who);
        routes_answer_result(answer, 200, mine, &err);
        return;
    }
    if (strcmp(url, "/v1/players/me/notification-settings") == 0) {
        bool is_put = strcmp(method, "PUT") == 0;
        answer->route = is_put ? "PUT /v1/players/me/notification-settings"
                               : "GET /v1/players/me/notification-settings";
        if (!is_get && !is_put) {
            routes_error(answer, 405, "method_not_allowed", "use GET or PUT");
            return;
        }
        /* PUT is idempotent: a replay sets the same settings again. */
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who,
                         answer))
            return;
        json_t *result = NULL;
        if (is_get) {
            result = notify_settings_get(who.player_id, &err);
        } else {
            json_t *request = routes_parse_body(body, len, &err);
            if (request != NULL)
                result = notify_settings_put(who.player_id, request, &err);
            json_decref(request);
        }
        auth_caller_free(&who);
        routes_answer_result(answer, 200, result, &err);
        return;
    }
    if (strcmp(url, hooks) == 0) {
        answer->route = is_post ? "POST /v1/players/me/webhooks"
                                : "GET /v1/players/me/webhooks";
        if (!is_get && !is_post) {
            routes_error(answer, 405, "method_not_allowed", "use GET or POST");
            return;
        }
        if (is_get) {
            if (authenticate(conn, method, target, body, len, RETRY_NONE,
                             &who, answer))
                return;
            json_t *list = webhooks_list(who.player_id, &err);
            auth_caller_free(&who);
            routes_answer_result(answer, 200, list, &err);
            return;
        }
        json_t *request;
        if (!signed_body(conn, method, target, body, len, RETRY_ON_FAILURE,
                         &who, &request, answer))
            return;
        json_t *result = webhooks_register_once(&who, 0, request, &err);
        json_decref(request);
        answer_use_case(&who, 201, result, &err, answer);
        return;
    }
    if (strncmp(url, hooks, sizeof hooks - 1) == 0 &&
        url[sizeof hooks - 1] == '/') {
        answer->route = "DELETE /v1/players/me/webhooks/{id}";
        if (strcmp(method, "DELETE") != 0) {
            routes_error(answer, 405, "method_not_allowed", "use DELETE");
            return;
        }
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who, answer))
            return;
        json_t *result =
            webhooks_disable_mine(who.player_id, url + sizeof hooks, &err);
        auth_caller_free(&who);
        routes_answer_result(answer, 200, result, &err);
        return;
    }
    routes_error(answer, 404, "not_found", "no such resource");
}


/* /v1/players/me/vacation (GET, POST) and /v1/players/me/vacation/{id}
 * (DELETE), signed by the player. */
static void vacation_routes(struct MHD_Connection *conn, const char *method,
                            const char *url, const char *target,
                            const char *body, size_t len, route_answer *answer)
{
    static const char base[] = "/v1/players/me/vacation";
    apierr err;
    caller who;
    bool one = url[sizeof base - 1] == '/';
    bool is_get = strcmp(method, "GET") == 0;
    bool is_post = strcmp(method, "POST") == 0;
    if (one) {
        answer->route = "DELETE /v1/players/me/vacation/{id}";
        if (strcmp(method, "DELETE") != 0) {
            routes_error(answer, 405, "method_not_allowed", "use DELETE");
            return;
        }
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who, answer))
            return;
        json_t *result =
            vacations_cancel(who.player_id, url + sizeof base, &err);
        auth_caller_free(&who);
        routes_answer_result(answer, 200, result, &err);
        return;
    }
    answer->route = is_post ? "POST /v1/players/me/vacation"
                            : "GET /v1/players/me/vacation";
    if (!is_get && !is_post) {
        routes_error(answer, 405, "method_not_allowed", "use GET or POST");
        return;
    }
    if (is_get) {
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who, answer))
            return;
        json_t *list = vacations_list(who.player_id, &err);
        auth_caller_free(&who);
        routes_answer_result(answer, 200, list, &err);
        return;
    }
    json_t *request;
    if (!signed_body(conn, method, target, body, len, RETRY_ON_FAILURE, &who,
                     &request, answer))
        return;
    json_t *result = vacations_declare(&who, request, &err);
    json_decref(request);
    answer_use_case(&who, 201, result, &err, answer);
}

static void healthz(route_answer *answer)
{
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL || !db_command(conn, "SELECT 1", 0, NULL, &err)) {
        routes_error(answer, 503, "database_unreachable",
                     "the database does not answer");
        return;
    }
    routes_answer_json(answer, 200, json_pack("{s:s}", "status", "ok"));
}

static long long query_number(struct MHD_Connection *conn, const char *name,
                              long long fallback, bool *bad)
{
    const char *text =
        MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
    if (text == NULL)
        return fallback;
    char *end = NULL;
    long long value = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || value < 0)
        *bad = true;
    return value;
}

/* Routes under /v1/matches/{id}/decisions/{decision}. */
static void decision_routes(struct MHD_Connection *conn, const char *method,
                            long long match_id, const char *rest,
                            const char *target, const char *body, size_t len,
                            route_answer *answer)
{
    apierr err;
    caller who;
    char decision[64];
    const char *slash = strchr(rest, '/');
    size_t id_len = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash : "";
    answer->route = "GET /v1/matches/{id}/decisions/{decision}";
    if (id_len == 0 || id_len >= sizeof decision) {
        routes_error(answer, 404, "no_such_decision",
                     "decision ids are 1 to 63 characters");
        return;
    }
    memcpy(decision, rest, id_len);
    decision[id_len] = '\0';
    if (action[0] == '\0') {
        if (strcmp(method, "GET") != 0) {
            routes_error(answer, 405, "method_not_allowed",
                         "use GET on a decision");
            return;
        }
        /* Anyone may look; a signed request also shows the caller's own
         * sealed choice. */
        bool signed_request = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                          "signature") != NULL;
        if (signed_request &&
            authenticate(conn, method, target, body, len, RETRY_NONE, &who, answer))
            return;
        json_t *shown = decisions_show(signed_request ? &who : NULL, match_id,
                                       decision, &err);
        if (signed_request)
            auth_caller_free(&who);
        routes_answer_result(answer, 200, shown, &err);
        return;
    }
    bool commit = strcmp(action, "/commit") == 0;
    bool reveal = strcmp(action, "/reveal") == 0;
    if (!commit && !reveal) {
        routes_error(answer, 404, "not_found", "no such resource");
        return;
    }
    answer->route = commit
                        ? "POST /v1/matches/{id}/decisions/{decision}/commit"
                        : "POST /v1/matches/{id}/decisions/{decision}/reveal";
    if (strcmp(method, "POST") != 0) {
        routes_error(answer, 405, "method_not_allowed", "use POST");
        return;
    }
    json_t *request;
    if (!signed_body(conn, method, target, body, len, RETRY_ON_FAILURE, &who,
                     &request, answer))
        return;
    json_t *result =
        commit ? decisions_commit(&who, match_id, decision, request, &err)
               : decisions_reveal(&who, match_id, decision, request, &err);
    json_decref(request);
    answer_use_case(&who, 200, result, &err, answer);
}

/* RFC 7240: "Prefer: return=representation" (among other preferences,
 * any case, in any of several Prefer headers) asks for the new state in
 * the answer. */
static enum MHD_Result find_representation(void *found, enum MHD_ValueKind kind,
                                           const char *name, const char *value)
{
    (void)kind;
    if (strcasecmp(name, "prefer") != 0 || value == NULL)
        return MHD_YES;
    /* Preferences are token[=value] separated by commas; tokens and this
     * value are case-insensitive, the value may be quoted. */
    char lower[512];
    size_t n = 0;
    for (const char *p = value; *p != '\0' && n + 1 < sizeof lower; p++) {
        if (*p != ' ' && *p != '\t' && *p != '"')
            lower[n++] = (char)tolower((unsigned char)*p);
    }
    lower[n] = '\0';
    for (const char *p = lower; (p = strstr(p, "return=representation")) != NULL;
         p++) {
        bool starts = p == lower || p[-1] == ',';
        char after = p[sizeof "return=representation" - 1];
        if (starts && (after == '\0' || after == ',' || after == ';')) {
            *(bool *)found = true;
            return MHD_NO;
        }
    }
    return MHD_YES;
}

static bool prefers_representation(struct MHD_Connection *conn)
{
    bool found = false;
    MHD_get_connection_values(conn, MHD_HEADER_KIND, find_representation,
                              &found);
    return found;
}

/* Routes under /v1/matches/{id}. */
static void match_routes(struct MHD_Connection *conn, const char *method,
                         long long match_id, const char *tail,
                         const char *target, const char *body, size_t len,
                         route_answer *answer)
{
    apierr err;
    caller who;
    bool is_get = strcmp(method, "GET") == 0;
    bool is_post = strcmp(method, "POST") == 0;
    if (tail[0] == '\0') {
        answer->route = "GET /v1/matches/{id}";
        if (!is_get) {
            routes_error(answer, 405, "method_not_allowed",
                         "use GET on a match");
            return;
        }
        routes_answer_result(answer, 200, matches_public(match_id, &err), &err);
        return;
    }
    if (strcmp(tail, "/events") == 0) {
        answer->route = "GET /v1/matches/{id}/events";
        if (!is_get) {
            routes_error(answer, 405, "method_not_allowed",
                         "use GET on events");
            return;
        }
        bool bad = false;
        long long after = query_number(conn, "after", 0, &bad);
        long long limit = query_number(conn, "limit", EVENTS_PAGE_MAX, &bad);
        if (bad || limit < 1 || limit > EVENTS_PAGE_MAX) {
            routes_error(answer, 400, "bad_query",
                         "after must be a number >= 0 and limit 1 to 500");
            return;
        }
        routes_answer_result(answer, 200,
                      matches_events(match_id, after, (int)limit, &err), &err);
        return;
    }
    if (strcmp(tail, "/view") == 0) {
        answer->route = "GET /v1/matches/{id}/view";
        if (!is_get) {
            routes_error(answer, 405, "method_not_allowed",
                         "use GET on a view");
            return;
        }
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who, answer))
            return;
        json_t *view = matches_seat_view(&who, match_id, &err);
        auth_caller_free(&who);
        routes_answer_result(answer, 200, view, &err);
        return;
    }
    if (strcmp(tail, "/verify") == 0) {
        answer->route = "GET /v1/matches/{id}/verify";
        if (!is_get) {
            routes_error(answer, 405, "method_not_allowed",
                         "use GET on verify");
            return;
        }
        json_t *events = matches_events(match_id, 0, 1000000, &err);
        if (events == NULL) {
            routes_answer_error(answer, &err);
            return;
        }
        verify_report report;
        verify_events(json_object_get(events, "events"), &report);
        json_decref(events);
        routes_answer_json(answer, 200, verify_report_json(&report));
        return;
    }
    if (strcmp(tail, "/webhooks") == 0) {
        answer->route = "POST /v1/matches/{id}/webhooks";
        if (!is_post) {
            routes_error(answer, 405, "method_not_allowed", "use POST");
            return;
        }
        json_t *request;
        if (!signed_body(conn, method, target, body, len, RETRY_ON_FAILURE,
                         &who, &request, answer))
            return;
        json_t *result = webhooks_register_once(&who, match_id, request, &err);
        json_decref(request);
        answer_use_case(&who, 201, result, &err, answer);
        return;
    }
    if (strcmp(tail, "/nudge") == 0) {
        answer->route = "POST /v1/matches/{id}/nudge";
        if (!is_post) {
            routes_error(answer, 405, "method_not_allowed", "use POST");
            return;
        }
        /* No body needed; a replayed nudge meets the rate limit. */
        if (authenticate(conn, method, target, body, len, RETRY_NONE, &who,
                         answer))
            return;
        json_t *result = nudge_send(&who, match_id, &err);
        auth_caller_free(&who);
        routes_answer_result(answer, 202, result, &err);
        return;
    }
    static const char decisions_prefix[] = "/decisions/";
    if (strncmp(tail, decisions_prefix, sizeof decisions_prefix - 1) == 0) {
        decision_routes(conn, method, match_id,
                        tail + sizeof decisions_prefix - 1, target, body, len,
                        answer);
        return;
    }
    bool join = strcmp(tail, "/join") == 0;
    bool move = strcmp(tail, "/moves") == 0;
    if (!join && !move) {
        answer->route = "unknown";
        routes_error(answer, 404, "not_found", "no such resource");
        return;
    }
    answer->route =
        join ? "POST /v1/matches/{id}/join" : "POST /v1/matches/{id}/moves";
    if (!is_post) {
        routes_error(answer, 405, "method_not_allowed", "use POST");
        return;
    }
    /* The signature is judged before the body is read as JSON. */
    json_t *request;
    if (!signed_body(conn, method, target, body, len, RETRY_ON_FAILURE, &who,
                     &request, answer))
        return;
    json_t *result = join ? matches_join(&who, match_id, request, &err)
                          : matches_move(&who, match_id, request,
                                         prefers_representation(conn), &err);
    if (json_object_get(result, "seat_view") != NULL)
        answer->preference_applied = "return=representation";
    json_decref(request);
    answer_use_case(&who, 200, result, &err, answer);
}

void routes_handle(struct MHD_Connection *conn, const char *method,
                   const char *url, const char *target, const char *body,
                   size_t len, route_answer *answer)
{
    apierr err;
    caller who;
    answer->route = "unknown";
    bool is_get = strcmp(method, "GET") == 0;
    bool is_post = strcmp(method, "POST") == 0;
    if (strcmp(url, "/healthz") == 0 && is_get) {
        answer->route = "GET /healthz";
        healthz(answer);
        return;
    }
    if (strcmp(url, "/metrics") == 0 && is_get) {
        answer->route = "GET /metrics";
        answer->status = 200;
        answer->body = metrics_render();
        answer->content_type = "text/plain; version=0.0.4";
        return;
    }
    if (strcmp(url, "/v1/games") == 0 && is_get) {
        answer->route = "GET /v1/games";
        routes_answer_json(answer, 200, matches_games());
        return;
    }
    if (strcmp(url, "/v1/players") == 0 && is_post) {
        answer->route = "POST /v1/players";
        /* The key to check the signature with is in the body. */
        json_t *request = routes_parse_body(body, len, &err);
        uint8_t public_key[32];
        if (request == NULL ||
            !players_registration_key(request, public_key, &err)) {
            json_decref(request);
            routes_answer_error(answer, &err);
            return;
        }
        httpsig_request req;
        routes_signed_request(conn, method, target, body, len, &req);
        if (!auth_new_key(&req, (int64_t)time(NULL), public_key, &who,
                          &err)) {
            json_decref(request);
            routes_answer_error(answer, &err);
            return;
        }
        json_t *player = players_register(&who, request, public_key,
                                                 &err);
        json_decref(request);
        answer_use_case(&who, 201, player, &err, answer);
        return;
    }
    if (strcmp(url, "/v1/matches") == 0 && is_post) {
        answer->route = "POST /v1/matches";
        json_t *request;
        if (!signed_body(conn, method, target, body, len, RETRY_ON_FAILURE,
                         &who, &request, answer))
            return;
        json_t *created = matches_create(&who, request, &err);
        json_decref(request);
        answer_use_case(&who, 201, created, &err, answer);
        return;
    }
    if (strcmp(url, "/v1/unsubscribe") == 0 && (is_get || is_post)) {
        answer->route = is_get ? "GET /v1/unsubscribe" : "POST /v1/unsubscribe";
        const char *player =
            MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "player");
        const char *token =
            MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "token");
        if (is_post) {
            routes_answer_result(answer, 200,
                          notify_settings_unsubscribe(player, token, &err), &err);
            return;
        }
        char *page = notify_settings_unsubscribe_page(player, token, &err);
        if (page == NULL) {
            routes_answer_error(answer, &err);
            return;
        }
        answer->status = 200;
        answer->body = page;
        answer->content_type = "text/html; charset=utf-8";
        return;
    }
    if (strcmp(url, "/v1/players/me/vacation") == 0 ||
        strncmp(url, "/v1/players/me/vacation/", 24) == 0) {
        vacation_routes(conn, method, url, target, body, len, answer);
        return;
    }
    if (strncmp(url, "/v1/players/me/", 15) == 0) {
        notification_routes(conn, method, url, target, body, len, answer);
        return;
    }
    if (strncmp(url, "/v1/admin/", 10) == 0) {
        admin_routes_handle(conn, method, url, target, body, len, answer);
        return;
    }
    static const char prefix[] = "/v1/matches/";
    if (strncmp(url, prefix, sizeof prefix - 1) == 0) {
        const char *ref = url + sizeof prefix - 1;
        const char *slash = strchr(ref, '/');
        size_t ref_len = slash ? (size_t)(slash - ref) : strlen(ref);
        char id_text[32];
        if (ref_len < sizeof id_text) {
            memcpy(id_text, ref, ref_len);
            id_text[ref_len] = '\0';
            long long match_id = store_parse_match_ref(id_text);
            if (match_id > 0) {
                match_routes(conn, method, match_id, ref + ref_len, target,
                             body, len, answer);
                return;
            }
        }
        answer->route = "GET /v1/matches/{id}";
        routes_error(answer, 404, "no_such_match",
                     "match ids look like m_1234");
        return;
    }
    if (strcmp(url, "/healthz") == 0 || strcmp(url, "/metrics") == 0 ||
        strcmp(url, "/v1/games") == 0 || strcmp(url, "/v1/players") == 0 ||
        strcmp(url, "/v1/matches") == 0) {
        routes_error(answer, 405, "method_not_allowed",
                     "this resource does not accept that method");
        return;
    }
    routes_error(answer, 404, "not_found", "no such resource");
}
