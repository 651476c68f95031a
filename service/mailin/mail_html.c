/* mail_html.c */
#include "mailin/mail_html.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct reader {
    FILE *out;
    bool line_has_text; /* something visible since the last line break */
    bool space_pending; /* white space seen after it */
    int quote_depth;    /* inside <blockquote>: the original, dropped */
    int pre_depth;      /* inside <pre>: white space kept */
    bool in_head;
} reader;

static bool hidden(const reader *r)
{
    return r->quote_depth > 0 || r->in_head;
}

static void emit(reader *r, const char *bytes, size_t n)
{
    if (hidden(r) || n == 0)
        return;
    if (r->space_pending && r->line_has_text)
        fputc(' ', r->out);
    fwrite(bytes, 1, n, r->out);
    r->line_has_text = true;
    r->space_pending = false;
}

static void space(reader *r)
{
    if (!hidden(r) && r->line_has_text)
        r->space_pending = true;
}

static void line_break(reader *r)
{
    if (hidden(r))
        return;
    fputc('\n', r->out);
    r->line_has_text = false;
    r->space_pending = false;
}

/* Between blocks: one line break, however many blocks nest. */
static void block(reader *r)
{
    if (r->line_has_text)
        line_break(r);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static bool is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* White space in the source: one space, or itself inside <pre>. */
static void white(reader *r, char c)
{
    if (r->pre_depth == 0)
        space(r);
    else if (c == '\n')
        line_break(r);
    else if (c != '\r')
        emit(r, &c, 1);
}

static void emit_code_point(reader *r, uint32_t c)
{
    if (c == 9 || c == 10 || c == 13 || c == 32) {
        white(r, (char)c);
        return;
    }
    if (c == 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF) || c < 0x20 ||
        (c >= 0x7F && c <= 0x9F))
        c = 0xFFFD;
    char utf8[4];
    size_t n;
    if (c < 0x80) {
        utf8[0] = (char)c;
        n = 1;
    } else if (c < 0x800) {
        utf8[0] = (char)(0xC0 | (c >> 6));
        utf8[1] = (char)(0x80 | (c & 0x3F));
        n = 2;
    } else if (c < 0x10000) {
        utf8[0] = (char)(0xE0 | (c >> 12));
        utf8[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        utf8[2] = (char)(0x80 | (c & 0x3F));
        n = 3;
    } else {
        utf8[0] = (char)(0xF0 | (c >> 18));
        utf8[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        utf8[2] = (char)(0x80 | ((c >> 6) & 0x3F));
        utf8[3] = (char)(0x80 | (c & 0x3F));
        n = 4;
    }
    emit(r, utf8, n);
}

/* The named entities mail programs write; the rest arrive as UTF-8 or as
 * numbers. The first five are also read without their ';', as browsers
 * do. */
static const struct {
    const char *name;
    const char *text;
} entities[] = {
    {"amp", "&"},
    {"lt", "<"},
    {"gt", ">"},
    {"quot", "\""},
    {"nbsp", "\xC2\xA0"},
    {"apos", "'"},
    {"copy", "\xC2\xA9"},
    {"reg", "\xC2\xAE"},
    {"trade", "\xE2\x84\xA2"},
    {"hellip", "\xE2\x80\xA6"},
    {"ndash", "\xE2\x80\x93"},
    {"mdash", "\xE2\x80\x94"},
    {"lsquo", "\xE2\x80\x98"},
    {"rsquo", "\xE2\x80\x99"},
    {"ldquo", "\xE2\x80\x9C"},
    {"rdquo", "\xE2\x80\x9D"},
    {"laquo", "\xC2\xAB"},
    {"raquo", "\xC2\xBB"},
    {"euro", "\xE2\x82\xAC"},
    {"middot", "\xC2\xB7"},
    {"bull", "\xE2\x80\xA2"},
    {"deg", "\xC2\xB0"},
    {"times", "\xC3\x97"},
    {"eacute", "\xC3\xA9"},
    {"egrave", "\xC3\xA8"},
    {"agrave", "\xC3\xA0"},
    {"ccedil", "\xC3\xA7"},
    {"auml", "\xC3\xA4"},
    {"ouml", "\xC3\xB6"},
    {"uuml", "\xC3\xBC"},
    {"szlig", "\xC3\x9F"},
    {"shy", ""},
    {"zwnj", ""},
    {"zwj", ""},
};

/* p is at '&'. Returns where the text continues. */
static const char *entity(reader *r, const char *p)
{
    if (p[1] == '#') {
        const char *q = p + 2;
        int base = 10;
        if (*q == 'x' || *q == 'X') {
            base = 16;
            q++;
        }
        uint32_t value = 0;
        int digits = 0;
        for (;; q++, digits++) {
            int d;
            if (*q >= '0' && *q <= '9')
                d = *q - '0';
            else if (base == 16 && *q >= 'a' && *q <= 'f')
                d = *q - 'a' + 10;
            else if (base == 16 && *q >= 'A' && *q <= 'F')
                d = *q - 'A' + 10;
            else
                break;
            if (value <= 0x10FFFF) /* beyond it stays beyond it */
                value = value * (uint32_t)base + (uint32_t)d;
        }
        if (digits == 0) {
            emit(r, p, 1);
            return p + 1;
        }
        emit_code_point(r, value);
        return *q == ';' ? q + 1 : q;
    }
    for (size_t i = 0; i < sizeof entities / sizeof *entities; i++) {
        size_t n = strlen(entities[i].name);
        if (strncmp(p + 1, entities[i].name, n) != 0)
            continue;
        const char *after = p + 1 + n;
        if (*after == ';') {
            emit(r, entities[i].text, strlen(entities[i].text));
            return after + 1;
        }
        if (i < 5 && !is_alnum(*after)) {
            emit(r, entities[i].text, strlen(entities[i].text));
            return after;
        }
    }
    emit(r, p, 1);
    return p + 1;
}

/* Where the tag that p is inside ends: after its '>', skipping quoted
 * attribute values; NULL when the input ends first. */
static const char *tag_end(const char *p)
{
    while (*p) {
        if (*p == '>')
            return p + 1;
        if (*p != '=') {
            p++;
            continue;
        }
        p++;
        while (is_space(*p))
            p++;
        if (*p == '"' || *p == '\'') {
            const char *close = strchr(p + 1, *p);
            if (close == NULL)
                return NULL;
            p = close + 1;
        }
    }
    return NULL;
}

/* The first occurrence of needle (lower case) in p, any case; NULL when
 * none. Needles are a few bytes long, so this stays linear. */
static const char *find_nocase(const char *p, const char *needle)
{
    size_t n = strlen(needle);
    for (; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return p;
    return NULL;
}

static bool one_of(const char *name, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(name, *names) == 0)
            return true;
    return false;
}

static const char *const blocks[] = {
    "p",       "div",    "li",     "tr",   "table",   "ul",         "ol",
    "dl",      "dt",     "dd",     "h1",   "h2",      "h3",         "h4",
    "h5",      "h6",     "hr",     "pre",  "address", "center",     "section",
    "article", "header", "footer", "nav",  "aside",   "form",       "fieldset",
    "figure",  "main",   "body",   "html", "caption", "blockquote", NULL};

/* Elements whose content is not text to show. */
static const char *const raw_text[] = {"style", "script", "title", "template",
                                       NULL};

/* What may stand in <head>; any other tag means the body began. */
static const char *const head_content[] = {"title", "style", "script",   "meta",
                                           "link",  "base",  "noscript", NULL};

static void start_tag(reader *r, const char *name)
{
    if (r->in_head && !one_of(name, head_content))
        r->in_head = false;
    if (strcmp(name, "head") == 0) {
        r->in_head = true;
        return;
    }
    if (strcmp(name, "br") == 0) {
        line_break(r);
        return;
    }
    if (strcmp(name, "td") == 0 || strcmp(name, "th") == 0) {
        space(r);
        return;
    }
    if (one_of(name, blocks))
        block(r);
    if (strcmp(name, "blockquote") == 0)
        r->quote_depth++;
    if (strcmp(name, "pre") == 0)
        r->pre_depth++;
}

static void end_tag(reader *r, const char *name)
{
    if (strcmp(name, "head") == 0) {
        r->in_head = false;
        return;
    }
    if (strcmp(name, "br") == 0) { /* browsers read </br> as <br> */
        line_break(r);
        return;
    }
    if (strcmp(name, "blockquote") == 0 && r->quote_depth > 0)
        r->quote_depth--;
    if (strcmp(name, "pre") == 0 && r->pre_depth > 0)
        r->pre_depth--;
    if (one_of(name, blocks))
        block(r);
}

/* p is at '<'. Returns where the text continues, NULL at the end. */
static const char *tag(reader *r, const char *p)
{
    if (strncmp(p, "<!--", 4) == 0) {
        const char *close = strstr(p + 4, "-->");
        return close ? close + 3 : NULL;
    }
    if (p[1] == '!' || p[1] == '?')
        return tag_end(p + 2);
    bool closing = p[1] == '/';
    const char *q = p + 1 + closing;
    if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))) {
        emit(r, p, 1); /* a '<' in the text */
        return p + 1;
    }
    char name[16];
    size_t n = 0;
    for (; is_alnum(*q) || *q == ':' || *q == '-'; q++)
        if (n + 1 < sizeof name)
            name[n++] = (char)(*q | 0x20);
    name[n] = '\0';
    const char *after = tag_end(q);
    if (after == NULL)
        return NULL;
    if (closing) {
        end_tag(r, name);
        return after;
    }
    start_tag(r, name);
    if (one_of(name, raw_text)) {
        char close[20];
        snprintf(close, sizeof close, "</%s", name);
        const char *end = find_nocase(after, close);
        return end ? tag_end(end) : NULL;
    }
    return after;
}

/* Without leading and trailing blank lines. */
static char *tidy(char *text)
{
    size_t len = strlen(text);
    while (len > 0 && is_space(text[len - 1]))
        len--;
    text[len] = '\0';
    size_t start = 0;
    while (start < len && text[start] == '\n')
        start++;
    memmove(text, text + start, len - start + 1);
    return text;
}

char *mail_html_to_text(const char *html)
{
    char *out = NULL;
    size_t out_len = 0;
    reader r = {.out = open_memstream(&out, &out_len)};
    if (r.out == NULL)
        abort();
    const char *p = html;
    while (p != NULL && *p) {
        if (*p == '<') {
            p = tag(&r, p);
        } else if (*p == '&') {
            p = entity(&r, p);
        } else if (is_space(*p)) {
            white(&r, *p);
            p++;
        } else {
            size_t n = strcspn(p, "<& \t\n\r\f");
            emit(&r, p, n);
            p += n;
        }
    }
    if (fclose(r.out) != 0)
        abort();
    return tidy(out);
}
