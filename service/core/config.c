/* config.c: the table of pbemd's environment variables, and the one place
 * that reads the environment. */
#include "core/config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef enum kind {
    KIND_TEXT,   /* anything; its module reads it (form says what) */
    KIND_WHOLE,  /* a whole number from min to max */
    KIND_NUMBER, /* a number, fraction allowed, from min to max */
    KIND_FLAG,   /* 0 or 1 */
    KIND_CHOICE, /* one of choices */
    KIND_BUDGET  /* points/seconds, or off */
} kind;

typedef struct row {
    const char *name;
    kind kind;
    const char *fallback;       /* the default as written; NULL: unset */
    long long min, max;         /* KIND_WHOLE, KIND_NUMBER */
    const char *unit;           /* "hours", for ranges and the docs */
    const char *form;           /* KIND_TEXT: what is written, for the docs */
    const char *const *choices; /* KIND_CHOICE, NULL-terminated */
    bool secret;                /* never printed, never repeated */
    const char *meaning;
} row;

#define CHOICES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A rate budget's bounds: a billion points, a day's window. */
#define BUDGET_QUOTA_MAX 1000000000LL
#define BUDGET_WINDOW_MAX 86400LL

static const row table[CONFIG_VARS] = {
    [CONFIG_DATABASE_URL] =
        {"DATABASE_URL", KIND_TEXT, NULL, .form = "PostgreSQL URL",
         .secret = true,
         .meaning = "the PostgreSQL connection URL; pbemd does not start "
                    "without one (make run and make test set it to their "
                    "private cluster); its connections are named pbemd in "
                    "pg_stat_activity unless the URL sets application_name"},
    [CONFIG_LISTEN] = {"PBEM_LISTEN", KIND_TEXT, "127.0.0.1:8080",
                       .form = "IPv4 address:port",
                       .meaning = "address and port to serve on (port 0: "
                                  "any free port)"},
    [CONFIG_THREADS] = {"PBEM_THREADS", KIND_WHOLE, "8", 1, 1024, "threads",
                        .meaning = "HTTP worker threads (each holds one "
                                   "PostgreSQL connection)"},
    [CONFIG_HTTP_REQUEST_SECONDS] =
        {"PBEM_HTTP_REQUEST_SECONDS", KIND_WHOLE, "30", 1, 3600, "seconds",
         .meaning = "the longest a request may take to arrive, headers and "
                    "body, from the connection's opening or its previous "
                    "answer: past it the connection is closed, so clients "
                    "trickling bytes cannot hold every connection"},
    [CONFIG_HTTP_CONNECTIONS] =
        {"PBEM_HTTP_CONNECTIONS", KIND_WHOLE, "12288", 16, 1000000,
         "connections",
         .meaning = "connections served at once, open event streams "
                    "included; the open-files limit is raised to fit at "
                    "start-up when the hard limit allows"},
    [CONFIG_STREAMS_PER_KEY] =
        {"PBEM_STREAMS_PER_KEY", KIND_WHOLE, "4", 1, 100000, "streams",
         .meaning = "open event streams one signing key may hold (429 "
                    "beyond)"},
    [CONFIG_STREAMS_MAX] = {"PBEM_STREAMS_MAX", KIND_WHOLE, "10000", 1, 1000000,
                            "streams",
                            .meaning = "open event streams one pbemd may "
                                       "hold (503 beyond)"},
    [CONFIG_STREAM_HEARTBEAT_SECONDS] =
        {"PBEM_STREAM_HEARTBEAT_SECONDS", KIND_WHOLE, "15", 1, 3600, "seconds",
         .meaning = "how often an idle event stream sends a heartbeat"},
    [CONFIG_STREAM_KEEP_HOURS] =
        {"PBEM_STREAM_KEEP_HOURS", KIND_WHOLE, "168", 1, 24 * 366, "hours",
         .meaning = "how long players' stream notifications are kept for "
                    "resuming (older: 410)"},
    [CONFIG_STREAM_PRUNE_SECONDS] = {"PBEM_STREAM_PRUNE_SECONDS", KIND_WHOLE,
                                     "3600", 1, 86400, "seconds",
                                     .meaning =
                                         "how often each pbemd prunes them"},
    [CONFIG_TRUSTED_PROXIES] =
        {"PBEM_TRUSTED_PROXIES", KIND_TEXT, NULL,
         .form = "comma-separated IPv4 addresses",
         .meaning = "the proxies in front of pbemd: only their Forwarded / "
                    "X-Forwarded-For is believed about the client's "
                    "address, and they are exempt from the limit of 200 "
                    "connections per address (past it, a request is "
                    "answered 429 too_many_connections with Retry-After); "
                    "anything else stops the start"},
    [CONFIG_RATE_ANONYMOUS] =
        {"PBEM_RATE_ANONYMOUS", KIND_BUDGET, "600/60",
         .meaning = "the rate limit per client address (behind "
                    "PBEM_TRUSTED_PROXIES, the address the proxy forwards "
                    "for): requests without a signature, registrations and "
                    "requests whose signature does not hold spend it; past "
                    "it the answer is 429 rate_limited"},
    [CONFIG_RATE_PLAYER] =
        {"PBEM_RATE_PLAYER", KIND_BUDGET, "3000/60",
         .meaning = "the same per key, for requests whose signature holds; "
                    "authenticated admin and mail-server requests, /healthz "
                    "and /metrics are never limited"},
    [CONFIG_RATE_COSTS] =
        {"PBEM_RATE_COSTS", KIND_TEXT, NULL,
         .form = "read=N,write=N,heavy=N,METHOD route=N",
         .meaning = "points a request spends, when not read=1, write=2, "
                    "heavy=30: a GET, any other method, and the heavy "
                    "routes; a route may have its own, named as /metrics "
                    "names it (GET /v1/matches/{id}/events=5); an item it "
                    "cannot read is logged and ignored"},
    [CONFIG_RATE_TABLE] =
        {"PBEM_RATE_TABLE", KIND_WHOLE, "16384", 8, 1 << 22, "clients",
         .meaning = "clients each budget remembers (about 100 bytes each, "
                    "allocated at the first request): a client beyond it "
                    "takes the place of the one nearest to a full budget"},
    [CONFIG_RATE_SHARED] = {"PBEM_RATE_SHARED", KIND_FLAG, "0",
                            .meaning =
                                "1: the budgets hold across every pbemd on the "
                                "database (one statement per limited request; "
                                "deploy/cluster.md), not per process"},
    [CONFIG_DB_TIMEOUT_MS] =
        {"PBEM_DB_TIMEOUT_MS", KIND_WHOLE, "10000", 1, 3600000, "milliseconds",
         .meaning = "the longest one wait on PostgreSQL may last "
                    "(connecting, or one statement, which PostgreSQL then "
                    "ends): past it the request answers 503 "
                    "database_unavailable"},
    [CONFIG_KEY_FILE] = {"PBEM_KEY_FILE", KIND_TEXT, "var/service.key",
                         .form = "path",
                         .meaning = "the 32-byte service key (created 0600 "
                                    "on first start) that encrypts match "
                                    "seeds at rest: back it up with the "
                                    "database"},
    [CONFIG_MIGRATIONS] = {"PBEM_MIGRATIONS", KIND_TEXT, "migrations",
                           .form = "path",
                           .meaning = "folder of numbered SQL migrations"},
    [CONFIG_WEB_DIR] = {"PBEM_WEB_DIR", KIND_TEXT, "web", .form = "path",
                        .meaning = "folder of the page people play on in a "
                                   "browser"},
    [CONFIG_QUIET] = {"PBEM_QUIET", KIND_FLAG, "0",
                      .meaning = "1: log warnings and errors only"},
    [CONFIG_PUBLIC_SCHEME] =
        {"PBEM_PUBLIC_SCHEME", KIND_CHOICE, "http",
         .choices = CHOICES("http", "https"),
         .meaning = "scheme clients see (behind a TLS proxy: https), for "
                    "signatures covering @target-uri"},
    [CONFIG_PUBLIC_URL] = {"PBEM_PUBLIC_URL", KIND_TEXT,
                           "http://127.0.0.1:8080", .form = "URL",
                           .meaning = "base of links in mails and in "
                                      "Slack/Discord relays"},
    [CONFIG_ADMIN_KEY] = {"PBEM_ADMIN_KEY", KIND_TEXT, NULL,
                          .form = "base64 Ed25519 public key", .secret = true,
                          .meaning = "the admin's key; unset: the admin "
                                     "API answers 403"},
    [CONFIG_ADMIN_EMAIL] =
        {"PBEM_ADMIN_EMAIL", KIND_TEXT, NULL, .form = "mail address",
         .meaning = "where notify_admins deadline notices are mailed (needs "
                    "PBEM_SMTP_URL); unset: they wait in the dead letters"},
    [CONFIG_NUDGE_HOURS] = {"PBEM_NUDGE_HOURS", KIND_NUMBER, "12", 0, 8760,
                            "hours",
                            .meaning = "how often a seat may be nudged (0: "
                                       "at any time)"},
    [CONFIG_MESSAGES_PER_HOUR] = {"PBEM_MESSAGES_PER_HOUR", KIND_WHOLE, "60", 1,
                                  100000, "messages",
                                  .meaning = "how many messages a seat may "
                                             "write at a match's table in "
                                             "an hour"},
    [CONFIG_NOTIFY] = {"PBEM_NOTIFY", KIND_FLAG, "1",
                       .meaning = "0 runs no outbox worker in this "
                                  "process"},
    [CONFIG_NOTIFY_POLL_MS] = {"PBEM_NOTIFY_POLL_MS", KIND_WHOLE, "5000", 1,
                               86400000, "milliseconds",
                               .meaning =
                                   "poll interval besides LISTEN/NOTIFY"},
    [CONFIG_NOTIFY_BATCH] = {"PBEM_NOTIFY_BATCH", KIND_WHOLE, "16", 1, 64,
                             "rows", .meaning = "rows claimed at once"},
    [CONFIG_NOTIFY_MAX_ATTEMPTS] =
        {"PBEM_NOTIFY_MAX_ATTEMPTS", KIND_WHOLE, "20", 1, 1000, "attempts",
         .meaning = "attempts before a notification is dead"},
    [CONFIG_NOTIFY_BACKOFF_MS] =
        {"PBEM_NOTIFY_BACKOFF_MS", KIND_WHOLE, "30000", 1, 86400000,
         "milliseconds",
         .meaning = "first retry delay, doubling up to the cap, jittered"},
    [CONFIG_NOTIFY_BACKOFF_MAX_MS] = {"PBEM_NOTIFY_BACKOFF_MAX_MS", KIND_WHOLE,
                                      "21600000", 1, 2592000000LL,
                                      "milliseconds",
                                      .meaning = "the cap of the retry delay"},
    [CONFIG_NOTIFY_LEASE_SECONDS] = {"PBEM_NOTIFY_LEASE_SECONDS", KIND_WHOLE,
                                     "120", 1, 86400, "seconds",
                                     .meaning =
                                         "how long a claimed row is reserved"},
    [CONFIG_WEBHOOK_TIMEOUT] = {"PBEM_WEBHOOK_TIMEOUT", KIND_WHOLE, "20", 15,
                                30, "seconds",
                                .meaning = "time allowed for one delivery"},
    [CONFIG_SMTP_URL] = {"PBEM_SMTP_URL", KIND_TEXT, NULL,
                         .form = "smtp://host:587",
                         .meaning = "the mail relay; unset: no email is "
                                    "queued"},
    [CONFIG_SMTP_STARTTLS] = {"PBEM_SMTP_STARTTLS", KIND_CHOICE, "no",
                              .choices = CHOICES("no", "try", "required"),
                              .meaning = "STARTTLS towards the relay"},
    [CONFIG_SMTP_USER] = {"PBEM_SMTP_USER", KIND_TEXT, NULL,
                          .form = "user name", .meaning = "SMTP user name"},
    [CONFIG_SMTP_PASSWORD] = {"PBEM_SMTP_PASSWORD", KIND_TEXT, NULL,
                              .form = "password", .secret = true,
                              .meaning = "SMTP password"},
    [CONFIG_MAIL_FROM] = {"PBEM_MAIL_FROM", KIND_TEXT, "pbem <pbem@localhost>",
                          .form = "mail address",
                          .meaning = "the From address of the service's "
                                     "mail"},
    [CONFIG_TEMPLATES] = {"PBEM_TEMPLATES", KIND_TEXT, "templates",
                          .form = "path", .meaning = "mail templates folder"},
    [CONFIG_MAIL_REPLY_TO] =
        {"PBEM_MAIL_REPLY_TO", KIND_TEXT, NULL, .form = "mail address",
         .meaning = "the service's own address, pbem@example.org: every "
                    "mail to a person carries Reply-To: "
                    "pbem+TOKEN@example.org, and mail to it is played; "
                    "unset (or without @): mails carry no reply address"},
    [CONFIG_MAIL_TOKEN_DAYS] = {"PBEM_MAIL_TOKEN_DAYS", KIND_WHOLE, "30", 1,
                                365, "days",
                                .meaning =
                                    "how long a reply address is accepted"},
    [CONFIG_MAIL_TRUST_AUTHSERV_ID] =
        {"PBEM_MAIL_TRUST_AUTHSERV_ID", KIND_TEXT, NULL, .form = "authserv-id",
         .meaning = "the receiving mail server whose Authentication-Results "
                    "must show dmarc=pass or dkim=pass for the sender's "
                    "domain; unset: not required"},
    [CONFIG_MAIL_INBOUND_KEY] =
        {"PBEM_MAIL_INBOUND_KEY", KIND_TEXT, NULL,
         .form = "base64 Ed25519 public key", .secret = true,
         .meaning = "the key of pbem mail-in (keyid mail); unset: POST "
                    "/v1/mail/inbound answers 403"},
    [CONFIG_MAIL_ANSWERS_PER_HOUR] =
        {"PBEM_MAIL_ANSWERS_PER_HOUR", KIND_WHOLE, "10", 1, 1000000, "answers",
         .meaning = "answers to one sender an hour; past it a player's mail "
                    "is applied and answered in one mail later, other mail "
                    "is dropped and counted in /metrics"},
    [CONFIG_MAIL_ANSWER_HOLD_SECONDS] =
        {"PBEM_MAIL_ANSWER_HOLD_SECONDS", KIND_WHOLE, "120", 0, 3600, "seconds",
         .meaning = "how long the answer to a mailed move that leaves the "
                    "sender waiting for others is held: the seat's next "
                    "\"your turn\" within it carries the answer in the "
                    "same mail; 0: every answer goes at once"},
    [CONFIG_MAIL_SEEN_MINUTES] =
        {"PBEM_MAIL_SEEN_MINUTES", KIND_WHOLE, "10", 0, 1440, "minutes",
         .meaning = "no \"your turn\" email to a player who signed a "
                    "request (the web page, the command line) this recently, "
                    "unless their setting skip_when_seen is off; 0: mail "
                    "every turn"},
    [CONFIG_IMAP_URL] =
        {"PBEM_IMAP_URL", KIND_TEXT, NULL,
         .form = "imaps://user:password@host/INBOX", .secret = true,
         .meaning = "the mailbox a worker of pbemd reads and plays what "
                    "comes in (percent-encode @ and : in the user and "
                    "password); unset: no IMAP worker"},
    [CONFIG_IMAP_DONE] = {"PBEM_IMAP_DONE", KIND_TEXT, "move:Processed",
                          .form = "move:Folder or delete",
                          .meaning = "where handled mail goes (the folder "
                                     "is created if missing)"},
    [CONFIG_IMAP_STARTTLS] = {"PBEM_IMAP_STARTTLS", KIND_CHOICE, "no",
                              .choices = CHOICES("no", "try", "required"),
                              .meaning = "STARTTLS for imap:// (imaps:// is "
                                         "TLS from the start)"},
    [CONFIG_IMAP_CA_FILE] = {"PBEM_IMAP_CA_FILE", KIND_TEXT, NULL,
                             .form = "path",
                             .meaning = "PEM certificates to trust instead "
                                        "of the system's (verification "
                                        "cannot be switched off)"},
    [CONFIG_IMAP_POLL_MS] = {"PBEM_IMAP_POLL_MS", KIND_WHOLE, "30000", 10,
                             86400000, "milliseconds",
                             .meaning = "longest wait between rounds (IDLE "
                                        "ends it when mail comes)"},
    [CONFIG_IMAP_BATCH] = {"PBEM_IMAP_BATCH", KIND_WHOLE, "16", 1, 64,
                           "messages", .meaning = "messages per round"},
    [CONFIG_IMAP_HANDLERS] = {"PBEM_IMAP_HANDLERS", KIND_WHOLE, "4", 1, 16,
                              "threads",
                              .meaning = "threads that handle a round's "
                                         "messages at once, each with its "
                                         "own database connection; one "
                                         "sender's mail in order on one"},
    [CONFIG_IMAP_TIMEOUT] = {"PBEM_IMAP_TIMEOUT", KIND_WHOLE, "60", 1, 600,
                             "seconds",
                             .meaning = "time for connect, login or a "
                                        "silent server"},
    [CONFIG_DEADLINES] = {"PBEM_DEADLINES", KIND_FLAG, "1",
                          .meaning = "0 runs no deadline worker in this "
                                     "process"},
    [CONFIG_DEADLINE_POLL_MS] =
        {"PBEM_DEADLINE_POLL_MS", KIND_WHOLE, "10000", 1, 86400000,
         "milliseconds",
         .meaning = "how often the worker looks for due reminders and "
                    "deadlines"},
    [CONFIG_DEADLINE_BATCH] = {"PBEM_DEADLINE_BATCH", KIND_WHOLE, "16", 1, 64,
                               "rows",
                               .meaning = "reminders claimed at once, and "
                                          "deadlines applied per pass"},
    [CONFIG_CLOCK_FILE] =
        {"PBEM_CLOCK_FILE", KIND_TEXT, NULL, .form = "path",
         .meaning = "tests only: match time is read from this file (unix "
                    "seconds or RFC 3339) instead of the system clock; "
                    "pbemd refuses to start when it holds no time"},
    [CONFIG_WEBHOOK_ALLOW_LOOPBACK] =
        {"PBEM_WEBHOOK_ALLOW_LOOPBACK", KIND_FLAG, "0",
         .meaning = "tests only: 1 lets webhooks reach loopback"},
    [CONFIG_DISCORD_PUBLIC_KEY] =
        {"PBEM_DISCORD_PUBLIC_KEY", KIND_TEXT, NULL,
         .form = "64 hex digits (the application's public key)",
         .meaning = "the Discord application whose interactions POST "
                    "/v1/chat/discord/interactions accepts (docs/chat.md); "
                    "unset: it answers 401"},
    [CONFIG_SLACK_SIGNING_SECRET] =
        {"PBEM_SLACK_SIGNING_SECRET", KIND_TEXT, NULL,
         .form = "the Slack app's signing secret", .secret = true,
         .meaning = "the Slack app whose commands and clicks /v1/chat/slack/ "
                    "accepts (docs/chat.md); unset: they answer 401"},
    [CONFIG_SLACK_RESPONSE_URL] =
        {"PBEM_SLACK_RESPONSE_URL", KIND_TEXT, "https://hooks.slack.com/",
         .form = "URL prefix",
         .meaning = "where a Slack click's answer may be posted: a "
                    "response_url not starting so is not called (tests "
                    "point it at a loopback receiver)"},
};

