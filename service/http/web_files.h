/* web_files.h: the page people play on in a browser. pbemd serves the
 * web/ folder ($PBEM_WEB_DIR, default "web" in the working directory, like
 * migrations/ and templates/) for every GET or HEAD outside the API: real
 * files by extension, the page's own paths (/, /matches/<id>, /settings…)
 * as web/index.html for the page's router, the npm packages web/package.json
 * lists under /vendor/, and an HTML 404 for anything else: a match page
 * whose match does not exist, an npm manifest (package.json,
 * package-lock.json), a path reached through a link in the folder, a
 * target escaping a control byte (%00). Every answer carries a strict
 * Content-Security-Policy. */
#ifndef SERVICE_HTTP_WEB_FILES_H
#define SERVICE_HTTP_WEB_FILES_H

#include <microhttpd.h>
#include <stdbool.h>

/* Whether method and url (decoded path) are the page's to answer rather
 * than the API's: GET or HEAD of a path not under /v1/, /healthz or
 * /metrics. */
bool web_files_wanted(const char *method, const char *url);

/* Queues the answer to url (the decoded path of target, the raw request
 * target) on conn; *status is the HTTP status sent (for metrics and the
 * log). Files larger than WEB_FILES_MAX are not served. */
enum MHD_Result web_files_send(struct MHD_Connection *conn, const char *url,
                               const char *target, int *status);

/* The largest file served, in bytes. */
#define WEB_FILES_MAX (4 * 1024 * 1024)

#endif
