/* test_web_files.c: the browser page's files as pbemd serves them
 * (http/web_files.h), read over real HTTP from a web folder the test lays
 * out: types by extension, the CSP and its companions on every answer,
 * the page's own paths, the vendored packages package.json lists and no
 * others, and nothing outside the folder or hidden in it. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../support/e2e.h"
#include "http/web_files.h"

static const char csp[] =
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

static e2e_server server;
static char dir[256];
static char outside[256];   /* a folder a link in the web folder points at */
static char match_page[64]; /* /matches/<id> of a match that exists */

static void put(const char *name, const void *bytes, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *slash = strrchr(path, '/');
    for (char *p = path + strlen(dir) + 1; p <= slash; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0700);
            *p = '/';
        }
    }
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
}

static void put_text(const char *name, const char *text)
{
    put(name, text, strlen(text));
}

static void lay_out_web_folder(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/pbem-web-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(dir));
    put_text("index.html", "<!doctype html><title>page</title>INDEX");
    put_text("app.js", "export const answer = 42;\n");
    put_text("style.css", "body { color: black; }\n");
    put_text("icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
    put_text("data.json", "{\"a\": 1}");
    put("font.woff2", "wOF2\0\1", 6);
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', 0, 0, 0, 13, 0xff};
    put("pic.png", png, sizeof png);
    put_text(".secret.js", "secret");
    put_text(".git/config", "secret");
    put_text("notes.txt", "not served");
    put_text("sub/inner.js", "inner");
    put_text("package.json", "{\"dependencies\": {\"@noble/hashes\": \"^2\"}}");
    put_text("node_modules/@noble/hashes/blake2.js", "export const b = 2;");
    put_text("node_modules/leftpad/index.js", "unlisted");
    char path[512];
    snprintf(path, sizeof path, "%s/link.js", dir);
    cr_assert_eq(symlink("/etc/hostname", path), 0);
    /* A directory linked out of the folder, to one holding a script. */
    snprintf(outside, sizeof outside, "%s/pbem-else-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(outside));
    snprintf(path, sizeof path, "%s/secret.js", outside);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("secret", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/outlink", dir);
    cr_assert_eq(symlink(outside, path), 0);
    put_text("package-lock.json", "{\"lockfileVersion\": 3}");
    snprintf(path, sizeof path, "%s/pipe.js", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    /* One byte over the limit. */
    size_t big = WEB_FILES_MAX + 1;
    char *bytes = calloc(1, big);
    cr_assert_not_null(bytes);
    put("big.js", bytes, big);
    free(bytes);
}

/* A match for the page's /matches/<id> to show. */
static void create_match(void)
{
    e2e_player ann;
    e2e_register(&server, "Ann", &ann);
    e2e_response r =
        e2e_call(&server, "POST", "/v1/matches",
                 "{\"game\":\"antiquity_quest\",\"seats\":2}", &ann);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    const char *id = json_string_value(
        json_object_get(json_object_get(r.json, "match"), "id"));
    cr_assert_not_null(id, "%s", r.body);
    snprintf(match_page, sizeof match_page, "/matches/%s", id);
    e2e_response_free(&r);
}

static void start(void)
{
    lay_out_web_folder();
    setenv("PBEM_WEB_DIR", dir, 1);
    e2e_start(&server);
    create_match();
}

static void stop(void)
{
    e2e_stop(&server);
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s' '%s'", dir, outside);
    cr_assert_eq(system(command), 0);
}

typedef struct web_answer {
    long status;
    char *body;
    size_t len;
    char headers[8192];
} web_answer;

static size_t on_body(char *data, size_t size, size_t count, void *ctx)
{
    web_answer *a = ctx;
    size_t n = size * count;
    a->body = realloc(a->body, a->len + n + 1);
    cr_assert_not_null(a->body);
    memcpy(a->body + a->len, data, n);
    a->len += n;
    a->body[a->len] = '\0';
    return n;
}

static size_t on_header(char *data, size_t size, size_t count, void *ctx)
{
    web_answer *a = ctx;
    size_t n = size * count;
    strncat(a->headers, data,
            n < sizeof a->headers - strlen(a->headers) - 1
                ? n
                : sizeof a->headers - strlen(a->headers) - 1);
    return n;
}

/* method path (sent as written: no dot segment removed) with one extra
 * header line or NULL. */
static web_answer fetch_as(const char *method, const char *path,
                           const char *header)
{
    web_answer a = {0};
    char url[1024];
    snprintf(url, sizeof url, "http://127.0.0.1:%d%s", server.port, path);
    CURL *curl = curl_easy_init();
    cr_assert_not_null(curl);
    struct curl_slist *list = header ? curl_slist_append(NULL, header) : NULL;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &a);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
    cr_assert_eq(curl_easy_perform(curl), CURLE_OK, "no answer to %s", path);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &a.status);
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    if (a.body == NULL)
        a.body = calloc(1, 1);
    return a;
}

static web_answer fetch(const char *path)
{
    return fetch_as("GET", path, NULL);
}

/* The value of header name in a (case-insensitive name), or "". */
static const char *header_of(const web_answer *a, const char *name)
{
    static char value[1024];
    value[0] = '\0';
    size_t n = strlen(name);
    for (const char *line = a->headers; line && *line;) {
        if (strncasecmp(line, name, n) == 0 && line[n] == ':') {
            const char *v = line + n + 1;
            while (*v == ' ')
                v++;
            size_t len = strcspn(v, "\r\n");
            snprintf(value, sizeof value, "%.*s", (int)len, v);
            return value;
        }
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return value;
}

static void expect_guarded(const web_answer *a, const char *path)
{
    cr_expect_str_eq(header_of(a, "Content-Security-Policy"), csp,
                     "%s: the CSP", path);
    cr_expect_str_eq(header_of(a, "X-Content-Type-Options"), "nosniff",
                     "%s", path);
    cr_expect_str_eq(header_of(a, "Referrer-Policy"), "no-referrer", "%s",
                     path);
}

static void expect_not_found(const char *path)
{
    web_answer a = fetch(path);
    cr_expect_eq(a.status, 404, "%s answered %ld", path, a.status);
    cr_expect_str_eq(header_of(&a, "Content-Type"), "text/html; charset=utf-8",
                     "%s: the 404 is a page", path);
    cr_expect(strstr(a.body, "Not found") != NULL, "%s: %s", path, a.body);
    cr_expect(strstr(a.body, "secret") == NULL && strstr(a.body, "unlisted") == NULL,
              "%s leaked a file", path);
    expect_guarded(&a, path);
    free(a.body);
}

TestSuite(web_files, .init = start, .fini = stop, .timeout = 60);

Test(web_files, each_file_comes_with_its_type_and_the_csp)
{
    static const struct {
        const char *path, *type, *body;
    } files[] = {
        {"/app.js", "text/javascript; charset=utf-8", "export const answer = 42;\n"},
        {"/style.css", "text/css; charset=utf-8", "body { color: black; }\n"},
        {"/icon.svg", "image/svg+xml", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"},
        {"/data.json", "application/json", "{\"a\": 1}"},
        {"/index.html", "text/html; charset=utf-8", "<!doctype html><title>page</title>INDEX"},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        web_answer a = fetch(files[i].path);
        cr_expect_eq(a.status, 200, "%s", files[i].path);
        cr_expect_str_eq(header_of(&a, "Content-Type"), files[i].type);
        cr_expect_str_eq(a.body, files[i].body);
        cr_expect_str_eq(header_of(&a, "Cache-Control"), "no-cache");
        cr_expect_neq(header_of(&a, "ETag")[0], '\0', "%s has no ETag", files[i].path);
        expect_guarded(&a, files[i].path);
        free(a.body);
    }
}

Test(web_files, binary_files_arrive_whole)
{
    web_answer a = fetch("/pic.png");
    cr_assert_eq(a.status, 200);
    cr_expect_str_eq(header_of(&a, "Content-Type"), "image/png");
    cr_expect_eq(a.len, 9, "the PNG's bytes after its NUL were lost");
    cr_expect_eq((unsigned char)a.body[8], 0xff);
    free(a.body);
    a = fetch("/font.woff2");
    cr_expect_str_eq(header_of(&a, "Content-Type"), "font/woff2");
    cr_expect_eq(a.len, 6);
    free(a.body);
}

Test(web_files, the_pages_own_paths_are_the_page)
{
    char replay[80];
    snprintf(replay, sizeof replay, "%s/replay", match_page);
    const char *paths[] = {
        "/",         match_page, replay,  "/sign-in/abc-DEF_123",
        "/settings", "/me",      "/games", "/lobby",
        "/games/antiquity_quest/standings", "/players/p_12"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        web_answer a = fetch(paths[i]);
        cr_expect_eq(a.status, 200, "%s answered %ld", paths[i], a.status);
        cr_expect(strstr(a.body, "INDEX") != NULL, "%s is not the page", paths[i]);
        cr_expect_str_eq(header_of(&a, "Content-Type"), "text/html; charset=utf-8");
        expect_guarded(&a, paths[i]);
        free(a.body);
    }
}

Test(web_files, other_paths_are_an_html_404)
{
    expect_not_found("/nowhere");
    expect_not_found("/matches/m_12/other");
    char other[80];
    snprintf(other, sizeof other, "%s/other", match_page);
    expect_not_found(other);
    expect_not_found("/matches/");
    expect_not_found("/sign-in/");
    expect_not_found("/settings/x");
    expect_not_found("/games/antiquity_quest/other");
    expect_not_found("/players/");
    expect_not_found("/players/p_12/x");
    expect_not_found("/notes.txt");
    expect_not_found("/sub");
    expect_not_found("/sub/");
    expect_not_found("/app.js/");
}

Test(web_files, nothing_outside_the_folder_or_hidden_in_it)
{
    expect_not_found("/../index.html");
    expect_not_found("/sub/../app.js");
    expect_not_found("/%2e%2e/index.html");
    expect_not_found("/sub/%2e%2e/app.js");
    expect_not_found("/.secret.js");
    expect_not_found("/.git/config");
    expect_not_found("//etc/hostname");
    expect_not_found("/link.js");
    expect_not_found("/pipe.js");
    expect_not_found("/big.js");
}

/* A mistyped or stale link to a match is told at once there is none. */
Test(web_files, a_match_that_does_not_exist_is_the_404_page)
{
    expect_not_found("/matches/m_999999");
    expect_not_found("/matches/m_999999/replay");
    expect_not_found("/matches/m_123");
    expect_not_found("/matches/m_0123");
    expect_not_found("/matches/nonsense");
}

Test(web_files, a_linked_directory_leads_nowhere)
{
    expect_not_found("/outlink/secret.js");
    expect_not_found("/outlink/");
}

/* Decoded, the path ends at the NUL and would name app.js. */
Test(web_files, an_escaped_control_byte_is_refused)
{
    expect_not_found("/app.js%00.html");
    expect_not_found("/app.js%00");
    expect_not_found("/app.js%0a");
    expect_not_found("/app.js%1F.css");
}

Test(web_files, npm_manifests_are_not_served)
{
    expect_not_found("/package.json");
    expect_not_found("/package-lock.json");
    expect_not_found("/vendor/@noble/hashes/package.json");
}

Test(web_files, vendor_serves_only_the_listed_packages)
{
    web_answer a = fetch("/vendor/@noble/hashes/blake2.js");
    cr_expect_eq(a.status, 200);
    cr_expect_str_eq(a.body, "export const b = 2;");
    cr_expect_str_eq(header_of(&a, "Content-Type"), "text/javascript; charset=utf-8");
    free(a.body);
    expect_not_found("/vendor/leftpad/index.js");
    expect_not_found("/vendor/@noble/other/blake2.js");
    expect_not_found("/vendor/@noble/hashes/../../leftpad/index.js");
    expect_not_found("/node_modules/@noble/hashes/blake2.js");
}

Test(web_files, an_unchanged_file_is_not_sent_again)
{
    web_answer a = fetch("/app.js");
    char line[200];
    snprintf(line, sizeof line, "If-None-Match: %s", header_of(&a, "ETag"));
    free(a.body);
    web_answer again = fetch_as("GET", "/app.js", line);
    cr_expect_eq(again.status, 304);
    cr_expect_eq(again.len, 0);
    free(again.body);
    web_answer other = fetch_as("GET", "/app.js", "If-None-Match: \"stale\"");
    cr_expect_eq(other.status, 200);
    free(other.body);
}

Test(web_files, head_answers_without_a_body)
{
    web_answer a = fetch_as("HEAD", "/app.js", NULL);
    cr_expect_eq(a.status, 200);
    cr_expect_eq(a.len, 0);
    cr_expect_str_eq(header_of(&a, "Content-Length"), "26");
    expect_guarded(&a, "HEAD /app.js");
    free(a.body);
}

/* The API's answers, errors and streams included, are data: no browser
 * sniffs them into a page or runs anything from them. */
static void expect_api_guarded(const web_answer *a, const char *what)
{
    cr_expect_str_eq(header_of(a, "X-Content-Type-Options"), "nosniff", "%s",
                     what);
    cr_expect_str_eq(header_of(a, "Content-Security-Policy"),
                     "default-src 'none'; form-action 'self'; "
                     "frame-ancestors 'none'; base-uri 'none'",
                     "%s", what);
    cr_expect_str_eq(header_of(a, "Referrer-Policy"), "no-referrer", "%s",
                     what);
}

Test(web_files, every_api_answer_carries_nosniff_and_a_csp)
{
    const char *paths[] = {"/v1/games",      "/v1/nowhere",
                           "/healthz",       "/metrics",
                           "/v1/players/me", "/v1/matches/m_999999"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        web_answer a = fetch(paths[i]);
        expect_api_guarded(&a, paths[i]);
        free(a.body);
    }
    char api[96];
    snprintf(api, sizeof api, "/v1%s", match_page);
    web_answer a = fetch(api);
    cr_expect_eq(a.status, 200, "%s", api);
    expect_api_guarded(&a, api);
    free(a.body);
    /* Refused at the head, before any route. */
    a = fetch_as("POST", "/v1/players", "Transfer-Encoding: chunked");
    cr_expect_eq(a.status, 411);
    expect_api_guarded(&a, "a chunked POST");
    free(a.body);
}

Test(web_files, the_api_keeps_its_json_answers)
{
    web_answer a = fetch("/v1/nowhere");
    cr_expect_eq(a.status, 404);
    cr_expect_str_eq(header_of(&a, "Content-Type"), "application/json");
    free(a.body);
    a = fetch("/healthz");
    cr_expect_eq(a.status, 200);
    cr_expect_str_eq(header_of(&a, "Content-Type"), "application/json");
    free(a.body);
    /* Only GET and HEAD are the page's: a POST elsewhere is the API's. */
    a = fetch_as("POST", "/", NULL);
    cr_expect_str_eq(header_of(&a, "Content-Type"), "application/json");
    free(a.body);
}