/* A variable's value in effect. text points into the environment or at
 * the table's default: both live as long as the process (glibc never
 * frees a string setenv replaced), so a reload leaves borrowed text
 * valid. */
typedef struct value {
    const char *text;
    bool from_environment;
    long long whole;  /* KIND_WHOLE, KIND_FLAG; KIND_BUDGET: the quota */
    long long window; /* KIND_BUDGET; 0: off */
    double number;    /* KIND_NUMBER */
} value;

static value current[CONFIG_VARS];
static bool loaded;
static pthread_once_t first = PTHREAD_ONCE_INIT;

/* What a row accepts, as the sentence of a refusal ends. */
static void accepts(const row *r, char *out, size_t size)
{
    switch (r->kind) {
    case KIND_WHOLE:
        snprintf(out, size, "a whole number from %lld to %lld (%s)", r->min,
                 r->max, r->unit);
        break;
    case KIND_NUMBER:
        snprintf(out, size, "a number from %lld to %lld (%s)", r->min, r->max,
                 r->unit);
        break;
    case KIND_FLAG:
        snprintf(out, size, "0 or 1");
        break;
    case KIND_CHOICE: {
        size_t used = 0;
        out[0] = '\0';
        for (int i = 0; r->choices[i] != NULL && used < size; i++) {
            const char *sep = i == 0                      ? ""
                              : r->choices[i + 1] == NULL ? " or "
                                                          : ", ";
            int n =
                snprintf(out + used, size - used, "%s%s", sep, r->choices[i]);
            used += n > 0 ? (size_t)n : 0;
        }
        break;
    }
    case KIND_BUDGET:
        snprintf(out, size,
                 "points per window of seconds, such as 600/60 (1 to %lld "
                 "points, 1 to %lld seconds), or off",
                 BUDGET_QUOTA_MAX, BUDGET_WINDOW_MAX);
        break;
    case KIND_TEXT:
        snprintf(out, size, "%s", r->form);
        break;
    }
}

