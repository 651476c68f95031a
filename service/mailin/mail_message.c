/* mail_message.c */
#include "mailin/mail_message.h"

#include <gmime/gmime.h>
#include <pthread.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mailin/mail_auto.h"
#include "mailin/mail_body.h"
#include "mailin/mail_dsn.h"
#include "mailin/mail_limits.h"
#include "mailin/mail_text.h"

static pthread_once_t started = PTHREAD_ONCE_INIT;

/* GMime's type registry and charset tables are set up once per process;
 * g_mime_init itself is not thread-safe. */
static void start(void)
{
    g_mime_init();
    if (sodium_init() < 0)
        abort();
}

static void *checked(void *p)
{
    if (p == NULL)
        abort();
    return p;
}

static char *copy(const char *text)
{
    return checked(strdup(text));
}

static void set_why(char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t why_size, const char *fmt, ...)
{
    if (why == NULL || why_size == 0)
        return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(why, why_size, fmt, args);
    va_end(args);
}

/* "Name:" with a field name of printable ASCII (RFC 5322 2.2). */
static bool field_line(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && line[i] > 32 && line[i] < 127 && line[i] != ':')
        i++;
    if (i == 0)
        return false;
    while (i < len && (line[i] == ' ' || line[i] == '\t'))
        i++;
    return i < len && line[i] == ':';
}

/* Whether raw starts with a header block GMime can read, from *start
 * (after an mbox "From " line). Binary garbage fails here, before GMime
 * would make a message of anything. */
static bool header_block(const char *raw, size_t length, size_t *start,
                         char *why, size_t why_size)
{
    size_t at = 0;
    if (length >= 5 && memcmp(raw, "From ", 5) == 0) {
        const char *eol = memchr(raw, '\n', length);
        at = eol ? (size_t)(eol - raw) + 1 : length;
    }
    *start = at;
    for (bool first = true;; first = false) {
        if (at >= length) {
            if (first)
                set_why(why, why_size, "the message is empty");
            return !first;
        }
        const char *line = raw + at;
        const char *eol = memchr(line, '\n', length - at);
        size_t len = eol ? (size_t)(eol - line) : length - at;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        if (len == 0) {
            if (first)
                set_why(why, why_size, "the message has no header block");
            return !first;
        }
        if (at - *start + len > MAIL_MESSAGE_MAX_HEADER_BYTES) {
            set_why(why, why_size, "the header block is larger than %d KiB",
                    MAIL_MESSAGE_MAX_HEADER_BYTES / 1024);
            return false;
        }
        if (memchr(line, '\0', len)) {
            set_why(why, why_size, "the header block holds binary bytes");
            return false;
        }
        /* GMime skips a malformed line further down and reads on to the
         * blank line, so the bounds above apply up to there. */
        if (first && !field_line(line, len)) {
            set_why(why, why_size,
                    "the bytes do not begin with mail headers (Name: value)");
            return false;
        }
        at = eol ? (size_t)(eol - raw) + 1 : length;
    }
}

/* A header's raw value without its folding and surrounding blanks. */
static char *unfolded(const char *raw)
{
    char *out = checked(malloc(strlen(raw) + 1));
    size_t n = 0;
    for (const char *p = raw; *p; p++)
        if (*p != '\r' && *p != '\n')
            out[n++] = *p == '\t' ? ' ' : *p;
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    size_t skip = strspn(out, " ");
    memmove(out, out + skip, n - skip + 1);
    return out;
}

static GMimeHeader *first_header(GMimeMessage *message, const char *name)
{
    GMimeHeaderList *list =
        g_mime_object_get_header_list(GMIME_OBJECT(message));
    int count = g_mime_header_list_get_count(list);
    for (int i = 0; i < count; i++) {
        GMimeHeader *h = g_mime_header_list_get_header_at(list, i);
        if (g_ascii_strcasecmp(g_mime_header_get_name(h), name) == 0)
            return h;
    }
    return NULL;
}

