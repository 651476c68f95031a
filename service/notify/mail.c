/* mail.c: composing notification mails and handing them to libcurl. */
#include "notify/mail.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ledger/seal.h"
#include "store/store.h"
#include "notify/templates.h"

bool mail_configured(void)
{
    const char *url = getenv("PBEM_SMTP_URL");
    return url != NULL && url[0] != '\0';
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return value && value[0] ? value : fallback;
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

/* Base64 in lines of 76 characters, CRLF after each. */
static void put_base64(FILE *f, const char *text)
{
    size_t len = strlen(text);
    size_t size = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_ORIGINAL);
    char *b64 = malloc(size);
    if (b64 == NULL)
        abort();
    sodium_bin2base64(b64, size, (const unsigned char *)text, len,
                      sodium_base64_VARIANT_ORIGINAL);
    size_t total = strlen(b64);
    for (size_t at = 0; at < total; at += 76)
        fprintf(f, "%.*s\r\n", (int)(total - at > 76 ? 76 : total - at), b64 + at);
    free(b64);
}

/* LF → CRLF, for a part body. */
static char *crlf(const char *text)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    for (const char *p = text; *p; p++) {
        if (*p == '\n' && (p == text || p[-1] != '\r'))
            fputc('\r', f);
        fputc(*p, f);
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

static char *joined(const json_t *array, const char *prefix, const char *sep)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    size_t i;
    const json_t *item;
    json_array_foreach(array, i, item) {
        const char *text = json_string_value(item);
        fprintf(f, "%s%s%s", i ? sep : "", prefix, text ? text : "");
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

/* A digest's list: per match waiting for the player, what is asked, a few
 * of the moves and the link. */
static char *digest_text(const json_t *matches, const char *base)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    size_t i;
    const json_t *p;
    json_array_foreach(matches, i, p) {
        const char *match = json_string_value(json_object_get(p, "match"));
        const char *game = json_string_value(json_object_get(p, "game_title"));
        const char *prompt = json_string_value(json_object_get(p, "prompt"));
        fprintf(f, "%s- %s (%s), event %lld: %s\n", i ? "\n" : "",
                match ? match : "?", game ? game : "?",
                (long long)json_integer_value(json_object_get(p, "seq")),
                prompt ? prompt : "your turn");
        size_t k;
        const json_t *move;
        json_array_foreach(json_object_get(p, "moves"), k, move) {
            if (k == 5) {
                fprintf(f, "    …\n");
                break;
            }
            fprintf(f, "    %s\n", json_string_value(move) ? json_string_value(move) : "");
        }
        fprintf(f, "  Play: %s/v1/matches/%s/view\n", base, match ? match : "");
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

char *mail_compose(const mail_notification *n, char *why)
{
    /* The address is written into To: as it is: one that could end the
     * header line or the angle brackets is never used. */
    if (!mail_address_ok(n->to_address)) {
        snprintf(why, 256, "the email address cannot go into a mail header "
                           "(a line break, space or angle bracket in it)");
        return NULL;
    }
    const json_t *p = n->payload;
    const char *match = json_string_value(json_object_get(p, "match"));
    const char *base = env_or("PBEM_PUBLIC_URL", "http://127.0.0.1:8080");
    char link[512], settings[512], seq[32];
    snprintf(link, sizeof link, "%s/v1/matches/%s", base, match ? match : "");
    snprintf(settings, sizeof settings, "%s/v1/players/me/notification-settings",
             base);
    char token[SEAL_TOKEN_TEXT], unsubscribe[640], player_ref[32];
    seal_unsubscribe_token(n->player_id, token);
    store_player_ref(n->player_id, player_ref);
    snprintf(unsubscribe, sizeof unsubscribe,
             "%s/v1/unsubscribe?player=%s&token=%s", base, player_ref, token);
    snprintf(seq, sizeof seq, "%lld",
             (long long)json_integer_value(json_object_get(p, "seq")));
    /* Whose turn: the names of the seats that must act. */
    json_t *names = json_array();
    size_t i;
    const json_t *seat;
    json_array_foreach(json_object_get(p, "seats"), i, seat) {
        json_t *name = json_array_get(json_object_get(p, "players"),
                                      (size_t)json_integer_value(seat));
        json_array_append_new(names, name ? json_incref(name) : json_string("?"));
    }
    char *whose = joined(names, "", ", ");
    json_decref(names);
    char *moves = joined(json_object_get(p, "moves"), "  ", "\n");
    char *changes = joined(json_object_get(p, "changes"), "  ", "\n");
    char *digest = digest_text(json_object_get(p, "matches"), base);
    char waiting[16];
    snprintf(waiting, sizeof waiting, "%zu",
             json_array_size(json_object_get(p, "matches")));
    /* A reminder or a nudge is a "your turn" mail that says why it came. */
    char headline[160], opening[400];
    const char *game_title = json_string_value(json_object_get(p, "game_title"));
    const char *nudged_by = json_string_value(json_object_get(p, "nudged_by"));
    if (strncmp(n->reason, "reminder", 8) == 0) {
        snprintf(headline, sizeof headline, "Reminder: still your turn");
        snprintf(opening, sizeof opening,
                 "A reminder: it has been your turn in %s match %s for %lld "
                 "hours (event %s).",
                 game_title ? game_title : "", match ? match : "",
                 (long long)json_integer_value(json_object_get(p, "reminder_hours")),
                 seq);
    } else if (strncmp(n->reason, "nudge", 5) == 0) {
        snprintf(headline, sizeof headline, "%.80s is waiting for you",
                 nudged_by ? nudged_by : "A player");
        snprintf(opening, sizeof opening,
                 "%.80s nudged you: it is your turn in %s match %s (event %s).",
                 nudged_by ? nudged_by : "A player", game_title ? game_title : "",
                 match ? match : "", seq);
    } else {
        snprintf(headline, sizeof headline, "Your turn");
        snprintf(opening, sizeof opening,
                 "It is your turn in %s match %s (event %s).",
                 game_title ? game_title : "", match ? match : "", seq);
    }
    char *forms = joined(json_object_get(p, "forms"), "  ", "\n");
    char *view = json_dumps(json_object_get(p, "view"), JSON_INDENT(2) | JSON_SORT_KEYS);
    char *result = json_dumps(json_object_get(p, "result"), JSON_INDENT(2) | JSON_SORT_KEYS);
    const char *game = json_string_value(json_object_get(p, "game_title"));
    const char *prompt = json_string_value(json_object_get(p, "prompt"));
    /* Deadline reminders and the admins' notice carry their deadline. */
    const json_t *deadline = json_object_get(p, "deadline");
    const char *due_at = json_string_value(json_object_get(deadline, "due_at"));
    const char *fires_at =
        json_string_value(json_object_get(deadline, "fires_at"));
    const char *action = json_string_value(json_object_get(deadline, "action"));
    const char *because =
        json_string_value(json_object_get(deadline, "reason"));
    const char *admin_reason = json_string_value(json_object_get(p, "reason"));
    templates_var vars[] = {
        {"player", n->to_name},
        {"match", match},
        {"game", game},
        {"seq", seq},
        {"whose_turn", whose},
        {"prompt", prompt},
        {"view", view ? view : "{}"},
        {"moves", moves},
        {"forms", forms},
        {"result", result ? result : "{}"},
        {"link", link},
        {"settings_link", settings},
        {"notification", n->id},
        {"changes", changes[0] ? changes : "  (nothing yet)"},
        {"headline", headline},   {"opening", opening},
        {"matches", digest},      {"waiting", waiting},
        {"unsubscribe_link", unsubscribe},
        {"due_at", due_at ? due_at : ""},
        {"fires_at", fires_at ? fires_at : ""},
        {"deadline_action", action ? action : ""},
        {"deadline_reason", because ? because : ""},
        {"reason", admin_reason ? admin_reason : ""},
    };
    int count = (int)(sizeof vars / sizeof vars[0]);
    /* "reminder_24h" and "nudge_7" are "your turn" mails. */
    char kind[32], name[64];
    snprintf(kind, sizeof kind, "%s",
             strncmp(n->reason, "reminder_", 9) == 0 ||
                     strncmp(n->reason, "nudge_", 6) == 0
                 ? "your_turn"
                 : n->reason);
    snprintf(name, sizeof name, "%s.txt", kind);
    char *text = templates_render_file(name, vars, count, false);
    snprintf(name, sizeof name, "%s.html", kind);
    char *html = templates_render_file(name, vars, count, true);
    free(whose);
    free(moves);
    free(changes);
    free(digest);
    free(forms);
    free(view);
    free(result);
    if (text == NULL || html == NULL) {
        snprintf(why, 256, "template %s.txt or %s.html cannot be read", kind,
                 kind);
        free(text);
        free(html);
        return NULL;
    }
    /* The text template starts with "Subject: …" and a blank line. */
    char subject[512] = "Notification";
    const char *body = text;
    if (strncmp(text, "Subject: ", 9) == 0) {
        size_t line = strcspn(text + 9, "\r\n");
        snprintf(subject, sizeof subject, "%.*s", (int)line, text + 9);
        body = text + 9 + line;
        while (*body == '\r' || *body == '\n')
            body++;
    }
    const char *from = env_or("PBEM_MAIL_FROM", "pbem <pbem@localhost>");
    char from_address[256], domain[256];
    mail_bare_address(from, from_address, sizeof from_address);
    const char *at = strrchr(from_address, '@');
    snprintf(domain, sizeof domain, "%s", at ? at + 1 : "localhost");
    char date[64];
    time_t when = (time_t)n->date;
    struct tm tm;
    gmtime_r(&when, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    uint8_t random[12];
    char boundary[40];
    randombytes_buf(random, sizeof random);
    memcpy(boundary, "=_pbem_", 7);
    sodium_bin2hex(boundary + 7, sizeof boundary - 7, random, sizeof random);
    char *to_name = mail_encode_phrase(n->to_name, true);
    char *encoded_subject = mail_encode_phrase(subject, false);
    /* From's display name, when it has one, is encoded the same way. */
    const char *open = strrchr(from, '<');
    char from_name[256] = "";
    if (open != NULL) {
        snprintf(from_name, sizeof from_name, "%.*s", (int)(open - from), from);
        size_t len = strlen(from_name);
        while (len > 0 && from_name[len - 1] == ' ')
            from_name[--len] = '\0';
    }
    char *from_phrase = mail_encode_phrase(from_name, true);
    char *text_crlf = crlf(body), *html_crlf = crlf(html);
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    if (f == NULL)
        abort();
    if (from_phrase[0])
        fprintf(f, "From: %s <%s>\r\n", from_phrase, from_address);
    else
        fprintf(f, "From: <%s>\r\n", from_address);
    fprintf(f, "To: %s <%s>\r\n", to_name, n->to_address);
    fprintf(f, "Subject: %s\r\n", encoded_subject);
    fprintf(f, "Date: %s\r\n", date);
    fprintf(f, "Message-ID: <%s@%s>\r\n", n->id, domain);
    fprintf(f, "X-PBEM-Notification: %s\r\n", n->id);
    fprintf(f, "List-Unsubscribe: <%s>\r\n", unsubscribe);
    fprintf(f, "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    fprintf(f, "MIME-Version: 1.0\r\n");
    fprintf(f, "Content-Type: multipart/alternative; boundary=\"%s\"\r\n",
            boundary);
    fprintf(f, "\r\n");
    fprintf(f, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\n"
               "Content-Transfer-Encoding: base64\r\n\r\n",
            boundary);
    put_base64(f, text_crlf);
    fprintf(f, "--%s\r\nContent-Type: text/html; charset=utf-8\r\n"
               "Content-Transfer-Encoding: base64\r\n\r\n",
            boundary);
    put_base64(f, html_crlf);
    fprintf(f, "--%s--\r\n", boundary);
    if (fclose(f) != 0)
        abort();
    free(to_name);
    free(encoded_subject);
    free(from_phrase);
    free(text_crlf);
    free(html_crlf);
    free(text);
    free(html);
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
    mail_bare_address(env_or("PBEM_MAIL_FROM", "pbem <pbem@localhost>"), from,
                      sizeof from);
    char envelope_from[260], envelope_to[300];
    snprintf(envelope_from, sizeof envelope_from, "<%s>", from);
    snprintf(envelope_to, sizeof envelope_to, "<%s>", address);
    *recipients = curl_slist_append(NULL, envelope_to);
    if (*recipients == NULL)
        return false;
    const char *tls = env_or("PBEM_SMTP_STARTTLS", "no");
    long use_ssl = strcmp(tls, "required") == 0 ? (long)CURLUSESSL_ALL
                   : strcmp(tls, "try") == 0    ? (long)CURLUSESSL_TRY
                                                : (long)CURLUSESSL_NONE;
    const char *user = getenv("PBEM_SMTP_USER");
    const char *password = getenv("PBEM_SMTP_PASSWORD");
    bool ok =
        curl_easy_setopt(easy, CURLOPT_URL, getenv("PBEM_SMTP_URL")) == CURLE_OK &&
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
