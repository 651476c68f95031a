/* mail_text.c */
#include "mailin/mail_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct line {
    const char *at; /* not NUL-terminated */
    size_t len;     /* without trailing spaces and tabs */
} line;

static void *checked(void *p)
{
    if (p == NULL)
        abort();
    return p;
}

/* One line ending (LF), one kind of space, none of the invisible
 * characters some mail programs leave between words. */
static char *normalized(const char *text)
{
    size_t size = strlen(text);
    char *out = checked(malloc(size + 1));
    size_t n = 0;
    for (size_t i = 0; i < size; i++) {
        const unsigned char *p = (const unsigned char *)text + i;
        if (p[0] == '\r') {
            out[n++] = '\n';
            if (p[1] == '\n')
                i++;
        } else if (p[0] == 0xC2 && p[1] == 0xA0) { /* U+00A0 */
            out[n++] = ' ';
            i++;
        } else if (p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) { /* FEFF */
            i += 2;
        } else if (p[0] == 0xE2 && p[1] == 0x80 && p[2] == 0x8B) { /* 200B */
            i += 2;
        } else {
            out[n++] = (char)p[0];
        }
    }
    out[n] = '\0';
    return out;
}

/* The lines of text, each without its trailing blanks. */
static line *split(const char *text, size_t *count)
{
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    line *lines = checked(calloc(n, sizeof *lines));
    const char *start = text;
    for (size_t i = 0; i < n; i++) {
        const char *end = strchr(start, '\n');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        lines[i].at = start;
        while (len > 0 && (start[len - 1] == ' ' || start[len - 1] == '\t'))
            len--;
        lines[i].len = len;
        start = end ? end + 1 : start + len;
    }
    *count = n;
    return lines;
}

/* The line without its leading blanks. */
static line trimmed(line l)
{
    while (l.len > 0 && (l.at[0] == ' ' || l.at[0] == '\t')) {
        l.at++;
        l.len--;
    }
    return l;
}

static bool starts_with(line l, const char *prefix)
{
    size_t n = strlen(prefix);
    return l.len >= n && strncasecmp(l.at, prefix, n) == 0;
}

static bool is(line l, const char *word)
{
    return l.len == strlen(word) && strncasecmp(l.at, word, l.len) == 0;
}

static bool contains(line l, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= l.len; i++)
        if (strncasecmp(l.at + i, needle, n) == 0)
            return true;
    return false;
}

static bool quoted(line l)
{
    l = trimmed(l);
    return l.len > 0 && l.at[0] == '>';
}

/* "From: x", also "*From:* x" as a bold label reads in plain text, and
 * "De : x" as French puts a space before the colon. */
static bool labelled(line l, const char *label)
{
    l = trimmed(l);
    while (l.len > 0 && l.at[0] == '*') {
        l.at++;
        l.len--;
    }
    size_t n = strlen(label);
    if (l.len < n || strncasecmp(l.at, label, n) != 0)
        return false;
    size_t i = n;
    while (i < l.len && l.at[i] == '*')
        i++;
    if (i < l.len && l.at[i] == ' ')
        i++;
    return i < l.len && l.at[i] == ':';
}

static bool labelled_any(line l, const char *const *labels)
{
    for (size_t k = 0; labels[k] != NULL; k++)
        if (labelled(l, labels[k]))
            return true;
    return false;
}

/* Outlook quotes the original below a block of its headers, From: first,
 * without '>' before its lines: the reply ends there. Two of the usual
 * fields under From: tell it from a person writing "From: ...". The
 * labels in the languages Outlook writes most (English, Dutch, German,
 * French, Spanish). */
static bool outlook_header_block(const line *lines, size_t i, size_t count)
{
    static const char *const from[] = {"From", "Van", "Von", "De", NULL};
    static const char *const fields[] = {
        "Sent",   "Date",    "To",        "Cc",       "Subject", "Verzonden",
        "Datum",  "Aan",     "Onderwerp", "Gesendet", "An",      "Betreff",
        "Envoyé", "À",       "Objet",     "Enviado",  "Fecha",   "Para",
        "Asunto", "Enviada", NULL};
    if (!labelled_any(lines[i], from))
        return false;
    int found = 0;
    for (size_t j = i + 1; j < count && j <= i + 8 && found < 2; j++) {
        if (trimmed(lines[j]).len == 0)
            continue;
        if (!labelled_any(lines[j], fields))
            break;
        found++;
    }
    return found >= 2;
}

/* Where the original starts in a reply or a forward written above it. */
static bool original_starts(const line *lines, size_t i, size_t count)
{
    line t = trimmed(lines[i]);
    if (t.len > 0 && t.at[0] == '-' &&
        (contains(t, "Original Message") || contains(t, "Forwarded message")))
        return true;
    return starts_with(t, "Begin forwarded message:") ||
           outlook_header_block(lines, i, count);
}

