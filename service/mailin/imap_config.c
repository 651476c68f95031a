/* imap_config.c: PBEM_IMAP_* read and checked once, at start. */
#include "mailin/imap_config.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/config.h"

#define CODE "imap_config"

bool imap_configured(void)
{
    return config_text(CONFIG_IMAP_URL) != NULL;
}

/* A mailbox name goes to the server as one quoted string, as written: it
 * must be printable ASCII (a name beyond ASCII is written in IMAP's own
 * modified UTF-7, "&AOQ-" for "ä", by whoever sets the variable). */
static bool name_ok(const char *name)
{
    if (name[0] == '\0')
        return false;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x20 || *p > 0x7e)
            return false;
    }
    return true;
}

/* One part of the URL (decoded), "" when absent. False only when curl
 * cannot say (out of memory, a malformed escape). */
static bool url_part(CURLU *url, CURLUPart what, unsigned flags, char *out,
                     size_t size, bool *present)
{
    char *value = NULL;
    CURLUcode rc = curl_url_get(url, what, &value, flags);
    *present = rc == CURLUE_OK;
    out[0] = '\0';
    if (rc == CURLUE_OK) {
        bool fits = strlen(value) < size;
        if (fits)
            memcpy(out, value, strlen(value) + 1);
        curl_free(value);
        return fits;
    }
    /* Absent parts have codes of their own; any other is a failure. */
    return rc == CURLUE_NO_USER || rc == CURLUE_NO_PASSWORD ||
           rc == CURLUE_NO_OPTIONS || rc == CURLUE_NO_QUERY ||
           rc == CURLUE_NO_FRAGMENT || rc == CURLUE_NO_PORT;
}

static bool parse_url(imap_config *config, const char *text, apierr *err)
{
    static const char example[] = "imaps://user:password@host/INBOX";
    CURLU *url = curl_url();
    if (url == NULL)
        abort();
    char scheme[16], host[200], port[16];
    char raw_path[IMAP_CONFIG_TEXT_MAX], path[IMAP_CONFIG_TEXT_MAX];
    char options[64], query[IMAP_CONFIG_TEXT_MAX],
        fragment[IMAP_CONFIG_TEXT_MAX];
    bool has_user, has_password, has_options, has_query, has_fragment, has,
        ok = false;
    /* Only what the URL says: a text without "imap://" is not guessed at. */
    if (curl_url_set(url, CURLUPART_URL, text, 0) != CURLUE_OK ||
        !url_part(url, CURLUPART_SCHEME, 0, scheme, sizeof scheme, &has) ||
        !url_part(url, CURLUPART_HOST, 0, host, sizeof host, &has) ||
        !url_part(url, CURLUPART_PORT, CURLU_DEFAULT_PORT, port, sizeof port,
                  &has) ||
        !url_part(url, CURLUPART_USER, CURLU_URLDECODE, config->user,
                  sizeof config->user, &has_user) ||
        !url_part(url, CURLUPART_PASSWORD, CURLU_URLDECODE, config->password,
                  sizeof config->password, &has_password) ||
        !url_part(url, CURLUPART_OPTIONS, 0, options, sizeof options,
                  &has_options) ||
        !url_part(url, CURLUPART_PATH, 0, raw_path, sizeof raw_path, &has) ||
        !url_part(url, CURLUPART_PATH, CURLU_URLDECODE, path, sizeof path,
                  &has) ||
        !url_part(url, CURLUPART_QUERY, 0, query, sizeof query, &has_query) ||
        !url_part(url, CURLUPART_FRAGMENT, 0, fragment, sizeof fragment,
                  &has_fragment)) {
        apierr_set(err, 500, CODE,
                   "PBEM_IMAP_URL is not a URL pbemd can read (write it as "
                   "%s, at most %d characters a part)",
                   example, IMAP_CONFIG_TEXT_MAX - 1);
        goto done;
    }
    if (strcmp(scheme, "imap") != 0 && strcmp(scheme, "imaps") != 0) {
        apierr_set(err, 500, CODE,
                   "PBEM_IMAP_URL must start with imap:// or imaps://, not "
                   "%s:// (%s)",
                   scheme, example);
        goto done;
    }
    if (!has_user || !has_password || config->user[0] == '\0') {
        apierr_set(err, 500, CODE,
                   "PBEM_IMAP_URL must carry the user and the password (%s; "
                   "percent-encode an @ or : in them)",
                   example);
        goto done;
    }
    if (has_options) {
        apierr_set(err, 500, CODE,
                   "PBEM_IMAP_URL carries login options (;%s): pbemd logs "
                   "in with the user and password only",
                   options);
        goto done;
    }
    if (strchr(raw_path, ';') != NULL || has_query || has_fragment) {
        apierr_set(err, 500, CODE,
                   "PBEM_IMAP_URL must name a mailbox only, not a message, "
                   "a search or a UIDVALIDITY (;…, ?… or #…): %s",
                   example);
        goto done;
    }
    const char *mailbox = path[0] == '/' ? path + 1 : path;
    size_t len = strlen(mailbox);
    snprintf(config->mailbox, sizeof config->mailbox, "%.*s",
             (int)(len > 0 && mailbox[len - 1] == '/' ? len - 1 : len),
             mailbox);
    if (config->mailbox[0] == '\0')
        snprintf(config->mailbox, sizeof config->mailbox, "INBOX");
    if (!name_ok(config->mailbox)) {
        apierr_set(err, 500, CODE,
                   "PBEM_IMAP_URL's mailbox must be printable ASCII (write "
                   "other names in IMAP's modified UTF-7)");
        goto done;
    }
    snprintf(config->server, sizeof config->server, "%s://%s:%s/", scheme, host,
             port);
    snprintf(config->shown, sizeof config->shown, "%s://%s:***@%s:%s/%s",
             scheme, config->user, host, port, config->mailbox);
    ok = true;
done:
    curl_url_cleanup(url);
    return ok;
}

