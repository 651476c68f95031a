/* mail_mime.c */
#include "notify/mail_mime.h"

#include <sodium.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether text (CRLF line ends) can go as it is: ASCII only, no NUL or
 * lone CR or LF, and no line longer than RFC 5322's 998 characters. */
static bool seven_bit(const char *text)
{
    size_t line = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p >= 0x80 || (*p == '\r' && p[1] != '\n') ||
            (*p == '\n' && (p == (const unsigned char *)text || p[-1] != '\r')))
            return false;
        line = *p == '\n' ? 0 : line + 1;
        if (line > 998)
            return false;
    }
    return true;
}

/* Quoted-printable (RFC 2045 6.7): printable ASCII as it is, the rest as
 * =XX, white space before a line end encoded, soft line breaks keeping
 * each line within 76 characters; text has CRLF line ends. */
static void put_quoted_printable(FILE *f, const char *text)
{
    int column = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        if (*p == '\r' && p[1] == '\n') {
            fputs("\r\n", f);
            p++;
            column = 0;
            continue;
        }
        bool at_end = p[1] == '\0' || (p[1] == '\r' && p[2] == '\n');
        bool literal = (*p >= 33 && *p <= 126 && *p != '=') ||
                       ((*p == ' ' || *p == '\t') && !at_end);
        int width = literal ? 1 : 3;
        /* A soft break leaves room for the "=" that ends the line. */
        if (column + width > 75) {
            fputs("=\r\n", f);
            column = 0;
        }
        if (literal)
            fputc(*p, f);
        else
            fprintf(f, "=%02X", *p);
        column += width;
    }
    if (column > 0)
        fputs("\r\n", f);
}

/* A text part's transfer encoding and body: 7bit when it can go as it
 * is, else quoted-printable, which leaves mostly-ASCII text readable in
 * any mail client's source view (and to filters) where base64 does not. */
static void put_part(FILE *f, const char *type, const char *body)
{
    bool plain = seven_bit(body);
    fprintf(f, "Content-Type: %s; charset=utf-8\r\n"
               "Content-Transfer-Encoding: %s\r\n\r\n",
            type, plain ? "7bit" : "quoted-printable");
    if (plain) {
        size_t len = strlen(body);
        fputs(body, f);
        if (len < 2 || strcmp(body + len - 2, "\r\n") != 0)
            fputs("\r\n", f);
    } else {
        put_quoted_printable(f, body);
    }
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

char *mail_mime_write(const mail_mime_message *m)
{
    uint8_t random[12];
    char boundary[40];
    randombytes_buf(random, sizeof random);
    memcpy(boundary, "=_pbem_", 7);
    sodium_bin2hex(boundary + 7, sizeof boundary - 7, random, sizeof random);
    char *text_crlf = crlf(m->text);
    char *html_crlf = m->html ? crlf(m->html) : NULL;
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    if (f == NULL)
        abort();
    if (m->from_phrase[0])
        fprintf(f, "From: %s <%s>\r\n", m->from_phrase, m->from_address);
    else
        fprintf(f, "From: <%s>\r\n", m->from_address);
    if (m->to_phrase != NULL && m->to_phrase[0])
        fprintf(f, "To: %s <%s>\r\n", m->to_phrase, m->to_address);
    else
        fprintf(f, "To: <%s>\r\n", m->to_address);
    if (m->reply_to != NULL)
        fprintf(f, "Reply-To: <%s>\r\n", m->reply_to);
    fprintf(f, "Subject: %s\r\n", m->subject);
    fprintf(f, "Date: %s\r\n", m->date);
    fprintf(f, "Message-ID: <%s@%s>\r\n", m->id, m->domain);
    if (m->in_reply_to != NULL)
        fprintf(f, "In-Reply-To: %s\r\n", m->in_reply_to);
    if (m->references != NULL)
        fprintf(f, "References: %s\r\n", m->references);
    if (m->auto_submitted != NULL)
        fprintf(f, "Auto-Submitted: %s\r\n", m->auto_submitted);
    if (m->tag != NULL)
        fprintf(f, "%s\r\n", m->tag);
    if (m->unsubscribe != NULL) {
        fprintf(f, "List-Unsubscribe: <%s>\r\n", m->unsubscribe);
        fprintf(f, "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
    }
    fprintf(f, "MIME-Version: 1.0\r\n");
    if (html_crlf == NULL) {
        put_part(f, "text/plain", text_crlf);
    } else {
        fprintf(f, "Content-Type: multipart/alternative; boundary=\"%s\"\r\n",
                boundary);
        fprintf(f, "\r\n");
        fprintf(f, "--%s\r\n", boundary);
        put_part(f, "text/plain", text_crlf);
        fprintf(f, "--%s\r\n", boundary);
        put_part(f, "text/html", html_crlf);
        fprintf(f, "--%s--\r\n", boundary);
    }
    if (fclose(f) != 0)
        abort();
    free(text_crlf);
    free(html_crlf);
    return out;
}
