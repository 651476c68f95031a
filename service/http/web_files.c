/* web_files.c */
#include "http/web_files.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/config.h"
#include "http/path.h"
#include "store/db.h"
#include "store/matches.h"

/* The page loads nothing but its own files, runs no inline script or
 * style, and may not be framed: a page holding a player's signing key
 * gives an injected script nothing to do and another site nothing to
 * wrap. */
static const char csp[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

static const char not_found_page[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    "<title>Not found · pbem</title>"
    "<link rel=\"stylesheet\" href=\"/style.css\"></head>\n"
    "<body><main id=\"main\"><h1>Not found</h1>"
    "<p>There is no page at this address. "
    "<a href=\"/\">Go to the start page</a>.</p></main></body></html>\n";

static const char *web_dir(void)
{
    return config_text(CONFIG_WEB_DIR);
}

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

bool web_files_wanted(const char *method, const char *url)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return false;
    return !starts_with(url, "/v1/") && strcmp(url, "/v1") != 0 &&
           strcmp(url, "/healthz") != 0 && strcmp(url, "/metrics") != 0 &&
           strcmp(url, "/unsubscribe") != 0 &&
           strcmp(url, "/confirm-email") != 0;
}

/* Letters, digits, '_' and '-', 1 to max of them, up to the next '/' or
 * the end: *text moves past them. */
static bool segment_of(const char **text, size_t max)
{
    size_t n = 0;
    const char *p = *text;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
           (p[n] >= '0' && p[n] <= '9') || p[n] == '_' || p[n] == '-')
        n++;
    if (n == 0 || n > max)
        return false;
    *text = p + n;
    return true;
}

/* Whether /matches/<ref> names a match that exists. A player who follows
 * a mistyped link is told at once there is no such page, not shown an
 * empty table. When the database cannot say, the page is served: it shows
 * the API's own error when it asks. */
static bool match_page_exists(const char *ref, size_t len)
{
    char api[96];
    if (snprintf(api, sizeof api, "/v1/matches/%.*s", (int)len, ref) >=
        (int)sizeof api)
        return false;
    path_params params;
    if (path_match("/v1/matches/{id}", api, &params) != PATH_MATCHES)
        return false;
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL)
        return true;
    store_match match;
    if (!store_load_match(conn, params.match_id, &match, &err))
        return err.status != 404;
    store_match_free(&match);
    return true;
}

/* The paths the page's router draws (web/app.js): each is web/index.html. */
static bool page_path(const char *url)
{
    if (strcmp(url, "/") == 0 || strcmp(url, "/settings") == 0 ||
        strcmp(url, "/me") == 0 || strcmp(url, "/games") == 0 ||
        strcmp(url, "/lobby") == 0)
        return true;
    const char *rest;
    if (starts_with(url, "/games/")) {
        rest = url + strlen("/games/");
        return segment_of(&rest, 64) &&
               (*rest == '\0' || strcmp(rest, "/standings") == 0);
    }
    if (starts_with(url, "/players/")) {
        rest = url + strlen("/players/");
        return segment_of(&rest, 64) && *rest == '\0';
    }
    if (starts_with(url, "/sign-in/")) {
        rest = url + strlen("/sign-in/");
        return segment_of(&rest, 128) && *rest == '\0';
    }
    if (starts_with(url, "/matches/")) {
        const char *ref = url + strlen("/matches/");
        rest = ref;
        if (!segment_of(&rest, 64))
            return false;
        if (*rest != '\0' && strcmp(rest, "/replay") != 0)
            return false;
        return match_page_exists(ref, (size_t)(rest - ref));
    }
    return false;
}

/* No empty segment, and none that begins with a dot: no "..", no
 * dotfiles (.git, .env), nothing that is not spelled plainly. */
static bool plain_path(const char *url)
{
    if (url[0] != '/' || strlen(url) > 512 || strchr(url, '\\') != NULL)
        return false;
    for (const char *seg = url + 1;; seg++) {
        if (*seg == '/' || *seg == '.' || *seg == '\0')
            return false;
        seg = strchr(seg, '/');
        if (seg == NULL)
            return true;
    }
}

/* Whether name is one of the dependencies web/package.json lists: only
 * those are served from node_modules, not whatever else npm put there. */
static bool listed_package(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/package.json", web_dir());
    json_t *package = json_load_file(path, 0, NULL);
    json_t *deps = json_object_get(package, "dependencies");
    bool listed = json_is_object(deps) && json_object_get(deps, name) != NULL;
    json_decref(package);
    return listed;
}

/* Whether url names an npm manifest (package.json, package-lock.json),
 * anywhere: they list what the page is built from, which is the server's
 * business, not the page's. */
static bool npm_manifest(const char *url)
{
    const char *name = strrchr(url, '/') + 1;
    return strcmp(name, "package.json") == 0 ||
           strcmp(name, "package-lock.json") == 0;
}

/* The file under web/ that url names (relative to the folder), or false
 * when url names none the page may show. */
static bool file_for(const char *url, char *file, size_t size)
{
    if (page_path(url)) {
        snprintf(file, size, "index.html");
        return true;
    }
    if (!plain_path(url))
        return false;
    if (starts_with(url, "/vendor/")) {
        /* /vendor/<package>/<file>, the package scoped or not. */
        const char *name = url + strlen("/vendor/");
        const char *end = strchr(name, '/');
        if (end != NULL && name[0] == '@')
            end = strchr(end + 1, '/');
        if (end == NULL || (size_t)(end - name) >= 256)
            return false;
        char package[256];
        memcpy(package, name, (size_t)(end - name));
        package[end - name] = '\0';
        if (!listed_package(package))
            return false;
        return snprintf(file, size, "node_modules/%s", name) < (int)size;
    }
    if (starts_with(url, "/node_modules/") ||
        strcmp(url, "/node_modules") == 0 || npm_manifest(url))
        return false;
    return snprintf(file, size, "%s", url + 1) < (int)size;
}

