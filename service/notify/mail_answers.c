/* mail_answers.c: see mail_answers.h. */
#include "notify/mail_answers.h"

#include "store/mail_answers.h"

bool mail_answers_queue(PGconn *conn, const mail_answer *answer, apierr *err)
{
    return store_mail_answers_insert(conn, answer->to, answer->subject,
                                     answer->body, answer->reply_to,
                                     answer->in_reply_to, answer->references,
                                     answer->kind, err);
}
