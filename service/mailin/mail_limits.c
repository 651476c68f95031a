/* mail_limits.c: see mail_limits.h. The walk follows GMime 3's parser: an
 * entity is a header block and a body; the last Content-Type decides
 * what the body is (a part of multipart/digest defaults to an attached
 * message, and a type GMime cannot read is that default); a multipart's
 * boundary is the first boundary parameter of that last field;
 * a body ends at a line that is a boundary of any open multipart, the
 * innermost first, "--b--" closing it and "--b" starting its next part. */
#include "mailin/mail_limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mailin/mail_body.h"

/* Boundary parameters kept per multipart (a part with several
 * Content-Type fields may have several), and of each the first bytes:
 * a line that begins with a prefix of the boundary is counted. */
#define CANDIDATES 4
#define BOUNDARY_MAX 128

typedef struct level {
    char boundary[CANDIDATES][BOUNDARY_MAX];
    size_t length[CANDIDATES];
    /* Whether the candidate is the whole boundary, not its beginning: only
     * a line that is exactly one moves from part to part. */
    bool whole[CANDIDATES];
    int count;
    int depth;   /* the multipart's own */
    bool digest; /* its parts are messages unless they say otherwise */
    /* Its boundary is written some way GMime's parameter parser reads
     * otherwise than this walk (several, RFC 2231 pieces, an encoded
     * word): every dash line in it counts, and nothing in it is walked
     * (unsure_line). */
    bool unsure;
    int nesting; /* the lines in it that may open a level, then */
} level;

typedef struct scan {
    const char *raw;
    size_t length, at;
    /* Entities deeper than MAIL_BODY_MAX_DEPTH are refused before they
     * could open a level. */
    level levels[MAIL_BODY_MAX_DEPTH + 1];
    int open;
    int parts, headers, dashes;
    const char *refused; /* why, once over a bound */
} scan;

/* A field's span in raw, continuation lines included. */
typedef struct span {
    size_t from, to;
} span;

static void set_why(char *why, size_t why_size, const char *text)
{
    if (why != NULL && why_size > 0)
        snprintf(why, why_size, "%s", text);
}

/* The next line from s->at: its start and length without CR LF, or
 * false at the end of the bytes. */
static bool next_line(scan *s, const char **line, size_t *len)
{
    if (s->at >= s->length)
        return false;
    *line = s->raw + s->at;
    const char *eol = memchr(*line, '\n', s->length - s->at);
    *len = eol ? (size_t)(eol - *line) : s->length - s->at;
    s->at = eol ? (size_t)(eol - s->raw) + 1 : s->length;
    if (*len > 0 && (*line)[*len - 1] == '\r')
        (*len)--;
    return true;
}

/* A line that begins with a boundary but is not exactly one (as GMime
 * reads it: the boundary, "--" to close, then only blanks) is MAYBE: it is
 * counted as a part, and changes nothing else. */
typedef enum delimiter { NOT_ONE, NEXT_PART, CLOSE, MAYBE } delimiter;

static bool begins_with(const char *line, size_t len, const char *prefix,
                        size_t prefix_len)
{
    return len >= prefix_len && memcmp(line, prefix, prefix_len) == 0;
}

static bool blanks(const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (text[i] != ' ' && text[i] != '\t')
            return false;
    return true;
}

/* Whether line delimits an open multipart, the innermost first; *which is
 * its level. Counts the line as a dash line. */
