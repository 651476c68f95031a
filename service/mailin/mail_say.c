/* mail_say.c: see mail_say.h. */
#include "mailin/mail_say.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "play/messages.h"
#include "store/db.h"
#include "store/matches.h"

/* Whether line (up to its end or a LF) starts with the word "say". */
static bool starts_with_say(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return strncasecmp(line, "say", 3) == 0 &&
           (line[3] == '\0' || line[3] == '\n' || line[3] == ' ' ||
            line[3] == '\t' || line[3] == ':' || line[3] == ',');
}

static bool blank_line(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return *line == '\n' || *line == '\0';
}

char *mail_say_paragraphs(const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        abort();
    bool in_say = false;
    for (char *line = copy; *line != '\0';) {
        char *end = strchr(line, '\n');
        if (blank_line(line))
            in_say = false;
        else if (!in_say && starts_with_say(line))
            in_say = true;
        if (end == NULL)
            break;
        /* The break ends this line; inside a say paragraph it joins the
         * next line to it, unless that line is blank. */
        if (in_say && !blank_line(end + 1))
            *end = '\r';
        line = end + 1;
    }
    return copy;
}

int mail_say_first_line(const char *line)
{
    return (int)strcspn(line, "\r");
}

/* The seat whose player's name starts rest (any case), followed by the
 * end, white space or punctuation; the longest such name wins ("Bob" and
 * "Bob Smith"). -1 when none; *after is past the name. */
static int named_seat(const store_match *match, const char *rest,
                      const char **after)
{
    int found = -1;
    size_t found_len = 0;
    for (int s = 0; s < match->seat_count; s++) {
        const char *name = match->seat_name[s];
        size_t n = strlen(name);
        if (match->seat_player[s] == 0 || n == 0 || n <= found_len ||
            strncasecmp(rest, name, n) != 0)
            continue;
        unsigned char next = (unsigned char)rest[n];
        if (next == '\0' || isspace(next) || next == ':' || next == ',' ||
            next == '.' || next == '!' || next == '-')
            found = s, found_len = n;
    }
    *after = rest + found_len;
    return found;
}

/* The seats' names, "Alice, Bob, Carol", into out. */
static void seat_names(const store_match *match, char *out, size_t size)
{
    out[0] = '\0';
    for (int s = 0; s < match->seat_count; s++) {
        if (match->seat_player[s] == 0)
            continue;
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s%s", used ? ", " : "",
                 match->seat_name[s]);
    }
}

/* rest without leading white space and the ':' or ',' after a name. */
static const char *skip_separator(const char *rest)
{
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest == ':' || *rest == ',' || *rest == '-')
        rest++;
    return rest;
}

/* 422 naming what was written after the command, and who sits at the
 * table. */
static void no_such_name(const store_match *match, const char *named,
                         const char *how, apierr *err)
{
    char names[STORE_MAX_SEATS * 82];
    seat_names(match, names, sizeof names);
    int word = (int)strcspn(named, " \t\r:,");
    apierr_set(err, 422, "no_such_seat",
               "nobody called \"%.*s\" sits at this table (%s): %s",
               word > 40 ? 40 : word, named, names, how);
}

json_t *mail_say_post(const caller *who, long long match_id, const char *line,
                      apierr *err)
{
    const char *rest = line;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    rest += 3; /* "say" */
    while (*rest == ' ' || *rest == '\t')
        rest++;
    json_t *body = json_object();
    if (strncasecmp(rest, "to", 2) == 0 && isspace((unsigned char)rest[2])) {
        store_match match;
        PGconn *conn = db_conn(err);
        if (conn == NULL || !store_load_match(conn, match_id, &match, err)) {
            json_decref(body);
            return NULL;
        }
        const char *named = rest + 3;
        while (isspace((unsigned char)*named))
            named++;
        const char *after = named;
        int seat = named_seat(&match, named, &after);
        if (seat < 0) {
            no_such_name(&match, named,
                         "write \"say to NAME\" and your message, or "
                         "\"say\" and your message for everyone",
                         err);
            store_match_free(&match);
            json_decref(body);
            return NULL;
        }
        json_object_set_new(body, "to", json_integer(seat));
        rest = after;
        store_match_free(&match);
    }
    rest = skip_separator(rest);
    char *text = strdup(rest);
    if (text == NULL)
        abort();
    for (char *p = text; *p; p++)
        if (*p == '\r')
            *p = '\n';
    json_object_set_new(body, "text", json_string(text));
    free(text);
    json_t *answer = messages_post(who, match_id, body, err);
    json_decref(body);
    return answer;
}

void mail_say_tell(FILE *out, const json_t *answer)
{
    const json_t *message = json_object_get(answer, "message");
    const char *to = json_string_value(json_object_get(message, "to_name"));
    if (to != NULL)
        fprintf(out, "Message sent privately to %s.\n", to);
    else
        fprintf(out, "Message sent to everyone at the table.\n");
}

/* Whether rest holds nothing but white space and closing punctuation:
 * "mute Bob." names Bob, "mute Bob Smith" does not name Bob. */
static bool only_punctuation(const char *rest)
{
    for (; *rest; rest++)
        if (!isspace((unsigned char)*rest) && !strchr(".!,;:", *rest))
            return false;
    return true;
}

json_t *mail_say_mute(const caller *who, long long match_id, const char *line,
                      bool muted, apierr *err)
{
    const char *named = line + strcspn(line, " \t");
    while (isspace((unsigned char)*named))
        named++;
    const char *verb = muted ? "mute" : "unmute";
    if (*named == '\0') {
        apierr_set(err, 422, "no_such_seat",
                   "write \"%s NAME\" with the name of a player at this "
                   "table",
                   verb);
        return NULL;
    }
    store_match match;
    PGconn *conn = db_conn(err);
    if (conn == NULL || !store_load_match(conn, match_id, &match, err))
        return NULL;
    const char *after = named;
    int seat = named_seat(&match, named, &after);
    if (seat < 0 || !only_punctuation(after)) {
        char how[64];
        snprintf(how, sizeof how, "write \"%s NAME\"", verb);
        no_such_name(&match, named, how, err);
        store_match_free(&match);
        return NULL;
    }
    store_match_free(&match);
    return messages_mute(who, match_id, seat, muted, err);
}

void mail_say_tell_mute(FILE *out, const json_t *answer)
{
    const char *name = json_string_value(json_object_get(answer, "name"));
    if (name == NULL)
        name = "?";
    if (json_is_true(json_object_get(answer, "muted")))
        fprintf(out,
                "Muted %s: nothing %s writes reaches you any more, in this "
                "match or any other, until you write \"unmute %s\".\n",
                name, name, name);
    else
        fprintf(out,
                "Unmuted %s: what %s writes at the table reaches you "
                "again.\n",
                name, name);
}
