/* mail_mime.c */
#include "notify/mail_mime.h"

#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        fprintf(f, "Content-Type: text/plain; charset=utf-8\r\n"
                   "Content-Transfer-Encoding: base64\r\n\r\n");
        put_base64(f, text_crlf);
    } else {
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
    }
    if (fclose(f) != 0)
        abort();
    free(text_crlf);
    free(html_crlf);
    return out;
}