static delimiter delimits(scan *s, const char *line, size_t len, int *which)
{
    if (len < 2 || line[0] != '-' || line[1] != '-')
        return NOT_ONE;
    if (++s->dashes > MAIL_LIMITS_MAX_DASH_LINES)
        s->refused = "the message has too many parts";
    const char *rest = line + 2;
    size_t rest_len = len - 2;
    delimiter found = NOT_ONE;
    for (int i = s->open - 1; i >= 0; i--) {
        const level *l = &s->levels[i];
        for (int k = 0; k < l->count; k++) {
            size_t n = l->length[k];
            if (!begins_with(rest, rest_len, l->boundary[k], n))
                continue;
            if (found == NOT_ONE)
                *which = i;
            found = MAYBE;
            if (!l->whole[k])
                continue;
            if (rest_len >= n + 2 && rest[n] == '-' && rest[n + 1] == '-' &&
                blanks(rest + n + 2, rest_len - n - 2)) {
                *which = i;
                return CLOSE;
            }
            if (blanks(rest + n, rest_len - n)) {
                *which = i;
                return NEXT_PART;
            }
        }
    }
    return found;
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Past blanks and (comments) in [at, to), as GMime's skip_cfws reads
 * them: comments nest and a backslash escapes the byte after it. An
 * unclosed comment runs to the end (to), where GMime's parse fails. */
static size_t past_cfws(const char *raw, size_t at, size_t to)
{
    while (at < to && blank(raw[at]))
        at++;
    while (at < to && raw[at] == '(') {
        int depth = 1;
        for (at++; at < to && depth > 0; at++) {
            if (raw[at] == '\\' && at + 1 < to)
                at++;
            else if (raw[at] == '(')
                depth++;
            else if (raw[at] == ')')
                depth--;
        }
        if (depth > 0)
            return to;
        while (at < to && blank(raw[at]))
            at++;
    }
    return at;
}

/* The value after "Content-Type:" in the field at f. */
static size_t value_start(const char *raw, span f)
{
    const char *colon = memchr(raw + f.from, ':', f.to - f.from);
    return colon ? (size_t)(colon - raw) + 1 : f.to;
}

/* A byte of an RFC 2045 token, as GMime's is_ttoken has it: bytes over
 * 127 are. */
static bool token_byte(unsigned char c)
{
    return c > ' ' && c != 127 && strchr("()<>@,;:\\\"/[]?=", c) == NULL;
}

static bool token_is(const char *raw, span t, const char *word)
{
    size_t n = strlen(word);
    return t.to - t.from == n && strncasecmp(raw + t.from, word, n) == 0;
}

/* The type and subtype of the Content-Type field at f, read as GMime's
 * g_mime_parse_content_type reads them: a token, "/", a token, blanks and
 * comments around them, the value ending at a NUL. False when the value
 * is not that: GMime then gives the part its default type (text/plain,
 * or message/rfc822 in a digest), whatever the value's words, so a
 * "multipart" without its subtype opens no multipart. *params is where
 * the parameters may begin, after the subtype. */
static bool media_type(const char *raw, span f, span *type, span *subtype,
                       size_t *params)
{
    const char *nul = memchr(raw + f.from, '\0', f.to - f.from);
    size_t to = nul ? (size_t)(nul - raw) : f.to;
    size_t at = past_cfws(raw, value_start(raw, f), to);
    type->from = at;
    while (at < to && token_byte((unsigned char)raw[at]))
        at++;
    type->to = at;
    at = past_cfws(raw, at, to);
    if (at >= to || raw[at] != '/')
        return false;
    at = past_cfws(raw, at + 1, to);
    subtype->from = at;
    while (at < to && token_byte((unsigned char)raw[at]))
        at++;
    subtype->to = at;
    *params = at;
    return subtype->to > subtype->from;
}

/* Whether a boundary's value [from, to) is written as GMime's parameter
 * parser and this walk read alike: a run of token bytes, or a quoted
 * string (its backslashes escaping, as both read them) without a line
 * break; neither holding an encoded word ("=?", which GMime decodes). */
static bool plainly_written(const char *raw, size_t from, size_t to,
                            bool quoted)
{
    for (size_t at = from + quoted; at < to; at++) {
        char c = raw[at];
        if (c == '=' && at + 1 < to && raw[at + 1] == '?')
            return false;
        if (quoted ? c == '\r' || c == '\n' : !token_byte((unsigned char)c))
            return false;
    }
    return true;
}

/* The boundary parameters of the field at f, from params on, into l:
 * boundary=, and of RFC 2231's boundary*0= and boundary*= the first piece,
 * which begins the boundary, charset'language' and any %-escape cut off.
 * Quoted values lose their backslashes. A value longer than BOUNDARY_MAX
 * is kept as its beginning: a line that begins with the boundary begins
 * with that. GMime takes the first boundary parameter of a field, so only
 * the first can be whole: a line that is another one may be no boundary
 * to GMime, and must not close the multipart here while it goes on
 * there. */
static void boundaries(const char *raw, span f, size_t params, level *l)
{
    size_t at = params;
    while (at < f.to && l->count < CANDIDATES) {
        const char *semi = memchr(raw + at, ';', f.to - at);
        if (semi == NULL)
            return;
        at = past_cfws(raw, (size_t)(semi - raw) + 1, f.to);
        size_t name = at;
        while (at < f.to && raw[at] != '=' && raw[at] != ';' && !blank(raw[at]))
            at++;
        size_t name_len = at - name;
        at = past_cfws(raw, at, f.to);
        if (at >= f.to || raw[at] != '=')
            continue;
        at = past_cfws(raw, at + 1, f.to);
        bool plain = name_len == 8;
        bool first_piece =
            name_len > 8 && raw[name + 8] == '*' &&
            (name_len == 9 || (raw[name + 9] == '0' &&
                               (name_len == 10 || raw[name + 10] == '*')));
        bool extended = first_piece && raw[name + name_len - 1] == '*';
        if (!(plain || first_piece) ||
            strncasecmp(raw + name, "boundary", 8) != 0)
            continue;
        char *out = l->boundary[l->count];
        size_t n = 0;
        size_t value = at;
        bool quoted = at < f.to && raw[at] == '"';
        if (quoted)
            at++;
        bool escaped = false; /* from a %-escape on, nothing is kept */
        for (; at < f.to; at++) {
            char c = raw[at];
            if (quoted && c == '"')
                break;
            if (!quoted && (c == ';' || blank(c)))
                break;
            if (quoted && c == '\\' && at + 1 < f.to)
                c = raw[++at];
            if (quoted && (c == '\r' || c == '\n'))
                continue; /* folded inside the quotes */
            if (extended && c == '\'') {
                n = 0; /* charset'language' ends here */
                continue;
            }
            if (extended && c == '%')
                escaped = true;
            if (escaped || n == BOUNDARY_MAX - 1)
                continue;
            out[n++] = c;
        }
        out[n] = '\0';
        l->whole[l->count] = plain && n < BOUNDARY_MAX - 1 && l->count == 0 &&
                             plainly_written(raw, value, at, quoted);
        l->length[l->count++] = n;
    }
}

/* How often "boundary" occurs in [from, to), in any case. */
static int mentions(const char *raw, size_t from, size_t to)
{
    int times = 0;
    for (size_t at = from; at + 8 <= to; at++)
        if (strncasecmp(raw + at, "boundary", 8) == 0)
            times++;
    return times;
}

/* Counts one entity at depth; false once over a bound. */
static bool counted(scan *s, int depth)
{
    if (++s->parts > MAIL_BODY_MAX_PARTS || depth > MAIL_BODY_MAX_DEPTH)
        s->refused = "the message has too many parts";
    return s->refused == NULL;
}

/* Reads an entity's header block from s->at: counts its fields, keeps the
 * span of each Content-Type (the last CANDIDATES of them). Stops at the blank
 * line (consumed), at a boundary of an open multipart (not consumed), or at the
 * end. Returns how many Content-Type fields it kept. */
static int header_block(scan *s, span *types)
{
    int kept = 0;
    bool in_type = false;
    while (s->refused == NULL) {
        size_t before = s->at;
        const char *line;
        size_t len;
        if (!next_line(s, &line, &len) || len == 0)
            break;
        int which;
        delimiter d = delimits(s, line, len, &which);
        if (d == MAYBE) {
            counted(s, s->levels[which].depth + 1);
            continue;
        }
        if (d != NOT_ONE) {
            s->at = before; /* the body's to read, and count, again */
            s->dashes--;
            break;
        }
        if (line[0] == ' ' || line[0] == '\t') {
            if (in_type)
                types[kept - 1].to = (size_t)(line - s->raw) + len;
            continue;
        }
        if (++s->headers > MAIL_LIMITS_MAX_HEADERS) {
            s->refused = "the message has too many header fields";
            break;
        }
        const char *colon = memchr(line, ':', len);
        size_t name = colon ? (size_t)(colon - line) : 0;
        while (name > 0 && (line[name - 1] == ' ' || line[name - 1] == '\t'))
            name--;
        in_type =
            colon && name == 12 && strncasecmp(line, "Content-Type", 12) == 0;
        if (in_type && kept == CANDIDATES) {
            memmove(types, types + 1, (CANDIDATES - 1) * sizeof *types);
            kept--;
        }
        if (in_type) {
            types[kept].from = (size_t)(line - s->raw);
            types[kept].to = types[kept].from + len;
            kept++;
        }
    }
    return kept;
}

typedef enum kind { LEAF, MULTIPART, MESSAGE } kind;

/* What the entity whose header block was just read holds, by its last
 * Content-Type (GMime 3.2 reads the last one, and only its boundary): a
 * multipart opens a level when it has a boundary. In a digest, a part
 * without a type GMime can read is a message; so is any but a multipart
 * here. */
static kind entity(scan *s, int depth, bool in_digest)
{
    span types[CANDIDATES] = {{0, 0}};
    int kept = header_block(s, types);
    span last = types[kept > 0 ? kept - 1 : 0];
    span type = {0, 0}, subtype = {0, 0};
    size_t params = 0;
    bool typed = kept > 0 && media_type(s->raw, last, &type, &subtype, &params);
    if (!typed || !token_is(s->raw, type, "multipart"))
        return in_digest || (typed && token_is(s->raw, type, "message"))
                   ? MESSAGE
                   : LEAF;
    level *l = &s->levels[s->open];
    memset(l, 0, sizeof *l);
    int times = mentions(s->raw, params, last.to);
    if (times == 0)
        return LEAF; /* GMime reads it all as its preface */
    boundaries(s->raw, last, params, l);
    if (times > 1 || l->count == 0 || !l->whole[0]) {
        /* An empty beginning: every dash line in it is a boundary. */
        l->count = 1;
        l->length[0] = 0;
        l->whole[0] = false;
        l->unsure = true;
    }
    l->depth = depth;
    /* Loosely ("digest..."): more messages is more parts. */
    l->digest = subtype.to - subtype.from >= 6 &&
                strncasecmp(s->raw + subtype.from, "digest", 6) == 0;
    s->open++;
    return MULTIPART;
}

/* Whether line is a Content-Type field's first line. */
static bool content_type_line(const char *line, size_t len)
{
    size_t at = 12;
    if (len < at || strncasecmp(line, "Content-Type", 12) != 0)
        return false;
    while (at < len && (line[at] == ' ' || line[at] == '\t'))
        at++;
    return at < len && line[at] == ':';
}

/* Whether the line names a type that holds parts, in any case. */
static bool names_a_holder(const char *line, size_t len)
{
    for (size_t at = 0; at + 7 <= len; at++)
        if (strncasecmp(line + at, "message", 7) == 0 ||
            (at + 9 <= len && strncasecmp(line + at, "multipart", 9) == 0))
            return true;
    return false;
}

/* A line in an unsure level, which is not walked: a bound on what GMime
 * may build from it instead. Each of GMime's parts there begins at a
 * dash line (a part of a multipart) or is the top of a message, which
 * takes a part that is one: a digest's part, or one whose Content-Type
 * says so. A dash line therefore counts as two parts, a Content-Type
 * field as one more; and each line that may name a multipart or a
 * message (a field's folded line too) may nest two levels deeper. */
static void unsure_line(scan *s, level *l, const char *line, size_t len,
                        bool dashes)
{
    if (names_a_holder(line, len))
        l->nesting++;
    if (!dashes && !content_type_line(line, len))
        return;
    int depth = l->depth + 2 + 2 * l->nesting;
    if (dashes)
        counted(s, depth);
    counted(s, depth);
}

bool mail_limits_check(const char *raw, size_t length, char *why,
                       size_t why_size)
{
    scan *s = calloc(1, sizeof *s);
    if (s == NULL)
        abort();
    s->raw = raw;
    s->length = raw ? length : 0;
    if (s->length >= 5 && memcmp(raw, "From ", 5) == 0) {
        const char *eol = memchr(raw, '\n', length);
        s->at = eol ? (size_t)(eol - raw) + 1 : length;
    }
    /* The entity to read next: its depth, and whether a digest holds it. */
    int depth = 0;
    bool in_digest = false;
    bool headers_next = true;
    while (s->refused == NULL) {
        if (headers_next) {
            if (!counted(s, depth))
                break;
            kind k = entity(s, depth, in_digest);
            if (k == MESSAGE) {
                depth++;
                in_digest = false;
                continue;
            }
            headers_next = false;
        }
        const char *line;
        size_t len;
        if (!next_line(s, &line, &len))
            break;
        int which;
        delimiter d = delimits(s, line, len, &which);
        level *innermost = s->open > 0 ? &s->levels[s->open - 1] : NULL;
        if (d == MAYBE && s->levels[which].unsure)
            unsure_line(s, &s->levels[which], line, len, true);
        else if (d == MAYBE)
            counted(s, s->levels[which].depth + 1);
        else if (d == NOT_ONE && innermost != NULL && innermost->unsure)
            unsure_line(s, innermost, line, len, false);
        if (d == NOT_ONE || d == MAYBE)
            continue;
        s->open = d == CLOSE ? which : which + 1;
        if (d == NEXT_PART) {
            depth = s->levels[which].depth + 1;
            in_digest = s->levels[which].digest;
            headers_next = true;
        }
    }
    bool ok = s->refused == NULL;
    if (!ok)
        set_why(why, why_size, s->refused);
    free(s);
    return ok;
}
