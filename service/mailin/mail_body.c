/* mail_body.c */
#include "mailin/mail_body.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mailin/mail_html.h"

static bool walk(GMimeObject *object, int depth, int *parts)
{
    (*parts)++;
    if (*parts > MAIL_BODY_MAX_PARTS || depth > MAIL_BODY_MAX_DEPTH)
        return false;
    if (GMIME_IS_MULTIPART(object)) {
        GMimeMultipart *multipart = GMIME_MULTIPART(object);
        int count = g_mime_multipart_get_count(multipart);
        for (int i = 0; i < count; i++)
            if (!walk(g_mime_multipart_get_part(multipart, i), depth + 1,
                      parts))
                return false;
    } else if (GMIME_IS_MESSAGE_PART(object)) {
        GMimeMessage *inner =
            g_mime_message_part_get_message(GMIME_MESSAGE_PART(object));
        GMimeObject *top = inner ? g_mime_message_get_mime_part(inner) : NULL;
        if (top && !walk(top, depth + 1, parts))
            return false;
    }
    return true;
}

bool mail_body_within_bounds(GMimeObject *top)
{
    int parts = 0;
    return top == NULL || walk(top, 0, &parts);
}

static bool is_type(GMimeObject *object, const char *type, const char *sub)
{
    GMimeContentType *ct = g_mime_object_get_content_type(object);
    return ct && g_mime_content_type_is_type(ct, type, sub);
}

/* The bytes of a leaf part, transfer encoding undone, at most
 * MAIL_BODY_MAX_TEXT of them (owned by the caller, g_byte_array_unref). */
static GByteArray *decoded(GMimePart *part)
{
    GByteArray *bytes = g_byte_array_new();
    GMimeDataWrapper *content = g_mime_part_get_content(part);
    if (content == NULL)
        return bytes;
    GMimeStream *mem = g_mime_stream_mem_new_with_byte_array(bytes);
    g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
    /* Into memory, which cannot fail; GMime's decoders skip what they
     * cannot read, so a damaged part shows what could be read of it. */
    (void)g_mime_data_wrapper_write_to_stream(content, mem);
    g_object_unref(mem);
    if (bytes->len > MAIL_BODY_MAX_TEXT)
        g_byte_array_set_size(bytes, MAIL_BODY_MAX_TEXT);
    return bytes;
}

/* bytes converted from charset to UTF-8 by GMime's filter, which skips
 * what it cannot read; NULL when iconv does not know the charset. */
static GByteArray *converted(const GByteArray *bytes, const char *charset)
{
    GMimeFilter *filter = g_mime_filter_charset_new(charset, "utf-8");
    if (filter == NULL)
        return NULL;
    GByteArray *out = g_byte_array_new();
    GMimeStream *mem = g_mime_stream_mem_new_with_byte_array(out);
    g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(mem), FALSE);
    GMimeStream *filtered = g_mime_stream_filter_new(mem);
    g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), filter);
    g_object_unref(filter);
    /* Into memory, as above: nothing to fail. */
    (void)g_mime_stream_write(filtered, (const char *)bytes->data, bytes->len);
    (void)g_mime_stream_flush(filtered);
    g_object_unref(filtered);
    g_object_unref(mem);
    return out;
}

static bool is_utf8_name(const char *charset)
{
    static const char *const names[] = {"utf-8", "utf8", "us-ascii", "ascii",
                                        "ANSI_X3.4-1968"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(charset, names[i]) == 0)
            return true;
    return false;
}

static char *checked_copy(const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    return copy;
}

/* A C string (malloc'd) of valid UTF-8 from bytes: NULs dropped, invalid
 * sequences U+FFFD. */
static char *valid_string(const GByteArray *bytes)
{
    GString *clean = g_string_sized_new(bytes->len);
    for (guint i = 0; i < bytes->len; i++)
        if (bytes->data[i] != '\0')
            g_string_append_c(clean, (char)bytes->data[i]);
    gchar *valid = g_utf8_make_valid(clean->str, (gssize)clean->len);
    g_string_free(clean, TRUE);
    char *out = checked_copy(valid);
    g_free(valid);
    return out;
}

/* The part's text in UTF-8, malloc'd. US-ASCII is often declared for
 * 8-bit text, and many programs declare nothing: UTF-8 when it is valid,
 * else the Western charset of mail programs that do not say. */
