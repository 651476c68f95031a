/* mail_routes.c: see mail_routes.h. */
#include "http/mail_routes.h"

#include <string.h>
#include <strings.h>

#include "mailin/mailin.h"

void mail_routes_inbound(const route_call *call, answer *out)
{
    const char *type = MHD_lookup_connection_value(
        call->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (type == NULL || strncasecmp(type, "message/rfc822", 14) != 0) {
        answer_error(out, 415, "unsupported_media_type",
                     "send the raw message as message/rfc822");
        return;
    }
    if (call->body == NULL || call->body_len == 0) {
        answer_error(out, 422, "unreadable_mail", "the body holds no mail");
        return;
    }
    mailin_result result;
    switch (mailin_receive(call->body, call->body_len, "http", &result)) {
    case MAILIN_HANDLED:
        answer_json(out, 200,
                    json_pack("{s:s,s:s,s:s}", "outcome", "handled", "what",
                              result.what, "message", result.message_key));
        return;
    case MAILIN_UNREADABLE:
        answer_error(out, 422, "unreadable_mail", result.what);
        return;
    case MAILIN_TRY_LATER:
        answer_error(out, 503, "try_later", result.what);
        out->retry_after = 30;
        return;
    }
}
