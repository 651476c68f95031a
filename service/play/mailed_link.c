/* mailed_link.c: mails that carry a link (mailed_link.h). */
#include "play/mailed_link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mail_answers.h"

bool mailed_link_queue(PGconn *conn, const char *template,
                       const templates_var *vars, int count,
                       const char *subject, const char *address,
                       const char *kind, apierr *err)
{
    char *text = templates_render_file(template, vars, count, false);
    if (text == NULL)
        return apierr_set(err, 500, "template_missing",
                          "the mail's template (%s) cannot be read",
                          template);
    /* "Subject: …", a blank line, then the body. */
    char line[200];
    snprintf(line, sizeof line, "%s", subject);
    const char *body = text;
    if (strncmp(text, "Subject: ", 9) == 0) {
        const char *end = strchr(text, '\n');
        if (end != NULL) {
            snprintf(line, sizeof line, "%.*s", (int)(end - text - 9),
                     text + 9);
            body = end + 1;
            if (*body == '\n')
                body++;
        }
    }
    mail_answer mail = {
        .to = address, .subject = line, .body = body, .kind = kind};
    bool ok = mail_answers_queue(conn, &mail, err);
    free(text);
    return ok;
}
