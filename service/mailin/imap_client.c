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

/* Whether text is "<n> FETCH (…" about uid. Unsolicited FETCH responses
 * (flags another session changed) may come too, for other messages. */
static bool fetch_about(const char *text, uint32_t uid)
{
    const char *p = text;
    while (isdigit((unsigned char)*p))
        p++;
    unsigned long long found;
    return p > text && strncasecmp(p, " FETCH (", 8) == 0 &&
           item_number(p, "UID", &found) && found == uid;
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
    imap_client_result r =
        judge(c,
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

typedef struct fetched {
    uint32_t uid;
    bool found, seen;
    unsigned long long size, modseq;
    char *raw;
    size_t length;
} fetched;

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

static void on_size(void *context, const char *text, const char *literal,
                    size_t literal_len)
{
    (void)literal;
    (void)literal_len;
    fetched *f = context;
    if (!fetch_about(text, f->uid) ||
        !item_number(text, "RFC822.SIZE", &f->size))
        return;
    f->found = true;
    f->seen = flagged_seen(text);
    const char *modseq = strcasestr(text, "MODSEQ (");
    if (modseq != NULL)
        f->modseq = strtoull(modseq + 8, NULL, 10);
}

static void on_body(void *context, const char *text, const char *literal,
                    size_t literal_len)
{
    fetched *f = context;
    /* "BODY[] NIL": the message went while it was being read. */
    if (!fetch_about(text, f->uid) || literal == NULL || f->raw != NULL)
        return;
    f->raw = malloc(literal_len + 1);
    if (f->raw == NULL)
        abort();
    memcpy(f->raw, literal, literal_len + 1);
    f->length = literal_len;
    f->found = true;
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

imap_client_result imap_client_fetch(imap_client *c, uint32_t uid, char **raw,
                                     size_t *length, uint64_t *version)
{
    *raw = NULL;
    *length = 0;
    *version = 0;
    char what[64];
    snprintf(what, sizeof what, "read UID %u", uid);
    fetched f = {.uid = uid};
    imap_client_result r =
        judge_gone(c,
                   imap_wire_command(c->wire, on_size, &f,
                                     "UID FETCH %u (RFC822.SIZE FLAGS%s)", uid,
                                     c->has_condstore ? " MODSEQ" : ""),
                   what);
    if (r != IMAP_CLIENT_OK)
        return r;
    /* Seen since it was listed: another process has put it away. */
    if (!f.found || f.seen)
        return IMAP_CLIENT_GONE;
    *version = f.modseq;
    if (f.size > IMAP_CLIENT_MESSAGE_MAX) {
        *length = (size_t)f.size;
        return IMAP_CLIENT_TOO_BIG;
    }
    f.found = false;
    r = judge_gone(c,
                   imap_wire_command(c->wire, on_body, &f,
                                     "UID FETCH %u (BODY.PEEK[])", uid),
                   what);
    if (r == IMAP_CLIENT_OK && !f.found)
        r = IMAP_CLIENT_GONE;
    if (r != IMAP_CLIENT_OK) {
        free(f.raw);
        return r;
    }
    *raw = f.raw;
    *length = f.length;
    return IMAP_CLIENT_OK;
}

/* UID commands on UIDs that are gone answer OK (RFC 3501 §6.4.8), or NO
 * [EXPUNGEISSUED] while this session still sees them: both are fine. */
static imap_client_result uid_command(imap_client *c, const char *what,
                                      const char *command, uint32_t uid,
                                      const char *argument)
{
    imap_client_result r = judge_gone(
        c,
        imap_wire_command(c->wire, NULL, NULL, "UID %s %u%s%s", command, uid,
                          argument[0] ? " " : "", argument),
        what);
    return r == IMAP_CLIENT_GONE ? IMAP_CLIENT_OK : r;
}

imap_client_result imap_client_mark_seen(imap_client *c, uint32_t uid,
                                         uint64_t version)
{
    char what[64];
    snprintf(what, sizeof what, "mark UID %u \\Seen", uid);
    if (version == 0 || !c->has_condstore)
        return uid_command(c, what, "STORE", uid, "+FLAGS.SILENT (\\Seen)");
    /* Only if nobody changed the message since it was read (RFC 7162):
     * of two processes that handled it, one marks it and puts it away,
     * the other learns MODIFIED and leaves it be. */
    char condition[96];
    snprintf(condition, sizeof condition,
             "(UNCHANGEDSINCE %llu) +FLAGS.SILENT (\\Seen)",
             (unsigned long long)version);
    imap_wire_status status = imap_wire_command(
        c->wire, NULL, NULL, "UID STORE %u %s", uid, condition);
    if (status == IMAP_WIRE_BAD) {
        /* A server that announces CONDSTORE but does not understand it:
         * the plain STORE, and no more versions this session. */
        c->has_condstore = false;
        return uid_command(c, what, "STORE", uid, "+FLAGS.SILENT (\\Seen)");
    }
    imap_client_result r = judge_gone(c, status, what);
    if (r == IMAP_CLIENT_OK && said_code(c, "MODIFIED"))
        return IMAP_CLIENT_GONE;
    return r;
}

static imap_client_result expunge(imap_client *c, uint32_t uid)
{
    char what[64];
    snprintf(what, sizeof what, "delete UID %u", uid);
    imap_client_result r =
        uid_command(c, what, "STORE", uid, "+FLAGS.SILENT (\\Deleted)");
    if (r != IMAP_CLIENT_OK)
        return r;
    if (c->has_uidplus)
        return uid_command(c, what, "EXPUNGE", uid, "");
    return judge(c, imap_wire_command(c->wire, NULL, NULL, "EXPUNGE"), what);
}

/* MOVE or COPY, creating the folder once when the server asks for it
 * (TRYCREATE). */
static imap_client_result transfer(imap_client *c, const char *command,
                                   uint32_t uid, const char *folder)
{
    char quoted[sizeof c->mailbox], what[IMAP_CONFIG_TEXT_MAX + 64];
    quote(folder, quoted, sizeof quoted);
    snprintf(what, sizeof what, "%s UID %u to %s",
             strcmp(command, "MOVE") == 0 ? "move" : "copy", uid, folder);
    for (int attempt = 0;; attempt++) {
        imap_wire_status status = imap_wire_command(
            c->wire, NULL, NULL, "UID %s %u %s", command, uid, quoted);
        if (status != IMAP_WIRE_NO || !said_code(c, "TRYCREATE") ||
            attempt > 0) {
            imap_client_result r = judge_gone(c, status, what);
            return r == IMAP_CLIENT_GONE ? IMAP_CLIENT_OK : r;
        }
        /* Another process may create it first: ALREADYEXISTS is fine. */
        status = imap_wire_command(c->wire, NULL, NULL, "CREATE %s", quoted);
        if (status == IMAP_WIRE_NO && said_code(c, "ALREADYEXISTS"))
            status = IMAP_WIRE_OK;
        imap_client_result r = judge(c, status, "create the folder");
        if (r != IMAP_CLIENT_OK)
            return r;
    }
}

imap_client_result imap_client_move(imap_client *c, uint32_t uid,
                                    const char *folder)
{
    if (c->has_move)
        return transfer(c, "MOVE", uid, folder);
    imap_client_result r = transfer(c, "COPY", uid, folder);
    return r == IMAP_CLIENT_OK ? expunge(c, uid) : r;
}

imap_client_result imap_client_delete(imap_client *c, uint32_t uid)
{
    return expunge(c, uid);
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