static char *raw_header(GMimeMessage *message, const char *name)
{
    GMimeHeader *h = first_header(message, name);
    const char *raw = h ? g_mime_header_get_raw_value(h) : NULL;
    return raw ? unfolded(raw) : NULL;
}

/* addr with its domain in lower case, or NULL when it lacks a local part
 * or a domain. */
static char *with_lower_domain(const char *addr)
{
    const char *at = strrchr(addr, '@');
    if (at == NULL || at == addr || at[1] == '\0')
        return NULL;
    char *out = copy(addr);
    for (char *p = out + (at - addr) + 1; *p; p++)
        *p = g_ascii_tolower(*p);
    return out;
}

/* The first mailbox of list, groups opened; NULL when none. */
static const char *first_mailbox(InternetAddressList *list)
{
    int count = list ? internet_address_list_length(list) : 0;
    for (int i = 0; i < count; i++) {
        InternetAddress *a = internet_address_list_get_address(list, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(a))
            return internet_address_mailbox_get_addr(
                INTERNET_ADDRESS_MAILBOX(a));
        if (INTERNET_ADDRESS_IS_GROUP(a)) {
            const char *inner = first_mailbox(
                internet_address_group_get_members(INTERNET_ADDRESS_GROUP(a)));
            if (inner)
                return inner;
        }
    }
    return NULL;
}

/* The display name of the first mailbox of list ("Alice Example"), or
 * NULL. */
static const char *first_mailbox_name(InternetAddressList *list)
{
    int count = list ? internet_address_list_length(list) : 0;
    for (int i = 0; i < count; i++) {
        InternetAddress *a = internet_address_list_get_address(list, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(a))
            return internet_address_get_name(a);
    }
    return NULL;
}

typedef struct list {
    char **items;
    size_t count, size;
} list;

static void push(list *l, char *item)
{
    if (l->count == l->size) {
        l->size = l->size ? 2 * l->size : 8;
        l->items = checked(realloc(l->items, l->size * sizeof *l->items));
    }
    l->items[l->count++] = item;
}

static void add_recipient(list *l, const char *addr)
{
    if (l->count >= MAIL_MESSAGE_MAX_RECIPIENTS || addr == NULL || !addr[0])
        return;
    char *lower = checked(g_ascii_strdown(addr, -1));
    char *item = copy(lower);
    g_free(lower);
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i], item) == 0) {
            free(item);
            return;
        }
    push(l, item);
}

static void add_recipients(list *l, InternetAddressList *addresses)
{
    int count = addresses ? internet_address_list_length(addresses) : 0;
    for (int i = 0; i < count; i++) {
        InternetAddress *a = internet_address_list_get_address(addresses, i);
        if (INTERNET_ADDRESS_IS_MAILBOX(a))
            add_recipient(l, internet_address_mailbox_get_addr(
                                 INTERNET_ADDRESS_MAILBOX(a)));
        else if (INTERNET_ADDRESS_IS_GROUP(a))
            add_recipients(l, internet_address_group_get_members(
                                  INTERNET_ADDRESS_GROUP(a)));
    }
}

/* Recipients and Authentication-Results, in one pass over the headers. */
static void read_header_list(GMimeMessage *message, GMimeParserOptions *options,
                             mail_message *m)
{
    static const char *const addressed[] = {"To", "Cc", "Delivered-To",
                                            "X-Original-To", "Envelope-To"};
    list recipients = {0}, results = {0};
    GMimeHeaderList *headers =
        g_mime_object_get_header_list(GMIME_OBJECT(message));
    int count = g_mime_header_list_get_count(headers);
    for (int i = 0; i < count; i++) {
        GMimeHeader *h = g_mime_header_list_get_header_at(headers, i);
        const char *name = g_mime_header_get_name(h);
        const char *raw = g_mime_header_get_raw_value(h);
        if (name == NULL || raw == NULL)
            continue;
        if (g_ascii_strcasecmp(name, "Authentication-Results") == 0) {
            push(&results, unfolded(raw));
            continue;
        }
        for (size_t k = 0; k < sizeof addressed / sizeof *addressed; k++) {
            if (g_ascii_strcasecmp(name, addressed[k]) != 0)
                continue;
            InternetAddressList *addresses =
                internet_address_list_parse(options, raw);
            add_recipients(&recipients, addresses);
            if (addresses)
                g_object_unref(addresses);
        }
    }
    m->recipients = recipients.items;
    m->recipient_count = recipients.count;
    m->authentication_results = results.items;
    m->authentication_result_count = results.count;
}