/* A whole number written as one: digits, perhaps a minus sign first. */
static bool whole_of(const char *text, long long *out)
{
    if ((text[0] < '0' || text[0] > '9') && text[0] != '-')
        return false;
    char *end = NULL;
    errno = 0;
    *out = strtoll(text, &end, 10);
    return end != text && *end == '\0' && errno == 0;
}

static bool budget_of(const char *text, long long *quota, long long *window)
{
    if (strcmp(text, "off") == 0) {
        *quota = 0;
        *window = 0;
        return true;
    }
    const char *slash = strchr(text, '/');
    if (slash == NULL || slash - text >= 24)
        return false;
    char head[24];
    snprintf(head, sizeof head, "%.*s", (int)(slash - text), text);
    return whole_of(head, quota) && whole_of(slash + 1, window) &&
           *quota >= 1 && *quota <= BUDGET_QUOTA_MAX && *window >= 1 &&
           *window <= BUDGET_WINDOW_MAX;
}

/* text read as r says into *v; false when r does not accept it. */
static bool parse(const row *r, const char *text, value *v)
{
    v->text = text;
    if (text == NULL)
        return true;
    switch (r->kind) {
    case KIND_TEXT:
        return true;
    case KIND_WHOLE:
        return whole_of(text, &v->whole) && v->whole >= r->min &&
               v->whole <= r->max;
    case KIND_NUMBER: {
        char *end = NULL;
        errno = 0;
        v->number = strtod(text, &end);
        return ((text[0] >= '0' && text[0] <= '9') || text[0] == '.') &&
               *end == '\0' && errno == 0 && isfinite(v->number) &&
               v->number >= (double)r->min && v->number <= (double)r->max;
    }
    case KIND_FLAG:
        v->whole = strcmp(text, "1") == 0;
        return strcmp(text, "0") == 0 || strcmp(text, "1") == 0;
    case KIND_CHOICE:
        for (int i = 0; r->choices[i] != NULL; i++)
            if (strcmp(text, r->choices[i]) == 0)
                return true;
        return false;
    case KIND_BUDGET:
        return budget_of(text, &v->whole, &v->window);
    }
    return false;
}