/* A signature, typed by hand or added by a phone. */
static bool signature_starts(line l)
{
    line t = trimmed(l);
    return is(t, "--") || starts_with(t, "Sent from my ") ||
           starts_with(t, "Get Outlook for ");
}

static bool blank(line l)
{
    return trimmed(l).len == 0;
}

/* The verbs mail programs put in the line above a quote, in the
 * languages they write most: "pbem <pbem@example.org> wrote:" (mutt,
 * s-nail, Thunderbird), "On <date>, pbem wrote:" (Gmail, Apple Mail),
 * "Op <date> schreef pbem <…>:", "Le <date>, pbem <…> a écrit :", "Am
 * <date> schrieb pbem <…>:", "El <date>, pbem (<…>) escribió:". */
static bool names_a_writer(line l)
{
    static const char *const verbs[] = {
        "wrote",    "writes", "schreef", "schrieb",    "a écrit", "escribió",
        "escribio", "skrev",  "scrisse", "ha scritto", NULL};
    for (size_t k = 0; verbs[k] != NULL; k++)
        if (contains(l, verbs[k]))
            return true;
    return false;
}

/* Whether l ends in ':' (a space before it allowed, as French writes). */
static bool ends_in_colon(line l)
{
    return l.len > 0 && l.at[l.len - 1] == ':';
}

/* A line that says who wrote what is quoted below it. */
static bool attribution_line(line l)
{
    return ends_in_colon(l) && names_a_writer(l);
}

/* The words a client starts its attribution with ("On", "Op", "Am",
 * "Le", "El"), when a long one is wrapped onto a second line. */
static bool attribution_opening(line l)
{
    static const char *const openings[] = {"On ", "Op ", "Am ",
                                           "Le ", "El ", NULL};
    for (size_t k = 0; openings[k] != NULL; k++)
        if (starts_with(l, openings[k]))
            return true;
    return false;
}

/* Lines above the quote that say who wrote it. Returns how many. */
static size_t attribution(const line *lines, size_t i, size_t count)
{
    line t = trimmed(lines[i]);
    if (attribution_line(t))
        return 1;
    if (attribution_opening(t) && i + 1 < count && !quoted(lines[i + 1]) &&
        ends_in_colon(trimmed(lines[i + 1])) &&
        (names_a_writer(t) || names_a_writer(lines[i + 1])))
        return 2;
    if (ends_in_colon(t)) {
        size_t j = i + 1;
        while (j < count && blank(lines[j]))
            j++;
        if (j < count && quoted(lines[j]))
            return 1;
    }
    return 0;
}

/* A line of a quote that a program indented instead of marking with '>'
 * (s-nail quotes with a tab): only below an attribution. */
static bool indented(line l)
{
    return l.len > 0 && (l.at[0] == '\t' || l.at[0] == ' ');
}

static bool separator(line l)
{
    l = trimmed(l);
    if (l.len < 3)
        return false;
    for (size_t i = 0; i < l.len; i++)
        if (l.at[i] != '_')
            return false;
    return true;
}

char *mail_text_written_part(const char *text)
{
    char *clean = normalized(text);
    size_t count;
    line *lines = split(clean, &count);
    size_t *kept = checked(calloc(count, sizeof *kept));
    size_t n = 0;
    bool cut_original = false;
    for (size_t i = 0; i < count; i++) {
        line t = trimmed(lines[i]);
        if (quoted(lines[i]))
            continue;
        if (signature_starts(lines[i]))
            break;
        if (is(t, "end")) {
            /* Kept: it may be a move (mail_commands.h decides). */
            lines[i] = t;
            kept[n++] = i;
            break;
        }
        if (original_starts(lines, i, count)) {
            cut_original = true;
            break;
        }
        size_t skip = attribution(lines, i, count);
        if (skip > 0) {
            /* The quote below it, however it is marked: '>' (the test
             * above drops those), or indented, with blank lines between. */
            i += skip;
            while (i < count &&
                   (quoted(lines[i]) || indented(lines[i]) || blank(lines[i])))
                i++;
            i--;
            continue;
        }
        kept[n++] = i;
    }
    while (n > 0 && (blank(lines[kept[n - 1]]) ||
                     (cut_original && separator(lines[kept[n - 1]]))))
        n--;
    size_t first = 0;
    while (first < n && blank(lines[kept[first]]))
        first++;

    char *out = NULL;
    size_t out_len = 0;
    FILE *f = checked(open_memstream(&out, &out_len));
    for (size_t k = first; k < n; k++) {
        line l = lines[kept[k]];
        fprintf(f, "%s%.*s", k > first ? "\n" : "", (int)l.len, l.at);
    }
    if (fclose(f) != 0)
        abort();
    free(kept);
    free(lines);
    free(clean);
    return out;
}