/* Return-Path's addr-spec: "" for <>, what is between the brackets when
 * GMime finds no mailbox there. */
static char *return_path(GMimeMessage *message, GMimeParserOptions *options)
{
    char *value = raw_header(message, "Return-Path");
    if (value == NULL)
        return NULL;
    InternetAddressList *parsed = internet_address_list_parse(options, value);
    const char *addr = first_mailbox(parsed);
    char *out = NULL;
    if (addr && addr[0])
        out = with_lower_domain(addr);
    if (out == NULL) {
        const char *open = strchr(value, '<');
        const char *close = open ? strchr(open, '>') : NULL;
        const char *from = open && close ? open + 1 : value;
        size_t len = open && close ? (size_t)(close - from) : strlen(value);
        while (len > 0 && from[0] == ' ') {
            from++;
            len--;
        }
        while (len > 0 && from[len - 1] == ' ')
            len--;
        out = checked(strndup(from, len));
    }
    if (parsed)
        g_object_unref(parsed);
    free(value);
    return out;
}

/* At most max bytes of text, not splitting a UTF-8 character. */
static void cut(char *text, size_t max)
{
    size_t len = strlen(text);
    if (len <= max)
        return;
    while (max > 0 && ((unsigned char)text[max] & 0xC0) == 0x80)
        max--;
    text[max] = '\0';
}

static char *written_text(GMimeObject *top)
{
    char *shown = mail_body_text(top);
    char *text = mail_text_written_part(shown);
    free(shown);
    cut(text, MAIL_MESSAGE_MAX_TEXT);
    return text;
}

/* The fields of message into m; false with why when it is not a mail we
 * can read. */
static bool read_message(GMimeMessage *message, GMimeParserOptions *options,
                         mail_message *m, char *why, size_t why_size)
{
    GMimeObject *top = g_mime_message_get_mime_part(message);
    if (!mail_body_within_bounds(top)) {
        set_why(why, why_size, "the message has too many parts");
        return false;
    }
    const char *from = first_mailbox(g_mime_message_get_from(message));
    m->from = from ? with_lower_domain(from) : NULL;
    if (m->from == NULL) {
        set_why(why, why_size, "the message has no From address");
        return false;
    }
    m->from_domain = copy(strrchr(m->from, '@') + 1);
    const char *name = first_mailbox_name(g_mime_message_get_from(message));
    m->from_name = copy(name ? name : "");
    const char *id = g_mime_message_get_message_id(message);
    m->message_id = id && id[0] ? copy(id) : NULL;
    m->in_reply_to = raw_header(message, "In-Reply-To");
    m->references = raw_header(message, "References");
    const char *subject = g_mime_message_get_subject(message);
    gchar *valid = g_utf8_make_valid(subject ? subject : "", -1);
    m->subject = copy(valid);
    g_free(valid);
    read_header_list(message, options, m);
    m->return_path = return_path(message, options);

    bool report = mail_body_is_delivery_report(top);
    m->automatic_why = mail_auto_why(message, m->from, m->return_path, report);
    m->automatic = m->automatic_why != NULL;
    m->bounce = report || mail_auto_daemon(m->from);
    char *status = mail_body_delivery_status(top);
    char *recipient = status ? mail_dsn_recipient(status) : NULL;
    if (recipient) {
        m->bounced_recipient = with_lower_domain(recipient);
        if (m->bounced_recipient == NULL)
            m->bounced_recipient = copy(recipient);
    }
    free(recipient);
    free(status);
    m->text = written_text(top);
    return true;
}

