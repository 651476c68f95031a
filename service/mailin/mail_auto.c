/* mail_auto.c */
#include "mailin/mail_auto.h"

#include <string.h>
#include <strings.h>

bool mail_auto_daemon(const char *address)
{
    static const char *const names[] = {"mailer-daemon", "mailer_daemon",
                                        "mailerdaemon", "postmaster"};
    const char *at = strrchr(address, '@');
    size_t len = at ? (size_t)(at - address) : strlen(address);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (len == strlen(names[i]) && strncasecmp(address, names[i], len) == 0)
            return true;
    return false;
}

/* The header's first token ("auto-replied" of "auto-replied; x=y"), in
 * word, lower case; false when the header is absent. */
static bool first_token(GMimeMessage *message, const char *name, char *word,
                        size_t size)
{
    const char *value = g_mime_object_get_header(GMIME_OBJECT(message), name);
    if (value == NULL)
        return false;
    while (*value == ' ' || *value == '\t')
        value++;
    size_t n = 0;
    for (; value[n] && value[n] != ';' && value[n] != ' ' && value[n] != '\t' &&
           value[n] != '(' && n + 1 < size;
         n++)
        word[n] = g_ascii_tolower(value[n]);
    word[n] = '\0';
    return true;
}

static const char *auto_submitted(GMimeMessage *message)
{
    char word[32];
    if (!first_token(message, "Auto-Submitted", word, sizeof word) ||
        strcmp(word, "no") == 0)
        return NULL;
    if (strcmp(word, "auto-replied") == 0)
        return "Auto-Submitted: auto-replied";
    if (strcmp(word, "auto-generated") == 0)
        return "Auto-Submitted: auto-generated";
    if (strcmp(word, "auto-notified") == 0)
        return "Auto-Submitted: auto-notified";
    return "Auto-Submitted: other than no";
}

static const char *precedence(GMimeMessage *message)
{
    static const char *const values[][2] = {
        {"bulk", "Precedence: bulk"},
        {"junk", "Precedence: junk"},
        {"list", "Precedence: list"},
        {"auto_reply", "Precedence: auto_reply"}};
    char word[32];
    if (!first_token(message, "Precedence", word, sizeof word))
        return NULL;
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        if (strcmp(word, values[i][0]) == 0)
            return values[i][1];
    return NULL;
}

/* Headers whose presence alone says a program sent the mail. */
static const char *marker(GMimeMessage *message)
{
    static const char *const headers[][2] = {
        {"List-Id", "List-Id present"},
        {"X-Autoreply", "X-Autoreply present"},
        {"X-Autorespond", "X-Autorespond present"},
        /* Exchange and Outlook mark their auto-replies with this one. */
        {"X-Auto-Response-Suppress", "X-Auto-Response-Suppress present"}};
    for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
        if (g_mime_object_get_header(GMIME_OBJECT(message), headers[i][0]))
            return headers[i][1];
    return NULL;
}

/* Out-of-office programs that set no header at all (older Exchange,
 * many web mails) still say so first in the subject. */
static const char *auto_subject(GMimeMessage *message)
{
    static const char *const openings[] = {
        "Automatic reply",      "Auto reply",           "Autoreply",
        "Auto-reply",           "Out of Office",        "Out of the Office",
        "Automatisch antwoord", "Automatische Antwort", "Réponse automatique",
        "Respuesta automática", "Abwesenheitsnotiz",    NULL};
    const char *subject = g_mime_message_get_subject(message);
    if (subject == NULL)
        return NULL;
    while (*subject == ' ' || *subject == '\t')
        subject++;
    for (size_t i = 0; openings[i] != NULL; i++)
        if (strncasecmp(subject, openings[i], strlen(openings[i])) == 0)
            return "an automatic reply's subject";
    return NULL;
}

static const char *daemon_sender(const char *from, const char *return_path)
{
    if (from && mail_auto_daemon(from))
        return strncasecmp(from, "postmaster", 10) == 0 ? "From: postmaster"
                                                        : "From: MAILER-DAEMON";
    if (return_path && return_path[0] && mail_auto_daemon(return_path))
        return strncasecmp(return_path, "postmaster", 10) == 0
                   ? "Return-Path: postmaster"
                   : "Return-Path: MAILER-DAEMON";
    return NULL;
}

const char *mail_auto_why(GMimeMessage *message, const char *from,
                          const char *return_path, bool delivery_report)
{
    if (delivery_report)
        return "a delivery status notification";
    const char *why = auto_submitted(message);
    if (why == NULL)
        why = precedence(message);
    if (why == NULL)
        why = marker(message);
    if (why == NULL)
        why = auto_subject(message);
    if (why == NULL && return_path && return_path[0] == '\0')
        why = "Return-Path: <>";
    if (why == NULL)
        why = daemon_sender(from, return_path);
    return why;
}
