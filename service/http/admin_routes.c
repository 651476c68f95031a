/* admin_routes.c */
#include "http/admin_routes.h"
#include "play/retry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth/admin.h"
#include "auth/auth.h"
#include "store/db.h"
#include "admin/export.h"
#include "admin/import.h"
#include "notify/notify_outbox.h"
#include "admin/repair.h"
#include "rules.h"
#include "store/store.h"

typedef enum admin_action {
    LIST_NOTIFICATIONS,
    RETRY_NOTIFICATION,
    EXPORT_BULK,
    EXPORT_MATCH,
    IMPORT,
    REWIND,
    REPLACE_SEAT,
    ABORT,
} admin_action;

/* What a URL asks for. */
typedef struct admin_route {
    admin_action action;
    const char *name; /* for metrics and logs */
    bool post;        /* else GET */
    long long match_id;
    int seat;
    char notification[64];
} admin_route;

static bool match_route(const char *rest, admin_route *r)
{
    const char *slash = strchr(rest, '/');
    char ref[32];
    if (slash == NULL || (size_t)(slash - rest) >= sizeof ref)
        return false;
    snprintf(ref, sizeof ref, "%.*s", (int)(slash - rest), rest);
    r->match_id = store_parse_match_ref(ref);
    if (r->match_id <= 0)
        return false;
    const char *tail = slash;
    r->post = true;
    if (strcmp(tail, "/export") == 0) {
        r->action = EXPORT_MATCH;
        r->post = false;
        r->name = "GET /v1/admin/matches/{id}/export";
    } else if (strcmp(tail, "/rewind") == 0) {
        r->action = REWIND;
        r->name = "POST /v1/admin/matches/{id}/rewind";
    } else if (strcmp(tail, "/abort") == 0) {
        r->action = ABORT;
        r->name = "POST /v1/admin/matches/{id}/abort";
    } else if (strncmp(tail, "/seats/", 7) == 0) {
        char *end = NULL;
        long seat = strtol(tail + 7, &end, 10);
        if (end == tail + 7 || strcmp(end, "/replace") != 0 || seat < 0 ||
            seat > 1000)
            return false;
        r->seat = (int)seat;
        r->action = REPLACE_SEAT;
        r->name = "POST /v1/admin/matches/{id}/seats/{seat}/replace";
    } else {
        return false;
    }
    return true;
}

static bool find_route(const char *url, admin_route *r)
{
    static const char notifications[] = "/v1/admin/notifications";
    static const char matches[] = "/v1/admin/matches/";
    memset(r, 0, sizeof *r);
    if (strcmp(url, "/v1/admin/export") == 0) {
        r->action = EXPORT_BULK;
        r->name = "GET /v1/admin/export";
        return true;
    }
    if (strcmp(url, "/v1/admin/matches/import") == 0) {
        r->action = IMPORT;
        r->post = true;
        r->name = "POST /v1/admin/matches/import";
        return true;
    }
    if (strcmp(url, notifications) == 0) {
        r->action = LIST_NOTIFICATIONS;
        r->name = "GET /v1/admin/notifications";
        return true;
    }
    const char *rest = url + sizeof notifications - 1;
    size_t rest_len = strlen(rest);
    if (strncmp(url, notifications, sizeof notifications - 1) == 0 &&
        rest[0] == '/' && rest_len > 7 &&
        rest_len - 7 < sizeof r->notification &&
        strcmp(rest + rest_len - 6, "/retry") == 0) {
        snprintf(r->notification, sizeof r->notification, "%.*s",
                 (int)(rest_len - 7), rest + 1);
        r->action = RETRY_NOTIFICATION;
        r->post = true;
        r->name = "POST /v1/admin/notifications/{id}/retry";
        return true;
    }
    return strncmp(url, matches, sizeof matches - 1) == 0 &&
           match_route(url + sizeof matches - 1, r);
}

