/* mail.c: composing notification mails (the template variables are
 * mail_vars.c's, the MIME bytes mail_mime.c's) and handing them to
 * libcurl. */
#include "notify/mail.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/config.h"
#include "notify/mail_mime.h"
#include "notify/mail_vars.h"
#include "notify/mail_wrap.h"
#include "notify/templates.h"

bool mail_configured(void)
{
    return config_text(CONFIG_SMTP_URL) != NULL;
}

void mail_bare_address(const char *from, char *out, size_t size)
{
    const char *open = strrchr(from, '<');
    const char *close = open ? strchr(open, '>') : NULL;
    if (open && close)
        snprintf(out, size, "%.*s", (int)(close - open - 1), open + 1);
    else
        snprintf(out, size, "%s", from);
}

char *mail_encode_phrase(const char *text, bool quote_specials)
{
    bool plain = true, specials = false;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p < 0x20 || *p >= 0x7f)
            plain = false;
        else if (strchr("()<>[]:;@\\,.\"", *p))
            specials = true;
    }
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    if (f == NULL)
        abort();
    if (plain && !(specials && quote_specials)) {
        fputs(text, f);
    } else if (plain) {
        fputc('"', f);
        for (const char *p = text; *p; p++) {
            if (*p == '"' || *p == '\\')
                fputc('\\', f);
            fputc(*p, f);
        }
        fputc('"', f);
    } else {
        /* Encoded words of at most 45 bytes each, cut between UTF-8
         * characters, folded onto continuation lines. */
        size_t len = strlen(text), at = 0;
        while (at < len) {
            size_t take = len - at > 45 ? 45 : len - at;
            while (take > 1 && at + take < len &&
                   ((unsigned char)text[at + take] & 0xc0) == 0x80)
                take--;
            char b64[sodium_base64_ENCODED_LEN(45, sodium_base64_VARIANT_ORIGINAL)];
            sodium_bin2base64(b64, sizeof b64, (const unsigned char *)text + at,
                              take, sodium_base64_VARIANT_ORIGINAL);
            fprintf(f, "%s=?UTF-8?B?%s?=", at ? "\r\n " : "", b64);
            at += take;
        }
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

bool mail_address_ok(const char *address)
{
    return address != NULL && strchr(address, '@') != NULL &&
           strpbrk(address, " \r\n<>") == NULL;
}

/* A mail as its templates rendered it. */
typedef struct rendered {
    char subject[512];
    char *text;            /* the whole text template, Subject line too */
    const char *text_body; /* text after the Subject line */
    char *html;
} rendered;

/* Renders templates/<kind>.txt and .html with vars, where "reminder_24h"
 * and "nudge_7" are of the kind "your_turn". The text template starts
 * with "Subject: …" and a blank line. False with why (256 bytes) filled
 * when one cannot be read; out's text and html are freed by the caller
 * either way. */
static bool render(const char *reason, const mail_vars *vars, rendered *out,
                   char *why)
{
    char kind[32], name[64];
    snprintf(kind, sizeof kind, "%s",
             strncmp(reason, "reminder_", 9) == 0 ||
                     strncmp(reason, "nudge_", 6) == 0
                 ? "your_turn"
                 : reason);
    snprintf(name, sizeof name, "%s.txt", kind);
    out->text = templates_render_file(name, vars->list, vars->count, false);
    snprintf(name, sizeof name, "%s.html", kind);
    out->html = templates_render_file(name, vars->list, vars->count, true);
    if (out->text == NULL || out->html == NULL) {
        snprintf(why, 256, "template %s.txt or %s.html cannot be read", kind,
                 kind);
        return false;
    }
    snprintf(out->subject, sizeof out->subject, "Notification");
    out->text_body = out->text;
    if (strncmp(out->text, "Subject: ", 9) == 0) {
        size_t line = strcspn(out->text + 9, "\r\n");
        snprintf(out->subject, sizeof out->subject, "%.*s", (int)line,
                 out->text + 9);
        const char *body = out->text + 9 + line;
        while (*body == '\r' || *body == '\n')
            body++;
        out->text_body = body;
    }
    return true;
}

/* What every mail's headers share: From (its display name encoded the
 * way a name must be), the domain of Message-IDs and the Date. */
typedef struct sender {
    char *from_phrase; /* malloc'd */
    char from_address[MAIL_ADDRESS_MAX];
    char domain[MAIL_ADDRESS_MAX];
    char date[64];
} sender;

static void sender_fill(sender *s, long long date)
{
    const char *from = config_text(CONFIG_MAIL_FROM);
    mail_bare_address(from, s->from_address, sizeof s->from_address);
    const char *at = strrchr(s->from_address, '@');
    snprintf(s->domain, sizeof s->domain, "%s", at ? at + 1 : "localhost");
    time_t when = (time_t)date;
    struct tm tm;
    gmtime_r(&when, &tm);
    strftime(s->date, sizeof s->date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    const char *open = strrchr(from, '<');
    char from_name[256] = "";
    if (open != NULL) {
        snprintf(from_name, sizeof from_name, "%.*s", (int)(open - from), from);
        size_t len = strlen(from_name);
        while (len > 0 && from_name[len - 1] == ' ')
            from_name[--len] = '\0';
    }
    s->from_phrase = mail_encode_phrase(from_name, true);
}

/* "<root@domain>": what a mail of thread answers, and its References. */
static void thread_ref(const mail_thread *thread, const char *domain,
                       char out[MAIL_THREAD_ID_MAX + MAIL_ADDRESS_MAX + 4])
{
    snprintf(out, MAIL_THREAD_ID_MAX + MAIL_ADDRESS_MAX + 4, "<%s@%s>",
             thread->root, domain);
}

/* The header values for n's mail, encoded where a name or the subject may
 * not be plain ASCII, and the message those and r make (mail_mime.h). A
 * mail of a match's thread takes the thread's subject: the template's
 * subject line (what the mail says) heads the body instead. */
static char *references_header(const char *references, const char *answered);

/* The text and HTML of a mail that carries held answers (n->answered)
 * before what it says itself: "Since then: " and its subject line. The
 * two are malloc'd. */
static void with_answers(const mail_notification *n, const rendered *r,
                         char **text, char **html)
{
    if (asprintf(text, "%s\n\nSince then: %s\n\n%s", n->answered, r->subject,
                 r->text_body) < 0)
        abort();
    *html = NULL;
    if (r->html == NULL)
        return;
    char *escaped = templates_escape_html(n->answered);
    const char *body = strstr(r->html, "<body>");
    size_t head = body ? (size_t)(body - r->html) + strlen("<body>") : 0;
    if (asprintf(html, "%.*s\n<pre>%s</pre>\n<p>Since then:</p>%s", (int)head,
                 r->html, escaped, r->html + head) < 0)
        abort();
    free(escaped);
}

static char *assemble(const mail_notification *n, const rendered *r,
                      const char *unsubscribe)
{
    sender s;
    sender_fill(&s, n->date);
    char *to_name = mail_encode_phrase(n->to_name, true);
    char *encoded_subject = mail_encode_phrase(
        n->thread ? n->thread->subject : r->subject, false);
    char tag[96], id[MAIL_THREAD_ID_MAX];
    snprintf(tag, sizeof tag, "X-PBEM-Notification: %s", n->id);
    mail_thread_message_id(n->id, n->created, id);
    char root[MAIL_THREAD_ID_MAX + MAIL_ADDRESS_MAX + 4] = "";
    if (n->thread)
        thread_ref(n->thread, s.domain, root);
    char *text = NULL, *html = NULL;
    if (n->answered != NULL)
        with_answers(n, r, &text, &html);
    else if (n->thread &&
             asprintf(&text, "%s\n\n%s", r->subject, r->text_body) < 0)
        abort();
    /* Carrying answers, the mail answers the latest mail they answer,
     * and refers to each. */
    char in_reply_to[260] = "", *references = NULL;
    if (n->answered != NULL && n->in_reply_to != NULL &&
        strlen(n->in_reply_to) < 250) {
        const char *id = n->in_reply_to;
        size_t len = strlen(id);
        if (id[0] == '<' && len > 2)
            snprintf(in_reply_to, sizeof in_reply_to, "%s", id);
        else
            snprintf(in_reply_to, sizeof in_reply_to, "<%s>", id);
        char *all = NULL;
        if (asprintf(&all, "%s %s", root, n->references ? n->references : "") <
            0)
            abort();
        references = references_header(all, in_reply_to);
        free(all);
    }
    mail_mime_message message = {
        .from_phrase = s.from_phrase,
        .from_address = s.from_address,
        .to_phrase = to_name,
        .to_address = n->to_address,
        .subject = encoded_subject,
        .date = s.date,
        .id = id,
        .domain = s.domain,
        .tag = tag,
        .unsubscribe = unsubscribe,
        .reply_to = mail_address_ok(n->reply_to) ? n->reply_to : NULL,
        .in_reply_to = in_reply_to[0] ? in_reply_to
                       : root[0]      ? root
                                      : NULL,
        .references = references ? references
                      : root[0]  ? root
                                 : NULL,
        /* RFC 3834: a program's mail, so holiday auto-responders leave it
         * alone (mail answering it comes back to the Reply-To). */
        .auto_submitted = "auto-generated",
        .text = NULL,
        .html = html ? html : r->html,
    };
    char *wrapped = mail_wrap(text ? text : r->text_body);
    message.text = wrapped;
    char *out = mail_mime_write(&message);
    free(wrapped);
    free(text);
    free(html);
    free(references);
    free(to_name);
    free(encoded_subject);
    free(s.from_phrase);
    return out;
}

bool mail_reply_address(reply_token_kind kind, long long subject,
                        long long match_id, int seat,
                        char out[MAIL_ADDRESS_MAX])
{
    out[0] = '\0';
    if (reply_token_bare_address() == NULL)
        return false;
    char token[REPLY_TOKEN_CHARS + 1];
    /* Transport time: the token's lifetime is the mail's, not a match
     * clock's. */
    reply_token_make(kind, subject, match_id, seat, (long long)time(NULL),
                     token);
    if (!reply_token_address(token, out, MAIL_ADDRESS_MAX)) {
        out[0] = '\0';
        return false;
    }
    return true;
}

char *mail_compose(const mail_notification *n, char *why)
{
    /* The address is written into To: as it is: one that could end the
     * header line or the angle brackets is never used. */
    if (!mail_address_ok(n->to_address)) {
        snprintf(why, 256, "the email address cannot go into a mail header "
                           "(a line break, space or angle bracket in it)");
        return NULL;
    }
    mail_vars vars = {0};
    mail_vars_fill(&vars, n->id, n->reason, n->player_id, n->to_name,
                   n->payload, mail_address_ok(n->reply_to));
    rendered r = {0};
    char *out = NULL;
    if (render(n->reason, &vars, &r, why))
        out = assemble(n, &r, vars.unsubscribe);
    free(r.text);
    free(r.html);
    mail_vars_free(&vars);
    return out;
}

/* A message id as it may stand between angle brackets: printable ASCII,
 * no space or bracket, of a sane length. */
static bool message_id_ok(const char *id, size_t len)
{
    if (len == 0 || len > 250)
        return false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)id[i];
        if (c <= 0x20 || c >= 0x7f || c == '<' || c == '>')
            return false;
    }
    return true;
}

