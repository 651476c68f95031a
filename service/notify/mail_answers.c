/* mail_answers.c: see mail_answers.h. */
#include "notify/mail_answers.h"

#include <string.h>

#include "store/mail_answers.h"

size_t mail_answers_told_length(const char *body)
{
    size_t mark = strlen(MAIL_ANSWERS_VIEW_MARK);
    const char *view = strncmp(body, MAIL_ANSWERS_VIEW_MARK, mark) == 0
                           ? body
                           : strstr(body, "\n" MAIL_ANSWERS_VIEW_MARK);
    size_t len = view ? (size_t)(view - body) : strlen(body);
    while (len > 0 && body[len - 1] == '\n')
        len--;
    return len;
}

bool mail_answers_queue(PGconn *conn, const mail_answer *answer, apierr *err)
{
    return store_mail_answers_insert(conn, answer->to, answer->subject,
                                     answer->body, answer->reply_to,
                                     answer->in_reply_to, answer->references,
                                     answer->kind, err);
}
