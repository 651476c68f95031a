/* mail_scene.c: see mail_scene.h. */
#include "mail_scene.h"

#include <criterion/criterion.h>
#include <sodium.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../support/dovecot.h"

/* A fresh Ed25519 key: its seed in a new file (path: 256 bytes), its
 * public half in the environment variable named. */
static void make_key(char *path, const char *prefix, const char *variable)
{
    unsigned char seed[crypto_sign_SEEDBYTES], pk[32], sk[64];
    randombytes_buf(seed, sizeof seed);
    crypto_sign_seed_keypair(pk, sk, seed);
    char seed_b64[64], pk_b64[64];
    sodium_bin2base64(seed_b64, sizeof seed_b64, seed, sizeof seed,
                      sodium_base64_VARIANT_ORIGINAL);
    sodium_bin2base64(pk_b64, sizeof pk_b64, pk, sizeof pk,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(path, 256, "%s/%s-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", prefix);
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "%s\n", seed_b64);
    fclose(f);
    setenv(variable, pk_b64, 1);
}

void mail_scene_start(mail_scene *scene, bool through_imap,
                      const char *const *extra_env)
{
    memset(scene, 0, sizeof *scene);
    cr_assert(sodium_init() >= 0);
    char name[64];
    e2e_private_database(name, sizeof name);
    setenv("PBEM_NOTIFY_BACKOFF_MS", "200", 1);
    setenv("PBEM_NOTIFY_POLL_MS", "1000", 1);
    setenv("PBEM_NOTIFY_LEASE_SECONDS", "3", 1);
    setenv("PBEM_MAIL_REPLY_TO", "pbem@example.org", 1);
    unsetenv("PBEM_MAIL_TRUST_AUTHSERV_ID");
    unsetenv("PBEM_IMAP_URL");
    receiver_start(&scene->smtp, "smtp-receiver.mjs", NULL);
    char url[64];
    snprintf(url, sizeof url, "smtp://127.0.0.1:%d", scene->smtp.port);
    setenv("PBEM_SMTP_URL", url, 1);
    make_key(scene->key_file, "mail-key", "PBEM_MAIL_INBOUND_KEY");
    make_key(scene->admin_key_file, "admin-key", "PBEM_ADMIN_KEY");
    scene->through_imap = through_imap;
    if (through_imap) {
        dovecot *server = calloc(1, sizeof *server);
        static const char *const users[] = {"pbem", NULL};
        dovecot_start(server, users);
        char imap[512];
        dovecot_url(server, "pbem", "INBOX", imap, sizeof imap);
        setenv("PBEM_IMAP_URL", imap, 1);
        setenv("PBEM_IMAP_POLL_MS", "50", 1);
        scene->imap = server;
    }
    for (int i = 0; extra_env && extra_env[i]; i++) {
        char *pair = strdup(extra_env[i]);
        char *eq = strchr(pair, '=');
        cr_assert_not_null(eq, "%s", pair);
        *eq = '\0';
        setenv(pair, eq + 1, 1);
        free(pair);
    }
    e2e_start(&scene->server);
}

void mail_scene_stop(mail_scene *scene)
{
    cr_expect_eq(e2e_stop(&scene->server), 0, "pbemd did not stop cleanly");
    receiver_stop(&scene->smtp);
    if (scene->imap != NULL) {
        dovecot_remove(scene->imap);
        free(scene->imap);
    }
    unlink(scene->key_file);
    unlink(scene->admin_key_file);
    unsetenv("PBEM_IMAP_URL");
}

char *mail_scene_compose(const char *from, const char *to, const char *subject,
                   const char *in_reply_to, const char *extra_headers,
                   const char *body, char *id)
{
    static int counter;
    char fresh[128];
    if (id == NULL)
        id = fresh;
    if (id == fresh || id[0] == '\0')
        snprintf(id, 128, "t%d.%d.%ld@client.example", getpid(), ++counter,
                 (long)time(NULL));
    char *raw = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&raw, &size);
    fprintf(out, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\n"
                 "Date: Wed, 25 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n"
                 "Content-Type: text/plain; charset=utf-8\r\n",
            from, to, subject, id);
    if (in_reply_to != NULL)
        fprintf(out, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", in_reply_to,
                in_reply_to);
    if (extra_headers != NULL)
        fputs(extra_headers, out);
    fputs("\r\n", out);
    for (const char *c = body; *c; c++) {
        if (*c == '\n')
            fputc('\r', out);
        fputc(*c, out);
    }
    fputs("\r\n", out);
    fclose(out);
    return raw;
}

