/* mail_authres.c */
#include "mailin/mail_authres.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A header value reduced to what RFC 8601 gives meaning: comments gone
 * (they nest, and quoted strings and backslashes protect parentheses),
 * each ';' outside quotes a separator '\1', white space around '=' gone,
 * so that the rest splits on white space and ';' alone. */
static char *reduced(const char *value)
{
    size_t len = strlen(value);
    char *out = malloc(len + 1);
    if (out == NULL)
        abort();
    size_t n = 0;
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < len; i++) {
        char c = value[i];
        if (c == '\\' && i + 1 < len) {
            if (depth == 0) {
                out[n++] = c;
                out[n++] = value[i + 1];
            }
            i++;
        } else if (quote) {
            out[n++] = c;
            if (c == '"')
                quote = 0;
        } else if (c == '(') {
            depth++;
        } else if (c == ')' && depth > 0) {
            depth--;
        } else if (depth > 0) {
            continue;
        } else if (c == '"') {
            quote = c;
            out[n++] = c;
        } else if (c == ';') {
            out[n++] = '\1';
        } else if (c == '\r' || c == '\n' || c == '\t') {
            out[n++] = ' ';
        } else {
            out[n++] = c;
        }
    }
    out[n] = '\0';
    /* "header.d = example.org" is "header.d=example.org". */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] == ' ') {
            size_t j = i;
            while (j < n && out[j] == ' ')
                j++;
            if ((m > 0 && out[m - 1] == '=') || (j < n && out[j] == '=')) {
                i = j - 1;
                continue;
            }
        }
        out[m++] = out[i];
    }
    out[m] = '\0';
    return out;
}

/* The next word of a result (to white space, outside quotes), NULL at
 * its end. */
static char *next_word(char **cursor)
{
    char *p = *cursor;
    while (*p == ' ')
        p++;
    if (*p == '\0') {
        *cursor = p;
        return NULL;
    }
    char *start = p;
    bool quote = false;
    for (; *p && (quote || *p != ' '); p++) {
        if (*p == '\\' && p[1])
            p++;
        else if (*p == '"')
            quote = !quote;
    }
    if (*p == ' ')
        *p++ = '\0';
    *cursor = p;
    return start;
}

/* The next ';'-separated part of a reduced value, NUL-terminated; NULL
 * after the last. */
static char *next_part(char **cursor)
{
    char *start = *cursor;
    if (start == NULL)
        return NULL;
    char *sep = strchr(start, '\1');
    if (sep) {
        *sep = '\0';
        *cursor = sep + 1;
    } else {
        *cursor = NULL;
    }
    return start;
}

/* A value as written: without the quotes of a quoted-string. */
static void unquote(char *value)
{
    size_t len = strlen(value);
    if (len < 2 || value[0] != '"' || value[len - 1] != '"')
        return;
    size_t n = 0;
    for (size_t i = 1; i + 1 < len; i++) {
        if (value[i] == '\\' && i + 2 < len)
            i++;
        value[n++] = value[i];
    }
    value[n] = '\0';
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

/* What one result says about the sender's domain. */
typedef struct finding {
    char method[16];
    char result[16];
    char domain[256];     /* header.from for dmarc, header.d for dkim */
    const char *identity; /* dkim's header.i, inside the copy */
} finding;

static bool ends_with_domain(const char *identity, const char *domain)
{
    size_t a = strlen(identity), b = strlen(domain);
    return a > b && identity[a - b - 1] == '@' &&
           strcasecmp(identity + a - b, domain) == 0;
}

static bool about(const finding *f, const char *domain)
{
    return strcasecmp(f->domain, domain) == 0 ||
           (f->identity && ends_with_domain(f->identity, domain));
}

/* Reads one result ("dkim=pass header.d=x ...") into f. */
static void read_result(char *part, finding *f)
{
    memset(f, 0, sizeof *f);
    char *cursor = part;
    bool first = true;
    for (char *word = next_word(&cursor); word;
         word = next_word(&cursor), first = false) {
        char *eq = strchr(word, '=');
        if (eq == NULL)
            continue;
        *eq = '\0';
        char *value = eq + 1;
        unquote(value);
        if (first) {
            char *slash = strchr(word, '/'); /* method/version */
            if (slash)
                *slash = '\0';
            snprintf(f->method, sizeof f->method, "%s", word);
            snprintf(f->result, sizeof f->result, "%s", value);
        } else if (strcasecmp(f->method, "dmarc") == 0 &&
                   strcasecmp(word, "header.from") == 0) {
            snprintf(f->domain, sizeof f->domain, "%s", value);
        } else if (strcasecmp(f->method, "dkim") == 0 &&
                   strcasecmp(word, "header.d") == 0) {
            snprintf(f->domain, sizeof f->domain, "%s", value);
        } else if (strcasecmp(f->method, "dkim") == 0 &&
                   strcasecmp(word, "header.i") == 0) {
            f->identity = value;
        }
    }
}

/* Whether the header's first part names authserv_id (then a version may
 * follow). */
static bool from_server(char *part, const char *authserv_id)
{
    char *cursor = part;
    char *id = next_word(&cursor);
    if (id == NULL)
        return false;
    unquote(id);
    return strcasecmp(id, authserv_id) == 0;
}

/* The verdict of the trusted header, from its results on. */
static bool trusted_pass(char **parts, const char *authserv_id,
                         const char *domain, char *why, size_t why_size)
{
    finding best; /* the most telling result that did not pass */
    memset(&best, 0, sizeof best);
    int best_rank = 0;
    for (char *part = next_part(parts); part; part = next_part(parts)) {
        finding f;
        read_result(part, &f);
        bool dmarc = strcasecmp(f.method, "dmarc") == 0;
        bool dkim = strcasecmp(f.method, "dkim") == 0;
        if (!dmarc && !dkim)
            continue;
        bool pass = strcasecmp(f.result, "pass") == 0;
        if (pass && about(&f, domain))
            return true;
        int rank = dmarc && about(&f, domain)  ? 3
                   : dkim && about(&f, domain) ? 2
                   : dkim && pass              ? 1
                                               : 0;
        if (rank > best_rank) {
            best = f;
            best.identity = NULL;
            best_rank = rank;
        }
    }
    if (best_rank >= 2)
        set_why(why, why_size, "%s found %s=%s for %s", authserv_id,
                best.method, best.result, domain);
    else if (best_rank == 1)
        set_why(why, why_size, "%s found dkim=pass only for %s, not %s",
                authserv_id, best.domain[0] ? best.domain : "another domain",
                domain);
    else
        set_why(why, why_size, "%s found no dkim or dmarc result for %s",
                authserv_id, domain);
    return false;
}

bool mail_authres_pass(char *const *headers, size_t count,
                       const char *authserv_id, const char *from_domain,
                       char *why, size_t why_size)
{
    if (from_domain == NULL || from_domain[0] == '\0') {
        set_why(why, why_size, "the sender has no domain to check");
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        if (headers[i] == NULL)
            continue;
        char *copy = reduced(headers[i]);
        char *parts = copy;
        if (!from_server(next_part(&parts), authserv_id)) {
            free(copy);
            continue;
        }
        bool pass =
            trusted_pass(&parts, authserv_id, from_domain, why, why_size);
        free(copy);
        return pass;
    }
    set_why(why, why_size, "no Authentication-Results from %s", authserv_id);
    return false;
}