bool config_load(apierr *err)
{
    value next[CONFIG_VARS];
    memset(next, 0, sizeof next);
    for (int i = 0; i < CONFIG_VARS; i++) {
        const row *r = &table[i];
        const char *text = getenv(r->name);
        bool set = text != NULL && text[0] != '\0';
        next[i].from_environment = set;
        if (parse(r, set ? text : r->fallback, &next[i]))
            continue;
        char wanted[200];
        accepts(r, wanted, sizeof wanted);
        if (!set)
            return apierr_set(err, 500, "config",
                              "%s has a default it does not accept (%s); "
                              "it must be %s",
                              r->name, r->fallback, wanted);
        if (r->secret)
            return apierr_set(err, 500, "config",
                              "%s is not what it must be: %s", r->name, wanted);
        return apierr_set(err, 500, "config", "%s is \"%.60s\"; it must be %s",
                          r->name, text, wanted);
    }
    memcpy(current, next, sizeof current);
    loaded = true;
    return true;
}

/* For programs that never called config_load: the environment at the
 * first question. */
static void load_first(void)
{
    if (loaded)
        return;
    apierr err;
    if (!config_load(&err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
}

/* The value of var, which must be of kind k: asking a switch for text
 * is a mistake in the caller, found by its first test. */
static const value *value_of(config_var var, kind k)
{
    pthread_once(&first, load_first);
    if ((unsigned)var >= CONFIG_VARS ||
        (k != KIND_TEXT && table[var].kind != k)) {
        fprintf(stderr, "%s:%d: config variable %d asked as another kind\n",
                __FILE__, __LINE__, (int)var);
        abort();
    }
    return &current[var];
}

const char *config_name(config_var var)
{
    return (unsigned)var < CONFIG_VARS ? table[var].name : "?";
}

const char *config_text(config_var var)
{
    return value_of(var, KIND_TEXT)->text;
}

long long config_whole(config_var var)
{
    return value_of(var, KIND_WHOLE)->whole;
}

double config_number(config_var var)
{
    return value_of(var, KIND_NUMBER)->number;
}

bool config_flag(config_var var)
{
    return value_of(var, KIND_FLAG)->whole != 0;
}

bool config_budget(config_var var, long long *quota, long long *window)
{
    const value *v = value_of(var, KIND_BUDGET);
    *quota = v->whole;
    *window = v->window;
    return v->window != 0;
}

void config_print(FILE *out)
{
    pthread_once(&first, load_first);
    for (int i = 0; i < CONFIG_VARS; i++) {
        const value *v = &current[i];
        const char *shown = v->text == NULL   ? "(not set)"
                            : table[i].secret ? "********"
                                              : v->text;
        fprintf(out, "%-30s %s%s\n", table[i].name, shown,
                v->text == NULL       ? ""
                : v->from_environment ? " (environment)"
                                      : " (default)");
    }
}

/* text for a Markdown table cell: | would end the cell. */
static void cell(FILE *out, const char *text)
{
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else
            fputc(*p, out);
    }
}

void config_markdown(FILE *out)
{
    fputs("# Configuration\n\n"
          "<!-- Written by `make docs` from the table in "
          "service/core/config.c; edit the table, not this file. -->\n\n"
          "`pbemd` reads these environment variables once, at start. An "
          "unset or empty variable takes its default; a value outside what "
          "the variable accepts stops `pbemd` before it serves anything, "
          "with a sentence naming the variable and what it accepts. "
          "`pbemd config` prints the values in effect, where each came "
          "from, and secrets as `********`.\n\n"
          "| variable | default | accepts | meaning |\n"
          "| --- | --- | --- | --- |\n",
          out);
    for (int i = 0; i < CONFIG_VARS; i++) {
        const row *r = &table[i];
        char wanted[200];
        accepts(r, wanted, sizeof wanted);
        fprintf(out, "| `%s` | ", r->name);
        if (r->fallback != NULL) {
            fputc('`', out);
            cell(out, r->fallback);
            fputc('`', out);
        } else {
            fputs("unset", out);
        }
        fputs(" | ", out);
        cell(out, wanted);
        if (r->secret)
            fputs("; a secret", out);
        fputs(" | ", out);
        cell(out, r->meaning);
        fputs(" |\n", out);
    }
}