/* The Content-Type for file's extension, or NULL: other files are not
 * served. */
static const char *type_of(const char *file)
{
    static const struct {
        const char *extension;
        const char *type;
    } types[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".json", "application/json"},
        {".woff2", "font/woff2"},
        {".ico", "image/x-icon"},
    };
    const char *dot = strrchr(file, '.');
    if (dot == NULL || strchr(dot, '/') != NULL)
        return NULL;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(dot, types[i].extension) == 0)
            return types[i].type;
    return NULL;
}

static void add_common_headers(struct MHD_Response *response, const char *type)
{
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(response, "Content-Security-Policy", csp);
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
    /* Kept, but asked about every time: a new page is seen at once. */
    MHD_add_response_header(response, "Cache-Control", "no-cache");
}

static enum MHD_Result send_not_found(struct MHD_Connection *conn, int *status)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(
        strlen(not_found_page), (void *)not_found_page, MHD_RESPMEM_PERSISTENT);
    if (response == NULL)
        abort();
    add_common_headers(response, "text/html; charset=utf-8");
    *status = MHD_HTTP_NOT_FOUND;
    enum MHD_Result result =
        MHD_queue_response(conn, MHD_HTTP_NOT_FOUND, response);
    MHD_destroy_response(response);
    return result;
}

/* The next component of the relative path *rest (up to '/' or the end)
 * opened beneath dir without following a link, as a directory when more
 * follows it; *rest moves past it. -1 when there is none such. */
static int open_component(int dir, const char **rest)
{
    const char *slash = strchr(*rest, '/');
    size_t len = slash != NULL ? (size_t)(slash - *rest) : strlen(*rest);
    char name[256];
    if (len == 0 || len >= sizeof name)
        return -1;
    memcpy(name, *rest, len);
    name[len] = '\0';
    int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW;
    if (slash != NULL)
        flags |= O_DIRECTORY;
    *rest = slash != NULL ? slash + 1 : *rest + len;
    return openat(dir, name, flags);
}

/* file (relative to the web folder) opened read-only when it is a regular
 * file of at most WEB_FILES_MAX bytes: its descriptor and *st, or -1.
 * Opened one component at a time beneath the folder, none of them through
 * a link: a link in the folder (a directory linked to /etc, say) leads
 * somewhere that is not the page's, and O_NOFOLLOW alone guards only the
 * last component. */
static int open_regular(const char *file, struct stat *st)
{
    int dir = open(web_dir(), O_RDONLY | O_CLOEXEC | O_DIRECTORY);
    const char *rest = file;
    while (dir >= 0 && strchr(rest, '/') != NULL) {
        int next = open_component(dir, &rest);
        close(dir);
        dir = next;
    }
    if (dir < 0)
        return -1;
    int fd = open_component(dir, &rest);
    close(dir);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) ||
        st->st_size > WEB_FILES_MAX) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether target (the raw request target) escapes a control byte, such as
 * /app.js%00.html: decoded, the path ends at the NUL and names app.js,
 * which is not the file asked for. */
static bool escapes_control_byte(const char *target)
{
    for (const char *p = strchr(target, '%'); p != NULL;
         p = strchr(p + 1, '%')) {
        unsigned value;
        char hex[3] = {p[1], p[1] != '\0' ? p[2] : '\0', '\0'};
        if (strlen(hex) == 2 && strspn(hex, "0123456789abcdefABCDEF") == 2 &&
            sscanf(hex, "%x", &value) == 1 && (value < 0x20 || value == 0x7f))
            return true;
    }
    return false;
}

enum MHD_Result web_files_send(struct MHD_Connection *conn, const char *url,
                               const char *target, int *status)
{
    char file[1024];
    const char *type;
    struct stat st;
    int fd;
    if (escapes_control_byte(target) || !file_for(url, file, sizeof file) ||
        (type = type_of(file)) == NULL || (fd = open_regular(file, &st)) < 0)
        return send_not_found(conn, status);

    /* The file's size and modification time name its version. */
    char etag[64];
    snprintf(etag, sizeof etag, "\"%llx-%llx%09ld\"",
             (unsigned long long)st.st_size,
             (unsigned long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    char modified[64];
    struct tm tm;
    gmtime_r(&st.st_mtim.tv_sec, &tm);
    strftime(modified, sizeof modified, "%a, %d %b %Y %H:%M:%S GMT", &tm);

    const char *seen =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "If-None-Match");
    struct MHD_Response *response;
    if (seen != NULL && strcmp(seen, etag) == 0) {
        close(fd);
        *status = MHD_HTTP_NOT_MODIFIED;
        response =
            MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    } else {
        *status = MHD_HTTP_OK;
        /* Takes fd, closed when the answer is done. */
        response = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
    }
    if (response == NULL)
        abort();
    add_common_headers(response, type);
    MHD_add_response_header(response, MHD_HTTP_HEADER_ETAG, etag);
    MHD_add_response_header(response, MHD_HTTP_HEADER_LAST_MODIFIED, modified);
    enum MHD_Result result =
        MHD_queue_response(conn, (unsigned)*status, response);
    MHD_destroy_response(response);
    return result;
}
