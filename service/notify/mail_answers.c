/* mail_answers.c: see mail_answers.h. */
#include "notify/mail_answers.h"

#include "store/db.h"
#include "store/db_params.h"

bool mail_answers_queue(PGconn *conn, const mail_answer *answer, apierr *err)
{
    db_params p = {0};
    db_params_text(&p, answer->to);
    db_params_text(&p, answer->subject);
    db_params_text(&p, answer->body);
    db_params_text(&p, answer->reply_to);
    db_params_text(&p, answer->in_reply_to);
    db_params_text(&p, answer->references);
    db_params_text(&p, answer->kind);
    /* The worker listens on the outbox's channel: wake it at commit. */
    return db_command(conn,
                      "INSERT INTO mail_answers (to_address, subject, body, "
                      "reply_to, in_reply_to, \"references\", kind) VALUES "
                      "($1, left($2, 998), $3, $4, $5, $6, $7)",
                      p.count, p.values, err) &&
           db_command(conn, "SELECT pg_notify('pbem_outbox', '')", 0, NULL,
                      err);
}