mail_message *mail_message_parse(const char *raw, size_t length, char *why,
                                 size_t why_size)
{
    if (pthread_once(&started, start) != 0)
        abort();
    if (raw == NULL)
        length = 0;
    size_t start_at;
    if (!header_block(raw, length, &start_at, why, why_size))
        return NULL;
    /* Before GMime builds a tree it would take tens of MiB to hold. */
    if (!mail_limits_check(raw, length, why, why_size))
        return NULL;

    GMimeStream *stream =
        g_mime_stream_mem_new_with_buffer(raw + start_at, length - start_at);
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);
    g_object_unref(stream);
    GMimeParserOptions *options = g_mime_parser_options_new();
    /* 8-bit headers without RFC 2047: UTF-8, else what Western mail
     * programs meant by Latin-1. */
    const char *charsets[] = {"utf-8", "windows-1252", NULL};
    g_mime_parser_options_set_fallback_charsets(options, charsets);
    GMimeMessage *message = g_mime_parser_construct_message(parser, options);
    g_object_unref(parser);

    mail_message *m = checked(calloc(1, sizeof *m));
    bool ok = false;
    if (message == NULL)
        set_why(why, why_size, "the bytes are not a mail message");
    else
        ok = read_message(message, options, m, why, why_size);
    if (message)
        g_object_unref(message);
    g_mime_parser_options_free(options);
    if (!ok) {
        mail_message_free(m);
        return NULL;
    }
    crypto_hash_sha256(m->sha256, (const unsigned char *)raw, length);
    return m;
}

char *mail_message_sender(const char *raw, size_t length)
{
    if (pthread_once(&started, start) != 0)
        abort();
    size_t start_at;
    if (raw == NULL || !header_block(raw, length, &start_at, NULL, 0))
        return NULL;
    /* header_block bounded the block; GMime gets it without the body. */
    const char *head = raw + start_at, *end = raw + length;
    for (const char *eol; (eol = memchr(head, '\n', (size_t)(end - head)));) {
        head = eol + 1;
        if (head < end && (*head == '\n' || (*head == '\r' && head + 1 < end &&
                                             head[1] == '\n')))
            break;
    }
    /* No blank line: the whole message is its header, the last line too. */
    if (memchr(head, '\n', (size_t)(end - head)) == NULL)
        head = end;
    GMimeStream *stream = g_mime_stream_mem_new_with_buffer(
        raw + start_at, (size_t)(head - raw) - start_at);
    GMimeParser *parser = g_mime_parser_new_with_stream(stream);
    g_object_unref(stream);
    GMimeParserOptions *options = g_mime_parser_options_new();
    GMimeMessage *message = g_mime_parser_construct_message(parser, options);
    g_object_unref(parser);
    char *sender = NULL;
    const char *from =
        message ? first_mailbox(g_mime_message_get_from(message)) : NULL;
    if (from != NULL && *from != '\0')
        sender = with_lower_domain(from);
    if (message)
        g_object_unref(message);
    g_mime_parser_options_free(options);
    return sender;
}

static void free_all(char **items, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
}

void mail_message_free(mail_message *m)
{
    if (m == NULL)
        return;
    free(m->from);
    free(m->from_domain);
    free(m->from_name);
    free(m->message_id);
    free(m->in_reply_to);
    free(m->references);
    free(m->subject);
    free_all(m->recipients, m->recipient_count);
    free(m->return_path);
    free(m->bounced_recipient);
    free(m->text);
    free_all(m->authentication_results, m->authentication_result_count);
    free(m);
}
