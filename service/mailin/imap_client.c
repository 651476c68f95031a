/* imap_client.c: the worker's IMAP verbs as commands on one imap_wire. */
#include "mailin/imap_client.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mailin/imap_wire.h"

struct imap_client {
    const imap_config *config;
    imap_wire *wire;
    bool has_move, has_uidplus, has_idle, has_condstore;
    bool idling;
    char mailbox[2 * IMAP_CONFIG_TEXT_MAX + 3]; /* quoted */
    char error[IMAP_CONFIG_SHOWN_MAX + 768];
};

/* name as an IMAP quoted string; config checked it is printable ASCII. */
static void quote(const char *name, char *out, size_t size)
{
    size_t at = 0;
    out[at++] = '"';
    for (const char *p = name; *p && at + 3 < size; p++) {
        if (*p == '"' || *p == '\\')
            out[at++] = '\\';
        out[at++] = *p;
    }
    out[at++] = '"';
    out[at] = '\0';
}

/* Whether the words of a tagged answer carry the response code
 * ("[TRYCREATE] Mailbox doesn't exist"). */
static bool said_code(const imap_client *c, const char *code)
{
    const char *said = imap_wire_said(c->wire);
    return said[0] == '[' && strncasecmp(said + 1, code, strlen(code)) == 0;
}

/* The result of a command the server answered with status, what being
 * what it was asked ("mark UID 7 \\Seen"). */
static imap_client_result judge(imap_client *c, imap_wire_status status,
                                const char *what)
{
    if (status == IMAP_WIRE_OK)
        return IMAP_CLIENT_OK;
    if (status == IMAP_WIRE_BROKEN) {
        snprintf(c->error, sizeof c->error, "%s: %s", c->config->shown,
                 imap_wire_said(c->wire));
        return IMAP_CLIENT_BROKEN;
    }
    snprintf(c->error, sizeof c->error, "%s refused to %s: %s",
             c->config->shown, what, imap_wire_said(c->wire));
    return IMAP_CLIENT_REFUSED;
}

/* The number after the word name in a parenthesised list of a response
 * ("UID 34" in "12 FETCH (UID 34 RFC822.SIZE 108)"); false when absent. */
static bool item_number(const char *text, const char *name,
                        unsigned long long *value)
{
    size_t len = strlen(name);
    for (const char *p = strcasestr(text, name); p != NULL;
         p = strcasestr(p + 1, name)) {
        bool starts = p > text && (p[-1] == ' ' || p[-1] == '(');
        if (starts && p[len] == ' ' && isdigit((unsigned char)p[len + 1])) {
            *value = strtoull(p + len + 1, NULL, 10);
            return true;
        }
    }
    return false;
}

static void on_capability(void *context, const char *text, const char *literal,
                          size_t literal_len)
{
    (void)literal;
    (void)literal_len;
    imap_client *c = context;
    if (strncasecmp(text, "CAPABILITY ", 11) != 0)
        return;
    char words[2048];
    snprintf(words, sizeof words, "%s", text + 11);
    char *save = NULL;
    for (char *w = strtok_r(words, " ", &save); w != NULL;
         w = strtok_r(NULL, " ", &save)) {
        if (strcasecmp(w, "MOVE") == 0)
            c->has_move = true;
        else if (strcasecmp(w, "UIDPLUS") == 0)
            c->has_uidplus = true;
        else if (strcasecmp(w, "IDLE") == 0)
            c->has_idle = true;
        else if (strcasecmp(w, "CONDSTORE") == 0)
            c->has_condstore = true;
    }
}

/* A mailbox without persistent versions (RFC 7162's NOMODSEQ) has no
 * MODSEQ to fetch, however CONDSTORE the server is. */
static void on_select(void *context, const char *text, const char *literal,
                      size_t literal_len)
{
    (void)literal;
    (void)literal_len;
    imap_client *c = context;
    if (strncasecmp(text, "OK [NOMODSEQ]", 13) == 0)
        c->has_condstore = false;
}