int mail_hand_in(mail_scene *scene, const char *raw)
{
    scene->sent++;
    if (scene->through_imap) {
        dovecot_append(scene->imap, "pbem", "INBOX", raw, strlen(raw));
        return 0;
    }
    char path[256];
    snprintf(path, sizeof path, "%s/mail-in-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, raw, strlen(raw)), (ssize_t)strlen(raw));
    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    unlink(path);
    /* What it says goes to a file, for the test that fails on it. */
    FILE *log = tmpfile();
    cr_assert_not_null(log);
    /* Started directly, not through system()'s shell: on a machine where
     * a process start costs milliseconds, the shell was a fifth of what
     * a mailed move cost these tests. */
    char url[64], *const cli = getenv("PBEM_CLI");
    snprintf(url, sizeof url, "http://127.0.0.1:%d", scene->server.port);
    char *argv[] = {cli,     "mail-in",       "--url", url,
                    "--key", scene->key_file, NULL};
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_adddup2(&files, fd, STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&files, fileno(log), STDERR_FILENO);
    pid_t pid;
    int rc = posix_spawn(&pid, cli, &files, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&files);
    close(fd);
    cr_assert_eq(rc, 0, "cannot start %s: %s", cli, strerror(rc));
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "pbem mail-in did not exit");
    rewind(log);
    char line[512];
    while (WEXITSTATUS(status) != 0 && fgets(line, sizeof line, log))
        fprintf(stderr, "pbem mail-in: %s", line);
    fclose(log);
    return WEXITSTATUS(status);
}

int mail_scene_pbem(const mail_scene *scene, const char *args,
                    const char *out_file)
{
    char command[2048];
    bool admin = strncmp(args, "export", 6) == 0 ||
                 strncmp(args, "import", 6) == 0;
    char service[400] = "";
    if (admin)
        snprintf(service, sizeof service,
                 " --url http://127.0.0.1:%d --key \"%s\"",
                 scene->server.port, scene->admin_key_file);
    snprintf(command, sizeof command, "\"%s\" %s%s > \"%s\"",
             getenv("PBEM_CLI"), args, service,
             out_file ? out_file : "/dev/null");
    int status = system(command);
    cr_assert(WIFEXITED(status), "pbem %s did not exit", args);
    return WEXITSTATUS(status);
}

size_t mail_count(const mail_scene *scene)
{
    return receiver_count(&scene->smtp);
}

static bool sent_to(const json_t *mail, const char *address)
{
    size_t i;
    const json_t *to;
    json_array_foreach(json_object_get(mail, "envelope_to"), i, to) {
        if (strcasecmp(json_string_value(to), address) == 0)
            return true;
    }
    return false;
}

json_t *mail_next_to(mail_scene *scene, const char *address, size_t *from,
                     int seconds)
{
    double until = receiver_now() + seconds;
    for (size_t i = *from;; i++) {
        const json_t *mail = receiver_await(&scene->smtp, i, until);
        if (mail == NULL)
            return NULL;
        if (sent_to(mail, address)) {
            *from = i + 1;
            return json_incref((json_t *)mail);
        }
    }
}

const char *mail_reply_to(const json_t *mail)
{
    return json_string_value(
        json_array_get(json_object_get(mail, "reply_to"), 0));
}

const char *mail_text(const json_t *mail)
{
    const char *text = json_string_value(json_object_get(mail, "text"));
    return text ? text : "";
}

/* text with every run of white space as one space (malloc'd). */
static char *one_spaced(const char *text)
{
    char *out = malloc(strlen(text) + 1);
    cr_assert_not_null(out);
    size_t n = 0;
    for (const char *c = text; *c; c++) {
        bool space = *c == ' ' || *c == '\n' || *c == '\t' || *c == '\r';
        if (!space)
            out[n++] = *c;
        else if (n == 0 || out[n - 1] != ' ')
            out[n++] = ' ';
    }
    out[n] = '\0';
    return out;
}

bool mail_says(const json_t *mail, const char *words)
{
    char *text = one_spaced(mail_text(mail)), *wanted = one_spaced(words);
    bool found = strstr(text, wanted) != NULL;
    free(text);
    free(wanted);
    return found;
}

/* The moves a mail lists (notify/seat_text.h): after the line that
 * announces them, "  move" lines when the list is whole, else group
 * headings "  form:" with "    move" examples under them; the list ends at
 * the first line that is not indented. */
json_t *mail_offered_moves(const json_t *mail)
{
    json_t *moves = json_array();
    const char *text = mail_text(mail);
    const char *heading = strstr(text, "oves you can make now");
    if (heading == NULL)
        heading = strstr(text, "Your moves");
    const char *at = heading ? strchr(heading, '\n') : NULL;
    while (at != NULL && at[1] == ' ') {
        const char *line = at + 1;
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
            n--;
        bool example = n > 4 && strncmp(line, "    ", 4) == 0;
        bool whole = !example && n > 2 && line[2] != ' ' && line[n - 1] != ':' &&
                     strncmp(line + 2, "\xe2\x80\xa6", 3) != 0;
        if (example)
            json_array_append_new(moves, json_stringn(line + 4, n - 4));
        else if (whole)
            json_array_append_new(moves, json_stringn(line + 2, n - 2));
        at = end;
    }
    return moves;
}