/* Appends the ids in text (white-space separated, with or without <>) to
 * ids (count so far in *n, room for max), dropping those that are not
 * message_id_ok and those already there (a merged answer's references
 * hold the mail it answers, which comes again as its In-Reply-To). The
 * ids point into copies the caller frees. */
static void collect_ids(const char *text, char **ids, int *n, int max)
{
    const char *p = text;
    while (p != NULL && *p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ||
               *p == ',')
            p++;
        if (*p == '\0')
            break;
        size_t len = strcspn(p, " \t\r\n,");
        const char *id = p;
        size_t id_len = len;
        if (id_len >= 2 && id[0] == '<' && id[id_len - 1] == '>') {
            id++;
            id_len -= 2;
        }
        bool known = false;
        for (int i = 0; i < *n && !known; i++)
            known = strlen(ids[i]) == id_len && memcmp(ids[i], id, id_len) == 0;
        if (!known && message_id_ok(id, id_len) && *n < max) {
            ids[*n] = strndup(id, id_len);
            if (ids[*n] == NULL)
                abort();
            (*n)++;
        }
        p += len;
    }
}

/* References: the thread so far and the answered message, folded one id
 * per line; the first (the thread's root) and the latest when there are
 * too many. NULL when there is none. */
static char *references_header(const char *references, const char *answered)
{
    enum { ROOM = 256 };
    char *ids[ROOM + 1];
    int n = 0;
    collect_ids(references, ids, &n, ROOM);
    /* In-Reply-To is one id: a second one is not ours to thread under. */
    char *latest[1];
    int latest_count = 0;
    collect_ids(answered, latest, &latest_count, 1);
    if (latest_count == 1) {
        /* It comes last, where it may already stand earlier. */
        for (int i = 0; i < n; i++)
            if (strcmp(ids[i], latest[0]) == 0) {
                free(ids[i]);
                memmove(&ids[i], &ids[i + 1],
                        (size_t)(n - i - 1) * sizeof *ids);
                n--;
                break;
            }
        ids[n++] = latest[0];
    }
    if (n == 0)
        return NULL;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    int written = 0;
    for (int i = 0; i < n; i++) {
        bool kept = i == 0 || i >= n - (MAIL_REFERENCES_MAX - 1);
        if (kept)
            fprintf(f, "%s<%s>", written++ ? "\r\n " : "", ids[i]);
        free(ids[i]);
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

/* An answer's subject in a thread: "Re: " and the thread's subject,
 * whatever the mail answered was called ("Re: Re: …", "AW: …"), so that
 * every mail of the thread reads alike (malloc'd). */
static char *thread_subject(const mail_plain *m)
{
    char *out = NULL;
    if (m->thread == NULL)
        out = strdup(m->subject);
    else if (asprintf(&out, "Re: %s", m->thread->subject) < 0)
        out = NULL;
    if (out == NULL)
        abort();
    return out;
}

char *mail_compose_plain(const mail_plain *m, char *why)
{
    if (!mail_address_ok(m->to_address)) {
        snprintf(why, 256, "the email address cannot go into a mail header "
                           "(a line break, space or angle bracket in it)");
        return NULL;
    }
    sender s;
    sender_fill(&s, m->date);
    char *plain_subject = thread_subject(m);
    char *subject = mail_encode_phrase(plain_subject, false);
    free(plain_subject);
    char root[MAIL_THREAD_ID_MAX + MAIL_ADDRESS_MAX + 4] = "";
    if (m->thread)
        thread_ref(m->thread, s.domain, root);
    /* As long as root, which it may be a copy of. */
    char in_reply_to[sizeof root] = "";
    char *answered[1];
    int answered_count = 0;
    collect_ids(m->in_reply_to, answered, &answered_count, 1);
    if (answered_count == 1) {
        snprintf(in_reply_to, sizeof in_reply_to, "<%s>", answered[0]);
        free(answered[0]);
    } else if (root[0]) {
        snprintf(in_reply_to, sizeof in_reply_to, "%s", root);
    }
    /* The thread's root heads References, unless the mail answered
     * carried it already (an answer to one of our mails). */
    char *thread_references = NULL;
    const char *references = m->references;
    if (root[0] && (references == NULL || strstr(references, root) == NULL)) {
        if (asprintf(&thread_references, "%s %s", root,
                     references ? references : "") < 0)
            abort();
        references = thread_references;
    }
    char *references_line =
        references_header(references, answered_count ? m->in_reply_to : NULL);
    free(thread_references);
    char unsubscribe[640] = "";
    if (m->player_id > 0)
        mail_vars_unsubscribe_link(m->player_id, unsubscribe, sizeof unsubscribe);
    mail_mime_message message = {
        .from_phrase = s.from_phrase,
        .from_address = s.from_address,
        .to_phrase = "",
        .to_address = m->to_address,
        .subject = subject,
        .date = s.date,
        .id = m->id,
        .domain = s.domain,
        .reply_to = mail_address_ok(m->reply_to) ? m->reply_to : NULL,
        .in_reply_to = in_reply_to[0] ? in_reply_to : NULL,
        .references = references_line,
        .unsubscribe = unsubscribe[0] ? unsubscribe : NULL,
        .auto_submitted = m->auto_submitted,
        .text = NULL,
    };
    char *wrapped = mail_wrap(m->body);
    message.text = wrapped;
    char *out = mail_mime_write(&message);
    free(wrapped);
    free(subject);
    free(references_line);
    free(s.from_phrase);
    return out;
}

static size_t read_upload(char *buffer, size_t size, size_t count, void *data)
{
    mail_upload *upload = data;
    size_t room = size * count, left = upload->len - upload->pos;
    size_t take = left < room ? left : room;
    memcpy(buffer, upload->data + upload->pos, take);
    upload->pos += take;
    return take;
}

bool mail_prepare(CURL *easy, const char *address, mail_upload *upload,
                  struct curl_slist **recipients, int timeout_seconds)
{
    char from[256];
    mail_bare_address(config_text(CONFIG_MAIL_FROM), from, sizeof from);
    char envelope_from[260], envelope_to[300];
    snprintf(envelope_from, sizeof envelope_from, "<%s>", from);
    snprintf(envelope_to, sizeof envelope_to, "<%s>", address);
    *recipients = curl_slist_append(NULL, envelope_to);
    if (*recipients == NULL)
        return false;
    const char *tls = config_text(CONFIG_SMTP_STARTTLS);
    long use_ssl = strcmp(tls, "required") == 0 ? (long)CURLUSESSL_ALL
                   : strcmp(tls, "try") == 0    ? (long)CURLUSESSL_TRY
                                                : (long)CURLUSESSL_NONE;
    const char *user = config_text(CONFIG_SMTP_USER);
    const char *password = config_text(CONFIG_SMTP_PASSWORD);
    bool ok =
        curl_easy_setopt(easy, CURLOPT_URL, config_text(CONFIG_SMTP_URL)) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "smtp,smtps") == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_TIMEOUT, (long)timeout_seconds) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_USE_SSL, use_ssl) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_MAIL_FROM, envelope_from) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_MAIL_RCPT, *recipients) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_UPLOAD, 1L) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_READFUNCTION, read_upload) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_READDATA, upload) == CURLE_OK &&
        curl_easy_setopt(easy, CURLOPT_INFILESIZE_LARGE,
                         (curl_off_t)upload->len) == CURLE_OK;
    if (ok && user && user[0])
        ok = curl_easy_setopt(easy, CURLOPT_USERNAME, user) == CURLE_OK &&
             curl_easy_setopt(easy, CURLOPT_PASSWORD,
                              password ? password : "") == CURLE_OK;
    return ok;
}
