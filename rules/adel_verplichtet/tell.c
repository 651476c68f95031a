/* tell.c: what a move did, told to one seat (rules_engine.tell).
 *
 * A sealed choice is told to its maker only until every Lord has chosen;
 * the move that completes a decision tells what the public log gained:
 * where each Lord went, what each played, what the auction, the castle and
 * the prison did. The log speaks of "Lord 2" in the present tense; here it
 * is retold in the past, with the seats' names and "you". */
#include "av_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TELL_MAX 300

/* The log's present tense and its retelling, longest first where one
 * contains another. */
static const char *const past[][2] = {
    {" is caught and enters ", " was caught and entered "},
    {" is released and returns to ", " was released and returned to "},
    {" has nothing to play ", " had nothing to play "},
    {" has no set ", " had no set "},
    {" has reached ", " reached "},
    {" goes to ", " went to "},
    {" plays ", " played "},
    {" buys ", " bought "},
    {" find nothing", " found nothing"},
    {" go back", " went back"},
    {" steals ", " stole "},
    {" get in ", " got in "},
    {" leaves ", " left "},
    {" shows ", " showed "},
    {" advances ", " advanced "},
    {" exhibits:", " exhibited:"},
    {" follows", " followed"},
};

/* Appends to out (of size, holding *len) text with "Lord N" retold:
 * names[N], or "you"/"your" to viewer N. */
static void put_names(char *out, size_t size, size_t *len, const char *text,
                      int viewer, const char *const *names, int seats)
{
    const char *p = text;
    while (*p != '\0' && *len + 1 < size) {
        int seat = -1;
        int used = 0;
        if (strncmp(p, "Lord ", 5) == 0 &&
            sscanf(p + 5, "%d%n", &seat, &used) == 1 && seat >= 0 &&
            seat < seats) {
            p += 5 + used;
            bool possessive = strncmp(p, "'s", 2) == 0;
            if (possessive)
                p += 2;
            const char *name = seat != viewer ? names[seat]
                               : possessive   ? "your"
                                              : "you";
            *len += (size_t)snprintf(out + *len, size - *len, "%s%s", name,
                                     possessive && seat != viewer ? "'s" : "");
            continue;
        }
        out[(*len)++] = *p++;
        out[*len] = '\0';
    }
}

/* Replaces the first from in text (of size) by to. */
static void replace_once(char *text, size_t size, const char *from,
                         const char *to)
{
    char *at = strstr(text, from);
    if (at == NULL)
        return;
    char rest[4 * AV_LOG_WIDTH];
    snprintf(rest, sizeof rest, "%s", at + strlen(from));
    snprintf(at, size - (size_t)(at - text), "%s%s", to, rest);
}

/* One log line as a sentence in the past tense, into out. */
static void retell(const char *line, int viewer, const char *const *names,
                   int seats, char *out, size_t size)
{
    char tense[4 * AV_LOG_WIDTH];
    const char *from = line;
    if (strncmp(from, "turn ", 5) == 0 && strchr(from, ':') != NULL)
        from = strchr(from, ':') + 2; /* "turn 3: Lord 1 goes…" */
    snprintf(tense, sizeof tense, " %s ", from);
    for (size_t i = 0; i < sizeof past / sizeof *past; i++)
        replace_once(tense, sizeof tense, past[i][0], past[i][1]);
    size_t len = 0;
    out[0] = '\0';
    put_names(out, size, &len, tense + 1, viewer, names, seats);
    while (len > 0 && out[len - 1] == ' ')
        out[--len] = '\0';
    /* The log's "his" and "him" are the subject's: the viewer's own. */
    if (strncmp(out, "you ", 4) == 0)
        replace_once(out, size, " his ", " your ");
    if (strncmp(out, "your detective", 14) == 0)
        replace_once(out, size, " him ", " you ");
    const char *owner = strstr(out, "'s detective advanced him ");
    if (owner != NULL && owner > out) {
        /* "Alice's detective advanced Alice 3": no pronoun to guess. */
        char name[64];
        snprintf(name, sizeof name, " %.*s ", (int)(owner - out), out);
        replace_once(out, size, " him ", name);
    }
    out[0] = (char)toupper((unsigned char)out[0]);
}