static const char *query(struct MHD_Connection *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

static ssize_t stream_read(void *stream, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    ssize_t n = export_read(stream, buf, max);
    return n > 0    ? n
           : n == 0 ? (ssize_t)MHD_CONTENT_READER_END_OF_STREAM
                    : (ssize_t)MHD_CONTENT_READER_END_WITH_ERROR;
}

static void stream_free(void *stream)
{
    export_close(stream);
}

/* The filter of a bulk export, checked; false with err filled (400). */
static bool bulk_filter(struct MHD_Connection *conn, export_filter *filter,
                        apierr *err)
{
    filter->status = query(conn, "status");
    filter->since = query(conn, "since");
    filter->until = query(conn, "until");
    const char *status = filter->status;
    if (status != NULL && strcmp(status, "open") != 0 &&
        strcmp(status, "active") != 0 && strcmp(status, "finished") != 0 &&
        strcmp(status, "aborted") != 0)
        return apierr_set(err, 400, "bad_query",
                          "status must be open, active, finished or aborted");
    if (filter->since != NULL && !export_valid_time(filter->since))
        return apierr_set(err, 400, "bad_query",
                          "since must be an RFC 3339 date-time such as "
                          "2026-11-22T10:00:00Z (mind that a + in a query "
                          "string is written %%2B)");
    if (filter->until != NULL && !export_valid_time(filter->until))
        return apierr_set(err, 400, "bad_query",
                          "until must be an RFC 3339 date-time such as "
                          "2026-11-22T10:00:00Z (mind that a + in a query "
                          "string is written %%2B)");
    return true;
}

static void export_answer(struct MHD_Connection *conn, const admin_route *r,
                          const caller *who, route_answer *answer)
{
    apierr err;
    export_filter filter;
    if (r->action == EXPORT_BULK && !bulk_filter(conn, &filter, &err)) {
        routes_answer_error(answer, &err);
        return;
    }
    if (!admin_spend_nonce(who, &err)) {
        routes_answer_error(answer, &err);
        return;
    }
    export_stream *stream = r->action == EXPORT_BULK
                                ? export_open_bulk(&filter, &err)
                                : export_open_match(r->match_id, &err);
    if (stream == NULL) {
        routes_answer_error(answer, &err);
        return;
    }
    answer->status = 200;
    answer->content_type = "application/x-ndjson";
    answer->stream = stream;
    answer->stream_read = stream_read;
    answer->stream_free = stream_free;
}

/* A POST that changes something. */
static void change(struct MHD_Connection *conn, const admin_route *r,
                   const caller *who, const char *body, size_t len,
                   route_answer *answer)
{
    apierr err;
    if (r->action == IMPORT) {
        const char *new_id = query(conn, "new_id");
        if (new_id != NULL && strcmp(new_id, "true") != 0 &&
            strcmp(new_id, "false") != 0) {
            routes_error(answer, 400, "bad_query", "new_id is true or false");
            return;
        }
        bool fresh = new_id != NULL && strcmp(new_id, "true") == 0;
        routes_answer_result(answer, 201,
                             import_matches(who, body, len, fresh, &err), &err);
        return;
    }
    if (r->action == RETRY_NOTIFICATION) {
        json_t *result = notify_outbox_admin_retry(r->notification, &err);
        PGconn *db = result ? db_conn(&err) : NULL;
        char *text = result ? rules_canonical_json(result) : NULL;
        store_nonce saved = {.status = 200, .response = text};
        /* The retry itself is harmless to repeat; the nonce is spent after
         * it so a replay gets this answer back. */
        if (db != NULL &&
            !store_save_nonce(db, who->key_id, who->nonce, who->request_digest,
                              &saved, &err)) {
            json_decref(result);
            result = NULL;
        }
        free(text);
        routes_answer_result(answer, 200, result, &err);
        return;
    }
    json_t *request = routes_parse_body(body, len, &err);
    json_t *result = NULL;
    if (request != NULL && r->action == REWIND)
        result = repair_rewind(who, r->match_id, request, &err);
    else if (request != NULL && r->action == ABORT)
        result = repair_abort(who, r->match_id, request, &err);
    else if (request != NULL)
        result = repair_replace_seat(who, r->match_id, r->seat, request, &err);
    json_decref(request);
    routes_answer_result(answer, 200, result, &err);
}

void admin_routes_handle(struct MHD_Connection *conn, const char *method,
                         const char *url, const char *target, const char *body,
                         size_t len, route_answer *answer)
{
    admin_route r;
    if (!find_route(url, &r)) {
        routes_error(answer, 404, "not_found", "no such resource");
        return;
    }
    answer->route = r.name;
    if (strcmp(method, r.post ? "POST" : "GET") != 0) {
        routes_error(answer, 405, "method_not_allowed",
                     r.post ? "use POST" : "use GET");
        return;
    }
    httpsig_request req;
    routes_signed_request(conn, method, target, body, len, &req);
    caller who;
    apierr err;
    if (!admin_check(&req, (int64_t)time(NULL), &who, &err)) {
        routes_answer_error(answer, &err);
        return;
    }
    if (r.action == LIST_NOTIFICATIONS) {
        json_t *list =
            admin_spend_nonce(&who, &err)
                ? notify_outbox_admin_list(query(conn, "status"), &err)
                : NULL;
        routes_answer_result(answer, 200, list, &err);
    } else if (!r.post) {
        export_answer(conn, &r, &who, answer);
    } else {
        /* A retry of a request already answered gets that answer. */
        retry_answer replay = {0};
        int found = retry_find(&who, &replay, &err);
        if (found < 0) {
            routes_answer_error(answer, &err);
        } else if (found == 1) {
            answer->status = replay.status;
            answer->body = replay.body;
            answer->content_type = "application/json";
        } else {
            change(conn, &r, &who, body, len, answer);
        }
    }
    auth_caller_free(&who);
}