static char *text_of_part(GMimePart *part)
{
    GByteArray *bytes = decoded(part);
    if (bytes->len == 0) { /* and bytes->data may be NULL */
        g_byte_array_unref(bytes);
        return checked_copy("");
    }
    GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(part));
    const char *charset =
        ct ? g_mime_content_type_get_parameter(ct, "charset") : NULL;
    GByteArray *utf8 = NULL;
    if (charset && !is_utf8_name(charset))
        utf8 = converted(bytes, charset);
    if (utf8 == NULL &&
        !g_utf8_validate((const char *)bytes->data, (gssize)bytes->len, NULL) &&
        !(charset && strncasecmp(charset, "utf", 3) == 0))
        utf8 = converted(bytes, "windows-1252");
    char *text = valid_string(utf8 ? utf8 : bytes);
    if (utf8)
        g_byte_array_unref(utf8);
    g_byte_array_unref(bytes);
    return text;
}

static bool has_text(const char *text)
{
    for (; text && *text; text++)
        if (!g_ascii_isspace(*text))
            return true;
    return false;
}

/* Files are attached, or named: either way not what the person typed. */
static bool attachment(GMimeObject *object)
{
    GMimeContentDisposition *d = g_mime_object_get_content_disposition(object);
    if (d && g_mime_content_disposition_is_attachment(d))
        return true;
    return GMIME_IS_PART(object) &&
           g_mime_part_get_filename(GMIME_PART(object)) != NULL;
}

static char *text_of(GMimeObject *object);

/* Of alternatives, text/plain first, then whatever a multipart holds,
 * then HTML: the first that has text. */
static int preference(GMimeObject *object)
{
    if (GMIME_IS_MULTIPART(object))
        return 1;
    if (is_type(object, "text", "plain"))
        return 0;
    if (is_type(object, "text", "html"))
        return 2;
    return 3;
}

static char *alternative(GMimeMultipart *multipart)
{
    int count = g_mime_multipart_get_count(multipart);
    for (int rank = 0; rank < 3; rank++)
        for (int i = 0; i < count; i++) {
            GMimeObject *part = g_mime_multipart_get_part(multipart, i);
            if (preference(part) != rank)
                continue;
            char *text = text_of(part);
            if (has_text(text))
                return text;
            free(text);
        }
    return NULL;
}

static char *each_in_order(GMimeMultipart *multipart)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (f == NULL)
        abort();
    bool first = true;
    int count = g_mime_multipart_get_count(multipart);
    for (int i = 0; i < count && len <= MAIL_BODY_MAX_TEXT; i++) {
        char *text = text_of(g_mime_multipart_get_part(multipart, i));
        if (has_text(text)) {
            fprintf(f, "%s%s", first ? "" : "\n", text);
            fflush(f);
            first = false;
        }
        free(text);
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

/* The text of object, malloc'd, or NULL when it shows none. The tree was
 * checked by mail_body_within_bounds, so the recursion is shallow. */
static char *text_of(GMimeObject *object)
{
    if (GMIME_IS_MULTIPART(object)) {
        GMimeMultipart *multipart = GMIME_MULTIPART(object);
        if (is_type(object, "multipart", "alternative"))
            return alternative(multipart);
        if (is_type(object, "multipart", "encrypted"))
            return NULL;
        if (is_type(object, "multipart", "signed") ||
            is_type(object, "multipart", "related") ||
            is_type(object, "multipart", "report"))
            return g_mime_multipart_get_count(multipart) > 0
                       ? text_of(g_mime_multipart_get_part(multipart, 0))
                       : NULL;
        return each_in_order(multipart);
    }
    if (!GMIME_IS_PART(object) || attachment(object))
        return NULL;
    if (is_type(object, "text", "plain"))
        return text_of_part(GMIME_PART(object));
    if (is_type(object, "text", "html")) {
        char *html = text_of_part(GMIME_PART(object));
        char *text = mail_html_to_text(html);
        free(html);
        return text;
    }
    return NULL;
}

char *mail_body_text(GMimeObject *top)
{
    char *text = top ? text_of(top) : NULL;
    return text ? text : checked_copy("");
}

bool mail_body_is_delivery_report(GMimeObject *top)
{
    if (top == NULL || !GMIME_IS_MULTIPART(top) ||
        !is_type(top, "multipart", "report"))
        return false;
    const char *type = g_mime_content_type_get_parameter(
        g_mime_object_get_content_type(top), "report-type");
    return type && strcasecmp(type, "delivery-status") == 0;
}

char *mail_body_delivery_status(GMimeObject *top)
{
    if (!mail_body_is_delivery_report(top))
        return NULL;
    GMimeMultipart *report = GMIME_MULTIPART(top);
    int count = g_mime_multipart_get_count(report);
    for (int i = 0; i < count; i++) {
        GMimeObject *part = g_mime_multipart_get_part(report, i);
        if (!GMIME_IS_PART(part) ||
            !(is_type(part, "message", "delivery-status") ||
              is_type(part, "message", "global-delivery-status")))
            continue;
        GByteArray *bytes = decoded(GMIME_PART(part));
        char *text = valid_string(bytes);
        g_byte_array_unref(bytes);
        return text;
    }
    return NULL;
}