imap_client *imap_client_open(const imap_config *config, int stop_fd,
                              char *error, size_t size)
{
    imap_client *c = calloc(1, sizeof *c);
    if (c == NULL)
        abort();
    c->config = config;
    quote(config->mailbox, c->mailbox, sizeof c->mailbox);
    c->wire =
        imap_wire_open(config, IMAP_CLIENT_MESSAGE_MAX, stop_fd, error, size);
    if (c->wire == NULL) {
        free(c);
        return NULL;
    }
    imap_client_result r =
        judge(c, imap_wire_command(c->wire, on_capability, c, "CAPABILITY"),
              "list its capabilities");
    if (r == IMAP_CLIENT_OK)
        r = judge(
            c,
            /* IMAP's SELECT, not SQL: it opens the mailbox. */
            imap_wire_command(c->wire, on_select, c, "SELECT %s", c->mailbox),
            "open the mailbox");
    if (r != IMAP_CLIENT_OK) {
        snprintf(error, size, "%s", c->error);
        imap_client_close(c);
        return NULL;
    }
    return c;
}

const char *imap_client_error(const imap_client *c)
{
    return c->error;
}

typedef struct search {
    uint32_t *all;
    size_t count, cap;
} search;

static void on_search(void *context, const char *text, const char *literal,
                      size_t literal_len)
{
    (void)literal;
    (void)literal_len;
    search *s = context;
    if (strncasecmp(text, "SEARCH", 6) != 0 ||
        (text[6] != ' ' && text[6] != '\0'))
        return;
    const char *p = text + 6;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            return;
        char *end = NULL;
        unsigned long long uid = strtoull(p, &end, 10);
        p = end;
        if (uid == 0 || uid > UINT32_MAX)
            continue;
        if (s->count == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 64;
            s->all = realloc(s->all, s->cap * sizeof *s->all);
            if (s->all == NULL)
                abort();
        }
        s->all[s->count++] = (uint32_t)uid;
    }
}

