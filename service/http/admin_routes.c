/* admin_routes.c */
#include "http/admin_routes.h"

#include <stdlib.h>
#include <string.h>

#include "admin/export.h"
#include "admin/import.h"
#include "admin/repair.h"
#include "auth/admin.h"
#include "notify/notify_outbox.h"
#include "rules.h"
#include "store/db.h"
#include "store/request_nonces.h"

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

/* An export streamed as the client reads it; stream NULL: err. */
static void answer_export(export_stream *stream, const apierr *err, answer *out)
{
    if (stream == NULL) {
        answer_apierr(out, err);
        return;
    }
    out->status = 200;
    out->content_type = "application/x-ndjson";
    out->stream = stream;
    out->stream_read = stream_read;
    out->stream_free = stream_free;
}

/* The filter of a bulk export, checked; false with err filled (400). */
static bool bulk_filter(const route_call *call, export_filter *filter,
                        apierr *err)
{
    filter->status = route_query(call, "status");
    filter->since = route_query(call, "since");
    filter->until = route_query(call, "until");
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

/* A bad filter is refused before the nonce is spent. */
void admin_routes_export(const route_call *call, answer *out)
{
    apierr err;
    export_filter filter;
    if (!bulk_filter(call, &filter, &err) ||
        !admin_spend_nonce(call->who, &err)) {
        answer_apierr(out, &err);
        return;
    }
    answer_export(export_open_bulk(&filter, &err), &err, out);
}

void admin_routes_export_match(const route_call *call, answer *out)
{
    apierr err;
    if (!admin_spend_nonce(call->who, &err)) {
        answer_apierr(out, &err);
        return;
    }
    answer_export(export_open_match(call->params->match_id, &err), &err, out);
}

/* The body is an export, not one JSON value. */
void admin_routes_import(const route_call *call, answer *out)
{
    apierr err;
    const char *new_id = route_query(call, "new_id");
    if (new_id != NULL && strcmp(new_id, "true") != 0 &&
        strcmp(new_id, "false") != 0) {
        answer_error(out, 400, "bad_query", "new_id is true or false");
        return;
    }
    bool fresh = new_id != NULL && strcmp(new_id, "true") == 0;
    json_t *imported =
        import_matches(call->who, call->body, call->body_len, fresh, &err);
    answer_result(out, 201, imported, &err);
}

void admin_routes_notifications(const route_call *call, answer *out)
{
    apierr err;
    json_t *list =
        admin_spend_nonce(call->who, &err)
            ? notify_outbox_admin_list(route_query(call, "status"), &err)
            : NULL;
    answer_result(out, 200, list, &err);
}

void admin_routes_retry_notification(const route_call *call, answer *out)
{
    apierr err;
    const caller *who = call->who;
    json_t *result = notify_outbox_admin_retry(call->params->id, &err);
    PGconn *db = result ? db_conn(&err) : NULL;
    char *text = result ? rules_sorted_json(result) : NULL;
    store_nonce saved = {.status = 200, .response = text};
    /* The retry itself is harmless to repeat; the nonce is spent after it
     * so a replay gets this answer back. */
    if (db != NULL && !store_save_nonce(db, who->key_id, who->nonce,
                                        who->request_digest, &saved, &err)) {
        json_decref(result);
        result = NULL;
    }
    free(text);
    answer_result(out, 200, result, &err);
}

void admin_routes_rewind(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        repair_rewind(call->who, call->params->match_id, call->request, &err);
    answer_result(out, 200, result, &err);
}

void admin_routes_abort(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        repair_abort(call->who, call->params->match_id, call->request, &err);
    answer_result(out, 200, result, &err);
}

void admin_routes_replace_seat(const route_call *call, answer *out)
{
    apierr err;
    json_t *result =
        repair_replace_seat(call->who, call->params->match_id,
                            call->params->seat, call->request, &err);
    answer_result(out, 200, result, &err);
}
