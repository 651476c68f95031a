/* imap_config.h: where the IMAP worker reads mail, and what becomes of a
 * message once it is handled, read from the environment:
 *
 *   PBEM_IMAP_URL       imap[s]://user:password@host[:port][/mailbox]; the
 *                       mailbox is INBOX when the URL names none; user and
 *                       password are percent-encoded as in any URL
 *                       ("p%40ss" for "p@ss"). Unset: no IMAP worker.
 *   PBEM_IMAP_DONE      move:Folder (default move:Processed) or delete
 *   PBEM_IMAP_STARTTLS  imap:// only, as PBEM_SMTP_STARTTLS: no (default),
 *                       try or required. imaps:// is TLS from the start.
 *   PBEM_IMAP_POLL_MS   30000 (10 to 86400000): the longest wait between
 *                       two rounds (IMAP IDLE ends it as soon as mail
 *                       arrives, on servers that offer IDLE)
 *   PBEM_IMAP_BATCH     16 (1 to 64): messages read per round
 *   PBEM_IMAP_HANDLERS  4 (1 to 16): threads that handle a round's
 *                       messages at once, each with a database connection
 *   PBEM_IMAP_TIMEOUT   60 (1 to 600): seconds a connection, a login or
 *                       a silent server may take before the round gives up
 *   PBEM_IMAP_CA_FILE   unset: the system's CA store; else a PEM file of
 *                       the certificates to trust instead (a private CA)
 *
 * Certificates are always verified, host name included, as for SMTP
 * (libcurl's defaults); there is no switch to turn that off.
 * A malformed value is an error, never a silent default: a typo in where
 * the players' mail is read must stop pbemd at start, not lose mail. */
#ifndef SERVICE_MAILIN_IMAP_CONFIG_H
#define SERVICE_MAILIN_IMAP_CONFIG_H

#include <stdbool.h>

#include "core/apierr.h"

#define IMAP_CONFIG_TEXT_MAX 256
#define IMAP_CONFIG_SHOWN_MAX (3 * IMAP_CONFIG_TEXT_MAX)
#define IMAP_CONFIG_BATCH_MAX 64

typedef enum imap_config_done {
    IMAP_CONFIG_MOVE,   /* into done_folder */
    IMAP_CONFIG_DELETE, /* \Deleted, then expunged */
} imap_config_done;

typedef enum imap_config_starttls {
    IMAP_CONFIG_STARTTLS_NO,
    IMAP_CONFIG_STARTTLS_TRY,
    IMAP_CONFIG_STARTTLS_REQUIRED,
} imap_config_starttls;

typedef struct imap_config {
    /* "imaps://host:993/": what libcurl connects to, without credentials
     * or mailbox. */
    char server[IMAP_CONFIG_TEXT_MAX];
    char user[IMAP_CONFIG_TEXT_MAX];     /* decoded */
    char password[IMAP_CONFIG_TEXT_MAX]; /* decoded; never logged */
    char mailbox[IMAP_CONFIG_TEXT_MAX];  /* "INBOX" */
    imap_config_done done;
    char done_folder[IMAP_CONFIG_TEXT_MAX]; /* "Processed"; "" to delete */
    imap_config_starttls starttls;
    int poll_ms;
    int batch;
    int handlers; /* handler threads (imap_pool.h) */
    int timeout_seconds;
    char ca_file[IMAP_CONFIG_TEXT_MAX]; /* "": the system's CA store */
    /* The URL for log lines: "imaps://user:***@host:993/INBOX". */
    char shown[IMAP_CONFIG_SHOWN_MAX];
} imap_config;

/* True when PBEM_IMAP_URL is set (and not empty). */
bool imap_configured(void);

/* Fills config from the configuration (core/config.h, which refused
 * numbers out of range and an unknown PBEM_IMAP_STARTTLS at start;
 * PBEM_IMAP_URL must be set). False with err filled (status 500, code
 * "imap_config", a sentence naming the variable and what it accepts;
 * never the password) on a malformed URL, folder or CA file. */
bool imap_config_from_env(imap_config *config, apierr *err);

#endif