/* The log lines the move added: after's lines past before's, or all of
 * after's when the move began a new turn's record. */
static int first_new_line(const av_state *before, const av_state *after)
{
    if (after->log_count < before->log_count)
        return 0;
    for (int i = 0; i < before->log_count; i++) {
        if (strcmp(before->log[i], after->log[i]) != 0)
            return 0;
    }
    return before->log_count;
}

/* The seat a log line tells the sealed choice of ("Lord 2 goes to the
 * castle", "Lord 0 plays thief 3…", "Lord 1 exhibits: …"), or -1 for a
 * line of what the choices did. */
static int choice_of(const char *line)
{
    static const char *const chose[] = {" goes to the ",
                                        " plays ",
                                        " has nothing to play ",
                                        " exhibits:",
                                        " shows in the final exhibition:",
                                        " has no set "};
    const char *from = line;
    if (strncmp(from, "turn ", 5) == 0 && strchr(from, ':') != NULL)
        from = strchr(from, ':') + 2;
    int seat = -1, used = 0;
    if (sscanf(from, "Lord %d%n", &seat, &used) != 1)
        return -1;
    for (size_t i = 0; i < sizeof chose / sizeof *chose; i++)
        if (strncmp(from + used, chose[i], strlen(chose[i])) == 0)
            return seat;
    return -1;
}

/* Whether the tell of actor's move says line. A resolved decision is
 * told once per choice, each from the state before them all (rules.h: a
 * sealed choice is told only then), choosers being the seats it waited
 * for: each choice tells its own line, and the last one (the highest
 * chooser) what they all did, so the reveal is told once and not once
 * per Lord. A move that completes a decision alone tells it all. */
static bool told_here(const char *line, int actor, uint32_t choosers)
{
    if (choosers == 0)
        return true;
    int seat = choice_of(line);
    if ((choosers >> actor) != 1)
        return seat == actor;
    return seat < 0 || seat == actor || (choosers >> seat & 1) == 0;
}

char *av_tell(const rules_state *before_state, const rules_state *after_state,
              int actor, const json_t *action, int viewer,
              const char *const *names)
{
    const av_state *before = (const av_state *)before_state;
    const av_state *after = (const av_state *)after_state;
    char text[4 * TELL_MAX] = "";
    size_t len = 0;
    int from = first_new_line(before, after);
    rules_pending pending;
    av_pending(before_state, &pending);
    if (from == after->log_count) {
        if (pending.wait != RULES_WAIT_SIMULTANEOUS)
            return NULL;
        /* Sealed: nothing is revealed yet. */
        if (actor != viewer) {
            snprintf(text, sizeof text, "%s chose in secret.", names[actor]);
        } else {
            char *move = av_format_move(before_state, actor, action);
            snprintf(text, sizeof text,
                     "You chose \"%s\"; it is revealed when every Lord has "
                     "chosen.",
                     move != NULL ? move : "?");
            free(move);
        }
    }
    uint32_t choosers = pending.wait == RULES_WAIT_SIMULTANEOUS && actor >= 0 &&
                                actor < AV_MAX_PLAYERS &&
                                (pending.seats >> actor & 1)
                            ? pending.seats
                            : 0;
    for (int i = from; i < after->log_count; i++) {
        if (!told_here(after->log[i], actor, choosers))
            continue;
        char line[2 * AV_LOG_WIDTH];
        retell(after->log[i], viewer, names, after->seats, line, sizeof line);
        size_t need = strlen(line) + 2;
        if (len + need > TELL_MAX - 4) {
            len += (size_t)snprintf(text + len, sizeof text - len, " …");
            break;
        }
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s.",
                                len > 0 ? " " : "", line);
    }
    if (text[0] == '\0')
        return NULL;
    char *told = strdup(text);
    if (told == NULL)
        abort();
    return told;
}
