/* mail_wrap.c: see mail_wrap.h. */
#include "notify/mail_wrap.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Characters in text[0..len): UTF-8 continuation bytes do not count. */
static size_t columns(const char *text, size_t len)
{
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)text[i] & 0xC0) != 0x80;
    return n;
}

static bool kept_whole(const char *line, size_t len, bool list)
{
    if (list && len >= 1 && line[0] == ' ') {
        for (size_t i = 0; i + 3 <= len; i++)
            if (memcmp(line + i, "://", 3) == 0)
                return true;
        return false;
    }
    /* An indented line is a list's (a move a person copies whole, a
     * view's row): never broken. */
    if (len >= 1 && (line[0] == '>' || line[0] == ' ' || line[0] == '\t'))
        return true;
    for (size_t i = 0; i + 3 <= len; i++)
        if (memcmp(line + i, "://", 3) == 0)
            return true;
    return false;
}

/* Whether the space at line[at] may end a line: not between a word that
 * counts things and its number ("(event 6).", "seat 2", "round 3"),
 * which a reader takes in at one glance. */
static bool breakable(const char *line, size_t len, size_t at)
{
    static const char *const counted[] = {"event", "seat",  "round",  "turn",
                                          "space", "cell",  "castle", "thief",
                                          "check", "match", "card"};
    if (at + 1 >= len || line[at + 1] < '0' || line[at + 1] > '9')
        return true;
    size_t word = at;
    while (word > 0 && line[word - 1] != ' ' && line[word - 1] != '(')
        word--;
    for (size_t i = 0; i < sizeof counted / sizeof *counted; i++)
        if (at - word == strlen(counted[i]) &&
            strncasecmp(line + word, counted[i], at - word) == 0)
            return false;
    return true;
}

/* Writes one line (without its line end) to out, broken at spaces. */
static void wrap_line(FILE *out, const char *line, size_t len, bool list)
{
    if (columns(line, len) <= MAIL_WRAP_COLUMNS ||
        kept_whole(line, len, list)) {
        fwrite(line, 1, len, out);
        return;
    }
    size_t lead = 0;
    while (lead < len && lead < MAIL_WRAP_COLUMNS / 4 && line[lead] == ' ')
        lead++;
    bool item = len >= 2 && line[0] == '-' && line[1] == ' ';
    size_t indent = lead > 0 ? lead + 2 : item ? 2 : 0;
    size_t start = 0, room = MAIL_WRAP_COLUMNS;
    bool first = true;
    while (start < len) {
        if (!first) {
            for (size_t i = 0; i < indent; i++)
                fputc(' ', out);
            while (start < len && line[start] == ' ')
                start++;
            room = MAIL_WRAP_COLUMNS - indent;
        }
        /* The last space before the width is passed; a word longer
         * than the width runs to the space after it. */
        size_t cut = len, used = 0, space = 0;
        for (size_t i = start; i < len; i++) {
            if (line[i] == ' ' && i > start + (first ? lead : 0) &&
                breakable(line, len, i)) {
                space = i;
                if (used > room)
                    break;
            }
            if (((unsigned char)line[i] & 0xC0) != 0x80)
                used++;
            if (used > room && space != 0)
                break;
        }
        if (used > room && space != 0)
            cut = space;
        size_t end = cut;
        while (end > start && line[end - 1] == ' ')
            end--;
        fwrite(line + start, 1, end - start, out);
        if (cut < len)
            fputc('\n', out);
        start = cut;
        first = false;
    }
}

static char *wrap(const char *text, bool list)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    if (f == NULL)
        abort();
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        bool cr = len > 0 && line[len - 1] == '\r';
        wrap_line(f, line, cr ? len - 1 : len, list);
        if (cr)
            fputc('\r', f);
        if (end)
            fputc('\n', f);
        line += len + (end != NULL);
    }
    if (fclose(f) != 0)
        abort();
    return out;
}

char *mail_wrap(const char *text)
{
    return wrap(text, false);
}

char *mail_wrap_list(const char *text)
{
    return wrap(text, true);
}
