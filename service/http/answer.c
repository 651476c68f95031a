/* answer.c: JSON and error answers, and stored answers of retries. */
#include "http/answer.h"

#include <stdlib.h>
#include <string.h>

#include "core/json_text.h"
#include "core/log.h"
#include "play/retry.h"

static char *dump(json_t *value)
{
    char *text = json_text_compact(value);
    if (text == NULL)
        abort();
    return text;
}

void answer_error(answer *out, int status, const char *code,
                  const char *message)
{
    json_t *body =
        json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", message);
    out->status = status;
    out->body = dump(body);
    out->content_type = "application/json";
    json_decref(body);
}

void answer_apierr(answer *out, const apierr *err)
{
    json_t *body = json_pack("{s:{s:s,s:s}}", "error", "code", err->code,
                             "message", err->message);
    /* Database codes carry the SQLSTATE for the log, not for clients. */
    if (strcmp(err->code, "database") == 0 ||
        strncmp(err->code, "database:", 9) == 0)
        json_object_set_new(json_object_get(body, "error"), "code",
                            json_string("internal"));
    if (err->head >= 0)
        json_object_set_new(json_object_get(body, "error"), "head",
                            json_integer(err->head));
    out->status = err->status;
    out->retry_after = err->retry_after;
    out->body = dump(body);
    out->content_type = "application/json";
    json_decref(body);
}

void answer_json(answer *out, int status, json_t *value)
{
    out->status = status;
    out->body = dump(value);
    out->content_type = "application/json";
    json_decref(value);
}

void answer_result(answer *out, int status, json_t *value, const apierr *err)
{
    if (value == NULL)
        answer_apierr(out, err);
    else
        answer_json(out, status, value);
}

/* Drops what *out holds so another answer can take its place. */
static void clear(answer *out)
{
    const char *route = out->route;
    free(out->body);
    if (out->stream_free != NULL)
        out->stream_free(out->stream);
    *out = (answer){.route = route};
}

int answer_stored(const caller *who, answer *out)
{
    apierr err;
    retry_answer replay = {0};
    int found = retry_find(who, &replay, &err);
    if (found == 0)
        return 0;
    clear(out);
    if (found < 0) {
        answer_apierr(out, &err);
        return -1;
    }
    out->status = replay.status;
    out->body = replay.body;
    out->content_type = "application/json";
    return 1;
}

void answer_remember_refusal(const caller *who, const answer *out)
{
    apierr err;
    if (out->body == NULL ||
        !retry_remember_refusal(who, out->status, out->body, &err))
        log_warn("the refusal of %s's request (nonce %s) is not kept: %s",
                 who->key_id, who->nonce,
                 out->body == NULL ? "it has no body" : err.message);
}