static bool parse_done(imap_config *config, apierr *err)
{
    const char *text = config_text(CONFIG_IMAP_DONE);
    config->done_folder[0] = '\0';
    if (strcmp(text, "delete") == 0) {
        config->done = IMAP_CONFIG_DELETE;
        return true;
    }
    config->done = IMAP_CONFIG_MOVE;
    const char *folder = strncmp(text, "move:", 5) == 0 ? text + 5 : NULL;
    if (folder == NULL || !name_ok(folder) ||
        strlen(folder) >= sizeof config->done_folder)
        return apierr_set(err, 500, CODE,
                          "PBEM_IMAP_DONE must be move:Folder (a printable "
                          "ASCII folder name) or delete, not \"%.60s\"",
                          text);
    if (strcmp(folder, config->mailbox) == 0 ||
        (strcasecmp(folder, "INBOX") == 0 &&
         strcasecmp(config->mailbox, "INBOX") == 0))
        return apierr_set(err, 500, CODE,
                          "PBEM_IMAP_DONE moves handled mail into %s, the "
                          "mailbox it is read from: name another folder",
                          folder);
    snprintf(config->done_folder, sizeof config->done_folder, "%s", folder);
    return true;
}

/* config accepts no, try or required only. */
static void read_starttls(imap_config *config)
{
    const char *text = config_text(CONFIG_IMAP_STARTTLS);
    if (strcmp(text, "try") == 0)
        config->starttls = IMAP_CONFIG_STARTTLS_TRY;
    else if (strcmp(text, "required") == 0)
        config->starttls = IMAP_CONFIG_STARTTLS_REQUIRED;
    else
        config->starttls = IMAP_CONFIG_STARTTLS_NO;
}

static bool parse_ca_file(imap_config *config, apierr *err)
{
    const char *path = config_text(CONFIG_IMAP_CA_FILE);
    if (path == NULL)
        return true;
    if (strlen(path) >= sizeof config->ca_file || access(path, R_OK) != 0)
        return apierr_set(err, 500, CODE,
                          "PBEM_IMAP_CA_FILE names %.200s, which pbemd cannot "
                          "read (a PEM file of certificates to trust)",
                          path);
    snprintf(config->ca_file, sizeof config->ca_file, "%s", path);
    return true;
}

bool imap_config_from_env(imap_config *config, apierr *err)
{
    memset(config, 0, sizeof *config);
    const char *url = config_text(CONFIG_IMAP_URL);
    if (url == NULL)
        return apierr_set(err, 500, CODE, "PBEM_IMAP_URL is not set (%s)",
                          "imaps://user:password@host/INBOX");
    if (!parse_url(config, url, err) || !parse_done(config, err) ||
        !parse_ca_file(config, err)) {
        /* Nothing half-read is left behind, the password least of all. */
        memset(config, 0, sizeof *config);
        return false;
    }
    read_starttls(config);
    /* The numbers' ranges are config's table's. */
    config->poll_ms = (int)config_whole(CONFIG_IMAP_POLL_MS);
    config->batch = (int)config_whole(CONFIG_IMAP_BATCH);
    if (config->batch > IMAP_CONFIG_BATCH_MAX) /* the worker's arrays */
        config->batch = IMAP_CONFIG_BATCH_MAX;
    config->handlers = (int)config_whole(CONFIG_IMAP_HANDLERS);
    config->timeout_seconds = (int)config_whole(CONFIG_IMAP_TIMEOUT);
    return true;
}
