/* dovecot.c */
#include "dovecot.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ports.h"

#define STARTS_MAX 5

/* Who Dovecot runs as: the test's user, or 'dovecot' for root. */
typedef struct runner {
    uid_t uid;
    gid_t gid;
    char user[64], group[64];
} runner;

static void who_runs(runner *r)
{
    const struct passwd *pw =
        geteuid() == 0 ? getpwnam("dovecot") : getpwuid(geteuid());
    cr_assert_not_null(pw, "no user to run Dovecot as (as root, the "
                           "'dovecot' user of the dovecot-core package)");
    r->uid = pw->pw_uid;
    r->gid = geteuid() == 0 ? pw->pw_gid : getegid();
    snprintf(r->user, sizeof r->user, "%s", pw->pw_name);
    const struct group *gr = getgrgid(r->gid);
    cr_assert_not_null(gr, "group %u has no name", (unsigned)r->gid);
    snprintf(r->group, sizeof r->group, "%s", gr->gr_name);
}

/* The pace of a bounded poll, not a wait for anything in particular. */
static void pause_ms(int ms)
{
    struct timespec t = {.tv_sec = ms / 1000,
                         .tv_nsec = (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The monotonic clock a wait's bound is read on, in seconds: a bound
 * counted in rounds stretches with each round's own time on a busy
 * machine. */
static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void write_file(const char *path, const char *text, const runner *r)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s: %s", path, strerror(errno));
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
    if (geteuid() == 0)
        cr_assert_eq(chown(path, r->uid, r->gid), 0);
}

static void make_dir(const char *path, const runner *r)
{
    cr_assert(mkdir(path, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", path,
              strerror(errno));
    if (geteuid() == 0)
        cr_assert_eq(chown(path, r->uid, r->gid), 0);
}

static void write_config(const dovecot *d, const runner *r)
{
    char path[600], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    /* Everything under d->dir, every process as r: no root, no syslog,
     * no chroot (which needs root), nothing but IMAP on loopback. */
    fprintf(f,
            "base_dir = %s\n"
            "state_dir = %s/state\n"
            "log_path = %s/dovecot.log\n"
            "protocols = imap\n"
            "listen = 127.0.0.1\n"
            "disable_plaintext_auth = no\n"
            "auth_mechanisms = plain login\n"
            "default_internal_user = %s\n"
            "default_internal_group = %s\n"
            "default_login_user = %s\n"
            "first_valid_uid = %u\n"
            "last_valid_uid = %u\n"
            "first_valid_gid = %u\n"
            "mail_location = maildir:%s/mail/%%u\n"
            "passdb {\n"
            "  driver = passwd-file\n"
            "  args = scheme=PLAIN username_format=%%u %s/passwd\n"
            "}\n"
            "userdb {\n"
            "  driver = static\n"
            "  args = uid=%u gid=%u home=%s/mail/%%u\n"
            "}\n"
            "namespace inbox {\n"
            "  inbox = yes\n"
            "  separator = /\n"
            "}\n"
            "service imap-login {\n"
            "  chroot =\n"
            "  inet_listener imap {\n"
            "    address = 127.0.0.1\n"
            "    port = %d\n"
            "  }\n"
            "  inet_listener imaps {\n"
            "    address = 127.0.0.1\n"
            "    port = %d\n"
            "  }\n"
            "}\n"
            "service anvil {\n"
            "  chroot =\n"
            "}\n",
            d->run_dir, d->dir, d->dir, r->user, r->group, r->user,
            (unsigned)r->uid, (unsigned)r->uid, (unsigned)r->gid, d->dir,
            d->dir, (unsigned)r->uid, (unsigned)r->gid, d->dir, d->port,
            d->tls_port);
    if (d->tls_port > 0)
        fprintf(f,
                "ssl = yes\n"
                "ssl_cert = <%s/cert.pem\n"
                "ssl_key = <%s/key.pem\n",
                d->dir, d->dir);
    else
        fprintf(f, "ssl = no\n");
    cr_assert_eq(fclose(f), 0);
    snprintf(path, sizeof path, "%s/dovecot.conf", d->dir);
    write_file(path, text, r);
    free(text);
}

/* The passwd-file, passwords base64-encoded: they hold a colon, which
 * would end the field. */
static void write_passwd(const dovecot *d, const runner *r)
{
    char path[600], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    for (int i = 0; i < d->users; i++) {
        char b64[128];
        sodium_bin2base64(
            b64, sizeof b64, (const unsigned char *)d->password[i],
            strlen(d->password[i]), sodium_base64_VARIANT_ORIGINAL);
        fprintf(f, "%s:{PLAIN.b64}%s::::::\n", d->user[i], b64);
    }
    cr_assert_eq(fclose(f), 0);
    snprintf(path, sizeof path, "%s/passwd", d->dir);
    write_file(path, text, r);
    free(text);
}

static pid_t spawn(const dovecot *d, const runner *r)
{
    char conf[600], out[600];
    snprintf(conf, sizeof conf, "%s/dovecot.conf", d->dir);
    snprintf(out, sizeof out, "%s/stderr.log", d->dir);
    const char *bin = access("/usr/sbin/dovecot", X_OK) == 0
                          ? "/usr/sbin/dovecot"
                          : "dovecot";
    pid_t parent = getpid();
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(r->gid) != 0 ||
                               setuid(r->uid) != 0))
            _exit(126);
        /* A process group of its own: Dovecot's master leaves the
         * processes serving open connections running when it stops, and
         * dovecot_stop must end them all, and only them. */
        if (setsid() < 0)
            _exit(126);
        /* After setuid, which clears it: Dovecot dies with the test, even
         * one that failed before dovecot_remove. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(0);
        /* As root, the folder is the 'dovecot' user's, but every folder
         * above it must let that user through (a checkout in root's 0700
         * home does not). */
        if (access(conf, R_OK) != 0) {
            dprintf(STDERR_FILENO,
                    "user %s cannot read %s: %s (every folder above it "
                    "must be searchable by that user)\n",
                    r->user, conf, strerror(errno));
            _exit(125);
        }
        execlp(bin, bin, "-F", "-c", conf, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Whether file's text holds needle. */
static bool file_says(const char *file, const char *needle)
{
    FILE *f = fopen(file, "r");
    if (f == NULL)
        return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL)
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

/* Whether a client connecting now gets Dovecot's "* OK" greeting. */
static bool greets(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t)port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    bool ok = false;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        char greeting[8] = "";
        ok = poll(&p, 1, 2000) == 1 && recv(fd, greeting, 4, 0) == 4 &&
             strncmp(greeting, "* OK", 4) == 0;
    }
    close(fd);
    return ok;
}

/* Starts Dovecot on d->port and waits (10 s at most) for its greeting.
 * False when it exited because the port was taken. */
static bool launch(dovecot *d, const runner *r)
{
    char log[600], out[600];
    snprintf(log, sizeof log, "%s/dovecot.log", d->dir);
    snprintf(out, sizeof out, "%s/stderr.log", d->dir);
    d->pid = spawn(d, r);
    double until = now_seconds() + 10;
    while (now_seconds() < until) {
        int status;
        if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
            d->pid = 0;
            if (file_says(log, "Address already in use") ||
                file_says(out, "Address already in use"))
                return false;
            char first[300] = "";
            FILE *f = fopen(out, "r");
            if (f != NULL) {
                if (fgets(first, sizeof first, f) == NULL)
                    first[0] = '\0';
                fclose(f);
            }
            cr_assert_fail("Dovecot ended (%s %d) before it served: "
                           "%s(see %s and %s)",
                           WIFEXITED(status) ? "exit" : "signal",
                           WIFEXITED(status) ? WEXITSTATUS(status)
                                             : WTERMSIG(status),
                           first, log, out);
        }
        if (greets(d->port))
            return true;
        pause_ms(20);
    }
    cr_assert_fail("Dovecot did not greet on port %d within 10 s; see %s",
                   d->port, log);
    return false;
}

