/* config.h: pbemd's configuration, one table of every environment
 * variable it reads: its name, its type, its default, the values it
 * accepts and the unit they are in, whether it is a secret, and what it
 * means in one line. The environment is read and checked once, at start
 * (config_load): a bad value stops pbemd there with a sentence naming the
 * variable and what it accepts, instead of a typo quietly becoming a
 * default hours later. Every other file asks this module; none reads the
 * environment itself (make check fails on a getenv anywhere else).
 *
 * Some values are only read here and understood by their module, which
 * refuses them at start as it always did: the listening address
 * (http.c), the trusted proxies (peers.c), the rate costs (rate_policy.c),
 * the IMAP URL and what becomes of handled mail (imap_config.c).
 *
 * `pbemd config` prints the values in effect (config_print) and
 * docs/configuration.md is this table written out (config_markdown). */
#ifndef SERVICE_CORE_CONFIG_H
#define SERVICE_CORE_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "core/apierr.h"

/* One per variable, named after it without its PBEM_ prefix. */
typedef enum config_var {
    CONFIG_DATABASE_URL,
    CONFIG_LISTEN,
    CONFIG_THREADS,
    CONFIG_HTTP_REQUEST_SECONDS,
    CONFIG_HTTP_CONNECTIONS,
    CONFIG_STREAMS_PER_KEY,
    CONFIG_STREAMS_MAX,
    CONFIG_STREAM_HEARTBEAT_SECONDS,
    CONFIG_STREAM_KEEP_HOURS,
    CONFIG_STREAM_PRUNE_SECONDS,
    CONFIG_TRUSTED_PROXIES,
    CONFIG_RATE_ANONYMOUS,
    CONFIG_RATE_PLAYER,
    CONFIG_RATE_COSTS,
    CONFIG_RATE_TABLE,
    CONFIG_RATE_SHARED,
    CONFIG_DB_TIMEOUT_MS,
    CONFIG_KEY_FILE,
    CONFIG_MIGRATIONS,
    CONFIG_WEB_DIR,
    CONFIG_QUIET,
    CONFIG_PUBLIC_SCHEME,
    CONFIG_PUBLIC_URL,
    CONFIG_ADMIN_KEY,
    CONFIG_ADMIN_EMAIL,
    CONFIG_NUDGE_HOURS,
    CONFIG_MESSAGES_PER_HOUR,
    CONFIG_NOTIFY,
    CONFIG_NOTIFY_POLL_MS,
    CONFIG_NOTIFY_BATCH,
    CONFIG_NOTIFY_MAX_ATTEMPTS,
    CONFIG_NOTIFY_BACKOFF_MS,
    CONFIG_NOTIFY_BACKOFF_MAX_MS,
    CONFIG_NOTIFY_LEASE_SECONDS,
    CONFIG_WEBHOOK_TIMEOUT,
    CONFIG_SMTP_URL,
    CONFIG_SMTP_STARTTLS,
    CONFIG_SMTP_USER,
    CONFIG_SMTP_PASSWORD,
    CONFIG_MAIL_FROM,
    CONFIG_TEMPLATES,
    CONFIG_MAIL_REPLY_TO,
    CONFIG_MAIL_TOKEN_DAYS,
    CONFIG_MAIL_TRUST_AUTHSERV_ID,
    CONFIG_MAIL_INBOUND_KEY,
    CONFIG_MAIL_ANSWERS_PER_HOUR,
    CONFIG_MAIL_ANSWER_HOLD_SECONDS,
    CONFIG_MAIL_SEEN_MINUTES,
    CONFIG_IMAP_URL,
    CONFIG_IMAP_DONE,
    CONFIG_IMAP_STARTTLS,
    CONFIG_IMAP_CA_FILE,
    CONFIG_IMAP_POLL_MS,
    CONFIG_IMAP_BATCH,
    CONFIG_IMAP_HANDLERS,
    CONFIG_IMAP_TIMEOUT,
    CONFIG_DEADLINES,
    CONFIG_DEADLINE_POLL_MS,
    CONFIG_DEADLINE_BATCH,
    CONFIG_CLOCK_FILE,
    CONFIG_WEBHOOK_ALLOW_LOOPBACK,
    CONFIG_DISCORD_PUBLIC_KEY,
    CONFIG_SLACK_SIGNING_SECRET,
    CONFIG_SLACK_RESPONSE_URL,
    CONFIG_VARS
} config_var;

/* Reads every variable from the environment and checks it against the
 * table; an unset or empty variable takes its default. On success the
 * values replace those in effect. On the first bad value nothing
 * changes and false is returned with err's message a sentence such as
 * `PBEM_NUDGE_HOURS is "abc"; it must be a number from 0 to 8760
 * (hours)` (a secret's value is never repeated). pbemd calls it once,
 * before anything else; a test calls it again after changing the
 * environment. A program that never calls it (a benchmark, a fuzzer)
 * has the environment read at its first question, and ends with the
 * sentence on stderr if a value is bad. */
bool config_load(apierr *err);

/* The variable's name, "PBEM_NUDGE_HOURS" (static). */
const char *config_name(config_var var);

/* The value in effect as written (the default when unset), or NULL when
 * neither the environment nor the table gives one. Borrowed: it lives as
 * long as the process. */
const char *config_text(config_var var);

/* A whole-number variable's value, within the table's range. */
long long config_whole(config_var var);

/* A number that may have a fraction (PBEM_NUDGE_HOURS). */
double config_number(config_var var);

/* A switch's value: true for 1, false for 0. */
bool config_flag(config_var var);

/* A rate budget, "points/seconds" or "off": true with *quota points per
 * *window seconds, false when off. */
bool config_budget(config_var var, long long *quota, long long *window);

/* Prints every variable in effect to out, one a line: its name, its value
 * (a secret's as ******** when set), and whether it came from the
 * environment or is the default; (not set) when it has no value. */
void config_print(FILE *out);

/* Writes docs/configuration.md, the table in Markdown, to out. It depends
 * on the table only, never on the environment. */
void config_markdown(FILE *out);

#endif