static int by_uid(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

imap_client_result imap_client_unseen(imap_client *c, uint32_t *uids,
                                      size_t max, size_t *count, size_t *total)
{
    search s = {0};
    *count = 0;
    *total = 0;
    /* A server may answer a SEARCH from its view of the mailbox as of the
     * last command, and bring that view up to date only after it: Dovecot
     * does, so flags another session took off since then (mail made
     * unseen again, or delivered seen and then unmarked) showed one round
     * late. NOOP brings the view up to date first (RFC 3501 6.1.2). */
    imap_client_result r =
        judge(c, imap_wire_command(c->wire, NULL, NULL, "NOOP"),
              "bring the view of the mailbox up to date");
    if (r == IMAP_CLIENT_OK)
        r = judge(c,
                  imap_wire_command(c->wire, on_search, &s,
                                    "UID SEARCH UNSEEN UNDELETED"),
                  "search for unseen messages");
    if (r == IMAP_CLIENT_OK && s.count > 0) {
        /* Oldest first: servers list in order, but need not. */
        qsort(s.all, s.count, sizeof *s.all, by_uid);
        *total = s.count;
        *count = s.count < max ? s.count : max;
        memcpy(uids, s.all, *count * sizeof *uids);
    }
    free(s.all);
    return r;
}

/* The most characters of a UID set in one command: with a quoted folder
 * name of up to 515 the line stays within imap_wire's 1024. */
#define SET_CHARS 400

/* Writes the UID set of uids[*at..count) (ascending) that fits in
 * SET_CHARS into out, runs of consecutive UIDs as ranges ("3:5,9"), and
 * moves *at past them. */
static void uid_set(const uint32_t *uids, size_t count, size_t *at, char *out)
{
    size_t used = 0;
    out[0] = '\0';
    while (*at < count) {
        size_t last = *at;
        while (last + 1 < count && uids[last + 1] == uids[last] + 1)
            last++;
        char item[32];
        int n = last > *at ? snprintf(item, sizeof item, "%s%u:%u",
                                      used ? "," : "", uids[*at], uids[last])
                           : snprintf(item, sizeof item, "%s%u",
                                      used ? "," : "", uids[*at]);
        if (used + (size_t)n >= SET_CHARS)
            return;
        memcpy(out + used, item, (size_t)n + 1);
        used += (size_t)n;
        *at = last + 1;
    }
}

/* What the first FETCH of a batch learnt of one message. */
typedef struct seen_in_fetch {
    bool found, seen;
    unsigned long long size, modseq;
} seen_in_fetch;

typedef struct batch_read {
    imap_client_message *messages;
    seen_in_fetch *state;
    size_t count;
} batch_read;

/* The index of the message "<n> FETCH (… UID u …)" is about; -1 when text
 * is no FETCH response, or one about a message not in the batch
 * (unsolicited: flags another session changed). */
static int batch_index(const batch_read *b, const char *text)
{
    const char *p = text;
    while (isdigit((unsigned char)*p))
        p++;
    unsigned long long uid;
    if (p == text || strncasecmp(p, " FETCH (", 8) != 0 ||
        !item_number(p, "UID", &uid))
        return -1;
    for (size_t i = 0; i < b->count; i++)
        if (b->messages[i].uid == uid)
            return (int)i;
    return -1;
}

/* "FLAGS (\Seen \Recent)" holds \Seen. */
static bool flagged_seen(const char *text)
{
    const char *flags = strcasestr(text, "FLAGS (");
    if (flags == NULL)
        return false;
    const char *end = strchr(flags, ')');
    const char *seen = strcasestr(flags, "\\Seen");
    return seen != NULL && end != NULL && seen < end;
}

static void on_sizes(void *context, const char *text, const char *literal,
                     size_t literal_len)
{
    (void)literal;
    (void)literal_len;
    batch_read *b = context;
    int i = batch_index(b, text);
    unsigned long long size;
    if (i < 0 || !item_number(text, "RFC822.SIZE", &size))
        return;
    seen_in_fetch *f = &b->state[i];
    f->found = true;
    f->size = size;
    f->seen = flagged_seen(text);
    const char *modseq = strcasestr(text, "MODSEQ (");
    if (modseq != NULL)
        f->modseq = strtoull(modseq + 8, NULL, 10);
}

static void on_bodies(void *context, const char *text, const char *literal,
                      size_t literal_len)
{
    batch_read *b = context;
    int i = batch_index(b, text);
    /* "BODY[] NIL": the message went while it was being read. */
    if (i < 0 || literal == NULL || b->messages[i].raw != NULL ||
        literal_len > IMAP_CLIENT_MESSAGE_MAX)
        return;
    imap_client_message *m = &b->messages[i];
    m->raw = malloc(literal_len + 1);
    if (m->raw == NULL)
        abort();
    memcpy(m->raw, literal, literal_len + 1);
    m->length = literal_len;
}

/* A NO because another session expunged the message under our feet
 * (RFC 5530's EXPUNGEISSUED) means the message is gone, nothing worse. */
static imap_client_result judge_gone(imap_client *c, imap_wire_status status,
                                     const char *what)
{
    if (status == IMAP_WIRE_NO && said_code(c, "EXPUNGEISSUED"))
        return IMAP_CLIENT_GONE;
    return judge(c, status, what);
}

/* Runs "UID <verb> <set><tail>" for uids[from..count) chunk by chunk,
 * with on_untagged for the answers; stops at the first that is not OK
 * (GONE, an expunged message, counts as OK). */
static imap_client_result per_set(imap_client *c, const uint32_t *uids,
                                  size_t count, const char *verb,
                                  const char *tail,
                                  imap_wire_untagged on_untagged, void *context,
                                  const char *what)
{
    char set[SET_CHARS];
    for (size_t at = 0; at < count;) {
        uid_set(uids, count, &at, set);
        imap_client_result r =
            judge_gone(c,
                       imap_wire_command(c->wire, on_untagged, context,
                                         "UID %s %s%s", verb, set, tail),
                       what);
        if (r != IMAP_CLIENT_OK && r != IMAP_CLIENT_GONE)
            return r;
    }
    return IMAP_CLIENT_OK;
}

imap_client_result imap_client_fetch_batch(imap_client *c,
                                           imap_client_message *messages,
                                           size_t count, uint64_t *version)
{
    *version = 0;
    if (count > IMAP_CLIENT_BATCH_MAX)
        abort(); /* the worker's batch is at most 64: a bug */
    seen_in_fetch state[IMAP_CLIENT_BATCH_MAX];
    uint32_t uids[IMAP_CLIENT_BATCH_MAX];
    memset(state, 0, sizeof state);
    for (size_t i = 0; i < count; i++) {
        messages[i].result = IMAP_CLIENT_GONE;
        messages[i].raw = NULL;
        messages[i].length = 0;
        uids[i] = messages[i].uid;
    }
    batch_read b = {.messages = messages, .state = state, .count = count};
    imap_client_result r =
        per_set(c, uids, count, "FETCH",
                c->has_condstore ? " (RFC822.SIZE FLAGS MODSEQ)"
                                 : " (RFC822.SIZE FLAGS)",
                on_sizes, &b, "read the messages' sizes");
    /* Seen since they were listed: another process has put them away.
     * The bytes of the rest, IMAP_CLIENT_FETCH_BYTES at a time. */
    size_t wanted = 0, bytes = 0;
    for (size_t i = 0; r == IMAP_CLIENT_OK && i <= count; i++) {
        bool fits = i < count && state[i].found && !state[i].seen &&
                    state[i].size <= IMAP_CLIENT_MESSAGE_MAX;
        if (i < count && state[i].found && !state[i].seen && !fits) {
            messages[i].result = IMAP_CLIENT_TOO_BIG;
            messages[i].length = (size_t)state[i].size;
        }
        if (wanted > 0 &&
            (i == count ||
             (fits && bytes + state[i].size > IMAP_CLIENT_FETCH_BYTES))) {
            r = per_set(c, uids, wanted, "FETCH", " (BODY.PEEK[])", on_bodies,
                        &b, "read the messages");
            wanted = 0;
            bytes = 0;
        }
        if (fits) {
            uids[wanted++] = messages[i].uid;
            bytes += state[i].size;
        }
    }
    unsigned long long highest = 0;
    for (size_t i = 0; i < count; i++) {
        if (r != IMAP_CLIENT_OK) {
            free(messages[i].raw);
            messages[i].raw = NULL;
        }
        if (messages[i].raw != NULL)
            messages[i].result = IMAP_CLIENT_OK;
        if (state[i].found && state[i].modseq > highest)
            highest = state[i].modseq;
    }
    /* MODSEQs grow mailbox-wide: a change after the one FETCH that read
     * them all has a higher one than any it read. */
    if (r == IMAP_CLIENT_OK && c->has_condstore)
        *version = highest;
    return r;
}

imap_client_result imap_client_fetch(imap_client *c, uint32_t uid, char **raw,
                                     size_t *length, uint64_t *version)
{
    imap_client_message m = {.uid = uid};
    imap_client_result r = imap_client_fetch_batch(c, &m, 1, version);
    *raw = m.raw;
    *length = m.length;
    return r == IMAP_CLIENT_OK ? m.result : r;
}

/* The UIDs of "[MODIFIED 7,9:11]" into gone. */
static void mark_modified(const char *said, const uint32_t *uids, size_t count,
                          bool *gone)
{
    const char *p = said + strlen("[MODIFIED");
    while (*p == ' ' || *p == ',') {
        p++;
        if (!isdigit((unsigned char)*p))
            return;
        unsigned long long low = strtoull(p, (char **)&p, 10), high = low;
        if (*p == ':' && isdigit((unsigned char)p[1]))
            high = strtoull(p + 1, (char **)&p, 10);
        for (size_t i = 0; i < count; i++)
            if (uids[i] >= low && uids[i] <= high)
                gone[i] = true;
    }
}

imap_client_result imap_client_mark_seen_batch(imap_client *c,
                                               const uint32_t *uids,
                                               size_t count, uint64_t version,
                                               bool *gone)
{
    memset(gone, 0, count * sizeof *gone);
    char set[SET_CHARS];
    for (size_t at = 0; at < count;) {
        size_t first = at;
        uid_set(uids, count, &at, set);
        imap_wire_status status = IMAP_WIRE_BAD;
        /* Only where nobody changed them since they were read (RFC
         * 7162): of two processes that handled one, one marks it and
         * puts it away, the other learns MODIFIED and leaves it be. */
        if (version != 0 && c->has_condstore)
            status = imap_wire_command(
                c->wire, NULL, NULL,
                "UID STORE %s (UNCHANGEDSINCE %llu) +FLAGS.SILENT (\\Seen)",
                set, (unsigned long long)version);
        /* A server that announces CONDSTORE but does not understand it:
         * the plain STORE, and no more versions this session. */
        if (status == IMAP_WIRE_BAD) {
            if (version != 0)
                c->has_condstore = false;
            status =
                imap_wire_command(c->wire, NULL, NULL,
                                  "UID STORE %s +FLAGS.SILENT (\\Seen)", set);
        }
        imap_client_result r = judge_gone(c, status, "mark messages \\Seen");
        if (r != IMAP_CLIENT_OK && r != IMAP_CLIENT_GONE)
            return r;
        if (r == IMAP_CLIENT_OK && said_code(c, "MODIFIED"))
            mark_modified(imap_wire_said(c->wire), uids + first, at - first,
                          gone + first);
    }
    return IMAP_CLIENT_OK;
}

imap_client_result imap_client_mark_seen(imap_client *c, uint32_t uid,
                                         uint64_t version)
{
    bool gone = false;
    imap_client_result r =
        imap_client_mark_seen_batch(c, &uid, 1, version, &gone);
    return r == IMAP_CLIENT_OK && gone ? IMAP_CLIENT_GONE : r;
}

static imap_client_result expunge(imap_client *c, const uint32_t *uids,
                                  size_t count)
{
    imap_client_result r =
        per_set(c, uids, count, "STORE", " +FLAGS.SILENT (\\Deleted)", NULL,
                NULL, "delete messages");
    if (r != IMAP_CLIENT_OK)
        return r;
    if (c->has_uidplus)
        return per_set(c, uids, count, "EXPUNGE", "", NULL, NULL,
                       "delete messages");
    return judge(c, imap_wire_command(c->wire, NULL, NULL, "EXPUNGE"),
                 "delete messages");
}

/* MOVE or COPY, creating the folder once when the server asks for it
 * (TRYCREATE). UIDs already gone are fine. */
static imap_client_result transfer(imap_client *c, const char *command,
                                   const uint32_t *uids, size_t count,
                                   const char *folder)
{
    char quoted[sizeof c->mailbox], what[IMAP_CONFIG_TEXT_MAX + 64],
        tail[sizeof c->mailbox + 2];
    quote(folder, quoted, sizeof quoted);
    snprintf(tail, sizeof tail, " %s", quoted);
    snprintf(what, sizeof what, "%s messages to %s",
             strcmp(command, "MOVE") == 0 ? "move" : "copy", folder);
    char set[SET_CHARS];
    for (size_t at = 0; at < count;) {
        uid_set(uids, count, &at, set);
        for (int attempt = 0;; attempt++) {
            imap_wire_status status = imap_wire_command(
                c->wire, NULL, NULL, "UID %s %s%s", command, set, tail);
            if (status != IMAP_WIRE_NO || !said_code(c, "TRYCREATE") ||
                attempt > 0) {
                imap_client_result r = judge_gone(c, status, what);
                if (r != IMAP_CLIENT_OK && r != IMAP_CLIENT_GONE)
                    return r;
                break;
            }
            /* Another process may create it first: ALREADYEXISTS is
             * fine. */
            status =
                imap_wire_command(c->wire, NULL, NULL, "CREATE %s", quoted);
            if (status == IMAP_WIRE_NO && said_code(c, "ALREADYEXISTS"))
                status = IMAP_WIRE_OK;
            imap_client_result r = judge(c, status, "create the folder");
            if (r != IMAP_CLIENT_OK)
                return r;
        }
    }
    return IMAP_CLIENT_OK;
}

imap_client_result imap_client_move_batch(imap_client *c, const uint32_t *uids,
                                          size_t count, const char *folder)
{
    if (c->has_move)
        return transfer(c, "MOVE", uids, count, folder);
    imap_client_result r = transfer(c, "COPY", uids, count, folder);
    return r == IMAP_CLIENT_OK ? expunge(c, uids, count) : r;
}

imap_client_result imap_client_delete_batch(imap_client *c,
                                            const uint32_t *uids, size_t count)
{
    return expunge(c, uids, count);
}

imap_client_result imap_client_move(imap_client *c, uint32_t uid,
                                    const char *folder)
{
    return imap_client_move_batch(c, &uid, 1, folder);
}

imap_client_result imap_client_delete(imap_client *c, uint32_t uid)
{
    return imap_client_delete_batch(c, &uid, 1);
}

imap_client_result imap_client_idle_begin(imap_client *c, int *fd,
                                          bool *pending)
{
    *fd = -1;
    *pending = false;
    if (!c->has_idle) {
        snprintf(c->error, sizeof c->error, "%s does not offer IDLE",
                 c->config->shown);
        return IMAP_CLIENT_REFUSED;
    }
    imap_client_result r =
        judge(c, imap_wire_idle_begin(c->wire, pending), "wait (IDLE)");
    if (r == IMAP_CLIENT_REFUSED)
        c->has_idle = false; /* not offered after all: poll from now on */
    if (r != IMAP_CLIENT_OK)
        return r;
    c->idling = true;
    *fd = imap_wire_socket(c->wire);
    return IMAP_CLIENT_OK;
}

imap_client_result imap_client_idle_end(imap_client *c)
{
    if (!c->idling)
        return IMAP_CLIENT_OK;
    c->idling = false;
    return judge(c, imap_wire_idle_end(c->wire), "stop waiting (DONE)");
}

void imap_client_close(imap_client *c)
{
    if (c == NULL)
        return;
    imap_wire_close(c->wire);
    free(c);
}