/* A self-signed certificate for 127.0.0.1 (key.pem, cert.pem in d->dir),
 * made by the openssl command; an EC key, as it is quick to make. */
static void make_certificate(dovecot *d, const runner *r)
{
    char key[600], cert[600], out[600];
    snprintf(key, sizeof key, "%s/key.pem", d->dir);
    snprintf(cert, sizeof cert, "%s/cert.pem", d->dir);
    snprintf(out, sizeof out, "%s/openssl.log", d->dir);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        execlp("openssl", "openssl", "req", "-x509", "-newkey", "ec",
               "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
               key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
               "-addext", "subjectAltName=IP:127.0.0.1", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "openssl could not make a certificate (status %d); see %s",
              status, out);
    if (geteuid() == 0) {
        cr_assert_eq(chown(key, r->uid, r->gid), 0);
        cr_assert_eq(chown(cert, r->uid, r->gid), 0);
    }
    snprintf(d->ca_file, sizeof d->ca_file, "%s", cert);
}

static int remove_entry(const char *path, const struct stat *st, int type,
                        struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0;
}

/* Removes the folders in parent named prefix<pid>-<n> of tests that died
 * before dovecot_remove (a crash skips the test's clean-up): those whose
 * pid is gone. */
static void sweep_dead_in(const char *parent, const char *prefix)
{
    DIR *folder = opendir(parent);
    if (folder == NULL)
        return;
    const struct dirent *entry;
    size_t prefix_len = strlen(prefix);
    while ((entry = readdir(folder)) != NULL) {
        int pid = 0, n = 0;
        /* Only when no process has that pid any more (ESRCH). */
        if (strncmp(entry->d_name, prefix, prefix_len) != 0 ||
            sscanf(entry->d_name + prefix_len, "%d-%d", &pid, &n) != 2 ||
            pid <= 0 || kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[300];
        snprintf(path, sizeof path, "%s/%s", parent, entry->d_name);
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    closedir(folder);
}

static void sweep_dead(void)
{
    sweep_dead_in("var", "dovecot-");
    sweep_dead_in("/tmp", "pbem-dovecot-");
}

static void start(dovecot *d, const char *const *users, bool tls)
{
    static int started;
    cr_assert(sodium_init() >= 0);
    cr_assert_eq(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
    memset(d, 0, sizeof *d);
    for (; users[d->users] != NULL; d->users++) {
        cr_assert_lt(d->users, DOVECOT_USERS_MAX);
        snprintf(d->user[d->users], sizeof d->user[0], "%s", users[d->users]);
        snprintf(d->password[d->users], sizeof d->password[0],
                 "s3cr:t@%s 100%%", users[d->users]);
    }
    runner r;
    who_runs(&r);
    char cwd[256];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    cr_assert(mkdir("var", 0755) == 0 || errno == EEXIST);
    sweep_dead();
    snprintf(d->dir, sizeof d->dir, "%s/var/dovecot-%d-%d", cwd, (int)getpid(),
             ++started);
    /* Dovecot's unix sockets live in base_dir, and a socket's path holds
     * about 107 bytes: under a deep checkout it would not fit, so
     * base_dir is a short folder in /tmp. */
    snprintf(d->run_dir, sizeof d->run_dir, "/tmp/pbem-dovecot-%d-%d",
             (int)getpid(), started);
    make_dir(d->dir, &r);
    make_dir(d->run_dir, &r);
    char path[600];
    static const char *const subdirs[] = {"state", "mail"};
    for (size_t i = 0; i < sizeof subdirs / sizeof subdirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", d->dir, subdirs[i]);
        make_dir(path, &r);
    }
    /* Dovecot wants its base_dir readable by all (and says so). */
    cr_assert_eq(chmod(d->run_dir, 0755), 0);
    write_passwd(d, &r);
    if (tls)
        make_certificate(d, &r);
    for (int attempt = 0; attempt < STARTS_MAX; attempt++) {
        d->port = ports_free();
        d->tls_port = 0;
        while (tls && (d->tls_port == 0 || d->tls_port == d->port))
            d->tls_port = ports_free();
        write_config(d, &r);
        if (launch(d, &r))
            return;
    }
    cr_assert_fail("Dovecot found no free port in %d tries", STARTS_MAX);
}

void dovecot_start(dovecot *d, const char *const *users)
{
    start(d, users, false);
}

void dovecot_start_tls(dovecot *d, const char *const *users)
{
    start(d, users, true);
}

/* One libcurl handle for the APPENDs (and the SEARCH and STORE that
 * make the new message unseen), so that its connection cache keeps a
 * logged-in session per user between them: a login makes Dovecot start a
 * login and an imap process, which on a machine where a process start
 * costs milliseconds was most of what a mailed move cost a test through
 * IMAP. Counts log in afresh: a session that keeps a mailbox selected
 * was seen to count flags and expunges of other sessions late. A stopped
 * Dovecot takes the sessions with it (dovecot_stop). The lock is for
 * tests whose threads hand in mail too. */
static pthread_mutex_t session_lock = PTHREAD_MUTEX_INITIALIZER;
static CURL *session_handle;

static CURL *session_take(void)
{
    pthread_mutex_lock(&session_lock);
    if (session_handle == NULL)
        session_handle = curl_easy_init();
    else
        curl_easy_reset(session_handle); /* keeps the connections */
    cr_assert_not_null(session_handle);
    return session_handle;
}

static void sessions_end(void)
{
    pthread_mutex_lock(&session_lock);
    if (session_handle != NULL)
        curl_easy_cleanup(session_handle);
    session_handle = NULL;
    pthread_mutex_unlock(&session_lock);
}

static void session_give_back(void)
{
    pthread_mutex_unlock(&session_lock);
}

void dovecot_stop(dovecot *d)
{
    if (d->pid <= 0)
        return;
    /* The whole group (see spawn): the master and every process it
     * started, the ones holding clients' connections included, so that
     * clients see the server go as they would a real one stopping. */
    kill(-d->pid, SIGTERM);
    int status;
    waitpid(d->pid, &status, 0);
    for (int i = 0; kill(-d->pid, 0) == 0; i++) {
        if (i == 250)
            kill(-d->pid, SIGKILL); /* 5 s is long enough to go */
        cr_assert_lt(i, 500, "Dovecot's processes outlived SIGKILL");
        pause_ms(20);
    }
    d->pid = 0;
    sessions_end();
}

void dovecot_restart(dovecot *d)
{
    cr_assert_eq(d->pid, 0, "dovecot_restart: it is running");
    runner r;
    who_runs(&r);
    /* The processes of the last run may hold the port a moment longer. */
    for (int attempt = 0; attempt < 100; attempt++) {
        if (launch(d, &r))
            return;
        pause_ms(50);
    }
    cr_assert_fail("Dovecot could not listen on port %d again", d->port);
}

void dovecot_remove(dovecot *d)
{
    dovecot_stop(d);
    if (d->dir[0] != '\0')
        nftw(d->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (d->run_dir[0] != '\0')
        nftw(d->run_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    d->dir[0] = '\0';
    d->run_dir[0] = '\0';
}

const char *dovecot_password(const dovecot *d, const char *user)
{
    for (int i = 0; i < d->users; i++) {
        if (strcmp(d->user[i], user) == 0)
            return d->password[i];
    }
    cr_assert_fail("no Dovecot user %s", user);
    return NULL;
}

static void url_of(const dovecot *d, const char *scheme, int port,
                   const char *user, const char *mailbox, char *out,
                   size_t size)
{
    CURL *easy = curl_easy_init();
    cr_assert_not_null(easy);
    char *name = curl_easy_escape(easy, user, 0);
    char *password = curl_easy_escape(easy, dovecot_password(d, user), 0);
    char *box = curl_easy_escape(easy, mailbox, 0);
    snprintf(out, size, "%s://%s:%s@127.0.0.1:%d/%s", scheme, name, password,
             port, box);
    curl_free(name);
    curl_free(password);
    curl_free(box);
    curl_easy_cleanup(easy);
}

void dovecot_url(const dovecot *d, const char *user, const char *mailbox,
                 char *out, size_t size)
{
    url_of(d, "imap", d->port, user, mailbox, out, size);
}

void dovecot_imaps_url(const dovecot *d, const char *user, const char *mailbox,
                       char *out, size_t size)
{
    cr_assert_gt(d->tls_port, 0, "started without TLS");
    url_of(d, "imaps", d->tls_port, user, mailbox, out, size);
}

typedef struct upload {
    const char *data;
    size_t length, at;
} upload;

static size_t read_upload(char *buffer, size_t size, size_t count, void *data)
{
    upload *u = data;
    size_t take =
        u->length - u->at < size * count ? u->length - u->at : size * count;
    memcpy(buffer, u->data + u->at, take);
    u->at += take;
    return take;
}

static size_t collect(char *data, size_t size, size_t count, void *out)
{
    fwrite(data, size, count, out);
    return size * count;
}

/* Runs one IMAP command on user's mailbox (libcurl selects it first) and
 * returns the untagged lines; NULL when the mailbox does not exist. In
 * the APPENDs' session, or in a session of its own. */
static char *command(const dovecot *d, const char *user, const char *mailbox,
                     const char *request, bool in_session)
{
    char url[512], error[CURL_ERROR_SIZE] = "";
    dovecot_url(d, user, mailbox, url, sizeof url);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    CURL *easy = in_session ? session_take() : curl_easy_init();
    cr_assert_not_null(easy);
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, out);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT, 20L);
    CURLcode rc = curl_easy_perform(easy);
    if (in_session)
        session_give_back();
    else
        curl_easy_cleanup(easy);
    cr_assert_eq(fclose(out), 0);
    /* libcurl 7.88 reports a refused SELECT as a denied login. */
    if (rc == CURLE_LOGIN_DENIED && strstr(error, "Select") != NULL) {
        free(text);
        return NULL;
    }
    cr_assert_eq(rc, CURLE_OK, "IMAP %s on %s: %s %s", request, mailbox,
                 curl_easy_strerror(rc), error);
    return text;
}

/* The UIDs of a "* SEARCH …" line among lines, into uids; how many. */
static int search_result(const char *lines, unsigned *uids, int max)
{
    const char *at = strstr(lines, "* SEARCH");
    cr_assert_not_null(at, "no SEARCH answer in %s", lines);
    int n = 0;
    for (const char *p = at + 8; *p == ' ';) {
        char *end = NULL;
        unsigned long uid = strtoul(p + 1, &end, 10);
        if (end == p + 1)
            break;
        if (n < max && uids != NULL)
            uids[n] = (unsigned)uid;
        n++;
        p = end;
    }
    return n;
}

/* APPENDs raw (libcurl 7.88 sets \Seen on it) and writes the UIDs of the
 * messages with its Message-ID, comma-separated, to uids (size bytes). */
static void append_seen(const dovecot *d, const char *user, const char *mailbox,
                        const char *raw, size_t length, char *uids, size_t size)
{
    char url[512], error[CURL_ERROR_SIZE] = "";
    dovecot_url(d, user, mailbox, url, sizeof url);
    upload u = {.data = raw, .length = length};
    CURL *easy = session_take();
    curl_easy_setopt(easy, CURLOPT_URL, url);
    curl_easy_setopt(easy, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(easy, CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(easy, CURLOPT_READDATA, &u);
    curl_easy_setopt(easy, CURLOPT_INFILESIZE_LARGE, (curl_off_t)length);
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(easy, CURLOPT_TIMEOUT, 60L);
    CURLcode rc = curl_easy_perform(easy);
    session_give_back();
    cr_assert_eq(rc, CURLE_OK, "APPEND to %s: %s %s", mailbox,
                 curl_easy_strerror(rc), error);
    const char *header = strcasestr(raw, "\nMessage-ID:");
    cr_assert_not_null(header, "dovecot_append needs a Message-ID header");
    header += strlen("\nMessage-ID:");
    while (*header == ' ')
        header++;
    char id[256], request[400];
    snprintf(id, sizeof id, "%.*s", (int)strcspn(header, "\r\n"), header);
    snprintf(request, sizeof request, "UID SEARCH HEADER Message-ID \"%s\"",
             id);
    char *lines = command(d, user, mailbox, request, true);
    cr_assert_not_null(lines);
    unsigned found[8];
    int n = search_result(lines, found, 8);
    free(lines);
    cr_assert(n >= 1 && n <= 8, "%d messages with Message-ID %s", n, id);
    size_t used = 0;
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(uids + used, size - used, "%s%u", i ? "," : "",
                                 found[i]);
}

/* Takes \Seen off the messages uids (a UID set) in one STORE. */
static void unsee(const dovecot *d, const char *user, const char *mailbox,
                  const char *uids)
{
    char request[1100];
    snprintf(request, sizeof request, "UID STORE %s -FLAGS.SILENT (\\Seen)",
             uids);
    free(command(d, user, mailbox, request, true));
}

void dovecot_append(const dovecot *d, const char *user, const char *mailbox,
                    const char *raw, size_t length)
{
    /* libcurl 7.88 appends with \Seen set: new mail is unseen. */
    char uids[100];
    append_seen(d, user, mailbox, raw, length, uids, sizeof uids);
    unsee(d, user, mailbox, uids);
}

void dovecot_append_together(const dovecot *d, const char *user,
                             const char *mailbox, const char *const *raws,
                             int count)
{
    char uids[1024] = "";
    size_t used = 0;
    for (int i = 0; i < count && used + 100 < sizeof uids; i++) {
        if (i > 0)
            uids[used++] = ',';
        append_seen(d, user, mailbox, raws[i], strlen(raws[i]), uids + used,
                    sizeof uids - used);
        used = strlen(uids);
    }
    unsee(d, user, mailbox, uids);
}

int dovecot_count(const dovecot *d, const char *user, const char *mailbox,
                  const char *criteria)
{
    char request[400];
    snprintf(request, sizeof request, "UID SEARCH %s", criteria);
    char *lines = command(d, user, mailbox, request, false);
    if (lines == NULL)
        return -1;
    int n = search_result(lines, NULL, 0);
    free(lines);
    return n;
}

bool dovecot_wait_count(const dovecot *d, const char *user, const char *mailbox,
                        const char *criteria, int expected, int seconds)
{
    double until = now_seconds() + seconds;
    while (now_seconds() < until) {
        if (dovecot_count(d, user, mailbox, criteria) == expected)
            return true;
        pause_ms(20);
    }
    return dovecot_count(d, user, mailbox, criteria) == expected;
}
